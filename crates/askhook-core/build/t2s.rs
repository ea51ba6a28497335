//! Traditional → Simplified Chinese, character by character, for the build: the fold
//! (`src/classify/fold.rs`, compiled into `build.rs` too) reads lexicon terms through it, and
//! [`write_table`] writes the same mapping as the static table the binary searches
//! (`src/classify/t2s.rs`), so terms and question words meet on one key.
//!
//! The mapping is `OpenCC`'s (through the `hanconv` crate): Taiwan and Hong Kong variant forms
//! are first brought to `OpenCC`'s standard Traditional form (`裡` → `裏`), which is then made
//! Simplified (`裏` → `里`, `刪` → `删`, `資` → `资`). Only one character to one character:
//! a phrase mapping would need the whole sentence and is not needed for matching words.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;

use hanconv::Dictionary;

fn single(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

fn table() -> &'static HashMap<char, char> {
    static TABLE: OnceLock<HashMap<char, char>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut standard: HashMap<char, char> = HashMap::new();
        for dict in [Dictionary::TWVariantsRev, Dictionary::HKVariantsRev] {
            for (from, to) in dict.iter() {
                if let (Some(f), Some(t)) = (single(from), single(to)) {
                    standard.entry(f).or_insert(t);
                }
            }
        }
        let mut simplified: HashMap<char, char> = HashMap::new();
        for (from, to) in Dictionary::TSCharacters.iter() {
            if let (Some(f), Some(t)) = (single(from), single(to)) {
                simplified.entry(f).or_insert(t);
            }
        }
        let mut map = HashMap::new();
        for (&variant, &standard_form) in &standard {
            let to = simplified
                .get(&standard_form)
                .copied()
                .unwrap_or(standard_form);
            if to != variant {
                map.insert(variant, to);
            }
        }
        for (&from, &to) in &simplified {
            if from != to {
                map.entry(from).or_insert(to);
            }
        }
        map
    })
}

/// The Simplified form of a Traditional character, if it has another one.
pub fn simplified(c: char) -> Option<char> {
    table().get(&c).copied()
}

/// Write `T2S: &[(char, char)]`, sorted by the Traditional character, for
/// `src/classify/t2s.rs`.
pub fn write_table(out: &Path) {
    let mut pairs: Vec<(char, char)> = table().iter().map(|(&f, &t)| (f, t)).collect();
    pairs.sort_unstable();
    let mut code = String::from("&[\n");
    for (from, to) in pairs {
        writeln!(code, "    ({from:?}, {to:?}),").unwrap();
    }
    code.push(']');
    std::fs::write(out.join("t2s_table.rs"), code).expect("write t2s_table.rs");
}
