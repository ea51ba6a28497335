//! The query CLI over the answer log: `log`, `show`, `stats`, `pending`, `watch`, `suggest`,
//! `export`, `import`, `forget`, `demo`. Every command takes the shared [`Filters`]
//! (`--since`, `--until`, `--project`, `--session`, `--question`, `--outcome`, `--door`,
//! `--grep`, `--limit`) and `--json`. A missing database reads as empty: no error, and no file
//! is created by a read command.
//!
//! ## `log --json` (a contract)
//! A JSON array, oldest first, of objects with these fields (see `store::read::LogRow`):
//! `question_id`, `question`, `header`, `options` (`[{label, description}]`), `multi_select`,
//! `recommended`, `answer`, `selections`, `free_text`, `notes`, `followed_recommendation`,
//! `afk`, `outcome` (`pending` | `answered` | `auto-decided` | `failed` | `declined` |
//! `abandoned`), `door_type`, `door_rule`, `error`, `session_id`, `tool_use_id`,
//! `question_index`, `tool_name`, `project`, `cwd`, `permission_mode`, `agent_id`,
//! `asked_at`, `settled_at` (RFC 3339 UTC). `--format jsonl` prints the same objects one per
//! line; `--format csv` (and `export --format csv`) the same fields as columns in this order.
//!
//! ## Other `--json` outputs
//! - `pending --json`: the `log` array, each object with `age_seconds` added.
//! - `show ID --json`: `{"id", "kind": "question" | "call", "rows": [log objects],
//!   "preferences": [{"scope": "global" | "project", "project", "value"}]}`.
//! - `stats --json`, `suggest --json`: see [`stats`] and [`suggest`] (and `docs/query.md`).
//! - `watch --json`: one object per line, `{"event": "asked" | "settled", ...log object}`.
//! - `forget --json`: `{"matched": N, "deleted": N}`.
//! - `import gstack --json`: `{"imported", "skipped", "rejected", "preferences_imported",
//!   "preferences_skipped", "reasons": [{"file", "line", "reason"}]}`.
//!
//! The full schemas and the measured speed are in `docs/query.md`.

pub mod demo;
pub mod export;
pub mod filter;
pub mod import;
pub mod stats;
pub mod suggest;
pub mod table;
pub mod watch;

use std::io::IsTerminal;
use std::process::ExitCode;

use rusqlite::types::Value as SqlValue;
use serde::Serialize;

use crate::cli::{
    DemoArgs, ExportArgs, ForgetArgs, ImportCommand, LogArgs, LogFormat, QueryArgs, ShowArgs,
    SuggestArgs, WatchArgs,
};
use crate::error::{Error, Result};
use crate::store::read::{LogRow, Query};
use crate::store::Store;
use crate::{ui, Context};

/// Open the answer log for a query; a missing database reads as empty (`None`), and nothing
/// is created.
pub fn open_for_query(ctx: &Context) -> Result<Option<Store>> {
    if !ctx.paths.db.exists() {
        return Ok(None);
    }
    let store = Store::open(&ctx.paths.db, std::time::Duration::from_secs(5))
        .or_else(|_| Store::open_read_only(&ctx.paths.db, std::time::Duration::from_secs(5)))
        .map_err(|e| Error::db(&ctx.paths.db, e))?;
    let _ = store.tune_for_reading();
    Ok(Some(store))
}

/// The rows matching the filters, oldest first.
pub fn matching_rows(filters: &crate::cli::Filters, ctx: &Context) -> Result<Vec<LogRow>> {
    let Some(store) = open_for_query(ctx)? else {
        return Ok(Vec::new());
    };
    let query = filter::build(filters, ctx)?;
    store.rows(&query).map_err(|e| Error::db(&ctx.paths.db, e))
}

pub fn log(args: &LogArgs, ctx: &Context) -> Result<ExitCode> {
    let format = if args.json {
        LogFormat::Json
    } else {
        args.format.unwrap_or(LogFormat::Table)
    };
    match format {
        LogFormat::Json => {
            export::stream(&args.filters, ctx, export::Format::Json, None)?;
        }
        LogFormat::Jsonl => {
            export::stream(&args.filters, ctx, export::Format::Jsonl, None)?;
        }
        LogFormat::Csv => {
            export::stream(&args.filters, ctx, export::Format::Csv, None)?;
        }
        LogFormat::Table => {
            let rows = matching_rows(&args.filters, ctx)?;
            let style = table::Style::for_stdout();
            if args.full {
                ui::print(&table::render_full(&rows, ctx.now_ms, &style))?;
            } else {
                ui::print(&table::render(&rows, ctx.now_ms, &style))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A preference as `show --json` prints it.
#[derive(Debug, Serialize)]
struct ShownPreference {
    scope: &'static str,
    project: Option<String>,
    value: String,
}

#[derive(Debug, Serialize)]
struct Shown {
    id: String,
    kind: &'static str,
    rows: Vec<LogRow>,
    preferences: Vec<ShownPreference>,
}

pub fn show(args: &ShowArgs, ctx: &Context) -> Result<ExitCode> {
    let missing = || {
        Error::Refused(format!(
            "nothing recorded for `{}` (give a question id or a tool_use_id from `askhook log`)",
            args.id
        ))
    };
    let Some(store) = open_for_query(ctx)? else {
        return Err(missing());
    };
    let db = |e| Error::db(&ctx.paths.db, e);
    let mut query = Query::new(ctx.now_ms);
    query.and("q.question_id = ?", [SqlValue::Text(args.id.clone())]);
    let mut kind = "question";
    let mut rows = store.rows(&query).map_err(db)?;
    if rows.is_empty() {
        let mut by_call = Query::new(ctx.now_ms);
        by_call.and("q.tool_use_id = ?", [SqlValue::Text(args.id.clone())]);
        rows = store.rows(&by_call).map_err(db)?;
        kind = "call";
    }
    let mut ids: Vec<&str> = rows.iter().map(|r| r.question_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    let preferences: Vec<ShownPreference> = store
        .all_preferences()
        .map_err(db)?
        .into_iter()
        .filter(|(_, id, _)| ids.contains(&id.as_str()) || *id == args.id)
        .map(|(scope, _, value)| ShownPreference {
            scope: if scope.is_empty() {
                "global"
            } else {
                "project"
            },
            project: (!scope.is_empty()).then_some(scope),
            value,
        })
        .collect();
    if rows.is_empty() && preferences.is_empty() {
        return Err(missing());
    }
    if args.json {
        let shown = Shown {
            id: args.id.clone(),
            kind,
            rows,
            preferences,
        };
        ui::println(&serde_json::to_string_pretty(&shown).unwrap_or_default())?;
        return Ok(ExitCode::SUCCESS);
    }
    let style = table::Style::for_stdout();
    let mut out = String::new();
    match kind {
        "question" => out.push_str(&format!(
            "question {} — asked {} time(s)\n",
            ui::sanitize(&args.id, false),
            rows.len()
        )),
        _ => out.push_str(&format!(
            "call {} — {} question(s)\n",
            ui::sanitize(&args.id, false),
            rows.len()
        )),
    }
    for p in &preferences {
        let scope = p
            .project
            .as_deref()
            .map(|p| format!("project {}", ui::sanitize(p, false)))
            .unwrap_or_else(|| "global".into());
        out.push_str(&format!("preference: {} ({scope})\n", p.value));
    }
    out.push('\n');
    out.push_str(&table::render_full(&rows, ctx.now_ms, &style));
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn stats(args: &QueryArgs, ctx: &Context) -> Result<ExitCode> {
    stats::run(args, ctx)
}

#[derive(Serialize)]
struct PendingRow<'a> {
    #[serde(flatten)]
    row: &'a LogRow,
    age_seconds: i64,
}

pub fn pending(args: &QueryArgs, ctx: &Context) -> Result<ExitCode> {
    let mut filters = args.filters.clone();
    filters.outcome = vec![crate::cli::OutcomeArg::Pending];
    let rows = matching_rows(&filters, ctx)?;
    if args.json {
        let out: Vec<PendingRow<'_>> = rows
            .iter()
            .map(|row| PendingRow {
                row,
                age_seconds: (ctx.now_ms - row.asked_at_ms).max(0) / 1000,
            })
            .collect();
        ui::println(&serde_json::to_string_pretty(&out).unwrap_or_default())?;
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        ui::println("no questions waiting for an answer")?;
        return Ok(ExitCode::SUCCESS);
    }
    let style = table::Style::for_stdout();
    let mut out = String::new();
    for row in &rows {
        out.push_str(&table::render_pending(row, ctx.now_ms, &style));
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

pub fn watch(args: &WatchArgs, ctx: &Context) -> Result<ExitCode> {
    watch::run(args, ctx)
}

pub fn suggest(args: &SuggestArgs, ctx: &Context) -> Result<ExitCode> {
    suggest::run(args, ctx)
}

pub fn export(args: &ExportArgs, ctx: &Context) -> Result<ExitCode> {
    let format = match args.format {
        _ if args.json => export::Format::Json,
        crate::cli::ExportFormat::Jsonl => export::Format::Jsonl,
        crate::cli::ExportFormat::Csv => export::Format::Csv,
        crate::cli::ExportFormat::Json => export::Format::Json,
    };
    export::stream(&args.filters, ctx, format, args.output.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

pub fn import(command: &ImportCommand, ctx: &Context) -> Result<ExitCode> {
    match command {
        ImportCommand::Gstack(args) => import::gstack(args, ctx),
    }
}

#[derive(Serialize)]
struct Forgotten {
    matched: u64,
    deleted: usize,
}

pub fn forget(args: &ForgetArgs, ctx: &Context) -> Result<ExitCode> {
    let Some(mut store) = open_for_query(ctx)? else {
        return report_forgotten(args.json, 0, 0);
    };
    let query = filter::build(&args.filters, ctx)?;
    let db = |e| Error::db(&ctx.paths.db, e);
    let matched = store.count_matching(&query).map_err(db)?;
    if matched == 0 {
        return report_forgotten(args.json, 0, 0);
    }
    if !args.yes {
        let on_terminal = std::io::stdin().is_terminal() && ui::stdout_is_terminal();
        if !on_terminal {
            return Err(Error::NotConfirmed(format!(
                "{matched} row(s) match; nothing was deleted (not on a terminal: add --yes to delete them)"
            )));
        }
        let everything = if query.is_everything() {
            " (every row: no filter given)"
        } else {
            ""
        };
        ui::print(&format!(
            "Delete {matched} recorded question(s){everything} from {}? [y/N] ",
            ctx.paths.db.display()
        ))?;
        let mut line = String::new();
        let _ = std::io::stdin().read_line(&mut line);
        if !matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            return Err(Error::NotConfirmed("nothing was deleted".into()));
        }
    }
    let deleted = store.delete_matching(&query).map_err(db)?;
    report_forgotten(args.json, matched, deleted)
}

fn report_forgotten(json: bool, matched: u64, deleted: usize) -> Result<ExitCode> {
    if json {
        ui::println(&serde_json::to_string(&Forgotten { matched, deleted }).unwrap_or_default())?;
    } else if deleted == 0 {
        ui::println("no matching rows; nothing deleted")?;
    } else {
        ui::println(&format!("deleted {deleted} row(s)"))?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn demo(args: &DemoArgs, ctx: &Context) -> Result<ExitCode> {
    demo::run(args, ctx)
}
