//! `askhook forget [filters] --yes`: delete matching rows, then rebuild the file so no copy of
//! their text stays on disk. Without `--yes` it asks on a terminal, and refuses elsewhere.
//!
//! ## Which rows
//! At least one filter (`--limit N` counts: the N most recent rows), or `--all` for every row;
//! neither, or both, is a usage error (exit 2) and nothing is deleted. Before deleting it says
//! how many rows of which projects go, in the prompt or (with `--yes`) on stdout.
//!
//! ## `forget --json`
//! `{"matched": N, "deleted": N, "projects": [{"project": "/home/u/shop" | null, "rows": N}]}`,
//! `projects` being what matched, most rows first (`null`: rows with no project).

use std::io::IsTerminal;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::ForgetArgs;
use crate::error::{Error, Result};
use crate::sys::{json, ui};
use crate::Context;

use super::{query, Run};

#[derive(Serialize)]
struct ProjectRows {
    project: Option<String>,
    rows: u64,
}

#[derive(Serialize)]
struct Forgotten {
    matched: u64,
    deleted: usize,
    projects: Vec<ProjectRows>,
}

impl Run for ForgetArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        forget(self, ctx)
    }
}

fn forget(args: &ForgetArgs, ctx: &Context) -> Result<ExitCode> {
    let (store, filter) = query(&args.filters, ctx)?;
    match (args.all, filter.is_everything()) {
        (false, true) => {
            return Err(Error::Usage(
                "forget needs a filter to say which rows (--project, --session, --since, …); \
                 to delete every row, use --all"
                    .into(),
            ))
        }
        (true, false) => {
            return Err(Error::Usage(
                "--all deletes every row and takes no filter: leave out the filters, or drop --all"
                    .into(),
            ))
        }
        _ => {}
    }
    let mut report = Forgotten {
        matched: 0,
        deleted: 0,
        projects: Vec::new(),
    };
    let Some(mut store) = store else {
        return print_report(args.json, &report);
    };
    let db = |e| Error::db(&ctx.paths.db, e);
    report.projects = store
        .projects_matching(&filter)
        .map_err(db)?
        .into_iter()
        .map(|(project, rows)| ProjectRows { project, rows })
        .collect();
    report.matched = report.projects.iter().map(|p| p.rows).sum();
    if report.matched == 0 {
        return print_report(args.json, &report);
    }
    let what = format!(
        "{} row(s) from {}: {}",
        report.matched,
        ctx.paths.db.display(),
        describe(&report.projects)
    );
    if args.yes {
        if !args.json {
            ui::println(&format!("deleting {what}"))?;
        }
    } else if !confirm(&what)? {
        // A "no" is an answer, not a failure.
        if args.json {
            return print_report(true, &report);
        }
        ui::println("nothing deleted")?;
        return Ok(ExitCode::SUCCESS);
    }
    report.deleted = store.delete_matching(&filter).map_err(db)?;
    print_report(args.json, &report)
}

/// Ask on the terminal (whether the person said yes), or refuse off one.
fn confirm(what: &str) -> Result<bool> {
    let on_terminal = std::io::stdin().is_terminal() && ui::stdout_is_terminal();
    if !on_terminal {
        return Err(Error::NotConfirmed(format!(
            "{what} match; nothing was deleted (not on a terminal: add --yes to delete them)"
        )));
    }
    ui::print(&format!("Delete {what}? [y/N] "))?;
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    Ok(matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// `shop (/home/u/shop, 4 rows), gstack:blog (1 row)`.
fn describe(projects: &[ProjectRows]) -> String {
    projects
        .iter()
        .map(|p| super::project::describe(p.project.as_deref(), p.rows))
        .collect::<Vec<_>>()
        .join(", ")
}

fn print_report(json: bool, report: &Forgotten) -> Result<ExitCode> {
    if json {
        ui::println(&json::to_string(report))?;
    } else if report.deleted == 0 {
        ui::println("no matching rows; nothing deleted")?;
    } else {
        ui::println(&format!("deleted {} row(s)", report.deleted))?;
    }
    Ok(ExitCode::SUCCESS)
}
