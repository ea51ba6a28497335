//! `askhook export`, and the streaming behind `log --format json|jsonl|csv`: rows go from the
//! database cursor straight into a buffered writer, so memory stays constant whatever the table
//! size.
//!
//! CSV follows RFC 4180 (the `csv` crate): a header line, CRLF line ends, every field holding
//! `,` `"` CR or LF quoted with `"` doubled. The columns are the `log --json` fields in their
//! documented order ([`CSV_COLUMNS`]); `options` and `selections` are JSON text, booleans
//! `true`/`false`, nulls empty.
//!
//! ## What reaches a terminal
//! JSON and JSON lines escape every hidden character (controls, bidi overrides, zero-width
//! characters; see [`crate::sys::json`]) wherever they go, and still parse back to the
//! recorded text. CSV holds the recorded text exactly when written to a file or a pipe (what
//! a spreadsheet or a script reads is the data); printed on a terminal, every field is
//! sanitised like the table ([`ui::sanitize`], newlines kept), so recorded text cannot send
//! escape sequences to the screen.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{ExportArgs, ExportFormat, Filters};
use crate::error::{Error, Result};
use crate::store::read::{Field, RawRow};
use crate::store::row::CSV_COLUMNS;
use crate::store::{self, Filter, Row, Store};
use crate::sys::{fsutil, json, time, ui};
use crate::Context;

use super::{query, Run};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Jsonl,
    Csv,
}

impl Run for ExportArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        let format = match self.format {
            _ if self.json => Format::Json,
            ExportFormat::Jsonl => Format::Jsonl,
            ExportFormat::Csv => Format::Csv,
            ExportFormat::Json => Format::Json,
        };
        stream(&self.filters, ctx, format, self.output.as_deref())?;
        Ok(ExitCode::SUCCESS)
    }
}

/// Why writing rows stopped.
#[derive(Debug)]
pub enum WriteError {
    Io(std::io::Error),
    Db(store::Error),
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

impl From<store::Error> for WriteError {
    fn from(e: store::Error) -> WriteError {
        WriteError::Db(e)
    }
}

impl From<csv::Error> for WriteError {
    fn from(e: csv::Error) -> WriteError {
        WriteError::Io(e.into())
    }
}

/// Columns of [`crate::store::read::SELECT_COLUMNS`] that hold booleans, and times.
const BOOL_COLUMNS: [usize; 3] = [4, 10, 11];
const TIME_COLUMNS: [usize; 2] = [24, 25];

/// One raw row as its CSV record, straight from the statement's columns: the same text as
/// [`Row::csv_fields`] (the stored `options` and `selections` are the compact JSON that
/// serialising them again would give) without building a row.
fn write_raw_record<W: Write>(
    csv: &mut csv::Writer<W>,
    row: &RawRow<'_, '_>,
    terminal: bool,
) -> std::result::Result<(), WriteError> {
    for i in 0..CSV_COLUMNS.len() {
        match row.field(i)? {
            Field::Null => csv.write_field("")?,
            Field::Integer(n) if BOOL_COLUMNS.contains(&i) => {
                csv.write_field(if n == 0 { "false" } else { "true" })?;
            }
            Field::Integer(n) if TIME_COLUMNS.contains(&i) => {
                csv.write_field(time::format_rfc3339(n))?;
            }
            Field::Integer(n) => csv.write_field(n.to_string())?,
            Field::Real(f) => csv.write_field(f.to_string())?,
            Field::Text(t) if terminal => {
                csv.write_field(ui::sanitize(&String::from_utf8_lossy(t), true))?;
            }
            Field::Text(t) => csv.write_field(t)?,
        }
    }
    csv.write_record(None::<&[u8]>)?;
    Ok(())
}

/// Write every row matching `filter` to `out` in `format`; returns the row count. `terminal`:
/// `out` is a terminal, so CSV fields are sanitised.
pub fn write_rows(
    store: Option<&Store>,
    filter: &Filter,
    format: Format,
    out: &mut dyn Write,
    terminal: bool,
) -> std::result::Result<u64, WriteError> {
    let mut count = 0u64;
    if format == Format::Csv {
        let mut csv = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(out);
        csv.write_record(CSV_COLUMNS)?;
        if let Some(store) = store {
            store.for_each_raw(filter, |row| {
                count += 1;
                write_raw_record(&mut csv, row, terminal)
            })?;
        }
        csv.flush()?;
        return Ok(count);
    }
    if format == Format::Json {
        out.write_all(b"[")?;
    }
    if let Some(store) = store {
        let mut line = Vec::with_capacity(1024);
        store.for_each_row(filter, |row: Row| {
            line.clear();
            if format == Format::Json {
                line.extend_from_slice(if count == 0 { b"\n  " } else { b",\n  " });
            }
            json::to_writer(&mut line, &row.public())?;
            if format == Format::Jsonl {
                line.push(b'\n');
            }
            count += 1;
            out.write_all(&line).map_err(WriteError::Io)
        })?;
    }
    if format == Format::Json {
        out.write_all(if count == 0 { b"]\n" } else { b"\n]\n" })?;
    }
    out.flush()?;
    Ok(count)
}

/// `export` / `log --format …`: stream the filtered rows to stdout or `output`.
pub fn stream(
    filters: &Filters,
    ctx: &Context,
    format: Format,
    output: Option<&Path>,
) -> Result<u64> {
    let (store, filter) = query(filters, ctx)?;
    let (mut writer, target): (Box<dyn Write>, PathBuf) = match output {
        Some(path) => {
            // Answers can be private: the export is created 0600, like the database.
            let file = fsutil::private_options(
                std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true),
            )
            .open(path)
            .map_err(|e| Error::io(path, e))?;
            (
                Box::new(BufWriter::with_capacity(1 << 16, file)),
                path.to_path_buf(),
            )
        }
        None => (
            Box::new(BufWriter::with_capacity(1 << 16, std::io::stdout().lock())),
            "stdout".into(),
        ),
    };
    let terminal = output.is_none() && ui::stdout_is_terminal();
    match write_rows(store.as_ref(), &filter, format, &mut writer, terminal) {
        Ok(n) => Ok(n),
        Err(WriteError::Io(e)) => Err(Error::io(target, e)),
        Err(WriteError::Db(e)) => Err(Error::db(&ctx.paths.db, e)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fields_are_quoted_per_rfc_4180() {
        for (name, field, want) in [
            ("plain", "abc", "abc"),
            ("comma", "a,b", "\"a,b\""),
            ("quote", "say \"hi\"", "\"say \"\"hi\"\"\""),
            ("newline", "a\nb", "\"a\nb\""),
            ("carriage return", "a\rb", "\"a\rb\""),
            ("empty", "", ""),
        ] {
            let mut out = Vec::new();
            {
                let mut csv = csv::WriterBuilder::new()
                    .terminator(csv::Terminator::CRLF)
                    .from_writer(&mut out);
                csv.write_record([field, "x"]).unwrap();
            }
            let line = String::from_utf8(out).unwrap();
            assert_eq!(line, format!("{want},x\r\n"), "{name}");
        }
    }
}
