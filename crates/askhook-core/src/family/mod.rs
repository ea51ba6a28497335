//! Question families: a second, looser identity for questions that carry no marker, so the
//! mechanical rewordings of one decision share an id even when the exact hash does not.
//!
//! ## What a family is
//! `fam-` + the first 10 hex digits of SHA-1 over the question's *key* and its options' keys,
//! sorted. A key is the text folded: lowercased; recommendation markers (`(Recommended)`,
//! `(推荐)`, …) and `Recommendation: X` lines removed; punctuation and symbols read as spaces,
//! apostrophes dropped (`don't` = `dont`); every run of digits read as `#`, and a number word
//! after a word ending in one dropped (`3 files` = `12 files`, `v1.4.0` = `v2.1`); filler words dropped: articles,
//! pronouns, auxiliaries, politeness and the selectors `which` / `what` / `use` (in English, and
//! the articles and pronouns of a few other languages, [`STOP_WORDS`]). Word order is kept:
//! `merge main into develop` and `merge develop into main` are different decisions. Options are a
//! sorted list, so reordering them or moving the recommendation keeps the family; adding,
//! removing or renaming one changes it.
//!
//! So `Which database should we use?` with `PostgreSQL (Recommended) / SQLite` and `Which
//! database?` with `SQLite (Recommended) / PostgreSQL` share a family; `Which database should
//! the tests use?` does not, and nor does any paraphrase with other words. The design prefers
//! a missed match to a wrong one: a family preference answers every question of the family,
//! so two decisions must never share one. Words that change the decision (negations, `also`,
//! `all`, `only`, prepositions, subjects, targets, environments) are never dropped.
//!
//! Questions with a marker (`<askhook-qid:…>`) have no family: their id is already stable.
//! A question whose key is empty (only filler words) has none either.
//!
//! ## Stability
//! The fold is versioned ([`FAMILY_VERSION`], hashed in): changing it changes every family,
//! which orphans family preferences, so it changes only with a migration that recomputes the
//! stored families.

use std::fmt::Write as _;

mod lexicon;
mod matcher;
mod text;

pub use matcher::{may_match, same_decision, Probe, Reason, Signature, StoredKey, Verdict};

use sha1::{Digest, Sha1};

use crate::question::{strip_recommendation, Choice};

/// The version of the fold, hashed into every family id.
pub const FAMILY_VERSION: u32 = 1;

/// The prefix of a family id.
pub const FAMILY_PREFIX: &str = "fam-";

/// How a family is named where a question id could be (`pref set family:fam-…`, `show`, `log
/// --question`).
pub const FAMILY_KEY_PREFIX: &str = "family:";

/// Filler words dropped from keys: they reword a question without changing its decision.
/// Never a negation, a quantifier (`all`, `only`, `also`), a preposition or a subject.
pub const STOP_WORDS: &[&str] = &[
    // English: articles, pronouns, auxiliaries and modals, politeness, selectors
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "i",
    "me",
    "my",
    "we",
    "us",
    "our",
    "you",
    "your",
    "it",
    "its",
    "they",
    "them",
    "their",
    "is",
    "are",
    "am",
    "be",
    "been",
    "was",
    "were",
    "do",
    "does",
    "did",
    "should",
    "shall",
    "would",
    "will",
    "can",
    "could",
    "may",
    "might",
    "must",
    "please",
    "kindly",
    "ok",
    "okay",
    "so",
    "just",
    "want",
    "wanna",
    "like",
    "prefer",
    "let",
    "lets",
    "ill",
    "ive",
    "id",
    "youd",
    "now",
    "which",
    "what",
    "use",
    "using",
    "to",
    // German, French, Spanish, Portuguese: articles and pronouns, `should`, `want`
    "der",
    "die",
    "das",
    "den",
    "dem",
    "des",
    "ein",
    "eine",
    "einen",
    "einem",
    "ich",
    "du",
    "wir",
    "soll",
    "sollen",
    "möchtest",
    "willst",
    "bitte",
    "le",
    "la",
    "les",
    "l",
    "un",
    "une",
    "je",
    "tu",
    "vous",
    "nous",
    "dois",
    "doit",
    "veux",
    "voulez",
    "el",
    "los",
    "las",
    "una",
    "yo",
    "usted",
    "quieres",
    "debo",
    "o",
    "os",
    "as",
    "um",
    "uma",
    "eu",
    "você",
    "voce",
    "devo",
    "quer",
    // Russian
    "я",
    "ты",
    "вы",
    "мы",
    "ли",
];

/// The family of a question without a marker: `None` when its key is empty.
pub fn family_id(text: &str, options: &[Choice]) -> Option<String> {
    let question = question_key(text);
    if question.is_empty() {
        return None;
    }
    let mut labels: Vec<String> = options.iter().map(|o| option_key(&o.label)).collect();
    labels.sort_unstable();
    let mut hasher = Sha1::new();
    hasher.update(format!("askhook-family-{FAMILY_VERSION}\n").as_bytes());
    hasher.update(question.as_bytes());
    hasher.update(b"\n");
    hasher.update(labels.join("\u{1f}").as_bytes());
    let digest = hasher.finalize();
    let mut id = String::with_capacity(FAMILY_PREFIX.len() + 10);
    id.push_str(FAMILY_PREFIX);
    for byte in &digest[..5] {
        let _ = write!(id, "{byte:02x}");
    }
    Some(id)
}

/// Whether `text` looks like a family id (`fam-` + 10 lowercase hex digits).
pub fn is_family_id(text: &str) -> bool {
    text.strip_prefix(FAMILY_PREFIX).is_some_and(|hex| {
        hex.len() == 10
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The family id named by `family:<id>`, if `key` is such a name.
pub fn family_of_key(key: &str) -> Option<&str> {
    key.strip_prefix(FAMILY_KEY_PREFIX)
        .filter(|id| is_family_id(id))
}

/// The key of a question text: folded, recommendation lines and markers removed.
pub fn question_key(text: &str) -> String {
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| crate::question::recommendation_line_value(line).is_none())
        .collect();
    fold(&strip_recommendation(&kept.join("\n")))
}

/// The key of an option label: folded, its recommendation marker removed.
pub fn option_key(label: &str) -> String {
    fold(&strip_recommendation(label))
}

/// Lowercase, split into words on anything but letters and digits, digit runs as `#` (but in a
/// path), filler words dropped, joined by single spaces.
fn fold(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, words: &mut Vec<String>| {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        if STOP_WORDS.contains(&w.as_str())
            || (w == "#" && words.last().is_some_and(|l| l.ends_with('#')))
        {
            return;
        }
        words.push(w);
    };
    for chunk in text.split_whitespace() {
        // A path keeps its numbers: `release/3.1` and `release/3.0` are two branches.
        let path = chunk.contains('/');
        for c in chunk.chars() {
            if matches!(c, '\'' | '’' | '‘' | 'ʼ') {
                continue;
            }
            if c.is_numeric() && !path {
                if !word.ends_with('#') {
                    word.push('#');
                }
            } else if c.is_alphanumeric() || is_joiner(c) {
                word.extend(c.to_lowercase());
            } else {
                flush(&mut word, &mut words);
            }
        }
        flush(&mut word, &mut words);
    }
    words.join(" ")
}

/// Combining marks and joiners inside a word (Devanagari vowel signs, Thai tone marks, ZWJ):
/// part of the word, never a separator.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036f}' | '\u{0900}'..='\u{0dff}' | '\u{0e00}'..='\u{0eff}' | '\u{200d}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::tests::choices;

    fn fam(text: &str, labels: &[&str]) -> Option<String> {
        family_id(text, &choices(labels))
    }

    #[test]
    fn keys_fold_the_mechanical_differences() {
        let cases: &[(&str, &str)] = &[
            ("Which database should we use?", "database"),
            ("Which  DATABASE, please?", "database"),
            ("Should I commit these 3 files now?", "commit # files"),
            ("Commit the 12 files?", "commit # files"),
            ("Upgrade from v1.4.0 to v2.10?", "upgrade from v# v#"),
            (
                "Cherry-pick it onto release/3.1?",
                "cherry pick onto release 3 1",
            ),
            ("Don't push yet?", "dont push yet"),
            ("Merge main into develop?", "merge main into develop"),
            ("Pick one.\nRecommendation: SQLite", "pick one"),
            ("¿Qué base de datos usamos?", "qué base de datos usamos"),
            ("用哪个数据库？", "用哪个数据库"),
            ("Should I?", ""),
        ];
        for (text, key) in cases {
            assert_eq!(question_key(text), *key, "{text}");
        }
        assert_eq!(option_key("PostgreSQL (Recommended)"), "postgresql");
        assert_eq!(option_key("Use 2 spaces （推荐）"), "# spaces");
    }

    #[test]
    fn rewordings_share_a_family() {
        let a = fam(
            "Which database should we use?",
            &["PostgreSQL (Recommended)", "SQLite"],
        );
        for (text, labels) in [
            (
                "Which database?",
                &["SQLite (Recommended)", "PostgreSQL"][..],
            ),
            (
                "What database should I use, please?",
                &["sqlite", "PostgreSQL"],
            ),
            (
                "which database  should we use",
                &["PostgreSQL", "SQLite (推荐)"],
            ),
        ] {
            assert_eq!(fam(text, labels), a, "{text}");
        }
        assert!(a.as_deref().is_some_and(is_family_id));
    }

    #[test]
    fn different_decisions_do_not() {
        let base = fam("Should I enable the cache?", &["Yes (Recommended)", "No"]);
        for (text, labels) in [
            (
                "Should I disable the cache?",
                &["Yes (Recommended)", "No"][..],
            ),
            ("Should I enable the cache in production?", &["Yes", "No"]),
            ("Should I not enable the cache?", &["Yes", "No"]),
            ("Should I also enable the cache?", &["Yes", "No"]),
            ("Should I enable the cache?", &["Yes", "No", "Later"]),
            ("Should I enable all the caches?", &["Yes", "No"]),
        ] {
            assert_ne!(fam(text, labels), base, "{text}");
        }
        assert_ne!(
            fam("Merge main into develop?", &["Yes", "No"]),
            fam("Merge develop into main?", &["Yes", "No"])
        );
        assert_eq!(fam("Should I?", &["Yes", "No"]), None);
    }

    #[test]
    fn family_keys_name_only_family_ids() {
        assert_eq!(
            family_of_key("family:fam-0123456789"),
            Some("fam-0123456789")
        );
        for bad in [
            "fam-0123456789",
            "family:fam-012345678",
            "family:fam-ABCDEF0123",
            "family:x",
        ] {
            assert_eq!(family_of_key(bad), None, "{bad}");
        }
    }
}
