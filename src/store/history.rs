//! What the log says about one question id or family: how often it was asked, how often the
//! person followed the recommendation, their last answers, and the question as last asked.
//! For `pref set` and `rule add` (what a preference will do, judged by the user's own
//! history), `--last`, and the hook's history context (`context_from_history`).
//!
//! A key is a question id, or `family:<fam-id>` for every question of a family.

use askhook_core::classify::Door;
use askhook_core::family::family_of_key;
use rusqlite::{params, OptionalExtension};

use super::row::Text;
use super::{Result, Store};

/// The question as last asked under a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastAsked {
    pub question_id: String,
    pub family: Option<String>,
    pub question: String,
    pub header: Option<String>,
    /// The recommended label then (`None`: no recognised recommendation).
    pub recommended: Option<String>,
    pub door: Door,
    pub asked_at: i64,
}

/// One answer a person gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastAnswer {
    pub question_id: String,
    pub question: String,
    /// The answer as given, else the free text.
    pub answer: String,
    pub notes: Option<String>,
    pub followed: Option<bool>,
    pub asked_at: i64,
}

/// What the log says about a key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    pub asked: u64,
    /// Answers by a person (not the idle auto-continue) to a question with a recommendation.
    pub with_recommendation: u64,
    pub followed: u64,
    pub auto_decided: u64,
    /// The most recent answers by a person, newest first.
    pub answers: Vec<PastAnswer>,
    pub last: Option<LastAsked>,
}

impl History {
    /// Answers to a recommendation the person did not follow.
    pub fn overridden(&self) -> u64 {
        self.with_recommendation - self.followed
    }
}

/// The column and value a key selects on.
fn selector(store: &Store, key: &str) -> (&'static str, String) {
    match family_of_key(key) {
        Some(family) if store.has_families() => ("family", family.to_owned()),
        _ => ("question_id", key.to_owned()),
    }
}

const HUMAN_ANSWER: &str = "outcome = 'answered' AND afk = 0";

impl Store {
    /// The history of `key` with up to `answers` of the person's latest answers.
    pub fn history(&self, key: &str, answers: usize) -> Result<History> {
        let (column, value) = selector(self, key);
        let (asked, with_recommendation, followed, auto_decided) = self.conn.query_row(
            &format!(
                "SELECT count(*),
                        coalesce(sum({HUMAN_ANSWER} AND followed_recommendation IS NOT NULL), 0),
                        coalesce(sum({HUMAN_ANSWER} AND followed_recommendation = 1), 0),
                        coalesce(sum(outcome = 'auto-decided'), 0)
                 FROM questions WHERE {column} = ?1"
            ),
            [&value],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        Ok(History {
            asked,
            with_recommendation,
            followed,
            auto_decided,
            answers: self.past_answers(column, &value, answers)?,
            last: self.last_asked(Some(column), &value)?,
        })
    }

    /// The person's latest answers (newest first) to question `id`, or to any question of
    /// `family`: what the hook's history context quotes.
    pub fn answers_for(
        &self,
        id: &str,
        family: Option<&str>,
        limit: usize,
    ) -> Result<Vec<PastAnswer>> {
        let family_column = if self.has_families() {
            "family"
        } else {
            "NULL"
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT question_id, question, coalesce(answer, free_text), notes,
                    followed_recommendation, asked_at
             FROM questions WHERE (question_id = ?1 OR {family_column} = ?2) AND {HUMAN_ANSWER}
               AND coalesce(answer, free_text) IS NOT NULL
             ORDER BY asked_at DESC, id DESC LIMIT ?3"
        ))?;
        let rows = stmt.query_map(params![id, family, limit as i64], past_answer)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn past_answers(&self, column: &str, value: &str, limit: usize) -> Result<Vec<PastAnswer>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT question_id, question, coalesce(answer, free_text), notes,
                    followed_recommendation, asked_at
             FROM questions WHERE {column} = ?1 AND {HUMAN_ANSWER}
               AND coalesce(answer, free_text) IS NOT NULL
             ORDER BY asked_at DESC, id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![value, limit as i64], past_answer)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The latest row where `column = value` (any row, without a column).
    fn last_asked(&self, column: Option<&str>, value: &str) -> Result<Option<LastAsked>> {
        let family = if self.has_families() {
            "family"
        } else {
            "NULL"
        };
        let filter = column.map_or("?1 IS NOT NULL".to_owned(), |c| format!("{c} = ?1"));
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT question_id, {family}, question, header, recommended, door_type, asked_at
                     FROM questions WHERE {filter} ORDER BY asked_at DESC, id DESC LIMIT 1"
                ),
                [value],
                last_asked_of,
            )
            .optional()?)
    }

    /// The question asked most recently (the last of its call), if any.
    pub fn most_recent(&self) -> Result<Option<LastAsked>> {
        self.last_asked(None, "")
    }
}

fn past_answer(r: &rusqlite::Row<'_>) -> rusqlite::Result<PastAnswer> {
    Ok(PastAnswer {
        question_id: r.get(0)?,
        question: r.get(1)?,
        answer: r.get(2)?,
        notes: r.get(3)?,
        followed: r.get(4)?,
        asked_at: r.get(5)?,
    })
}

fn last_asked_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<LastAsked> {
    Ok(LastAsked {
        question_id: r.get(0)?,
        family: r.get(1)?,
        question: r.get(2)?,
        header: r.get(3)?,
        recommended: r.get(4)?,
        door: r.get::<_, Text<Door>>(5)?.0,
        asked_at: r.get(6)?,
    })
}
