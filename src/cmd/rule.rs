//! `askhook rule add | list | show | rm | test`: rules, a standing preference for every question
//! whose header, text or options match regexes ([`crate::rules`] matches them; the store keeps
//! them, with every change in the preference history under `rule:<name>`).
//!
//! `rule add` shows what the rule matches in the log and what it will do (as `pref set` does),
//! then writes it through the human-only gate when it silences (`never-ask`,
//! `ask-only-for-one-way`). Removing an `always-ask` rule is gated too: it can let a silencing
//! rule apply. `rule test` runs a question through everything the hook would consult (id and
//! family preferences, rules, the door) and says what would happen.
//!
//! ## `--json` schemas
//! - `rule add --json`, `rule rm --json`: `{"name", "scope" ("" = global, else the project
//!   root), "old_value" (null when new), "new_value" (null after rm), "patterns": [{"field",
//!   "pattern"}], "confirmed_by", "matched": N (recorded questions it matches, add only)}`.
//! - `rule list --json`: `[{"name", "value", "scope" ("global" | "project"), "project",
//!   "patterns": [{"field", "pattern"}], "created_at", "updated_at"}]`.
//! - `rule show NAME --json`: the `list` object plus `"matches": [{"question_id",
//!   "question", "times", "recommended", "door_type"}]`, `"scanned"` and `"history"`
//!   (`{"asked", "with_recommendation", "followed", "auto_decided", "last_answers"}`).
//! - `rule test --json`: see [`test`].

use std::process::ExitCode;

use serde::Serialize;

use askhook_core::classify::Door;
use askhook_core::policy::Preference;
use askhook_core::question::Question;

use crate::cli::{RuleAddArgs, RuleCommand};
use crate::error::{Error, Result};
use crate::rules::{Field, Matcher, Pattern, Rule};
use crate::store::rules::{describe, history_key, StoredRule};
use crate::store::{Filter, Store};
use crate::sys::{time, ui};
use crate::trust;
use crate::Context;

use super::explain::{self, HistoryJson};
use super::Run;

mod test;

/// How many of the most recent rows `add` and `show` look through for matches.
pub const SCANNED_ROWS: u64 = 10_000;

impl Run for RuleCommand {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        match self {
            RuleCommand::Add(args) => add(args, ctx),
            RuleCommand::List { json } => list(*json, ctx),
            RuleCommand::Show { name, json } => show(name, *json, ctx),
            RuleCommand::Rm { name, json } => rm(name, *json, ctx),
            RuleCommand::Test(args) => test::run(args, ctx),
        }
    }
}

#[derive(Debug, Serialize)]
struct PatternJson<'a> {
    field: &'static str,
    pattern: &'a str,
}

fn patterns_json(patterns: &[Pattern]) -> Vec<PatternJson<'_>> {
    patterns
        .iter()
        .map(|p| PatternJson {
            field: p.field.as_str(),
            pattern: &p.pattern,
        })
        .collect()
}

/// The rule `add` describes, its patterns checked.
fn rule_of(args: &RuleAddArgs, ctx: &Context) -> Result<Rule> {
    if !askhook_core::question::is_valid_id(&args.name) {
        return Err(Error::Usage(format!(
            "`{}` is not a rule name: use lowercase letters, digits and dashes",
            args.name
        )));
    }
    let mut given: Vec<(Field, &str)> = Vec::new();
    given.extend(args.header.as_deref().map(|p| (Field::Header, p)));
    given.extend(args.question.as_deref().map(|p| (Field::Question, p)));
    given.extend(args.options.iter().map(|p| (Field::Option, p.as_str())));
    if given.is_empty() {
        return Err(Error::Usage(
            "a rule needs at least one pattern: --header, --question or --option".into(),
        ));
    }
    let patterns = given
        .into_iter()
        .map(|(field, p)| {
            Pattern::new(field, p).map_err(|e| {
                Error::Usage(format!(
                    "--{} {p:?} is not a valid regex: {e}",
                    field.as_str()
                ))
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Rule {
        name: args.name.clone(),
        scope: super::pref::scope_of(&args.scope, &ctx.cwd),
        value: Some(Preference::from(args.value)),
        patterns,
    })
}

/// One recorded question id a rule matches.
#[derive(Debug, Serialize)]
struct Matched {
    question_id: String,
    question: String,
    times: u64,
    recommended: Option<String>,
    door_type: Door,
}

/// What a rule matches among the most recent rows, and the person's answers to those.
#[derive(Debug, Serialize)]
struct Impact {
    scanned: u64,
    matched: u64,
    matches: Vec<Matched>,
    history: HistoryJson,
}

/// Run `rule` over the last [`SCANNED_ROWS`] rows (its scope's ones).
fn impact(store: &Store, rule: &Rule, now_ms: i64) -> Result<Impact> {
    let filter = Filter {
        limit: Some(SCANNED_ROWS),
        project: (!rule.scope.is_empty()).then(|| rule.scope.clone()),
        ..Filter::at(now_ms)
    };
    let rows = store
        .rows(&filter)
        .map_err(|e| Error::db(store.path(), e))?;
    let rules = std::slice::from_ref(rule);
    let mut rule_matcher = Matcher::new(rules);
    let mut matches: Vec<Matched> = Vec::new();
    let mut history = HistoryJson::from(&crate::store::history::History::default());
    let mut hits = 0;
    for row in rows.iter().rev() {
        let q = Question::new(
            0,
            row.question.clone(),
            row.header.clone(),
            row.options.clone(),
            false,
        );
        if rule_matcher.matching(&q).is_empty() {
            continue;
        }
        hits += 1;
        history.asked += 1;
        count_answer(&mut history, row);
        match matches
            .iter_mut()
            .find(|m| m.question_id == row.question_id)
        {
            Some(m) => m.times += 1,
            None => matches.push(Matched {
                question_id: row.question_id.clone(),
                question: row.question.clone(),
                times: 1,
                recommended: row.recommended.clone(),
                door_type: row.door_type,
            }),
        }
    }
    matches.sort_by_key(|m| std::cmp::Reverse(m.times));
    Ok(Impact {
        scanned: rows.len() as u64,
        matched: hits,
        matches,
        history,
    })
}

/// Add one row's answer (newest first) to a history.
fn count_answer(h: &mut HistoryJson, row: &crate::store::Row) {
    use crate::store::Outcome;
    match row.outcome {
        Outcome::AutoDecided => h.auto_decided += 1,
        Outcome::Answered if !row.reply.afk => {
            if let Some(f) = row.reply.followed_recommendation {
                h.with_recommendation += 1;
                h.followed += u64::from(f);
            }
            let answer = row
                .reply
                .answer
                .clone()
                .or_else(|| row.reply.free_text.clone());
            if let Some(a) = answer.filter(|_| h.last_answers.len() < explain::ANSWERS_SHOWN) {
                h.last_answers.push(a);
            }
        }
        _ => {}
    }
}

/// `rule add` prints it on stderr before it asks or writes; `rule show` on stdout.
fn impact_text(rule: &Rule, impact: &Impact) -> String {
    let mut out = format!(
        "rule {} ({}): {} → {}\n",
        rule.name,
        scope_label(&rule.scope),
        ui::sanitize(&describe(&rule.patterns), false),
        rule.value.map_or("?", Preference::as_str)
    );
    if impact.matched == 0 {
        out.push_str(&format!(
            "it matches none of your last {} recorded questions\n",
            impact.scanned
        ));
    } else {
        out.push_str(&format!(
            "it matches {} of your last {} recorded questions:\n",
            impact.matched, impact.scanned
        ));
    }
    for m in impact.matches.iter().take(10) {
        let then = match (m.door_type, &m.recommended) {
            (Door::OneWay, _) => "one-way door: still asked".to_owned(),
            (Door::Unknown, _) => "unknown door: still asked".to_owned(),
            (Door::TwoWay, None) => "no recommended option: still asked".to_owned(),
            (Door::TwoWay, Some(r)) => format!("answered \"{}\"", ui::sanitize(r, false)),
        };
        out.push_str(&format!(
            "  {:>3}×  {}  {}  → {then}\n",
            m.times,
            ui::sanitize(&m.question_id, false),
            ui::sanitize(&explain::clip(&m.question, 60), false)
        ));
    }
    if impact.history.asked > 0 {
        out.push_str(&format!("{}\n", explain::history_line(&impact.history)));
    }
    out
}

fn scope_label(scope: &str) -> String {
    if scope.is_empty() {
        "global".into()
    } else {
        format!("project {scope}")
    }
}

#[derive(Debug, Serialize)]
struct Changed<'a> {
    name: &'a str,
    scope: &'a str,
    old_value: Option<String>,
    new_value: Option<&'static str>,
    patterns: Vec<PatternJson<'a>>,
    confirmed_by: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    matched: Option<u64>,
}

fn add(args: &RuleAddArgs, ctx: &Context) -> Result<ExitCode> {
    let rule = rule_of(args, ctx)?;
    let value = Preference::from(args.value);
    let mut store = super::open_store(ctx)?;
    let impact = impact(&store, &rule, ctx.now_ms)?;
    if !args.json {
        ui::eprint(&impact_text(&rule, &impact));
        let mut warnings: Vec<String> = explain::overridden(value, &impact.history)
            .into_iter()
            .collect();
        let silent = impact
            .matches
            .iter()
            .filter(|m| m.recommended.is_none())
            .count();
        if value.silences() && silent > 0 {
            warnings.push(format!(
                "{silent} of the questions it matches had no recommended option: askhook still \
                 asks those"
            ));
        }
        for w in warnings {
            ui::eprintln_warning(&format!("warning: {w}"));
        }
    }
    let confirmed_by = trust::confirm_changes(&[trust::Change {
        id: history_key(&rule.name),
        value,
        question: Some(format!(
            "{} (matches {} recorded question(s))",
            describe(&rule.patterns),
            impact.matched
        )),
        door: Some("per question (one-way doors are always asked)".into()),
    }])?;
    let old = store
        .put_rule(&rule.name, Some(&rule), &confirmed_by, ctx.now_ms)
        .map_err(|e| Error::db(store.path(), e))?;
    let changed = Changed {
        name: &rule.name,
        scope: &rule.scope,
        old_value: old.map(|o| o.value),
        new_value: Some(value.as_str()),
        patterns: patterns_json(&rule.patterns),
        confirmed_by,
        matched: Some(impact.matched),
    };
    report(args.json, &changed)
}

fn report(json: bool, c: &Changed<'_>) -> Result<ExitCode> {
    if json {
        ui::println(&serde_json::to_string(c).unwrap_or_default())?;
    } else {
        let what = match (&c.old_value, c.new_value) {
            (None, Some(new)) => format!("rule {} added ({new}", c.name),
            (Some(_), Some(new)) => format!("rule {} replaced ({new}", c.name),
            (_, None) => format!("rule {} removed (", c.name),
        };
        ui::println(&format!("{what}, {})", scope_label(c.scope)))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn rm(name: &str, json: bool, ctx: &Context) -> Result<ExitCode> {
    let mut store = super::open_store(ctx)?;
    let Some(old) = store.rule(name).map_err(|e| Error::db(store.path(), e))? else {
        return Err(Error::Refused(format!(
            "no rule named `{name}` (see `askhook rule list`)"
        )));
    };
    // Removing an always-ask rule can let a silencing one apply: confirmed like adding one.
    let confirmed_by = if old.rule.value.is_some_and(Preference::silences) {
        trust::NOT_NEEDED.to_owned()
    } else {
        trust::confirm_changes(&[trust::Change {
            id: history_key(name),
            value: Preference::NeverAsk,
            question: Some(format!(
                "removing this always-ask rule lets the silencing preferences and rules under it \
                 answer for you: {}",
                describe(&old.rule.patterns)
            )),
            door: None,
        }])?
    };
    store
        .put_rule(name, None, &confirmed_by, ctx.now_ms)
        .map_err(|e| Error::db(store.path(), e))?;
    report(
        json,
        &Changed {
            name,
            scope: &old.rule.scope,
            old_value: Some(old.value.clone()),
            new_value: None,
            patterns: patterns_json(&old.rule.patterns),
            confirmed_by,
            matched: None,
        },
    )
}

#[derive(Debug, Serialize)]
struct Listed<'a> {
    name: &'a str,
    value: &'a str,
    scope: &'static str,
    project: Option<&'a str>,
    patterns: Vec<PatternJson<'a>>,
    created_at: String,
    updated_at: String,
}

fn listed(r: &StoredRule) -> Listed<'_> {
    Listed {
        name: &r.rule.name,
        value: &r.value,
        scope: if r.rule.scope.is_empty() {
            "global"
        } else {
            "project"
        },
        project: (!r.rule.scope.is_empty()).then_some(r.rule.scope.as_str()),
        patterns: patterns_json(&r.rule.patterns),
        created_at: time::format_rfc3339(r.created_at),
        updated_at: time::format_rfc3339(r.updated_at),
    }
}

fn list(json: bool, ctx: &Context) -> Result<ExitCode> {
    let rules = match super::open_for_query(ctx)? {
        Some(store) => store.all_rules().map_err(|e| Error::db(store.path(), e))?,
        None => Vec::new(),
    };
    if json {
        let out: Vec<Listed<'_>> = rules.iter().map(listed).collect();
        ui::println(&serde_json::to_string_pretty(&out).unwrap_or_default())?;
        return Ok(ExitCode::SUCCESS);
    }
    if rules.is_empty() {
        ui::println("no rules (add one with `askhook rule add NAME --question REGEX never-ask`)")?;
    }
    for r in &rules {
        ui::println(&format!(
            "{:<20} {:<22} {:<8} {}",
            ui::sanitize(&r.rule.name, false),
            ui::sanitize(&r.value, false),
            if r.rule.scope.is_empty() {
                "global"
            } else {
                "project"
            },
            ui::sanitize(&describe(&r.rule.patterns), false)
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn show(name: &str, json: bool, ctx: &Context) -> Result<ExitCode> {
    let missing = || Error::Refused(format!("no rule named `{name}` (see `askhook rule list`)"));
    let store = super::open_for_query(ctx)?.ok_or_else(missing)?;
    let stored = store
        .rule(name)
        .map_err(|e| Error::db(store.path(), e))?
        .ok_or_else(missing)?;
    let impact = impact(&store, &stored.rule, ctx.now_ms)?;
    if json {
        let mut v = serde_json::to_value(listed(&stored)).unwrap_or_default();
        if let Some(map) = v.as_object_mut() {
            map.insert("scanned".into(), impact.scanned.into());
            map.insert(
                "matches".into(),
                serde_json::to_value(&impact.matches).unwrap_or_default(),
            );
            map.insert(
                "history".into(),
                serde_json::to_value(&impact.history).unwrap_or_default(),
            );
        }
        ui::println(&serde_json::to_string_pretty(&v).unwrap_or_default())?;
        return Ok(ExitCode::SUCCESS);
    }
    ui::print(&impact_text(&stored.rule, &impact))?;
    Ok(ExitCode::SUCCESS)
}
