//! Which project a `--project` value names. The PROJECT column shows a short name (the last
//! folder of the project root, or an imported `gstack:<slug>`); the store keeps the whole key
//! (the root's path, or `gstack:<slug>`). A value is read as:
//!
//! | value | names |
//! |---|---|
//! | bare `--project` | the current folder's project |
//! | a path (holds `/`, or starts with `.` or `~`) | that folder's project (the folder must exist), or a project recorded under exactly that path |
//! | anything else (`shop`, `gstack:shop`) | the project recorded under that key or that short name, or the project of a folder of that name here |
//!
//! A name that fits no project, or several, is refused (exit 2) with the recorded projects
//! listed, rather than read as a folder that does not exist (which used to select the current
//! repository's rows instead).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::{Filter, Store};
use crate::sys::project::{project_root, short_name};
use crate::sys::ui;
use crate::Context;

/// How many recorded projects a refusal lists.
const LISTED: usize = 12;

/// The project key `value` names.
pub fn resolve(value: &Path, ctx: &Context, store: Option<&Store>) -> Result<String> {
    let text = value.to_string_lossy().into_owned();
    let folder = folder_of(&text, ctx);
    let path_like =
        value.is_absolute() || text.starts_with('.') || text.starts_with('~') || text.contains('/');
    if path_like && folder.is_dir() {
        return Ok(project_root(&folder).to_string_lossy().into_owned());
    }
    let recorded = recorded(ctx, store)?;
    let mut candidates: Vec<String> = recorded
        .iter()
        .map(|(p, _)| p)
        .filter(|p| {
            if path_like {
                **p == text || Path::new(p.as_str()) == folder
            } else {
                **p == text || short_name(p) == text
            }
        })
        .cloned()
        .collect();
    if !path_like && folder.is_dir() {
        let root = project_root(&folder).to_string_lossy().into_owned();
        if !candidates.contains(&root) {
            candidates.push(root);
        }
    }
    let shown = ui::sanitize(&text, false);
    match candidates.len() {
        1 => Ok(candidates.remove(0)),
        0 if path_like => Err(Error::Usage(format!(
            "--project {shown}: no such folder, and no project recorded under that path{}",
            listing(&recorded)
        ))),
        0 => Err(Error::Usage(format!(
            "--project {shown}: no project of that name in the log, and no folder of that name here{}",
            listing(&recorded)
        ))),
        _ => Err(Error::Usage(format!(
            "--project {shown} is ambiguous, it names {}; give the project's folder instead",
            candidates
                .iter()
                .map(|c| ui::sanitize(c, false))
                .collect::<Vec<_>>()
                .join(" and ")
        ))),
    }
}

/// The folder a value would be: `~/` from the home folder, relative from the current one.
fn folder_of(text: &str, ctx: &Context) -> PathBuf {
    match (text.strip_prefix("~/"), &ctx.paths.home) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if text == "~" => ctx.paths.home.clone().unwrap_or_default(),
        _ => ctx.cwd.join(text),
    }
}

/// Every project in the log with its row count, most rows first.
fn recorded(ctx: &Context, store: Option<&Store>) -> Result<Vec<(String, u64)>> {
    let Some(store) = store else {
        return Ok(Vec::new());
    };
    Ok(store
        .projects_matching(&Filter::at(ctx.now_ms))
        .map_err(|e| Error::db(&ctx.paths.db, e))?
        .into_iter()
        .filter_map(|(p, n)| Some((p?, n)))
        .collect())
}

/// `; projects in the log: shop (/home/u/shop, 5 rows), …` for a refusal.
fn listing(recorded: &[(String, u64)]) -> String {
    if recorded.is_empty() {
        return "; the log holds no project yet".into();
    }
    let mut shown: Vec<String> = recorded
        .iter()
        .take(LISTED)
        .map(|(p, n)| describe(Some(p), *n))
        .collect();
    if recorded.len() > LISTED {
        shown.push(format!("and {} more", recorded.len() - LISTED));
    }
    format!("; projects in the log: {}", shown.join(", "))
}

/// A project and its row count as messages show it: `shop (/home/u/shop, 5 rows)`,
/// `gstack:blog (1 row)`, `no project (2 rows)`.
pub fn describe(project: Option<&str>, rows: u64) -> String {
    let count = format!("{rows} {}", if rows == 1 { "row" } else { "rows" });
    match project {
        None => format!("no project ({count})"),
        Some(key) if short_name(key) == key => format!("{} ({count})", ui::sanitize(key, false)),
        Some(key) => format!(
            "{} ({}, {count})",
            ui::sanitize(short_name(key), false),
            ui::sanitize(key, false)
        ),
    }
}
