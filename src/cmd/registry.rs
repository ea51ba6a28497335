//! The question registry's file side and its commands: reading the user registry file, and
//! `askhook registry list | show | add | check`. The registry itself (embedded tables, the
//! raise-only merge) is [`askhook_core::registry`].
//!
//! ## JSON output
//! - `registry list --json`: an array of entries, each `{"id", "skill", "category",
//!   "door_type", "options", "signal_key", "description", "source"}` where `door_type` is the
//!   effective door and `source` is `embedded`, `user` or `embedded+user`.
//! - `registry show ID --json`: one such object plus `embedded_door_type` (string|null),
//!   `user_door_type` (string|null) and `override` (`honoured` | `ignored` | null).
//! - `registry add … --json`: `{"id", "door_type", "file", "replaced", "i_know"}`.
//! - `registry check FILE --json`: `{"file", "valid", "entries", "problems": [{"line",
//!   "severity": "error"|"warning", "message", "id"}]}`; exit 1 when `valid` is false.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use askhook_core::classify::Door;
use askhook_core::registry::{embedded_entry, is_kebab_id, Entry, Registry, CATEGORIES};
use serde_json::{json, Value};

use crate::cli::{DoorArg, RegistryAddArgs, RegistryCommand};
use crate::error::{Error, Result};
use crate::sys::{fsutil, ui};

use crate::Context;
pub use check::{check, Problem, Severity};

// ---------------------------------------------------------------------------------------------
// Commands

impl super::Run for RegistryCommand {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self, ctx)
    }
}

/// `askhook registry list | show | add | check`.
fn run(command: &RegistryCommand, ctx: &Context) -> Result<ExitCode> {
    match command {
        RegistryCommand::List { json } => list(*json, ctx),
        RegistryCommand::Show { id, json } => show(id, *json, ctx),
        RegistryCommand::Add(args) => add(args, ctx),
        RegistryCommand::Check { file, json } => check_command(file, *json),
    }
}

fn load_for_cli(ctx: &Context) -> Result<Registry> {
    let registry =
        crate::registry::load(&ctx.paths.user_registry).map_err(|problem| Error::Invalid {
            path: ctx.paths.user_registry.clone(),
            problem: format!("{problem} (run `askhook registry check` on it)"),
        })?;
    for warning in registry.warnings() {
        ui::eprintln_warning(&format!(
            "{}: {}",
            ctx.paths.user_registry.display(),
            ui::sanitize(warning, false)
        ));
    }
    Ok(registry)
}

fn entry_json(registry: &Registry, e: &Entry) -> Value {
    json!({
        "id": e.id,
        "skill": e.skill,
        "category": e.category,
        "door_type": e.door_type,
        "options": e.options,
        "signal_key": e.signal_key,
        "description": e.description,
        "source": registry.source_of(&e.id),
    })
}

fn list(as_json: bool, ctx: &Context) -> Result<ExitCode> {
    let registry = load_for_cli(ctx)?;
    let entries = registry.entries();
    if as_json {
        let rows: Vec<Value> = entries.iter().map(|e| entry_json(&registry, e)).collect();
        ui::println(&Value::Array(rows).to_string())?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = entries.iter().map(|e| e.id.len()).max().unwrap_or(2).max(2);
    let colour = ui::colour_enabled();
    let mut out = format!(
        "{:width$}  {:7}  {:13}  {:13}  DESCRIPTION\n",
        "ID", "DOOR", "CATEGORY", "SOURCE"
    );
    for e in entries {
        let door = e.door_type.as_str();
        let door = if colour && e.door_type == Door::OneWay {
            format!("\x1b[31m{door:7}\x1b[0m")
        } else {
            format!("{door:7}")
        };
        out.push_str(&format!(
            "{:width$}  {door}  {:13}  {:13}  {}\n",
            ui::sanitize(&e.id, false),
            ui::sanitize(e.category.as_deref().unwrap_or("-"), false),
            registry.source_of(&e.id),
            ui::sanitize(e.description.as_deref().unwrap_or(""), false),
        ));
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

fn show(id: &str, as_json: bool, ctx: &Context) -> Result<ExitCode> {
    let registry = load_for_cli(ctx)?;
    let Some(entry) = registry.entries().iter().find(|e| e.id == id) else {
        return Err(Error::Refused(format!(
            "`{}` is not in the question registry; askhook classifies such questions from their text \
             (see `askhook registry list`, or add it with `askhook registry add`)",
            ui::sanitize(id, false)
        )));
    };
    let embedded = embedded_entry(id).map(|e| e.door);
    let user = registry.user_entry(id);
    let override_state = registry
        .overrides()
        .into_iter()
        .find(|o| o.id == id)
        .map(|o| if o.honoured { "honoured" } else { "ignored" });
    if as_json {
        let mut v = entry_json(&registry, entry);
        v["embedded_door_type"] = json!(embedded);
        v["user_door_type"] = json!(user.map(|u| u.door_type));
        v["override"] = json!(override_state);
        ui::println(&v.to_string())?;
        return Ok(ExitCode::SUCCESS);
    }
    let s = |t: &str| ui::sanitize(t, false);
    let mut out = String::new();
    out.push_str(&format!("id:          {}\n", s(&entry.id)));
    out.push_str(&format!("door:        {}\n", entry.door_type.as_str()));
    out.push_str(&format!(
        "category:    {}\n",
        s(entry.category.as_deref().unwrap_or("-"))
    ));
    out.push_str(&format!(
        "skill:       {}\n",
        s(entry.skill.as_deref().unwrap_or("-"))
    ));
    out.push_str(&format!("options:     {}\n", s(&entry.options.join(" | "))));
    out.push_str(&format!(
        "signal key:  {}\n",
        s(entry.signal_key.as_deref().unwrap_or("-"))
    ));
    out.push_str(&format!(
        "description: {}\n",
        s(entry.description.as_deref().unwrap_or(""))
    ));
    out.push_str(&format!("source:      {}\n", registry.source_of(id)));
    match override_state {
        Some("honoured") if entry.door_type == Door::TwoWay => out.push_str(
            "override:    the user registry lowers this embedded one-way door to two-way (--i-know)\n",
        ),
        Some("honoured") => {
            out.push_str("override:    the user registry raises this question to one-way\n");
        }
        Some(_) => out.push_str(
            "override:    ignored: the user registry marks it two-way without --i-know\n",
        ),
        None => {}
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// The door `registry add` writes, and whether it lowers an embedded one-way door; refuses a
/// bad id or category, and lowering without `--i-know`.
fn checked_door(args: &RegistryAddArgs) -> Result<(Door, bool)> {
    if !is_kebab_id(&args.id) {
        return Err(Error::Usage(format!(
            "`{}` is not a registry id: use lowercase letters, digits and single dashes (at most 64)",
            ui::sanitize(&args.id, false)
        )));
    }
    if !CATEGORIES.contains(&args.category.as_str()) {
        return Err(Error::Usage(format!(
            "unknown category `{}`; use one of: {}",
            ui::sanitize(&args.category, false),
            CATEGORIES.join(", ")
        )));
    }
    let door = match args.door {
        DoorArg::OneWay => Door::OneWay,
        DoorArg::TwoWay => Door::TwoWay,
    };
    let lowers =
        door == Door::TwoWay && embedded_entry(&args.id).is_some_and(|e| e.door == Door::OneWay);
    if lowers && !args.i_know {
        return Err(Error::Refused(format!(
            "`{}` is a one-way door in the embedded registry; marking it two-way lets askhook answer it \
             for you. If you are sure, run the same command with --i-know",
            args.id
        )));
    }
    Ok((door, lowers))
}

/// Lock the user registry (a `.lock` file beside it, private), waiting at most two seconds.
fn lock_file(path: &Path) -> Result<std::fs::File> {
    if let Some(dir) = path.parent() {
        fsutil::create_private_dir(dir).map_err(|e| Error::io(dir, e))?;
    }
    let lock_path = {
        let mut p = path.as_os_str().to_owned();
        p.push(".lock");
        PathBuf::from(p)
    };
    let lock = fsutil::private_options(
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true),
    )
    .open(&lock_path)
    .map_err(|e| Error::io(&lock_path, e))?;
    let budget = std::time::Duration::from_secs(2);
    if !fsutil::lock_within(&lock, budget).map_err(|e| Error::io(&lock_path, e))? {
        return Err(Error::Locked {
            path: path.to_path_buf(),
            waited_ms: budget.as_millis(),
        });
    }
    Ok(lock)
}

/// The entry `registry add` writes: the arguments, with the embedded entry's fields where the
/// arguments leave them out.
fn new_entry(args: &RegistryAddArgs, door: Door, lowers: bool, now_ms: i64) -> Value {
    let embedded = embedded_entry(&args.id);
    let mut entry = json!({
        "id": args.id,
        "skill": embedded.map_or("user", |e| e.skill),
        "category": args.category,
        "door_type": door,
        "options": if args.options.is_empty() {
            embedded.map(|e| e.options.iter().map(|o| (*o).to_owned()).collect()).unwrap_or_default()
        } else {
            args.options.clone()
        },
        "signal_key": embedded
            .map_or_else(|| args.id.replace('-', "_"), |e| e.signal_key.to_owned()),
        "description": if args.description.is_empty() {
            embedded.map_or_else(|| args.id.replace('-', " "), |e| e.description.to_owned())
        } else {
            args.description.clone()
        },
    });
    if lowers {
        entry["i_know"] = json!(true);
    }
    entry["added_at"] = json!(crate::sys::time::format_rfc3339(now_ms));
    entry
}

fn add(args: &RegistryAddArgs, ctx: &Context) -> Result<ExitCode> {
    let (door, lowers) = checked_door(args)?;
    let path = &ctx.paths.user_registry;
    let _lock = lock_file(path)?;
    let mut root: Value = match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| Error::Invalid {
            path: path.clone(),
            problem: format!("not valid JSON ({e}); fix it or run `askhook registry check` on it"),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({"questions": []}),
        Err(e) => return Err(Error::io(path, e)),
    };
    let Some(list) = root.get_mut("questions").and_then(Value::as_array_mut) else {
        return Err(Error::Invalid {
            path: path.clone(),
            problem: "no `questions` array at the top level".into(),
        });
    };
    let before = list.len();
    list.retain(|e| e.get("id").and_then(Value::as_str) != Some(args.id.as_str()));
    let replaced = list.len() != before;
    let entry = new_entry(args, door, lowers, ctx.now_ms);
    list.push(entry);
    let mut text = render_registry(&root);
    text.push('\n');
    fsutil::atomic_write(path, text.as_bytes()).map_err(|e| Error::io(path, e))?;
    if args.json {
        ui::println(
            &json!({
                "id": args.id,
                "door_type": door,
                "file": path,
                "replaced": replaced,
                "i_know": lowers,
            })
            .to_string(),
        )?;
    } else {
        ui::println(&format!(
            "{} `{}` as {} in {}{}",
            if replaced { "updated" } else { "added" },
            args.id,
            door.as_str(),
            path.display(),
            if lowers {
                " (lowers an embedded one-way door; `askhook doctor` will show it)"
            } else {
                ""
            }
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Pretty JSON with one entry per line, like the embedded file, so diffs stay readable and
/// `registry check` line numbers point at entries.
fn render_registry(root: &Value) -> String {
    let Some(obj) = root.as_object() else {
        return root.to_string();
    };
    let mut out = String::from("{\n");
    let n = obj.len();
    for (k, (key, value)) in obj.iter().enumerate() {
        out.push_str(&format!("  {}: ", Value::String(key.clone())));
        match (key.as_str(), value.as_array()) {
            ("questions", Some(items)) if !items.is_empty() => {
                out.push_str("[\n");
                for (i, item) in items.iter().enumerate() {
                    out.push_str("    ");
                    out.push_str(&item.to_string());
                    out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str("  ]");
            }
            _ => out.push_str(&value.to_string()),
        }
        out.push_str(if k + 1 < n { ",\n" } else { "\n" });
    }
    out.push('}');
    out
}

fn check_command(file: &Path, as_json: bool) -> Result<ExitCode> {
    let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
    let (entries, problems) = check(&text);
    let valid = !problems.iter().any(|p| p.severity == Severity::Error);
    if as_json {
        ui::println(
            &json!({
                "file": file,
                "valid": valid,
                "entries": entries,
                "problems": problems,
            })
            .to_string(),
        )?;
    } else {
        let shown = ui::sanitize(&file.display().to_string(), false);
        let mut out = String::new();
        for p in &problems {
            let sev = match p.severity {
                Severity::Error => "",
                Severity::Warning => "warning: ",
            };
            out.push_str(&format!(
                "{shown}:{}: {sev}{}\n",
                p.line,
                ui::sanitize(&p.message, false)
            ));
        }
        if valid {
            out.push_str(&format!("{shown}: ok, {entries} questions\n"));
        }
        ui::print(&out)?;
    }
    Ok(if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

mod check;
#[cfg(test)]
mod tests;
