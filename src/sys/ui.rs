//! Terminal-facing output helpers for the CLI: writing to stdout without panicking on a closed
//! pipe, deciding on colour (only on a terminal, never with `NO_COLOR`), and stripping control
//! and escape sequences from untrusted text before it reaches a terminal.

use std::io::{self, IsTerminal, Write};

use crate::error::{Error, Result};

/// Write `text` to stdout. A closed pipe (`askhook log | head`) is reported as
/// [`Error::Io`] with kind `BrokenPipe`, which `run` turns into success.
pub fn print(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("stdout", e))
}

/// Write `text` and a newline to stdout.
pub fn println(text: &str) -> Result<()> {
    let mut line = String::with_capacity(text.len() + 1);
    line.push_str(text);
    line.push('\n');
    print(&line)
}

/// Text on stderr as is (never fails): what a command is about to do, before it asks or writes.
pub fn eprint(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// A warning on stderr (never fails).
pub fn eprintln_warning(text: &str) {
    let _ = writeln!(io::stderr().lock(), "askhook: {text}");
}

/// Whether stdout is a terminal.
pub fn stdout_is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Whether to use colour: stdout is a terminal and `NO_COLOR` is unset or empty.
pub fn colour_enabled() -> bool {
    stdout_is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Untrusted text made safe for a terminal: control characters (ESC, BEL, CR, …) and the
/// C1 range are replaced, so a question cannot rewrite the user's screen. Newlines and tabs
/// become spaces unless `keep_newlines`.
pub fn sanitize(text: &str, keep_newlines: bool) -> String {
    text.chars()
        .map(|c| match c {
            '\n' if keep_newlines => '\n',
            '\n' | '\t' => ' ',
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_cannot_reach_the_terminal() {
        let hostile = "ok\u{1b}]0;pwned\u{7}\u{1b}[2J\r\u{9b}31m";
        let clean = sanitize(hostile, false);
        assert!(!clean.chars().any(char::is_control), "{clean:?}");
        assert!(clean.starts_with("ok"));
        assert_eq!(sanitize("a\nb", true), "a\nb");
        assert_eq!(sanitize("a\nb", false), "a b");
    }
}
