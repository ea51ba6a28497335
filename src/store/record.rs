//! The writes askhook makes, as plain serialisable values: the hook builds them, the store
//! applies them, and the spool keeps them (one JSON line each) when the database is busy.

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
