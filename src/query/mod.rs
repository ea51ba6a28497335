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

use crate::cli::{LogArgs, LogFormat};
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
