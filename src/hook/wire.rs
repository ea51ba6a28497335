//! An exact, tolerant serde mirror of the Claude Code hook payload (see
//! `../shared/claude-hooks-protocol.md` §1 and the captured payloads under
//! `tests/fixtures/captured/`), down to every shape a `tool_response` takes.
//!
//! Tolerant means: unknown keys are ignored, an explicit `null` is the same as a missing key
//! (except `tool_response: null`, an error shape kept apart from a missing one), and a field of
//! the wrong type reads as missing (or as [`Loose::Other`]) instead of failing the whole
//! payload. A struct is only ever read from a JSON object ([`Object`]): serde would also read
//! one from an array. Deciding whether a payload is ours, and what it means, happens in
//! `event.rs`, not here.
//!
//! ## `tool_response` shapes
//! | shape | example | type |
//! |---|---|---|
//! | native answers map | `{"questions": […], "answers": {"<question text>": "<label>"}, "annotations": {"<question text>": {"notes": "…"}}}` | [`ResponseObject`] |
//! | idle auto-continue | the same with `"afkTimeoutMs": 60000` | [`ResponseObject`] |
//! | a free-text reply | `{"answers": {}, "response": "let's talk first"}` | [`ResponseObject`] |
//! | legacy answer list | `{"answers": [{"label" \| "option_label" \| "answer": "…"}]}` or a bare array of them; `{"option_label": "Other", "free_text": "…"}` is the typed text | [`AnswerItem`] |
//! | legacy echo | `{"questions": [{"user_answer": "…"}]}` | [`WireQuestion`] |
//! | MCP content blocks | `[{"type": "text", "text": "{\"answers\": {…}}"}]` | [`AnswerItem`] |
//! | a JSON object as a string | `"{\"answers\": {…}}"` | [`ToolResponse::Text`] |
//! | error shapes | `null`, `""`, `{}`, `[]`, `{"is_error": true, "content": […]}`, `{"isError": true}`, `{"error": "…" \| {…}}`, `"[Tool result missing due to internal error]"`, and that text as `{"content": "…"}` or `{"content": [{"type": "text", "text": "…"}]}` | see `event.rs` |

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// The fields askhook reads from any hook payload.
#[derive(Debug, Default, Deserialize)]
pub struct Payload {
    #[serde(default, deserialize_with = "lenient")]
    pub hook_event_name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub cwd: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub prompt_id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub permission_mode: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub agent_id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub tool_name: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub tool_use_id: Option<String>,
    /// `Some` whenever the key is present with an object (its `questions` may still be odd).
    #[serde(default, deserialize_with = "lenient")]
    pub tool_input: Option<Object<ToolInput>>,
    /// Present on PostToolUse; `null` is kept apart from missing (it is an error shape).
    #[serde(default, deserialize_with = "present")]
    pub tool_response: Option<ToolResponse>,
    /// PostToolUseFailure's error text (a string; other shapes are kept as JSON).
    #[serde(default)]
    pub error: Option<Value>,
}

/// `tool_input`.
#[derive(Debug, Default, Deserialize)]
pub struct ToolInput {
    /// `Some` whenever the key is present, even as `null`.
    #[serde(default, deserialize_with = "present")]
    pub questions: Option<Questions>,
}

/// A `questions` array: in `tool_input`, or echoed in a `tool_response`.
pub type Questions = Loose<Vec<Loose<Object<WireQuestion>>>>;

/// One question as sent (or echoed, then perhaps with the legacy `user_answer`).
#[derive(Debug, Default, Deserialize)]
pub struct WireQuestion {
    #[serde(default, deserialize_with = "lenient")]
    pub question: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub header: Option<String>,
    /// `None` when missing or `null`.
    #[serde(default)]
    pub options: Option<Loose<Vec<WireOption>>>,
    #[serde(default, rename = "multiSelect", deserialize_with = "lenient")]
    pub multi_select: Option<bool>,
    /// Legacy echo: `Some` whenever the key is present, even as `null`.
    #[serde(default, deserialize_with = "present")]
    pub user_answer: Option<AnswerValue>,
}

/// One option as sent: `{"label", "description"}` or a bare label.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum WireOption {
    Object(Object<WireOptionObject>),
    Label(String),
    Other(IgnoredAny),
}

#[derive(Debug, Default, Deserialize)]
pub struct WireOptionObject {
    #[serde(default, deserialize_with = "lenient")]
    pub label: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub description: Option<String>,
}

/// A `tool_response`, by its JSON type.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ToolResponse {
    Null(Null),
    Object(Object<ResponseObject>),
    Array(Vec<AnswerItem>),
    Text(String),
    Other(Value),
}

/// An object `tool_response`: every field askhook reads, and the names of all its keys (for
/// saying what an unknown shape held).
#[derive(Debug, Default)]
pub struct ResponseObject {
    pub keys: Vec<String>,
    pub answers: Option<Answers>,
    pub annotations: Vec<(String, Option<String>)>,
    pub response: Option<String>,
    /// `afkTimeoutMs` present and not `null`.
    pub afk: bool,
    /// `is_error: true` or `isError: true`.
    pub is_error: bool,
    pub error: Option<ErrorField>,
    /// `content: [{"text": …}]`, the texts; or `content: "…"`, that text.
    pub content: Vec<String>,
    /// `Some` whenever the key is present, even as `null`.
    pub questions: Option<Questions>,
}

/// `answers`: the native map (in key order) or a legacy list.
#[derive(Debug)]
pub enum Answers {
    Map(Vec<(String, AnswerValue)>),
    List(Vec<AnswerItem>),
    Other,
}

/// One answer value: a label, several (joined by `, `), or something that is no answer.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum AnswerValue {
    Text(String),
    List(Vec<Loose<String>>),
    Other(IgnoredAny),
}

impl AnswerValue {
    /// The answer as a string: a string as it is, a list's strings joined with `, `.
    pub fn text(&self) -> Option<String> {
        match self {
            AnswerValue::Text(s) => Some(s.clone()),
            AnswerValue::List(items) => {
                let parts: Vec<&str> = items
                    .iter()
                    .filter_map(Loose::get)
                    .map(String::as_str)
                    .collect();
                (!parts.is_empty()).then(|| parts.join(", "))
            }
            AnswerValue::Other(_) => None,
        }
    }
}

/// An item of an array: an MCP content block (`text`), a legacy answer object (`label`,
/// `option_label` or `answer`), or a bare answer value.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum AnswerItem {
    Object(Object<ItemObject>),
    Value(AnswerValue),
}

#[derive(Debug, Default, Deserialize)]
pub struct ItemObject {
    #[serde(default, deserialize_with = "lenient")]
    pub text: Option<String>,
    #[serde(default)]
    pub label: Option<AnswerValue>,
    #[serde(default)]
    pub option_label: Option<AnswerValue>,
    #[serde(default)]
    pub answer: Option<AnswerValue>,
    /// What the user typed (gstack's legacy `{"option_label": "Other", "free_text": "…"}`).
    #[serde(default, deserialize_with = "lenient")]
    pub free_text: Option<String>,
}

impl AnswerItem {
    /// The block's `text`, for MCP content blocks.
    pub fn text(&self) -> Option<&str> {
        match self {
            AnswerItem::Object(Object(o)) => o.text.as_deref(),
            AnswerItem::Value(_) => None,
        }
    }

    /// The answer a legacy list item gives: the first of `label`, `option_label`, `answer`
    /// that holds one, or the item itself; the typed `free_text` instead when the label is
    /// `Other` (the picker's own "type something else") or missing.
    pub fn answer(&self) -> Option<String> {
        match self {
            AnswerItem::Object(Object(o)) => match (o.label(), o.typed()) {
                (Some(label), Some(typed)) if is_other(&label) => Some(typed.to_owned()),
                (None, Some(typed)) => Some(typed.to_owned()),
                (label, _) => label,
            },
            AnswerItem::Value(v) => v.text(),
        }
    }

    /// Text typed beside a chosen option (`free_text` with a label other than `Other`): kept as
    /// the question's notes.
    pub fn note(&self) -> Option<String> {
        match self {
            AnswerItem::Object(Object(o)) => match (o.label(), o.typed()) {
                (Some(label), Some(typed)) if !is_other(&label) => Some(typed.to_owned()),
                _ => None,
            },
            AnswerItem::Value(_) => None,
        }
    }
}

impl ItemObject {
    fn label(&self) -> Option<String> {
        [&self.label, &self.option_label, &self.answer]
            .into_iter()
            .find_map(|v| v.as_ref().and_then(AnswerValue::text))
    }

    fn typed(&self) -> Option<&str> {
        self.free_text.as_deref().filter(|t| !t.trim().is_empty())
    }
}

/// The picker's "Other" choice, whose real answer is the text typed with it.
fn is_other(label: &str) -> bool {
    label.trim().eq_ignore_ascii_case("other")
}

/// JSON `null` and nothing else (serde's `()` also takes an empty object).
#[derive(Debug)]
pub struct Null;

impl<'de> Deserialize<'de> for Null {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Option::<IgnoredAny>::deserialize(d)? {
            None => Ok(Null),
            Some(_) => Err(de::Error::custom("not null")),
        }
    }
}

/// `error` in a response: a message, an error object, or anything else.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum ErrorField {
    Text(String),
    Object(serde_json::Map<String, Value>),
    Other(IgnoredAny),
}

/// An annotation: `{"notes": "…"}`.
#[derive(Debug, Default, Deserialize)]
struct Annotation {
    #[serde(default, deserialize_with = "lenient")]
    notes: Option<String>,
}

/// A content block: `{"text": "…"}`.
#[derive(Debug, Default, Deserialize)]
struct Block {
    #[serde(default, deserialize_with = "lenient")]
    text: Option<String>,
}

/// `content`: a list of blocks, or one string.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Content {
    Text(String),
    Blocks(Vec<Loose<Object<Block>>>),
    Other(IgnoredAny),
}

impl Content {
    fn texts(self) -> Vec<String> {
        match self {
            Content::Text(text) => vec![text],
            Content::Blocks(blocks) => blocks
                .into_iter()
                .filter_map(|b| b.into_option().and_then(|b| b.0.text))
                .collect(),
            Content::Other(_) => Vec::new(),
        }
    }
}

impl<'de> Deserialize<'de> for ResponseObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResponseObject;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tool_response object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResponseObject, A::Error> {
                let mut o = ResponseObject::default();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "answers" => o.answers = Some(map.next_value::<AnswersField>()?.0),
                        "annotations" => {
                            o.annotations = map
                                .next_value::<Loose<Object<Ordered<Loose<Object<Annotation>>>>>>()?
                                .into_option()
                                .map(|m| {
                                    m.0 .0
                                        .into_iter()
                                        .map(|(k, a)| (k, a.into_option().and_then(|a| a.0.notes)))
                                        .collect()
                                })
                                .unwrap_or_default();
                        }
                        "response" => o.response = map.next_value::<Loose<String>>()?.into_option(),
                        "afkTimeoutMs" => o.afk = !map.next_value::<Value>()?.is_null(),
                        "is_error" | "isError" => {
                            o.is_error |=
                                map.next_value::<Loose<bool>>()?.into_option() == Some(true);
                        }
                        "error" => o.error = Some(map.next_value()?),
                        "content" => o.content = map.next_value::<Content>()?.texts(),
                        "questions" => o.questions = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                    if !o.keys.contains(&key) {
                        o.keys.push(key);
                    }
                }
                Ok(o)
            }
        }
        d.deserialize_map(V)
    }
}

/// `answers` read by its JSON type.
struct AnswersField(Answers);

impl<'de> Deserialize<'de> for AnswersField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Shape {
            Map(Object<Ordered<AnswerValue>>),
            List(Vec<AnswerItem>),
            Other(IgnoredAny),
        }
        Ok(AnswersField(match Shape::deserialize(d)? {
            Shape::Map(m) => Answers::Map(m.0 .0),
            Shape::List(items) => Answers::List(items),
            Shape::Other(_) => Answers::Other,
        }))
    }
}

/// A `T`, or anything else (kept out of the way instead of failing the payload).
#[derive(Debug)]
pub enum Loose<T> {
    Ok(T),
    Other,
}

impl<T> Loose<T> {
    pub fn get(&self) -> Option<&T> {
        match self {
            Loose::Ok(t) => Some(t),
            Loose::Other => None,
        }
    }

    pub fn into_option(self) -> Option<T> {
        match self {
            Loose::Ok(t) => Some(t),
            Loose::Other => None,
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either<T> {
            Ok(T),
            Other(IgnoredAny),
        }
        Ok(match Either::deserialize(d)? {
            Either::Ok(t) => Loose::Ok(t),
            Either::Other(_) => Loose::Other,
        })
    }
}

/// A `T` read only from a JSON object (serde reads a struct from an array too).
#[derive(Debug, Default)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Object<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

/// A JSON object's entries in key order (a repeated key keeps its first place, last value).
#[derive(Debug, Default)]
pub struct Ordered<T>(pub Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Ordered<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered<T>, A::Error> {
                let mut out: Vec<(String, T)> = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, T>()? {
                    match out.iter_mut().find(|(k, _)| *k == key) {
                        Some(slot) => slot.1 = value,
                        None => out.push((key, value)),
                    }
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

/// A `T`, or `None` for null, a missing key or any other type.
fn lenient<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Ok(Option::<Loose<T>>::deserialize(d)?.and_then(Loose::into_option))
}

/// `Some(value)` whenever the key is present, including an explicit `null`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}
