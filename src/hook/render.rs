//! Decision → stdout bytes. An abstain is no bytes at all; anything else is one JSON object on
//! one line that echoes the firing event in `hookSpecificOutput.hookEventName`. askhook never
//! renders `defer` (it parks the question forever in Desktop, SDK and `-p` sessions) and never
//! renders `allow`.

use serde_json::json;

use super::event::HookEvent;

/// What the hook prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Output {
    /// Exit 0, empty stdout: no opinion.
    Abstain,
    /// PreToolUse: refuse the tool call and tell the model the answer.
    Deny { reason: String },
    /// Post events: extra context for the model, no decision.
    Context { event: HookEvent, text: String },
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
}
