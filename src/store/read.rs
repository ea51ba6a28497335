//! Reading the answer log back: the row type every query command prints, and the effective
//! outcome rule (a `pending` row superseded by a newer question of the same session and agent,
//! or older than a day, reads as `abandoned` without any write).

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
}

/// The SQL expression of a row's effective outcome (`q` is the row alias, `?now` bound as
/// parameter 1).
pub const EFFECTIVE_OUTCOME: &str = "CASE WHEN q.outcome = 'pending' AND (
        q.asked_at < ?1 - 86400000
        OR EXISTS (SELECT 1 FROM questions n
                   WHERE n.session_id = q.session_id AND n.asked_at > q.asked_at
                     AND n.tool_use_id <> q.tool_use_id
                     AND coalesce(n.agent_id, '') = coalesce(q.agent_id, '')))
    THEN 'abandoned' ELSE q.outcome END";

/// The columns [`LogRow::from_row`] reads, in order.
pub fn select_columns() -> String {
    format!(
        "q.question_id, q.question, q.header, q.options, q.multi_select, q.recommended, q.answer,
         q.selections, q.free_text, q.notes, q.followed_recommendation, q.afk, {EFFECTIVE_OUTCOME},
         q.door_type, q.door_rule, q.error, q.session_id, q.tool_use_id, q.question_index,
         q.tool_name, q.project, q.cwd, q.permission_mode, q.agent_id, q.asked_at, q.settled_at"
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
        })
    }
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
        self
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
        let columns = select_columns();
        let where_sql = query.where_sql();
        let sql = match query.limit {
            Some(n) => format!(
                "SELECT * FROM (SELECT {columns}, q.id AS rowid_ FROM questions q {where_sql}
                 ORDER BY q.asked_at DESC, q.id DESC LIMIT {n}) ORDER BY 25, rowid_"
            ),
            None => {
                format!("SELECT {columns} FROM questions q {where_sql} ORDER BY q.asked_at, q.id")
            }
        };
        let mut stmt = self.conn().prepare(&sql)?;
        let mut rows = stmt.query(params_from_iter(query.params.iter()))?;
        while let Some(row) = rows.next()? {
            each(LogRow::from_row(row)?)?;
        }
        Ok(())
    }

    /// Row counts by stored outcome.
    pub fn count_rows(&self) -> rusqlite::Result<i64> {
        self.conn()
            .query_row("SELECT count(*) FROM questions", [], |r| r.get(0))
    }
}
