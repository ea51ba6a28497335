//! Questions as askhook understands them, all pure: the question id (marker or hash) and the
//! recommended option. Reading them off the wire is `hook::wire` / `hook::event` in the binary;
//! reading their answers is [`crate::answer`].
//!
//! ## Question id
//! A marker in the text, `<askhook-qid:ID>` or gstack's `<gstack-qid:ID>` (ID =
//! `[a-z0-9-]{1,64}`), wins and is stripped from the stored text. Without one, the id is
//! `hook-` + the first 10 hex digits of SHA-1 over
//! `unknown::<question text>::<option labels sorted, joined by |>` (gstack's formula).
//!
//! ## Recommendation
//! An option whose label carries a recommendation marker: `(Recommended)` in any case, or the
//! word agents use for it in another language (`(推荐)`, `（推荐）`, `(推奨)`, `(おすすめ)`,
//! `(권장)`, `(Empfohlen)`, `(Recomendado)`, `(Recommandé)`, `(Рекомендуется)`, … see
//! [`RECOMMENDATION_MARKERS`]), in ASCII or full-width parentheses; else a `Recommendation: X` /
//! `Recommended: X` line in the question text naming exactly one option by label or letter.
//! Two candidates are ambiguous, which counts as no recommendation.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use sha1::{Digest, Sha1};

/// Most questions one call may carry before askhook treats the input as hostile.
pub const MAX_QUESTIONS: usize = 16;
/// Most options one question may carry before askhook treats the input as hostile.
pub const MAX_OPTIONS: usize = 32;

/// One offered option (as sent, as stored, as shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    pub label: String,
    pub description: String,
}

impl Choice {
    /// Options with these labels and no descriptions (`rule test TEXT --option …`, tests).
    pub fn labelled<S: AsRef<str>>(labels: &[S]) -> Vec<Choice> {
        labels
            .iter()
            .map(|l| Choice {
                label: l.as_ref().to_owned(),
                description: String::new(),
            })
            .collect()
    }
}

/// Where a question id came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum IdSource {
    /// A `<askhook-qid:…>` or `<gstack-qid:…>` marker in the text.
    Marker,
    /// gstack's hash formula over the text and the option labels.
    Hash,
    /// Imported from gstack's question log, with its id.
    Gstack,
}

impl IdSource {
    pub fn as_str(self) -> &'static str {
        match self {
            IdSource::Marker => "marker",
            IdSource::Hash => "hash",
            IdSource::Gstack => "gstack",
        }
    }

    /// `marker`, `hash` or `gstack`.
    pub fn parse(text: &str) -> Option<IdSource> {
        [IdSource::Marker, IdSource::Hash, IdSource::Gstack]
            .into_iter()
            .find(|s| s.as_str() == text)
    }
}

/// What the question recommends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recommendation {
    None,
    /// The index of the one recommended option.
    One(usize),
    /// More than one candidate: treated as no recommendation.
    Ambiguous,
}

impl Recommendation {
    pub fn index(self) -> Option<usize> {
        match self {
            Recommendation::One(i) => Some(i),
            _ => None,
        }
    }
}

/// One question of an `AskUserQuestion` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// Position in `tool_input.questions`.
    pub index: usize,
    /// The text exactly as sent; it is the key of `answers`.
    pub raw_text: String,
    /// The text with id markers stripped: what is stored and shown.
    pub text: String,
    pub header: Option<String>,
    pub options: Vec<Choice>,
    pub multi_select: bool,
    pub id: String,
    pub id_source: IdSource,
    /// The looser identity of a question without a marker ([`crate::family`]).
    pub family: Option<String>,
    pub recommendation: Recommendation,
}

impl Question {
    /// The recommended option's label, when there is exactly one.
    pub fn recommended_label(&self) -> Option<&str> {
        self.recommendation
            .index()
            .map(|i| self.options[i].label.as_str())
    }

    /// Every text field a classifier should read: text, header, labels, descriptions.
    pub fn text_fields(&self) -> Vec<&str> {
        let mut fields = vec![self.text.as_str()];
        fields.extend(self.header.as_deref());
        for option in &self.options {
            fields.push(&option.label);
            fields.push(&option.description);
        }
        fields
    }
}

/// Read the questions of a `tool_input` (or a `tool_response` that echoes them).
impl Question {
    /// A question from its parts as sent: its id and recommendation are worked out here.
    pub fn new(
        index: usize,
        raw_text: String,
        header: Option<String>,
        options: Vec<Choice>,
        multi_select: bool,
    ) -> Question {
        let (id, id_source, text) = question_id(&raw_text, &options);
        let recommendation = recommendation(&text, &options);
        let family = match id_source {
            IdSource::Hash => crate::family::family_id(&text, &options),
            IdSource::Marker | IdSource::Gstack => None,
        };
        Question {
            index,
            raw_text,
            text,
            header,
            options,
            multi_select,
            id,
            id_source,
            family,
            recommendation,
        }
    }
}

/// The id of a question and its text with markers removed.
pub fn question_id(raw_text: &str, options: &[Choice]) -> (String, IdSource, String) {
    let (marker, stripped) = strip_markers(raw_text);
    match marker {
        Some(id) => (id, IdSource::Marker, stripped),
        None => (hash_id(raw_text, options), IdSource::Hash, stripped),
    }
}

/// gstack's id formula: `hook-` + 10 hex digits of SHA-1 over `unknown::<text>::<labels>`.
pub fn hash_id(text: &str, options: &[Choice]) -> String {
    let mut labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    labels.sort_unstable();
    let mut hasher = Sha1::new();
    hasher.update(b"unknown::");
    hasher.update(text.as_bytes());
    hasher.update(b"::");
    hasher.update(labels.join("|").as_bytes());
    let digest = hasher.finalize();
    let mut id = String::with_capacity(15);
    id.push_str("hook-");
    for byte in &digest[..5] {
        let _ = write!(id, "{byte:02x}");
    }
    id
}

const MARKER_PREFIXES: [&str; 2] = ["<askhook-qid:", "<gstack-qid:"];

/// Find the first valid id marker and remove every valid marker from the text.
fn strip_markers(text: &str) -> (Option<String>, String) {
    let mut found: Option<String> = None;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, prefix)) = MARKER_PREFIXES
        .iter()
        .filter_map(|p| rest.find(p).map(|at| (at, *p)))
        .min_by_key(|(at, _)| *at)
    {
        let after = &rest[at + prefix.len()..];
        let id_end = after.find('>');
        let id = id_end.map(|end| &after[..end]);
        if let Some(id) = id.filter(|id| is_valid_id(id)) {
            out.push_str(&rest[..at]);
            found.get_or_insert_with(|| id.to_owned());
            rest = &after[id.len() + 1..];
        } else {
            out.push_str(&rest[..at + prefix.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    let cleaned = if found.is_some() {
        collapse_spaces(&out)
    } else {
        out
    };
    (found, cleaned)
}

/// A valid marker id: `[a-z0-9-]{1,64}`.
pub fn is_valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Trim and collapse the runs of spaces a removed marker leaves behind (newlines kept).
fn collapse_spaces(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            line.split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    lines.join("\n").trim().to_owned()
}

/// The words that mark an option as the recommended one when written in parentheses after
/// (or inside) its label, lowercase: Claude Code's `Recommended` and the words agents use when
/// they write to users in other languages.
pub const RECOMMENDATION_MARKERS: &[&str] = &[
    "recommended",
    // Chinese (simplified, traditional), Japanese, Korean
    "推荐",
    "推薦",
    "推奨",
    "おすすめ",
    "オススメ",
    "お勧め",
    "お薦め",
    "권장",
    "추천",
    // Spanish, Portuguese, French, German, Italian, Dutch
    "recomendado",
    "recomendada",
    "recommandé",
    "recommandée",
    "empfohlen",
    "consigliato",
    "consigliata",
    "aanbevolen",
    // Russian, Ukrainian, Polish, Czech, Turkish, Swedish, Norwegian, Danish, Finnish
    "рекомендуется",
    "рекомендую",
    "рекомендовано",
    "рекомендується",
    "zalecane",
    "zalecany",
    "doporučeno",
    "önerilen",
    "rekommenderas",
    "anbefalt",
    "anbefales",
    "suositeltu",
    // Vietnamese, Indonesian, Greek, Arabic, Hebrew, Hindi, Thai
    "khuyên dùng",
    "đề xuất",
    "disarankan",
    "direkomendasikan",
    "συνιστάται",
    "موصى به",
    "מומלץ",
    "अनुशंसित",
    "แนะนำ",
];

const OPENING: [char; 2] = ['(', '（'];
const CLOSING: [char; 2] = [')', '）'];

/// The byte range of the first recommendation marker in `label` (`(Recommended)`, `（推荐）`,
/// …, parentheses included), if it has one.
pub fn recommendation_marker(label: &str) -> Option<std::ops::Range<usize>> {
    let mut from = 0;
    while let Some(open) = label[from..].find(OPENING).map(|at| at + from) {
        let inner_start = open + label[open..].chars().next().map_or(1, char::len_utf8);
        let close = label[inner_start..].find(CLOSING)? + inner_start;
        let end = close + label[close..].chars().next().map_or(1, char::len_utf8);
        let inner = label[inner_start..close].trim().to_lowercase();
        if RECOMMENDATION_MARKERS.contains(&inner.as_str()) {
            return Some(open..end);
        }
        from = inner_start;
    }
    None
}

/// `label` without its recommendation marker, spaces around the cut collapsed and trimmed.
pub fn strip_recommendation(label: &str) -> String {
    match recommendation_marker(label) {
        Some(range) => {
            let (before, after) = (
                label[..range.start].trim_end(),
                label[range.end..].trim_start(),
            );
            match (before.is_empty(), after.is_empty()) {
                (false, false) => format!("{before} {after}"),
                _ => format!("{before}{after}"),
            }
        }
        None => label.trim().to_owned(),
    }
}

/// Which option the question recommends.
pub fn recommendation(text: &str, options: &[Choice]) -> Recommendation {
    let flagged: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| recommendation_marker(&o.label).is_some())
        .map(|(i, _)| i)
        .collect();
    match flagged.len() {
        1 => return Recommendation::One(flagged[0]),
        0 => {}
        _ => return Recommendation::Ambiguous,
    }
    let mut named: Vec<usize> = Vec::new();
    for line in text.lines() {
        let Some(value) = recommendation_line_value(line) else {
            continue;
        };
        match named_option(value, options) {
            Recommendation::One(i) => {
                if !named.contains(&i) {
                    named.push(i);
                }
            }
            Recommendation::Ambiguous => return Recommendation::Ambiguous,
            Recommendation::None => {}
        }
    }
    match named.len() {
        0 => Recommendation::None,
        1 => Recommendation::One(named[0]),
        _ => Recommendation::Ambiguous,
    }
}

/// The value of a `Recommendation: X` / `Recommended: X` line (markdown emphasis allowed).
pub(crate) fn recommendation_line_value(line: &str) -> Option<&str> {
    let trimmed = line.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '*' | '_' | '-' | '>' | '#')
    });
    let lower = trimmed.to_ascii_lowercase();
    let key_len = ["recommendation", "recommended"]
        .iter()
        .find(|k| lower.starts_with(**k))?
        .len();
    let after = trimmed[key_len..].trim_start_matches(['*', '_', ' ']);
    let value = after.strip_prefix(':')?;
    Some(
        value
            .trim()
            .trim_matches(|c: char| matches!(c, '*' | '_' | '`'))
            .trim(),
    )
}

/// The option a recommendation value names: a letter (`B`, `B)`, `(B)`) or a label.
fn named_option(value: &str, options: &[Choice]) -> Recommendation {
    if let Some(letter) = option_letter(value) {
        let i = (letter - b'A') as usize;
        return if i < options.len() {
            Recommendation::One(i)
        } else {
            Recommendation::None
        };
    }
    let value_lower = value.to_lowercase();
    let exact: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.label.trim().to_lowercase() == value_lower)
        .map(|(i, _)| i)
        .collect();
    if exact.len() == 1 {
        return Recommendation::One(exact[0]);
    }
    let contained: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            let label = o.label.trim().to_lowercase();
            !label.is_empty() && contains_word(&value_lower, &label)
        })
        .map(|(i, _)| i)
        .collect();
    match contained.len() {
        0 => Recommendation::None,
        1 => Recommendation::One(contained[0]),
        _ => Recommendation::Ambiguous,
    }
}

/// `B`, `B)`, `B.`, `(B)`, `B) text`, `Option B` → `B` (uppercase).
fn option_letter(value: &str) -> Option<u8> {
    let v = value.trim();
    let v = v
        .strip_prefix("Option ")
        .or_else(|| v.strip_prefix("option "))
        .unwrap_or(v);
    let b = v.as_bytes();
    let (letter, rest) = match b {
        [b'(', l, b')', rest @ ..] => (*l, rest),
        [l, rest @ ..] => (*l, rest),
        [] => return None,
    };
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    let ok = match rest {
        [] => true,
        [b')' | b'.' | b':', ..] => true,
        [b' ', ..] if b[0] == b'(' => true,
        _ => false,
    };
    ok.then(|| letter.to_ascii_uppercase())
}

/// Whether `needle` occurs in `haystack` bounded by non-alphanumerics.
fn contains_word(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // case tables are tuples on purpose
pub(crate) mod tests {
    use super::*;

    pub(crate) fn choices(labels: &[&str]) -> Vec<Choice> {
        Choice::labelled(labels)
    }

    #[test]
    fn id_cases() {
        struct Case {
            name: &'static str,
            text: &'static str,
            id: &'static str,
            source: IdSource,
            stored: &'static str,
        }
        let cases = [
            Case {
                name: "askhook marker",
                text: "Enable cache? <askhook-qid:demo-q>",
                id: "demo-q",
                source: IdSource::Marker,
                stored: "Enable cache?",
            },
            Case {
                name: "gstack marker",
                text: "<gstack-qid:ship-it> Ship it?",
                id: "ship-it",
                source: IdSource::Marker,
                stored: "Ship it?",
            },
            Case {
                name: "first marker wins",
                text: "Q <askhook-qid:a-1> <gstack-qid:b-2>",
                id: "a-1",
                source: IdSource::Marker,
                stored: "Q",
            },
            Case {
                name: "uppercase id is not a marker",
                text: "Q <askhook-qid:Bad>",
                id: "",
                source: IdSource::Hash,
                stored: "Q <askhook-qid:Bad>",
            },
            Case {
                name: "unterminated marker",
                text: "Q <askhook-qid:abc",
                id: "",
                source: IdSource::Hash,
                stored: "Q <askhook-qid:abc",
            },
            Case {
                name: "empty id",
                text: "Q <askhook-qid:>",
                id: "",
                source: IdSource::Hash,
                stored: "Q <askhook-qid:>",
            },
        ];
        for case in cases {
            let (id, source, stored) = question_id(case.text, &choices(&["A", "B"]));
            assert_eq!(source, case.source, "{}", case.name);
            if source == IdSource::Marker {
                assert_eq!(id, case.id, "{}", case.name);
            } else {
                assert!(
                    id.starts_with("hook-") && id.len() == 15,
                    "{}: {id}",
                    case.name
                );
            }
            assert_eq!(stored, case.stored, "{}", case.name);
        }
        let long = format!("Q <askhook-qid:{}>", "a".repeat(65));
        assert_eq!(question_id(&long, &[]).1, IdSource::Hash);
    }

    #[test]
    fn hash_id_is_gstack_formula_and_order_independent() {
        // sha1("unknown::Which database?::PostgreSQL|SQLite")
        let mut h = Sha1::new();
        h.update(b"unknown::Which database?::PostgreSQL|SQLite");
        let hex = h.finalize()[..5].iter().fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        });
        assert_eq!(
            hash_id("Which database?", &choices(&["SQLite", "PostgreSQL"])),
            format!("hook-{hex}")
        );
        assert_eq!(
            hash_id("Which database?", &choices(&["SQLite", "PostgreSQL"])),
            hash_id("Which database?", &choices(&["PostgreSQL", "SQLite"]))
        );
        assert_ne!(
            hash_id("Which database?", &choices(&["A"])),
            hash_id("Which database!", &choices(&["A"]))
        );
    }

    #[test]
    fn markers_are_found_and_stripped() {
        let cases: &[(&str, Option<&str>, &str)] = &[
            ("X (Recommended)", Some("(Recommended)"), "X"),
            ("B (recommended) — fast", Some("(recommended)"), "B — fast"),
            ("PostgreSQL（推荐）", Some("（推荐）"), "PostgreSQL"),
            ("(推奨) 速い", Some("(推奨)"), "速い"),
            ("Sí (Recomendado)", Some("(Recomendado)"), "Sí"),
            ("Oui (Recommandée)", Some("(Recommandée)"), "Oui"),
            (
                "f(x) then (Recommended)",
                Some("(Recommended)"),
                "f(x) then",
            ),
            ("Use (x) and (y)", None, "Use (x) and (y)"),
            ("Unclosed (Recommended", None, "Unclosed (Recommended"),
            ("  plain  ", None, "plain"),
        ];
        for (label, marker, stripped) in cases {
            let found = recommendation_marker(label).map(|r| &label[r]);
            assert_eq!(found, *marker, "{label}");
            assert_eq!(strip_recommendation(label), *stripped, "{label}");
        }
    }

    /// (name, question text, labels, expected recommendation)
    type RecommendationCase = (
        &'static str,
        &'static str,
        &'static [&'static str],
        Recommendation,
    );

    fn check_recommendations(cases: &[RecommendationCase]) {
        for (name, text, labels, want) in cases {
            assert_eq!(recommendation(text, &choices(labels)), *want, "{name}");
        }
    }

    #[test]
    fn recommendation_cases() {
        let cases: &[RecommendationCase] = &[
            (
                "suffix",
                "Which?",
                &["X (Recommended)", "Y"],
                Recommendation::One(0),
            ),
            (
                "any case, mid label",
                "Which?",
                &["A", "B (recommended) — fast"],
                Recommendation::One(1),
            ),
            (
                "two flagged",
                "Which?",
                &["A (Recommended)", "B (Recommended)"],
                Recommendation::Ambiguous,
            ),
            ("none", "Which?", &["A", "B"], Recommendation::None),
            (
                "line by label",
                "Pick one.\nRecommendation: SQLite",
                &["PostgreSQL", "SQLite"],
                Recommendation::One(1),
            ),
            (
                "line by letter",
                "Pick.\nRecommended: B",
                &["One", "Two"],
                Recommendation::One(1),
            ),
            (
                "line by letter paren",
                "Pick.\n**Recommendation:** B) because",
                &["One", "Two"],
                Recommendation::One(1),
            ),
            (
                "letter out of range",
                "Pick.\nRecommendation: D",
                &["One", "Two"],
                Recommendation::None,
            ),
            (
                "line names two",
                "Pick.\nRecommendation: Red or Blue",
                &["Red", "Blue"],
                Recommendation::Ambiguous,
            ),
            (
                "two lines disagree",
                "Recommendation: Red\nRecommended: Blue",
                &["Red", "Blue"],
                Recommendation::Ambiguous,
            ),
            (
                "label wins over line",
                "Recommendation: Blue",
                &["Red (Recommended)", "Blue"],
                Recommendation::One(0),
            ),
            (
                "word boundary",
                "Recommendation: Reduce",
                &["Red", "Blue"],
                Recommendation::None,
            ),
        ];
        check_recommendations(cases);
    }

    #[test]
    fn recommendation_in_other_languages() {
        let cases: &[RecommendationCase] = &[
            (
                "chinese",
                "用哪个？",
                &["Redis", "PostgreSQL (推荐)"],
                Recommendation::One(1),
            ),
            (
                "chinese full-width",
                "用哪个？",
                &["PostgreSQL（推荐）", "Redis"],
                Recommendation::One(0),
            ),
            (
                "japanese",
                "どれ？",
                &["A", "B (おすすめ)", "C"],
                Recommendation::One(1),
            ),
            (
                "korean spaced",
                "어느 것?",
                &["A ( 권장 )", "B"],
                Recommendation::One(0),
            ),
            (
                "german lowercase",
                "Welche?",
                &["X", "Y (empfohlen)"],
                Recommendation::One(1),
            ),
            (
                "russian",
                "Какой?",
                &["Да (Рекомендуется)", "Нет"],
                Recommendation::One(0),
            ),
            (
                "mixed languages are two",
                "Which?",
                &["A (Recommended)", "B (Empfohlen)"],
                Recommendation::Ambiguous,
            ),
            (
                "another word in parentheses",
                "Which?",
                &["A (fast)", "B (default)"],
                Recommendation::None,
            ),
        ];
        check_recommendations(cases);
    }
}
