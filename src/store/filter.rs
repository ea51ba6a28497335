//! Which rows a query reads: a typed [`Filter`], turned into the one `WHERE` clause every read
//! statement uses. Nothing else in askhook builds SQL conditions.
//!
//! ## Effective outcome
//! A `pending` row superseded by a newer question of the same session and agent, or older than
//! a day, reads as `abandoned` without any write ([`EFFECTIVE_OUTCOME`]). Parameter `?1` of
//! every statement is the filter's `now_ms`.
//!
//! ## Performance
//! Conditions are over indexed columns (`asked_at`, `question_id`, `session_id`,
//! `tool_use_id`). An outcome condition also names the *stored* outcomes that can produce the
//! wanted effective ones, as literals, so `pending` reads only the partial pending index
//! (SQLite uses a partial index only when the query names the same literal) and the
//! effective-outcome `EXISTS` runs for pending rows only.

use askhook_core::classify::Door;
use rusqlite::types::Value as SqlValue;

use super::row::Outcome;

/// A pending row older than this reads as abandoned.
pub const ABANDON_AFTER_MS: i64 = 86_400_000;

/// The SQL expression of a row's effective outcome (`q` is the row alias, `?1` is now).
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

/// Which rows to read. Every condition set is `ANDed`; an empty filter reads every row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The clock the effective outcome is read at.
    pub now_ms: i64,
    /// Asked at or after (ms).
    pub since: Option<i64>,
    /// Asked before (ms).
    pub until: Option<i64>,
    pub project: Option<String>,
    pub session: Option<String>,
    /// A question id, or `family:<id>` for every question of a family.
    pub question_id: Option<String>,
    pub tool_use_id: Option<String>,
    /// Effective outcomes, any of.
    pub outcomes: Vec<Outcome>,
    pub door: Option<Door>,
    /// Case-insensitive text in the question, header or options.
    pub grep: Option<String>,
    /// Only these rows (by rowid).
    pub row_ids: Option<Vec<i64>>,
    /// Only rows stored after this rowid.
    pub after_row_id: Option<i64>,
    /// The N most recent matching rows (still read oldest first).
    pub limit: Option<u64>,
}

impl Filter {
    /// Every row, read at `now_ms`.
    pub fn at(now_ms: i64) -> Filter {
        Filter {
            now_ms,
            since: None,
            until: None,
            project: None,
            session: None,
            question_id: None,
            tool_use_id: None,
            outcomes: Vec::new(),
            door: None,
            grep: None,
            row_ids: None,
            after_row_id: None,
            limit: None,
        }
    }

    /// Whether the filter has no condition and no limit (every row).
    pub fn is_everything(&self) -> bool {
        self.where_clause().clauses.is_empty() && self.limit.is_none()
    }

    /// The `WHERE …` and its parameters, `now` first. Without a condition it is `WHERE ?1 IS
    /// NOT NULL`: SQLite counts a statement's parameters up to the highest one it names, so a
    /// statement that never named `?1` would refuse the `now` every statement is given.
    pub fn where_sql(&self) -> (String, Vec<SqlValue>) {
        let w = self.where_clause();
        let sql = if w.clauses.is_empty() {
            "WHERE ?1 IS NOT NULL".to_owned()
        } else {
            format!("WHERE {}", w.clauses.join(" AND "))
        };
        (sql, w.params)
    }

    fn where_clause(&self) -> Where {
        let mut w = Where {
            clauses: Vec::new(),
            params: vec![SqlValue::Integer(self.now_ms)],
        };
        if let Some(since) = self.since {
            w.and("q.asked_at >= ?", [SqlValue::Integer(since)]);
        }
        if let Some(until) = self.until {
            w.and("q.asked_at < ?", [SqlValue::Integer(until)]);
        }
        // `--question family:<id>` names a question family.
        let family = self
            .question_id
            .as_deref()
            .and_then(askhook_core::family::family_of_key)
            .map(str::to_owned);
        let question = match &family {
            Some(_) => ("q.family = ?", &family),
            None => ("q.question_id = ?", &self.question_id),
        };
        let texts = [
            ("q.project = ?", &self.project),
            ("q.session_id = ?", &self.session),
            question,
            ("q.tool_use_id = ?", &self.tool_use_id),
        ];
        for (sql, value) in texts {
            if let Some(value) = value {
                w.and(sql, [SqlValue::Text(value.clone())]);
            }
        }
        if let Some(door) = self.door {
            w.and("q.door_type = ?", [SqlValue::Text(door.as_str().into())]);
        }
        if let Some(text) = &self.grep {
            let pattern = SqlValue::Text(format!(
                "%{}%",
                text.replace('\\', "\\\\")
                    .replace('%', "\\%")
                    .replace('_', "\\_")
            ));
            w.and(
                "q.question LIKE ? ESCAPE '\\' OR coalesce(q.header, '') LIKE ? ESCAPE '\\' OR q.options LIKE ? ESCAPE '\\'",
                [pattern.clone(), pattern.clone(), pattern],
            );
        }
        if let Some(ids) = &self.row_ids {
            let marks = vec!["?"; ids.len()].join(", ");
            w.and(
                &format!("q.id IN ({marks})"),
                ids.iter().map(|id| SqlValue::Integer(*id)),
            );
        }
        if let Some(after) = self.after_row_id {
            w.and("q.id > ?", [SqlValue::Integer(after)]);
        }
        w.outcome_in(&self.outcomes);
        w
    }
}

/// A WHERE clause under construction; parameter 1 is always `now`.
struct Where {
    clauses: Vec<String>,
    params: Vec<SqlValue>,
}

impl Where {
    /// Add a condition; `?` placeholders in `sql` take `values` in order, numbered from the
    /// parameters so far; a literal `?1` (now) is written as `\0`.
    fn and(&mut self, sql: &str, values: impl IntoIterator<Item = SqlValue>) {
        let mut rendered = String::with_capacity(sql.len() + 8);
        let mut values = values.into_iter();
        for ch in sql.chars() {
            match ch {
                '\0' => rendered.push_str("?1"),
                '?' => {
                    self.params.push(values.next().unwrap_or(SqlValue::Null));
                    rendered.push_str(&format!("?{}", self.params.len()));
                }
                c => rendered.push(c),
            }
        }
        self.clauses.push(format!("({rendered})"));
    }

    /// The condition on a row's effective outcome.
    fn outcome_in(&mut self, outcomes: &[Outcome]) {
        if outcomes.is_empty() {
            return;
        }
        let marks = vec!["?"; outcomes.len()].join(", ");
        // EFFECTIVE_OUTCOME's own ?1 (now) must stay ?1: protect it from renumbering.
        let sql = format!("{EFFECTIVE_OUTCOME} IN ({marks})").replace("?1", "\0");
        self.and(
            &sql,
            outcomes
                .iter()
                .map(|o| SqlValue::Text(o.as_str().to_owned())),
        );
        // The stored outcomes that can read as the wanted ones, as literals (only known
        // outcome names).
        let mut stored: Vec<&str> = outcomes
            .iter()
            .map(|o| match o {
                Outcome::Abandoned => "pending",
                other => other.as_str(),
            })
            .collect();
        stored.sort_unstable();
        stored.dedup();
        let literals: Vec<String> = stored.iter().map(|o| format!("'{o}'")).collect();
        match literals.as_slice() {
            [one] if outcomes.iter().all(|o| *o == Outcome::Pending) => {
                // Still pending means asked within the last day: a range of the partial index.
                self.and(
                    &format!("q.outcome = {one} AND q.asked_at >= \0 - {ABANDON_AFTER_MS}"),
                    [],
                );
            }
            [one] => self.and(&format!("q.outcome = {one}"), []),
            many => self.and(&format!("q.outcome IN ({})", many.join(", ")), []),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_after_now() {
        let mut f = Filter::at(5);
        f.since = Some(1);
        f.question_id = Some("q".into());
        f.outcomes = vec![Outcome::Pending];
        let (sql, params) = f.where_sql();
        assert!(
            sql.contains("q.asked_at >= ?2") && sql.contains("q.question_id = ?3"),
            "{sql}"
        );
        assert!(
            sql.contains("IN (?4)") && sql.contains("q.asked_at >= ?1 - 86400000"),
            "{sql}"
        );
        assert_eq!(params.len(), 4);
        assert_eq!(params[0], SqlValue::Integer(5));
        assert!(Filter::at(0).is_everything() && !f.is_everything());
    }
}
