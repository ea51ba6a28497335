//! The subcommands, one file each: parse-free (clap already did that), they read through
//! [`crate::store`] and the core, and do all of askhook's printing and prompting. Each
//! subcommand's arguments implement [`Run`]; [`run`] routes a parsed command line, the hook
//! included, in one place.
//!
//! ## Query commands
//! `log`, `show`, `stats`, `pending`, `watch`, `suggest`, `export`, `forget` take the shared
//! filters ([`filter_of`]: `--since`, `--until`, `--project`, `--session`, `--question`,
//! `--outcome`, `--door`, `--grep`, `--limit`) and `--json`. A missing database reads as empty:
//! no error, and no file is created by a read command ([`open_for_query`]), unless spooled
//! events wait to be ingested.
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
//! - `forget --json`: `{"matched": N, "deleted": N, "projects": [{"project", "rows"}]}` (see
//!   [`forget`]).
//! - `import gstack --json`: `{"imported", "skipped", "rejected", "preferences_imported",
//!   "preferences_skipped", "reasons": [{"file", "line", "reason"}]}`.
//! - `pref …`, `registry …`, `status`, `doctor`, `classify`: see their files.
//!
//! The full schemas and the measured speed are in `docs/query.md`.

pub mod classify;
pub mod completions;
pub mod config;
pub mod demo;
pub mod doctor;
pub mod explain;
pub mod export;
pub mod forget;
pub mod health;
pub mod hook;
pub mod import;
pub mod install;
pub mod log;
pub mod man;
pub mod pending;
pub mod pref;
pub mod project;
pub mod purge;
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

use crate::cli::{
    Cli, Command, DemoArgs, DoorFilter, Filters, LogFormat, OutcomeArg, PrefCommand,
    PrefHistoryArgs, PrefListArgs, RegistryCommand, ShowArgs,
};
use crate::error::{Error, Result};
use crate::store::{Filter, Outcome, Row, Store};
use crate::sys::{paths, term, time, ui};
use crate::Context;

/// A subcommand: its parsed arguments, run against the context.
pub trait Run {
    fn run(&self, ctx: &Context) -> Result<ExitCode>;
}

/// Run a parsed command line: the hook, or any other subcommand with its error reported.
/// Output that [`pages`] goes through the pager when stdout is a terminal.
pub fn run(cli: &Cli) -> ExitCode {
    if let Command::Hook = cli.command {
        return hook::run(&cli.paths);
    }
    term::init(cli.output.color);
    let result = match paths::budget_problem(&|name| std::env::var_os(name)) {
        Some(problem) => Err(Error::Usage(problem)),
        None => paged(cli),
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

/// Route `cli`, its output through the pager when it [`pages`] and stdout is a terminal.
fn paged(cli: &Cli) -> Result<ExitCode> {
    let pager = (!cli.output.no_pager && pages(&cli.command))
        .then(term::Pager::start)
        .flatten();
    let result = route(cli);
    if let Some(pager) = pager {
        pager.finish();
    }
    result
}

/// Whether a command's output goes through the pager on a terminal: the long human-readable
/// reports; never JSON, a live follow, or a command that prompts.
fn pages(command: &Command) -> bool {
    match command {
        Command::Log(a) => !a.json && matches!(a.format, None | Some(LogFormat::Table)),
        Command::Show(ShowArgs { json, .. }) | Command::Demo(DemoArgs { json, .. }) => !json,
        Command::Stats(a) | Command::Pending(a) => !a.json,
        Command::Suggest(a) => !a.json && !a.apply,
        Command::Pref(
            PrefCommand::History(PrefHistoryArgs { json, .. })
            | PrefCommand::List(PrefListArgs { json }),
        )
        | Command::Registry(RegistryCommand::List { json }) => !json,
        _ => false,
    }
}

fn route(cli: &Cli) -> Result<ExitCode> {
    let ctx = || Context::from_env(&cli.paths);
    match &cli.command {
        Command::Hook => Ok(hook::run(&cli.paths)),
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
        Command::Completions(args) => args.run(&ctx()),
        Command::Man(args) => args.run(&ctx()),
    }
}

/// Open the answer log for a query; a missing database reads as empty (`None`), and nothing
/// is created (unless a spool waits to be ingested).
pub fn open_for_query(ctx: &Context) -> Result<Option<Store>> {
    // A spool with no database yet (its first events were spooled) is ingested into a new one.
    let spooled = std::fs::metadata(ctx.paths.spool()).is_ok_and(|m| m.len() > 0);
    if !ctx.paths.db.exists() && !spooled {
        return Ok(None);
    }
    // A log askhook cannot write (a read-only file or folder, a writer migrating it) is still
    // read; any other failure is reported as it is (a full disk, a damaged file).
    let store = match Store::open(&ctx.paths.db, Duration::from_secs(5)) {
        Ok(mut store) => {
            settle_doors(ctx, &mut store);
            store
        }
        Err(e) if e.may_read_instead() => {
            Store::open_read_only(&ctx.paths.db, Duration::from_secs(5))
                .map_err(|_| Error::db(&ctx.paths.db, e))?
        }
        Err(e) => return Err(Error::db(&ctx.paths.db, e)),
    };
    let _ = store.tune_for_reading();
    report_spool(ctx, &store);
    Ok(Some(store))
}

/// Open (creating if needed) the answer log for a command that writes.
pub fn open_store(ctx: &Context) -> Result<Store> {
    let mut store = Store::open(&ctx.paths.db, Duration::from_secs(5))
        .map_err(|e| Error::db(&ctx.paths.db, e))?;
    settle_doors(ctx, &mut store);
    report_spool(ctx, &store);
    Ok(store)
}

/// Classify the questions the hook stored unclassified (it classifies only when a preference
/// could decide), with the user's registry as the hook reads it. A busy log keeps them for the
/// next command; until then they read `unknown (unclassified)`.
fn settle_doors(ctx: &Context, store: &mut Store) {
    let registry = crate::registry::load(&ctx.paths.user_registry)
        .unwrap_or_else(|_| askhook_core::registry::Registry::embedded());
    if let Err(e) = store.settle_doors(&registry) {
        crate::sys::errlog::ErrorLog::new(&ctx.paths.error_log)
            .write("settle", &format!("questions not classified yet: {e}"));
    }
}

/// What opening the store found wrong with the spool (damaged records skipped, not ingested):
/// on stderr and in the error log, which `doctor` shows.
fn report_spool(ctx: &Context, store: &Store) {
    if let Some(problem) = &store.spool_problem {
        crate::sys::errlog::ErrorLog::new(&ctx.paths.error_log).write("ingest", problem);
        ui::eprintln_warning(problem);
    }
}

/// The answer log opened for a query (`None` when missing) and the filter of the shared flags,
/// checked whether or not there is a database: a bad value is a usage error even on an empty
/// log.
pub fn query(filters: &Filters, ctx: &Context) -> Result<(Option<Store>, Filter)> {
    let store = open_for_query(ctx)?;
    let filter = filter_of(filters, ctx, store.as_ref())?;
    Ok((store, filter))
}

/// The rows matching the filters, oldest first.
pub fn matching_rows(filters: &Filters, ctx: &Context) -> Result<Vec<Row>> {
    let (store, filter) = query(filters, ctx)?;
    let Some(store) = store else {
        return Ok(Vec::new());
    };
    store.rows(&filter).map_err(|e| Error::db(&ctx.paths.db, e))
}

/// What an empty listing says: that nothing is recorded yet, or (when the log holds rows) that
/// none matched the filters, and how many there are.
pub fn nothing_matched(store: Option<&Store>, ctx: &Context) -> Result<String> {
    let total = match store {
        Some(store) => {
            store
                .counts()
                .map_err(|e| Error::db(&ctx.paths.db, e))?
                .questions
        }
        None => 0,
    };
    Ok(if total == 0 {
        "no questions recorded yet (see `askhook demo`, or `askhook install`)".into()
    } else {
        format!("no questions match these filters ({total} recorded in all)")
    })
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

/// The store filter of the shared query flags; `store` is where `--project` looks up the
/// projects a name can mean ([`project::resolve`]).
pub fn filter_of(filters: &Filters, ctx: &Context, store: Option<&Store>) -> Result<Filter> {
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
    if let (Some(since), Some(until)) = (f.since, f.until) {
        if since >= until {
            return Err(Error::Usage(format!(
                "--since {} is not before --until {}: no row can match (swap them?)",
                time::format_rfc3339(since),
                time::format_rfc3339(until)
            )));
        }
    }
    if filters.limit == Some(0) {
        return Err(Error::Usage(
            "--limit 0 selects no row: give 1 or more, or leave --limit out".into(),
        ));
    }
    f.project = filters
        .project
        .as_deref()
        .map(|value| project::resolve(value, ctx, store))
        .transpose()?;
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

/// A word for a shell command line that askhook prints for the user to run: as is when it is
/// plain, else single-quoted.
pub fn shell_word(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// ` --db FILE` when the database in use is not the one a plain `askhook` in this environment
/// opens (a `--db` or `--home` flag), so a printed follow-up command acts on the same log.
pub fn db_flag(ctx: &Context) -> String {
    let plain = crate::sys::paths::Paths::from_env(&crate::cli::PathFlags::default());
    if plain.db == ctx.paths.db {
        String::new()
    } else {
        let db = ctx.cwd.join(&ctx.paths.db);
        format!(" --db {}", shell_word(&db.to_string_lossy()))
    }
}
