//! The query CLI over the answer log: `log`, `show`, `stats`, `pending`, `watch`, `suggest`,
//! `export`, `import`, `forget`, `demo`. Every command takes the shared [`Filters`] and
//! `--json`.
//!
//! ## `log --json` (a contract)
//! A JSON array, oldest first, of objects with these fields (see `store::read::LogRow`):
//! `question_id`, `question`, `header`, `options` (`[{label, description}]`), `multi_select`,
//! `recommended`, `answer`, `selections`, `free_text`, `notes`, `followed_recommendation`,
//! `afk`, `outcome` (`pending` | `answered` | `auto-decided` | `failed` | `declined` |
//! `abandoned`), `door_type`, `door_rule`, `error`, `session_id`, `tool_use_id`,
//! `question_index`, `tool_name`, `project`, `cwd`, `permission_mode`, `agent_id`,
//! `asked_at`, `settled_at` (RFC 3339 UTC).

pub mod filter;

use std::process::ExitCode;

use crate::cli::{
    DemoArgs, ExportArgs, ForgetArgs, ImportCommand, LogArgs, LogFormat, QueryArgs, ShowArgs,
    SuggestArgs, WatchArgs,
};
use crate::error::{Error, Result};
use crate::store::read::LogRow;
use crate::store::Store;
use crate::{ui, Context};

/// Open the answer log for a query; a missing database reads as empty.
pub fn open_for_query(ctx: &Context) -> Result<Option<Store>> {
    if !ctx.paths.db.exists() {
        return Ok(None);
    }
    Store::open(&ctx.paths.db, std::time::Duration::from_secs(5))
        .map(Some)
        .map_err(|e| Error::db(&ctx.paths.db, e))
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
    let rows = matching_rows(&args.filters, ctx)?;
    let format = if args.json {
        LogFormat::Json
    } else {
        args.format.unwrap_or(LogFormat::Table)
    };
    match format {
        LogFormat::Json => ui::println(&serde_json::to_string_pretty(&rows).unwrap_or_default())?,
        LogFormat::Jsonl => {
            for row in &rows {
                ui::println(&serde_json::to_string(row).unwrap_or_default())?;
            }
        }
        LogFormat::Csv | LogFormat::Table => {
            if rows.is_empty() {
                ui::println("no questions recorded yet")?;
            }
            for row in &rows {
                let answer = row.answer.as_deref().unwrap_or("-");
                let followed = match row.followed_recommendation {
                    Some(true) => "✓",
                    Some(false) => "✗",
                    None => " ",
                };
                ui::println(&format!(
                    "{}  {:<14} {:<18} {:<12} {}  {} {}",
                    row.asked_at,
                    row.outcome,
                    row.question_id,
                    ui::sanitize(row.header.as_deref().unwrap_or(""), false),
                    ui::sanitize(first_line(&row.question), false),
                    ui::sanitize(answer, false),
                    followed
                ))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn not_built(name: &str) -> Result<ExitCode> {
    Err(Error::Refused(format!(
        "`askhook {name}` is not available in this build yet"
    )))
}

pub fn show(_args: &ShowArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("show")
}

pub fn stats(_args: &QueryArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("stats")
}

pub fn pending(_args: &QueryArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("pending")
}

pub fn watch(_args: &WatchArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("watch")
}

pub fn suggest(_args: &SuggestArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("suggest")
}

pub fn export(_args: &ExportArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("export")
}

pub fn import(_command: &ImportCommand, _ctx: &Context) -> Result<ExitCode> {
    not_built("import")
}

pub fn forget(_args: &ForgetArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("forget")
}

pub fn demo(_args: &DemoArgs, _ctx: &Context) -> Result<ExitCode> {
    not_built("demo")
}
