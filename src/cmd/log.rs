//! `askhook log`: the recorded questions, oldest first, as a table fitted to the terminal,
//! full blocks (`--full`), or streamed as JSON, JSON lines or CSV (see [`super::export`]).

use std::process::ExitCode;

use crate::cli::{LogArgs, LogFormat};
use crate::error::{Error, Result};
use crate::sys::ui;
use crate::Context;

use super::export::{self, Format};
use super::{nothing_matched, query, table, Run};

impl Run for LogArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        let args = self;
        let format = if args.json {
            LogFormat::Json
        } else {
            args.format.unwrap_or(LogFormat::Table)
        };
        match format {
            LogFormat::Json => {
                export::stream(&args.filters, ctx, Format::Json, None)?;
            }
            LogFormat::Jsonl => {
                export::stream(&args.filters, ctx, Format::Jsonl, None)?;
            }
            LogFormat::Csv => {
                export::stream(&args.filters, ctx, Format::Csv, None)?;
            }
            LogFormat::Table => {
                let (store, filter) = query(&args.filters, ctx)?;
                let rows = match &store {
                    Some(store) => store
                        .rows(&filter)
                        .map_err(|e| Error::db(&ctx.paths.db, e))?,
                    None => Vec::new(),
                };
                let style = table::Style::for_stdout();
                if rows.is_empty() {
                    ui::println(&nothing_matched(store.as_ref(), ctx)?)?;
                } else if args.full {
                    ui::print(&table::render_full(&rows, ctx.now_ms, &style))?;
                } else {
                    ui::print(&table::render(&rows, ctx.now_ms, &style))?;
                }
            }
        }
        if let Some(hint) = super::health::hint(ctx) {
            ui::eprintln_warning(&hint);
        }
        Ok(ExitCode::SUCCESS)
    }
}
