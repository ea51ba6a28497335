//! `askhook pref set | list | clear | history`: the user's standing preferences, kept in the
//! answer log's `preferences` table with every change in `preference_events`.
//!
//! A preference is keyed by question id — or `family:<fam-id>`, for every rewording of an
//! unmarked question — and scope: global (`--global`, the default) or one project (`--project
//! [DIR]`, the project root of DIR as [`crate::sys::project::project_root`] computes it — the
//! same function the hook applies to the payload's `cwd`). A project preference wins over a
//! global one. The hook only reads preferences; it never writes them.
//!
//! `pref set` first says what it will do, from the log ([`crate::store::history`]): the answer
//! askhook will give from now on, how the person answered before, and warnings when they mostly
//! chose something else or the preference can never fire. A silencing preference on an id or
//! family the log never saw is refused without `--force` (a typo would silence nothing, or the
//! wrong question). `--last` names the most recent question: its marker id, else its family.
//!
//! Setting `never-ask` or `ask-only-for-one-way` goes through [`crate::trust`]'s gate (a person
//! must confirm on `/dev/tty` when an agent marker is present); `always-ask` and `clear` never
//! need confirmation. Every change that alters a value is kept as an event: old value, new
//! value, scope, time and how it was confirmed (`tty`, `no agent marker`, `not needed`).
//!
//! ## `--json` schemas
//! - `pref set --json` / `pref clear --json`: one line,
//!   `{"question_id", "scope" ("" = global, else the project root), "old_value" (null when
//!   none), "new_value" (null after clear), "confirmed_by"}`; `pref set` adds "recommended"
//!   (the recommended label as last asked, or null), "history" (`{"asked",
//!   "with_recommendation", "followed", "auto_decided", "last_answers"}`) and "warnings".
//! - `pref list --json`: an array of `{"question_id" (an id, or `family:<fam-id>`), "value",
//!   "scope" ("global" | "project"), "project" (root or null), "updated_at" (RFC 3339),
//!   "question" (last recorded text or null), "door_type" ("one-way" | "two-way" | "unknown" |
//!   null), "inert" (true: a silencing preference that cannot fire), "why_inert" ("one-way
//!   door" | "unknown door" | "no recommended option" | null)}`.
//! - `pref history [ID] --json`: an array, oldest first, of `{"question_id" (an id,
//!   `family:<fam-id>` or `rule:<name>`), "scope", "project", "old_value", "new_value", "at"
//!   (RFC 3339), "confirmed_by", "detail" (a rule's patterns, else null)}`.

use std::path::Path;

use serde::Serialize;

use super::explain::{self, HistoryJson};
use crate::cli::{
    PrefClearArgs, PrefCommand, PrefHistoryArgs, PrefListArgs, PrefSetArgs, PreferenceArg,
    ScopeFlags,
};
use crate::error::{Error, Result};
use crate::store::prefs::GLOBAL_SCOPE;
use crate::store::Store;
use crate::sys::{json, time, ui};
use crate::Context;
use askhook_core::classify::Door;
use askhook_core::policy::Preference;
use askhook_core::registry::Registry;

impl From<PreferenceArg> for Preference {
    fn from(p: PreferenceArg) -> Preference {
        match p {
            PreferenceArg::NeverAsk => Preference::NeverAsk,
            PreferenceArg::AlwaysAsk => Preference::AlwaysAsk,
            PreferenceArg::AskOnlyForOneWay => Preference::AskOnlyForOneWay,
        }
    }
}

impl super::Run for PrefCommand {
    fn run(&self, ctx: &Context) -> Result<std::process::ExitCode> {
        run(self, ctx)
    }
}

fn run(command: &PrefCommand, ctx: &Context) -> Result<std::process::ExitCode> {
    match command {
        PrefCommand::Set(args) => set(args, ctx),
        PrefCommand::List(args) => list(args, ctx),
        PrefCommand::Clear(args) => clear(args, ctx),
        PrefCommand::History(args) => history(args, ctx),
    }
}

/// The scope string for the flags: `""` for global, the project root path otherwise.
pub fn scope_of(flags: &ScopeFlags, cwd: &Path) -> String {
    match &flags.project {
        Some(dir) if !flags.global => {
            let dir = if dir.is_absolute() {
                dir.clone()
            } else {
                cwd.join(dir)
            };
            crate::sys::project::project_root(&dir)
                .to_string_lossy()
                .into_owned()
        }
        _ => GLOBAL_SCOPE.to_owned(),
    }
}

fn scope_label(scope: &str) -> String {
    if scope.is_empty() {
        "global".into()
    } else {
        format!("project {scope}")
    }
}

/// The door type askhook last recorded for `id`, if it was ever asked.
fn recorded_door(store: &Store, id: &str) -> Result<Option<(String, Door)>> {
    Ok(store
        .last_recorded(id)
        .map_err(|e| Error::db(store.path(), e))?
        .map(|r| (r.question, r.door)))
}

#[derive(Serialize)]
struct Change<'a> {
    question_id: &'a str,
    scope: &'a str,
    old_value: Option<String>,
    new_value: Option<&'a str>,
    confirmed_by: &'a str,
}

/// The key and value of `pref set ID VALUE` / `pref set --last VALUE` (the key still to be
/// looked up for `--last`).
fn words_of(args: &PrefSetArgs) -> Result<(Option<String>, Preference)> {
    let (key, value) = match (args.last, args.words.as_slice()) {
        (true, [value]) => (None, value),
        (false, [key, value]) => (Some(key.clone()), value),
        (true, _) => {
            return Err(Error::Usage(
                "with --last give only the preference: `askhook pref set --last never-ask`".into(),
            ))
        }
        (false, _) => {
            return Err(Error::Usage(
                "give a question id and a preference: `askhook pref set ID never-ask` (or --last)"
                    .into(),
            ))
        }
    };
    let value = Preference::parse(value).ok_or_else(|| {
        Error::Usage(format!(
            "`{value}` is not a preference (never-ask, always-ask, ask-only-for-one-way)"
        ))
    })?;
    if let Some(key) = &key {
        let is_id = askhook_core::question::is_valid_id(key) || key.starts_with("hook-");
        if !is_id && askhook_core::family::family_of_key(key).is_none() {
            return Err(Error::Usage(format!(
                "`{key}` is not a question id or family (ids are lowercase letters, digits and \
                 dashes, families family:fam-<10 hex>; see `askhook log`)"
            )));
        }
    }
    Ok((key, value))
}

/// The key `--last` names: the most recent question's marker id, else its family.
fn last_key(store: &Store) -> Result<String> {
    let last = store
        .most_recent()
        .map_err(|e| Error::db(store.path(), e))?
        .ok_or_else(|| {
            Error::Refused("no question is recorded yet, so --last names none".into())
        })?;
    Ok(match last.family {
        Some(family) => format!("{}{family}", askhook_core::family::FAMILY_KEY_PREFIX),
        None => last.question_id,
    })
}

/// What setting `value` on `key` will do, judged by the log.
#[derive(Debug, Serialize)]
struct Plan {
    /// The recommended label as last asked.
    recommended: Option<String>,
    /// The question as last asked.
    question: Option<String>,
    history: HistoryJson,
    warnings: Vec<String>,
}

fn plan(store: &Store, key: &str, value: Preference) -> Result<Plan> {
    let history = store
        .history(key, explain::ANSWERS_SHOWN)
        .map_err(|e| Error::db(store.path(), e))?;
    let json = HistoryJson::from(&history);
    let last = history.last.as_ref();
    let recommended = last.and_then(|l| l.recommended.clone());
    Ok(Plan {
        warnings: explain::warnings(value, &json, recommended.as_deref(), last.map(|l| l.door)),
        question: last.map(|l| l.question.clone()),
        recommended,
        history: json,
    })
}

/// The plan as text, on stderr before anything is asked or written: the question, what will
/// be chosen, the history, then the warnings.
fn print_plan(key: &str, value: Preference, plan: &Plan) {
    let mut out = String::new();
    let what = if key.starts_with(askhook_core::family::FAMILY_KEY_PREFIX) {
        " (and its rewordings)"
    } else {
        ""
    };
    if let Some(q) = &plan.question {
        out.push_str(&format!(
            "{}: \"{}\"{what}\n",
            ui::sanitize(key, false),
            ui::sanitize(&explain::clip(q, 120), false)
        ));
    }
    match (value.silences(), &plan.recommended) {
        (true, Some(rec)) => out.push_str(&format!(
            "from now on askhook answers it without asking you, with its recommended option \
             (as last asked: \"{}\"); one-way doors are still asked\n",
            ui::sanitize(rec, false)
        )),
        (true, None) => out.push_str(
            "askhook would answer it with its recommended option, but it had none when last asked\n",
        ),
        (false, _) => out.push_str("from now on askhook always lets you answer it\n"),
    }
    if plan.history.asked > 0 {
        out.push_str(&format!(
            "asked {} time(s): {}\n",
            plan.history.asked,
            explain::history_line(&plan.history)
        ));
    }
    ui::eprint(&out);
    for w in &plan.warnings {
        ui::eprintln_warning(&format!("warning: {w}"));
    }
}

fn set(args: &PrefSetArgs, ctx: &Context) -> Result<std::process::ExitCode> {
    let (key, value) = words_of(args)?;
    let registry = super::load_registry(ctx)?;
    let mut store = super::open_store(ctx)?;
    let key = match key {
        Some(key) => key,
        None => last_key(&store)?,
    };
    if value.silences() && registry.door(&key) == Some(Door::OneWay) {
        return Err(Error::Refused(format!(
            "`{key}` is a one-way door in the question registry; askhook always asks the human \
             for it, so {} would never take effect",
            value.as_str()
        )));
    }
    let plan = plan(&store, &key, value)?;
    if value.silences() && plan.history.asked == 0 && !args.force {
        return Err(Error::Refused(format!(
            "`{key}` was never asked, as far as the log knows: check the id with `askhook log` \
             (or `askhook pref set --last …`), or add --force to set it anyway"
        )));
    }
    if !args.json {
        print_plan(&key, value, &plan);
    }
    apply_change(&mut store, &key, &args.scope, Some(value), ctx, |change| {
        report(args.json, change, Some(&plan))
    })
}

fn clear(args: &PrefClearArgs, ctx: &Context) -> Result<std::process::ExitCode> {
    let mut store = super::open_store(ctx)?;
    apply_change(&mut store, &args.id, &args.scope, None, ctx, |change| {
        report(args.json, change, None)
    })
}

/// Set (or clear, with `None`) one preference through the human-only gate, then report it.
fn apply_change(
    store: &mut Store,
    id: &str,
    scope: &ScopeFlags,
    value: Option<Preference>,
    ctx: &Context,
    report: impl FnOnce(&Change<'_>) -> Result<std::process::ExitCode>,
) -> Result<std::process::ExitCode> {
    let scope = scope_of(scope, &ctx.cwd);
    let (confirmed_by, old) = crate::trust::set_preferences(
        store,
        &[crate::trust::PrefChange {
            id: id.to_owned(),
            scope: scope.clone(),
            value,
        }],
        ctx.now_ms,
    )?;
    report(&Change {
        question_id: id,
        scope: &scope,
        old_value: old.into_iter().next().flatten(),
        new_value: value.map(Preference::as_str),
        confirmed_by: &confirmed_by,
    })
}

fn report(json: bool, change: &Change<'_>, plan: Option<&Plan>) -> Result<std::process::ExitCode> {
    if json {
        let mut v = serde_json::to_value(change).unwrap_or_default();
        if let (Some(plan), Some(map)) = (plan, v.as_object_mut()) {
            map.insert("recommended".into(), plan.recommended.clone().into());
            map.insert(
                "history".into(),
                serde_json::to_value(&plan.history).unwrap_or_default(),
            );
            map.insert("warnings".into(), plan.warnings.clone().into());
        }
        ui::println(&json::to_string(&v))?;
    } else {
        let what = match (change.old_value.as_deref(), change.new_value) {
            (old, Some(new)) if old == Some(new) => {
                format!("{} is already {new}", change.question_id)
            }
            (_, Some(new)) => format!("{} is now {new}", change.question_id),
            (Some(old), None) => format!("{} cleared (was {old})", change.question_id),
            (None, None) => format!("{} had no preference", change.question_id),
        };
        ui::println(&format!("{what} ({})", scope_label(change.scope)))?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// One preference as `pref list --json` prints it.
#[derive(Debug, Serialize)]
pub struct PrefRow {
    pub question_id: String,
    pub value: String,
    /// `global` or `project`.
    pub scope: String,
    /// The project root, for project preferences.
    pub project: Option<String>,
    pub updated_at: String,
    /// The question as last recorded, when it was ever asked.
    pub question: Option<String>,
    /// The door type now (registry, else as last recorded).
    pub door_type: Option<String>,
    /// A silencing preference that cannot fire: on a one-way or unknown door, or on a question
    /// that had no recommended option when last asked.
    pub inert: bool,
    /// Why it cannot fire: `one-way door`, `unknown door`, `no recommended option` (else null).
    pub why_inert: Option<&'static str>,
}

pub fn list_rows(store: &Store, registry: &Registry) -> Result<Vec<PrefRow>> {
    let raw = store
        .all_preferences()
        .map_err(|e| Error::db(store.path(), e))?;
    let mut out = Vec::with_capacity(raw.len());
    for p in raw {
        let (scope, question_id, value, updated_at) =
            (p.scope, p.question_id, p.value, p.updated_at);
        let recorded = recorded_door(store, &question_id)?;
        let door = registry
            .door(&question_id)
            .filter(|d| *d == Door::OneWay)
            .or(recorded.as_ref().map(|(_, d)| *d))
            .or(registry.door(&question_id));
        let silences = Preference::parse(&value).is_some_and(Preference::silences);
        let no_recommendation = store
            .history(&question_id, 0)
            .map_err(|e| Error::db(store.path(), e))?
            .last
            .is_some_and(|l| l.recommended.is_none());
        let why_inert = match door {
            _ if !silences => None,
            Some(Door::OneWay) => Some("one-way door"),
            // A gstack split chain is always asked, like a one-way door.
            _ if askhook_core::registry::is_always_asked(&question_id) => {
                Some("always asked (gstack split chain)")
            }
            Some(Door::Unknown) => Some("unknown door"),
            _ if no_recommendation => Some("no recommended option"),
            _ => None,
        };
        out.push(PrefRow {
            inert: why_inert.is_some(),
            why_inert,
            scope: if scope.is_empty() {
                "global".into()
            } else {
                "project".into()
            },
            project: (!scope.is_empty()).then_some(scope),
            question: recorded.map(|(text, _)| text),
            door_type: door.map(|d| d.as_str().to_owned()),
            question_id,
            value,
            updated_at: time::format_rfc3339(updated_at),
        });
    }
    Ok(out)
}

fn list(args: &PrefListArgs, ctx: &Context) -> Result<std::process::ExitCode> {
    let store = super::open_store(ctx)?;
    let registry = super::load_registry(ctx)?;
    let rows = list_rows(&store, &registry)?;
    if args.json {
        ui::println(&json::to_string_pretty(&rows))?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        ui::println(
            "no preferences set (see `askhook suggest`, then `askhook pref set ID never-ask`)",
        )?;
    }
    for row in rows {
        let scope = row
            .project
            .as_deref()
            .map_or_else(|| "global".into(), |p| format!("project {p}"));
        let door = row.door_type.as_deref().unwrap_or("unknown door");
        let inert = row
            .why_inert
            .map(|why| format!("  [inert: {why}, askhook still asks]"))
            .unwrap_or_default();
        let text = row
            .question
            .as_deref()
            .map(|q| format!("  {}", ui::sanitize(q, false)))
            .unwrap_or_default();
        ui::println(&format!(
            "{:<24} {:<22} {} ({}){inert}{text}",
            ui::sanitize(&row.question_id, false),
            ui::sanitize(&row.value, false),
            ui::sanitize(&scope, false),
            ui::sanitize(door, false),
        ))?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct HistoryRow {
    question_id: String,
    scope: String,
    project: Option<String>,
    old_value: Option<String>,
    new_value: Option<String>,
    at: String,
    confirmed_by: String,
    /// A rule's patterns (for `rule:<name>` changes).
    detail: Option<String>,
}

fn history(args: &PrefHistoryArgs, ctx: &Context) -> Result<std::process::ExitCode> {
    let store = super::open_store(ctx)?;
    let rows: Vec<HistoryRow> = store
        .preference_history(args.id.as_deref())
        .map_err(|e| Error::db(store.path(), e))?
        .into_iter()
        .map(|e| HistoryRow {
            project: (!e.scope.is_empty()).then(|| e.scope.clone()),
            scope: if e.scope.is_empty() {
                "global".into()
            } else {
                "project".into()
            },
            question_id: e.question_id,
            old_value: e.old_value,
            new_value: e.new_value,
            at: time::format_rfc3339(e.at),
            confirmed_by: e.confirmed_by,
            detail: e.detail,
        })
        .collect();
    if args.json {
        ui::println(&json::to_string_pretty(&rows))?;
        return Ok(std::process::ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        ui::println("no preference changes recorded")?;
    }
    for row in rows {
        let scope = row
            .project
            .as_deref()
            .map_or_else(|| "global".into(), |p| format!("project {p}"));
        let detail = row
            .detail
            .as_deref()
            .map(|d| format!(" {d}"))
            .unwrap_or_default();
        let line = format!(
            "{}  {:<24} {} → {}{detail}  ({scope}; confirmed: {})",
            row.at,
            row.question_id,
            row.old_value.as_deref().unwrap_or("(none)"),
            row.new_value.as_deref().unwrap_or("(none)"),
            row.confirmed_by
        );
        ui::println(&ui::sanitize(&line, false))?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}
