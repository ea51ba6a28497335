//! `askhook log`: the recorded questions, oldest first, as a table fitted to the terminal,
//! full blocks (`--full`), or streamed as JSON, JSON lines or CSV (see [`super::export`]).

use std::process::ExitCode;

use crate::cli::{LogArgs, LogFormat};
use crate::error::Result;
use crate::sys::ui;
use crate::Context;

use super::export::{self, Format};
use super::{matching_rows, table, Run};

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
                let rows = matching_rows(&args.filters, ctx)?;
                let style = table::Style::for_stdout();
                if args.full {
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
