//! Standing preferences and their history, as stored: `preferences` (one value per question id
//! and scope) and `preference_events` (every change, with how it was confirmed). Scope `""` is
//! global, anything else a project root. A preference on a question family is stored under the
//! key `family:<fam-id>`, beside the ids. The hook only reads them ([`Store::preferences_for`]).

use std::collections::HashMap;

use askhook_core::policy::Preference;
use rusqlite::{params, OptionalExtension, TransactionBehavior};

use super::{Result, Store};

/// The scope value of a global preference.
pub const GLOBAL_SCOPE: &str = "";

/// One stored preference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredPreference {
    /// `""` for global, else the project root.
    pub scope: String,
    pub question_id: String,
    /// As stored (a value this binary does not know is kept as text).
    pub value: String,
    pub updated_at: i64,
}

impl StoredPreference {
    /// The value, when this binary knows it.
    pub fn preference(&self) -> Option<Preference> {
        Preference::parse(&self.value)
    }

    pub fn is_global(&self) -> bool {
        self.scope.is_empty()
    }
}

/// One recorded change of a preference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreferenceEvent {
    pub question_id: String,
    pub scope: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    pub at: i64,
    pub confirmed_by: String,
    /// What else changed: a rule's patterns.
    pub detail: Option<String>,
}

impl Store {
    /// Whether the hook has rules or family preferences to look at in `project` (one cheap
    /// statement): most logs have neither, and reading them costs more than asking.
    pub fn standing_silencers(&self, project: Option<&str>) -> Result<Silencers> {
        if !self.has_families() {
            return Ok(Silencers::default());
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM rules WHERE scope = '' OR scope = ?1),
                    EXISTS (SELECT 1 FROM preferences
                            WHERE question_id LIKE ?2 || '%' AND (scope = '' OR scope = ?1))",
        )?;
        Ok(stmt.query_row(
            params![
                project.unwrap_or(""),
                askhook_core::family::FAMILY_KEY_PREFIX
            ],
            |r| {
                Ok(Silencers {
                    rules: r.get(0)?,
                    family_preferences: r.get(1)?,
                })
            },
        )?)
    }

    /// The family preferences (global, or of `project`, which wins) whose family has kept
    /// members: `(family id, preference, members)`. Empty before schema 4 (no exemplars), and
    /// when no family has a preference — the usual case, one indexed read.
    pub fn family_preferences(
        &self,
        project: Option<&str>,
    ) -> Result<Vec<(String, Preference, Vec<askhook_core::family::Signature>)>> {
        if self.schema < super::migrations::CLUSTERS_SCHEMA {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT question_id, scope, value FROM preferences
             WHERE question_id LIKE ?1 || '%' AND (scope = '' OR scope = ?2)
             ORDER BY question_id, scope = '' DESC",
        )?;
        let rows: Vec<(String, String, String)> = stmt
            .query_map(
                params![
                    askhook_core::family::FAMILY_KEY_PREFIX,
                    project.unwrap_or("")
                ],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?
            .collect::<std::result::Result<_, _>>()?;
        let best = pick_family_preferences(rows);
        let mut out = Vec::with_capacity(best.len());
        for (family, pref) in best {
            let members = super::families::members(&self.conn, &family)?;
            if !members.is_empty() {
                out.push((family, pref, members));
            }
        }
        Ok(out)
    }

    /// How many question families the log has (0 before schema 4).
    pub fn family_count(&self) -> Result<i64> {
        if self.schema < super::migrations::CLUSTERS_SCHEMA {
            return Ok(0);
        }
        Ok(self
            .conn
            .query_row("SELECT COUNT(*) FROM families", [], |r| r.get(0))?)
    }

    /// The preferences for `ids`: a project preference wins over a global one.
    pub fn preferences_for(
        &self,
        ids: &[&str],
        project: Option<&str>,
    ) -> Result<HashMap<String, Preference>> {
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        // One statement for every id of the call (a call has at most a few questions).
        let placeholders = vec!["?"; ids.len()].join(", ");
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT question_id, scope, value FROM preferences
             WHERE scope IN ('', ?1) AND question_id IN ({placeholders})"
        ))?;
        let project = project.unwrap_or("");
        let params = std::iter::once(&project).chain(ids);
        let rows = stmt.query_map(rusqlite::params_from_iter(params), |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        let rows = rows.collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(pick_preferences(rows))
    }

    /// Set or clear (`value = None`) a preference, recording the change as an event.
    /// Returns the old value.
    pub fn set_preference(
        &mut self,
        question_id: &str,
        scope: &str,
        value: Option<Preference>,
        confirmed_by: &str,
        now_ms: i64,
    ) -> Result<Option<String>> {
        let old = self.set_preferences(&[(question_id, scope, value)], confirmed_by, now_ms)?;
        Ok(old.into_iter().next().flatten())
    }

    /// [`Store::set_preference`] for many `(question id, scope, value)` at once: one
    /// transaction, and the standing file rewritten once (it mirrors every preference, so
    /// rewriting it per change would cost the square of their number). Returns each old value.
    pub fn set_preferences(
        &mut self,
        changes: &[(&str, &str, Option<Preference>)],
        confirmed_by: &str,
        now_ms: i64,
    ) -> Result<Vec<Option<String>>> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut olds = Vec::with_capacity(changes.len());
        for &(question_id, scope, value) in changes {
            let old: Option<String> = tx
                .query_row(
                    "SELECT value FROM preferences WHERE scope = ?1 AND question_id = ?2",
                    params![scope, question_id],
                    |r| r.get(0),
                )
                .optional()?;
            match value {
                Some(v) => tx.execute(
                    "INSERT INTO preferences (scope, question_id, value, updated_at) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (scope, question_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                    params![scope, question_id, v.as_str(), now_ms],
                )?,
                None => tx.execute(
                    "DELETE FROM preferences WHERE scope = ?1 AND question_id = ?2",
                    params![scope, question_id],
                )?,
            };
            let new = value.map(Preference::as_str);
            if old.as_deref() != new {
                tx.execute(
                    "INSERT INTO preference_events (question_id, scope, old_value, new_value, at, confirmed_by)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![question_id, scope, old, new, now_ms, confirmed_by],
                )?;
            }
            olds.push(old);
        }
        super::standing::invalidate(&self.path)?;
        tx.commit()?;
        self.refresh_standing_quietly();
        Ok(olds)
    }

    /// Every stored preference, by question id then scope.
    pub fn all_preferences(&self) -> Result<Vec<StoredPreference>> {
        let mut stmt = self.conn.prepare(
            "SELECT scope, question_id, value, updated_at FROM preferences ORDER BY question_id, scope",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(StoredPreference {
                scope: r.get(0)?,
                question_id: r.get(1)?,
                value: r.get(2)?,
                updated_at: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The global preference for `id`, if any (and known to this binary).
    pub fn global_preference(&self, id: &str) -> Result<Option<Preference>> {
        let value: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM preferences WHERE scope = ?1 AND question_id = ?2",
                [GLOBAL_SCOPE, id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(value.as_deref().and_then(Preference::parse))
    }

    /// Every change made to preferences (of `id`, when given), oldest first.
    pub fn preference_history(&self, id: Option<&str>) -> Result<Vec<PreferenceEvent>> {
        let detail = if self.has_families() {
            "detail"
        } else {
            "NULL"
        };
        let mut stmt = self.conn.prepare(&format!(
            "SELECT question_id, scope, old_value, new_value, at, confirmed_by, {detail}
             FROM preference_events WHERE ?1 IS NULL OR question_id = ?1 ORDER BY at, id"
        ))?;
        let rows = stmt.query_map([id], |r| {
            Ok(PreferenceEvent {
                question_id: r.get(0)?,
                scope: r.get(1)?,
                old_value: r.get(2)?,
                new_value: r.get(3)?,
                at: r.get(4)?,
                confirmed_by: r.get(5)?,
                detail: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// The preference of each id among `(id, scope, value)` rows already limited to the ids and
/// scopes that apply: a project preference beats a global one; a value this binary does not
/// know is skipped.
pub fn pick_preferences(
    rows: impl IntoIterator<Item = (String, String, String)>,
) -> HashMap<String, Preference> {
    let mut best: HashMap<String, (bool, Preference)> = HashMap::new();
    for (id, scope, value) in rows {
        let Some(pref) = Preference::parse(&value) else {
            continue;
        };
        let is_project = !scope.is_empty();
        match best.get(&id) {
            Some((was_project, _)) if *was_project || !is_project => {}
            _ => {
                best.insert(id, (is_project, pref));
            }
        }
    }
    best.into_iter().map(|(id, (_, pref))| (id, pref)).collect()
}

/// The family preferences among `(key, scope, value)` rows of `family:` keys already limited
/// to the scopes that apply, by family id: a project preference beats a global one.
pub fn pick_family_preferences(
    mut rows: Vec<(String, String, String)>,
) -> Vec<(String, Preference)> {
    // Global first within a key: the last one seen (the project's) wins.
    rows.sort_by(|a, b| (&a.0, !a.1.is_empty()).cmp(&(&b.0, !b.1.is_empty())));
    let mut best: Vec<(String, Preference)> = Vec::new();
    for (key, _, value) in rows {
        let (Some(family), Some(pref)) = (
            askhook_core::family::family_of_key(&key),
            Preference::parse(&value),
        ) else {
            continue;
        };
        match best.last_mut() {
            Some((f, p)) if f == family => *p = pref,
            _ => best.push((family.to_owned(), pref)),
        }
    }
    best
}

/// What besides a question's own preference could silence it ([`Store::standing_silencers`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Silencers {
    pub rules: bool,
    pub family_preferences: bool,
}
