//! What a `tool_response` says about each question, once the binary has read its wire shape
//! (`hook::wire`): the answer as given, multi-select selections, free text, notes, whether the
//! recommendation was followed, and whether the idle auto-continue answered. All pure.
//!
//! ## Matching answers to questions
//! Native answers come as a map keyed by question text: the exact text as sent (markers and
//! all) or as stored, then the same text whitespace-collapsed and lowercased, then — for a lone
//! question with a lone answer — that answer. Legacy shapes give answers by position.
//!
//! ## Interpretation
//! A single-select answer that is not one of the labels (its recommendation marker and spacing aside) is
//! free text. A multi-select answer is split against the labels ([`split_selections`]); what
//! matches no label is free text. Notes (`annotations[q].notes`) are kept and stand in as free
//! text when nothing else is. The recommendation counts as followed when the (or a) chosen
//! label is the recommended one; never for an idle auto-continue.

use serde::{Deserialize, Serialize};

use crate::question::Question;

/// What the response says about one question (stored with its row).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The answer string as given (labels verbatim, multi-select joined by `, `).
    pub answer: Option<String>,
    /// The parsed selections of a multi-select answer (free text included as one item).
    pub selections: Option<Vec<String>>,
    /// Text that is not one of the offered labels, or the user's notes.
    pub free_text: Option<String>,
    /// `annotations[q].notes`.
    pub notes: Option<String>,
    /// Whether the answer matches the recommended option; `None` when unknown.
    pub followed_recommendation: Option<bool>,
    /// The idle auto-continue submitted this answer (`afkTimeoutMs`).
    pub afk: bool,
}

/// What a `tool_response` amounts to.
#[derive(Debug, Clone, PartialEq)]
pub enum Response {
    /// One entry per question, in order.
    Answers(Vec<Answer>),
    /// The question did not reach the user.
    Failed(String),
    /// A shape askhook does not know: the questions are recorded with no answer.
    Unrecognised(String),
}

/// The answers a response gave, before they are matched to questions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Given {
    /// The native `answers` map: question text → answer (`None`: a value that is no answer).
    ByText(Vec<(String, Option<String>)>),
    /// Legacy shapes: answers in question order.
    ByPosition(Vec<Option<String>>),
    /// No answers at all.
    #[default]
    Nothing,
}

/// Everything a response carried about its questions, whatever its wire shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reply {
    pub given: Given,
    /// `annotations`: question text → its notes (`None`: no string notes).
    pub notes: Vec<(String, Option<String>)>,
    /// A free-text reply instead of answers (`response`), when not blank.
    pub reply: Option<String>,
    /// The idle auto-continue submitted the answers (`afkTimeoutMs`).
    pub afk: bool,
}

/// The answers to `questions`, one per question in order; `None` when the reply holds no
/// answer and no free-text reply.
pub fn read(questions: &[Question], reply: &Reply) -> Option<Vec<Answer>> {
    let raw: Vec<Option<String>> = match &reply.given {
        Given::ByText(map) => match_answer_map(questions, map),
        Given::ByPosition(values) => values
            .iter()
            .cloned()
            .chain(std::iter::repeat(None))
            .take(questions.len())
            .collect(),
        Given::Nothing => vec![None; questions.len()],
    };
    let free = reply.reply.as_deref().filter(|s| !s.trim().is_empty());
    if raw.iter().all(Option::is_none) && free.is_none() {
        return None;
    }
    let answers = questions
        .iter()
        .zip(raw)
        .map(|(q, answer)| {
            let notes = reply
                .notes
                .iter()
                .find(|(k, _)| *k == q.raw_text)
                .or_else(|| reply.notes.iter().find(|(k, _)| *k == q.text))
                .and_then(|(_, n)| n.as_deref())
                .filter(|s| !s.trim().is_empty())
                .map(str::to_owned);
            let mut parsed = interpret(q, answer, notes, reply.afk);
            if parsed.answer.is_none() {
                if let Some(free) = free {
                    parsed.free_text = Some(free.to_owned());
                }
            }
            parsed
        })
        .collect();
    Some(answers)
}

/// Pair an `answers` map with the questions: exact key, then normalised key, then a lone
/// question with a lone answer.
fn match_answer_map(
    questions: &[Question],
    map: &[(String, Option<String>)],
) -> Vec<Option<String>> {
    let get = |key: &str| map.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let mut found: Vec<Option<String>> = questions
        .iter()
        .map(|q| get(&q.raw_text).or_else(|| get(&q.text)).cloned().flatten())
        .collect();
    for (slot, q) in found.iter_mut().zip(questions) {
        if slot.is_none() {
            let want = [normalise(&q.raw_text), normalise(&q.text)];
            *slot = map
                .iter()
                .find(|(k, _)| want.contains(&normalise(k)))
                .and_then(|(_, v)| v.clone());
        }
    }
    if questions.len() == 1 && map.len() == 1 && found[0].is_none() {
        found[0].clone_from(&map[0].1);
    }
    found
}

/// Whitespace-collapsed, lowercased: for lenient key matching.
fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Strip the recommendation marker (`(Recommended)` in any case, or another language's, see
/// [`crate::question::recommendation_marker`]) and surrounding space, for comparisons.
pub fn strip_recommended(label: &str) -> String {
    normalise(&crate::question::strip_recommendation(label))
}

/// Turn one raw answer string into an [`Answer`].
fn interpret(q: &Question, answer: Option<String>, notes: Option<String>, afk: bool) -> Answer {
    let Some(answer) = answer else {
        return Answer {
            notes: notes.clone(),
            free_text: notes,
            afk,
            ..Answer::default()
        };
    };
    let labels: Vec<&str> = q.options.iter().map(|o| o.label.as_str()).collect();
    let (selections, typed) = if q.multi_select {
        let (chosen, extra) = split_selections(&answer, &labels);
        (Some(chosen), extra)
    } else {
        let is_label = labels
            .iter()
            .any(|l| strip_recommended(l) == strip_recommended(&answer));
        (None, (!is_label).then(|| answer.clone()))
    };
    let followed = match (q.recommended_label(), afk) {
        (Some(rec), false) => {
            let rec = strip_recommended(rec);
            Some(match &selections {
                Some(chosen) => chosen.iter().any(|c| strip_recommended(c) == rec),
                None => strip_recommended(&answer) == rec,
            })
        }
        _ => None,
    };
    let free_text = typed.or_else(|| notes.clone());
    Answer {
        answer: Some(answer),
        selections,
        free_text,
        notes,
        followed_recommendation: followed,
        afk,
    }
}

/// Split a `, `-joined multi-select answer against the known labels (labels may contain
/// commas; the longest label that fits wins). Returns every item in order, and the text
/// that matched no label (joined by `, `).
pub fn split_selections(answer: &str, labels: &[&str]) -> (Vec<String>, Option<String>) {
    let mut sorted: Vec<&str> = labels.iter().copied().filter(|l| !l.is_empty()).collect();
    sorted.sort_by_key(|l| std::cmp::Reverse(l.len()));
    let label_at = |s: &str| -> Option<usize> {
        sorted
            .iter()
            .find(|l| s.starts_with(**l) && (s.len() == l.len() || s[l.len()..].starts_with(", ")))
            .map(|l| l.len())
    };
    let mut items = Vec::new();
    let mut extras = Vec::new();
    let mut rest = answer.trim();
    while !rest.is_empty() {
        if let Some(len) = label_at(rest) {
            items.push(rest[..len].to_owned());
            rest = rest[len..].strip_prefix(", ").unwrap_or(&rest[len..]);
            continue;
        }
        // Free text runs up to the next ", " that starts a label, else to the end.
        let mut end = rest.len();
        let mut search = 0;
        while let Some(pos) = rest[search..].find(", ") {
            let at = search + pos;
            if label_at(&rest[at + 2..]).is_some() {
                end = at;
                break;
            }
            search = at + 2;
        }
        let item = rest[..end].trim();
        if !item.is_empty() {
            items.push(item.to_owned());
            extras.push(item.to_owned());
        }
        rest = rest[end..].strip_prefix(", ").unwrap_or(&rest[end..]);
    }
    let extra = (!extras.is_empty()).then(|| extras.join(", "));
    (items, extra)
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // case tables are tuples on purpose
mod tests {
    use super::*;

    #[test]
    fn split_selection_cases() {
        let cases: &[(&str, &[&str], &[&str], Option<&str>)] = &[
            (
                "Alpha, Gamma",
                &["Alpha", "Beta", "Gamma"],
                &["Alpha", "Gamma"],
                None,
            ),
            (
                "Beta, extra feature delta",
                &["Alpha", "Beta", "Gamma"],
                &["Beta", "extra feature delta"],
                Some("extra feature delta"),
            ),
            (
                "Red, green, Blue",
                &["Red, green", "Blue", "Red"],
                &["Red, green", "Blue"],
                None,
            ),
            (
                "Red, Blue",
                &["Red, green", "Blue", "Red"],
                &["Red", "Blue"],
                None,
            ),
            (
                "mine, with comma, Blue",
                &["Red", "Blue"],
                &["mine, with comma", "Blue"],
                Some("mine, with comma"),
            ),
            ("", &["Red"], &[], None),
        ];
        for (answer, labels, want, extra) in cases {
            let (items, free) = split_selections(answer, labels);
            assert_eq!(items, *want, "{answer}");
            assert_eq!(free.as_deref(), *extra, "{answer}");
        }
    }

    #[test]
    fn unanswered_replies_are_none_and_free_replies_stand_in() {
        let q = Question::new(
            0,
            "Which?".into(),
            None,
            crate::question::tests::choices(&["X (Recommended)", "Y"]),
            false,
        );
        assert_eq!(read(std::slice::from_ref(&q), &Reply::default()), None);
        let by_text = Reply {
            given: Given::ByText(vec![("which?".into(), Some("Y".into()))]),
            ..Reply::default()
        };
        let a = read(std::slice::from_ref(&q), &by_text).unwrap();
        assert_eq!(a[0].answer.as_deref(), Some("Y"));
        assert_eq!(a[0].followed_recommendation, Some(false));
        let free = Reply {
            reply: Some("let's talk".into()),
            ..Reply::default()
        };
        let a = read(std::slice::from_ref(&q), &free).unwrap();
        assert_eq!(a[0].free_text.as_deref(), Some("let's talk"));
    }
}
