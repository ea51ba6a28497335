//! `askhook pending`: questions asked and not yet settled, with their age.

use std::process::ExitCode;

use serde::Serialize;

use crate::cli::{OutcomeArg, QueryArgs};
use crate::error::Result;
use crate::store::row::Public;
use crate::sys::{json, ui};
use crate::Context;

use super::{matching_rows, table, Run};

/// `pending` (its arguments are the shared query arguments).
pub struct Pending<'a>(pub &'a QueryArgs);

#[derive(Serialize)]
struct PendingRow<'a> {
    #[serde(flatten)]
    row: Public<'a>,
    age_seconds: i64,
}

impl Run for Pending<'_> {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        pending(self.0, ctx)
    }
}

fn pending(args: &QueryArgs, ctx: &Context) -> Result<ExitCode> {
    let mut filters = args.filters.clone();
    filters.outcome = vec![OutcomeArg::Pending];
    let rows = matching_rows(&filters, ctx)?;
    if args.json {
        let out: Vec<PendingRow<'_>> = rows
            .iter()
            .map(|row| PendingRow {
                row: row.public(),
                age_seconds: (ctx.now_ms - row.asked_at).max(0) / 1000,
            })
            .collect();
        ui::println(&json::to_string_pretty(&out))?;
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
