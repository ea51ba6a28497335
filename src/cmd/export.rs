//! `askhook export`, and the output behind `log --format json|jsonl|csv`: rows go from the
//! database cursor into a buffered writer, so memory stays bounded whatever the table size,
//! and the output is whole or absent ([`stream`]): a read that fails halfway leaves no
//! truncated array or file behind.
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
use std::path::Path;
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

/// `export` / `log --format …`: the filtered rows to stdout or `output`, whole or not at all.
///
/// A read can fail halfway (a damaged database): a file is written under a temporary name
/// and renamed into place only once complete, so `output` is never left half-written (nor an
/// existing one truncated); stdout, or an output that is no regular file (`/dev/stdout`), gets
/// the rows only once they are all read ([`fsutil::Held`]: memory, then a nameless private
/// file beside the database or in the temp folder).
pub fn stream(
    filters: &Filters,
    ctx: &Context,
    format: Format,
    output: Option<&Path>,
) -> Result<u64> {
    let (store, filter) = query(filters, ctx)?;
    let fail = |target: &Path, e| match e {
        WriteError::Io(e) => Error::io(target, e),
        WriteError::Db(e) => Error::db(&ctx.paths.db, e),
    };
    let file = output.filter(|path| std::fs::metadata(path).map_or(true, |m| m.is_file()));
    if let Some(path) = file {
        // Write through a symlink to the file it names; answers can be private: 0600.
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut new = fsutil::AtomicFile::create(&path).map_err(|e| Error::io(&path, e))?;
        let n = write_rows(
            store.as_ref(),
            &filter,
            format,
            &mut BufWriter::with_capacity(1 << 16, &mut new),
            false,
        )
        .map_err(|e| fail(&path, e))?;
        new.commit().map_err(|e| Error::io(&path, e))?;
        return Ok(n);
    }
    if output.is_none() {
        if let Some(mut out) = stdout_file() {
            return to_stdout_file(&mut out, |out| {
                write_rows(store.as_ref(), &filter, format, out, false)
                    .map_err(|e| fail(Path::new("stdout"), e))
            });
        }
    }
    let dirs = [
        ctx.paths.db.parent().map(Path::to_path_buf),
        Some(std::env::temp_dir()),
    ];
    let mut held = fsutil::Held::new(dirs.into_iter().flatten().collect());
    let terminal = output.is_none() && ui::stdout_is_terminal();
    let n = write_rows(store.as_ref(), &filter, format, &mut held, terminal)
        .map_err(|e| fail(Path::new("a temporary copy of the output"), e))?;
    let target = output.unwrap_or(Path::new("stdout"));
    let copied = match output {
        Some(path) => std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut out| held.copy_to(&mut out)),
        None => held.copy_to(&mut std::io::stdout().lock()),
    };
    copied.map_err(|e| Error::io(target, e))?;
    Ok(n)
}

/// Stdout when it is a regular file written at its end (`> file`): rows can go straight
/// into it, and be cut off again if the read fails.
fn stdout_file() -> Option<std::fs::File> {
    use std::io::Seek;
    use std::os::fd::AsFd;
    let mut file = std::fs::File::from(std::io::stdout().as_fd().try_clone_to_owned().ok()?);
    let len = file
        .metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)?
        .len();
    (file.stream_position().ok()? == len).then_some(file)
}

/// Write straight into stdout's file; when `write` fails, cut the file back to where it was.
fn to_stdout_file(
    out: &mut std::fs::File,
    write: impl FnOnce(&mut dyn Write) -> Result<u64>,
) -> Result<u64> {
    use std::io::Seek;
    let start = out.stream_position().map_err(|e| Error::io("stdout", e))?;
    let written = write(&mut BufWriter::with_capacity(1 << 16, &mut *out));
    if written.is_err() {
        let _ = out.set_len(start);
        let _ = out.seek(std::io::SeekFrom::Start(start));
    }
    written
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
