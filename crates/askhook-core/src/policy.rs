//! The pure decision: given the questions of one call, their door types and the user's
//! standing preferences, either abstain (let the human answer) or auto-decide every question.
//!
//! A call is auto-decided only when **every** question is eligible: a `never-ask` or
//! `ask-only-for-one-way` preference, a two-way door, and exactly one recommended option.
//! Anything else — `always-ask`, a one-way or unknown door, no or an ambiguous
//! recommendation, no preference — abstains: askhook fails towards asking the human.
//!
//! ## Which preference applies ([`resolve`])
//! A preference on the question's id beats one on its family, which beats rules. Among the
//! rules that match, `always-ask` beats a silencing one. (Within the id and the family, a
//! project preference beats a global one; the store picks it.)

use serde::{Deserialize, Serialize};

use crate::classify::{Door, QuestionText, Verdict};
use crate::question::{Choice, Question};
use crate::registry::Registry;

/// A standing preference for one question id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preference {
    NeverAsk,
    AlwaysAsk,
    AskOnlyForOneWay,
}

impl Preference {
    pub fn as_str(self) -> &'static str {
        match self {
            Preference::NeverAsk => "never-ask",
            Preference::AlwaysAsk => "always-ask",
            Preference::AskOnlyForOneWay => "ask-only-for-one-way",
        }
    }

    pub fn parse(text: &str) -> Option<Preference> {
        match text {
            "never-ask" => Some(Preference::NeverAsk),
            "always-ask" => Some(Preference::AlwaysAsk),
            "ask-only-for-one-way" => Some(Preference::AskOnlyForOneWay),
            _ => None,
        }
    }

    /// Whether this preference lets askhook answer for the user (on a two-way door).
    pub fn silences(self) -> bool {
        matches!(self, Preference::NeverAsk | Preference::AskOnlyForOneWay)
    }
}

/// The rule of a question too long to classify (the classifier reads at most
/// [`crate::classify::MAX_TEXT_BYTES`]).
pub const TOO_LONG_TO_CLASSIFY: &str = crate::classify::TOO_LONG;

/// The classifier's verdict on a question: text, header, every option label and description.
/// This is the one place askhook asks the classifier (the hook, imports, `classify`): swapping
/// the engine changes only what this calls.
pub fn classify_question(question: &Question) -> Verdict {
    classify_parts(
        &question.text,
        question.header.as_deref(),
        &question.options,
    )
}

/// [`classify_question`] on a question's stored parts: its text (markers stripped), header and
/// options as recorded.
pub fn classify_parts(text: &str, header: Option<&str>, options: &[Choice]) -> Verdict {
    // The recommendation marker is the agent's advice, not the option: `(推奨)` must not be
    // read as `推` (push).
    let labels: Vec<std::borrow::Cow<'_, str>> = options
        .iter()
        .map(|o| match crate::question::recommendation_marker(&o.label) {
            Some(_) => crate::question::strip_recommendation(&o.label).into(),
            None => o.label.as_str().into(),
        })
        .collect();
    let options: Vec<(&str, &str)> = labels
        .iter()
        .zip(options)
        .map(|(label, o)| (label.as_ref(), o.description.as_str()))
        .collect();
    crate::classify::classify(&QuestionText {
        question: text,
        header: header.unwrap_or(""),
        options: &options,
    })
}

/// The door of a question with the rule that says why: the registry entry of its id, then the
/// classifier on its parts ([`door_of`]); gstack's split-chain ids get a note that they are
/// always asked. The one place the hook (when a preference could decide) and the store
/// (settling what the hook left unclassified) work a door out.
pub fn door_of_question(
    registry: &Registry,
    id: &str,
    text: &str,
    header: Option<&str>,
    options: &[Choice],
) -> (Door, Option<String>) {
    let (door, rule) = door_of(registry.door(id), &classify_parts(text, header, options));
    (door, with_split_chain_note(id, rule))
}

/// A door's rule, with the note that gstack's split-chain questions are always asked.
pub fn with_split_chain_note(id: &str, rule: Option<String>) -> Option<String> {
    if !crate::registry::is_always_asked(id) {
        return rule;
    }
    let note = "gstack split chain: always asked";
    Some(rule.map_or_else(|| note.to_owned(), |r| format!("{r}; {note}")))
}

/// The verdict on a question known by its text alone (an imported log line).
pub fn classify_text(text: &str) -> Verdict {
    crate::classify::classify_text(text)
}

/// The door type of a question from both sources. The registry can only raise safety: a
/// question is one-way when the registry **or** the classifier says so, so a marker that
/// names a two-way registry id cannot launder a destructive question; and a question the
/// classifier could not read stays unknown whatever the registry says.
pub fn door_of(registry: Option<Door>, classified: &Verdict) -> (Door, Option<String>) {
    let rule = || classified.rule.clone();
    match (registry, classified.door) {
        (Some(Door::OneWay), _) => (Door::OneWay, Some("registry".into())),
        (_, Door::OneWay) => (Door::OneWay, rule()),
        (_, Door::Unknown) => (Door::Unknown, rule()),
        (Some(Door::Unknown), Door::TwoWay) => (Door::Unknown, Some("registry".into())),
        (Some(Door::TwoWay), Door::TwoWay) => (Door::TwoWay, Some("registry".into())),
        (None, Door::TwoWay) => (Door::TwoWay, None),
    }
}

/// What a question's preference was set on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Source {
    /// The question id (a marker or the exact hash).
    Id,
    /// The question family ([`crate::family`]).
    Family,
    /// A rule, by name.
    Rule(String),
}

impl Source {
    /// As stored in `decided_by` and shown: `id`, `family`, `rule:<name>`.
    pub fn label(&self) -> String {
        match self {
            Source::Id => "id".into(),
            Source::Family => "family".into(),
            Source::Rule(name) => format!("rule:{name}"),
        }
    }
}

/// The preference that applies to a question, and what it was set on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub preference: Preference,
    pub source: Source,
}

/// The preference that applies: the id's beats the family's beats the rules'; among matching
/// rules (`(name, preference)`, in the order given) `always-ask` beats a silencing one.
pub fn resolve(
    id: Option<Preference>,
    family: Option<Preference>,
    rules: &[(&str, Preference)],
) -> Option<Resolved> {
    if let Some(preference) = id {
        return Some(Resolved {
            preference,
            source: Source::Id,
        });
    }
    if let Some(preference) = family {
        return Some(Resolved {
            preference,
            source: Source::Family,
        });
    }
    let pick = rules
        .iter()
        .find(|(_, p)| !p.silences())
        .or_else(|| rules.first())?;
    Some(Resolved {
        preference: pick.1,
        source: Source::Rule(pick.0.to_owned()),
    })
}

/// One question with what the policy needs to know about it.
#[derive(Debug, Clone)]
pub struct Assessed<'a> {
    pub question: &'a Question,
    pub door: Door,
    pub preference: Option<Resolved>,
}

/// One auto-decided question: its id, the label askhook answered with, and what decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutoAnswer {
    pub question_index: usize,
    pub question_id: String,
    pub label: String,
    pub decided_by: Source,
}

/// What to do with a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Let the human answer: exit 0, empty stdout.
    Abstain,
    /// Answer every question with its recommended option.
    AutoDecide(Vec<AutoAnswer>),
}

/// Why one question is not eligible for auto-decision (for `doctor`, `show` and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ineligible {
    NoPreference,
    AlwaysAsk,
    OneWay,
    /// The classifier could not read the question.
    UnknownDoor,
    NoRecommendation,
    /// A gstack split-chain question: always asked, whatever is stored.
    SplitChain,
}

/// Whether one question may be answered for the user, and with which label.
pub fn eligibility(a: &Assessed<'_>) -> Result<String, Ineligible> {
    match &a.preference {
        None => return Err(Ineligible::NoPreference),
        Some(r) if !r.preference.silences() => return Err(Ineligible::AlwaysAsk),
        Some(_) => {}
    }
    if crate::registry::is_always_asked(&a.question.id) {
        return Err(Ineligible::SplitChain);
    }
    match a.door {
        Door::OneWay => return Err(Ineligible::OneWay),
        Door::Unknown => return Err(Ineligible::UnknownDoor),
        Door::TwoWay => {}
    }
    a.question
        .recommended_label()
        .map(str::to_owned)
        .ok_or(Ineligible::NoRecommendation)
}

/// Decide a whole call: all questions eligible, or abstain.
pub fn decide(questions: &[Assessed<'_>]) -> Decision {
    if questions.is_empty() {
        return Decision::Abstain;
    }
    let mut choices = Vec::with_capacity(questions.len());
    for a in questions {
        match (eligibility(a), &a.preference) {
            (Ok(label), Some(resolved)) => choices.push(AutoAnswer {
                question_index: a.question.index,
                question_id: a.question.id.clone(),
                label,
                decided_by: resolved.source.clone(),
            }),
            _ => return Decision::Abstain,
        }
    }
    Decision::AutoDecide(choices)
}

/// Longest label quoted in a reason, so the whole reason stays far under 10,000 characters.
const MAX_LABEL_CHARS: usize = 400;

/// Each choice as `[id] → "label"`, with ` (family)` / ` (rule NAME)` when not set on the id.
fn choice_list(choices: &[AutoAnswer]) -> String {
    let parts: Vec<String> = choices
        .iter()
        .map(|c| {
            let by = match &c.decided_by {
                Source::Id => String::new(),
                Source::Family => " (family preference)".into(),
                Source::Rule(name) => format!(" (rule {})", clip(name, 64)),
            };
            format!(
                "[{}] → \"{}\"{by}",
                c.question_id,
                clip(&c.label, MAX_LABEL_CHARS)
            )
        })
        .collect();
    parts.join("; ")
}

/// The `permissionDecisionReason` for an auto-decision: per question its id and the chosen
/// label, and an instruction to proceed without asking again.
pub fn deny_reason(choices: &[AutoAnswer]) -> String {
    let mut reason =
        String::from("askhook answered for the user, following their standing preference: ");
    reason.push_str(&choice_list(choices));
    reason.push_str(". Proceed with ");
    reason.push_str(if choices.len() == 1 {
        "this option"
    } else {
        "these options"
    });
    reason.push_str(" as the user's answer, without asking the user again.");
    reason
}

/// The `permissionDecisionReason` of an answer-mode auto-decision (shown to the user beside
/// "Answered Claude's questions").
pub fn answer_reason(choices: &[AutoAnswer]) -> String {
    format!(
        "askhook answered from your standing preference: {}",
        choice_list(choices)
    )
}

/// The `additionalContext` of an answer-mode auto-decision: the model learns the answers came
/// from a standing preference, not from the user just now.
pub fn answer_context(choices: &[AutoAnswer]) -> String {
    format!(
        "askhook answered these questions for the user from their standing preference \
         (askhook pref / rule), without showing them: {}. Treat them as the user's answers.",
        choice_list(choices)
    )
}

/// The `additionalContext` after a question failed to reach the user.
pub fn failure_context(error: &str) -> String {
    format!(
        "askhook: the question did not reach the user ({}). Nothing was answered. Ask the user again \
         in plain prose in your reply instead of calling the tool again.",
        clip(error, 500)
    )
}

/// Cut `text` to at most `max` characters, marking the cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

#[cfg(test)]
#[allow(clippy::type_complexity)] // case tables are tuples on purpose
mod tests {
    use super::*;
    use crate::question::Choice;

    fn q(labels: &[&str]) -> Question {
        Question::new(0, "Q?".into(), None, Choice::labelled(labels), false)
    }

    fn by_id(preference: Option<Preference>) -> Option<Resolved> {
        preference.map(|preference| Resolved {
            preference,
            source: Source::Id,
        })
    }

    #[test]
    fn a_recommendation_marker_is_not_read_as_part_of_the_option() {
        let ask = |labels: &[&str]| {
            let text = "本番環境のログレベルはどれにしますか？".to_owned();
            classify_question(&Question::new(
                0,
                text,
                None,
                Choice::labelled(labels),
                false,
            ))
            .door
        };
        assert_eq!(ask(&["info (推奨)", "debug"]), Door::TwoWay);
        assert_eq!(ask(&["(推奨) warn", "debug"]), Door::TwoWay);
    }

    #[test]
    fn the_id_beats_the_family_beats_rules_and_always_ask_wins_among_rules() {
        use Preference::{AlwaysAsk, AskOnlyForOneWay, NeverAsk};
        type Case<'a> = (
            &'a str,
            Option<Preference>,
            Option<Preference>,
            &'a [(&'a str, Preference)],
            Option<(Preference, Source)>,
        );
        let rule = |name: &str| Source::Rule(name.into());
        let cases: &[Case<'_>] = &[
            ("nothing", None, None, &[], None),
            (
                "id over family and rules",
                Some(NeverAsk),
                Some(AlwaysAsk),
                &[("r", AlwaysAsk)],
                Some((NeverAsk, Source::Id)),
            ),
            (
                "family over rules",
                None,
                Some(AlwaysAsk),
                &[("r", NeverAsk)],
                Some((AlwaysAsk, Source::Family)),
            ),
            (
                "one rule",
                None,
                None,
                &[("db", NeverAsk)],
                Some((NeverAsk, rule("db"))),
            ),
            (
                "always-ask beats never-ask among rules",
                None,
                None,
                &[("a-never", NeverAsk), ("b-always", AlwaysAsk)],
                Some((AlwaysAsk, rule("b-always"))),
            ),
            (
                "the first silencing rule otherwise",
                None,
                None,
                &[("a", AskOnlyForOneWay), ("b", NeverAsk)],
                Some((AskOnlyForOneWay, rule("a"))),
            ),
        ];
        for (name, id, family, rules, want) in cases {
            let got = resolve(*id, *family, rules).map(|r| (r.preference, r.source));
            assert_eq!(got, *want, "{name}");
        }
    }

    #[test]
    fn eligibility_table() {
        use Preference::{AlwaysAsk, AskOnlyForOneWay, NeverAsk};
        let rec = q(&["A (Recommended)", "B"]);
        let none = q(&["A", "B"]);
        let two = q(&["A (Recommended)", "B (Recommended)"]);
        let cases: &[(
            &str,
            &Question,
            Door,
            Option<Preference>,
            Result<&str, Ineligible>,
        )] = &[
            (
                "never-ask two-way",
                &rec,
                Door::TwoWay,
                Some(NeverAsk),
                Ok("A (Recommended)"),
            ),
            (
                "one-way-only two-way",
                &rec,
                Door::TwoWay,
                Some(AskOnlyForOneWay),
                Ok("A (Recommended)"),
            ),
            (
                "never-ask one-way",
                &rec,
                Door::OneWay,
                Some(NeverAsk),
                Err(Ineligible::OneWay),
            ),
            (
                "never-ask unknown door",
                &rec,
                Door::Unknown,
                Some(NeverAsk),
                Err(Ineligible::UnknownDoor),
            ),
            (
                "always-ask",
                &rec,
                Door::TwoWay,
                Some(AlwaysAsk),
                Err(Ineligible::AlwaysAsk),
            ),
            (
                "no preference",
                &rec,
                Door::TwoWay,
                None,
                Err(Ineligible::NoPreference),
            ),
            (
                "no recommendation",
                &none,
                Door::TwoWay,
                Some(NeverAsk),
                Err(Ineligible::NoRecommendation),
            ),
            (
                "ambiguous",
                &two,
                Door::TwoWay,
                Some(NeverAsk),
                Err(Ineligible::NoRecommendation),
            ),
        ];
        for (name, question, door, preference, want) in cases {
            let got = eligibility(&Assessed {
                question,
                door: *door,
                preference: by_id(*preference),
            });
            assert_eq!(got.as_deref().map_err(|e| *e), *want, "{name}");
        }
    }

    #[test]
    fn all_or_nothing() {
        let a = q(&["A (Recommended)", "B"]);
        let b = q(&["C", "D (Recommended)"]);
        let yes = Assessed {
            question: &a,
            door: Door::TwoWay,
            preference: by_id(Some(Preference::NeverAsk)),
        };
        let no = Assessed {
            question: &b,
            door: Door::OneWay,
            preference: by_id(Some(Preference::NeverAsk)),
        };
        assert!(
            matches!(decide(std::slice::from_ref(&yes)), Decision::AutoDecide(c) if c.len() == 1)
        );
        assert_eq!(decide(&[yes, no]), Decision::Abstain);
        assert_eq!(decide(&[]), Decision::Abstain);
    }

    #[test]
    fn one_way_and_unknown_doors_are_never_auto_decided_whatever_is_stored() {
        let question = q(&["Go (Recommended)", "Stop"]);
        for door in [Door::OneWay, Door::Unknown] {
            for preference in [
                None,
                Some(Preference::NeverAsk),
                Some(Preference::AlwaysAsk),
                Some(Preference::AskOnlyForOneWay),
            ] {
                let a = Assessed {
                    question: &question,
                    door,
                    preference: by_id(preference),
                };
                assert_eq!(decide(&[a]), Decision::Abstain, "{door:?} {preference:?}");
            }
        }
    }

    #[test]
    fn oversized_questions_are_an_unknown_door() {
        let long = "please pick one ".repeat(5000);
        let c = classify_text(&long);
        assert_eq!(
            (c.door, c.rule.as_deref()),
            (Door::Unknown, Some(TOO_LONG_TO_CLASSIFY))
        );
        assert_eq!(classify_text("Enable caching?").door, Door::TwoWay);
    }

    fn verdict(door: Door, rule: Option<&str>) -> Verdict {
        let mut v = classify_text("Use tabs or spaces?");
        v.door = door;
        v.rule = rule.map(str::to_owned);
        v
    }

    #[test]
    fn registry_only_raises_safety() {
        let two = verdict(Door::TwoWay, None);
        let one = verdict(Door::OneWay, Some("force-push"));
        assert_eq!(door_of(Some(Door::TwoWay), &one).0, Door::OneWay);
        assert_eq!(door_of(Some(Door::OneWay), &two).0, Door::OneWay);
        assert_eq!(door_of(Some(Door::TwoWay), &two).0, Door::TwoWay);
        assert_eq!(door_of(None, &two).0, Door::TwoWay);
        let unknown = verdict(Door::Unknown, Some(TOO_LONG_TO_CLASSIFY));
        assert_eq!(
            door_of(Some(Door::TwoWay), &unknown),
            (Door::Unknown, Some(TOO_LONG_TO_CLASSIFY.to_owned())),
            "a two-way registry id cannot lower a question the classifier could not read"
        );
        assert_eq!(door_of(Some(Door::OneWay), &unknown).0, Door::OneWay);
    }

    #[test]
    fn reason_names_ids_and_labels_and_stays_short() {
        let choices = vec![AutoAnswer {
            question_index: 0,
            question_id: "db-choice".into(),
            label: "SQLite".into(),
            decided_by: Source::Id,
        }];
        let reason = deny_reason(&choices);
        assert!(
            reason.contains("[db-choice]")
                && reason.contains("\"SQLite\"")
                && reason.contains("without asking")
        );
        let huge: Vec<AutoAnswer> = (0..16)
            .map(|i| AutoAnswer {
                question_index: i,
                question_id: format!("q-{i}"),
                label: "x".repeat(50_000),
                decided_by: Source::Rule("r".repeat(10_000)),
            })
            .collect();
        assert!(deny_reason(&huge).chars().count() < 10_000);
    }
}
