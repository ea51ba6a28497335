//! Only a person can silence a question. When a command that would make askhook answer for the
//! user (`pref set … never-ask | ask-only-for-one-way`, `suggest --apply`, an import) runs with
//! an agent marker in its environment, it must be confirmed on `/dev/tty`; an agent's commands
//! have no controlling terminal, so there it is refused.
//!
//! What this protects against: an agent (or a prompt-injected file it read) running
//! `askhook pref set` through its shell tool. What it does not: a person who types "y", code
//! that runs with the user's full rights outside an agent (it can edit the database directly),
//! or an agent that scrubs its own environment *and* owns a terminal.

use std::io::{BufRead, BufReader, Write};

use crate::error::{Error, Result};
use crate::policy::Preference;
use crate::store::Store;

/// Environment variables that say "an agent runs this command".
pub const AGENT_MARKERS: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_CHILD_SESSION",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ATTENDED",
    "CLAUDE_PID",
    "CODEX_SANDBOX",
    "GEMINI_CLI",
    "CURSOR_AGENT",
];

/// The first agent marker set (non-empty) in the environment.
pub fn agent_marker(env: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<&'static str> {
    AGENT_MARKERS
        .iter()
        .copied()
        .find(|name| env(name).is_some_and(|v| !v.is_empty()))
}

/// Confirm a silencing change. Returns how it was confirmed (kept in the preference history):
/// `"no agent marker"` or `"tty"`. Changes that only make askhook ask more need no confirmation.
pub fn confirm_silencing(id: &str, value: Preference, store: &Store) -> Result<String> {
    if !value.silences() {
        return Ok("not needed".into());
    }
    let Some(marker) = agent_marker(&|name| std::env::var_os(name)) else {
        return Ok("no agent marker".into());
    };
    let (text, door) = store
        .conn()
        .query_row(
            "SELECT question, door_type FROM questions WHERE question_id = ?1 ORDER BY asked_at DESC LIMIT 1",
            [id],
            |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
        )
        .unwrap_or_else(|_| ("(never recorded)".into(), "unknown".into()));
    let prompt = format!(
        "askhook: {marker} is set, so an agent may be running this command.\n  question id: {id}\n  question:    {}\n  door type:   {door}\nLet askhook answer this question for you ({})? [y/N] ",
        crate::ui::sanitize(&text, false),
        value.as_str()
    );
    if ask_tty(&prompt) {
        Ok("tty".into())
    } else {
        Err(Error::NotConfirmed(format!(
            "not confirmed by a person: `{marker}` is set and no one confirmed on /dev/tty; nothing was written \
             (run this command yourself in a terminal)"
        )))
    }
}

/// Ask a yes/no question on the controlling terminal; `false` when there is none.
fn ask_tty(prompt: &str) -> bool {
    let Ok(tty) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
    else {
        return false;
    };
    let mut writer = match tty.try_clone() {
        Ok(w) => w,
        Err(_) => return false,
    };
    if writer
        .write_all(prompt.as_bytes())
        .and_then(|_| writer.flush())
        .is_err()
    {
        return false;
    }
    let mut line = String::new();
    if BufReader::new(tty).read_line(&mut line).is_err() {
        return false;
    }
    matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    #[test]
    fn markers_are_found() {
        let env = |name: &str| (name == "CLAUDECODE").then(|| OsString::from("1"));
        assert_eq!(agent_marker(&env), Some("CLAUDECODE"));
        let empty = |name: &str| (name == "CLAUDECODE").then(|| OsString::from(""));
        assert_eq!(agent_marker(&empty), None);
        assert_eq!(agent_marker(&|_| None), None);
    }
}
