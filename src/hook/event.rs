//! From wire payload to the events askhook acts on. Well-formed JSON that is not ours (another
//! tool, another event) is `Ok(None)`, not an error; an AskUserQuestion payload askhook cannot
//! use is an `Err` with a message for the error log. The questions become core
//! [`Question`]s, and a `tool_response`, whatever its shape, a core [`Response`].

use askhook_core::answer::{self, Given, Reply, Response};
use askhook_core::question::{Choice, Question, MAX_OPTIONS, MAX_QUESTIONS};
use serde_json::Value;

use super::wire::{
    AnswerItem, AnswerValue, Answers, ErrorField, Loose, Object, Payload, Questions,
    ResponseObject, ToolResponse, WireOption, WireQuestion,
};

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
    /// PostToolUse: the tool ran; `response` says what was answered (or why it failed).
    Answered {
        call: Call,
        questions: Vec<Question>,
        response: Response,
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
    let echoed = match &p.tool_response {
        Some(ToolResponse::Object(Object(o))) => o.questions.as_ref(),
        _ => None,
    };
    let questions = match (
        p.tool_input.as_ref().and_then(|i| i.0.questions.as_ref()),
        echoed,
    ) {
        (Some(list), _) | (None, Some(list)) => questions_of(list)?,
        (None, None) => return Err(format!("{tool_name} payload has no tool_input.questions")),
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
            let response = match &p.tool_response {
                Some(r) => read_response(&questions, r),
                None => Response::Failed("tool_response is null".into()),
            };
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

/// The questions of a `questions` array, or why they cannot be used.
pub fn questions_of(list: &Questions) -> Result<Vec<Question>, String> {
    let list = list.get().ok_or("tool_input has no `questions` array")?;
    if list.is_empty() {
        return Err("tool_input.questions is empty".into());
    }
    if list.len() > MAX_QUESTIONS {
        return Err(format!(
            "tool_input has {} questions (more than {MAX_QUESTIONS})",
            list.len()
        ));
    }
    list.iter()
        .enumerate()
        .map(|(index, q)| match q {
            Loose::Ok(Object(q)) => question_of(index, q),
            Loose::Other => Err(format!("question {index} is not an object")),
        })
        .collect()
}

fn question_of(index: usize, q: &WireQuestion) -> Result<Question, String> {
    let raw_text = q
        .question
        .clone()
        .ok_or(format!("question {index} has no `question` text"))?;
    let options = match &q.options {
        None => Vec::new(),
        Some(Loose::Ok(items)) => {
            if items.len() > MAX_OPTIONS {
                return Err(format!(
                    "question {index} has {} options (more than {MAX_OPTIONS})",
                    items.len()
                ));
            }
            items
                .iter()
                .map(|o| choice_of(index, o))
                .collect::<Result<_, _>>()?
        }
        Some(Loose::Other) => return Err(format!("question {index}: `options` is not an array")),
    };
    Ok(Question::new(
        index,
        raw_text,
        q.header.clone(),
        options,
        q.multi_select.unwrap_or(false),
    ))
}

fn choice_of(index: usize, option: &WireOption) -> Result<Choice, String> {
    match option {
        WireOption::Label(label) => Ok(Choice {
            label: label.clone(),
            description: String::new(),
        }),
        WireOption::Object(Object(o)) => Ok(Choice {
            label: o
                .label
                .clone()
                .ok_or(format!("question {index}: an option has no `label`"))?,
            description: o.description.clone().unwrap_or_default(),
        }),
        WireOption::Other(_) => Err(format!(
            "question {index}: an option is neither an object nor a string"
        )),
    }
}

/// The sentinel Claude Code puts in a result that never arrived.
const MISSING_SENTINEL: &str = "Tool result missing";

/// What a PostToolUse `tool_response` says about `questions`.
pub fn read_response(questions: &[Question], response: &ToolResponse) -> Response {
    match response {
        ToolResponse::Null(_) => Response::Failed("tool_response is null".into()),
        ToolResponse::Object(Object(o)) => read_object(questions, o),
        ToolResponse::Array(items) => read_array(questions, items),
        ToolResponse::Text(s) if s.trim().is_empty() => {
            Response::Failed("tool_response is empty".into())
        }
        ToolResponse::Text(s) if s.contains(MISSING_SENTINEL) => Response::Failed(s.clone()),
        ToolResponse::Text(s) => match serde_json::from_str::<Object<ResponseObject>>(s) {
            Ok(Object(inner)) => read_object(questions, &inner),
            Err(_) => Response::Unrecognised("tool_response is a plain string".into()),
        },
        ToolResponse::Other(v) => {
            Response::Unrecognised(format!("tool_response is a {}", type_name(v)))
        }
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Why an object response is an error, if it is one.
fn object_error(o: &ResponseObject) -> Option<String> {
    if o.keys.is_empty() {
        return Some("tool_response is empty".into());
    }
    // `{"content": "[Tool result missing…]"}` or as blocks, with or without `is_error`.
    if o.answers.is_none() {
        if let Some(text) = o.content.iter().find(|t| t.contains(MISSING_SENTINEL)) {
            return Some(text.clone());
        }
    }
    if o.is_error {
        let text = match &o.error {
            Some(ErrorField::Text(e)) => Some(e.clone()),
            _ => (!o.content.is_empty()).then(|| o.content.join("\n")),
        };
        return Some(text.unwrap_or_else(|| "tool_response has is_error: true".into()));
    }
    match &o.error {
        Some(ErrorField::Text(e)) if !e.trim().is_empty() => Some(e.clone()),
        Some(ErrorField::Object(e)) if !e.is_empty() => Some(Value::Object(e.clone()).to_string()),
        _ => None,
    }
}

fn read_object(questions: &[Question], o: &ResponseObject) -> Response {
    if let Some(error) = object_error(o) {
        return Response::Failed(error);
    }
    let mut notes = o.annotations.clone();
    let given = match &o.answers {
        Some(Answers::Map(map)) => {
            Given::ByText(map.iter().map(|(k, v)| (k.clone(), v.text())).collect())
        }
        Some(Answers::List(items)) => {
            let legacy = legacy_reply(questions, items);
            notes.extend(legacy.notes);
            legacy.given
        }
        _ => match o.questions.as_ref().and_then(Loose::get) {
            Some(echoed)
                if echoed
                    .iter()
                    .any(|q| matches!(q, Loose::Ok(Object(q)) if q.user_answer.is_some())) =>
            {
                Given::ByPosition(
                    echoed
                        .iter()
                        .map(|q| match q {
                            Loose::Ok(Object(q)) => {
                                q.user_answer.as_ref().and_then(AnswerValue::text)
                            }
                            Loose::Other => None,
                        })
                        .collect(),
                )
            }
            _ => Given::Nothing,
        },
    };
    let reply = Reply {
        given,
        notes,
        reply: o.response.clone(),
        afk: o.afk,
    };
    match answer::read(questions, &reply) {
        Some(answers) => Response::Answers(answers),
        None => Response::Unrecognised(format!(
            "no answers found in tool_response (keys: {})",
            o.keys.join(", ")
        )),
    }
}

/// An array response: MCP content blocks holding a JSON answer object, or a legacy answer list.
fn read_array(questions: &[Question], items: &[AnswerItem]) -> Response {
    if items.is_empty() {
        return Response::Failed("tool_response is empty".into());
    }
    if let Some(text) = items
        .iter()
        .filter_map(AnswerItem::text)
        .find(|t| t.contains(MISSING_SENTINEL))
    {
        return Response::Failed(text.to_owned());
    }
    for text in items.iter().filter_map(AnswerItem::text) {
        if let Ok(Object(inner)) = serde_json::from_str::<Object<ResponseObject>>(text) {
            let parsed = read_object(questions, &inner);
            if !matches!(parsed, Response::Unrecognised(_)) {
                return parsed;
            }
        }
    }
    match answer::read(questions, &legacy_reply(questions, items)) {
        Some(answers) => Response::Answers(answers),
        None => Response::Unrecognised("tool_response is an array with no answers in it".into()),
    }
}

/// A legacy answer list: answers by position, and text typed beside a chosen option as that
/// question's notes.
fn legacy_reply(questions: &[Question], items: &[AnswerItem]) -> Reply {
    Reply {
        given: Given::ByPosition(items.iter().map(AnswerItem::answer).collect()),
        notes: items
            .iter()
            .zip(questions)
            .filter_map(|(item, q)| Some((q.raw_text.clone(), Some(item.note()?))))
            .collect(),
        ..Reply::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_questions(input: &Value) -> Result<Vec<Question>, String> {
        let input: super::super::wire::ToolInput = serde_json::from_value(input.clone()).unwrap();
        match &input.questions {
            Some(list) => questions_of(list),
            None => Err("tool_input has no `questions` array".into()),
        }
    }

    fn question(text: &str, labels: &[&str], multi: bool) -> Question {
        let input = json!({"questions": [{"question": text, "header": "H",
            "options": labels.iter().map(|l| json!({"label": l, "description": ""})).collect::<Vec<_>>(),
            "multiSelect": multi}]});
        parse_questions(&input).unwrap().remove(0)
    }

    fn read_response(questions: &[Question], response: &Value) -> Response {
        let wire: ToolResponse = serde_json::from_value(response.clone()).unwrap();
        super::read_response(questions, &wire)
    }

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
        assert_eq!(event_of(payload(r"{}")), Ok(None));
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

    #[test]
    fn parse_rejects_odd_shapes() {
        assert!(parse_questions(&json!({})).is_err());
        assert!(parse_questions(&json!({"questions": []})).is_err());
        assert!(parse_questions(&json!({"questions": [42]})).is_err());
        assert!(parse_questions(&json!({"questions": [{"question": 7}]})).is_err());
        assert!(
            parse_questions(&json!({"questions": [{"question": "q", "options": "x"}]})).is_err()
        );
        let many: Vec<Value> = (0..100)
            .map(|i| json!({"question": format!("q{i}")}))
            .collect();
        assert!(parse_questions(&json!({ "questions": many })).is_err());
        let q = parse_questions(
            &json!({"questions": [{"question": "q", "options": ["A", {"label": "B"}]}]}),
        )
        .unwrap();
        assert_eq!(q[0].options[1].label, "B");
        assert!(!q[0].multi_select);
    }

    #[test]
    fn reads_native_answers() {
        let qs = vec![
            question("Which approach?", &["X (Recommended)", "Y"], false),
            {
                let mut q = question(
                    "Which features?",
                    &["Alpha (Recommended)", "Beta", "Gamma"],
                    true,
                );
                q.index = 1;
                q
            },
        ];
        let resp = json!({"questions": [], "answers": {"Which approach?": "X (Recommended)", "Which features?": "Beta, Gamma"}, "annotations": {}});
        let Response::Answers(a) = read_response(&qs, &resp) else {
            panic!()
        };
        assert_eq!(a[0].answer.as_deref(), Some("X (Recommended)"));
        assert_eq!(a[0].followed_recommendation, Some(true));
        assert_eq!(a[0].free_text, None);
        assert_eq!(
            a[1].selections.as_deref(),
            Some(&["Beta".to_string(), "Gamma".to_string()][..])
        );
        assert_eq!(a[1].followed_recommendation, Some(false));
    }

    #[test]
    fn reads_free_text_notes_reply_and_afk() {
        let qs = vec![question("Which?", &["X (Recommended)", "Y"], false)];
        let free = read_response(&qs, &json!({"answers": {"Which?": "my own"}}));
        let Response::Answers(a) = free else { panic!() };
        assert_eq!(a[0].free_text.as_deref(), Some("my own"));
        assert_eq!(a[0].followed_recommendation, Some(false));

        let notes = read_response(
            &qs,
            &json!({"answers": {"Which?": "Y"}, "annotations": {"Which?": {"notes": "only in staging"}}}),
        );
        let Response::Answers(a) = notes else {
            panic!()
        };
        assert_eq!(a[0].free_text.as_deref(), Some("only in staging"));
        assert_eq!(a[0].notes.as_deref(), Some("only in staging"));

        let reply = read_response(&qs, &json!({"answers": {}, "response": "let's talk first"}));
        let Response::Answers(a) = reply else {
            panic!()
        };
        assert_eq!(a[0].answer, None);
        assert_eq!(a[0].free_text.as_deref(), Some("let's talk first"));

        let afk = read_response(
            &qs,
            &json!({"answers": {"Which?": "X (Recommended)"}, "afkTimeoutMs": 60000}),
        );
        let Response::Answers(a) = afk else { panic!() };
        assert!(a[0].afk);
        assert_eq!(a[0].followed_recommendation, None);
    }

    #[test]
    fn matches_keys_leniently() {
        let qs = vec![question("Which  Database?", &["A", "B"], false)];
        let Response::Answers(a) =
            read_response(&qs, &json!({"answers": {"which database?": "A"}}))
        else {
            panic!()
        };
        assert_eq!(a[0].answer.as_deref(), Some("A"));
        let Response::Answers(a) = read_response(&qs, &json!({"answers": {"Database": "B"}}))
        else {
            panic!()
        };
        assert_eq!(
            a[0].answer.as_deref(),
            Some("B"),
            "lone question, lone answer"
        );
    }

    #[test]
    fn reads_legacy_and_mcp_shapes() {
        let qs = vec![question(
            "Deploy now? <askhook-qid:mcp-q>",
            &["Yes", "No"],
            false,
        )];
        let mcp = json!([{"type": "text", "text": "{\"answers\": {\"Deploy now? <askhook-qid:mcp-q>\": \"Yes\"}}"}]);
        let Response::Answers(a) = read_response(&qs, &mcp) else {
            panic!()
        };
        assert_eq!(a[0].answer.as_deref(), Some("Yes"));
        let Response::Answers(a) =
            read_response(&qs, &json!({"answers": [{"option_label": "No"}]}))
        else {
            panic!()
        };
        assert_eq!(a[0].answer.as_deref(), Some("No"));
        let Response::Answers(a) =
            read_response(&qs, &json!({"questions": [{"user_answer": "Yes"}]}))
        else {
            panic!()
        };
        assert_eq!(a[0].answer.as_deref(), Some("Yes"));
    }

    #[test]
    fn legacy_other_keeps_the_typed_text() {
        let qs = vec![question("Deploy now?", &["Yes", "No"], false)];
        for (name, response, answer, free_text) in [
            (
                "Other with typed text",
                json!({"answers": [{"option_label": "Other", "free_text": "after the demo"}]}),
                "after the demo",
                Some("after the demo"),
            ),
            (
                "a bare array",
                json!([{"option_label": "other", "free_text": "tomorrow"}]),
                "tomorrow",
                Some("tomorrow"),
            ),
            (
                "typed text without a label",
                json!({"answers": [{"free_text": "ask Sam"}]}),
                "ask Sam",
                Some("ask Sam"),
            ),
            (
                "an option and a remark",
                json!({"answers": [{"option_label": "No", "free_text": "not on a Friday"}]}),
                "No",
                Some("not on a Friday"),
            ),
            (
                "Other with nothing typed",
                json!({"answers": [{"option_label": "Other", "free_text": "  "}]}),
                "Other",
                Some("Other"),
            ),
        ] {
            let Response::Answers(a) = read_response(&qs, &response) else {
                panic!("{name}")
            };
            assert_eq!(a[0].answer.as_deref(), Some(answer), "{name}");
            assert_eq!(a[0].free_text.as_deref(), free_text, "{name}");
        }
    }

    #[test]
    fn error_and_unknown_shapes() {
        let qs = vec![question("Q?", &["A", "B"], false)];
        for failed in [
            json!(null),
            json!({}),
            json!([]),
            json!(""),
            json!({"is_error": true, "content": [{"type": "text", "text": "boom"}]}),
            json!({"error": "relay down"}),
            json!("[Tool result missing due to internal error]"),
            json!([{"type": "text", "text": "[Tool result missing due to internal error]"}]),
            json!({"content": "Tool result missing due to internal error"}),
            json!({"content": [{"type": "text", "text": "Tool result missing due to internal error"}]}),
        ] {
            assert!(
                matches!(read_response(&qs, &failed), Response::Failed(_)),
                "{failed}"
            );
        }
        for odd in [
            json!({"foo": 1}),
            json!(42),
            json!([{"type": "text", "text": "hello"}]),
            json!({"answers": {"Q?": 5}}),
        ] {
            assert!(
                matches!(read_response(&qs, &odd), Response::Unrecognised(_)),
                "{odd}"
            );
        }
    }
}
