//! askhook: a deterministic, fast, safe policy and memory in front of the questions coding
//! agents ask their humans.
//!
//! | module | owns |
//! |---|---|
//! | [`hook`] | the hot path: stdin → record → decide → stdout, never failing the session |
//! | [`question`] | question ids, recommendations, answer extraction (pure) |
//! | [`classify`] | the one-way-door classifier (pure) |
//! | [`registry`] | the embedded and user question registries |
//! | [`policy`] | the auto-decision (pure) |
//! | [`store`] | the SQLite answer log, migrations and spool |
//! | [`prefs`], [`trust`] | standing preferences, and who may set them |
//! | [`scrub`] | redacting secrets from every text before it is stored |
//! | [`query`] | the query CLI over the log |
//! | [`install`] | merging askhook into Claude Code settings files |
//! | [`paths`] | the one place that reads env and HOME |
//! | [`errlog`] | the hook's bounded error log |
//! | [`deadline`] | the hook's hard deadline (a timer that exits 0) |

pub mod cli;
pub mod deadline;
pub mod doctor;
pub mod errlog;
pub mod error;
pub mod fsutil;
pub mod hook;
pub mod install;
pub mod paths;
pub mod prefs;
pub mod project;
pub mod query;
pub mod registry;
pub mod store;
pub mod time;
pub mod trust;
pub mod ui;

use std::path::PathBuf;
use std::process::ExitCode;

use cli::{Cli, Command};
use error::{Error, Result};
use paths::{Budget, Paths};

/// What every CLI command gets: resolved paths, the working directory, the clock.
#[derive(Debug, Clone)]
pub struct Context {
    pub paths: Paths,
    pub cwd: PathBuf,
    pub now_ms: i64,
}

impl Context {
    pub fn from_env(flags: &cli::PathFlags) -> Context {
        Context {
            paths: Paths::from_env(flags),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            now_ms: time::now_ms(),
        }
    }
}

/// Run the hook with paths from the environment and write its output. Always exit 0.
pub fn run_hook(flags: &cli::PathFlags) -> ExitCode {
    use std::io::Write;
    let bytes = hook::run(Paths::from_env(flags), Budget::from_env());
    if !bytes.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(&bytes).and_then(|_| out.flush());
    }
    ExitCode::SUCCESS
}

/// Run a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    if let Command::Hook = cli.command {
        return run_hook(&cli.paths);
    }
    let ctx = Context::from_env(&cli.paths);
    match dispatch(&cli.command, &ctx) {
        Ok(code) => code,
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            ui::eprintln_warning(&format!("error: {e}"));
            ExitCode::from(e.exit_code())
        }
    }
}

fn dispatch(command: &Command, ctx: &Context) -> Result<ExitCode> {
    match command {
        Command::Hook => unreachable!("handled in run"),
        Command::Log(args) => query::log(args, ctx),
        Command::Pref(command) => prefs::run(command, ctx),
        Command::Install(args) => install::install(args, ctx),
        Command::Uninstall(args) => install::uninstall(args, ctx),
        Command::Status(args) => install::status(args, ctx),
        Command::Rollback(args) => install::rollback(args, ctx),
        Command::Show(args) => query::show(args, ctx),
        Command::Stats(args) => query::stats(args, ctx),
        Command::Pending(args) => query::pending(args, ctx),
        Command::Watch(args) => query::watch(args, ctx),
        Command::Suggest(args) => query::suggest(args, ctx),
        Command::Export(args) => query::export(args, ctx),
        Command::Import(command) => query::import(command, ctx),
        Command::Forget(args) => query::forget(args, ctx),
        Command::Demo(args) => query::demo(args, ctx),
        Command::Doctor(args) => doctor::run(args, ctx),
        Command::Classify(args) => registry::classify(args),
        Command::Registry(command) => registry::run(command, ctx),
    }
}
