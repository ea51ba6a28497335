//! `askhook forget [filters] --yes`: delete matching rows, then rebuild the file so no copy of
//! their text stays on disk. Without `--yes` it asks on a terminal, and refuses elsewhere.

use std::io::IsTerminal;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::ForgetArgs;
use crate::error::{Error, Result};
use crate::sys::ui;
use crate::Context;

use super::{filter_of, open_for_query, Run};

#[derive(Serialize)]
struct Forgotten {
    matched: u64,
    deleted: usize,
}

impl Run for ForgetArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        forget(self, ctx)
    }
}

fn forget(args: &ForgetArgs, ctx: &Context) -> Result<ExitCode> {
    let Some(mut store) = open_for_query(ctx)? else {
        return report_forgotten(args.json, 0, 0);
    };
    let query = filter_of(&args.filters, ctx)?;
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
            // A "no" is an answer, not a failure.
            if args.json {
                return report_forgotten(true, matched, 0);
            }
            ui::println("nothing deleted")?;
            return Ok(ExitCode::SUCCESS);
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
