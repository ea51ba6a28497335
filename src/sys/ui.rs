//! Terminal-facing output helpers for the CLI: writing to stdout without panicking on a closed
//! pipe, deciding on colour (only on a terminal, never with `NO_COLOR`), and stripping control
//! and escape sequences from untrusted text before it reaches a terminal.

use std::io::{self, Write};

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

/// Whether stdout is a terminal (as it was before any pager: [`super::term`]).
pub fn stdout_is_terminal() -> bool {
    super::term::stdout_is_terminal()
}

/// Whether to use colour: `--color`, else a terminal without `NO_COLOR` ([`super::term`]).
pub fn colour_enabled() -> bool {
    super::term::colour()
}

/// Whether `c` changes what a terminal shows without showing itself: C0 and C1 controls and
/// DEL; bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E–U+200F,
/// U+202A–U+202E, U+2066–U+2069), which can make `rm -rf /` read as something else; and
/// invisible characters that can hide text (soft hyphen U+00AD, U+034F, U+115F–U+1160,
/// U+17B4–U+17B5, U+180B–U+180F, zero-width U+200B–U+200D, U+2060–U+2064, U+206A–U+206F,
/// U+3164, U+FEFF, U+FFA0, U+FFF9–U+FFFB, U+1D173–U+1D17A, and the tag characters
/// U+E0000–U+E007F), and the line and paragraph separators U+2028–U+2029.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{AD}'
                | '\u{34F}'
                | '\u{61C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// Untrusted text made safe for a terminal: every [`is_hidden`] character (escape sequences,
/// BEL, CR, backspace, the C1 range, bidi overrides, zero-width characters, …) becomes U+FFFD,
/// so a question can neither rewrite the user's screen nor read as something it is not.
/// Newlines and tabs become spaces unless `keep_newlines` (which keeps newlines). A zero-width
/// joiner is kept after an emoji, where it only joins emoji (👨‍👩‍👧).
pub fn sanitize(text: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous = ' ';
    for c in text.chars() {
        let emoji_joiner = c == '\u{200D}'
            && (previous >= '\u{1F000}'
                || ('\u{2600}'..='\u{27BF}').contains(&previous)
                || previous == '\u{FE0F}');
        out.push(match c {
            '\n' if keep_newlines => '\n',
            '\n' | '\t' => ' ',
            _ if emoji_joiner => c,
            c if is_hidden(c) => '\u{FFFD}',
            c => c,
        });
        previous = c;
    }
    out
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

    #[test]
    fn hidden_characters_become_visible() {
        for (name, text, want) in [
            ("csi", "a\u{1b}[31mb", "a\u{FFFD}[31mb"),
            ("c1 csi", "a\u{9b}31mb", "a\u{FFFD}31mb"),
            ("backspace", "rm\u{8}\u{8}ls", "rm\u{FFFD}\u{FFFD}ls"),
            ("carriage return", "safe\revil", "safe\u{FFFD}evil"),
            (
                "right-to-left override",
                "a\u{202E}fdp.exe",
                "a\u{FFFD}fdp.exe",
            ),
            ("isolate", "\u{2067}x\u{2069}", "\u{FFFD}x\u{FFFD}"),
            ("zero-width space", "r\u{200B}m", "r\u{FFFD}m"),
            ("zero-width joiner in a word", "r\u{200D}m", "r\u{FFFD}m"),
            ("byte order mark", "\u{FEFF}x", "\u{FFFD}x"),
            ("soft hyphen", "r\u{AD}m", "r\u{FFFD}m"),
            (
                "tag characters",
                "ok\u{E0041}\u{E0042}",
                "ok\u{FFFD}\u{FFFD}",
            ),
            ("line separator", "a\u{2028}b", "a\u{FFFD}b"),
            (
                "emoji family kept",
                "👨\u{200D}👩\u{200D}👧",
                "👨\u{200D}👩\u{200D}👧",
            ),
            (
                "accents and cjk kept",
                "Supprimer « build » 日本語",
                "Supprimer « build » 日本語",
            ),
        ] {
            assert_eq!(sanitize(text, false), want, "{name}");
        }
    }
}
