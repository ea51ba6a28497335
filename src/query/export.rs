//! Streaming output of log rows: `export` and `log --format json|jsonl|csv`. Rows go from the
//! database cursor ([`Store::for_each_row`]) straight into a buffered writer, so memory stays
//! constant whatever the table size.
//!
//! CSV follows RFC 4180: a header line, CRLF line ends, every field holding `,` `"` CR or LF
//! quoted with `"` doubled. The columns are the `log --json` fields in their documented order
//! ([`COLUMNS`]); `options` and `selections` are JSON text, booleans `true`/`false`, nulls empty.

use std::io::{BufWriter, Write};
use std::path::Path;

use crate::cli::Filters;
use crate::error::{Error, Result};
use crate::store::read::LogRow;
use crate::store::Store;
use crate::{fsutil, Context};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Jsonl,
    Csv,
}

/// The CSV columns, in order (a contract: append only).
pub const COLUMNS: &[&str] = &[
    "question_id",
    "question",
    "header",
    "options",
    "multi_select",
    "recommended",
    "answer",
    "selections",
    "free_text",
    "notes",
    "followed_recommendation",
    "afk",
    "outcome",
    "door_type",
    "door_rule",
    "error",
    "session_id",
    "tool_use_id",
    "question_index",
    "tool_name",
    "project",
    "cwd",
    "permission_mode",
    "agent_id",
    "asked_at",
    "settled_at",
];

/// Append one CSV field to `line`, quoted when RFC 4180 requires it.
pub fn push_field(line: &mut String, field: &str) {
    if field.contains([',', '"', '\r', '\n']) {
        line.push('"');
        for c in field.chars() {
            if c == '"' {
                line.push('"');
            }
            line.push(c);
        }
        line.push('"');
    } else {
        line.push_str(field);
    }
}

fn opt(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("")
}

fn opt_bool(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "",
    }
}

/// The CSV record of one row (CRLF-terminated).
pub fn csv_line(row: &LogRow, line: &mut String) {
    let options = serde_json::to_string(&row.options).unwrap_or_else(|_| "[]".into());
    let selections = row
        .selections
        .as_ref()
        .and_then(|s| serde_json::to_string(s).ok())
        .unwrap_or_default();
    let index = row.question_index.to_string();
    let fields: [&str; 26] = [
        &row.question_id,
        &row.question,
        opt(&row.header),
        &options,
        if row.multi_select { "true" } else { "false" },
        opt(&row.recommended),
        opt(&row.answer),
        &selections,
        opt(&row.free_text),
        opt(&row.notes),
        opt_bool(row.followed_recommendation),
        if row.afk { "true" } else { "false" },
        &row.outcome,
        &row.door_type,
        opt(&row.door_rule),
        opt(&row.error),
        &row.session_id,
        &row.tool_use_id,
        &index,
        &row.tool_name,
        opt(&row.project),
        opt(&row.cwd),
        opt(&row.permission_mode),
        opt(&row.agent_id),
        &row.asked_at,
        opt(&row.settled_at),
    ];
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        push_field(line, f);
    }
    line.push_str("\r\n");
}

/// Columns of [`crate::store::read::select_columns`] that hold booleans, and times.
const BOOL_COLUMNS: [usize; 3] = [4, 10, 11];
const TIME_COLUMNS: [usize; 2] = [24, 25];

/// The CSV record of one raw row (CRLF-terminated), straight from the statement's columns:
/// the same text as [`csv_line`] (the stored `options` and `selections` are the compact JSON
/// that serialising them again would give) without building a row.
pub fn csv_raw_line(row: &rusqlite::Row<'_>, line: &mut String) -> rusqlite::Result<()> {
    use rusqlite::types::ValueRef;
    for i in 0..COLUMNS.len() {
        if i > 0 {
            line.push(',');
        }
        match row.get_ref(i)? {
            ValueRef::Null => {}
            ValueRef::Integer(n) if BOOL_COLUMNS.contains(&i) => {
                line.push_str(if n != 0 { "true" } else { "false" })
            }
            ValueRef::Integer(n) if TIME_COLUMNS.contains(&i) => {
                line.push_str(&crate::time::format_rfc3339(n))
            }
            ValueRef::Integer(n) => line.push_str(&n.to_string()),
            ValueRef::Real(f) => line.push_str(&f.to_string()),
            ValueRef::Text(t) | ValueRef::Blob(t) => push_field(line, &String::from_utf8_lossy(t)),
        }
    }
    line.push_str("\r\n");
    Ok(())
}

/// Write every row matching `filters` to `out` in `format`; returns the row count.
pub fn write_rows(
    store: Option<&Store>,
    query: &crate::store::read::Query,
    format: Format,
    out: &mut dyn Write,
) -> std::result::Result<u64, WriteError> {
    let mut count = 0u64;
    let mut line = String::with_capacity(1024);
    match format {
        Format::Csv => {
            line.push_str(&COLUMNS.join(","));
            line.push_str("\r\n");
            out.write_all(line.as_bytes())?;
        }
        Format::Json => out.write_all(b"[")?,
        Format::Jsonl => {}
    }
    if let (Some(store), Format::Csv) = (store, format) {
        let mut io_error: Option<std::io::Error> = None;
        let result = store.for_each_raw(query, |row| {
            line.clear();
            csv_raw_line(row, &mut line)?;
            count += 1;
            out.write_all(line.as_bytes()).map_err(|e| {
                io_error = Some(e);
                rusqlite::Error::ExecuteReturnedResults
            })
        });
        if let Some(e) = io_error {
            return Err(WriteError::Io(e));
        }
        result.map_err(WriteError::Db)?;
    } else if let Some(store) = store {
        let mut io_error: Option<std::io::Error> = None;
        let result = store.for_each_row(query, |row| {
            line.clear();
            match format {
                Format::Csv => csv_line(&row, &mut line),
                Format::Jsonl => {
                    line.push_str(&serde_json::to_string(&row).unwrap_or_default());
                    line.push('\n');
                }
                Format::Json => {
                    line.push_str(if count == 0 { "\n  " } else { ",\n  " });
                    line.push_str(&serde_json::to_string(&row).unwrap_or_default());
                }
            }
            count += 1;
            out.write_all(line.as_bytes()).map_err(|e| {
                io_error = Some(e);
                rusqlite::Error::ExecuteReturnedResults
            })
        });
        if let Some(e) = io_error {
            return Err(WriteError::Io(e));
        }
        result.map_err(WriteError::Db)?;
    }
    if format == Format::Json {
        out.write_all(if count == 0 { b"]\n" } else { b"\n]\n" })?;
    }
    out.flush()?;
    Ok(count)
}

/// Why writing rows stopped.
#[derive(Debug)]
pub enum WriteError {
    Io(std::io::Error),
    Db(rusqlite::Error),
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// `export` / `log --format …`: stream the filtered rows to stdout or `output`.
pub fn stream(
    filters: &Filters,
    ctx: &Context,
    format: Format,
    output: Option<&Path>,
) -> Result<u64> {
    let query = super::filter::build(filters, ctx)?;
    let store = super::open_for_query(ctx)?;
    let (mut writer, target): (Box<dyn Write>, std::path::PathBuf) = match output {
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
    match write_rows(store.as_ref(), &query, format, &mut writer) {
        Ok(n) => Ok(n),
        Err(WriteError::Io(e)) => Err(Error::io(target, e)),
        Err(WriteError::Db(e)) => Err(Error::db(&ctx.paths.db, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let mut line = String::new();
            push_field(&mut line, field);
            assert_eq!(line, want, "{name}");
        }
    }
}
