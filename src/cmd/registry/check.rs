//! `registry check`: validate a registry file's text, each problem on the 1-based line of the
//! value it is about. Lines come from `serde_json`'s raw values: each borrowed slice of the
//! input says where its value starts.

use askhook_core::classify::Door;
use askhook_core::registry::{embedded_entry, is_kebab_id, registry_door, CATEGORIES};
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::value::RawValue;

use crate::sys::ui;

/// The fields every entry must have.
const REQUIRED: &[&str] = &[
    "id",
    "skill",
    "category",
    "door_type",
    "options",
    "signal_key",
    "description",
];
/// Fields a user entry may carry on top.
const OPTIONAL: &[&str] = &["i_know", "added_at"];

/// One problem `registry check` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub line: usize,
    pub severity: Severity,
    pub message: String,
    pub id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    Error,
    Warning,
}

/// A JSON object's fields in order, repeated keys kept, values unparsed.
struct Fields<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Fields<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry::<String, &'de RawValue>()? {
                    out.push(entry);
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl<'a> Fields<'a> {
    fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

/// A value of the file being checked, with what the checks ask of it.
#[derive(Clone, Copy)]
struct Value<'a> {
    text: &'a str,
    raw: &'a RawValue,
}

impl<'a> Value<'a> {
    /// The 1-based line the value starts on.
    fn line(self) -> usize {
        let at = (self.raw.get().as_ptr() as usize).saturating_sub(self.text.as_ptr() as usize);
        self.text
            .get(..at)
            .map_or(0, |before| before.matches('\n').count())
            + 1
    }

    fn of(self, raw: &'a RawValue) -> Value<'a> {
        Value { raw, ..self }
    }

    fn string(self) -> Option<String> {
        serde_json::from_str::<String>(self.raw.get()).ok()
    }

    fn fields(self) -> Option<Fields<'a>> {
        self.raw
            .get()
            .starts_with('{')
            .then(|| serde_json::from_str::<Fields<'a>>(self.raw.get()).ok())?
    }

    fn items(self) -> Option<Vec<&'a RawValue>> {
        serde_json::from_str::<Vec<&'a RawValue>>(self.raw.get()).ok()
    }
}

/// The problems found in one entry, all naming its id.
struct Entry<'p> {
    id: Option<String>,
    name: String,
    problems: &'p mut Vec<Problem>,
}

impl Entry<'_> {
    fn push(&mut self, line: usize, severity: Severity, message: String) {
        self.problems.push(Problem {
            line,
            severity,
            message,
            id: self.id.clone(),
        });
    }

    fn error(&mut self, line: usize, message: String) {
        self.push(line, Severity::Error, message);
    }
}

/// Validate a registry file's text: valid JSON, a `questions` array of objects with every
/// required field, unique kebab-case ids, known categories and door types. Returns the number of
/// entries and the problems, by line.
pub fn check(text: &str) -> (usize, Vec<Problem>) {
    let err = |line: usize, message: String| Problem {
        line,
        severity: Severity::Error,
        message,
        id: None,
    };
    let root = match serde_json::from_str::<&RawValue>(text) {
        Ok(raw) => Value { text, raw },
        Err(e) => {
            return (
                0,
                vec![err(e.line().max(1), format!("not valid JSON: {e}"))],
            )
        }
    };
    let Some(fields) = root.fields() else {
        let message = "the top level must be an object with a `questions` array".into();
        return (0, vec![err(root.line(), message)]);
    };
    let Some(questions) = fields.get("questions").map(|q| root.of(q)) else {
        let message = "missing the `questions` array at the top level".into();
        return (0, vec![err(root.line(), message)]);
    };
    let Some(items) = questions.items() else {
        return (
            0,
            vec![err(questions.line(), "`questions` must be an array".into())],
        );
    };
    let mut problems = Vec::new();
    let mut seen: Vec<(String, usize)> = Vec::new();
    for item in &items {
        check_entry(root.of(item), &mut seen, &mut problems);
    }
    problems.sort_by_key(|p| p.line);
    (items.len(), problems)
}

fn check_entry(item: Value<'_>, seen: &mut Vec<(String, usize)>, problems: &mut Vec<Problem>) {
    let Some(fields) = item.fields() else {
        problems.push(Problem {
            line: item.line(),
            severity: Severity::Error,
            message: "each question must be an object".into(),
            id: None,
        });
        return;
    };
    let get = |key: &str| fields.get(key).map(|raw| item.of(raw));
    let id = get("id").and_then(Value::string);
    let name = id
        .as_deref()
        .map(|i| format!("`{i}`: "))
        .unwrap_or_default();
    let mut entry = Entry { id, name, problems };
    check_keys(&fields, item, &mut entry);
    if let Some(v) = get("id") {
        check_id(v, seen, &mut entry);
    }
    for key in ["skill", "signal_key", "description"] {
        if let Some(v) = get(key) {
            check_text(key, v, &mut entry);
        }
    }
    if let Some(v) = get("category") {
        check_category(v, &mut entry);
    }
    let door = get("door_type").and_then(|v| check_door(v, &mut entry));
    if let Some(v) = get("options") {
        check_options(v, &mut entry);
    }
    let i_know = get("i_know").is_some_and(|v| check_i_know(v, &mut entry));
    if door == Some(Door::TwoWay) {
        let line = get("door_type").map_or_else(|| item.line(), Value::line);
        check_lowering(line, i_know, &mut entry);
    }
}

/// Required fields present, none twice, unknown ones warned about.
fn check_keys(fields: &Fields<'_>, item: Value<'_>, entry: &mut Entry<'_>) {
    for key in REQUIRED {
        if fields.get(key).is_none() {
            let message = format!("{}missing required field `{key}`", entry.name);
            entry.error(item.line(), message);
        }
    }
    let mut keys_seen: Vec<&str> = Vec::new();
    for (key, raw) in &fields.0 {
        let line = item.of(raw).line();
        if keys_seen.contains(&key.as_str()) {
            entry.error(line, format!("{}field `{key}` appears twice", entry.name));
        }
        keys_seen.push(key);
        if !REQUIRED.contains(&key.as_str()) && !OPTIONAL.contains(&key.as_str()) {
            let message = format!("{}unknown field `{key}` is ignored", entry.name);
            entry.push(line, Severity::Warning, message);
        }
    }
}

fn check_id(v: Value<'_>, seen: &mut Vec<(String, usize)>, entry: &mut Entry<'_>) {
    match v.string() {
        None => entry.error(v.line(), "`id` must be a string".into()),
        Some(i) if !is_kebab_id(&i) => entry.error(
            v.line(),
            format!(
                "id `{}` is not kebab-case (lowercase letters, digits, single dashes, at most 64)",
                ui::sanitize(&i, false)
            ),
        ),
        Some(i) => {
            if let Some((_, first)) = seen.iter().find(|(s, _)| *s == i) {
                let message = format!("duplicate id `{i}` (first on line {first})");
                entry.error(v.line(), message);
            } else {
                seen.push((i, v.line()));
            }
        }
    }
}

fn check_text(key: &str, v: Value<'_>, entry: &mut Entry<'_>) {
    match v.string() {
        None => entry.error(v.line(), format!("{}`{key}` must be a string", entry.name)),
        Some(s) if s.trim().is_empty() => {
            entry.error(v.line(), format!("{}`{key}` must not be empty", entry.name));
        }
        Some(_) => {}
    }
}

fn check_category(v: Value<'_>, entry: &mut Entry<'_>) {
    match v.string() {
        Some(c) if CATEGORIES.contains(&c.as_str()) => {}
        Some(c) => entry.error(
            v.line(),
            format!(
                "{}unknown category `{}` (known: {})",
                entry.name,
                ui::sanitize(&c, false),
                CATEGORIES.join(", ")
            ),
        ),
        None => entry.error(
            v.line(),
            format!("{}`category` must be a string", entry.name),
        ),
    }
}

fn check_door(v: Value<'_>, entry: &mut Entry<'_>) -> Option<Door> {
    let Some(d) = v.string() else {
        entry.error(
            v.line(),
            format!("{}`door_type` must be a string", entry.name),
        );
        return None;
    };
    let door = registry_door(&d);
    if door.is_none() {
        let message = format!(
            "{}unknown door_type `{}` (use one-way or two-way; askhook reads it as one-way)",
            entry.name,
            ui::sanitize(&d, false)
        );
        entry.error(v.line(), message);
    }
    door
}

fn check_options(v: Value<'_>, entry: &mut Entry<'_>) {
    let Some(items) = v.raw.get().starts_with('[').then(|| v.items()).flatten() else {
        let message = format!("{}`options` must be an array of strings", entry.name);
        entry.error(v.line(), message);
        return;
    };
    for o in items {
        if !o.get().starts_with('"') {
            let message = format!("{}every option must be a string", entry.name);
            entry.error(v.of(o).line(), message);
        }
    }
}

fn check_i_know(v: Value<'_>, entry: &mut Entry<'_>) -> bool {
    match v.raw.get() {
        "true" => true,
        "false" => false,
        _ => {
            let message = format!("{}`i_know` must be true or false", entry.name);
            entry.error(v.line(), message);
            false
        }
    }
}

/// A two-way entry for an id the embedded registry calls one-way: honoured only with `i_know`.
fn check_lowering(line: usize, i_know: bool, entry: &mut Entry<'_>) {
    let Some(i) = entry.id.clone() else {
        return;
    };
    if !embedded_entry(&i).is_some_and(|e| e.door == Door::OneWay) {
        return;
    }
    let message = if i_know {
        format!("`{i}` lowers an embedded one-way door to two-way (i_know); askhook may answer it for you")
    } else {
        format!("`{i}` is one-way in the embedded registry; this two-way entry is ignored (use `askhook registry add {i} --door two-way --i-know`)")
    };
    entry.push(line, Severity::Warning, message);
}
