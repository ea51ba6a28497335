//! The askhook binary: parse the command line and hand it to the library ([`askhook::run`]).
//!
//! `askhook hook` (the hot path Claude Code runs on every question) skips building the clap
//! parser ([`askhook::cli::parse`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match askhook::cli::parse(&args) {
        Ok(cli) => askhook::run(&cli),
        Err(e) => e.exit(),
    }
}
