//! Rules as stored: `rules` (name, scope, value) and `rule_patterns` (each pattern with the
//! literals its prefilter needs, `\x1f`-separated). Every change is recorded in
//! `preference_events` under `rule:<name>`, with the patterns as the event's detail. The hook
//! only reads them ([`Store::rules_for`]), and only from a database at schema 3 or later.

use askhook_core::policy::Preference;
use rusqlite::{params, OptionalExtension, TransactionBehavior};

use crate::rules::{Field, Pattern, Rule};

use super::{Result, Store};

/// The key a rule's changes are recorded under in the preference history.
pub fn history_key(name: &str) -> String {
    format!("rule:{name}")
}

/// A rule's patterns as one line for the history and the lists: `question=/…/ option=/…/`.
pub fn describe(patterns: &[Pattern]) -> String {
    patterns
        .iter()
        .map(|p| format!("{}=/{}/", p.field.as_str(), p.pattern))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One stored rule with its times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRule {
    pub rule: Rule,
    /// As stored (a value this binary does not know is kept as text).
    pub value: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const SELECT: &str = "SELECT r.name, r.scope, r.value, r.created_at, r.updated_at,
            p.field, p.pattern, p.needs
     FROM rules r LEFT JOIN rule_patterns p ON p.rule = r.name";

/// Fold the joined rows (ordered by name, then position) into rules.
pub(super) fn collect(
    rows: impl Iterator<Item = rusqlite::Result<RawRule>>,
) -> Result<Vec<StoredRule>> {
    let mut out: Vec<StoredRule> = Vec::new();
    for row in rows {
        let raw = row?;
        if out.last().is_none_or(|r| r.rule.name != raw.name) {
            out.push(StoredRule {
                rule: Rule {
                    name: raw.name.clone(),
                    scope: raw.scope.clone(),
                    value: Preference::parse(&raw.value),
                    patterns: Vec::new(),
                },
                value: raw.value.clone(),
                created_at: raw.created_at,
                updated_at: raw.updated_at,
            });
        }
        if let (Some(field), Some(pattern), Some(needs)) = (raw.field, raw.pattern, raw.needs) {
            let last = out.last_mut().expect("pushed above");
            push_pattern(&mut last.rule, &field, pattern, &needs);
        }
    }
    Ok(out)
}

/// Add a stored pattern (`needs` as stored, `\x1f`-separated) to `rule`. A field this binary
/// does not know (a newer one's): the rule is read without that pattern, so it may match more,
/// and applies `always-ask` (asks more, never less).
pub(super) fn push_pattern(rule: &mut Rule, field: &str, pattern: String, needs: &str) {
    let Some(field) = Field::parse(field) else {
        rule.value = None;
        return;
    };
    rule.patterns.push(Pattern {
        field,
        pattern,
        needs: needs
            .split('\u{1f}')
            .filter(|n| !n.is_empty())
            .map(str::to_owned)
            .collect(),
    });
}

/// One joined row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRule {
    pub name: String,
    pub scope: String,
    pub value: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub field: Option<String>,
    pub pattern: Option<String>,
    pub needs: Option<String>,
}

/// Every rule row joined with its patterns, by name then position (schema 3 or later).
pub(super) fn read_all_raw(conn: &rusqlite::Connection) -> Result<Vec<RawRule>> {
    let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY r.name, p.position"))?;
    let rows = stmt.query_map([], raw)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn raw(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRule> {
    Ok(RawRule {
        name: r.get(0)?,
        scope: r.get(1)?,
        value: r.get(2)?,
        created_at: r.get(3)?,
        updated_at: r.get(4)?,
        field: r.get(5)?,
        pattern: r.get(6)?,
        needs: r.get(7)?,
    })
}

impl Store {
    /// The rules that apply in `project` (global ones and that project's), by name. Empty
    /// for a database older than rules.
    pub fn rules_for(&self, project: Option<&str>) -> Result<Vec<Rule>> {
        if !self.has_families() {
            return Ok(Vec::new());
        }
        let mut stmt = self.conn.prepare_cached(&format!(
            "{SELECT} WHERE r.scope = '' OR r.scope = ?1 ORDER BY r.name, p.position"
        ))?;
        let rows = stmt.query_map([project.unwrap_or("")], raw)?;
        Ok(collect(rows)?.into_iter().map(|s| s.rule).collect())
    }

    /// Every rule, by name.
    pub fn all_rules(&self) -> Result<Vec<StoredRule>> {
        if !self.has_families() {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(&format!("{SELECT} ORDER BY r.name, p.position"))?;
        let rows = stmt.query_map([], raw)?;
        collect(rows)
    }

    /// One rule by name.
    pub fn rule(&self, name: &str) -> Result<Option<StoredRule>> {
        Ok(self.all_rules()?.into_iter().find(|r| r.rule.name == name))
    }

    /// Add or replace a rule (value `None`: remove it), recording the change with how it was
    /// confirmed. Returns the rule it replaced.
    pub fn put_rule(
        &mut self,
        name: &str,
        rule: Option<&Rule>,
        confirmed_by: &str,
        now_ms: i64,
    ) -> Result<Option<StoredRule>> {
        let old = self.rule(name)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let created: Option<i64> = tx
            .query_row(
                "SELECT created_at FROM rules WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?;
        tx.execute("DELETE FROM rule_patterns WHERE rule = ?1", [name])?;
        tx.execute("DELETE FROM rules WHERE name = ?1", [name])?;
        if let Some(rule) = rule {
            let value = rule.value.map_or("always-ask", Preference::as_str);
            tx.execute(
                "INSERT INTO rules (name, scope, value, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![name, rule.scope, value, created.unwrap_or(now_ms), now_ms],
            )?;
            for (position, p) in rule.patterns.iter().enumerate() {
                tx.execute(
                    "INSERT INTO rule_patterns (rule, position, field, pattern, needs) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![name, position as i64, p.field.as_str(), p.pattern, p.needs.join("\u{1f}")],
                )?;
            }
        }
        let scope = rule
            .map(|r| r.scope.clone())
            .or_else(|| old.as_ref().map(|o| o.rule.scope.clone()))
            .unwrap_or_default();
        tx.execute(
            "INSERT INTO preference_events (question_id, scope, old_value, new_value, at, confirmed_by, detail)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                history_key(name),
                scope,
                old.as_ref().map(|o| o.value.clone()),
                rule.map(|r| r.value.map_or("always-ask", Preference::as_str)),
                now_ms,
                confirmed_by,
                rule.map(|r| describe(&r.patterns)),
            ],
        )?;
        super::standing::invalidate(&self.path)?;
        tx.commit()?;
        self.refresh_standing_quietly();
        Ok(old)
    }
}
