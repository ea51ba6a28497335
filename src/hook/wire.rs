//! An exact, tolerant serde mirror of the Claude Code hook payload (see
//! `../shared/claude-hooks-protocol.md` §1 and the captured payloads under
//! `tests/fixtures/captured/`).
//!
//! Tolerant means: unknown keys are ignored, an explicit `null` is the same as a missing key,
//! and a metadata field of the wrong type reads as missing instead of failing the whole
//! payload. Deciding whether a payload is ours happens in `event.rs`, not here.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// The fields askhook reads from any hook payload.
#[derive(Debug, Default, Deserialize)]
pub struct Payload {
    #[serde(default, deserialize_with = "lenient_string")]
    pub hook_event_name: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub cwd: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub prompt_id: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub permission_mode: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub agent_id: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub tool_name: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub tool_use_id: Option<String>,
    #[serde(default)]
    pub tool_input: Option<Value>,
    /// Present on PostToolUse; `null` is kept apart from missing (it is an error shape).
    #[serde(default, deserialize_with = "present")]
    pub tool_response: Option<Value>,
    /// PostToolUseFailure's error text (a string; other shapes are kept as JSON).
    #[serde(default)]
    pub error: Option<Value>,
}

/// A string, or `None` for null, a missing key or any other type.
fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

/// `Some(value)` whenever the key is present, `Some(Value::Null)` for an explicit null.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}
