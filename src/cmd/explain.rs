//! What a silencing preference or rule will do, in the user's own terms: the answer askhook
//! will give from now on, how the user answered before, and warnings when that history says
//! it is a bad idea (they mostly chose something else) or that it can never fire (no
//! recommended option, a one-way or unknown door). Shared by `pref set` and `rule add`.

use serde::Serialize;

use askhook_core::classify::Door;
use askhook_core::policy::Preference;

use crate::store::history::History;
use crate::sys::ui;

/// How many past answers are quoted.
pub const ANSWERS_SHOWN: usize = 3;

/// The history as `--json` reports it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct HistoryJson {
    pub asked: u64,
    pub with_recommendation: u64,
    pub followed: u64,
    pub auto_decided: u64,
    /// The person's latest answers, newest first.
    pub last_answers: Vec<String>,
}

impl From<&History> for HistoryJson {
    fn from(h: &History) -> HistoryJson {
        HistoryJson {
            asked: h.asked,
            with_recommendation: h.with_recommendation,
            followed: h.followed,
            auto_decided: h.auto_decided,
            last_answers: h.answers.iter().map(|a| a.answer.clone()).collect(),
        }
    }
}

/// `you followed the recommendation 0 of 3 times; your last answers were MySQL, MySQL, MySQL`.
pub fn history_line(h: &HistoryJson) -> String {
    let followed = if h.with_recommendation == 0 {
        "you never answered it with a recommendation on offer".to_owned()
    } else {
        format!(
            "you followed the recommendation {} of {} time{}",
            h.followed,
            h.with_recommendation,
            if h.with_recommendation == 1 { "" } else { "s" }
        )
    };
    let answers: Vec<String> = h
        .last_answers
        .iter()
        .take(ANSWERS_SHOWN)
        .map(|a| ui::sanitize(&clip(a, 60), false))
        .collect();
    match answers.len() {
        0 => format!("{followed}; no answer of yours is recorded"),
        1 => format!("{followed}; your last answer was {}", answers[0]),
        _ => format!("{followed}; your last answers were {}", answers.join(", ")),
    }
}

/// Why the preference may be a bad idea, or cannot fire. `recommended`: the recommendation as
/// last asked (`None`: none recognised); `door`: the door as last asked.
pub fn warnings(
    value: Preference,
    h: &HistoryJson,
    recommended: Option<&str>,
    door: Option<Door>,
) -> Vec<String> {
    let mut out = Vec::new();
    if !value.silences() {
        return out;
    }
    out.extend(overridden(value, h));
    if recommended.is_none() && h.asked > 0 {
        out.push(
            "the question has no recommended option, so this can never fire: askhook only ever \
             answers with the recommendation"
                .into(),
        );
    }
    match door {
        Some(Door::OneWay) => out.push(
            "it was last asked as a one-way door; askhook will still ask the human while it reads \
             that way"
                .into(),
        ),
        Some(Door::Unknown) => out.push(format!(
            "it was last asked as an unknown door (the classifier could not read it); {} cannot \
             fire while its door is unknown",
            value.as_str()
        )),
        _ => {}
    }
    out
}

/// The warning when the person mostly did not follow the recommendation (half the time or
/// more), for a silencing `value`.
pub fn overridden(value: Preference, h: &HistoryJson) -> Option<String> {
    let overridden = h.with_recommendation - h.followed;
    (value.silences() && overridden > 0 && overridden * 2 >= h.with_recommendation).then(|| {
        format!(
            "you chose something other than the recommendation {overridden} of {} times: askhook \
             will answer with the recommendation, not with what you chose",
            h.with_recommendation
        )
    })
}

/// Cut `text` to `max` characters, marking the cut.
pub fn clip(text: &str, max: usize) -> String {
    askhook_core::policy::clip(text.trim(), max)
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // case tables are tuples on purpose
mod tests {
    use super::*;

    fn h(with: u64, followed: u64, answers: &[&str]) -> HistoryJson {
        HistoryJson {
            asked: with + 1,
            with_recommendation: with,
            followed,
            auto_decided: 0,
            last_answers: answers.iter().map(|a| (*a).to_owned()).collect(),
        }
    }

    #[test]
    fn the_history_reads_like_the_issue() {
        assert_eq!(
            history_line(&h(3, 0, &["MySQL", "MySQL", "MySQL", "Older"])),
            "you followed the recommendation 0 of 3 times; your last answers were MySQL, MySQL, MySQL"
        );
        assert_eq!(
            history_line(&h(1, 1, &["PG"])),
            "you followed the recommendation 1 of 1 time; your last answer was PG"
        );
    }

    #[test]
    fn warnings_table() {
        use Preference::{AlwaysAsk, NeverAsk};
        let cases: &[(
            &str,
            Preference,
            HistoryJson,
            Option<&str>,
            Option<Door>,
            usize,
        )] = &[
            (
                "followed",
                NeverAsk,
                h(3, 3, &[]),
                Some("A"),
                Some(Door::TwoWay),
                0,
            ),
            (
                "overridden",
                NeverAsk,
                h(3, 0, &[]),
                Some("A"),
                Some(Door::TwoWay),
                1,
            ),
            (
                "half overridden",
                NeverAsk,
                h(4, 2, &[]),
                Some("A"),
                None,
                1,
            ),
            ("no recommendation", NeverAsk, h(0, 0, &[]), None, None, 1),
            (
                "one-way",
                NeverAsk,
                h(0, 0, &[]),
                Some("A"),
                Some(Door::OneWay),
                1,
            ),
            (
                "always-ask never warns",
                AlwaysAsk,
                h(3, 0, &[]),
                None,
                Some(Door::OneWay),
                0,
            ),
        ];
        for (name, value, history, rec, door, n) in cases {
            assert_eq!(warnings(*value, history, *rec, *door).len(), *n, "{name}");
        }
    }
}
