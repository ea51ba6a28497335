//! The one fold that lexicon terms (at build time) and question words (at run time) both go
//! through, so that they meet on the same key: lowercase, compatibility forms made plain
//! (fullwidth, mathematical, circled letters, ligatures), accents and other combining marks
//! dropped in alphabetic scripts (`löschen` → `loschen`, `ё` → `е`), and the few letters that
//! have no decomposition spelled out (`ß` → `ss`, `ł` → `l`, `æ` → `ae`).
//!
//! Kana, Hangul and Han are only brought to their canonical width (halfwidth katakana →
//! fullwidth): decomposing them would split a Hangul syllable into jamo and drop the voicing
//! marks that tell `が` from `か`. Traditional Chinese characters become Simplified
//! (`super::t2s`: `資料庫` → `资料库`), so Taiwan and Hong Kong text meets the lexicons.
//!
//! This file is also compiled into `build.rs` (by `#[path]`), so it depends on nothing but std,
//! `unicode-normalization` and its sibling `t2s` module (the generated table in the library,
//! the table's source in the build).

use unicode_normalization::char::{decompose_compatible, is_combining_mark};
use unicode_normalization::UnicodeNormalization;

/// Whether `c` is written in a script that is folded to its canonical width only.
pub fn is_east_asian(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF | 0x3040..=0x30FF | 0x3130..=0x318F | 0x31F0..=0x31FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7AF
        | 0xD7B0..=0xD7FF | 0xF900..=0xFAFF | 0xFF66..=0xFFDC | 0x20000..=0x3134F)
}

/// Append the folded form of one character.
pub fn fold_char_into(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    if is_east_asian(c) {
        // Only halfwidth katakana and compatibility ideographs change under NFKC; a
        // Traditional Chinese character then becomes its Simplified form, so `刪除` meets the
        // term `删除` (and a Japanese term in kanji meets Japanese text folded the same way).
        if matches!(c as u32, 0xFF66..=0xFFDC | 0xF900..=0xFAFF) {
            for d in std::iter::once(c).nfkc() {
                out.push(super::t2s::simplified(d).unwrap_or(d));
            }
        } else {
            out.push(super::t2s::simplified(c).unwrap_or(c));
        }
        return;
    }
    match c {
        'ß' | 'ẞ' => return out.push_str("ss"),
        'æ' | 'Æ' => return out.push_str("ae"),
        'œ' | 'Œ' => return out.push_str("oe"),
        'ø' | 'Ø' => return out.push('o'),
        'ł' | 'Ł' => return out.push('l'),
        'đ' | 'Đ' => return out.push('d'),
        'ı' => return out.push('i'),
        'þ' | 'Þ' => return out.push_str("th"),
        'ᴀ' => return out.push('a'),
        'ʙ' => return out.push('b'),
        'ᴄ' => return out.push('c'),
        'ᴅ' => return out.push('d'),
        'ᴇ' => return out.push('e'),
        'ꜰ' => return out.push('f'),
        'ɢ' => return out.push('g'),
        'ʜ' => return out.push('h'),
        'ɪ' => return out.push('i'),
        'ᴊ' => return out.push('j'),
        'ᴋ' => return out.push('k'),
        'ʟ' => return out.push('l'),
        'ᴍ' => return out.push('m'),
        'ɴ' => return out.push('n'),
        'ᴏ' => return out.push('o'),
        'ᴘ' => return out.push('p'),
        'ʀ' => return out.push('r'),
        'ꜱ' => return out.push('s'),
        'ᴛ' => return out.push('t'),
        'ᴜ' => return out.push('u'),
        'ᴠ' => return out.push('v'),
        'ᴡ' => return out.push('w'),
        'ʏ' => return out.push('y'),
        'ᴢ' => return out.push('z'),
        _ => {}
    }
    decompose_compatible(c, |d| {
        if !is_combining_mark(d) {
            out.extend(d.to_lowercase());
        }
    });
}

/// The folded key of a word or term.
pub fn fold_key(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        fold_char_into(c, &mut out);
    }
    out
}

/// The part of a word (`len` characters, read through `at`) the tokenizer keeps around its
/// apostrophes: an English possessive is dropped (`team's`, `customers'` → `team`,
/// `customers`), and so is a French or Italian elided particle (`l'entreprise`, `qu'on` →
/// `entreprise`, `on`). English contractions stay whole (`we're`, `I'm`, `don't`). The build
/// reads lexicon terms through it too, so a term is written as people write the word.
pub fn apostrophe_bounds(len: usize, at: impl Fn(usize) -> char) -> (usize, usize) {
    let (mut from, mut to) = (0, len);
    if to > 2 && at(to - 1) == '\'' {
        to -= 1;
    } else if to > 3 && at(to - 2) == '\'' && matches!(at(to - 1), 's' | 'S') {
        to -= 2;
    }
    if let Some(a) = (from..to).find(|&i| at(i) == '\'') {
        if a + 1 < to && is_elided_particle(a, &at) {
            from = a + 1;
        }
    }
    (from, to)
}

/// The French and Italian words written elided before a vowel: `l'`, `d'`, `qu'`, `un'` …
fn is_elided_particle(len: usize, at: impl Fn(usize) -> char) -> bool {
    let particle: String = (0..len).map(|i| at(i).to_ascii_lowercase()).collect();
    matches!(
        particle.as_str(),
        "c" | "d" | "j" | "l" | "m" | "n" | "s" | "t" | "qu" | "un"
    )
}

/// German spellings without umlauts (`loeschen` for `löschen`): the extra key a German term
/// gets, or `None` when it has no umlaut or ß.
pub fn umlaut_spelling(text: &str) -> Option<String> {
    if !text
        .chars()
        .any(|c| matches!(c, 'ä' | 'ö' | 'ü' | 'Ä' | 'Ö' | 'Ü'))
    {
        return None;
    }
    let spelled: String = text
        .chars()
        .flat_map(|c| match c {
            'ä' | 'Ä' => "ae".chars().collect::<Vec<_>>(),
            'ö' | 'Ö' => "oe".chars().collect(),
            'ü' | 'Ü' => "ue".chars().collect(),
            other => vec![other],
        })
        .collect();
    Some(fold_key(&spelled))
}

/// FNV-1a over bytes: the hash of the build-time tables. Build and run time must agree.
pub const fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}
