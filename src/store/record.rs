//! The writes askhook makes, as plain serialisable values: the hook builds them, the store
//! applies them, and the spool keeps them (one JSON line each) when the database is busy.

use std::borrow::Cow;

use askhook_core::scrub::scrub;
use serde::{Deserialize, Serialize};

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
        [
            Outcome::Pending,
            Outcome::Answered,
            Outcome::AutoDecided,
            Outcome::Failed,
            Outcome::Declined,
            Outcome::Abandoned,
        ]
        .into_iter()
        .find(|o| o.as_str() == text)
    }
}

/// One offered option as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOption {
    pub label: String,
    pub description: String,
}

/// One question row: what was asked, and (when known) how it settled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub session_id: String,
    pub tool_use_id: String,
    pub question_index: i64,
    pub question_id: String,
    pub id_source: String,
    pub question: String,
    pub header: Option<String>,
    pub options: Vec<StoredOption>,
    pub multi_select: bool,
    pub recommended: Option<String>,
    pub door_type: String,
    pub door_rule: Option<String>,
    pub tool_name: String,
    pub project: Option<String>,
    pub cwd: Option<String>,
    pub permission_mode: Option<String>,
    pub agent_id: Option<String>,
    pub prompt_id: Option<String>,
    pub outcome: Outcome,
    pub answer: Option<String>,
    pub selections: Option<Vec<String>>,
    pub free_text: Option<String>,
    pub notes: Option<String>,
    pub followed_recommendation: Option<bool>,
    pub afk: bool,
    pub error: Option<String>,
    pub asked_at: i64,
    pub settled_at: Option<i64>,
}

/// One event's worth of writes, applied in one transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "write", rename_all = "kebab-case")]
pub enum Write {
    /// Insert questions, or settle existing pending ones (idempotent on the natural key).
    Records { records: Vec<Record> },
    /// The session's turn moved on: its questions still pending (asked before `at`) are declined.
    Decline { session_id: String, at: i64 },
}

impl Record {
    /// Scrub every free-text field of a record about to be stored: question, header, option
    /// labels and descriptions, recommended label, answer, selections, free text, notes, error.
    /// Ids, paths, session and tool fields are left alone.
    pub fn scrub(&mut self) {
        fn field(s: &mut String) {
            if let Cow::Owned(clean) = scrub(s) {
                *s = clean;
            }
        }
        fn opt(s: &mut Option<String>) {
            if let Some(s) = s {
                field(s);
            }
        }
        field(&mut self.question);
        opt(&mut self.header);
        for option in &mut self.options {
            field(&mut option.label);
            field(&mut option.description);
        }
        opt(&mut self.recommended);
        opt(&mut self.answer);
        if let Some(selections) = &mut self.selections {
            selections.iter_mut().for_each(field);
        }
        opt(&mut self.free_text);
        opt(&mut self.notes);
        opt(&mut self.error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_inside_records() {
        let mut record = Record {
            session_id: "s".into(),
            tool_use_id: "t".into(),
            question_index: 0,
            question_id: "q".into(),
            id_source: "hash".into(),
            question: "Use ghp_16C7e42F292c6912E7710c838347Ae178B4a?".into(),
            header: None,
            options: vec![StoredOption {
                label: "Paste sk-ant-api03-AbCdEf0123456789_xyz".into(),
                description: "fine".into(),
            }],
            multi_select: false,
            recommended: None,
            door_type: "two-way".into(),
            door_rule: None,
            tool_name: "AskUserQuestion".into(),
            project: None,
            cwd: Some("/home/me/ghp_project".into()),
            permission_mode: None,
            agent_id: None,
            prompt_id: None,
            outcome: Outcome::Failed,
            answer: None,
            selections: Some(vec!["token=abc123".into()]),
            free_text: None,
            notes: None,
            followed_recommendation: None,
            afk: false,
            error: Some("auth failed: password=hunter2".into()),
            asked_at: 0,
            settled_at: None,
        };
        record.scrub();
        assert_eq!(record.question, "Use [redacted:github-token]?");
        assert_eq!(
            record.error.as_deref(),
            Some("auth failed: password=[redacted:password]")
        );
        assert_eq!(
            record.selections,
            Some(vec!["token=[redacted:token]".to_owned()])
        );
        assert_eq!(record.options[0].label, "Paste [redacted:anthropic-key]");
        assert_eq!(record.options[0].description, "fine");
    }
}
