//! Reading the answer log back: rows for the query commands, the one-pass stats scan, counts,
//! `forget`'s delete, `watch`'s change probe, and the few lookups the CLI makes (the question
//! last recorded under an id). Which rows: a [`Filter`].
//!
//! ## Performance
//! `--limit` walks the time index backwards and stops. `stats` is one narrow pass (no text
//! columns) aggregated in Rust, settled rows from a covering index, pending ones from the
//! partial pending index.

use askhook_core::classify::Door;
use rusqlite::{params_from_iter, OptionalExtension};

use super::filter::{Filter, EFFECTIVE_OUTCOME};
use super::migrations::FAMILIES_SCHEMA;
use super::row::{Outcome, Row, Text};
use super::{Result, Store};

/// The columns [`Row::from_sql`] reads, in order (`q` is the row alias).
pub const SELECT_COLUMNS: &str = "q.question_id, q.question, q.header, q.options, q.multi_select,
    q.recommended, q.answer, q.selections, q.free_text, q.notes, q.followed_recommendation, q.afk,
    <outcome>, q.door_type, q.door_rule, q.error, q.session_id, q.tool_use_id, q.question_index,
    q.tool_name, q.project, q.cwd, q.permission_mode, q.agent_id, q.asked_at, q.settled_at,
    q.family, q.decided_by, q.id, q.id_source, q.prompt_id";

/// [`SELECT_COLUMNS`] for a database at schema `schema`: before families, their columns read
/// as null.
fn select_columns(schema: i64) -> String {
    let columns = SELECT_COLUMNS.replace("<outcome>", EFFECTIVE_OUTCOME);
    if schema >= FAMILIES_SCHEMA {
        columns
    } else {
        columns.replace("q.family, q.decided_by", "NULL, NULL")
    }
}

/// One row as the stats pass sees it (borrowed from the statement; copy what you keep).
#[derive(Debug, Clone, Copy)]
pub struct StatRow<'a> {
    pub question_id: &'a str,
    pub project: Option<&'a str>,
    /// The effective outcome.
    pub outcome: Outcome,
    pub door_type: Door,
    pub followed: Option<bool>,
    pub afk: bool,
    pub asked_at: i64,
    pub settled_at: Option<i64>,
    /// The question family, for an unmarked question.
    pub family: Option<&'a str>,
    /// What decided an auto-decision (`id`, `family`, `rule:<name>`).
    pub decided_by: Option<&'a str>,
}

/// A row as stored, its columns in [`SELECT_COLUMNS`] order.
pub struct RawRow<'a, 'b>(&'a rusqlite::Row<'b>);

/// One stored column value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a [u8]),
}

impl RawRow<'_, '_> {
    /// Column `i`.
    pub fn field(&self, i: usize) -> Result<Field<'_>> {
        use rusqlite::types::ValueRef;
        Ok(match self.0.get_ref(i)? {
            ValueRef::Null => Field::Null,
            ValueRef::Integer(n) => Field::Integer(n),
            ValueRef::Real(f) => Field::Real(f),
            ValueRef::Text(t) | ValueRef::Blob(t) => Field::Text(t),
        })
    }
}

/// Row counts of every table (`doctor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub questions: i64,
    pub preferences: i64,
    pub preference_events: i64,
}

/// The question last recorded under an id, and its door then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    pub question: String,
    pub door: Door,
}

impl Store {
    /// The rows matching `filter`, oldest first.
    pub fn rows(&self, filter: &Filter) -> Result<Vec<Row>> {
        let mut rows = Vec::new();
        self.for_each_row(filter, |row| {
            rows.push(row);
            Ok::<(), super::Error>(())
        })?;
        Ok(rows)
    }

    /// Stream the rows matching `filter`, oldest first, in constant memory. `each` may stop
    /// the walk with its own error (a closed output, say).
    pub fn for_each_row<E: From<super::Error>>(
        &self,
        filter: &Filter,
        mut each: impl FnMut(Row) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        self.for_each_raw(filter, |row| {
            each(Row::from_sql(row.0).map_err(super::Error::from)?)
        })
    }

    /// Reading pragmas for a query command's connection: memory-map the file and give the
    /// page cache room, so a full scan is not a syscall per page.
    pub fn tune_for_reading(&self) -> Result<()> {
        self.conn.pragma_update(None, "mmap_size", 1_i64 << 32)?;
        self.conn.pragma_update(None, "cache_size", -65_536)?;
        self.conn.pragma_update(None, "temp_store", "MEMORY")?;
        Ok(())
    }

    /// One narrow pass over the rows matching `query` (no text columns but ids), in no
    /// particular order, for `stats` and `suggest`. Settled rows come from the covering
    /// `questions_stats` index with their stored outcome (which is their effective one); the
    /// few pending rows come from the partial pending index with the effective-outcome rule.
    pub fn for_each_stat(&self, filter: &Filter, mut each: impl FnMut(&StatRow<'_>)) -> Result<()> {
        let (where_sql, params) = filter.where_sql();
        let new_columns = if self.has_families() {
            "q.family, q.decided_by"
        } else {
            "NULL, NULL"
        };
        for (outcome, condition) in [
            ("q.outcome", "q.outcome <> 'pending'"),
            // Pending for over a day reads as abandoned by the rule itself: no lookup per row.
            (
                "'abandoned'",
                "q.outcome = 'pending' AND q.asked_at < ?1 - 86400000",
            ),
            (
                EFFECTIVE_OUTCOME,
                "q.outcome = 'pending' AND q.asked_at >= ?1 - 86400000",
            ),
        ] {
            let sql = format!(
                "SELECT q.question_id, q.project, {outcome}, q.door_type,
                        q.followed_recommendation, q.afk, q.asked_at, q.settled_at, {new_columns}
                 FROM questions q {where_sql} AND {condition}"
            );
            let mut stmt = self.conn.prepare(&sql)?;
            let mut rows = stmt.query(params_from_iter(params.iter()))?;
            while let Some(r) = rows.next()? {
                let text = |i: usize| -> &str {
                    match r.get_ref(i) {
                        Ok(rusqlite::types::ValueRef::Text(t)) => {
                            std::str::from_utf8(t).unwrap_or("")
                        }
                        _ => "",
                    }
                };
                let project = Some(text(1)).filter(|p| !p.is_empty());
                let Some(outcome) = Outcome::parse(text(2)) else {
                    continue;
                };
                each(&StatRow {
                    question_id: text(0),
                    project,
                    outcome,
                    door_type: Door::parse(text(3)).unwrap_or(Door::Unknown),
                    followed: r.get(4)?,
                    afk: r.get(5)?,
                    asked_at: r.get(6)?,
                    settled_at: r.get(7)?,
                    family: Some(text(8)).filter(|f| !f.is_empty()),
                    decided_by: Some(text(9)).filter(|d| !d.is_empty()),
                });
            }
        }
        Ok(())
    }

    /// Stream the raw columns of the rows matching `filter` ([`SELECT_COLUMNS`] order),
    /// oldest first, without building a [`Row`]: the fast path of CSV export.
    pub fn for_each_raw<E: From<super::Error>>(
        &self,
        filter: &Filter,
        mut each: impl FnMut(&RawRow<'_, '_>) -> std::result::Result<(), E>,
    ) -> std::result::Result<(), E> {
        let (sql, params) = rows_sql(filter, self.schema);
        let mut stmt = self.conn.prepare(&sql).map_err(super::Error::from)?;
        let mut rows = stmt
            .query(params_from_iter(params.iter()))
            .map_err(super::Error::from)?;
        while let Some(row) = rows.next().map_err(super::Error::from)? {
            each(&RawRow(row))?;
        }
        Ok(())
    }

    /// How many rows match `filter`, per project (`None`: rows with no project), most rows
    /// first: what `forget` is about to delete, and the projects `--project` can name.
    pub fn projects_matching(&self, filter: &Filter) -> Result<Vec<(Option<String>, u64)>> {
        let (sql, params) = ids_sql(filter, "q.project");
        let mut stmt = self.conn.prepare(&format!(
            "SELECT project, count(*) AS n FROM ({sql}) GROUP BY project ORDER BY n DESC, project"
        ))?;
        let rows = stmt.query_map(params_from_iter(params.iter()), |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Delete the rows matching `query` (`forget`), then rebuild the file so no copy of their
    /// text stays on disk (`VACUUM`: seconds on a very large log; hooks spool meanwhile), and
    /// return how many went.
    pub fn delete_matching(&mut self, filter: &Filter) -> Result<usize> {
        let (inner, params) = ids_sql(filter, "q.id");
        // Answers can be private: zero the freed pages rather than leave them readable.
        self.conn.pragma_update(None, "secure_delete", "ON")?;
        let deleted = self.conn.execute(
            &format!("DELETE FROM questions WHERE id IN ({inner})"),
            params_from_iter(params.iter()),
        )?;
        if deleted > 0 {
            // Earlier writers (without secure_delete) may have left stale copies of a row in
            // free space when SQLite reorganised a page; only a rebuild removes them. Copies
            // also live in the WAL until a checkpoint.
            self.conn.execute_batch("VACUUM")?;
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        Ok(deleted)
    }

    /// `PRAGMA data_version`: changes whenever another connection commits (cheap to poll).
    pub fn data_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }

    /// The earliest and latest `asked_at` in the log (`None` when empty); two index probes.
    pub fn time_span(&self) -> Result<Option<(i64, i64)>> {
        Ok(self.conn.query_row(
            "SELECT (SELECT min(asked_at) FROM questions), (SELECT max(asked_at) FROM questions)",
            [],
            |r| Ok(r.get::<_, Option<i64>>(0)?.zip(r.get::<_, Option<i64>>(1)?)),
        )?)
    }

    /// The largest rowid in the log (0 when empty).
    pub fn max_row_id(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("SELECT coalesce(max(id), 0) FROM questions", [], |r| {
                r.get(0)
            })?)
    }

    /// Whether a row with this natural key exists (imports).
    pub fn has_row(
        &self,
        session_id: &str,
        tool_use_id: &str,
        question_index: i64,
    ) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT 1 FROM questions WHERE session_id = ?1 AND tool_use_id = ?2 AND question_index = ?3",
            )?
            .exists(rusqlite::params![session_id, tool_use_id, question_index])?)
    }

    /// Row counts of every table.
    pub fn counts(&self) -> Result<Counts> {
        Ok(self.conn.query_row(
            "SELECT (SELECT count(*) FROM questions), (SELECT count(*) FROM preferences),
                    (SELECT count(*) FROM preference_events)",
            [],
            |r| {
                Ok(Counts {
                    questions: r.get(0)?,
                    preferences: r.get(1)?,
                    preference_events: r.get(2)?,
                })
            },
        )?)
    }

    /// The question last recorded under `id`, or under a family named `family:<id>` (latest
    /// asked, then latest stored).
    pub fn last_recorded(&self, id: &str) -> Result<Option<Recorded>> {
        let (column, key) = match askhook_core::family::family_of_key(id) {
            Some(family) if self.has_families() => ("family", family),
            _ => ("question_id", id),
        };
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT question, door_type FROM questions WHERE {column} = ?1
                     ORDER BY asked_at DESC, id DESC LIMIT 1"
                ),
                [key],
                |r| {
                    Ok(Recorded {
                        question: r.get(0)?,
                        door: r.get::<_, Text<Door>>(1)?.0,
                    })
                },
            )
            .optional()?)
    }
}

/// The statement reading the rows of `filter`, oldest first, and its parameters.
fn rows_sql(filter: &Filter, schema: i64) -> (String, Vec<rusqlite::types::Value>) {
    let columns = select_columns(schema);
    let (where_sql, params) = filter.where_sql();
    let sql = match filter.limit {
        Some(n) => format!(
            "SELECT * FROM (SELECT {columns} FROM questions q {where_sql}
             ORDER BY q.asked_at DESC, q.id DESC LIMIT {n}) ORDER BY 25, 29"
        ),
        None => format!("SELECT {columns} FROM questions q {where_sql} ORDER BY q.asked_at, q.id"),
    };
    (sql, params)
}

/// A statement selecting `what` of the rows of `filter` (the most recent N with a limit).
fn ids_sql(filter: &Filter, what: &str) -> (String, Vec<rusqlite::types::Value>) {
    let (where_sql, params) = filter.where_sql();
    let sql = match filter.limit {
        Some(n) => format!(
            "SELECT {what} FROM questions q {where_sql} ORDER BY q.asked_at DESC, q.id DESC LIMIT {n}"
        ),
        None => format!("SELECT {what} FROM questions q {where_sql}"),
    };
    (sql, params)
}
