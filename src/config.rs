//! The config file, `config.toml`: how the hook decides, what it adds, what it never records.
//! Where it is: `--config` / `ASKHOOK_CONFIG`, else `$ASKHOOK_HOME/config.toml`, else the
//! platform config dir (`~/.config/askhook/config.toml`) ([`crate::sys::paths`]).
//!
//! ## Keys (every one optional)
//! | key | type | default | env var (wins over the file) |
//! |---|---|---|---|
//! | `decide_with` | `"deny"` \| `"answer"` | `"deny"` | `ASKHOOK_DECIDE_WITH` |
//! | `context_from_history` | bool | `false` | `ASKHOOK_CONTEXT_FROM_HISTORY` (`1`/`0`, `true`/`false`) |
//! | `deadline_ms` | integer | 2500 | `ASKHOOK_DEADLINE_MS` |
//! | `busy_timeout_ms` | integer | 300 | `ASKHOOK_BUSY_TIMEOUT_MS` |
//! | `redact` | list of regexes | `[]` | — |
//! | `record_filter.cwd` | list of regexes | `[]` | — |
//! | `record_filter.question` | list of regexes | `[]` | — |
//!
//! - `decide_with = "answer"`: an auto-decision is `permissionDecision: "allow"` with
//!   `updatedInput` = the call's `tool_input` plus `answers` (every question → its chosen
//!   label), so Claude Code skips the picker and the model gets the ordinary answer. The default,
//!   `"deny"`, refuses the call with a reason naming the answers.
//! - `context_from_history = true`: when askhook lets the user answer a question that was
//!   answered before (same id or family), it adds the user's last answers and notes as
//!   `additionalContext` (bounded, scrubbed).
//! - `redact`: more secret patterns; a match is stored as `[redacted:custom]`.
//! - `record_filter`: a call whose `cwd` matches a `cwd` pattern, or with a question (text,
//!   header or option) matching a `question` pattern, is never recorded (it is still decided).
//!
//! Patterns use the regex crate's syntax, case-insensitive, as rules do ([`crate::rules`]);
//! written in TOML's single-quoted literal strings, their backslashes stay as they are.
//!
//! ## On the hook's path
//! The hook looks for the file with one `stat` and reads it only when it exists (a regular
//! file of at most 64 KiB). A file that does not parse, has an unknown key or a pattern that
//! does not compile makes the hook do nothing at all — no record, no decision — and say why in
//! the error log on every event, until it is fixed (`askhook config show` says what is wrong):
//! recording with the user's redaction patterns or filters silently dropped would store what
//! they asked never to store.

use std::ffi::OsString;
use std::path::Path;

use serde::Deserialize;

/// The largest config file read.
pub const MAX_BYTES: u64 = 64 * 1024;

/// How the hook renders an auto-decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DecideWith {
    /// `permissionDecision: "deny"` with a reason naming the answers.
    #[default]
    Deny,
    /// `permissionDecision: "allow"` with `updatedInput` carrying every answer.
    Answer,
}

impl DecideWith {
    pub fn as_str(self) -> &'static str {
        match self {
            DecideWith::Deny => "deny",
            DecideWith::Answer => "answer",
        }
    }

    pub fn parse(text: &str) -> Option<DecideWith> {
        match text.trim() {
            "deny" => Some(DecideWith::Deny),
            "answer" => Some(DecideWith::Answer),
            _ => None,
        }
    }
}

/// What the file (then the environment) says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    pub decide_with: DecideWith,
    pub context_from_history: bool,
    pub deadline_ms: Option<u64>,
    pub busy_timeout_ms: Option<u64>,
    pub redact: Vec<String>,
    pub record_filter_cwd: Vec<String>,
    pub record_filter_question: Vec<String>,
}

/// The file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    decide_with: Option<String>,
    context_from_history: Option<bool>,
    deadline_ms: Option<u64>,
    busy_timeout_ms: Option<u64>,
    redact: Option<Vec<String>>,
    record_filter: Option<RecordFilter>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordFilter {
    cwd: Option<Vec<String>>,
    question: Option<Vec<String>>,
}

/// The outcome of looking for the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    /// No file: the defaults.
    Absent,
    Valid(Config),
    /// Why the file cannot be used.
    Invalid(String),
}

impl Loaded {
    /// The config to act on (defaults when absent), or why there is none.
    pub fn config(&self) -> Result<Config, &str> {
        match self {
            Loaded::Absent => Ok(Config::default()),
            Loaded::Valid(c) => Ok(c.clone()),
            Loaded::Invalid(why) => Err(why),
        }
    }
}

/// Look for the file at `path`: one `stat` when it is not there.
pub fn load(path: &Path) -> Loaded {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Loaded::Absent,
        Err(e) => return Loaded::Invalid(format!("{}: {e}", path.display())),
    };
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return Loaded::Invalid(format!(
            "{}: not a regular file of at most {MAX_BYTES} bytes",
            path.display()
        ));
    }
    match std::fs::read_to_string(path) {
        Ok(text) => match parse(&text) {
            Ok(config) => Loaded::Valid(config),
            Err(why) => Loaded::Invalid(format!("{}: {why}", path.display())),
        },
        Err(e) => Loaded::Invalid(format!("{}: {e}", path.display())),
    }
}

/// Parse and check a config file's text: every key known, every pattern compiling.
pub fn parse(text: &str) -> Result<Config, String> {
    let file: File = toml::from_str(text).map_err(|e| e.to_string().trim().to_owned())?;
    let decide_with = match file.decide_with.as_deref() {
        None => DecideWith::default(),
        Some(v) => DecideWith::parse(v)
            .ok_or_else(|| format!("decide_with = {v:?}: expected \"deny\" or \"answer\""))?,
    };
    let filter = file.record_filter.unwrap_or_default();
    let config = Config {
        decide_with,
        context_from_history: file.context_from_history.unwrap_or(false),
        deadline_ms: file.deadline_ms,
        busy_timeout_ms: file.busy_timeout_ms,
        redact: file.redact.unwrap_or_default(),
        record_filter_cwd: filter.cwd.unwrap_or_default(),
        record_filter_question: filter.question.unwrap_or_default(),
    };
    for (key, patterns) in [
        ("redact", &config.redact),
        ("record_filter.cwd", &config.record_filter_cwd),
        ("record_filter.question", &config.record_filter_question),
    ] {
        for p in patterns {
            crate::rules::compile(p)
                .map_err(|e| format!("{key}: {p:?} is not a valid regex: {e}"))?;
        }
    }
    Ok(config)
}

impl Config {
    /// The config with the environment's overrides: `ASKHOOK_DECIDE_WITH`,
    /// `ASKHOOK_CONTEXT_FROM_HISTORY` (the deadline and busy timeout are read with the budget,
    /// [`crate::sys::paths::Budget::resolve`]). Unreadable values keep the file's.
    #[must_use]
    pub fn with_env(mut self, env: &dyn Fn(&str) -> Option<OsString>) -> Config {
        let var = |name: &str| env(name).and_then(|v| v.into_string().ok());
        if let Some(d) = var("ASKHOOK_DECIDE_WITH").and_then(|v| DecideWith::parse(&v)) {
            self.decide_with = d;
        }
        if let Some(on) = var("ASKHOOK_CONTEXT_FROM_HISTORY").and_then(|v| flag(&v)) {
            self.context_from_history = on;
        }
        self
    }
}

fn flag(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// The file `config edit` creates: every key, commented out, with what it does.
pub const TEMPLATE: &str = r#"# askhook configuration: every key is optional, and environment variables win over
# this file (`askhook config --help`, docs/config.md). Check it with `askhook config show`.

# How the hook answers a question you marked never-ask (a two-way door with a recommendation):
#   "deny"   refuse the call and tell the agent the answer (the default; the agent sees an
#            error result that names it)
#   "answer" answer it: Claude Code skips the picker, shows "Answered Claude's questions", and
#            the agent gets the ordinary answer
# decide_with = "deny"

# When askhook lets you answer a question you answered before, tell the agent your last
# answers and notes, so it can recommend what you chose (or skip the question).
# context_from_history = false

# The hook's whole budget, and how long it waits on a busy database (milliseconds).
# deadline_ms = 2500
# busy_timeout_ms = 300

# More secret patterns (regexes, case-insensitive): a match is stored as [redacted:custom].
# Write regexes in single quotes: TOML reads backslashes in double quotes as its own escapes.
# redact = ['ACME-\d{6}']

# What never to record (regexes, case-insensitive): calls made in a matching folder, or with a
# matching question, header or option. They are still decided.
# [record_filter]
# cwd = ['^/home/me/clients/secret']
# question = ['salary|medical']
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_parses_and_defaults_hold() {
        assert_eq!(parse("").unwrap(), Config::default());
        let c = parse(
            r#"decide_with = "answer"
               context_from_history = true
               deadline_ms = 1000
               busy_timeout_ms = 50
               redact = ["ACME-[0-9]{6}"]
               [record_filter]
               cwd = ["^/secret"]
               question = ["salary"]"#,
        )
        .unwrap();
        assert_eq!(c.decide_with, DecideWith::Answer);
        assert!(c.context_from_history);
        assert_eq!((c.deadline_ms, c.busy_timeout_ms), (Some(1000), Some(50)));
        assert_eq!(c.redact, vec!["ACME-[0-9]{6}".to_owned()]);
        assert_eq!(c.record_filter_cwd, vec!["^/secret".to_owned()]);
        assert_eq!(c.record_filter_question, vec!["salary".to_owned()]);
        // The template is valid as it is.
        assert_eq!(parse(TEMPLATE).unwrap(), Config::default());
    }

    #[test]
    fn mistakes_are_errors_that_name_the_key() {
        for (text, needle) in [
            ("decide_with = \"allow\"", "decide_with"),
            ("decide_wiht = \"answer\"", "decide_wiht"),
            ("redact = [\"(\"]", "redact"),
            ("[record_filter]\ncwdd = []", "cwdd"),
            ("context_from_history = \"yes\"", "context_from_history"),
            ("not toml at all", ""),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn the_environment_wins() {
        let env = |name: &str| match name {
            "ASKHOOK_DECIDE_WITH" => Some(OsString::from("answer")),
            "ASKHOOK_CONTEXT_FROM_HISTORY" => Some(OsString::from("0")),
            _ => None,
        };
        let c = Config {
            context_from_history: true,
            ..Config::default()
        }
        .with_env(&env);
        assert_eq!(c.decide_with, DecideWith::Answer);
        assert!(!c.context_from_history);
        let bad = |name: &str| (name == "ASKHOOK_DECIDE_WITH").then(|| OsString::from("maybe"));
        assert_eq!(
            Config::default().with_env(&bad).decide_with,
            DecideWith::Deny
        );
    }

    #[test]
    fn a_missing_file_is_one_stat_and_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(&dir.path().join("config.toml")), Loaded::Absent);
        std::fs::create_dir(dir.path().join("dir.toml")).unwrap();
        assert!(matches!(
            load(&dir.path().join("dir.toml")),
            Loaded::Invalid(_)
        ));
        std::fs::write(dir.path().join("ok.toml"), "decide_with = \"answer\"").unwrap();
        assert!(
            matches!(load(&dir.path().join("ok.toml")), Loaded::Valid(c) if c.decide_with == DecideWith::Answer)
        );
    }
}
