//! The askhook binary: parse the command line and hand it to the library ([`askhook::run`]).
//!
//! `askhook hook` (the hot path Claude Code runs on every question) skips building the clap
//! parser ([`askhook::cli::parse`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    match askhook::cli::parse(std::env::args_os().collect()) {
        Ok(cli) => askhook::run(cli),
        Err(e) => e.exit(),
    }
}
