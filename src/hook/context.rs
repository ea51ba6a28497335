//! The history context (`context_from_history = true`): when askhook lets the user answer a
//! question that was answered before — the same id, or the same family — PreToolUse adds the
//! user's last answers and notes as `additionalContext`, so the agent can recommend what the
//! user chose (or skip a question whose answer still applies). Bounded (a few answers per
//! question, [`MAX_CHARS`] in all) and scrubbed again (the built-in scrubber, then the
//! config's `redact` patterns) before it leaves.

use askhook_core::policy::clip;
use askhook_core::question::Question;
use askhook_core::scrub::scrub;
use regex_automata::meta::Regex;

use crate::store::history::PastAnswer;
use crate::store::Store;
use crate::sys::time;

/// Answers quoted per question.
pub const ANSWERS_PER_QUESTION: usize = 3;

/// The whole context's length bound, in characters (Claude Code's cap is 10,000).
pub const MAX_CHARS: usize = 2_000;

/// The context for `questions`, when any was answered before.
pub fn history(
    store: &Store,
    questions: &[Question],
    now_ms: i64,
    redactions: &[Regex],
    errors: &mut Vec<String>,
) -> Option<String> {
    let mut parts = Vec::new();
    for q in questions {
        match store.answers_for(&q.id, q.family.as_deref(), ANSWERS_PER_QUESTION) {
            Ok(answers) if !answers.is_empty() => parts.push(describe(q, &answers, now_ms)),
            Ok(_) => {}
            Err(e) => errors.push(format!(
                "reading past answers failed: {e}; no history context"
            )),
        }
    }
    if parts.is_empty() {
        return None;
    }
    let text = format!(
        "askhook: the user answered {} before (newest first). {} If an earlier answer still \
         applies, recommend it, or go on with it without asking again.",
        if questions.len() == 1 {
            "this question"
        } else {
            "questions like these"
        },
        parts.join(" ")
    );
    let text = scrub(&text).into_owned();
    let text = super::privacy::redact(&text, redactions).unwrap_or(text);
    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
    Some(clip(&clean, MAX_CHARS))
}

/// `"Which database?": "MySQL" (2d ago; note: only in staging), "MySQL" (5d ago).`
fn describe(q: &Question, answers: &[PastAnswer], now_ms: i64) -> String {
    let quoted: Vec<String> = answers
        .iter()
        .map(|a| {
            let note = a
                .notes
                .as_deref()
                .filter(|n| !n.trim().is_empty() && Some(n.trim()) != Some(a.answer.trim()))
                .map(|n| format!("; note: {}", clip(n.trim(), 200)))
                .unwrap_or_default();
            format!(
                "\"{}\" ({} ago{note})",
                clip(a.answer.trim(), 200),
                time::format_age(now_ms - a.asked_at)
            )
        })
        .collect();
    format!("\"{}\": {}.", clip(&q.text, 200), quoted.join(", "))
}
