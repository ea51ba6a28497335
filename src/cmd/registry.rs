//! The question registry's file side and its commands: reading the user registry file, and
//! `askhook registry list | show | add | check`. The registry itself (embedded tables, the
//! raise-only merge) is [`askhook_core::registry`].
//!
//! ## JSON output
//! - `registry list --json`: an array of entries, each `{"id", "skill", "category",
//!   "door_type", "options", "signal_key", "description", "source"}` where `door_type` is the
//!   effective door and `source` is `embedded`, `user` or `embedded+user`.
//! - `registry show ID --json`: one such object plus `embedded_door_type` (string|null),
//!   `user_door_type` (string|null) and `override` (`honoured` | `ignored` | null).
//! - `registry add … --json`: `{"id", "door_type", "file", "replaced", "i_know"}`.
//! - `registry check FILE --json`: `{"file", "valid", "entries", "problems": [{"line",
//!   "severity": "error"|"warning", "message", "id"}]}`; exit 1 when `valid` is false.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use askhook_core::classify::Door;
use askhook_core::registry::{
    embedded_entry, is_kebab_id, registry_door, Entry, Registry, CATEGORIES,
};
use serde::Serialize;
use serde_json::{json, Value};

use crate::cli::{DoorArg, RegistryAddArgs, RegistryCommand};
use crate::error::{Error, Result};
use crate::sys::{fsutil, ui};
use crate::Context;

/// The fields every entry must have (`registry check`).
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

// ---------------------------------------------------------------------------------------------
// Commands

impl super::Run for RegistryCommand {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self, ctx)
    }
}

/// `askhook registry list | show | add | check`.
fn run(command: &RegistryCommand, ctx: &Context) -> Result<ExitCode> {
    match command {
        RegistryCommand::List { json } => list(*json, ctx),
        RegistryCommand::Show { id, json } => show(id, *json, ctx),
        RegistryCommand::Add(args) => add(args, ctx),
        RegistryCommand::Check { file, json } => check_command(file, *json),
    }
}

fn load_for_cli(ctx: &Context) -> Result<Registry> {
    let registry =
        crate::registry::load(&ctx.paths.user_registry).map_err(|problem| Error::Invalid {
            path: ctx.paths.user_registry.clone(),
            problem: format!("{problem} (run `askhook registry check` on it)"),
        })?;
    for warning in registry.warnings() {
        ui::eprintln_warning(&format!(
            "{}: {}",
            ctx.paths.user_registry.display(),
            ui::sanitize(warning, false)
        ));
    }
    Ok(registry)
}

fn entry_json(registry: &Registry, e: &Entry) -> Value {
    json!({
        "id": e.id,
        "skill": e.skill,
        "category": e.category,
        "door_type": e.door_type,
        "options": e.options,
        "signal_key": e.signal_key,
        "description": e.description,
        "source": registry.source_of(&e.id),
    })
}

fn list(as_json: bool, ctx: &Context) -> Result<ExitCode> {
    let registry = load_for_cli(ctx)?;
    let entries = registry.entries();
    if as_json {
        let rows: Vec<Value> = entries.iter().map(|e| entry_json(&registry, e)).collect();
        ui::println(&Value::Array(rows).to_string())?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = entries.iter().map(|e| e.id.len()).max().unwrap_or(2).max(2);
    let colour = ui::colour_enabled();
    let mut out = format!(
        "{:width$}  {:7}  {:13}  {:13}  DESCRIPTION\n",
        "ID", "DOOR", "CATEGORY", "SOURCE"
    );
    for e in entries {
        let door = e.door_type.as_str();
        let door = if colour && e.door_type == Door::OneWay {
            format!("\x1b[31m{door:7}\x1b[0m")
        } else {
            format!("{door:7}")
        };
        out.push_str(&format!(
            "{:width$}  {door}  {:13}  {:13}  {}\n",
            ui::sanitize(&e.id, false),
            ui::sanitize(e.category.as_deref().unwrap_or("-"), false),
            registry.source_of(&e.id),
            ui::sanitize(e.description.as_deref().unwrap_or(""), false),
        ));
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn show(id: &str, as_json: bool, ctx: &Context) -> Result<ExitCode> {
    let registry = load_for_cli(ctx)?;
    let Some(entry) = registry.entries().iter().find(|e| e.id == id) else {
        return Err(Error::Refused(format!(
            "`{}` is not in the question registry; askhook classifies such questions from their text \
             (see `askhook registry list`, or add it with `askhook registry add`)",
            ui::sanitize(id, false)
        )));
    };
    let embedded = embedded_entry(id).map(|e| e.door);
    let user = registry.user_entry(id);
    let override_state = registry
        .overrides()
        .into_iter()
        .find(|o| o.id == id)
        .map(|o| if o.honoured { "honoured" } else { "ignored" });
    if as_json {
        let mut v = entry_json(&registry, entry);
        v["embedded_door_type"] = json!(embedded);
        v["user_door_type"] = json!(user.map(|u| u.door_type));
        v["override"] = json!(override_state);
        ui::println(&v.to_string())?;
        return Ok(ExitCode::SUCCESS);
    }
    let s = |t: &str| ui::sanitize(t, false);
    let mut out = String::new();
    out.push_str(&format!("id:          {}\n", s(&entry.id)));
    out.push_str(&format!("door:        {}\n", entry.door_type.as_str()));
    out.push_str(&format!(
        "category:    {}\n",
        s(entry.category.as_deref().unwrap_or("-"))
    ));
    out.push_str(&format!(
        "skill:       {}\n",
        s(entry.skill.as_deref().unwrap_or("-"))
    ));
    out.push_str(&format!("options:     {}\n", s(&entry.options.join(" | "))));
    out.push_str(&format!(
        "signal key:  {}\n",
        s(entry.signal_key.as_deref().unwrap_or("-"))
    ));
    out.push_str(&format!(
        "description: {}\n",
        s(entry.description.as_deref().unwrap_or(""))
    ));
    out.push_str(&format!("source:      {}\n", registry.source_of(id)));
    match override_state {
        Some("honoured") if entry.door_type == Door::TwoWay => out.push_str(
            "override:    the user registry lowers this embedded one-way door to two-way (--i-know)\n",
        ),
        Some("honoured") => {
            out.push_str("override:    the user registry raises this question to one-way\n")
        }
        Some(_) => out.push_str(
            "override:    ignored: the user registry marks it two-way without --i-know\n",
        ),
        None => {}
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn add(args: &RegistryAddArgs, ctx: &Context) -> Result<ExitCode> {
    if !is_kebab_id(&args.id) {
        return Err(Error::Usage(format!(
            "`{}` is not a registry id: use lowercase letters, digits and single dashes (at most 64)",
            ui::sanitize(&args.id, false)
        )));
    }
    if !CATEGORIES.contains(&args.category.as_str()) {
        return Err(Error::Usage(format!(
            "unknown category `{}`; use one of: {}",
            ui::sanitize(&args.category, false),
            CATEGORIES.join(", ")
        )));
    }
    let door = match args.door {
        DoorArg::OneWay => Door::OneWay,
        DoorArg::TwoWay => Door::TwoWay,
    };
    let lowers =
        door == Door::TwoWay && embedded_entry(&args.id).is_some_and(|e| e.door == Door::OneWay);
    if lowers && !args.i_know {
        return Err(Error::Refused(format!(
            "`{}` is a one-way door in the embedded registry; marking it two-way lets askhook answer it \
             for you. If you are sure, run the same command with --i-know",
            args.id
        )));
    }
    let path = &ctx.paths.user_registry;
    if let Some(dir) = path.parent() {
        fsutil::create_private_dir(dir).map_err(|e| Error::io(dir, e))?;
    }
    let lock_path = {
        let mut p = path.clone().into_os_string();
        p.push(".lock");
        PathBuf::from(p)
    };
    let lock = fsutil::private_options(
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true),
    )
    .open(&lock_path)
    .map_err(|e| Error::io(&lock_path, e))?;
    let budget = std::time::Duration::from_secs(2);
    if !fsutil::lock_within(&lock, budget).map_err(|e| Error::io(&lock_path, e))? {
        return Err(Error::Locked {
            path: path.clone(),
            waited_ms: budget.as_millis(),
        });
    }
    let mut root: Value = match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| Error::Invalid {
            path: path.clone(),
            problem: format!("not valid JSON ({e}); fix it or run `askhook registry check` on it"),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({"questions": []}),
        Err(e) => return Err(Error::io(path, e)),
    };
    let Some(list) = root.get_mut("questions").and_then(Value::as_array_mut) else {
        return Err(Error::Invalid {
            path: path.clone(),
            problem: "no `questions` array at the top level".into(),
        });
    };
    let before = list.len();
    list.retain(|e| e.get("id").and_then(Value::as_str) != Some(args.id.as_str()));
    let replaced = list.len() != before;
    let embedded = embedded_entry(&args.id);
    let mut entry = json!({
        "id": args.id,
        "skill": embedded.map_or("user", |e| e.skill),
        "category": args.category,
        "door_type": door,
        "options": if args.options.is_empty() {
            embedded.map(|e| e.options.iter().map(|o| (*o).to_owned()).collect()).unwrap_or_default()
        } else {
            args.options.clone()
        },
        "signal_key": embedded
            .map_or_else(|| args.id.replace('-', "_"), |e| e.signal_key.to_owned()),
        "description": if args.description.is_empty() {
            embedded.map_or_else(|| args.id.replace('-', " "), |e| e.description.to_owned())
        } else {
            args.description.clone()
        },
    });
    if lowers {
        entry["i_know"] = json!(true);
    }
    entry["added_at"] = json!(crate::sys::time::format_rfc3339(ctx.now_ms));
    list.push(entry);
    let mut text = render_registry(&root);
    text.push('\n');
    fsutil::atomic_write(path, text.as_bytes()).map_err(|e| Error::io(path, e))?;
    if args.json {
        ui::println(
            &json!({
                "id": args.id,
                "door_type": door,
                "file": path,
                "replaced": replaced,
                "i_know": lowers,
            })
            .to_string(),
        )?;
    } else {
        ui::println(&format!(
            "{} `{}` as {} in {}{}",
            if replaced { "updated" } else { "added" },
            args.id,
            door.as_str(),
            path.display(),
            if lowers {
                " (lowers an embedded one-way door; `askhook doctor` will show it)"
            } else {
                ""
            }
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Pretty JSON with one entry per line, like the embedded file, so diffs stay readable and
/// `registry check` line numbers point at entries.
fn render_registry(root: &Value) -> String {
    let Some(obj) = root.as_object() else {
        return root.to_string();
    };
    let mut out = String::from("{\n");
    let n = obj.len();
    for (k, (key, value)) in obj.iter().enumerate() {
        out.push_str(&format!("  {}: ", Value::String(key.clone())));
        match (key.as_str(), value.as_array()) {
            ("questions", Some(items)) if !items.is_empty() => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str("    ");
                    out.push_str(&item.to_string());
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str("  ]");
            }
            _ => out.push_str(&value.to_string()),
        }
        out.push_str(if k + 1 < n { ",\n" } else { "\n" });
    }
    out.push('}');
    out
}

// ---------------------------------------------------------------------------------------------
// check

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

/// Validate a registry file's text: valid JSON, a `questions` array of objects with every
/// required field, unique kebab-case ids, known categories and door types. Problems carry the
/// 1-based line they are on.
pub fn check(text: &str) -> (usize, Vec<Problem>) {
    let mut problems = Vec::new();
    let err = |line: usize, message: String, id: Option<&str>| Problem {
        line,
        severity: Severity::Error,
        message,
        id: id.map(str::to_owned),
    };
    if let Err(e) = serde_json::from_str::<Value>(text) {
        problems.push(err(e.line().max(1), format!("not valid JSON: {e}"), None));
        return (0, problems);
    }
    let Some(root) = spanned::parse(text) else {
        problems.push(err(1, "could not read the JSON structure".into(), None));
        return (0, problems);
    };
    let spanned::Node::Object(fields) = &root.node else {
        problems.push(err(
            root.line,
            "the top level must be an object with a `questions` array".into(),
            None,
        ));
        return (0, problems);
    };
    let Some((_, questions)) = fields.iter().find(|(k, _)| k == "questions") else {
        problems.push(err(
            root.line,
            "missing the `questions` array at the top level".into(),
            None,
        ));
        return (0, problems);
    };
    let spanned::Node::Array(items) = &questions.node else {
        problems.push(err(
            questions.line,
            "`questions` must be an array".into(),
            None,
        ));
        return (0, problems);
    };
    let mut seen: Vec<(String, usize)> = Vec::new();
    for item in items {
        check_entry(item, &mut seen, &mut problems);
    }
    problems.sort_by_key(|p| p.line);
    (items.len(), problems)
}

fn check_entry(
    item: &spanned::Spanned,
    seen: &mut Vec<(String, usize)>,
    problems: &mut Vec<Problem>,
) {
    use spanned::Node;
    let Node::Object(fields) = &item.node else {
        problems.push(Problem {
            line: item.line,
            severity: Severity::Error,
            message: "each question must be an object".into(),
            id: None,
        });
        return;
    };
    let get = |key: &str| fields.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let id = get("id").and_then(|v| match &v.node {
        Node::String(s) => Some(s.clone()),
        _ => None,
    });
    let mut push = |line: usize, severity: Severity, message: String| {
        problems.push(Problem {
            line,
            severity,
            message,
            id: id.clone(),
        })
    };
    let name = id
        .as_deref()
        .map(|i| format!("`{i}`: "))
        .unwrap_or_default();
    for key in REQUIRED {
        if get(key).is_none() {
            push(
                item.line,
                Severity::Error,
                format!("{name}missing required field `{key}`"),
            );
        }
    }
    let mut keys_seen: Vec<&str> = Vec::new();
    for (key, value) in fields {
        if keys_seen.contains(&key.as_str()) {
            push(
                value.line,
                Severity::Error,
                format!("{name}field `{key}` appears twice"),
            );
        }
        keys_seen.push(key);
        if !REQUIRED.contains(&key.as_str()) && !OPTIONAL.contains(&key.as_str()) {
            push(
                value.line,
                Severity::Warning,
                format!("{name}unknown field `{key}` is ignored"),
            );
        }
    }
    let as_str = |v: &spanned::Spanned| match &v.node {
        Node::String(s) => Some(s.clone()),
        _ => None,
    };
    if let Some(v) = get("id") {
        match as_str(v) {
            None => push(v.line, Severity::Error, "`id` must be a string".into()),
            Some(i) if !is_kebab_id(&i) => push(
                v.line,
                Severity::Error,
                format!("id `{}` is not kebab-case (lowercase letters, digits, single dashes, at most 64)", ui::sanitize(&i, false)),
            ),
            Some(i) => {
                if let Some((_, first)) = seen.iter().find(|(s, _)| *s == i) {
                    push(v.line, Severity::Error, format!("duplicate id `{i}` (first on line {first})"));
                } else {
                    seen.push((i, v.line));
                }
            }
        }
    }
    for key in ["skill", "signal_key", "description"] {
        if let Some(v) = get(key) {
            match as_str(v) {
                None => push(
                    v.line,
                    Severity::Error,
                    format!("{name}`{key}` must be a string"),
                ),
                Some(s) if s.trim().is_empty() => push(
                    v.line,
                    Severity::Error,
                    format!("{name}`{key}` must not be empty"),
                ),
                Some(_) => {}
            }
        }
    }
    if let Some(v) = get("category") {
        match as_str(v) {
            Some(c) if CATEGORIES.contains(&c.as_str()) => {}
            Some(c) => push(
                v.line,
                Severity::Error,
                format!(
                    "{name}unknown category `{}` (known: {})",
                    ui::sanitize(&c, false),
                    CATEGORIES.join(", ")
                ),
            ),
            None => push(
                v.line,
                Severity::Error,
                format!("{name}`category` must be a string"),
            ),
        }
    }
    let mut door = None;
    if let Some(v) = get("door_type") {
        match as_str(v).as_deref().map(|d| (d, registry_door(d))) {
            Some((_, Some(d))) => door = Some(d),
            Some((d, None)) => push(
                v.line,
                Severity::Error,
                format!("{name}unknown door_type `{}` (use one-way or two-way; askhook reads it as one-way)", ui::sanitize(d, false)),
            ),
            None => push(v.line, Severity::Error, format!("{name}`door_type` must be a string")),
        }
    }
    if let Some(v) = get("options") {
        match &v.node {
            Node::Array(items) => {
                for o in items {
                    if !matches!(o.node, Node::String(_)) {
                        push(
                            o.line,
                            Severity::Error,
                            format!("{name}every option must be a string"),
                        );
                    }
                }
            }
            _ => push(
                v.line,
                Severity::Error,
                format!("{name}`options` must be an array of strings"),
            ),
        }
    }
    let i_know = match get("i_know") {
        Some(v) => match v.node {
            Node::Bool(b) => b,
            _ => {
                push(
                    v.line,
                    Severity::Error,
                    format!("{name}`i_know` must be true or false"),
                );
                false
            }
        },
        None => false,
    };
    if let (Some(i), Some(Door::TwoWay)) = (id.as_deref(), door) {
        if embedded_entry(i).is_some_and(|e| e.door == Door::OneWay) {
            let line = get("door_type").map_or(item.line, |v| v.line);
            if i_know {
                push(line, Severity::Warning, format!("`{i}` lowers an embedded one-way door to two-way (i_know); askhook may answer it for you"));
            } else {
                push(line, Severity::Warning, format!("`{i}` is one-way in the embedded registry; this two-way entry is ignored (use `askhook registry add {i} --door two-way --i-know`)"));
            }
        }
    }
}

fn check_command(file: &Path, as_json: bool) -> Result<ExitCode> {
    let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
    let (entries, problems) = check(&text);
    let valid = !problems.iter().any(|p| p.severity == Severity::Error);
    if as_json {
        ui::println(
            &json!({
                "file": file,
                "valid": valid,
                "entries": entries,
                "problems": problems,
            })
            .to_string(),
        )?;
    } else {
        let shown = ui::sanitize(&file.display().to_string(), false);
        let mut out = String::new();
        for p in &problems {
            let sev = match p.severity {
                Severity::Error => "",
                Severity::Warning => "warning: ",
            };
            out.push_str(&format!(
                "{shown}:{}: {sev}{}\n",
                p.line,
                ui::sanitize(&p.message, false)
            ));
        }
        if valid {
            out.push_str(&format!("{shown}: ok, {entries} questions\n"));
        }
        ui::print(&out)?;
    }
    Ok(if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A tiny JSON reader that keeps the line of every value, for `registry check`. It runs only on
/// text `serde_json` already accepted, so it can be simple; strings are unescaped by serde.
mod spanned {
    pub struct Spanned {
        pub line: usize,
        pub node: Node,
    }

    pub enum Node {
        Object(Vec<(String, Spanned)>),
        Array(Vec<Spanned>),
        String(String),
        Bool(bool),
        Other,
    }

    pub fn parse(text: &str) -> Option<Spanned> {
        let mut p = Parser {
            b: text.as_bytes(),
            text,
            at: 0,
            line: 1,
            depth: 0,
        };
        p.value()
    }

    struct Parser<'a> {
        b: &'a [u8],
        text: &'a str,
        at: usize,
        line: usize,
        depth: usize,
    }

    impl Parser<'_> {
        fn ws(&mut self) {
            while let Some(&c) = self.b.get(self.at) {
                match c {
                    b'\n' => self.line += 1,
                    b' ' | b'\t' | b'\r' => {}
                    _ => return,
                }
                self.at += 1;
            }
        }

        fn value(&mut self) -> Option<Spanned> {
            self.ws();
            let line = self.line;
            self.depth += 1;
            if self.depth > 128 {
                return None;
            }
            let node = match *self.b.get(self.at)? {
                b'{' => {
                    self.at += 1;
                    let mut fields = Vec::new();
                    loop {
                        self.ws();
                        match *self.b.get(self.at)? {
                            b'}' => {
                                self.at += 1;
                                break;
                            }
                            b',' => self.at += 1,
                            b'"' => {
                                let key = self.string()?;
                                self.ws();
                                if self.b.get(self.at) != Some(&b':') {
                                    return None;
                                }
                                self.at += 1;
                                let value = self.value()?;
                                fields.push((key, value));
                            }
                            _ => return None,
                        }
                    }
                    Node::Object(fields)
                }
                b'[' => {
                    self.at += 1;
                    let mut items = Vec::new();
                    loop {
                        self.ws();
                        match *self.b.get(self.at)? {
                            b']' => {
                                self.at += 1;
                                break;
                            }
                            b',' => self.at += 1,
                            _ => items.push(self.value()?),
                        }
                    }
                    Node::Array(items)
                }
                b'"' => Node::String(self.string()?),
                b't' if self.b[self.at..].starts_with(b"true") => {
                    self.at += 4;
                    Node::Bool(true)
                }
                b'f' if self.b[self.at..].starts_with(b"false") => {
                    self.at += 5;
                    Node::Bool(false)
                }
                _ => {
                    while let Some(&c) = self.b.get(self.at) {
                        if matches!(c, b',' | b'}' | b']') || c.is_ascii_whitespace() {
                            break;
                        }
                        self.at += 1;
                    }
                    Node::Other
                }
            };
            self.depth -= 1;
            Some(Spanned { line, node })
        }

        fn string(&mut self) -> Option<String> {
            let start = self.at;
            self.at += 1;
            loop {
                match *self.b.get(self.at)? {
                    b'\\' => self.at += 2,
                    b'"' => {
                        self.at += 1;
                        break;
                    }
                    _ => self.at += 1,
                }
            }
            serde_json::from_str(self.text.get(start..self.at)?).ok()
        }
    }
}

#[cfg(test)]
mod tests;
