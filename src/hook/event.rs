//! From wire payload to the events askhook acts on. Well-formed JSON that is not ours (another
//! tool, another event) is `Ok(None)`, not an error; an AskUserQuestion payload askhook cannot
//! use is an `Err` with a message for the error log.

use serde_json::Value;

use askhook_core::question::{parse_questions, Question};

use super::wire::Payload;

/// The hook events askhook handles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEvent {
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    Stop,
    UserPromptSubmit,
    SessionEnd,
}

impl HookEvent {
    pub fn parse(name: &str) -> Option<HookEvent> {
        Some(match name {
            "PreToolUse" => HookEvent::PreToolUse,
            "PostToolUse" => HookEvent::PostToolUse,
            "PostToolUseFailure" => HookEvent::PostToolUseFailure,
            "Stop" => HookEvent::Stop,
            "UserPromptSubmit" => HookEvent::UserPromptSubmit,
            "SessionEnd" => HookEvent::SessionEnd,
            _ => return None,
        })
    }

    /// The exact name to echo in `hookSpecificOutput.hookEventName`.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::Stop => "Stop",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::SessionEnd => "SessionEnd",
        }
    }
}

/// Who asked, where, in which call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub event: HookEvent,
    pub session_id: String,
    pub tool_use_id: String,
    pub tool_name: String,
    pub cwd: Option<String>,
    pub permission_mode: Option<String>,
    pub agent_id: Option<String>,
    pub prompt_id: Option<String>,
}

/// What happened, as far as askhook cares.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// PreToolUse: the agent is about to ask.
    Asked {
        call: Call,
        questions: Vec<Question>,
    },
    /// PostToolUse: the tool ran; `response` holds the answers (or an error shape).
    Answered {
        call: Call,
        questions: Vec<Question>,
        response: Value,
    },
    /// PostToolUseFailure: the tool threw.
    Failed {
        call: Call,
        questions: Vec<Question>,
        error: String,
    },
    /// Stop, UserPromptSubmit or SessionEnd: the session's turn moved on.
    TurnEnded {
        session_id: String,
        event: HookEvent,
    },
}

/// Whether a tool name is AskUserQuestion or an MCP copy `mcp__<server>__AskUserQuestion`.
/// The matcher in settings is not trusted: this is checked in code.
pub fn is_ask_tool(name: &str) -> bool {
    const MCP_PREFIX: &str = "mcp__";
    const MCP_SUFFIX: &str = "__AskUserQuestion";
    name == "AskUserQuestion"
        || (name.len() > MCP_PREFIX.len() + MCP_SUFFIX.len()
            && name.starts_with(MCP_PREFIX)
            && name.ends_with(MCP_SUFFIX))
}

/// Reduce a payload to an event; `Ok(None)` when it is not ours.
pub fn event_of(p: Payload) -> Result<Option<Event>, String> {
    let Some(event) = p.hook_event_name.as_deref().and_then(HookEvent::parse) else {
        return Ok(None);
    };
    if matches!(
        event,
        HookEvent::Stop | HookEvent::UserPromptSubmit | HookEvent::SessionEnd
    ) {
        let session_id = p
            .session_id
            .filter(|s| !s.is_empty())
            .ok_or("payload has no session_id")?;
        return Ok(Some(Event::TurnEnded { session_id, event }));
    }
    let Some(tool_name) = p.tool_name.filter(|n| is_ask_tool(n)) else {
        return Ok(None);
    };
    let session_id = p
        .session_id
        .filter(|s| !s.is_empty())
        .ok_or("payload has no session_id")?;
    let tool_use_id = p
        .tool_use_id
        .filter(|s| !s.is_empty())
        .ok_or("payload has no tool_use_id")?;
    let questions = match (&p.tool_input, &p.tool_response) {
        (Some(input), _) if input.get("questions").is_some() => parse_questions(input)?,
        (_, Some(response)) if response.get("questions").is_some() => parse_questions(response)?,
        _ => return Err(format!("{tool_name} payload has no tool_input.questions")),
    };
    let call = Call {
        event,
        session_id,
        tool_use_id,
        tool_name,
        cwd: p.cwd,
        permission_mode: p.permission_mode,
        agent_id: p.agent_id,
        prompt_id: p.prompt_id,
    };
    Ok(Some(match event {
        HookEvent::PreToolUse => Event::Asked { call, questions },
        HookEvent::PostToolUse => {
            let response = p.tool_response.unwrap_or(Value::Null);
            Event::Answered {
                call,
                questions,
                response,
            }
        }
        _ => {
            let error = match p.error {
                Some(Value::String(s)) if !s.trim().is_empty() => s,
                Some(Value::Null) | None => "the tool failed (no error text)".to_owned(),
                Some(other) => other.to_string(),
            };
            Event::Failed {
                call,
                questions,
                error,
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names() {
        for (name, ours) in [
            ("AskUserQuestion", true),
            ("mcp__conductor__AskUserQuestion", true),
            ("mcp__plugin_x_y__AskUserQuestion", true),
            ("mcp____AskUserQuestion", false),
            ("FooAskUserQuestionBar", false),
            ("askuserquestion", false),
            ("mcp__x__AskUserQuestionX", false),
            ("Bash", false),
        ] {
            assert_eq!(is_ask_tool(name), ours, "{name}");
        }
    }

    fn payload(json: &str) -> Payload {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn not_ours_is_none() {
        assert_eq!(
            event_of(payload(
                r#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#
            )),
            Ok(None)
        );
        assert_eq!(
            event_of(payload(r#"{"hook_event_name":"Notification"}"#)),
            Ok(None)
        );
        assert_eq!(event_of(payload(r#"{}"#)), Ok(None));
    }

    #[test]
    fn ours_but_unusable_is_an_error() {
        let no_id = r#"{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","session_id":"s","tool_input":{"questions":[{"question":"q"}]}}"#;
        assert!(event_of(payload(no_id)).is_err());
        let no_questions = r#"{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","session_id":"s","tool_use_id":"t","tool_input":{}}"#;
        assert!(event_of(payload(no_questions)).is_err());
    }

    #[test]
    fn wrong_metadata_types_read_as_missing() {
        let p = payload(r#"{"hook_event_name":"Stop","session_id":"s","cwd":42,"prompt_id":null}"#);
        assert_eq!(p.cwd, None);
        assert!(matches!(event_of(p), Ok(Some(Event::TurnEnded { .. }))));
    }
}
