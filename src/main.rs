//! The askhook binary: parse the command line and hand it to the library.
//!
//! `askhook hook` (the hot path Claude Code runs on every question) skips building the clap
//! parser entirely, and a hook invocation whose extra arguments do not parse still runs the
//! hook: a usage error must never become a non-zero exit that blocks the session.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() == 2 && args[1] == "hook" {
        return askhook::run_hook(&askhook::cli::PathFlags::default());
    }
    match askhook::cli::Cli::try_parse_from(&args) {
        Ok(cli) => askhook::run(cli),
        Err(e)
            if args.iter().skip(1).any(|a| a == "hook")
                && !matches!(
                    e.kind(),
                    clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
                ) =>
        {
            askhook::run_hook(&askhook::cli::PathFlags::default())
        }
        Err(e) => e.exit(),
    }
}
