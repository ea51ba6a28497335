//! The pure heart of the installer: a settings `serde_json::Value` in, the same value with
//! askhook's registrations added, re-pointed or removed out, plus the list of changes made.
//! No file system here: whether a registered binary still exists is asked through a callback.
//!
//! ## Ownership is intrinsic
//! Claude Code strips unknown keys from hook entries when it rewrites settings, so askhook never
//! tags its items. An item is askhook's when it is a `command` item whose program is an
//! `askhook` binary (any path, quoted or not) run with the `hook` subcommand (in `args` for the
//! exec form, or in the command string for the shell form), under one of [`EVENTS`], whatever
//! the matcher's spelling. Every other item, even in the same entry, is never touched.
//!
//! ## What install makes true
//! For each of [`TOOL_EVENTS`]: exactly one askhook item, in an entry whose matcher names
//! `AskUserQuestion` (a new entry with [`MATCHER`] is appended when none holds one). For each of
//! [`LIFECYCLE_EVENTS`]: exactly one askhook item in an entry without a matcher. The item kept is
//! the first one found, re-pointed in place; further copies are removed (a dead binary is
//! "pruned", a live one "collapsed"). Entries, event arrays and the `hooks` object are removed
//! only when askhook's removals leave them empty.

use std::fmt;

use serde_json::{Map, Value};

/// The matcher askhook registers on tool events (unanchored, as gstack and the issue spell it;
/// the hook re-checks `tool_name` itself).
pub const MATCHER: &str = "(AskUserQuestion|mcp__.*__AskUserQuestion)";

/// Tool events: registered with [`MATCHER`].
pub const TOOL_EVENTS: [&str; 3] = ["PreToolUse", "PostToolUse", "PostToolUseFailure"];

/// Lifecycle events: registered without a matcher; the hook settles pending questions there.
pub const LIFECYCLE_EVENTS: [&str; 3] = ["Stop", "UserPromptSubmit", "SessionEnd"];

/// Every event askhook registers, in the order new keys are written.
pub const EVENTS: [&str; 6] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "UserPromptSubmit",
    "SessionEnd",
];

/// Global flags of `askhook` that take a value (so `askhook --home X hook` is still a hook).
const VALUE_FLAGS: [&str; 4] = ["--home", "--db", "--error-log", "--registry"];

/// The item install writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Desired {
    /// Absolute path of the askhook binary.
    pub program: String,
    /// `"command": "'<path>' hook"` instead of exec form.
    pub shell_form: bool,
    /// The `timeout` field, in seconds.
    pub timeout: u64,
}

impl Desired {
    /// The hook item as it is written into settings.
    pub fn item(&self) -> Value {
        let mut item = Map::new();
        item.insert("type".into(), "command".into());
        if self.shell_form {
            item.insert("command".into(), shell_command(&self.program).into());
        } else {
            item.insert("command".into(), self.program.clone().into());
            item.insert("args".into(), Value::Array(vec!["hook".into()]));
        }
        item.insert("timeout".into(), self.timeout.into());
        Value::Object(item)
    }
}

/// `'<path>' hook`, the path single-quoted for `/bin/sh`.
pub fn shell_command(program: &str) -> String {
    format!("'{}' hook", program.replace('\'', r"'\''"))
}

/// An askhook item recognised in a settings file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owned {
    /// The program as written (unquoted).
    pub program: String,
    /// Exec form (`args`) or shell form.
    pub exec_form: bool,
}

/// Whether `item` is askhook's, and if so what it runs.
pub fn owned(item: &Value) -> Option<Owned> {
    let obj = item.as_object()?;
    if obj.get("type").and_then(Value::as_str) != Some("command") {
        return None;
    }
    let command = obj.get("command")?.as_str()?;
    match obj.get("args") {
        Some(Value::Array(args)) => {
            let program = unquote_whole(command.trim());
            let args: Vec<String> = args
                .iter()
                .map(|a| a.as_str().map(str::to_owned))
                .collect::<Option<_>>()?;
            (is_askhook_program(&program) && runs_hook(&args)).then_some(Owned {
                program,
                exec_form: true,
            })
        }
        Some(Value::Null) | None => {
            let words = shell_words(command)?;
            let (program, rest) = words.split_first()?;
            (is_askhook_program(program) && runs_hook(rest)).then(|| Owned {
                program: program.clone(),
                exec_form: false,
            })
        }
        Some(_) => None,
    }
}

/// The program's file name is `askhook` (or `askhook.exe`).
fn is_askhook_program(program: &str) -> bool {
    let base = program.rsplit(['/', '\\']).next().unwrap_or(program);
    base == "askhook" || base.eq_ignore_ascii_case("askhook.exe")
}

/// The first subcommand word is `hook` (global flags and their values skipped).
fn runs_hook(args: &[String]) -> bool {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if VALUE_FLAGS.contains(&arg.as_str()) {
            iter.next();
        } else if !arg.starts_with('-') {
            return arg == "hook";
        }
    }
    false
}

/// A path written with surrounding quotes in exec form ("\"/x/askhook\"") is still that path.
fn unquote_whole(text: &str) -> String {
    for q in ['"', '\''] {
        if text.len() >= 2 && text.starts_with(q) && text.ends_with(q) {
            return text[1..text.len() - 1].to_owned();
        }
    }
    text.to_owned()
}

/// Split a `/bin/sh` command line into words: single quotes, double quotes and backslashes,
/// nothing more (no expansion). `None` when the quoting is unbalanced.
pub fn shell_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => word.push(c),
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// Whether an entry's matcher is one askhook's tool items belong under: it names
/// `AskUserQuestion` (anchored or not, `.*` or `.+`).
fn is_question_matcher(entry: &Map<String, Value>) -> bool {
    entry
        .get("matcher")
        .and_then(Value::as_str)
        .is_some_and(|m| m.contains("AskUserQuestion"))
}

/// Whether an entry has no matcher (or one that matches everything).
fn has_no_matcher(entry: &Map<String, Value>) -> bool {
    match entry.get("matcher") {
        None | Some(Value::Null) => true,
        Some(Value::String(m)) => m.is_empty() || m == "*",
        Some(_) => false,
    }
}

fn suitable(event: &str, entry: &Map<String, Value>) -> bool {
    if TOOL_EVENTS.contains(&event) {
        is_question_matcher(entry)
    } else {
        has_no_matcher(entry)
    }
}

/// One thing the installer did (or found already done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    Added {
        event: String,
    },
    AlreadyInstalled {
        event: String,
    },
    RePointed {
        event: String,
        from: String,
        to: String,
    },
    Updated {
        event: String,
    },
    Pruned {
        event: String,
        program: String,
    },
    Collapsed {
        event: String,
    },
    Removed {
        event: String,
    },
    NotInstalled {
        event: String,
    },
}

impl Change {
    /// Whether this change alters the file.
    pub fn writes(&self) -> bool {
        !matches!(
            self,
            Change::AlreadyInstalled { .. } | Change::NotInstalled { .. }
        )
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Added { event } => write!(f, "{event}: added"),
            Change::AlreadyInstalled { event } => write!(f, "{event}: already installed"),
            Change::RePointed { event, from, to } => {
                write!(f, "{event}: re-pointed {from} → {to}")
            }
            Change::Updated { event } => write!(f, "{event}: updated (timeout or form)"),
            Change::Pruned { event, program } => {
                write!(
                    f,
                    "{event}: pruned dead entry {program} (binary no longer exists)"
                )
            }
            Change::Collapsed { event } => write!(f, "{event}: collapsed a duplicate entry"),
            Change::Removed { event } => write!(f, "{event}: removed"),
            Change::NotInstalled { event } => write!(f, "{event}: not installed"),
        }
    }
}

/// Why a settings value cannot be merged (the file is then left untouched).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

/// The `hooks` object of a settings root, checked: `Ok(None)` when absent.
fn hooks_of(root: &Value) -> Result<Option<&Map<String, Value>>, Invalid> {
    let Some(obj) = root.as_object() else {
        return Err(Invalid(format!(
            "the root is {}, not a JSON object",
            kind(root)
        )));
    };
    match obj.get("hooks") {
        None => Ok(None),
        Some(Value::Object(hooks)) => {
            for event in EVENTS {
                if let Some(v) = hooks.get(event) {
                    if !v.is_array() {
                        return Err(Invalid(format!(
                            "\"hooks.{event}\" is {}, not an array",
                            kind(v)
                        )));
                    }
                }
            }
            Ok(Some(hooks))
        }
        Some(other) => Err(Invalid(format!(
            "\"hooks\" is {}, not a JSON object",
            kind(other)
        ))),
    }
}

/// Check that a settings value can be merged at all.
pub fn validate(root: &Value) -> Result<(), Invalid> {
    hooks_of(root).map(|_| ())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Where askhook's items sit under one event: (entry index, item index, what it runs).
fn find_owned(entries: &[Value]) -> Vec<(usize, usize, Owned)> {
    let mut found = Vec::new();
    for (e, entry) in entries.iter().enumerate() {
        let Some(items) = entry.get("hooks").and_then(Value::as_array) else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            if let Some(o) = owned(item) {
                found.push((e, i, o));
            }
        }
    }
    found
}

/// Remove the given (entry, item) positions; drop entries this empties. Positions must be
/// sorted ascending.
fn remove_items(entries: &mut Vec<Value>, positions: &[(usize, usize)]) {
    let mut emptied = Vec::new();
    for &(e, i) in positions.iter().rev() {
        if let Some(items) = entries[e].get_mut("hooks").and_then(Value::as_array_mut) {
            items.remove(i);
            if items.is_empty() {
                emptied.push(e);
            }
        }
    }
    emptied.sort_unstable();
    emptied.dedup();
    for e in emptied.into_iter().rev() {
        entries.remove(e);
    }
}

/// Rewrite an askhook item to the desired one, keeping any extra keys the user added.
fn repoint(item: &mut Value, desired: &Desired) {
    let fresh = desired.item();
    let Some(obj) = item.as_object_mut() else {
        *item = fresh;
        return;
    };
    if desired.shell_form {
        obj.shift_remove("args");
    }
    for (k, v) in fresh.as_object().into_iter().flatten() {
        obj.insert(k.clone(), v.clone());
    }
}

/// Install: make askhook registered exactly once under every event of [`EVENTS`].
/// `alive(program)` says whether a registered binary still exists.
pub fn install(
    root: &Value,
    desired: &Desired,
    alive: &dyn Fn(&str) -> bool,
) -> Result<(Value, Vec<Change>), Invalid> {
    hooks_of(root)?;
    let mut out = root.clone();
    let obj = out.as_object_mut().expect("checked");
    let hooks_existed = obj.contains_key("hooks");
    let hooks = obj
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .expect("checked");
    let mut changes = Vec::new();
    for event in EVENTS {
        let existed = hooks.contains_key(event);
        let entries = hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .expect("checked");
        install_event(event, entries, desired, alive, &mut changes);
        if !existed && entries.is_empty() {
            hooks.shift_remove(event);
        }
    }
    if !hooks_existed && hooks.is_empty() {
        obj.shift_remove("hooks");
    }
    Ok((out, changes))
}

fn install_event(
    event: &str,
    entries: &mut Vec<Value>,
    desired: &Desired,
    alive: &dyn Fn(&str) -> bool,
    changes: &mut Vec<Change>,
) {
    let found = find_owned(entries);
    let keep = found.iter().position(|(e, _, _)| {
        entries[*e]
            .as_object()
            .is_some_and(|entry| suitable(event, entry))
    });
    let mut remove = Vec::new();
    for (n, (e, i, o)) in found.iter().enumerate() {
        if Some(n) == keep {
            continue;
        }
        remove.push((*e, *i));
        changes.push(if alive(&o.program) {
            Change::Collapsed {
                event: event.into(),
            }
        } else {
            Change::Pruned {
                event: event.into(),
                program: o.program.clone(),
            }
        });
    }
    if let Some(n) = keep {
        let (e, i, o) = &found[n];
        let item = &mut entries[*e]["hooks"][*i];
        if *item == desired.item() {
            changes.push(Change::AlreadyInstalled {
                event: event.into(),
            });
        } else {
            let before = item.clone();
            repoint(item, desired);
            if *item == before {
                changes.push(Change::AlreadyInstalled {
                    event: event.into(),
                });
            } else if o.program != desired.program {
                changes.push(Change::RePointed {
                    event: event.into(),
                    from: o.program.clone(),
                    to: desired.program.clone(),
                });
            } else {
                changes.push(Change::Updated {
                    event: event.into(),
                });
            }
        }
        remove_items(entries, &remove);
    } else {
        remove_items(entries, &remove);
        let mut entry = Map::new();
        if TOOL_EVENTS.contains(&event) {
            entry.insert("matcher".into(), MATCHER.into());
        }
        entry.insert("hooks".into(), Value::Array(vec![desired.item()]));
        entries.push(Value::Object(entry));
        changes.push(Change::Added {
            event: event.into(),
        });
    }
}

/// Uninstall: remove every askhook item under [`EVENTS`]; entries, event arrays and `hooks`
/// go only when that leaves them empty.
pub fn uninstall(root: &Value) -> Result<(Value, Vec<Change>), Invalid> {
    let Some(_) = hooks_of(root)? else {
        let changes = EVENTS
            .iter()
            .map(|e| Change::NotInstalled { event: (*e).into() })
            .collect();
        return Ok((root.clone(), changes));
    };
    let mut out = root.clone();
    let obj = out.as_object_mut().expect("checked");
    let hooks = obj
        .get_mut("hooks")
        .and_then(Value::as_object_mut)
        .expect("checked");
    let mut changes = Vec::new();
    let mut touched = false;
    for event in EVENTS {
        let Some(entries) = hooks.get_mut(event).and_then(Value::as_array_mut) else {
            changes.push(Change::NotInstalled {
                event: event.into(),
            });
            continue;
        };
        let found = find_owned(entries);
        if found.is_empty() {
            changes.push(Change::NotInstalled {
                event: event.into(),
            });
            continue;
        }
        let positions: Vec<_> = found.iter().map(|(e, i, _)| (*e, *i)).collect();
        remove_items(entries, &positions);
        touched = true;
        changes.push(Change::Removed {
            event: event.into(),
        });
        if entries.is_empty() {
            hooks.shift_remove(event);
        }
    }
    if touched && hooks.is_empty() {
        obj.shift_remove("hooks");
    }
    Ok((out, changes))
}

/// One askhook item found by [`scan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub event: String,
    pub matcher: Option<String>,
    pub program: String,
    pub exec_form: bool,
}

/// Every askhook item under [`EVENTS`], in file order.
pub fn scan(root: &Value) -> Result<Vec<Found>, Invalid> {
    let Some(hooks) = hooks_of(root)? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for event in EVENTS {
        let Some(entries) = hooks.get(event).and_then(Value::as_array) else {
            continue;
        };
        for (e, _, o) in find_owned(entries) {
            out.push(Found {
                event: event.into(),
                matcher: entries[e]
                    .get("matcher")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                program: o.program,
                exec_form: o.exec_form,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn desired(program: &str) -> Desired {
        Desired {
            program: program.into(),
            shell_form: false,
            timeout: 5,
        }
    }

    fn all_alive(_: &str) -> bool {
        true
    }

    fn foreign(cmd: &str) -> Value {
        json!({"type": "command", "command": cmd})
    }

    const OWNED_CASES: &[(&str, &str, bool)] = &[
        (
            "exec form",
            r#"{"type":"command","command":"/x/askhook","args":["hook"]}"#,
            true,
        ),
        (
            "exec form quoted path",
            r#"{"type":"command","command":"\"/x y/askhook\"","args":["hook"]}"#,
            true,
        ),
        (
            "exec form with global flag",
            r#"{"type":"command","command":"/x/askhook","args":["--home","/h","hook"]}"#,
            true,
        ),
        (
            "exec form other subcommand",
            r#"{"type":"command","command":"/x/askhook","args":["log"]}"#,
            false,
        ),
        (
            "flag value named hook",
            r#"{"type":"command","command":"/x/askhook","args":["--home","hook","log"]}"#,
            false,
        ),
        (
            "shell form single-quoted",
            r#"{"type":"command","command":"'/x y/askhook' hook"}"#,
            true,
        ),
        (
            "shell form double-quoted",
            r#"{"type":"command","command":"\"/x/askhook\" hook"}"#,
            true,
        ),
        (
            "shell form bare",
            r#"{"type":"command","command":"askhook hook"}"#,
            true,
        ),
        (
            "shell form no subcommand",
            r#"{"type":"command","command":"askhook"}"#,
            false,
        ),
        (
            "windows exe",
            r#"{"type":"command","command":"C:\\bin\\askhook.exe","args":["hook"]}"#,
            true,
        ),
        (
            "other tool",
            r#"{"type":"command","command":"/x/gstack-hook","args":["hook"]}"#,
            false,
        ),
        (
            "askhook-like name",
            r#"{"type":"command","command":"/x/askhook-wrapper hook"}"#,
            false,
        ),
        (
            "folder named askhook",
            r#"{"type":"command","command":"/askhook/other hook"}"#,
            false,
        ),
        (
            "http item",
            r#"{"type":"http","url":"http://askhook"}"#,
            false,
        ),
        (
            "unbalanced quotes",
            r#"{"type":"command","command":"'/x/askhook hook"}"#,
            false,
        ),
    ];

    #[test]
    fn ownership_cases() {
        for (name, item, expected) in OWNED_CASES {
            let item: Value = serde_json::from_str(item).unwrap();
            assert_eq!(owned(&item).is_some(), *expected, "case {name}");
        }
    }

    #[test]
    fn install_adds_six_registrations_to_an_empty_object() {
        let (out, changes) = install(&json!({}), &desired("/bin/askhook"), &all_alive).unwrap();
        assert_eq!(changes.len(), 6);
        assert!(changes.iter().all(|c| matches!(c, Change::Added { .. })));
        let hooks = out["hooks"].as_object().unwrap();
        assert_eq!(
            hooks.keys().collect::<Vec<_>>(),
            EVENTS.iter().collect::<Vec<_>>()
        );
        assert_eq!(out["hooks"]["PreToolUse"][0]["matcher"], MATCHER);
        assert!(out["hooks"]["Stop"][0].get("matcher").is_none());
        assert_eq!(
            out["hooks"]["PostToolUse"][0]["hooks"][0],
            json!({"type":"command","command":"/bin/askhook","args":["hook"],"timeout":5})
        );
    }

    #[test]
    fn shell_form_quotes_the_path() {
        let d = Desired {
            program: "/it's/askhook".into(),
            shell_form: true,
            timeout: 7,
        };
        let item = d.item();
        assert_eq!(item["command"], r"'/it'\''s/askhook' hook");
        assert!(item.get("args").is_none());
        let o = owned(&item).unwrap();
        assert_eq!(o.program, "/it's/askhook");
    }

    #[test]
    fn foreign_items_in_the_same_entry_survive() {
        let root = json!({"hooks": {"PreToolUse": [{"matcher": "^AskUserQuestion$", "hooks": [
            foreign("/usr/bin/other"),
            {"type":"command","command":"/old/askhook","args":["hook"],"timeout":5},
            foreign("/usr/bin/third"),
        ]}]}});
        let (out, changes) = install(&root, &desired("/new/askhook"), &all_alive).unwrap();
        let items = out["hooks"]["PreToolUse"][0]["hooks"].as_array().unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(items[0], foreign("/usr/bin/other"));
        assert_eq!(items[1]["command"], "/new/askhook");
        assert_eq!(items[2], foreign("/usr/bin/third"));
        assert_eq!(out["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
        assert!(changes.contains(&Change::RePointed {
            event: "PreToolUse".into(),
            from: "/old/askhook".into(),
            to: "/new/askhook".into()
        }));

        let (back, _) = uninstall(&out).unwrap();
        let items = back["hooks"]["PreToolUse"][0]["hooks"].as_array().unwrap();
        assert_eq!(
            items,
            &vec![foreign("/usr/bin/other"), foreign("/usr/bin/third")]
        );
    }

    #[test]
    fn duplicates_collapse_and_dead_ones_are_pruned() {
        let item = |p: &str| json!({"type":"command","command":p,"args":["hook"]});
        let root = json!({"hooks": {"PostToolUse": [
            {"matcher": MATCHER, "hooks": [item("/a/askhook")]},
            {"matcher": MATCHER, "hooks": [item("/gone/askhook")]},
            {"matcher": MATCHER, "hooks": [item("/b/askhook"), foreign("/x/keep")]},
        ]}});
        let alive = |p: &str| p != "/gone/askhook";
        let (out, changes) = install(&root, &desired("/a/askhook"), &alive).unwrap();
        let entries = out["hooks"]["PostToolUse"].as_array().unwrap();
        assert_eq!(entries.len(), 2, "{entries:#?}");
        assert_eq!(entries[0]["hooks"][0]["command"], "/a/askhook");
        assert_eq!(entries[1]["hooks"], json!([foreign("/x/keep")]));
        assert!(changes.contains(&Change::Pruned {
            event: "PostToolUse".into(),
            program: "/gone/askhook".into()
        }));
        assert!(changes.contains(&Change::Collapsed {
            event: "PostToolUse".into()
        }));
    }

    #[test]
    fn an_item_under_a_foreign_matcher_moves_to_its_own_entry() {
        let root = json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type":"command","command":"/a/askhook","args":["hook"]}, foreign("/x/bash-guard")]},
        ]}});
        let (out, _) = install(&root, &desired("/a/askhook"), &all_alive).unwrap();
        let entries = out["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(
            entries[0],
            json!({"matcher":"Bash","hooks":[foreign("/x/bash-guard")]})
        );
        assert_eq!(entries[1]["matcher"], MATCHER);
    }

    const INVALID_CASES: &[(&str, &str)] = &[
        ("root array", "[]"),
        ("root string", "\"x\""),
        ("hooks array", r#"{"hooks": []}"#),
        ("hooks null", r#"{"hooks": null}"#),
        ("event object", r#"{"hooks": {"PreToolUse": {}}}"#),
    ];

    #[test]
    fn invalid_shapes_are_refused() {
        for (name, text) in INVALID_CASES {
            let v: Value = serde_json::from_str(text).unwrap();
            assert!(
                install(&v, &desired("/a/askhook"), &all_alive).is_err(),
                "{name}"
            );
            assert!(uninstall(&v).is_err(), "{name}");
        }
    }

    /// A small deterministic generator of settings values without askhook items, for the
    /// properties below (no proptest dependency: a fixed-seed xorshift is enough).
    struct Gen(u64);

    impl Gen {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[(self.next() % from.len() as u64) as usize]
        }
        fn settings(&mut self, with_askhook: bool) -> Value {
            let mut root = Map::new();
            for key in ["model", "permissions", "env"] {
                if self.next().is_multiple_of(2) {
                    root.insert(key.into(), json!({"k": self.next() % 100}));
                }
            }
            if !self.next().is_multiple_of(4) {
                let mut hooks = Map::new();
                let events = [
                    "PreToolUse",
                    "PostToolUse",
                    "Stop",
                    "SessionEnd",
                    "Notification",
                ];
                for _ in 0..=(self.next() % 3) {
                    let event = self.pick(&events);
                    let mut entries = Vec::new();
                    for _ in 0..=(self.next() % 3) {
                        let matcher = self.pick(&[MATCHER, "Bash", "^AskUserQuestion$", ""]);
                        let mut items = Vec::new();
                        for _ in 0..=(self.next() % 3) {
                            let tool = self.pick(&["/x/gstack", "/y/notify hook", "echo hi"]);
                            items.push(foreign(tool));
                            if with_askhook && self.next().is_multiple_of(3) {
                                let p = self.pick(&["/old/askhook", "/dead/askhook", "askhook"]);
                                items.push(json!({"type":"command","command":p,"args":["hook"]}));
                            }
                        }
                        let mut entry = Map::new();
                        if !matcher.is_empty() {
                            entry.insert("matcher".into(), matcher.into());
                        }
                        entry.insert("hooks".into(), Value::Array(items));
                        entries.push(Value::Object(entry));
                    }
                    hooks.insert(event.into(), Value::Array(entries));
                }
                root.insert("hooks".into(), Value::Object(hooks));
            }
            Value::Object(root)
        }
    }

    #[test]
    fn property_install_is_idempotent() {
        let mut g = Gen(0x9E37_79B9_7F4A_7C15);
        let alive = |p: &str| p != "/dead/askhook";
        for _ in 0..500 {
            let root = g.settings(true);
            let d = desired("/new/askhook");
            let (once, _) = install(&root, &d, &alive).unwrap();
            let (twice, changes) = install(&once, &d, &alive).unwrap();
            assert_eq!(once, twice, "from {root:#}");
            assert!(changes.iter().all(|c| !c.writes()), "{changes:?}");
            let found = scan(&once).unwrap();
            assert_eq!(
                found.len(),
                EVENTS.len(),
                "exactly one item per event: {once:#}"
            );
        }
    }

    #[test]
    fn property_uninstall_undoes_install() {
        let mut g = Gen(0xDEAD_BEEF_CAFE_F00D);
        for _ in 0..500 {
            let root = g.settings(false);
            let (installed, _) = install(&root, &desired("/a/askhook"), &all_alive).unwrap();
            let (back, _) = uninstall(&installed).unwrap();
            assert_eq!(back, root);
            // Key order too, not only equality of maps.
            assert_eq!(back.to_string(), root.to_string());
        }
    }

    #[test]
    fn property_uninstall_removes_every_askhook_item_and_nothing_else() {
        let mut g = Gen(42);
        for _ in 0..300 {
            let root = g.settings(true);
            let (out, _) = uninstall(&root).unwrap();
            assert!(scan(&out).unwrap().is_empty());
            let count = |v: &Value| v.to_string().matches("\"type\":\"command\"").count();
            assert_eq!(count(&out), count(&root) - scan(&root).unwrap().len());
        }
    }
}
