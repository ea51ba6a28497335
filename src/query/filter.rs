//! The shared query filters (`--since`, `--until`, `--project`, `--session`, `--question`,
//! `--outcome`, `--door`, `--grep`, `--limit`) turned into a `store::read::Query`.

use rusqlite::types::Value as SqlValue;

use crate::cli::{DoorFilter, Filters, OutcomeArg};
use crate::error::{Error, Result};
use crate::store::read::Query;
use crate::Context;

fn outcome_name(o: OutcomeArg) -> &'static str {
    match o {
        OutcomeArg::Pending => "pending",
        OutcomeArg::Answered => "answered",
        OutcomeArg::AutoDecided => "auto-decided",
        OutcomeArg::Failed => "failed",
        OutcomeArg::Declined => "declined",
        OutcomeArg::Abandoned => "abandoned",
    }
}

/// The outcome names of `--outcome` values.
pub fn outcome_names(outcomes: &[OutcomeArg]) -> Vec<String> {
    outcomes
        .iter()
        .map(|o| outcome_name(*o).to_owned())
        .collect()
}

fn when(flag: &str, text: &str, now_ms: i64) -> Result<i64> {
    crate::time::parse_when(text, now_ms).ok_or_else(|| {
        Error::Usage(format!(
            "{flag} {text:?}: expected an RFC 3339 time (2026-12-02T13:00:00Z), a date (2026-12-02) or a span (30m, 2h, 7d)"
        ))
    })
}

/// Build the query for `filters`.
pub fn build(filters: &Filters, ctx: &Context) -> Result<Query> {
    let mut q = Query::new(ctx.now_ms);
    if let Some(since) = &filters.since {
        q.and(
            "q.asked_at >= ?",
            [SqlValue::Integer(when("--since", since, ctx.now_ms)?)],
        );
    }
    if let Some(until) = &filters.until {
        q.and(
            "q.asked_at < ?",
            [SqlValue::Integer(when("--until", until, ctx.now_ms)?)],
        );
    }
    if let Some(dir) = &filters.project {
        let dir = if dir.is_absolute() {
            dir.clone()
        } else {
            ctx.cwd.join(dir)
        };
        let root = crate::project::project_root(&dir)
            .to_string_lossy()
            .into_owned();
        q.and("q.project = ?", [SqlValue::Text(root)]);
    }
    if let Some(session) = &filters.session {
        q.and("q.session_id = ?", [SqlValue::Text(session.clone())]);
    }
    if let Some(id) = &filters.question {
        q.and("q.question_id = ?", [SqlValue::Text(id.clone())]);
    }
    if let Some(door) = filters.door {
        let name = match door {
            DoorFilter::OneWay => "one-way",
            DoorFilter::TwoWay => "two-way",
            DoorFilter::Unknown => "unknown",
        };
        q.and("q.door_type = ?", [SqlValue::Text(name.into())]);
    }
    if let Some(text) = &filters.grep {
        let pattern = format!(
            "%{}%",
            text.replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_")
        );
        q.and(
            "q.question LIKE ? ESCAPE '\\' OR coalesce(q.header, '') LIKE ? ESCAPE '\\' OR q.options LIKE ? ESCAPE '\\'",
            [SqlValue::Text(pattern.clone()), SqlValue::Text(pattern.clone()), SqlValue::Text(pattern)],
        );
    }
    let outcomes: Vec<&str> = filters.outcome.iter().map(|o| outcome_name(*o)).collect();
    q.outcome_in(&outcomes);
    q.limit = filters.limit;
    Ok(q)
}
