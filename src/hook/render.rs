//! Decision → stdout bytes. An abstain is no bytes at all; anything else is one JSON object on
//! one line that echoes the firing event in `hookSpecificOutput.hookEventName`.
//!
//! askhook never renders `defer` (it parks the question forever in Desktop, SDK and `-p`
//! sessions). It renders `allow` only as [`Output::Allow`], which holds an [`AnsweredCall`]:
//! `updatedInput` = the call's own `tool_input` plus an `answers` map with every question's
//! exact text → the chosen label. Only [`AnsweredCall::new`] makes one, and only when every
//! question of the call is answered with one of its labels, so an `allow` that would skip the
//! picker with no answer cannot be built (Claude Code skips the picker whenever `updatedInput`
//! is present, answers or not).

use serde_json::{json, Map, Value};

use askhook_core::policy::AutoAnswer;
use askhook_core::question::Question;

use super::event::HookEvent;

/// What the hook prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Exit 0, empty stdout: no opinion.
    Abstain,
    /// PreToolUse: refuse the tool call and tell the model the answer.
    Deny { reason: String },
    /// PreToolUse in answer mode: let the call through with every question answered.
    Allow(AnsweredCall),
    /// Extra context for the model, no decision (post events; PreToolUse's history context).
    Context { event: HookEvent, text: String },
}

/// A call askhook answers: the original `tool_input` with a complete `answers` map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnsweredCall {
    updated_input: Map<String, Value>,
    reason: String,
    context: String,
}

impl AnsweredCall {
    /// The answered `tool_input` (as it came on stdin, key order kept) for `choices`, or why it
    /// cannot be one: every question of `tool_input` must be one of `questions`, in order, with
    /// exactly one choice that is one of its labels.
    pub fn new(
        tool_input: &Value,
        questions: &[Question],
        choices: &[AutoAnswer],
        reason: String,
        context: String,
    ) -> Result<AnsweredCall, String> {
        let input = tool_input
            .as_object()
            .ok_or("tool_input is not an object")?;
        let list = input
            .get("questions")
            .and_then(Value::as_array)
            .ok_or("tool_input has no questions array")?;
        if list.len() != questions.len() || choices.len() != questions.len() {
            return Err(format!(
                "{} question(s) in tool_input, {} read, {} answered",
                list.len(),
                questions.len(),
                choices.len()
            ));
        }
        let mut answers = Map::new();
        for (i, (wire, q)) in list.iter().zip(questions).enumerate() {
            let text = wire
                .get("question")
                .and_then(Value::as_str)
                .filter(|t| *t == q.raw_text)
                .ok_or(format!("question {i} is not the question read"))?;
            let mut picked = choices.iter().filter(|c| c.question_index == i);
            let (Some(choice), None) = (picked.next(), picked.next()) else {
                return Err(format!("question {i} has no single answer"));
            };
            if !q.options.iter().any(|o| o.label == choice.label) {
                return Err(format!("question {i}: the answer is not one of its labels"));
            }
            if answers
                .insert(text.to_owned(), Value::String(choice.label.clone()))
                .is_some()
            {
                return Err("two questions share a text".into());
            }
        }
        let mut updated_input = input.clone();
        updated_input.insert("answers".into(), Value::Object(answers));
        Ok(AnsweredCall {
            updated_input,
            reason,
            context,
        })
    }
}

/// The exact bytes to write to stdout.
pub fn render(output: &Output) -> Vec<u8> {
    let value = match output {
        Output::Abstain => return Vec::new(),
        Output::Deny { reason } => json!({"hookSpecificOutput": {
            "hookEventName": HookEvent::PreToolUse.name(),
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }}),
        Output::Allow(call) => json!({"hookSpecificOutput": {
            "hookEventName": HookEvent::PreToolUse.name(),
            "permissionDecision": "allow",
            "permissionDecisionReason": call.reason,
            "updatedInput": call.updated_input,
            "additionalContext": call.context,
        }}),
        Output::Context { event, text } => json!({"hookSpecificOutput": {
            "hookEventName": event.name(),
            "additionalContext": text,
        }}),
    };
    let mut bytes = serde_json::to_vec(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use askhook_core::policy::Source;
    use askhook_core::question::Choice;

    #[test]
    fn abstain_is_empty() {
        assert!(render(&Output::Abstain).is_empty());
    }

    #[test]
    fn deny_and_context_are_one_line_objects() {
        let deny = render(&Output::Deny {
            reason: "use \"X\"\nnow".into(),
        });
        let text = String::from_utf8(deny).unwrap();
        assert!(text.starts_with('{') && text.ends_with("}\n") && text.matches('\n').count() == 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "PreToolUse");

        let ctx = render(&Output::Context {
            event: HookEvent::PostToolUseFailure,
            text: "x".into(),
        });
        let v: serde_json::Value = serde_json::from_slice(&ctx).unwrap();
        assert_eq!(
            v["hookSpecificOutput"]["hookEventName"],
            "PostToolUseFailure"
        );
        assert!(v["hookSpecificOutput"].get("permissionDecision").is_none());
    }

    fn two_questions() -> (Value, Vec<Question>) {
        let input = json!({"questions": [
            {"question": "Q1 <askhook-qid:q-one>", "header": "A", "options": [{"label": "X (Recommended)", "description": "d", "preview": "p"}, {"label": "Y", "description": ""}], "multiSelect": false},
            {"question": "Q2", "header": "B", "options": [{"label": "M", "description": ""}, {"label": "N (Recommended)", "description": ""}], "multiSelect": true}
        ], "metadata": {"source": "remember"}});
        let questions = vec![
            Question::new(
                0,
                "Q1 <askhook-qid:q-one>".into(),
                None,
                Choice::labelled(&["X (Recommended)", "Y"]),
                false,
            ),
            Question::new(
                1,
                "Q2".into(),
                None,
                Choice::labelled(&["M", "N (Recommended)"]),
                true,
            ),
        ];
        (input, questions)
    }

    fn choice(i: usize, label: &str) -> AutoAnswer {
        AutoAnswer {
            question_index: i,
            question_id: format!("q{i}"),
            label: label.into(),
            decided_by: Source::Id,
        }
    }

    #[test]
    fn allow_carries_the_whole_input_and_every_answer() {
        let (input, questions) = two_questions();
        let call = AnsweredCall::new(
            &input,
            &questions,
            &[choice(0, "X (Recommended)"), choice(1, "N (Recommended)")],
            "why".into(),
            "ctx".into(),
        )
        .unwrap();
        let v: Value = serde_json::from_slice(&render(&Output::Allow(call))).unwrap();
        let out = &v["hookSpecificOutput"];
        assert_eq!(out["permissionDecision"], "allow");
        let updated = &out["updatedInput"];
        assert_eq!(
            updated["questions"], input["questions"],
            "questions kept verbatim"
        );
        assert_eq!(updated["metadata"], input["metadata"], "other keys kept");
        assert_eq!(
            updated["answers"],
            json!({"Q1 <askhook-qid:q-one>": "X (Recommended)", "Q2": "N (Recommended)"})
        );
        let keys: Vec<&String> = updated.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["questions", "metadata", "answers"], "key order kept");
    }

    #[test]
    fn an_incomplete_or_foreign_answer_cannot_become_an_allow() {
        let (input, questions) = two_questions();
        let full = [choice(0, "X (Recommended)"), choice(1, "N (Recommended)")];
        let mut renamed = input.clone();
        renamed["questions"][1]["question"] = json!("Q2 reworded");
        let cases: Vec<(&str, Value, &[Question], Vec<AutoAnswer>)> = vec![
            (
                "one answer missing",
                input.clone(),
                &questions,
                full[..1].to_vec(),
            ),
            (
                "two answers for one question",
                input.clone(),
                &questions,
                vec![full[0].clone(), choice(0, "Y")],
            ),
            (
                "not a label",
                input.clone(),
                &questions,
                vec![full[0].clone(), choice(1, "Z")],
            ),
            ("another question text", renamed, &questions, full.to_vec()),
            (
                "a question not read",
                input.clone(),
                &questions[..1],
                full[..1].to_vec(),
            ),
            ("not an object", json!([1]), &questions, full.to_vec()),
            ("no questions", json!({"x": 1}), &questions, full.to_vec()),
        ];
        for (name, input, questions, choices) in cases {
            assert!(
                AnsweredCall::new(&input, questions, &choices, String::new(), String::new())
                    .is_err(),
                "{name}"
            );
        }
    }
}
