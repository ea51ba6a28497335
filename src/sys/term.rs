//! The terminal the CLI writes to: its width, whether to colour, and the pager. Never used on
//! the hook path (`cmd::run` returns into the hook before [`init`]).
//!
//! What stdout is gets decided once, by [`init`], before a pager takes stdout over:
//! - **width**: `ioctl(TIOCGWINSZ)` on stdout, else `COLUMNS` (bash sets it without exporting
//!   it, so a pipe usually has none), else [`DEFAULT_WIDTH`]; at least [`MIN_WIDTH`];
//! - **colour**: `--color always` / `never`; `auto` (the default) colours only when stdout is a
//!   terminal and `NO_COLOR` is unset or empty (the flag wins over `NO_COLOR`);
//! - **pager** ([`Pager::start`]): only when stdout is a terminal, like git: `$ASKHOOK_PAGER`,
//!   else `$PAGER`, else `less`, with `LESS=FRX` (quit when the text fits one screen, keep
//!   colour, leave the text on screen) and `LV=-c` when they are unset. An empty value or `cat`
//!   means no pager, and so does a program that is not on `PATH`. The caller decides which
//!   outputs page (never `--json`, never a prompt); quitting the pager early (`q`) turns the
//!   next write into a broken pipe, which `cmd::run` counts as success.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

use crate::cli::ColorChoice;

/// The width when stdout is no terminal and `COLUMNS` is unset or unreadable.
pub const DEFAULT_WIDTH: usize = 100;

/// Narrower terminals are laid out as if this wide (and wrap).
pub const MIN_WIDTH: usize = 40;

/// What stdout was when the command started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stdout {
    is_terminal: bool,
    width: usize,
    colour: bool,
}

static STDOUT: OnceLock<Stdout> = OnceLock::new();

/// Decide width, colour and terminal-ness for this process (the first call wins).
pub fn init(choice: ColorChoice) {
    let _ = STDOUT.set(detect(choice));
}

fn detect(choice: ColorChoice) -> Stdout {
    let is_terminal = io::stdout().is_terminal();
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    Stdout {
        is_terminal,
        width: width_from(
            window_columns(&io::stdout()),
            std::env::var("COLUMNS").ok().as_deref(),
        ),
        colour: colour_for(choice, is_terminal, no_color),
    }
}

fn current() -> Stdout {
    *STDOUT.get_or_init(|| detect(ColorChoice::Auto))
}

/// Whether stdout was a terminal when the command started (before any pager).
pub fn stdout_is_terminal() -> bool {
    current().is_terminal
}

/// The layout width in terminal columns.
pub fn width() -> usize {
    current().width
}

/// Whether to colour.
pub fn colour() -> bool {
    current().colour
}

/// The colour decision: the flag, else a terminal without `NO_COLOR`.
pub fn colour_for(choice: ColorChoice, is_terminal: bool, no_color: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_terminal && !no_color,
    }
}

/// The layout width: the terminal's, else `COLUMNS`, else [`DEFAULT_WIDTH`]; at least
/// [`MIN_WIDTH`].
pub fn width_from(terminal: Option<usize>, columns: Option<&str>) -> usize {
    terminal
        .or_else(|| columns.and_then(|c| c.trim().parse::<usize>().ok()))
        .filter(|w| *w > 0)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// The columns of the terminal `fd` is, or None when it is none.
#[cfg(unix)]
fn window_columns(fd: &impl AsRawFd) -> Option<usize> {
    let mut size = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes one `winsize` into the struct owned here; on anything that is
    // not a terminal it fails with ENOTTY and writes nothing.
    let rc = unsafe { libc::ioctl(fd.as_raw_fd(), libc::TIOCGWINSZ, &raw mut size) };
    (rc == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(unix))]
fn window_columns(_fd: &impl AsRawFd) -> Option<usize> {
    None
}

/// A running pager that holds stdout; [`Pager::finish`] gives stdout back and waits for it.
#[derive(Debug)]
pub struct Pager {
    child: Child,
    /// The original stdout (the terminal), restored by `finish`.
    saved: OwnedFd,
}

impl Pager {
    /// Start the pager and point stdout at it, when stdout is a terminal and a pager is
    /// configured and found; None means print straight to stdout.
    pub fn start() -> Option<Pager> {
        if !stdout_is_terminal() {
            return None;
        }
        let mut command = pager_command(
            std::env::var_os("ASKHOOK_PAGER"),
            std::env::var_os("PAGER"),
            std::env::var_os("PATH").as_deref(),
        )?;
        for (name, value) in [("LESS", "FRX"), ("LV", "-c")] {
            if std::env::var_os(name).is_none() {
                command.env(name, value);
            }
        }
        let _ = io::stdout().flush();
        let saved = io::stdout().as_fd().try_clone_to_owned().ok()?;
        let mut child = command.stdin(Stdio::piped()).spawn().ok()?;
        let pipe = child.stdin.take()?;
        // SAFETY: dup2 onto fd 1 of a pipe fd owned here; `pipe` is closed right after, so the
        // pager sees end of input once fd 1 is pointed back at the terminal.
        if unsafe { libc::dup2(pipe.as_raw_fd(), libc::STDOUT_FILENO) } < 0 {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        drop(pipe);
        Some(Pager { child, saved })
    }

    /// Flush, close the pager's input, and wait until the reader quits it.
    pub fn finish(mut self) {
        let _ = io::stdout().flush();
        // SAFETY: dup2 of an fd owned here back onto fd 1; this closes the last write end of
        // the pager's pipe.
        unsafe {
            libc::dup2(self.saved.as_raw_fd(), libc::STDOUT_FILENO);
        }
        let _ = self.child.wait();
    }
}

/// The pager to run, from `$ASKHOOK_PAGER` (even empty) else `$PAGER` else `less`: a command
/// with shell syntax runs through `sh -c`, a plain one only when its program is found.
fn pager_command(
    askhook_pager: Option<OsString>,
    pager: Option<OsString>,
    path: Option<&std::ffi::OsStr>,
) -> Option<Command> {
    let value = askhook_pager
        .or(pager)
        .unwrap_or_else(|| OsString::from("less"));
    let text = value.to_str()?.trim();
    if text.is_empty() || text == "cat" {
        return None;
    }
    if text.contains(|c: char| "\"'\\$`|&;<>(){}*?~".contains(c)) {
        let mut command = Command::new("sh");
        command.arg("-c").arg(text);
        return Some(command);
    }
    let mut words = text.split_whitespace();
    let program = find_program(words.next()?, path)?;
    let mut command = Command::new(program);
    command.args(words);
    Some(command)
}

/// `name` itself when it holds a `/`, else the first executable file of that name on `path`.
fn find_program(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    if name.contains('/') {
        return is_executable(Path::new(name)).then(|| PathBuf::from(name));
    }
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_prefers_the_terminal_then_columns() {
        for (name, terminal, columns, want) in [
            ("terminal wins", Some(80), Some("200"), 80),
            ("columns without a terminal", None, Some("132"), 132),
            ("neither", None, None, DEFAULT_WIDTH),
            ("garbage columns", None, Some("wide"), DEFAULT_WIDTH),
            ("tiny is raised", Some(10), None, MIN_WIDTH),
        ] {
            assert_eq!(width_from(terminal, columns), want, "{name}");
        }
    }

    #[test]
    fn colour_follows_the_flag_then_the_terminal_and_no_color() {
        use ColorChoice::{Always, Auto, Never};
        for (name, choice, terminal, no_color, want) in [
            ("auto on a terminal", Auto, true, false, true),
            ("auto in a pipe", Auto, false, false, false),
            ("auto with NO_COLOR", Auto, true, true, false),
            ("always in a pipe", Always, false, false, true),
            ("always beats NO_COLOR", Always, true, true, true),
            ("never on a terminal", Never, true, false, false),
        ] {
            assert_eq!(colour_for(choice, terminal, no_color), want, "{name}");
        }
    }

    #[test]
    fn the_pager_is_chosen_like_git() {
        let path = Some(std::ffi::OsStr::new("/usr/bin:/bin"));
        let program = |askhook: Option<&str>, pager: Option<&str>| {
            pager_command(askhook.map(OsString::from), pager.map(OsString::from), path)
                .map(|c| c.get_program().to_string_lossy().into_owned())
        };
        assert_eq!(program(None, Some("")), None, "empty PAGER: none");
        assert_eq!(program(Some(""), Some("less")), None, "ASKHOOK_PAGER wins");
        assert_eq!(program(None, Some("cat")), None);
        assert_eq!(program(None, Some("no-such-pager-here")), None);
        assert_eq!(
            program(None, Some("less -S | tee /dev/null")).as_deref(),
            Some("sh")
        );
        assert_eq!(program(None, Some("/bin/sh")).as_deref(), Some("/bin/sh"));
    }
}
