//! The question registry: recurring questions of coding agents with their door types, embedded
//! at build time (`build.rs` turns `registry/questions.json` into static tables), plus the
//! entries of an optional user registry file, given here as text (the binary reads the file).
//!
//! ## Files
//! Both files have the shape `{"questions": [{"id", "skill", "category", "door_type",
//! "options", "signal_key", "description"}]}`. Ids are kebab-case (`[a-z0-9]+(-[a-z0-9]+)*`,
//! at most 64 bytes), `door_type` is `one-way` or `two-way`, `category` is one of
//! [`CATEGORIES`]. A user entry may also carry `"i_know": true` and `"added_at"` (RFC 3339).
//!
//! ## Only raising safety
//! - A user entry may mark any id one-way; that always takes effect.
//! - A user entry that marks an id the embedded registry calls one-way as two-way takes effect
//!   only with `"i_know": true`, which `askhook registry add ID --door two-way --i-know` writes.
//!   Without it the entry is ignored for that id, `registry check` warns, and
//!   [`Registry::overrides`] reports it as not honoured (for `doctor`).
//! - An entry with an unknown `door_type` counts as one-way when loading (and is an error for
//!   `registry check`): a typo never lowers safety.
//! - The hook still combines the registry with the classifier (`policy::door_of`): an id the
//!   registry calls two-way is still one-way when its text reads destructive.
//!
//! ## Performance
//! The hook looks an id up in a fresh process for every event: one binary search over a static
//! table, no parsing. The user file is one `read` when it exists.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::Serialize;
use serde_json::Value;

use crate::classify::Door;

/// The categories a registry entry may have.
pub const CATEGORIES: &[&str] = &[
    "general",
    "git",
    "github",
    "testing",
    "dependencies",
    "style",
    "build",
    "ci",
    "deploy",
    "release",
    "database",
    "infra",
    "security",
    "communication",
    "files",
    "config",
    "docs",
    "workflow",
    "architecture",
];

/// One entry of the embedded registry, as `build.rs` wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Embedded {
    /// Whose registry: `askhook` (`registry/questions.json`) or `gstack` (`registry/gstack.json`).
    pub origin: &'static str,
    pub id: &'static str,
    pub skill: &'static str,
    pub category: &'static str,
    pub door: Door,
    pub options: &'static [&'static str],
    pub signal_key: &'static str,
    pub description: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/registry.rs"));

/// The embedded entry of `id`.
pub fn embedded_entry(id: &str) -> Option<&'static Embedded> {
    let at = BY_ID.binary_search_by(|(key, _)| (*key).cmp(id)).ok()?;
    EMBEDDED.get(usize::from(BY_ID[at].1))
}

/// The embedded door of `id`: the hook's path. An id gstack has not registered is still one-way
/// when it belongs to a skill whose approvals gstack treats as one-way (`cso-…`,
/// `land-and-deploy-…`): askhook cannot see the category, so it takes every such id as one.
pub fn embedded_door(id: &str) -> Option<Door> {
    embedded_entry(id).map(|e| e.door).or_else(|| {
        ONE_WAY_APPROVAL_SKILLS
            .iter()
            .any(|skill| {
                id.strip_prefix(skill)
                    .is_some_and(|rest| rest.starts_with('-'))
            })
            .then_some(Door::OneWay)
    })
}

/// Whether `id` is one gstack always asks, whatever is stored: a split chain's per-option
/// question (`plan-ceo-review-split-add-cache`), whose Include/Defer/Cut/Hold answer is the
/// user's call each time.
pub fn is_always_asked(id: &str) -> bool {
    ALWAYS_ASK_INFIXES.iter().any(|infix| id.contains(infix))
}

/// Where an entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    #[default]
    Embedded,
    User,
}

/// One registry entry, embedded or from the user's file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: String,
    pub skill: Option<String>,
    pub category: Option<String>,
    pub door_type: Door,
    pub options: Vec<String>,
    pub signal_key: Option<String>,
    pub description: Option<String>,
    /// Written by `registry add --i-know`: lets a user entry lower an embedded one-way door.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub i_know: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub added_at: Option<String>,
    #[serde(skip)]
    pub source: Source,
}

impl From<&Embedded> for Entry {
    fn from(e: &Embedded) -> Entry {
        Entry {
            id: e.id.to_owned(),
            skill: Some(e.skill.to_owned()),
            category: Some(e.category.to_owned()),
            door_type: e.door,
            options: e.options.iter().map(|o| (*o).to_owned()).collect(),
            signal_key: Some(e.signal_key.to_owned()),
            description: Some(e.description.to_owned()),
            i_know: false,
            added_at: None,
            source: Source::Embedded,
        }
    }
}

/// A user entry that disagrees with the embedded registry about an id's door.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Override {
    pub id: String,
    pub embedded: Door,
    pub user: Door,
    pub i_know: bool,
    /// Whether the user entry takes effect (raising always does; lowering needs `i_know`).
    pub honoured: bool,
}

/// The embedded registry merged with the user's.
#[derive(Debug, Default)]
pub struct Registry {
    user: Vec<Entry>,
    user_file: Option<PathBuf>,
    warnings: Vec<String>,
    merged: OnceLock<Vec<Entry>>,
}

impl Registry {
    /// The embedded registry plus a user registry given as text. Only invalid JSON or a missing
    /// `questions` array is an error; whatever else can be understood is kept.
    pub fn with_user_text(text: &str) -> Result<Registry, String> {
        let (user, warnings) = parse_user(text)?;
        Ok(Registry {
            user,
            user_file: None,
            warnings,
            merged: OnceLock::new(),
        })
    }

    /// The same registry, noting the file its user entries were read from.
    #[must_use]
    pub fn read_from(mut self, file: &Path) -> Registry {
        self.user_file = Some(file.to_path_buf());
        self
    }

    /// The embedded registry alone.
    pub fn embedded() -> Registry {
        Registry::default()
    }

    /// The door type the registry knows for `id`. A user entry can raise it to one-way; it can
    /// lower an embedded one-way door only with `i_know`.
    pub fn door(&self, id: &str) -> Option<Door> {
        let mut user_one = false;
        let mut user_two = false;
        let mut user_two_i_know = false;
        for e in self.user.iter().filter(|e| e.id == id) {
            match e.door_type {
                Door::OneWay | Door::Unknown => user_one = true,
                Door::TwoWay => {
                    user_two = true;
                    user_two_i_know |= e.i_know;
                }
            }
        }
        if user_one {
            return Some(Door::OneWay);
        }
        if self.user.is_empty() || !user_two {
            return embedded_door(id);
        }
        match embedded_door(id) {
            Some(Door::OneWay) if !user_two_i_know => Some(Door::OneWay),
            _ => Some(Door::TwoWay),
        }
    }

    /// Every id once, embedded order first then user-only ids, with its effective door. An
    /// id's fields come from the user entry when that entry takes effect.
    pub fn entries(&self) -> &[Entry] {
        self.merged.get_or_init(|| {
            let embedded: Vec<Entry> = EMBEDDED.iter().map(Entry::from).collect();
            let mut out: Vec<Entry> = Vec::new();
            let mut seen: HashSet<&str> = HashSet::new();
            for e in embedded.iter().chain(self.user.iter()) {
                if !seen.insert(e.id.as_str()) {
                    continue;
                }
                let door = self.door(&e.id).unwrap_or(e.door_type);
                let user = self.user.iter().rev().find(|u| u.id == e.id);
                let mut entry = match user {
                    Some(u) if Self::user_counts(u) => u.clone(),
                    _ => e.clone(),
                };
                entry.door_type = door;
                out.push(entry);
            }
            out
        })
    }

    /// The last user entry for `id`, whether or not it takes effect.
    pub fn user_entry(&self, id: &str) -> Option<&Entry> {
        self.user.iter().rev().find(|u| u.id == id)
    }

    /// Whether a user entry takes effect (it does unless it lowers an embedded one-way door
    /// without `i_know`).
    fn user_counts(u: &Entry) -> bool {
        !(u.door_type == Door::TwoWay && !u.i_know && embedded_door(&u.id) == Some(Door::OneWay))
    }

    /// The user entries that disagree with the embedded registry, honoured or not. `doctor`
    /// shows these: a lowered one-way door is something a person should know about.
    pub fn overrides(&self) -> Vec<Override> {
        self.user
            .iter()
            .filter_map(|u| {
                let embedded = embedded_door(&u.id)?;
                (embedded != u.door_type).then(|| Override {
                    id: u.id.clone(),
                    embedded,
                    user: u.door_type,
                    i_know: u.i_know,
                    honoured: Self::user_counts(u),
                })
            })
            .collect()
    }

    /// Problems found while reading the user file (entries skipped or read as one-way).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The user file that was read, if any.
    pub fn user_file(&self) -> Option<&Path> {
        self.user_file.as_deref()
    }

    /// `embedded`, `user` or `embedded+user`.
    pub fn source_of(&self, id: &str) -> &'static str {
        match (
            embedded_entry(id).is_some(),
            self.user.iter().any(|u| u.id == id),
        ) {
            (true, true) => "embedded+user",
            (false, true) => "user",
            _ => "embedded",
        }
    }
}

/// Read a user registry tolerantly: whatever can be understood is kept, an unknown door type
/// reads as one-way. Only invalid JSON or a missing `questions` array is an error.
fn parse_user(text: &str) -> Result<(Vec<Entry>, Vec<String>), String> {
    let root: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let list = root
        .get("questions")
        .and_then(Value::as_array)
        .ok_or("no `questions` array at the top level")?;
    let mut entries = Vec::with_capacity(list.len());
    let mut warnings = Vec::new();
    let text_of = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    for (index, item) in list.iter().enumerate() {
        let Some(id) = text_of(item, "id") else {
            warnings.push(format!("questions[{index}] has no string `id`; skipped"));
            continue;
        };
        let door = if let Some(door) = item
            .get("door_type")
            .and_then(Value::as_str)
            .and_then(registry_door)
        {
            door
        } else {
            warnings.push(format!("`{id}` has no valid door_type; read as one-way"));
            Door::OneWay
        };
        entries.push(Entry {
            skill: text_of(item, "skill"),
            category: text_of(item, "category"),
            door_type: door,
            options: item
                .get("options")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|o| o.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default(),
            signal_key: text_of(item, "signal_key"),
            description: text_of(item, "description"),
            i_know: item.get("i_know").and_then(Value::as_bool).unwrap_or(false),
            added_at: text_of(item, "added_at"),
            source: Source::User,
            id,
        });
    }
    Ok((entries, warnings))
}

/// A registry file's `door_type`: `one-way` or `two-way` (a registry never says `unknown`).
pub fn registry_door(text: &str) -> Option<Door> {
    Door::parse(text).filter(|d| *d != Door::Unknown)
}

mod id;
#[cfg(test)]
mod tests;

pub use id::is_kebab_id;
