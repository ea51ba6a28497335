//! `askhook show ID`: everything recorded about one question id (every time it was asked), one
//! question family (`family:fam-…`: every wording of it), or one call (`tool_use_id`), with the
//! preferences that apply to it (on its ids and families).

use std::process::ExitCode;

use serde::Serialize;

use crate::cli::ShowArgs;
use crate::error::{Error, Result};
use crate::store::row::Public;
use crate::store::{Filter, Row, Store};
use crate::sys::{json, ui};
use crate::Context;

use super::{open_for_query, table, Run};

#[derive(Debug, Serialize)]
struct ShownPreference {
    /// What it is set on: a question id or `family:<fam-id>`.
    key: String,
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
    let mut kind = if askhook_core::family::family_of_key(&args.id).is_some() {
        "family"
    } else {
        "question"
    };
    let mut rows: Vec<Row> = store.rows(&by_question).map_err(db)?;
    if rows.is_empty() {
        let by_call = Filter {
            tool_use_id: Some(args.id.clone()),
            ..Filter::at(ctx.now_ms)
        };
        rows = store.rows(&by_call).map_err(db)?;
        kind = "call";
    }
    let preferences = preferences_of(&store, &rows, &args.id)?;
    let ids = {
        let mut ids: Vec<&str> = rows.iter().map(|r| r.question_id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
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
    out.push_str(&title(kind, &args.id, rows.len(), ids));
    for p in &preferences {
        let scope = p.project.as_deref().map_or_else(
            || "global".into(),
            |p| format!("project {}", ui::sanitize(p, false)),
        );
        out.push_str(&format!(
            "preference: {} on {} ({scope})\n",
            p.value,
            ui::sanitize(&p.key, false)
        ));
    }
    out.push('\n');
    out.push_str(&table::render_full(&rows, ctx.now_ms, &style));
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The preferences set on the rows' question ids and families, and on `id` itself.
fn preferences_of(store: &Store, rows: &[Row], id: &str) -> Result<Vec<ShownPreference>> {
    let mut keys: Vec<String> = rows.iter().map(|r| r.question_id.clone()).collect();
    keys.extend(rows.iter().filter_map(|r| {
        r.family
            .as_ref()
            .map(|f| format!("{}{f}", askhook_core::family::FAMILY_KEY_PREFIX))
    }));
    keys.push(id.to_owned());
    keys.sort_unstable();
    keys.dedup();
    let preferences: Vec<ShownPreference> = store
        .all_preferences()
        .map_err(|e| Error::db(store.path(), e))?
        .into_iter()
        .filter(|p| keys.contains(&p.question_id))
        .map(|p| ShownPreference {
            key: p.question_id.clone(),
            scope: if p.is_global() { "global" } else { "project" },
            project: (!p.is_global()).then_some(p.scope),
            value: p.value,
        })
        .collect();
    Ok(preferences)
}

/// The first line of the text: what was shown, and how much of it.
fn title(kind: &str, id: &str, rows: usize, ids: usize) -> String {
    let id = ui::sanitize(id, false);
    match kind {
        "question" => format!("question {id} — asked {rows} time(s)\n"),
        "family" => format!("{id} — asked {rows} time(s), under {ids} question id(s)\n"),
        _ => format!("call {id} — {rows} question(s)\n"),
    }
}
