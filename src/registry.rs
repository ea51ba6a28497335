//! The question registry: recurring questions of coding agents with their door types, embedded
//! from `registry/questions.json` at build time, plus an optional user registry file that can
//! add entries and raise safety. (Placeholder; the full registry replaces it.)

use std::path::Path;

use serde::Deserialize;

use crate::classify::Door;

const EMBEDDED: &str = include_str!("../registry/questions.json");

/// One registry entry.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    pub id: String,
    #[serde(default)]
    pub skill: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
    pub door_type: Door,
    #[serde(default)]
    pub options: Vec<String>,
    #[serde(default)]
    pub signal_key: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
}

#[derive(Debug, Deserialize)]
struct File {
    questions: Vec<Entry>,
}

/// The embedded registry merged with the user's.
#[derive(Debug, Default)]
pub struct Registry {
    entries: Vec<Entry>,
}

impl Registry {
    /// The embedded registry plus `user_file` when it exists.
    pub fn load(user_file: &Path) -> Result<Registry, String> {
        let mut entries = serde_json::from_str::<File>(EMBEDDED)
            .map_err(|e| e.to_string())?
            .questions;
        if let Ok(text) = std::fs::read_to_string(user_file) {
            let user: File =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", user_file.display()))?;
            entries.extend(user.questions);
        }
        Ok(Registry { entries })
    }

    /// The embedded registry alone.
    pub fn embedded() -> Registry {
        Registry {
            entries: serde_json::from_str::<File>(EMBEDDED)
                .map(|f| f.questions)
                .unwrap_or_default(),
        }
    }

    /// The door type the registry knows for `id`: one-way if any source says so.
    pub fn door(&self, id: &str) -> Option<Door> {
        let mut doors = self
            .entries
            .iter()
            .filter(|e| e.id == id)
            .map(|e| e.door_type);
        let first = doors.next()?;
        Some(
            if first == Door::OneWay || doors.any(|d| d == Door::OneWay) {
                Door::OneWay
            } else {
                Door::TwoWay
            },
        )
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

/// `askhook registry list | show | add | check`.
pub fn run(
    _command: &crate::cli::RegistryCommand,
    _ctx: &crate::Context,
) -> crate::error::Result<std::process::ExitCode> {
    Err(crate::error::Error::Refused(
        "`askhook registry` is not available in this build yet".into(),
    ))
}
