//! Reading the answer log back: the row type every query command prints, the effective
//! outcome rule (a `pending` row superseded by a newer question of the same session and agent,
//! or older than a day, reads as `abandoned` without any write), and every statement the query
//! CLI runs (rows, the one-pass stats scan, preferences, `forget`'s delete, `watch`'s change
//! probe).
//!
//! ## Performance
//! Filters become one `WHERE` over the indexed columns (`asked_at`, `question_id`,
//! `session_id`, `tool_use_id`); an `--outcome` filter also names the *stored* outcomes that can
//! produce the wanted effective ones, so `pending` reads only the partial pending index and the
//! effective-outcome `EXISTS` runs for pending rows only. `--limit` walks the time index
//! backwards and stops. `stats` is one narrow pass (no text columns) aggregated in Rust.

use rusqlite::types::Value as SqlValue;
use rusqlite::{params_from_iter, Row};
use serde::Serialize;

use super::record::StoredOption;
use super::Store;

/// A pending row older than this reads as abandoned.
pub const ABANDON_AFTER_MS: i64 = 86_400_000;

/// One question as the query CLI shows it (the `log --json` schema, documented in the README).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogRow {
    pub question_id: String,
    pub question: String,
    pub header: Option<String>,
    pub options: Vec<StoredOption>,
    pub multi_select: bool,
    pub recommended: Option<String>,
    pub answer: Option<String>,
    pub selections: Option<Vec<String>>,
    pub free_text: Option<String>,
    pub notes: Option<String>,
    pub followed_recommendation: Option<bool>,
    pub afk: bool,
    pub outcome: String,
    pub door_type: String,
    pub door_rule: Option<String>,
    pub error: Option<String>,
    pub session_id: String,
    pub tool_use_id: String,
    pub question_index: i64,
    pub tool_name: String,
    pub project: Option<String>,
    pub cwd: Option<String>,
    pub permission_mode: Option<String>,
    pub agent_id: Option<String>,
    pub asked_at: String,
    pub settled_at: Option<String>,
    #[serde(skip)]
    pub asked_at_ms: i64,
    #[serde(skip)]
    pub settled_at_ms: Option<i64>,
    /// The row's rowid (for `watch`).
    #[serde(skip)]
    pub row_id: i64,
}

/// The SQL expression of a row's effective outcome (`q` is the row alias, `?now` bound as
/// parameter 1).
///
/// A newer question supersedes a pending one only when it belongs to another user prompt:
/// Claude Code fires every PreToolUse of one assistant message (parallel AskUserQuestion calls,
/// same `prompt_id`) before it shows the first picker, and those questions are all on screen.
/// Without a `prompt_id` on either row, any newer call of the same session and agent counts.
pub const EFFECTIVE_OUTCOME: &str = "CASE WHEN q.outcome = 'pending' AND (
        q.asked_at < ?1 - 86400000
        OR EXISTS (SELECT 1 FROM questions n
                   WHERE n.session_id = q.session_id AND n.asked_at > q.asked_at
                     AND n.tool_use_id <> q.tool_use_id
                     AND coalesce(n.agent_id, '') = coalesce(q.agent_id, '')
                     AND (n.prompt_id IS NULL OR q.prompt_id IS NULL OR n.prompt_id <> q.prompt_id)))
    THEN 'abandoned' ELSE q.outcome END";

/// The columns [`LogRow::from_row`] reads, in order.
pub fn select_columns() -> String {
    format!(
        "q.question_id, q.question, q.header, q.options, q.multi_select, q.recommended, q.answer,
         q.selections, q.free_text, q.notes, q.followed_recommendation, q.afk, {EFFECTIVE_OUTCOME},
         q.door_type, q.door_rule, q.error, q.session_id, q.tool_use_id, q.question_index,
         q.tool_name, q.project, q.cwd, q.permission_mode, q.agent_id, q.asked_at, q.settled_at,
         q.id"
    )
}

impl LogRow {
    pub fn from_row(r: &Row<'_>) -> rusqlite::Result<LogRow> {
        let options: String = r.get(3)?;
        let selections: Option<String> = r.get(7)?;
        let asked_at_ms: i64 = r.get(24)?;
        let settled_at_ms: Option<i64> = r.get(25)?;
        Ok(LogRow {
            question_id: r.get(0)?,
            question: r.get(1)?,
            header: r.get(2)?,
            options: serde_json::from_str(&options).unwrap_or_default(),
            multi_select: r.get(4)?,
            recommended: r.get(5)?,
            answer: r.get(6)?,
            selections: selections.and_then(|s| serde_json::from_str(&s).ok()),
            free_text: r.get(8)?,
            notes: r.get(9)?,
            followed_recommendation: r.get(10)?,
            afk: r.get(11)?,
            outcome: r.get(12)?,
            door_type: r.get(13)?,
            door_rule: r.get(14)?,
            error: r.get(15)?,
            session_id: r.get(16)?,
            tool_use_id: r.get(17)?,
            question_index: r.get(18)?,
            tool_name: r.get(19)?,
            project: r.get(20)?,
            cwd: r.get(21)?,
            permission_mode: r.get(22)?,
            agent_id: r.get(23)?,
            asked_at: crate::time::format_rfc3339(asked_at_ms),
            settled_at: settled_at_ms.map(crate::time::format_rfc3339),
            asked_at_ms,
            settled_at_ms,
            row_id: r.get(26)?,
        })
    }
}

/// One row as the stats pass sees it (borrowed from the statement; copy what you keep).
#[derive(Debug, Clone, Copy)]
pub struct StatRow<'a> {
    pub question_id: &'a str,
    pub project: Option<&'a str>,
    /// The effective outcome.
    pub outcome: &'a str,
    pub door_type: &'a str,
    pub followed: Option<bool>,
    pub afk: bool,
    pub asked_at: i64,
    pub settled_at: Option<i64>,
}

/// A WHERE clause under construction; parameter 1 is always `now`.
#[derive(Debug, Clone)]
pub struct Query {
    clauses: Vec<String>,
    params: Vec<SqlValue>,
    /// The N most recent matching rows (still returned oldest first).
    pub limit: Option<u64>,
}

impl Query {
    pub fn new(now_ms: i64) -> Query {
        Query {
            clauses: Vec::new(),
            params: vec![SqlValue::Integer(now_ms)],
            limit: None,
        }
    }

    /// Add a condition; `?` placeholders in `sql` take `values` in order.
    pub fn and(&mut self, sql: &str, values: impl IntoIterator<Item = SqlValue>) -> &mut Query {
        let mut rendered = String::with_capacity(sql.len() + 8);
        let mut values = values.into_iter();
        for ch in sql.chars() {
            if ch == '?' {
                self.params.push(values.next().unwrap_or(SqlValue::Null));
                rendered.push_str(&format!("?{}", self.params.len()));
            } else {
                rendered.push(ch);
            }
        }
        self.clauses.push(format!("({rendered})"));
        self
    }

    /// The condition on a row's effective outcome.
    pub fn outcome_in(&mut self, outcomes: &[&str]) -> &mut Query {
        if outcomes.is_empty() {
            return self;
        }
        let marks = vec!["?"; outcomes.len()].join(", ");
        let sql = format!("{EFFECTIVE_OUTCOME} IN ({marks})").replace("?1", "\u{0}");
        // EFFECTIVE_OUTCOME's own ?1 (now) must stay ?1: protect it from renumbering.
        let mut rendered = String::new();
        let mut values = outcomes.iter().map(|o| SqlValue::Text((*o).to_owned()));
        for ch in sql.chars() {
            match ch {
                '\u{0}' => rendered.push_str("?1"),
                '?' => {
                    self.params.push(values.next().unwrap_or(SqlValue::Null));
                    rendered.push_str(&format!("?{}", self.params.len()));
                }
                c => rendered.push(c),
            }
        }
        self.clauses.push(format!("({rendered})"));
        // The stored outcomes that can read as the wanted ones: lets SQLite use the partial
        // pending index, and skips the CASE for every other row.
        let mut stored: Vec<&str> = outcomes
            .iter()
            .map(|o| if *o == "abandoned" { "pending" } else { o })
            .collect();
        stored.sort_unstable();
        stored.dedup();
        // Inlined as literals (only known outcome names): SQLite can use a partial index
        // (`WHERE outcome = 'pending'`) only when the query names the same literal.
        let literals: Vec<String> = stored
            .iter()
            .filter(|o| super::Outcome::parse(o).is_some())
            .map(|o| format!("'{o}'"))
            .collect();
        match literals.as_slice() {
            [] => {}
            [one] if outcomes.iter().all(|o| *o == "pending") => {
                // Still pending means asked within the last day: a range of the partial index.
                // (Pushed as is: `and` would renumber the `?1` that is `now`.)
                self.clauses.push(format!(
                    "(q.outcome = {one} AND q.asked_at >= ?1 - {ABANDON_AFTER_MS})"
                ));
            }
            [one] => {
                self.and(&format!("q.outcome = {one}"), []);
            }
            many => {
                self.and(&format!("q.outcome IN ({})", many.join(", ")), []);
            }
        }
        self
    }

    /// Whether the query has no condition and no limit (every row).
    pub fn is_everything(&self) -> bool {
        self.clauses.is_empty() && self.limit.is_none()
    }

    fn where_sql(&self) -> String {
        if self.clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", self.clauses.join(" AND "))
        }
    }
}

impl Store {
    /// The rows matching `query`, oldest first.
    pub fn rows(&self, query: &Query) -> rusqlite::Result<Vec<LogRow>> {
        let mut rows = Vec::new();
        self.for_each_row(query, |row| {
            rows.push(row);
            Ok(())
        })?;
        Ok(rows)
    }

    /// Stream the rows matching `query`, oldest first, in constant memory.
    pub fn for_each_row(
        &self,
        query: &Query,
        mut each: impl FnMut(LogRow) -> rusqlite::Result<()>,
    ) -> rusqlite::Result<()> {
        let sql = self.rows_sql(query);
        let mut stmt = self.conn().prepare(&sql)?;
        let mut rows = stmt.query(params_from_iter(query.params.iter()))?;
        while let Some(row) = rows.next()? {
            each(LogRow::from_row(row)?)?;
        }
        Ok(())
    }

    fn rows_sql(&self, query: &Query) -> String {
        let columns = select_columns();
        let where_sql = query.where_sql();
        match query.limit {
            Some(n) => format!(
                "SELECT * FROM (SELECT {columns} FROM questions q {where_sql}
                 ORDER BY q.asked_at DESC, q.id DESC LIMIT {n}) ORDER BY 25, 27"
            ),
            None => {
                format!("SELECT {columns} FROM questions q {where_sql} ORDER BY q.asked_at, q.id")
            }
        }
    }

    /// Reading pragmas for a query command's connection: memory-map the file and give the
    /// page cache room, so a full scan is not a syscall per page.
    pub fn tune_for_reading(&self) -> rusqlite::Result<()> {
        self.conn().pragma_update(None, "mmap_size", 1_i64 << 32)?;
        self.conn().pragma_update(None, "cache_size", -65_536)?;
        self.conn().pragma_update(None, "temp_store", "MEMORY")
    }

    /// One narrow pass over the rows matching `query` (no text columns but ids), in no
    /// particular order, for `stats` and `suggest`. Settled rows come from the covering
    /// `questions_stats` index with their stored outcome (which is their effective one); the
    /// few pending rows come from the partial pending index with the effective-outcome rule.
    pub fn for_each_stat(
        &self,
        query: &Query,
        mut each: impl FnMut(&StatRow<'_>),
    ) -> rusqlite::Result<()> {
        let where_sql = query.where_sql();
        let and = if where_sql.is_empty() { "WHERE" } else { "AND" };
        for (outcome, condition) in [
            // `?1 IS NOT NULL`: every query binds `now` as ?1, so the statement must use it.
            ("q.outcome", "q.outcome <> 'pending' AND ?1 IS NOT NULL"),
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
                        q.followed_recommendation, q.afk, q.asked_at, q.settled_at
                 FROM questions q {where_sql} {and} {condition}"
            );
            let mut stmt = self.conn().prepare(&sql)?;
            let mut rows = stmt.query(params_from_iter(query.params.iter()))?;
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
                each(&StatRow {
                    question_id: text(0),
                    project,
                    outcome: text(2),
                    door_type: text(3),
                    followed: r.get(4)?,
                    afk: r.get(5)?,
                    asked_at: r.get(6)?,
                    settled_at: r.get(7)?,
                });
            }
        }
        Ok(())
    }

    /// Stream the raw columns of the rows matching `query` (the [`select_columns`] order),
    /// oldest first, without building a [`LogRow`]: the fast path of CSV export.
    pub fn for_each_raw(
        &self,
        query: &Query,
        mut each: impl FnMut(&Row<'_>) -> rusqlite::Result<()>,
    ) -> rusqlite::Result<()> {
        let sql = self.rows_sql(query);
        let mut stmt = self.conn().prepare(&sql)?;
        let mut rows = stmt.query(params_from_iter(query.params.iter()))?;
        while let Some(row) = rows.next()? {
            each(row)?;
        }
        Ok(())
    }

    /// How many rows match `query`.
    pub fn count_matching(&self, query: &Query) -> rusqlite::Result<u64> {
        let sql = match query.limit {
            Some(n) => format!(
                "SELECT count(*) FROM (SELECT 1 FROM questions q {} ORDER BY q.asked_at DESC, q.id DESC LIMIT {n})",
                query.where_sql()
            ),
            None => format!("SELECT count(*) FROM questions q {}", query.where_sql()),
        };
        self.conn()
            .query_row(&sql, params_from_iter(query.params.iter()), |r| r.get(0))
    }

    /// Delete the rows matching `query` (`forget`), then rebuild the file so no copy of their
    /// text stays on disk (`VACUUM`: seconds on a very large log; hooks spool meanwhile), and
    /// return how many went.
    pub fn delete_matching(&mut self, query: &Query) -> rusqlite::Result<usize> {
        let inner = match query.limit {
            Some(n) => format!(
                "SELECT q.id FROM questions q {} ORDER BY q.asked_at DESC, q.id DESC LIMIT {n}",
                query.where_sql()
            ),
            None => format!("SELECT q.id FROM questions q {}", query.where_sql()),
        };
        // Answers can be private: zero the freed pages rather than leave them readable.
        self.conn().pragma_update(None, "secure_delete", "ON")?;
        let deleted = self.conn().execute(
            &format!("DELETE FROM questions WHERE id IN ({inner})"),
            params_from_iter(query.params.iter()),
        )?;
        if deleted > 0 {
            // Earlier writers (without secure_delete) may have left stale copies of a row in
            // free space when SQLite reorganised a page; only a rebuild removes them. Copies
            // also live in the WAL until a checkpoint.
            self.conn().execute_batch("VACUUM")?;
            let _ = self
                .conn()
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        Ok(deleted)
    }

    /// Every stored preference: `(scope, question_id, value)`, scope `""` = global.
    pub fn all_preferences(&self) -> rusqlite::Result<Vec<(String, String, String)>> {
        let mut stmt = self.conn().prepare(
            "SELECT scope, question_id, value FROM preferences ORDER BY question_id, scope",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        rows.collect()
    }

    /// `PRAGMA data_version`: changes whenever another connection commits (cheap to poll).
    pub fn data_version(&self) -> rusqlite::Result<i64> {
        self.conn()
            .query_row("PRAGMA data_version", [], |r| r.get(0))
    }

    /// The earliest and latest `asked_at` in the log (`None` when empty); two index probes.
    pub fn time_span(&self) -> rusqlite::Result<Option<(i64, i64)>> {
        self.conn().query_row(
            "SELECT (SELECT min(asked_at) FROM questions), (SELECT max(asked_at) FROM questions)",
            [],
            |r| Ok(r.get::<_, Option<i64>>(0)?.zip(r.get::<_, Option<i64>>(1)?)),
        )
    }

    /// The largest rowid in the log (0 when empty).
    pub fn max_row_id(&self) -> rusqlite::Result<i64> {
        self.conn()
            .query_row("SELECT coalesce(max(id), 0) FROM questions", [], |r| {
                r.get(0)
            })
    }

    /// Whether a row with this natural key exists (imports).
    pub fn has_row(
        &self,
        session_id: &str,
        tool_use_id: &str,
        question_index: i64,
    ) -> rusqlite::Result<bool> {
        self.conn()
            .prepare_cached(
                "SELECT 1 FROM questions WHERE session_id = ?1 AND tool_use_id = ?2 AND question_index = ?3",
            )?
            .exists(rusqlite::params![session_id, tool_use_id, question_index])
    }

    /// Row counts by stored outcome.
    pub fn count_rows(&self) -> rusqlite::Result<i64> {
        self.conn()
            .query_row("SELECT count(*) FROM questions", [], |r| r.get(0))
    }
}
