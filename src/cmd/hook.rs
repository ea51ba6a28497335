//! `askhook hook`: the hook Claude Code runs on every event. Paths from the flags and the
//! environment, the budget from the environment, the bytes from [`crate::hook::run`] to
//! stdout. Always exit 0.

use std::io::Write;
use std::process::ExitCode;

use crate::cli::PathFlags;
use crate::sys::paths::{Budget, Paths};

/// Run the hook with paths from the environment and write its output. Always exit 0.
pub fn run(flags: &PathFlags) -> ExitCode {
    let bytes = crate::hook::run(Paths::from_env(flags), Budget::from_env());
    if !bytes.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&bytes).and_then(|()| out.flush());
    }
    ExitCode::SUCCESS
}
