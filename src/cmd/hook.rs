//! `askhook hook`: the hook Claude Code runs on every event. Paths from the flags and the
//! environment, the config file when there is one (one `stat` when there is not), the budget
//! from the environment then the config, the bytes from [`crate::hook::run`] to stdout. Always
//! exit 0.
//!
//! Typed at a terminal (stdin is a terminal, so no payload is coming) it says what it is for
//! and exits at once, instead of waiting out its deadline.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::PathFlags;
use crate::config::{self, Config};
use crate::sys::paths::{self, Budget, Paths};
use crate::sys::ui;

/// What `askhook hook` says when a person runs it at a terminal.
const AT_A_TERMINAL: &str = "`askhook hook` is the Claude Code hook: Claude Code runs it with \
one JSON event on stdin, it is not meant to be typed. `askhook install` registers it, \
`askhook doctor` checks it, `askhook log` shows what was asked. To try it by hand: \
`askhook hook < payload.json`.";

/// Run the hook with paths from the environment and write its output. Always exit 0.
pub fn run(flags: &PathFlags) -> ExitCode {
    if std::io::stdin().is_terminal() {
        ui::eprintln_warning(AT_A_TERMINAL);
        return ExitCode::SUCCESS;
    }
    let paths = Paths::from_env(flags);
    let config = match config::load(&paths.config).config() {
        Ok(c) => Ok(paths::config_with_env(c)),
        Err(why) => Err(why.to_owned()),
    };
    let budget = Budget::from_env_and(config.as_ref().unwrap_or(&Config::default()));
    let bytes = crate::hook::run(paths, budget, config);
    if !bytes.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&bytes).and_then(|()| out.flush());
    }
    ExitCode::SUCCESS
}
