//! `askhook watch`: follow the log live. Prints each question when it is asked and again when
//! it settles (answered, auto-decided, failed, declined), for the rows matching the filters.
//!
//! No busy loop: every `--interval-ms` (default 500) it ingests the spool, where hooks append
//! questions (a `stat` when it is empty), and reads `PRAGMA data_version`, which only changes
//! when another connection commits; only when either brought something does it query, and only for rows newer
//! than the last seen rowid plus the few it is still waiting on. A missing database is waited
//! for, never created. It ends on SIGINT (default handling) or when stdout is closed (the next
//! write fails with a broken pipe, which counts as success).
//!
//! ## `watch --json`
//! One object per line: `{"event": "asked" | "settled", ...}` followed by every `log --json`
//! field of the row as it is at that moment.

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::time::Duration;

use serde::Serialize;

use crate::cli::WatchArgs;
use crate::error::{Error, Result};
use crate::store::row::Public;
use crate::store::{Filter, Outcome, Row};
use crate::sys::{json, ui};
use crate::Context;

#[derive(Serialize)]
struct Event<'a> {
    event: &'static str,
    #[serde(flatten)]
    row: Public<'a>,
}

fn emit(event: &'static str, row: &Row, json: bool) -> Result<()> {
    if json {
        let row = row.public();
        return ui::println(&json::to_string(&Event { event, row }));
    }
    let time = row
        .settled_at
        .filter(|_| event == "settled")
        .unwrap_or(row.asked_at);
    // Local wall-clock time, as in the log table.
    let local = crate::sys::time::format_local(time);
    let clock = local.get(11..19).unwrap_or("");
    let project = row
        .project
        .as_deref()
        .map_or("-", crate::sys::project::short_name);
    let line = if event == "asked" {
        format!(
            "{clock} asked    {}  {}  {}",
            ui::sanitize(project, false),
            ui::sanitize(&row.question_id, false),
            ui::sanitize(row.question.lines().next().unwrap_or(""), false)
        )
    } else {
        let followed = match row.reply.followed_recommendation {
            Some(true) => " ✓",
            Some(false) => " ✗",
            None => "",
        };
        let detail = row
            .reply
            .answer
            .as_deref()
            .or(row.error.as_deref())
            .unwrap_or("-");
        format!(
            "{clock} {:<8} {}  {}  {}{followed}",
            row.outcome.as_str(),
            ui::sanitize(project, false),
            ui::sanitize(&row.question_id, false),
            ui::sanitize(detail, false)
        )
    };
    ui::println(&line)
}

impl super::Run for WatchArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self, ctx)
    }
}

fn run(args: &WatchArgs, ctx: &Context) -> Result<ExitCode> {
    let interval = Duration::from_millis(args.interval_ms);
    let mut filters = args.filters.clone();
    filters.limit = None;
    // `--outcome` applies to each event's outcome (`asked` = pending), not to the query: a
    // question asked now and answered later must still be followed.
    let wanted: Vec<Outcome> = filters
        .outcome
        .iter()
        .map(|o| super::outcome_of(*o))
        .collect();
    filters.outcome.clear();
    let shows = |outcome: Outcome| wanted.is_empty() || wanted.contains(&outcome);
    let (mut store, base) = super::query(&filters, ctx)?;
    // Wait for the database to exist: watching before the first question is normal.
    let mut said = false;
    let store = loop {
        if let Some(store) = store.take() {
            break store;
        }
        if !said {
            said = true;
            ui::eprintln_warning(&format!(
                "waiting for {} to be created (no question recorded yet); Ctrl-C to stop",
                ctx.paths.db.display()
            ));
        }
        std::thread::sleep(interval);
        store = super::open_for_query(ctx)?;
    };
    let db = |e| Error::db(&ctx.paths.db, e);
    let mut last_id = store.max_row_id().map_err(db)?;
    let mut waiting: BTreeSet<i64> = BTreeSet::new();
    let mut pending = base.clone();
    pending.outcomes = vec![Outcome::Pending];
    for row in store.rows(&pending).map_err(db)? {
        waiting.insert(row.row_id);
    }
    let mut version = store.data_version().map_err(db)?;
    let mut store = store;
    loop {
        std::thread::sleep(interval);
        // Hooks append questions to the spool (the end of their turn ingests it): take them in
        // now. A log this process cannot write is left for the next command that can.
        let ingested = store.ingest_spool().is_ok_and(|done| done.applied > 0);
        let now = store.data_version().map_err(db)?;
        if now == version && !ingested {
            continue;
        }
        version = now;
        let now_ms = crate::sys::time::now_ms();
        // Settled since the last look (oldest first).
        if !waiting.is_empty() {
            let q = Filter {
                row_ids: Some(waiting.iter().copied().collect()),
                ..Filter::at(now_ms)
            };
            let rows = store.rows(&q).map_err(db)?;
            let present: BTreeSet<i64> = rows.iter().map(|r| r.row_id).collect();
            waiting.retain(|id| present.contains(id)); // forgotten rows
            for row in rows {
                if row.outcome != Outcome::Pending {
                    waiting.remove(&row.row_id);
                    if shows(row.outcome) {
                        emit("settled", &row, args.json)?;
                    }
                }
            }
        }
        // Newly asked.
        let mut fresh = base.clone();
        fresh.after_row_id = Some(last_id);
        let mut rows = store.rows(&fresh).map_err(db)?;
        rows.sort_by_key(|r| r.row_id);
        for row in rows {
            last_id = last_id.max(row.row_id);
            if shows(Outcome::Pending) {
                emit("asked", &row, args.json)?;
            }
            if row.outcome == Outcome::Pending {
                waiting.insert(row.row_id);
            } else if shows(row.outcome) {
                emit("settled", &row, args.json)?;
            }
        }
        last_id = last_id.max(store.max_row_id().map_err(db)?);
    }
}
