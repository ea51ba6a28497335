//! Only a person can silence a question. Every command that would make askhook answer for the
//! user — `pref set … never-ask | ask-only-for-one-way`, `suggest --apply`, an import, a
//! silencing `rule add` — writes through [`set_preferences`] (confirm the batch, then write), or
//! calls [`confirm_silencing`] (one change) / [`confirm_silencing_all`] (a batch, one prompt) /
//! [`confirm_changes`] (changes it describes itself, such as a rule's patterns) before it writes
//! anything; these are the one gate. Changes that only make askhook ask more (`always-ask`, clearing)
//! pass without a prompt — except clearing a project preference while a silencing global
//! one exists for the same id: that lets the global one apply in the project, so it is
//! gated like setting it.
//!
//! When an agent marker is present (an agent-set variable such as `CLAUDECODE=1` in this
//! process's environment, **or in the environment any ancestor process started with**, so
//! `env -u CLAUDECODE askhook …` run from an agent's shell is still recognised), the change
//! must be confirmed by typing `y` on `/dev/tty`, after askhook shows the question id, its
//! text as last recorded and its door type. The commands an agent runs have no controlling
//! terminal, so there `/dev/tty` cannot be opened and the change is refused: exit 2, "not
//! confirmed by a person", nothing written. Without a marker (a person's shell, a setup
//! script) the change goes through. How it was confirmed (`tty`, `no agent marker`,
//! `not needed`) is kept with the change in the preference history.
//!
//! There is deliberately no setting to point the prompt elsewhere or to skip it: anything an
//! environment variable can do, an agent can do too.
//!
//! ## What this protects against, and what it does not
//! It stops an agent — or a prompt-injected file, web page or tool output that talks the agent
//! into it — from silencing questions through askhook's own commands: the agent's shell tool
//! has no terminal to confirm on, and scrubbing its environment does not hide the markers its
//! parent processes started with. It does not stop: a person who types `y` without reading;
//! code running with the user's rights that edits `askhook.db` with `sqlite3` directly (the
//! database is the user's file; askhook cannot guard it against the user's own account); an
//! agent that detaches from its ancestry *and* has a terminal (e.g. one that drives `tmux`
//! or `script` to obtain a pty) or that can type into the user's terminal; a non-Linux system,
//! where only the process's own environment is checked; agents that set none of the known
//! markers. Even a confirmed silencing preference never auto-decides a one-way door.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, IsTerminal, Read, Write};

use crate::error::{Error, Result};
use crate::store::Store;
use askhook_core::policy::Preference;

/// Environment variables that say "an agent runs this command".
pub const AGENT_MARKERS: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_CHILD_SESSION",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ATTENDED",
    "CLAUDE_PID",
    "CLAUDE_PROJECT_DIR",
    "CODEX_SANDBOX",
    "CODEX_SANDBOX_NETWORK_DISABLED",
    "GEMINI_CLI",
    "CURSOR_AGENT",
];

/// How a change was let through, as kept in `preference_events.confirmed_by`.
pub const CONFIRMED_ON_TTY: &str = "tty";
pub const NO_AGENT_MARKER: &str = "no agent marker";
pub const NOT_NEEDED: &str = "not needed";

/// How many ancestors to look at; real process trees are far shallower.
const MAX_ANCESTORS: usize = 64;

/// The first agent marker set (non-empty) in an environment.
pub fn agent_marker(env: &dyn Fn(&str) -> Option<OsString>) -> Option<&'static str> {
    AGENT_MARKERS
        .iter()
        .copied()
        .find(|name| env(name).is_some_and(|v| !v.is_empty()))
}

/// The first agent marker in a `/proc/<pid>/environ` blob (`NAME=value\0…`).
pub fn marker_in_environ(environ: &[u8]) -> Option<&'static str> {
    environ.split(|b| *b == 0).find_map(|entry| {
        let eq = entry.iter().position(|b| *b == b'=')?;
        let (name, value) = (&entry[..eq], &entry[eq + 1..]);
        if value.is_empty() {
            return None;
        }
        AGENT_MARKERS.iter().copied().find(|m| m.as_bytes() == name)
    })
}

/// Where an agent marker was found for this process: its own environment, or the environment
/// an ancestor process started with (Linux `/proc`; elsewhere only the own environment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerFound {
    pub name: &'static str,
    /// `None` for this process's environment, else the ancestor's pid.
    pub ancestor: Option<u32>,
}

impl std::fmt::Display for MarkerFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ancestor {
            None => write!(f, "`{}` is set", self.name),
            Some(pid) => write!(
                f,
                "`{}` is set in the environment of parent process {pid}",
                self.name
            ),
        }
    }
}

/// The agent marker that applies to this process, if any.
pub fn marker_for_this_process() -> Option<MarkerFound> {
    if let Some(name) = agent_marker(&|name| std::env::var_os(name)) {
        return Some(MarkerFound {
            name,
            ancestor: None,
        });
    }
    ancestors().into_iter().find_map(|pid| {
        let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
        marker_in_environ(&environ).map(|name| MarkerFound {
            name,
            ancestor: Some(pid),
        })
    })
}

/// This process's ancestors, nearest first, stopping before pid 1.
fn ancestors() -> Vec<u32> {
    let mut out = Vec::new();
    let mut pid = std::process::id();
    while out.len() < MAX_ANCESTORS {
        let Some(parent) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| parent_pid(&stat))
        else {
            break;
        };
        if parent <= 1 || out.contains(&parent) {
            break;
        }
        out.push(parent);
        pid = parent;
    }
    out
}

/// The ppid field of a `/proc/<pid>/stat` line (`pid (comm) state ppid …`; comm may hold
/// spaces and parentheses, so parse after the last `)`).
fn parent_pid(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// One change the gate is asked to let through, with what the person is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub id: String,
    pub value: Preference,
    /// The question as last recorded (`None`: never asked).
    pub question: Option<String>,
    /// The door type as last recorded.
    pub door: Option<String>,
}

impl Change {
    /// The change with its question text and door type looked up in the answer log.
    pub fn look_up(id: &str, value: Preference, store: &Store) -> Change {
        let recorded = store.last_recorded(id).ok().flatten();
        Change {
            id: id.to_owned(),
            value,
            question: recorded.as_ref().map(|r| r.question.clone()),
            door: recorded.map(|r| r.door.as_str().to_owned()),
        }
    }
}

/// Confirm one change. Returns how it was confirmed, for the preference history.
pub fn confirm_silencing(id: &str, value: Preference, store: &Store) -> Result<String> {
    confirm_silencing_all(&[(id, value)], store)
}

/// Confirm a batch of changes (`suggest --apply`, an import) with one prompt listing every
/// silencing change. Returns how they were confirmed; on `Err` nothing may be written.
pub fn confirm_silencing_all(changes: &[(&str, Preference)], store: &Store) -> Result<String> {
    if !changes.iter().any(|(_, v)| v.silences()) {
        return Ok(NOT_NEEDED.into());
    }
    if marker_for_this_process().is_none() {
        return Ok(NO_AGENT_MARKER.into());
    }
    let changes: Vec<Change> = changes
        .iter()
        .filter(|(_, v)| v.silences())
        .map(|(id, v)| Change::look_up(id, *v, store))
        .collect();
    confirm_changes(&changes)
}

/// Confirm changes described by the caller (a rule shows its patterns instead of a recorded
/// question). Returns how they were confirmed; on `Err` nothing may be written.
pub fn confirm_changes(changes: &[Change]) -> Result<String> {
    if !changes.iter().any(|c| c.value.silences()) {
        return Ok(NOT_NEEDED.into());
    }
    let Some(marker) = marker_for_this_process() else {
        return Ok(NO_AGENT_MARKER.into());
    };
    gate(changes, Some(&marker), &mut DevTty)
}

/// One preference change for [`set_preferences`]: `value: None` clears it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrefChange {
    pub id: String,
    /// `""` for global, else the project root (see `prefs::scope_of`).
    pub scope: String,
    pub value: Option<Preference>,
}

/// The way to write preferences from any command (`suggest --apply`, imports): confirm the
/// batch through the gate (one prompt), then write every change with how it was confirmed.
/// Returns that, and each change's old value. On a refusal nothing is written.
pub fn set_preferences(
    store: &mut Store,
    changes: &[PrefChange],
    now_ms: i64,
) -> Result<(String, Vec<Option<String>>)> {
    // What applies at each change's scope afterwards: clearing a project preference lets
    // the global one through, so clearing a project `always-ask` under a global `never-ask`
    // silences and is gated like setting `never-ask`.
    let mut effective = Vec::with_capacity(changes.len());
    for change in changes {
        let after = match change.value {
            Some(v) => Some(v),
            None if !change.scope.is_empty() => store
                .global_preference(&change.id)
                .map_err(|e| Error::db(store.path(), e))?,
            None => None,
        };
        effective.push(after);
    }
    let silencing: Vec<(&str, Preference)> = changes
        .iter()
        .zip(&effective)
        .filter_map(|(c, after)| after.map(|v| (c.id.as_str(), v)))
        .collect();
    let confirmed_by = confirm_silencing_all(&silencing, store)?;
    let mut old = Vec::with_capacity(changes.len());
    for (change, after) in changes.iter().zip(&effective) {
        // A change that only asks more is recorded as needing no confirmation.
        let how = if after.is_some_and(Preference::silences) {
            confirmed_by.as_str()
        } else {
            NOT_NEEDED
        };
        old.push(
            store
                .set_preference(&change.id, &change.scope, change.value, how, now_ms)
                .map_err(|e| Error::db(store.path(), e))?,
        );
    }
    Ok((confirmed_by, old))
}

/// A terminal to ask on.
pub trait Tty {
    /// Show `prompt` and read one line; `None` when there is no terminal or it fails.
    fn ask(&mut self, prompt: &str) -> Option<String>;
}

/// The controlling terminal, `/dev/tty`.
pub struct DevTty;

impl Tty for DevTty {
    fn ask(&mut self, prompt: &str) -> Option<String> {
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok()?;
        if !tty.is_terminal() {
            return None;
        }
        let mut writer = tty.try_clone().ok()?;
        writer.write_all(prompt.as_bytes()).ok()?;
        writer.flush().ok()?;
        let mut line = Vec::new();
        // One line, bounded: a person types `y`.
        BufReader::new(tty)
            .take(256)
            .read_until(b'\n', &mut line)
            .ok()?;
        Some(String::from_utf8_lossy(&line).into_owned())
    }
}

/// The decision, pure but for the terminal: no marker passes; a marker needs a `y` on `tty`.
pub fn gate(changes: &[Change], marker: Option<&MarkerFound>, tty: &mut dyn Tty) -> Result<String> {
    if !changes.iter().any(|c| c.value.silences()) {
        return Ok(NOT_NEEDED.into());
    }
    let Some(marker) = marker else {
        return Ok(NO_AGENT_MARKER.into());
    };
    let prompt = prompt(changes, marker);
    match tty.ask(&prompt).as_deref().map(str::trim) {
        Some(answer) if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") => {
            Ok(CONFIRMED_ON_TTY.into())
        }
        Some(_) => Err(Error::NotConfirmed(format!(
            "not confirmed by a person: {marker} and the change was declined on /dev/tty; nothing was written"
        ))),
        None => Err(Error::NotConfirmed(format!(
            "not confirmed by a person: {marker}, so an agent may be running this command, and /dev/tty \
             could not be opened to ask; nothing was written (run the command yourself in a terminal)"
        ))),
    }
}

/// What the person reads before answering. Every recorded text is untrusted: sanitised and
/// cut short, so a question cannot rewrite the prompt.
pub fn prompt(changes: &[Change], marker: &MarkerFound) -> String {
    let mut text = format!(
        "askhook: {marker}, so an agent may be running this command.\n\
         It asks to let askhook answer these questions for you:\n"
    );
    for change in changes.iter().filter(|c| c.value.silences()) {
        let question = change.question.as_deref().map_or_else(
            || "(never recorded)".into(),
            |q| shorten(&crate::sys::ui::sanitize(q, false), 300),
        );
        let door = change
            .door
            .as_deref()
            .map_or_else(|| "unknown".into(), |d| crate::sys::ui::sanitize(d, false));
        text.push_str(&format!(
            "  question id: {}\n  question:    {question}\n  door type:   {door}\n  preference:  {}\n",
            crate::sys::ui::sanitize(&change.id, false),
            change.value.as_str()
        ));
    }
    text.push_str("Type y to allow, anything else to refuse [y/N] ");
    text
}

fn shorten(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Scripted(Option<&'static str>, Vec<String>);
    impl Tty for Scripted {
        fn ask(&mut self, prompt: &str) -> Option<String> {
            self.1.push(prompt.to_owned());
            self.0.map(str::to_owned)
        }
    }

    fn change(value: Preference) -> Change {
        Change {
            id: "deploy-target".into(),
            value,
            question: Some("Deploy \u{1b}[2Jnow?".into()),
            door: Some("two-way".into()),
        }
    }

    const MARKER: MarkerFound = MarkerFound {
        name: "CLAUDECODE",
        ancestor: None,
    };

    #[test]
    fn markers_are_found() {
        let env = |name: &str| (name == "CLAUDECODE").then(|| OsString::from("1"));
        assert_eq!(agent_marker(&env), Some("CLAUDECODE"));
        let empty = |name: &str| (name == "CLAUDECODE").then(|| OsString::from(""));
        assert_eq!(agent_marker(&empty), None);
        assert_eq!(agent_marker(&|_| None), None);
    }

    #[test]
    fn markers_are_found_in_an_ancestor_environ() {
        let cases: &[(&str, &[u8], Option<&str>)] = &[
            ("set", b"PATH=/bin\0CLAUDECODE=1\0", Some("CLAUDECODE")),
            (
                "session id",
                b"CLAUDE_CODE_SESSION_ID=abc",
                Some("CLAUDE_CODE_SESSION_ID"),
            ),
            ("empty value", b"CLAUDECODE=\0HOME=/h\0", None),
            ("prefix only", b"CLAUDECODEX=1\0", None),
            ("value mentions it", b"NOTE=CLAUDECODE=1\0", None),
            ("empty", b"", None),
        ];
        for (name, environ, want) in cases {
            assert_eq!(marker_in_environ(environ), *want, "{name}");
        }
    }

    #[test]
    fn ppid_is_parsed_after_the_command_name() {
        assert_eq!(parent_pid("42 (bash) S 7 42 42 0"), Some(7));
        assert_eq!(parent_pid("42 (my (odd) name) R 9 1"), Some(9));
        assert_eq!(parent_pid("garbage"), None);
    }

    #[test]
    fn gate_table() {
        use Preference::*;
        // (name, value, marker, tty answer, Ok(confirmed_by) or Err)
        type Case = (
            &'static str,
            Preference,
            bool,
            Option<&'static str>,
            Result<&'static str, ()>,
        );
        let cases: &[Case] = &[
            ("no marker", NeverAsk, false, None, Ok(NO_AGENT_MARKER)),
            (
                "always-ask needs nothing",
                AlwaysAsk,
                true,
                None,
                Ok(NOT_NEEDED),
            ),
            ("no tty", NeverAsk, true, None, Err(())),
            (
                "no tty, one-way-only",
                AskOnlyForOneWay,
                true,
                None,
                Err(()),
            ),
            (
                "person says y",
                NeverAsk,
                true,
                Some("y\n"),
                Ok(CONFIRMED_ON_TTY),
            ),
            (
                "person says YES",
                NeverAsk,
                true,
                Some(" YES \n"),
                Ok(CONFIRMED_ON_TTY),
            ),
            ("person says n", NeverAsk, true, Some("n\n"), Err(())),
            ("empty line", NeverAsk, true, Some("\n"), Err(())),
            ("eof", NeverAsk, true, Some(""), Err(())),
            ("yy is not yes", NeverAsk, true, Some("yy\n"), Err(())),
        ];
        for (name, value, marker, answer, want) in cases {
            let mut tty = Scripted(*answer, Vec::new());
            let got = gate(&[change(*value)], marker.then_some(&MARKER), &mut tty);
            match (got, want) {
                (Ok(by), Ok(w)) => assert_eq!(by, *w, "{name}"),
                (Err(e), Err(())) => {
                    assert_eq!(e.exit_code(), 2, "{name}");
                    assert!(
                        e.to_string().contains("not confirmed by a person"),
                        "{name}: {e}"
                    );
                }
                (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
            }
            let asked = !tty.1.is_empty();
            assert_eq!(
                asked,
                *marker && value.silences(),
                "{name}: asked = {asked}"
            );
        }
    }

    #[test]
    fn asking_more_is_written_without_the_gate() {
        let dir = tempfile::tempdir().unwrap();
        let mut store =
            Store::open(&dir.path().join("a.db"), std::time::Duration::from_secs(1)).unwrap();
        let changes = [
            PrefChange {
                id: "run-tests".into(),
                scope: String::new(),
                value: Some(Preference::AlwaysAsk),
            },
            PrefChange {
                id: "run-tests".into(),
                scope: String::new(),
                value: None,
            },
        ];
        let (how, old) = set_preferences(&mut store, &changes, 1).unwrap();
        assert_eq!(how, NOT_NEEDED);
        assert_eq!(old, vec![None, Some("always-ask".to_owned())]);
        let events: Vec<String> = store
            .preference_history(None)
            .unwrap()
            .into_iter()
            .map(|e| e.confirmed_by)
            .collect();
        assert_eq!(events, vec![NOT_NEEDED, NOT_NEEDED]);
    }

    #[test]
    fn the_prompt_shows_id_text_and_door_without_escapes() {
        let text = prompt(&[change(Preference::NeverAsk)], &MARKER);
        for needle in [
            "deploy-target",
            "Deploy",
            "now?",
            "two-way",
            "never-ask",
            "CLAUDECODE",
        ] {
            assert!(text.contains(needle), "{needle} missing from {text}");
        }
        assert!(!text.contains('\u{1b}'), "{text:?}");
        let long = Change {
            question: Some("x".repeat(10_000)),
            ..change(Preference::NeverAsk)
        };
        assert!(prompt(&[long], &MARKER).len() < 1_000);
    }
}
