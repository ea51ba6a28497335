//! `askhook pref set | list | clear | history`: the user's standing preferences, kept in the
//! answer log's `preferences` table with every change in `preference_events`.
//!
//! A preference is keyed by question id and scope: global (`--global`, the default) or one
//! project (`--project [DIR]`, the project root of DIR as [`crate::sys::project::project_root`]
//! computes it — the same function the hook applies to the payload's `cwd`). A project
//! preference wins over a global one. The hook only reads preferences; it never writes them.
//!
//! Setting `never-ask` or `ask-only-for-one-way` goes through [`crate::trust`]'s gate (a person
//! must confirm on `/dev/tty` when an agent marker is present); `always-ask` and `clear` never
//! need confirmation. Every change that alters a value is kept as an event: old value, new
//! value, scope, time and how it was confirmed (`tty`, `no agent marker`, `not needed`).
//!
//! ## `--json` schemas
//! - `pref set --json` / `pref clear --json`: one line,
//!   `{"question_id", "scope" ("" = global, else the project root), "old_value" (null when
//!   none), "new_value" (null after clear), "confirmed_by"}`.
//! - `pref list --json`: an array of `{"question_id", "value", "scope" ("global" | "project"),
//!   "project" (root or null), "updated_at" (RFC 3339), "question" (last recorded text or
//!   null), "door_type" ("one-way" | "two-way" | "unknown" | null), "inert" (true: a silencing
//!   preference on a one-way or unknown door, which askhook ignores)}`.
//! - `pref history [ID] --json`: an array, oldest first, of `{"question_id", "scope",
//!   "project", "old_value", "new_value", "at" (RFC 3339), "confirmed_by"}`.

use std::path::Path;

use serde::Serialize;

use crate::cli::{
    PrefClearArgs, PrefCommand, PrefHistoryArgs, PrefListArgs, PrefSetArgs, PreferenceArg,
    ScopeFlags,
};
use crate::error::{Error, Result};
use crate::store::prefs::GLOBAL_SCOPE;
use crate::store::Store;
use crate::sys::{time, ui};
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

fn set(args: &PrefSetArgs, ctx: &Context) -> Result<std::process::ExitCode> {
    if !askhook_core::question::is_valid_id(&args.id) && !args.id.starts_with("hook-") {
        return Err(Error::Usage(format!(
            "`{}` is not a question id (ids are lowercase letters, digits and dashes; see `askhook log`)",
            args.id
        )));
    }
    let value = Preference::from(args.value);
    let registry = super::load_registry(ctx)?;
    let mut store = super::open_store(ctx)?;
    if value.silences() {
        if registry.door(&args.id) == Some(Door::OneWay) {
            return Err(Error::Refused(format!(
                "`{}` is a one-way door in the question registry; askhook always asks the human for it, \
                 so {} would never take effect",
                args.id,
                value.as_str()
            )));
        }
        match recorded_door(&store, &args.id)? {
            Some((_, Door::OneWay)) => ui::eprintln_warning(&format!(
                "warning: `{}` was last asked as a one-way door; askhook will still ask the human while it reads that way",
                args.id
            )),
            Some((_, Door::Unknown)) => ui::eprintln_warning(&format!(
                "warning: `{}` was last asked as an unknown door (the classifier could not read it); {} cannot fire while its door is unknown",
                args.id,
                value.as_str()
            )),
            _ => {}
        }
    }
    apply_change(
        &mut store,
        &args.id,
        &args.scope,
        Some(value),
        args.json,
        ctx,
    )
}

fn clear(args: &PrefClearArgs, ctx: &Context) -> Result<std::process::ExitCode> {
    let mut store = super::open_store(ctx)?;
    apply_change(&mut store, &args.id, &args.scope, None, args.json, ctx)
}

/// Set (or clear, with `None`) one preference through the human-only gate, then report it.
fn apply_change(
    store: &mut Store,
    id: &str,
    scope: &ScopeFlags,
    value: Option<Preference>,
    json: bool,
    ctx: &Context,
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
    report(
        json,
        &Change {
            question_id: id,
            scope: &scope,
            old_value: old.into_iter().next().flatten(),
            new_value: value.map(Preference::as_str),
            confirmed_by: &confirmed_by,
        },
    )
}

fn report(json: bool, change: &Change<'_>) -> Result<std::process::ExitCode> {
    if json {
        ui::println(&serde_json::to_string(&change).unwrap_or_default())?;
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
    /// A silencing preference on a one-way or unknown door: askhook ignores it.
    pub inert: bool,
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
        // A gstack split chain is always asked, like a one-way door.
        let never_fires = door.is_some_and(|d| !d.is_two_way())
            || askhook_core::registry::is_always_asked(&question_id);
        out.push(PrefRow {
            inert: silences && never_fires,
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
        ui::println(&serde_json::to_string_pretty(&rows).unwrap_or_default())?;
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
        let inert = match (row.inert, row.door_type.as_deref()) {
            (true, Some("unknown")) => "  [inert: unknown door, askhook still asks]",
            (true, _) => "  [inert: one-way door, askhook still asks]",
            (false, _) => "",
        };
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
        })
        .collect();
    if args.json {
        ui::println(&serde_json::to_string_pretty(&rows).unwrap_or_default())?;
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
        let line = format!(
            "{}  {:<24} {} → {}  ({scope}; confirmed: {})",
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
