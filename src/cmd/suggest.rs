//! `askhook suggest`: questions worth marking `never-ask`, and `never-ask` ones worth undoing.
//!
//! A candidate is a question id — or, for unmarked questions, whose exact hash rarely repeats,
//! a question family (`family:<fam-id>`, every rewording counted together) — that was asked at
//! least `--min-asked` times (default 5), whose
//! recommendation a person followed at least `--min-follow` percent of the time (default 90,
//! over human answers to it that had a recommendation), that is a two-way door in every
//! recorded row and in the registry, and that has no silencing preference yet. One-way and
//! unknown doors are never suggested. The opposite list: ids with a `never-ask` or `ask-only-for-one-way`
//! preference whose recommendation people overrode in at least two answers and more often
//! than they followed it.
//!
//! `--apply` sets each candidate to `never-ask` (global), each one through
//! [`crate::trust::confirm_silencing`] exactly like `askhook pref set`.
//!
//! ## `suggest --json`
//! `{"never_ask": [{"question_id" (an id or `family:<fam-id>`), "kind" ("id" | "family"),
//! "wordings" (question ids covered), "asked", "with_recommendation", "followed", "follow_rate",
//! "door_type", "question", "command"}], "reconsider": [{"question_id", "preference", "scope",
//! "project", "with_recommendation", "followed", "overridden", "command"}], "applied": [ids]}`

use std::collections::HashMap;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::SuggestArgs;
use crate::error::{Error, Result};
use crate::store::prefs::StoredPreference;
use crate::store::prefs::GLOBAL_SCOPE;
use crate::store::{self, Filter, Store};
use crate::sys::{json, ui};
use crate::Context;
use askhook_core::classify::Door;
use askhook_core::policy::Preference;

use askhook_core::registry::Registry;

use super::stats::{PerQuestion, Tally};

#[derive(Debug, Serialize)]
pub struct Candidate {
    /// A question id, or `family:<fam-id>`.
    pub question_id: String,
    /// `id` or `family`.
    pub kind: &'static str,
    /// How many question ids (wordings) it covers.
    pub wordings: usize,
    pub asked: u64,
    pub with_recommendation: u64,
    pub followed: u64,
    pub follow_rate: f64,
    pub door_type: Option<Door>,
    pub question: Option<String>,
    pub command: String,
}

#[derive(Debug, Serialize)]
pub struct Reconsider {
    pub question_id: String,
    pub preference: String,
    pub scope: &'static str,
    pub project: Option<String>,
    pub with_recommendation: u64,
    pub followed: u64,
    pub overridden: u64,
    pub command: String,
}

#[derive(Debug, Serialize)]
pub struct Suggestions {
    pub never_ask: Vec<Candidate>,
    pub reconsider: Vec<Reconsider>,
    pub applied: Vec<String>,
}

/// Whether `q` qualifies as a never-ask candidate under the thresholds.
pub fn qualifies(
    q: &PerQuestion,
    registry_door: Option<Door>,
    min_asked: u64,
    min_follow: f64,
) -> bool {
    q.asked >= min_asked
        && q.with_recommendation > 0
        && !q.ever_one_way
        && !q.ever_unknown
        && q.door_type == Some(Door::TwoWay)
        && registry_door != Some(Door::OneWay)
        && (q.followed as f64 / q.with_recommendation as f64) * 100.0 >= min_follow
}

impl super::Run for SuggestArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self, ctx)
    }
}

fn run(args: &SuggestArgs, ctx: &Context) -> Result<ExitCode> {
    let registry = super::load_registry(ctx)?;
    let (store, query) = super::query(&args.filters, ctx)?;
    let Some(mut store) = store else {
        return report(
            args.json,
            &Suggestions {
                never_ask: Vec::new(),
                reconsider: Vec::new(),
                applied: Vec::new(),
            },
        );
    };
    let db = |e| Error::db(&ctx.paths.db, e);
    let tally = super::stats::tally(&store, &query).map_err(db)?;
    let prefs = store.all_preferences().map_err(db)?;
    let never_ask =
        never_ask_candidates(&tally, &prefs, &registry, &store, args, ctx).map_err(db)?;
    let reconsider = reconsider(&tally, &prefs, &super::db_flag(ctx));
    let mut applied = Vec::new();
    if args.apply {
        for c in &never_ask {
            let confirmed_by =
                crate::trust::confirm_silencing(&c.question_id, Preference::NeverAsk, &store)?;
            store
                .set_preference(
                    &c.question_id,
                    GLOBAL_SCOPE,
                    Some(Preference::NeverAsk),
                    &format!("suggest --apply; {confirmed_by}"),
                    ctx.now_ms,
                )
                .map_err(db)?;
            applied.push(c.question_id.clone());
        }
    }
    report(
        args.json,
        &Suggestions {
            never_ask,
            reconsider,
            applied,
        },
    )
}

/// The never-ask candidates: qualifying ids without a silencing global preference, most asked
/// first, each with the question as last recorded.
fn never_ask_candidates(
    tally: &Tally,
    prefs: &[StoredPreference],
    registry: &Registry,
    store: &Store,
    args: &SuggestArgs,
    ctx: &Context,
) -> store::Result<Vec<Candidate>> {
    let db_flag = super::db_flag(ctx);
    let silenced_globally: HashMap<&str, &str> = prefs
        .iter()
        .filter(|p| p.is_global() && p.preference().is_some_and(Preference::silences))
        .map(|p| (p.question_id.as_str(), p.value.as_str()))
        .collect();
    // Unmarked questions are suggested by family (their ids are exact wordings); marked ones
    // by id.
    let by_id = tally
        .questions
        .iter()
        .filter(|(_, q)| q.family.is_none())
        .map(|(id, q)| (id.clone(), q, "id", 1));
    let by_family = tally.families.iter().map(|(family, f)| {
        (
            format!("{}{family}", askhook_core::family::FAMILY_KEY_PREFIX),
            &f.counts,
            "family",
            f.question_ids.len(),
        )
    });
    let mut never_ask = Vec::new();
    for (id, q, kind, wordings) in by_id.chain(by_family) {
        if silenced_globally.contains_key(id.as_str())
            || !qualifies(q, registry.door(&id), args.min_asked, args.min_follow)
        {
            continue;
        }
        let latest = Filter {
            question_id: Some(id.clone()),
            limit: Some(1),
            ..Filter::at(ctx.now_ms)
        };
        let question = store.rows(&latest)?.pop().map(|r| r.question);
        never_ask.push(Candidate {
            question_id: id.clone(),
            kind,
            wordings,
            asked: q.asked,
            with_recommendation: q.with_recommendation,
            followed: q.followed,
            follow_rate: (q.followed as f64 / q.with_recommendation as f64 * 1000.0).round()
                / 1000.0,
            door_type: q.door_type,
            question,
            command: format!(
                "askhook{db_flag} pref set {} never-ask",
                super::shell_word(&id)
            ),
        });
    }
    never_ask.sort_by(|a, b| {
        b.asked
            .cmp(&a.asked)
            .then_with(|| a.question_id.cmp(&b.question_id))
    });

    Ok(never_ask)
}

/// Silencing preferences whose recommendation people overrode in at least two answers, and
/// more often than they followed it.
fn reconsider(tally: &Tally, prefs: &[StoredPreference], db_flag: &str) -> Vec<Reconsider> {
    let mut reconsider = Vec::new();
    for p in prefs {
        let (scope, id, value) = (&p.scope, &p.question_id, &p.value);
        if !p.preference().is_some_and(Preference::silences) {
            continue;
        }
        let q = match askhook_core::family::family_of_key(id) {
            Some(family) => tally.families.get(family).map(|f| &f.counts),
            None => tally.questions.get(id),
        };
        let Some(q) = q else {
            continue;
        };
        let overridden = q.with_recommendation - q.followed;
        if overridden >= 2 && overridden > q.followed {
            let scope_flag = if scope.is_empty() {
                String::new()
            } else {
                format!(" --project {}", super::shell_word(scope))
            };
            reconsider.push(Reconsider {
                question_id: id.clone(),
                preference: value.clone(),
                scope: if scope.is_empty() {
                    "global"
                } else {
                    "project"
                },
                project: (!scope.is_empty()).then(|| scope.clone()),
                with_recommendation: q.with_recommendation,
                followed: q.followed,
                overridden,
                command: format!(
                    "askhook{db_flag} pref clear {}{scope_flag}",
                    super::shell_word(id)
                ),
            });
        }
    }
    reconsider
}

fn report(json: bool, s: &Suggestions) -> Result<ExitCode> {
    if json {
        ui::println(&json::to_string_pretty(s))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = String::new();
    if s.never_ask.is_empty() {
        out.push_str("no never-ask candidates yet (two-way questions asked often whose recommendation you always follow)\n");
    } else {
        out.push_str("Worth marking never-ask (two-way doors whose recommendation you follow):\n");
        for c in &s.never_ask {
            let text = c
                .question
                .as_deref()
                .map(|q| format!("  {}", ui::sanitize(q, false)))
                .unwrap_or_default();
            let wordings = if c.kind == "family" {
                format!(" under {} wording(s)", c.wordings)
            } else {
                String::new()
            };
            out.push_str(&format!(
                "  {}  asked {}{wordings}, followed {}/{}{}\n    {}\n",
                ui::sanitize(&c.question_id, false),
                c.asked,
                c.followed,
                c.with_recommendation,
                text,
                ui::sanitize(&c.command, false)
            ));
        }
    }
    if !s.reconsider.is_empty() {
        out.push_str("\nSilenced, but you kept overriding the recommendation:\n");
        for r in &s.reconsider {
            out.push_str(&format!(
                "  {}  {} ({}), overridden {} of {}\n    {}\n",
                ui::sanitize(&r.question_id, false),
                r.preference,
                r.scope,
                r.overridden,
                r.with_recommendation,
                ui::sanitize(&r.command, false)
            ));
        }
    }
    if !s.applied.is_empty() {
        out.push_str(&format!(
            "\napplied never-ask to: {}\n",
            s.applied
                .iter()
                .map(|id| ui::sanitize(id, false))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(asked: u64, with: u64, followed: u64, door: &str, ever_one_way: bool) -> PerQuestion {
        PerQuestion {
            asked,
            with_recommendation: with,
            followed,
            door_type: Door::parse(door),
            ever_one_way,
            ..PerQuestion::default()
        }
    }

    #[test]
    fn candidates_are_frequent_followed_two_way_doors() {
        for (name, question, registry, want) in [
            ("qualifies", q(5, 5, 5, "two-way", false), None, true),
            ("too rare", q(4, 4, 4, "two-way", false), None, false),
            ("overridden", q(10, 10, 8, "two-way", false), None, false),
            ("one-way now", q(9, 9, 9, "one-way", true), None, false),
            ("one-way once", q(9, 9, 9, "two-way", true), None, false),
            (
                "registry one-way",
                q(9, 9, 9, "two-way", false),
                Some(Door::OneWay),
                false,
            ),
            (
                "unknown door once",
                PerQuestion {
                    ever_unknown: true,
                    ..q(9, 9, 9, "two-way", false)
                },
                None,
                false,
            ),
            (
                "unknown door now",
                q(9, 9, 9, "unknown", false),
                None,
                false,
            ),
            (
                "no recommendation",
                q(9, 0, 0, "two-way", false),
                None,
                false,
            ),
        ] {
            assert_eq!(qualifies(&question, registry, 5, 90.0), want, "{name}");
        }
    }

    #[test]
    fn commands_are_shell_safe() {
        assert_eq!(crate::cmd::shell_word("enable-cache"), "enable-cache");
        assert_eq!(crate::cmd::shell_word("it's"), "'it'\\''s'");
    }
}
