//! Questions as askhook understands them, all pure: reading `tool_input.questions`, the
//! question id (marker or hash), the recommended option, and the answers found in a
//! `tool_response`.
//!
//! ## Question id
//! A marker in the text, `<askhook-qid:ID>` or gstack's `<gstack-qid:ID>` (ID =
//! `[a-z0-9-]{1,64}`), wins and is stripped from the stored text. Without one, the id is
//! `hook-` + the first 10 hex digits of SHA-1 over
//! `unknown::<question text>::<option labels sorted, joined by |>` (gstack's formula).
//!
//! ## Recommendation
//! An option whose label contains `(recommended)` in any case; else a `Recommendation: X` /
//! `Recommended: X` line in the question text naming exactly one option by label or letter.
//! Two candidates are ambiguous, which counts as no recommendation.

use serde_json::{Map, Value};
use sha1::{Digest, Sha1};

/// Most questions one call may carry before askhook treats the input as hostile.
pub const MAX_QUESTIONS: usize = 16;
/// Most options one question may carry before askhook treats the input as hostile.
pub const MAX_OPTIONS: usize = 32;

/// One offered option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    pub description: String,
}

/// Where a question id came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdSource {
    Marker,
    Hash,
}

/// What the question recommends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recommendation {
    None,
    /// The index of the one recommended option.
    One(usize),
    /// More than one candidate: treated as no recommendation.
    Ambiguous,
}

impl Recommendation {
    pub fn index(self) -> Option<usize> {
        match self {
            Recommendation::One(i) => Some(i),
            _ => None,
        }
    }
}

/// One question of an AskUserQuestion call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// Position in `tool_input.questions`.
    pub index: usize,
    /// The text exactly as sent; it is the key of `answers`.
    pub raw_text: String,
    /// The text with id markers stripped: what is stored and shown.
    pub text: String,
    pub header: Option<String>,
    pub options: Vec<Choice>,
    pub multi_select: bool,
    pub id: String,
    pub id_source: IdSource,
    pub recommendation: Recommendation,
}

impl Question {
    /// The recommended option's label, when there is exactly one.
    pub fn recommended_label(&self) -> Option<&str> {
        self.recommendation
            .index()
            .map(|i| self.options[i].label.as_str())
    }

    /// Every text field a classifier should read: text, header, labels, descriptions.
    pub fn text_fields(&self) -> Vec<&str> {
        let mut fields = vec![self.text.as_str()];
        fields.extend(self.header.as_deref());
        for option in &self.options {
            fields.push(&option.label);
            fields.push(&option.description);
        }
        fields
    }
}

/// Read the questions of a `tool_input` (or a `tool_response` that echoes them).
pub fn parse_questions(input: &Value) -> Result<Vec<Question>, String> {
    let list = input
        .get("questions")
        .and_then(Value::as_array)
        .ok_or("tool_input has no `questions` array")?;
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
        .map(|(index, q)| parse_question(index, q))
        .collect()
}

fn parse_question(index: usize, value: &Value) -> Result<Question, String> {
    let obj = value
        .as_object()
        .ok_or(format!("question {index} is not an object"))?;
    let raw_text = obj
        .get("question")
        .and_then(Value::as_str)
        .ok_or(format!("question {index} has no `question` text"))?
        .to_owned();
    let header = obj.get("header").and_then(Value::as_str).map(str::to_owned);
    let multi_select = obj
        .get("multiSelect")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let options = match obj.get("options") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => {
            if items.len() > MAX_OPTIONS {
                return Err(format!(
                    "question {index} has {} options (more than {MAX_OPTIONS})",
                    items.len()
                ));
            }
            items
                .iter()
                .map(|o| parse_choice(index, o))
                .collect::<Result<_, _>>()?
        }
        Some(_) => return Err(format!("question {index}: `options` is not an array")),
    };
    let (id, id_source, text) = question_id(&raw_text, &options);
    let recommendation = recommendation(&text, &options);
    Ok(Question {
        index,
        raw_text,
        text,
        header,
        options,
        multi_select,
        id,
        id_source,
        recommendation,
    })
}

fn parse_choice(index: usize, value: &Value) -> Result<Choice, String> {
    match value {
        Value::String(label) => Ok(Choice {
            label: label.clone(),
            description: String::new(),
        }),
        Value::Object(o) => {
            let label = o
                .get("label")
                .and_then(Value::as_str)
                .ok_or(format!("question {index}: an option has no `label`"))?;
            let description = o
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            Ok(Choice {
                label: label.to_owned(),
                description: description.to_owned(),
            })
        }
        _ => Err(format!(
            "question {index}: an option is neither an object nor a string"
        )),
    }
}

/// The id of a question and its text with markers removed.
pub fn question_id(raw_text: &str, options: &[Choice]) -> (String, IdSource, String) {
    let (marker, stripped) = strip_markers(raw_text);
    match marker {
        Some(id) => (id, IdSource::Marker, stripped),
        None => (hash_id(raw_text, options), IdSource::Hash, stripped),
    }
}

/// gstack's id formula: `hook-` + 10 hex digits of SHA-1 over `unknown::<text>::<labels>`.
pub fn hash_id(text: &str, options: &[Choice]) -> String {
    let mut labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
    labels.sort_unstable();
    let mut hasher = Sha1::new();
    hasher.update(b"unknown::");
    hasher.update(text.as_bytes());
    hasher.update(b"::");
    hasher.update(labels.join("|").as_bytes());
    let digest = hasher.finalize();
    let mut id = String::with_capacity(15);
    id.push_str("hook-");
    for byte in &digest[..5] {
        id.push_str(&format!("{byte:02x}"));
    }
    id
}

const MARKER_PREFIXES: [&str; 2] = ["<askhook-qid:", "<gstack-qid:"];

/// Find the first valid id marker and remove every valid marker from the text.
fn strip_markers(text: &str) -> (Option<String>, String) {
    let mut found: Option<String> = None;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((at, prefix)) = MARKER_PREFIXES
        .iter()
        .filter_map(|p| rest.find(p).map(|at| (at, *p)))
        .min_by_key(|(at, _)| *at)
    {
        let after = &rest[at + prefix.len()..];
        let id_end = after.find('>');
        let id = id_end.map(|end| &after[..end]);
        match id.filter(|id| is_valid_id(id)) {
            Some(id) => {
                out.push_str(&rest[..at]);
                found.get_or_insert_with(|| id.to_owned());
                rest = &after[id.len() + 1..];
            }
            None => {
                out.push_str(&rest[..at + prefix.len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    let cleaned = if found.is_some() {
        collapse_spaces(&out)
    } else {
        out
    };
    (found, cleaned)
}

/// A valid marker id: `[a-z0-9-]{1,64}`.
pub fn is_valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Trim and collapse the runs of spaces a removed marker leaves behind (newlines kept).
fn collapse_spaces(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            line.split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    lines.join("\n").trim().to_owned()
}

/// Which option the question recommends.
pub fn recommendation(text: &str, options: &[Choice]) -> Recommendation {
    let flagged: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.label.to_lowercase().contains("(recommended)"))
        .map(|(i, _)| i)
        .collect();
    match flagged.len() {
        1 => return Recommendation::One(flagged[0]),
        0 => {}
        _ => return Recommendation::Ambiguous,
    }
    let mut named: Vec<usize> = Vec::new();
    for line in text.lines() {
        let Some(value) = recommendation_line_value(line) else {
            continue;
        };
        match named_option(value, options) {
            Recommendation::One(i) => {
                if !named.contains(&i) {
                    named.push(i);
                }
            }
            Recommendation::Ambiguous => return Recommendation::Ambiguous,
            Recommendation::None => {}
        }
    }
    match named.len() {
        0 => Recommendation::None,
        1 => Recommendation::One(named[0]),
        _ => Recommendation::Ambiguous,
    }
}

/// The value of a `Recommendation: X` / `Recommended: X` line (markdown emphasis allowed).
fn recommendation_line_value(line: &str) -> Option<&str> {
    let trimmed = line.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '*' | '_' | '-' | '>' | '#')
    });
    let lower = trimmed.to_ascii_lowercase();
    let key_len = ["recommendation", "recommended"]
        .iter()
        .find(|k| lower.starts_with(**k))?
        .len();
    let after = trimmed[key_len..].trim_start_matches(['*', '_', ' ']);
    let value = after.strip_prefix(':')?;
    Some(
        value
            .trim()
            .trim_matches(|c: char| matches!(c, '*' | '_' | '`'))
            .trim(),
    )
}

/// The option a recommendation value names: a letter (`B`, `B)`, `(B)`) or a label.
fn named_option(value: &str, options: &[Choice]) -> Recommendation {
    if let Some(letter) = option_letter(value) {
        let i = (letter - b'A') as usize;
        return if i < options.len() {
            Recommendation::One(i)
        } else {
            Recommendation::None
        };
    }
    let value_lower = value.to_lowercase();
    let exact: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| o.label.trim().to_lowercase() == value_lower)
        .map(|(i, _)| i)
        .collect();
    if exact.len() == 1 {
        return Recommendation::One(exact[0]);
    }
    let contained: Vec<usize> = options
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            let label = o.label.trim().to_lowercase();
            !label.is_empty() && contains_word(&value_lower, &label)
        })
        .map(|(i, _)| i)
        .collect();
    match contained.len() {
        0 => Recommendation::None,
        1 => Recommendation::One(contained[0]),
        _ => Recommendation::Ambiguous,
    }
}

/// `B`, `B)`, `B.`, `(B)`, `B) text`, `Option B` → `B` (uppercase).
fn option_letter(value: &str) -> Option<u8> {
    let v = value.trim();
    let v = v
        .strip_prefix("Option ")
        .or_else(|| v.strip_prefix("option "))
        .unwrap_or(v);
    let b = v.as_bytes();
    let (letter, rest) = match b {
        [b'(', l, b')', rest @ ..] => (*l, rest),
        [l, rest @ ..] => (*l, rest),
        [] => return None,
    };
    if !letter.is_ascii_alphabetic() {
        return None;
    }
    let ok = match rest {
        [] => true,
        [b')' | b'.' | b':', ..] => true,
        [b' ', ..] if b[0] == b'(' => true,
        _ => false,
    };
    ok.then(|| letter.to_ascii_uppercase())
}

/// Whether `needle` occurs in `haystack` bounded by non-alphanumerics.
fn contains_word(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(at, _)| {
        let before = haystack[..at].chars().next_back();
        let after = haystack[at + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// What the response says about one question.
#[derive(Debug, Clone, Default, PartialEq)]
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

/// The sentinel Claude Code puts in a result that never arrived.
const MISSING_SENTINEL: &str = "Tool result missing";

/// Read the answers to `questions` out of a PostToolUse `tool_response`.
pub fn read_response(questions: &[Question], response: &Value) -> Response {
    if let Some(reason) = error_shape(response) {
        return Response::Failed(reason);
    }
    match response {
        Value::Object(obj) => read_object(questions, obj),
        Value::Array(blocks) => read_content_blocks(questions, blocks),
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(inner @ Value::Object(_)) => read_response(questions, &inner),
            _ => Response::Unrecognised("tool_response is a plain string".into()),
        },
        _ => Response::Unrecognised(format!("tool_response is a {}", type_name(response))),
    }
}

/// Why a response is an error, if it is one.
fn error_shape(response: &Value) -> Option<String> {
    match response {
        Value::Null => Some("tool_response is null".into()),
        Value::String(s) if s.trim().is_empty() => Some("tool_response is empty".into()),
        Value::String(s) if s.contains(MISSING_SENTINEL) => Some(s.clone()),
        Value::Array(a) if a.is_empty() => Some("tool_response is empty".into()),
        Value::Object(o) if o.is_empty() => Some("tool_response is empty".into()),
        Value::Object(o) => {
            if o.get("is_error").and_then(Value::as_bool) == Some(true)
                || o.get("isError").and_then(Value::as_bool) == Some(true)
            {
                return Some(
                    text_of(o).unwrap_or_else(|| "tool_response has is_error: true".into()),
                );
            }
            match o.get("error") {
                Some(Value::String(e)) if !e.trim().is_empty() => Some(e.clone()),
                Some(Value::Object(e)) if !e.is_empty() => {
                    Some(Value::Object(e.clone()).to_string())
                }
                _ => None,
            }
        }
        Value::Array(blocks) => blocks.iter().find_map(|b| {
            let text = b.get("text").and_then(Value::as_str)?;
            text.contains(MISSING_SENTINEL).then(|| text.to_owned())
        }),
        _ => None,
    }
}

fn text_of(o: &Map<String, Value>) -> Option<String> {
    if let Some(s) = o.get("error").and_then(Value::as_str) {
        return Some(s.to_owned());
    }
    let content = o.get("content")?.as_array()?;
    let texts: Vec<&str> = content
        .iter()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
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

/// MCP results: `[{"type":"text","text":"{\"answers\": {…}}"}]`.
fn read_content_blocks(questions: &[Question], blocks: &[Value]) -> Response {
    for block in blocks {
        if let Some(text) = block.get("text").and_then(Value::as_str) {
            if let Ok(inner @ Value::Object(_)) = serde_json::from_str::<Value>(text) {
                let parsed = read_response(questions, &inner);
                if !matches!(parsed, Response::Unrecognised(_)) {
                    return parsed;
                }
            }
        }
    }
    // Legacy array shape: `[{label|option_label|answer}]`, one per question.
    if let Some(found) = read_answer_list(questions, blocks) {
        return Response::Answers(found);
    }
    Response::Unrecognised("tool_response is an array with no answers in it".into())
}

fn read_object(questions: &[Question], obj: &Map<String, Value>) -> Response {
    let afk = obj.get("afkTimeoutMs").is_some_and(|v| !v.is_null());
    let annotations = obj.get("annotations").and_then(Value::as_object);
    let raw: Vec<Option<String>> = match obj.get("answers") {
        Some(Value::Object(map)) => match_answer_map(questions, map),
        Some(Value::Array(items)) => match read_answer_list(questions, items) {
            Some(found) => found.into_iter().map(|a| a.answer).collect(),
            None => vec![None; questions.len()],
        },
        _ => match obj.get("questions").and_then(Value::as_array) {
            Some(echoed) if echoed.iter().any(|q| q.get("user_answer").is_some()) => echoed
                .iter()
                .map(|q| q.get("user_answer").and_then(answer_string))
                .chain(std::iter::repeat(None))
                .take(questions.len())
                .collect(),
            _ => vec![None; questions.len()],
        },
    };
    let reply = obj
        .get("response")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty());
    if raw.iter().all(Option::is_none) && reply.is_none() {
        let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        return Response::Unrecognised(format!(
            "no answers found in tool_response (keys: {})",
            keys.join(", ")
        ));
    }
    let answers = questions
        .iter()
        .zip(raw)
        .map(|(q, answer)| {
            let notes = annotations
                .and_then(|a| a.get(&q.raw_text).or_else(|| a.get(&q.text)))
                .and_then(|n| n.get("notes"))
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .map(str::to_owned);
            let mut parsed = interpret(q, answer, notes, afk);
            if parsed.answer.is_none() {
                if let Some(reply) = reply {
                    parsed.free_text = Some(reply.to_owned());
                }
            }
            parsed
        })
        .collect();
    Response::Answers(answers)
}

/// Pair an `answers` map with the questions: exact key, then normalised key, then a lone
/// question with a lone answer.
fn match_answer_map(questions: &[Question], map: &Map<String, Value>) -> Vec<Option<String>> {
    let mut found: Vec<Option<String>> = questions
        .iter()
        .map(|q| {
            map.get(&q.raw_text)
                .or_else(|| map.get(&q.text))
                .and_then(answer_string)
        })
        .collect();
    for (slot, q) in found.iter_mut().zip(questions) {
        if slot.is_none() {
            let want = [normalise(&q.raw_text), normalise(&q.text)];
            *slot = map
                .iter()
                .find(|(k, _)| want.contains(&normalise(k)))
                .and_then(|(_, v)| answer_string(v));
        }
    }
    if questions.len() == 1 && map.len() == 1 && found[0].is_none() {
        found[0] = map.values().next().and_then(answer_string);
    }
    found
}

/// `answers: [{label|option_label|answer}]`, by position.
fn read_answer_list(questions: &[Question], items: &[Value]) -> Option<Vec<Answer>> {
    let values: Vec<Option<String>> = items
        .iter()
        .map(|item| match item {
            Value::Object(o) => ["label", "option_label", "answer"]
                .iter()
                .find_map(|k| o.get(*k).and_then(answer_string)),
            other => answer_string(other),
        })
        .collect();
    if values.iter().all(Option::is_none) {
        return None;
    }
    Some(
        questions
            .iter()
            .zip(values.into_iter().chain(std::iter::repeat(None)))
            .map(|(q, a)| interpret(q, a, None, false))
            .collect(),
    )
}

/// An answer value as a string: strings as they are, arrays joined with `, `.
fn answer_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let parts: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            (!parts.is_empty()).then(|| parts.join(", "))
        }
        _ => None,
    }
}

/// Whitespace-collapsed, lowercased: for lenient key matching.
fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Strip `(Recommended)` (any case) and surrounding space, for comparisons.
pub fn strip_recommended(label: &str) -> String {
    let lower = label.to_lowercase();
    let cleaned = match lower.find("(recommended)") {
        Some(at) => format!("{}{}", &label[..at], &label[at + "(recommended)".len()..]),
        None => label.to_owned(),
    };
    normalise(&cleaned)
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
    use serde_json::json;

    fn choices(labels: &[&str]) -> Vec<Choice> {
        labels
            .iter()
            .map(|l| Choice {
                label: l.to_string(),
                description: String::new(),
            })
            .collect()
    }

    fn question(text: &str, labels: &[&str], multi: bool) -> Question {
        let input = json!({"questions": [{"question": text, "header": "H",
            "options": labels.iter().map(|l| json!({"label": l, "description": ""})).collect::<Vec<_>>(),
            "multiSelect": multi}]});
        parse_questions(&input).unwrap().remove(0)
    }

    #[test]
    fn id_cases() {
        struct Case {
            name: &'static str,
            text: &'static str,
            id: &'static str,
            source: IdSource,
            stored: &'static str,
        }
        let cases = [
            Case {
                name: "askhook marker",
                text: "Enable cache? <askhook-qid:demo-q>",
                id: "demo-q",
                source: IdSource::Marker,
                stored: "Enable cache?",
            },
            Case {
                name: "gstack marker",
                text: "<gstack-qid:ship-it> Ship it?",
                id: "ship-it",
                source: IdSource::Marker,
                stored: "Ship it?",
            },
            Case {
                name: "first marker wins",
                text: "Q <askhook-qid:a-1> <gstack-qid:b-2>",
                id: "a-1",
                source: IdSource::Marker,
                stored: "Q",
            },
            Case {
                name: "uppercase id is not a marker",
                text: "Q <askhook-qid:Bad>",
                id: "",
                source: IdSource::Hash,
                stored: "Q <askhook-qid:Bad>",
            },
            Case {
                name: "unterminated marker",
                text: "Q <askhook-qid:abc",
                id: "",
                source: IdSource::Hash,
                stored: "Q <askhook-qid:abc",
            },
            Case {
                name: "empty id",
                text: "Q <askhook-qid:>",
                id: "",
                source: IdSource::Hash,
                stored: "Q <askhook-qid:>",
            },
        ];
        for case in cases {
            let (id, source, stored) = question_id(case.text, &choices(&["A", "B"]));
            assert_eq!(source, case.source, "{}", case.name);
            if source == IdSource::Marker {
                assert_eq!(id, case.id, "{}", case.name);
            } else {
                assert!(
                    id.starts_with("hook-") && id.len() == 15,
                    "{}: {id}",
                    case.name
                );
            }
            assert_eq!(stored, case.stored, "{}", case.name);
        }
        let long = format!("Q <askhook-qid:{}>", "a".repeat(65));
        assert_eq!(question_id(&long, &[]).1, IdSource::Hash);
    }

    #[test]
    fn hash_id_is_gstack_formula_and_order_independent() {
        // sha1("unknown::Which database?::PostgreSQL|SQLite")
        let mut h = Sha1::new();
        h.update(b"unknown::Which database?::PostgreSQL|SQLite");
        let hex: String = h.finalize()[..5]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hash_id("Which database?", &choices(&["SQLite", "PostgreSQL"])),
            format!("hook-{hex}")
        );
        assert_eq!(
            hash_id("Which database?", &choices(&["SQLite", "PostgreSQL"])),
            hash_id("Which database?", &choices(&["PostgreSQL", "SQLite"]))
        );
        assert_ne!(
            hash_id("Which database?", &choices(&["A"])),
            hash_id("Which database!", &choices(&["A"]))
        );
    }

    #[test]
    fn recommendation_cases() {
        let cases: &[(&str, &str, &[&str], Recommendation)] = &[
            (
                "suffix",
                "Which?",
                &["X (Recommended)", "Y"],
                Recommendation::One(0),
            ),
            (
                "any case, mid label",
                "Which?",
                &["A", "B (recommended) — fast"],
                Recommendation::One(1),
            ),
            (
                "two flagged",
                "Which?",
                &["A (Recommended)", "B (Recommended)"],
                Recommendation::Ambiguous,
            ),
            ("none", "Which?", &["A", "B"], Recommendation::None),
            (
                "line by label",
                "Pick one.\nRecommendation: SQLite",
                &["PostgreSQL", "SQLite"],
                Recommendation::One(1),
            ),
            (
                "line by letter",
                "Pick.\nRecommended: B",
                &["One", "Two"],
                Recommendation::One(1),
            ),
            (
                "line by letter paren",
                "Pick.\n**Recommendation:** B) because",
                &["One", "Two"],
                Recommendation::One(1),
            ),
            (
                "letter out of range",
                "Pick.\nRecommendation: D",
                &["One", "Two"],
                Recommendation::None,
            ),
            (
                "line names two",
                "Pick.\nRecommendation: Red or Blue",
                &["Red", "Blue"],
                Recommendation::Ambiguous,
            ),
            (
                "two lines disagree",
                "Recommendation: Red\nRecommended: Blue",
                &["Red", "Blue"],
                Recommendation::Ambiguous,
            ),
            (
                "label wins over line",
                "Recommendation: Blue",
                &["Red (Recommended)", "Blue"],
                Recommendation::One(0),
            ),
            (
                "word boundary",
                "Recommendation: Reduce",
                &["Red", "Blue"],
                Recommendation::None,
            ),
        ];
        for (name, text, labels, want) in cases {
            assert_eq!(recommendation(text, &choices(labels)), *want, "{name}");
        }
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
