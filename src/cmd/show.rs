//! `askhook show ID`: everything recorded about one question id (every time it was asked) or
//! one call (`tool_use_id`), with the preferences that apply to it.

use std::process::ExitCode;

use serde::Serialize;

use crate::cli::ShowArgs;
use crate::error::{Error, Result};
use crate::store::row::Public;
use crate::store::{Filter, Row};
use crate::sys::{json, ui};
use crate::Context;

use super::{open_for_query, table, Run};

#[derive(Debug, Serialize)]
struct ShownPreference {
    scope: &'static str,
    project: Option<String>,
    value: String,
}

#[derive(Debug, Serialize)]
struct Shown<'a> {
    id: String,
    kind: &'static str,
    rows: Vec<Public<'a>>,
    preferences: Vec<ShownPreference>,
}

impl Run for ShowArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        show(self, ctx)
    }
}

fn show(args: &ShowArgs, ctx: &Context) -> Result<ExitCode> {
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
    let by_question = Filter {
        question_id: Some(args.id.clone()),
        ..Filter::at(ctx.now_ms)
    };
    let mut kind = "question";
    let mut rows: Vec<Row> = store.rows(&by_question).map_err(db)?;
    if rows.is_empty() {
        let by_call = Filter {
            tool_use_id: Some(args.id.clone()),
            ..Filter::at(ctx.now_ms)
        };
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
        .filter(|p| ids.contains(&p.question_id.as_str()) || p.question_id == args.id)
        .map(|p| ShownPreference {
            scope: if p.is_global() { "global" } else { "project" },
            project: (!p.is_global()).then_some(p.scope),
            value: p.value,
        })
        .collect();
    if rows.is_empty() && preferences.is_empty() {
        return Err(missing());
    }
    if args.json {
        let shown = Shown {
            id: args.id.clone(),
            kind,
            rows: rows.iter().map(Row::public).collect(),
            preferences,
        };
        ui::println(&json::to_string_pretty(&shown))?;
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
        let scope = p.project.as_deref().map_or_else(
            || "global".into(),
            |p| format!("project {}", ui::sanitize(p, false)),
        );
        out.push_str(&format!("preference: {} ({scope})\n", p.value));
    }
    out.push('\n');
    out.push_str(&table::render_full(&rows, ctx.now_ms, &style));
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
