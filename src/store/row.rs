//! One question row, the one type for it everywhere: the hook builds it, the spool keeps it (one
//! JSON line per write, every column), the store writes and reads it, and the query commands
//! print it. Door, outcome and id source are enums, stored as their kebab-case text.
//!
//! [`Row::public`] is the documented `log --json` object (a contract, see the README):
//! `question_id`, `question`, `header`, `options`, `multi_select`, `recommended`, `answer`,
//! `selections`, `free_text`, `notes`, `followed_recommendation`, `afk`, `outcome`,
//! `door_type`, `door_rule`, `error`, `session_id`, `tool_use_id`, `question_index`,
//! `tool_name`, `project`, `cwd`, `permission_mode`, `agent_id`, `asked_at`, `settled_at`
//! (RFC 3339 UTC), `family` (the question family of an unmarked question, else null) and
//! `decided_by` (for an auto-decision: `id`, `family` or `rule:<name>`, else null). CSV has the
//! same columns in the same order ([`CSV_COLUMNS`]).

use std::borrow::Cow;

use askhook_core::answer::Answer;
use askhook_core::classify::Door;
use askhook_core::question::{Choice, IdSource};
use askhook_core::scrub::scrub;
use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};

use crate::sys::time;

/// How a question ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Asked; no answer seen yet.
    Pending,
    /// The user answered in the picker.
    Answered,
    /// askhook answered from a standing preference.
    AutoDecided,
    /// The question never reached the user (tool error).
    Failed,
    /// The user dismissed it (Esc, Cancel, "Chat about this"): the turn moved on unanswered.
    Declined,
    /// Superseded by a newer question, or older than a day (computed by queries, never stored).
    Abandoned,
}

impl Outcome {
    /// Every outcome, in display order.
    pub const ALL: [Outcome; 6] = [
        Outcome::Pending,
        Outcome::Answered,
        Outcome::AutoDecided,
        Outcome::Failed,
        Outcome::Declined,
        Outcome::Abandoned,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pending => "pending",
            Outcome::Answered => "answered",
            Outcome::AutoDecided => "auto-decided",
            Outcome::Failed => "failed",
            Outcome::Declined => "declined",
            Outcome::Abandoned => "abandoned",
        }
    }

    pub fn parse(text: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.as_str() == text)
    }

    /// The position in [`Outcome::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A value stored as its kebab-case text: the outcome, the door, the id source.
pub trait Kebab: Sized + Copy {
    fn as_text(self) -> &'static str;
    fn from_text(text: &str) -> Option<Self>;
}

/// `impl Kebab` for types with `as_str` and `parse`.
macro_rules! kebab {
    ($($t:ty),*) => {$(
        impl Kebab for $t {
            fn as_text(self) -> &'static str {
                self.as_str()
            }
            fn from_text(text: &str) -> Option<Self> {
                <$t>::parse(text)
            }
        }
    )*};
}

kebab!(Outcome, Door, IdSource);

/// A [`Kebab`] value as an SQL parameter or column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text<T>(pub T);

impl<T: Kebab> ToSql for Text<T> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Text(
            self.0.as_text().as_bytes(),
        )))
    }
}

impl<T: Kebab> FromSql for Text<T> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let text = value.as_str()?;
        T::from_text(text)
            .map(Text)
            .ok_or_else(|| FromSqlError::Other(format!("unknown value `{text}`").into()))
    }
}

/// One question row: what was asked, and (when known) how it settled. Serialised (for the
/// spool) with every column as stored: times in milliseconds since the epoch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub session_id: String,
    pub tool_use_id: String,
    pub question_index: i64,
    pub question_id: String,
    pub id_source: IdSource,
    pub question: String,
    pub header: Option<String>,
    pub options: Vec<Choice>,
    pub multi_select: bool,
    pub recommended: Option<String>,
    pub door_type: Door,
    pub door_rule: Option<String>,
    pub tool_name: String,
    pub project: Option<String>,
    pub cwd: Option<String>,
    pub permission_mode: Option<String>,
    pub agent_id: Option<String>,
    pub prompt_id: Option<String>,
    pub outcome: Outcome,
    /// How it was answered: answer, selections, free text, notes, follow, idle auto-continue.
    #[serde(flatten)]
    pub reply: Answer,
    pub error: Option<String>,
    pub asked_at: i64,
    pub settled_at: Option<i64>,
    /// The question family (`fam-…`) of a question without a marker.
    #[serde(default)]
    pub family: Option<String>,
    /// What made askhook answer (`id`, `family`, `rule:<name>`), for an auto-decision.
    #[serde(default)]
    pub decided_by: Option<String>,
    /// The row's rowid once stored (0 before); `watch` follows it.
    #[serde(skip)]
    pub row_id: i64,
}

/// The columns of `questions` a [`Row`] writes, in the order [`Row::params`] gives them. The
/// last [`NEW_COLUMNS`] exist from schema [`FAMILIES_SCHEMA`](super::migrations::FAMILIES_SCHEMA)
/// on; an older database gets the others only.
pub const COLUMNS: [&str; 30] = [
    "session_id",
    "tool_use_id",
    "question_index",
    "question_id",
    "id_source",
    "question",
    "header",
    "options",
    "multi_select",
    "recommended",
    "door_type",
    "door_rule",
    "tool_name",
    "project",
    "cwd",
    "permission_mode",
    "agent_id",
    "prompt_id",
    "outcome",
    "answer",
    "selections",
    "free_text",
    "notes",
    "followed_recommendation",
    "afk",
    "error",
    "asked_at",
    "settled_at",
    "family",
    "decided_by",
];

/// How many of [`COLUMNS`], at the end, came with schema 3.
pub const NEW_COLUMNS: usize = 2;

/// The CSV columns of `export` / `log --format csv`, in order (a contract: append only).
pub const CSV_COLUMNS: [&str; 28] = [
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
    "family",
    "decided_by",
];

impl Row {
    /// The values of [`COLUMNS`], in order, as SQL parameters.
    pub fn params(&self) -> [Box<dyn ToSql + '_>; 30] {
        [
            Box::new(&self.session_id),
            Box::new(&self.tool_use_id),
            Box::new(self.question_index),
            Box::new(&self.question_id),
            Box::new(Text(self.id_source)),
            Box::new(&self.question),
            Box::new(&self.header),
            Box::new(serde_json::to_string(&self.options).unwrap_or_else(|_| "[]".into())),
            Box::new(self.multi_select),
            Box::new(&self.recommended),
            Box::new(Text(self.door_type)),
            Box::new(&self.door_rule),
            Box::new(&self.tool_name),
            Box::new(&self.project),
            Box::new(&self.cwd),
            Box::new(&self.permission_mode),
            Box::new(&self.agent_id),
            Box::new(&self.prompt_id),
            Box::new(Text(self.outcome)),
            Box::new(&self.reply.answer),
            Box::new(
                self.reply
                    .selections
                    .as_ref()
                    .and_then(|s| serde_json::to_string(s).ok()),
            ),
            Box::new(&self.reply.free_text),
            Box::new(&self.reply.notes),
            Box::new(self.reply.followed_recommendation),
            Box::new(self.reply.afk),
            Box::new(&self.error),
            Box::new(self.asked_at),
            Box::new(self.settled_at),
            Box::new(&self.family),
            Box::new(&self.decided_by),
        ]
    }

    /// A row read back with [`read::SELECT_COLUMNS`](super::read::SELECT_COLUMNS).
    pub fn from_sql(r: &rusqlite::Row<'_>) -> rusqlite::Result<Row> {
        let options: String = r.get(3)?;
        let selections: Option<String> = r.get(7)?;
        Ok(Row {
            question_id: r.get(0)?,
            question: r.get(1)?,
            header: r.get(2)?,
            options: serde_json::from_str(&options).unwrap_or_default(),
            multi_select: r.get(4)?,
            recommended: r.get(5)?,
            reply: Answer {
                answer: r.get(6)?,
                selections: selections.and_then(|s| serde_json::from_str(&s).ok()),
                free_text: r.get(8)?,
                notes: r.get(9)?,
                followed_recommendation: r.get(10)?,
                afk: r.get(11)?,
            },
            outcome: r.get::<_, Text<Outcome>>(12)?.0,
            door_type: r.get::<_, Text<Door>>(13)?.0,
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
            asked_at: r.get(24)?,
            settled_at: r.get(25)?,
            family: r.get(26)?,
            decided_by: r.get(27)?,
            row_id: r.get(28)?,
            id_source: r.get::<_, Text<IdSource>>(29)?.0,
            prompt_id: r.get(30)?,
        })
    }

    /// The documented `log --json` object of this row.
    pub fn public(&self) -> Public<'_> {
        Public {
            question_id: &self.question_id,
            question: &self.question,
            header: self.header.as_deref(),
            options: &self.options,
            multi_select: self.multi_select,
            recommended: self.recommended.as_deref(),
            answer: self.reply.answer.as_deref(),
            selections: self.reply.selections.as_deref(),
            free_text: self.reply.free_text.as_deref(),
            notes: self.reply.notes.as_deref(),
            followed_recommendation: self.reply.followed_recommendation,
            afk: self.reply.afk,
            outcome: self.outcome,
            door_type: self.door_type,
            door_rule: self.door_rule.as_deref(),
            error: self.error.as_deref(),
            session_id: &self.session_id,
            tool_use_id: &self.tool_use_id,
            question_index: self.question_index,
            tool_name: &self.tool_name,
            project: self.project.as_deref(),
            cwd: self.cwd.as_deref(),
            permission_mode: self.permission_mode.as_deref(),
            agent_id: self.agent_id.as_deref(),
            asked_at: time::format_rfc3339(self.asked_at),
            settled_at: self.settled_at.map(time::format_rfc3339),
            family: self.family.as_deref(),
            decided_by: self.decided_by.as_deref(),
        }
    }

    /// Scrub every free-text field of a row about to be stored: question, header, option
    /// labels and descriptions, recommended label, answer, selections, free text, notes, error.
    /// Ids, paths, session and tool fields are left alone: they are keys (the natural key that
    /// makes writes idempotent, the project that preferences match) and names Claude Code or
    /// askhook gave, not text an agent wrote; docs/trust.md says why each is kept.
    pub fn scrub(&mut self) {
        self.redact_with(&|s| match scrub(s) {
            Cow::Owned(clean) => Some(clean),
            Cow::Borrowed(_) => None,
        });
    }

    /// Replace every free-text field [`Row::scrub`] covers by `redact`'s result, when it gives
    /// one (the config's extra `redact` patterns use this too).
    pub fn redact_with(&mut self, redact: &dyn Fn(&str) -> Option<String>) {
        let field = |s: &mut String| {
            if let Some(clean) = redact(s) {
                *s = clean;
            }
        };
        let opt = |s: &mut Option<String>| {
            if let Some(s) = s {
                field(s);
            }
        };
        field(&mut self.question);
        opt(&mut self.header);
        for option in &mut self.options {
            field(&mut option.label);
            field(&mut option.description);
        }
        opt(&mut self.recommended);
        opt(&mut self.reply.answer);
        if let Some(selections) = &mut self.reply.selections {
            selections.iter_mut().for_each(field);
        }
        opt(&mut self.reply.free_text);
        opt(&mut self.reply.notes);
        opt(&mut self.error);
    }
}

/// The documented `log --json` object of a [`Row`].
#[derive(Debug, Serialize)]
pub struct Public<'a> {
    pub question_id: &'a str,
    pub question: &'a str,
    pub header: Option<&'a str>,
    pub options: &'a [Choice],
    pub multi_select: bool,
    pub recommended: Option<&'a str>,
    pub answer: Option<&'a str>,
    pub selections: Option<&'a [String]>,
    pub free_text: Option<&'a str>,
    pub notes: Option<&'a str>,
    pub followed_recommendation: Option<bool>,
    pub afk: bool,
    pub outcome: Outcome,
    pub door_type: Door,
    pub door_rule: Option<&'a str>,
    pub error: Option<&'a str>,
    pub session_id: &'a str,
    pub tool_use_id: &'a str,
    pub question_index: i64,
    pub tool_name: &'a str,
    pub project: Option<&'a str>,
    pub cwd: Option<&'a str>,
    pub permission_mode: Option<&'a str>,
    pub agent_id: Option<&'a str>,
    pub asked_at: String,
    pub settled_at: Option<String>,
    pub family: Option<&'a str>,
    pub decided_by: Option<&'a str>,
}

/// One event's worth of writes, applied in one transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "write", rename_all = "kebab-case")]
pub enum Batch {
    /// Insert questions, or settle existing pending ones (idempotent on the natural key).
    Records { records: Vec<Row> },
    /// The session's turn moved on: its questions still pending (asked before `at`) are declined.
    Decline { session_id: String, at: i64 },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_inside_records() {
        let mut record = Row {
            session_id: "s".into(),
            tool_use_id: "t".into(),
            question_index: 0,
            question_id: "q".into(),
            id_source: IdSource::Hash,
            question: "Use ghp_16C7e42F292c6912E7710c838347Ae178B4a?".into(),
            header: None,
            options: vec![Choice {
                label: "Paste sk-ant-api03-AbCdEf0123456789_xyz".into(),
                description: "fine".into(),
            }],
            multi_select: false,
            recommended: None,
            door_type: Door::TwoWay,
            door_rule: None,
            tool_name: "AskUserQuestion".into(),
            project: None,
            cwd: Some("/home/me/ghp_project".into()),
            permission_mode: None,
            agent_id: None,
            prompt_id: None,
            outcome: Outcome::Failed,
            reply: Answer {
                selections: Some(vec!["token=abc123".into()]),
                ..Answer::default()
            },
            error: Some("auth failed: password=hunter2".into()),
            asked_at: 0,
            settled_at: None,
            family: None,
            decided_by: None,
            row_id: 0,
        };
        record.scrub();
        assert_eq!(record.question, "Use [redacted:github-token]?");
        assert_eq!(
            record.error.as_deref(),
            Some("auth failed: password=[redacted:password]")
        );
        assert_eq!(
            record.reply.selections,
            Some(vec!["token=[redacted:token]".to_owned()])
        );
        assert_eq!(record.options[0].label, "Paste [redacted:anthropic-key]");
        assert_eq!(record.options[0].description, "fine");
    }
}
