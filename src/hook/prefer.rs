//! Which standing preference applies to each question of a call: the one on its id, else on its
//! family, else the rules that match it (`policy::resolve` decides between them). Reads the
//! hook's copy of the standing preferences ([`crate::store::standing`]), else the store;
//! compiles a rule's patterns only for a question that could need them.
//!
//! The call is all-or-nothing, so the walk stops at the first question that cannot be
//! auto-decided (nothing silencing applies, or not a two-way door): the rest are left
//! unresolved, and no rule is evaluated for them. A question's door is asked for (and so
//! classified) only once a preference that silences it is found.

use std::cell::OnceCell;
use std::collections::HashMap;

use askhook_core::classify::Door;
use askhook_core::family::{same_decision, Signature, FAMILY_KEY_PREFIX};
use askhook_core::policy::{self, Preference, Resolved};
use askhook_core::question::Question;

use crate::rules::{Matcher, Rule};
use crate::store::prefs::Silencers;
use crate::store::standing::Standing;
use crate::store::{self, Store};

/// Where the standing preferences are read from.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// The copy beside the database (no SQLite opened).
    Copy(&'a Standing),
    /// The database itself.
    Store(&'a Store),
    /// Nothing stored yet: no preference applies.
    Nothing,
}

impl Source<'_> {
    fn preferences_for(
        self,
        ids: &[&str],
        project: Option<&str>,
    ) -> store::Result<HashMap<String, Preference>> {
        match self {
            Source::Copy(s) => Ok(s.preferences_for(ids, project)),
            Source::Store(s) => s.preferences_for(ids, project),
            Source::Nothing => Ok(HashMap::new()),
        }
    }

    fn silencers(self, project: Option<&str>) -> store::Result<Silencers> {
        match self {
            Source::Copy(s) => Ok(s.silencers(project)),
            Source::Store(s) => s.standing_silencers(project),
            Source::Nothing => Ok(Silencers::default()),
        }
    }

    fn family_preferences(
        self,
        project: Option<&str>,
    ) -> store::Result<Vec<(String, Preference, Vec<Signature>)>> {
        match self {
            Source::Copy(s) => Ok(s.family_preferences(project)),
            Source::Store(s) => s.family_preferences(project),
            Source::Nothing => Ok(Vec::new()),
        }
    }

    fn rules_for(self, project: Option<&str>) -> store::Result<Vec<Rule>> {
        match self {
            Source::Copy(s) => s.rules_for(project),
            Source::Store(s) => s.rules_for(project),
            Source::Nothing => Ok(Vec::new()),
        }
    }
}

/// The preference that applies to each question (`None`: none, or not looked at because an
/// earlier question already makes the call ask the human).
pub fn for_call(
    store: Source<'_>,
    questions: &[Question],
    door: &dyn Fn(usize) -> Door,
    project: Option<&str>,
    errors: &mut Vec<String>,
) -> Vec<Option<Resolved>> {
    let mut out = vec![None; questions.len()];
    let mut keys: Vec<String> = questions.iter().map(|q| q.id.clone()).collect();
    keys.extend(questions.iter().filter_map(family_key));
    let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
    let prefs = match store.preferences_for(&keys, project) {
        Ok(p) => p,
        Err(e) => {
            errors.push(format!("reading preferences failed: {e}; asking the human"));
            return out;
        }
    };
    // Rules and family preferences are read only when some exist (most logs have neither).
    let others = store.silencers(project).unwrap_or_else(|e| {
        errors.push(format!("reading rules and family preferences failed: {e}"));
        Silencers::default()
    });
    // Read and matched only for the first question with no preference of its own; one matcher
    // for the call, so a pattern is compiled at most once.
    let rules: OnceCell<Vec<Rule>> = OnceCell::new();
    // Family preferences whose exemplar may catch a reworded question: read only for a
    // question with no preference on its id or hash family (usually none exist).
    let families: OnceCell<Vec<(String, Preference, Vec<Signature>)>> = OnceCell::new();
    let mut matcher: Option<Matcher<'_>> = None;
    for (i, q) in questions.iter().enumerate() {
        let resolved = own(&prefs, q)
            .or_else(|| {
                if !others.family_preferences {
                    return None;
                }
                let families = families.get_or_init(|| {
                    store.family_preferences(project).unwrap_or_else(|e| {
                        errors.push(format!("reading family preferences failed: {e}"));
                        Vec::new()
                    })
                });
                reworded(families, q)
            })
            .or_else(|| {
                if !others.rules {
                    return None;
                }
                let matcher = matcher.get_or_insert_with(|| {
                    Matcher::new(rules.get_or_init(|| load_rules(store, project, errors)))
                });
                policy::resolve(None, None, &matcher.matching(q))
            });
        let silences = resolved.as_ref().is_some_and(|r| r.preference.silences());
        out[i] = resolved;
        // Classified only now, and only because a preference would answer for the user.
        if !silences || door(i) != Door::TwoWay {
            break;
        }
    }
    if let Some(broken) = matcher.map(|m| m.broken).filter(|b| !b.is_empty()) {
        errors.push(format!(
            "rule(s) {} have a pattern that does not compile; they count as always-ask (askhook rule list)",
            broken.join(", ")
        ));
    }
    out
}

/// The family preference every kept member of which the matcher calls the same decision as `q`
/// (a question with a family, so unmarked). Several that disagree: none (the human is asked).
fn reworded(families: &[(String, Preference, Vec<Signature>)], q: &Question) -> Option<Resolved> {
    if families.is_empty() || q.family.is_none() {
        return None;
    }
    let signature = Signature::new(&q.text, q.header.as_deref(), &q.options);
    let mut found: Option<Preference> = None;
    for (_, pref, members) in families {
        if !members.iter().all(|m| same_decision(m, &signature).same) {
            continue;
        }
        match found {
            Some(p) if p != *pref => return None,
            _ => found = Some(*pref),
        }
    }
    policy::resolve(None, found, &[])
}

/// `family:<id>` of a question with a family.
pub fn family_key(q: &Question) -> Option<String> {
    q.family.as_ref().map(|f| format!("{FAMILY_KEY_PREFIX}{f}"))
}

/// The preference set on the question's id, else on its family.
fn own(prefs: &HashMap<String, Preference>, q: &Question) -> Option<Resolved> {
    let id = prefs.get(&q.id).copied();
    let family = family_key(q).and_then(|k| prefs.get(&k).copied());
    (id.is_some() || family.is_some())
        .then(|| policy::resolve(id, family, &[]))
        .flatten()
}

fn load_rules(store: Source<'_>, project: Option<&str>, errors: &mut Vec<String>) -> Vec<Rule> {
    store.rules_for(project).unwrap_or_else(|e| {
        errors.push(format!("reading rules failed: {e}; no rule applies"));
        Vec::new()
    })
}
