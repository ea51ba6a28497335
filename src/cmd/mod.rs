//! The subcommands, one file each: parse-free (clap already did that), they read through
//! [`crate::store`] and the core, and do all of askhook's printing and prompting. Each
//! subcommand's arguments implement [`Run`]; [`run`] routes a parsed command line, the hook
//! included, in one place.
//!
//! ## Query commands
//! `log`, `show`, `stats`, `pending`, `watch`, `suggest`, `export`, `forget` take the shared
//! filters ([`filter_of`]: `--since`, `--until`, `--project`, `--session`, `--question`,
//! `--outcome`, `--door`, `--grep`, `--limit`) and `--json`. A missing database reads as empty:
//! no error, and no file is created by a read command ([`open_for_query`]).
//!
//! ## `--json` outputs
//! - `log --json`: a JSON array, oldest first, of the documented row objects
//!   ([`crate::store::row::Public`]); `--format jsonl` one per line; `--format csv` (and
//!   `export --format csv`) the same fields as columns in this order.
//! - `pending --json`: the `log` array, each object with `age_seconds` added.
//! - `show ID --json`: `{"id", "kind": "question" | "family" | "call", "rows": [log objects],
//!   "preferences": [{"key" (the id or `family:<fam-id>` it is set on), "scope": "global" |
//!   "project", "project", "value"}]}`.
//! - `stats --json`, `suggest --json`: see [`stats`] and [`suggest`] (and `docs/query.md`).
//! - `watch --json`: one object per line, `{"event": "asked" | "settled", ...log object}`.
//! - `forget --json`: `{"matched": N, "deleted": N}`.
//! - `import gstack --json`: `{"imported", "skipped", "rejected", "preferences_imported",
//!   "preferences_skipped", "reasons": [{"file", "line", "reason"}]}`.
//! - `pref …`, `registry …`, `status`, `doctor`, `classify`: see their files.
//!
//! The full schemas and the measured speed are in `docs/query.md`.

pub mod classify;
pub mod config;
pub mod demo;
pub mod doctor;
pub mod explain;
pub mod export;
pub mod forget;
pub mod hook;
pub mod import;
pub mod install;
pub mod log;
pub mod pending;
pub mod pref;
pub mod registry;
pub mod rule;
pub mod show;
pub mod stats;
pub mod suggest;
pub mod table;
pub mod watch;

use std::process::ExitCode;
use std::time::Duration;

use askhook_core::classify::Door;
use askhook_core::registry::Registry;

use crate::cli::{Cli, Command, DoorFilter, Filters, OutcomeArg};
use crate::error::{Error, Result};
use crate::store::{Filter, Outcome, Row, Store};
use crate::sys::{project, time, ui};
use crate::Context;

/// A subcommand: its parsed arguments, run against the context.
pub trait Run {
    fn run(&self, ctx: &Context) -> Result<ExitCode>;
}

/// Run a parsed command line: the hook, or any other subcommand with its error reported.
pub fn run(cli: &Cli) -> ExitCode {
    let ctx = || Context::from_env(&cli.paths);
    let result = match &cli.command {
        Command::Hook => return hook::run(&cli.paths),
        Command::Log(args) => args.run(&ctx()),
        Command::Show(args) => args.run(&ctx()),
        Command::Stats(args) => stats::StatsCommand(args).run(&ctx()),
        Command::Pending(args) => pending::Pending(args).run(&ctx()),
        Command::Watch(args) => args.run(&ctx()),
        Command::Suggest(args) => args.run(&ctx()),
        Command::Export(args) => args.run(&ctx()),
        Command::Import(args) => args.run(&ctx()),
        Command::Forget(args) => args.run(&ctx()),
        Command::Demo(args) => args.run(&ctx()),
        Command::Pref(args) => args.run(&ctx()),
        Command::Rule(args) => args.run(&ctx()),
        Command::Config(args) => args.run(&ctx()),
        Command::Install(args) => args.run(&ctx()),
        Command::Uninstall(args) => args.run(&ctx()),
        Command::Status(args) => args.run(&ctx()),
        Command::Rollback(args) => args.run(&ctx()),
        Command::Doctor(args) => args.run(&ctx()),
        Command::Classify(args) => args.run(&ctx()),
        Command::Registry(args) => args.run(&ctx()),
    };
    match result {
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

/// Open the answer log for a query; a missing database reads as empty (`None`), and nothing
/// is created.
pub fn open_for_query(ctx: &Context) -> Result<Option<Store>> {
    if !ctx.paths.db.exists() {
        return Ok(None);
    }
    let store = Store::open(&ctx.paths.db, Duration::from_secs(5))
        .or_else(|_| Store::open_read_only(&ctx.paths.db, Duration::from_secs(5)))
        .map_err(|e| Error::db(&ctx.paths.db, e))?;
    let _ = store.tune_for_reading();
    Ok(Some(store))
}

/// Open (creating if needed) the answer log for a command that writes.
pub fn open_store(ctx: &Context) -> Result<Store> {
    Store::open(&ctx.paths.db, Duration::from_secs(5)).map_err(|e| Error::db(&ctx.paths.db, e))
}

/// The rows matching the filters, oldest first.
pub fn matching_rows(filters: &Filters, ctx: &Context) -> Result<Vec<Row>> {
    let Some(store) = open_for_query(ctx)? else {
        return Ok(Vec::new());
    };
    let filter = filter_of(filters, ctx)?;
    store.rows(&filter).map_err(|e| Error::db(&ctx.paths.db, e))
}

/// The registry with the user's file; an unreadable or invalid file is an error that says how
/// to check it.
pub fn load_registry(ctx: &Context) -> Result<Registry> {
    crate::registry::load(&ctx.paths.user_registry).map_err(|problem| Error::Invalid {
        path: ctx.paths.user_registry.clone(),
        problem,
    })
}

/// The outcome of an `--outcome` value.
pub fn outcome_of(o: OutcomeArg) -> Outcome {
    match o {
        OutcomeArg::Pending => Outcome::Pending,
        OutcomeArg::Answered => Outcome::Answered,
        OutcomeArg::AutoDecided => Outcome::AutoDecided,
        OutcomeArg::Failed => Outcome::Failed,
        OutcomeArg::Declined => Outcome::Declined,
        OutcomeArg::Abandoned => Outcome::Abandoned,
    }
}

fn when(flag: &str, text: &str, now_ms: i64) -> Result<i64> {
    time::parse_when(text, now_ms).ok_or_else(|| {
        Error::Usage(format!(
            "{flag} {text:?}: expected an RFC 3339 time (2026-12-02T13:00:00Z), a date (2026-12-02) or a span (30m, 2h, 7d)"
        ))
    })
}

/// The store filter of the shared query flags.
pub fn filter_of(filters: &Filters, ctx: &Context) -> Result<Filter> {
    let mut f = Filter::at(ctx.now_ms);
    f.since = filters
        .since
        .as_deref()
        .map(|t| when("--since", t, ctx.now_ms))
        .transpose()?;
    f.until = filters
        .until
        .as_deref()
        .map(|t| when("--until", t, ctx.now_ms))
        .transpose()?;
    f.project = filters.project.as_ref().map(|dir| {
        let dir = if dir.is_absolute() {
            dir.clone()
        } else {
            ctx.cwd.join(dir)
        };
        project::project_root(&dir).to_string_lossy().into_owned()
    });
    f.session.clone_from(&filters.session);
    f.question_id.clone_from(&filters.question);
    f.door = filters.door.map(|d| match d {
        DoorFilter::OneWay => Door::OneWay,
        DoorFilter::TwoWay => Door::TwoWay,
        DoorFilter::Unknown => Door::Unknown,
    });
    f.grep.clone_from(&filters.grep);
    f.outcomes = filters.outcome.iter().map(|o| outcome_of(*o)).collect();
    f.limit = filters.limit;
    Ok(f)
}
