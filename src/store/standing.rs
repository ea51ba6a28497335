//! The standing preferences — every stored preference, every rule, and the kept members of the
//! families that have a preference — mirrored in one file beside the database
//! (`<db>.standing`), so the hook can decide a question without opening SQLite (opening it
//! parses the whole schema: most of a hook run). The database stays the truth; the file is
//! what the hook reads, written by the CLI, and by a hook that had to open the database and
//! found the file missing (a database a hook created).
//!
//! ## Never stale
//! The file may be missing (the hook then reads the database, as it always could), but it must
//! never say something the database no longer does. So:
//! - every change to what it mirrors deletes the file *inside* its write transaction, before
//!   the commit ([`invalidate`]): a crash anywhere after leaves no file, never an old one;
//! - the file is (re)written only while holding the database's write lock (an `IMMEDIATE`
//!   transaction that reads what it mirrors, writes the file, and ends without writing):
//!   a change cannot commit between the read and the rename, so a writer that read the old
//!   state always renames before the change's delete, never after.
//!
//! The CLI refreshes the file whenever it opens the log for writing and after each change;
//! it is rewritten only when its bytes would differ. Every writer follows the same protocol.
//!
//! ## Format
//! One JSON object: `format` (this module's [`FORMAT`]; another value makes the hook read the
//! database), then the rows as SQL returns them (a rule's patterns grouped under it), so the
//! same code folds them
//! ([`super::prefs::pick_preferences`], [`super::rules`]): `preferences` as
//! `[scope, key, value]`, `rules` as `[name, scope, value, [[field, pattern, needs], …]]`
//! (read by the same [`super::rules::push_pattern`]), `members` as
//! `[family, question, header, options-json]`.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use askhook_core::family::{family_of_key, Signature, FAMILY_KEY_PREFIX};
use askhook_core::policy::Preference;
use rusqlite::{Connection, TransactionBehavior};
use serde::{Deserialize, Serialize};

use crate::rules::Rule;
use crate::sys::fsutil;

use super::prefs::{pick_family_preferences, pick_preferences, Silencers};
use super::rules::{push_pattern, RawRule};
use super::{families, migrations, Result, Store};

/// The version of the file's layout this binary reads and writes (2: rules grouped, without
/// their times; the hook parses a quarter of the bytes of format 1 for the same rules).
pub const FORMAT: u32 = 2;

/// The largest file the hook reads (far above any real set of preferences).
const MAX_BYTES: u64 = 16 << 20;

pub use crate::sys::paths::standing_for as path_for;

/// The standing preferences as the hook reads them.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub format: u32,
    /// `[scope, key, value]`: a question id or `family:<id>`, `""` for global.
    pub preferences: Vec<(String, String, String)>,
    /// Every rule, by name.
    pub rules: Vec<RuleCopy>,
    /// `[family, question, header, options-json]` of every family that has a preference.
    pub members: Vec<(String, String, Option<String>, String)>,
}

/// A rule as the file keeps it: `[name, scope, value, [[field, pattern, needs], …]]`, each
/// column as stored (`needs` `\x1f`-separated), patterns in order.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleCopy(
    pub String,
    pub String,
    pub String,
    pub Vec<(String, String, String)>,
);

impl RuleCopy {
    fn scope(&self) -> &str {
        &self.1
    }

    /// Group the joined rows (ordered by name, then position) by rule.
    fn group(rows: Vec<RawRule>) -> Vec<RuleCopy> {
        let mut out: Vec<RuleCopy> = Vec::new();
        for raw in rows {
            if out.last().is_none_or(|r| r.0 != raw.name) {
                out.push(RuleCopy(raw.name, raw.scope, raw.value, Vec::new()));
            }
            if let (Some(field), Some(pattern), Some(needs)) = (raw.field, raw.pattern, raw.needs) {
                out.last_mut()
                    .expect("pushed above")
                    .3
                    .push((field, pattern, needs));
            }
        }
        out
    }

    /// The rule, read as [`Store::rules_for`] reads it.
    fn rule(&self) -> Rule {
        let RuleCopy(name, scope, value, patterns) = self;
        let mut rule = Rule {
            name: name.clone(),
            scope: scope.clone(),
            value: Preference::parse(value),
            patterns: Vec::with_capacity(patterns.len()),
        };
        for (field, pattern, needs) in patterns {
            push_pattern(&mut rule, field, pattern.clone(), needs);
        }
        rule
    }
}

/// What the hook found beside the database.
#[derive(Debug)]
pub enum Loaded {
    /// The file, read and understood.
    Standing(Standing),
    /// No database yet, hence no preference at all.
    NoDatabase,
    /// The file is missing (or from another version): read the database.
    Missing,
}

/// Read the file beside `db` (the hook). An unreadable or damaged file is an error (the caller
/// logs it and reads the database).
pub fn load(db: &Path) -> io::Result<Loaded> {
    let path = path_for(db);
    let bytes = match fsutil::read_regular(&path, MAX_BYTES) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(if db.exists() {
                Loaded::Missing
            } else {
                Loaded::NoDatabase
            });
        }
        Err(e) => return Err(e),
    };
    let standing: Standing = serde_json::from_slice(&bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is damaged ({e})", path.display()),
        )
    })?;
    Ok(if standing.format == FORMAT {
        Loaded::Standing(standing)
    } else {
        Loaded::Missing
    })
}

/// Delete the file beside `db`: called inside every transaction that changes what it mirrors,
/// before the commit. An error must abort that transaction.
pub fn invalidate(db: &Path) -> Result<()> {
    match std::fs::remove_file(path_for(db)) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e.into()),
        _ => Ok(()),
    }
}

impl Standing {
    /// Read what the file mirrors from `conn` (at the latest schema).
    fn read(conn: &Connection) -> Result<Standing> {
        let preferences = conn
            .prepare(
                "SELECT scope, question_id, value FROM preferences ORDER BY question_id, scope",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let rules = RuleCopy::group(super::rules::read_all_raw(conn)?);
        let members = conn
            .prepare(
                "SELECT m.family, m.question, m.header, m.options FROM family_members m
                 WHERE m.family IN (SELECT substr(question_id, length(?1) + 1) FROM preferences
                                    WHERE question_id LIKE ?1 || '%')
                 ORDER BY m.family, m.question_id",
            )?
            .query_map([FAMILY_KEY_PREFIX], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Standing {
            format: FORMAT,
            preferences,
            rules,
            members,
        })
    }

    /// [`Store::preferences_for`] on the mirrored rows.
    pub fn preferences_for(
        &self,
        ids: &[&str],
        project: Option<&str>,
    ) -> HashMap<String, Preference> {
        let project = project.unwrap_or("");
        pick_preferences(
            self.preferences
                .iter()
                .filter(|(scope, key, _)| {
                    (scope.is_empty() || scope == project) && ids.contains(&key.as_str())
                })
                .map(|(scope, key, value)| (key.clone(), scope.clone(), value.clone())),
        )
    }

    /// [`Store::standing_silencers`] on the mirrored rows.
    pub fn silencers(&self, project: Option<&str>) -> Silencers {
        let project = project.unwrap_or("");
        let in_scope = |scope: &str| scope.is_empty() || scope == project;
        Silencers {
            rules: self.rules.iter().any(|r| in_scope(r.scope())),
            family_preferences: self
                .preferences
                .iter()
                .any(|(scope, key, _)| in_scope(scope) && key.starts_with(FAMILY_KEY_PREFIX)),
        }
    }

    /// [`Store::family_preferences`] on the mirrored rows.
    pub fn family_preferences(
        &self,
        project: Option<&str>,
    ) -> Vec<(String, Preference, Vec<Signature>)> {
        let project = project.unwrap_or("");
        let rows = self
            .preferences
            .iter()
            .filter(|(scope, key, _)| {
                (scope.is_empty() || scope == project) && family_of_key(key).is_some()
            })
            .map(|(scope, key, value)| (key.clone(), scope.clone(), value.clone()))
            .collect();
        pick_family_preferences(rows)
            .into_iter()
            .filter_map(|(family, pref)| {
                let members: Vec<Signature> = self
                    .members
                    .iter()
                    .filter(|(f, ..)| *f == family)
                    .map(|(_, question, header, options)| {
                        families::signature_of(question, header.as_deref(), options)
                    })
                    .collect();
                (!members.is_empty()).then_some((family, pref, members))
            })
            .collect()
    }

    /// [`Store::rules_for`] on the mirrored rows.
    pub fn rules_for(&self, project: Option<&str>) -> Result<Vec<Rule>> {
        let project = project.unwrap_or("");
        Ok(self
            .rules
            .iter()
            .filter(|r| r.scope().is_empty() || r.scope() == project)
            .map(RuleCopy::rule)
            .collect())
    }
}

impl Store {
    /// Rewrite the file beside the database when it would differ from what the database says
    /// (see the module doc for why under the write lock). A database older than the latest
    /// schema gets no file: the hook reads it directly.
    pub fn refresh_standing(&mut self) -> Result<()> {
        let path = self.path.clone();
        if self.schema < migrations::latest() {
            return invalidate(&path);
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let standing = Standing::read(&tx)?;
        let bytes = serde_json::to_vec(&standing).map_err(io::Error::other)?;
        let file = path_for(&path);
        if fsutil::read_regular(&file, MAX_BYTES).ok().as_deref() != Some(bytes.as_slice()) {
            fsutil::atomic_write(&file, &bytes)?;
        }
        // Nothing was written in the transaction: rolling back only releases the lock.
        tx.rollback()?;
        Ok(())
    }
}
