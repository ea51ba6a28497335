//! `askhook uninstall --purge`: after the settings edit, delete askhook's data — only the files
//! askhook makes (the answer log with its `-wal` / `-shm` / `-journal`, the spool, the error log
//! and its rotation, a user registry kept in the data folder and its lock, the settings backups
//! under `settings-backups/`), then each folder that is left empty, the data folder last.
//!
//! Never a recursive delete of a folder askhook did not make: a data folder (`ASKHOOK_HOME`)
//! that also holds other files keeps them, and the report names what was kept. The list is
//! shown before anything is deleted and needs a `y` on a terminal, or `--yes`; elsewhere,
//! without `--yes`, nothing changes (exit 2).

use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::install::BACKUP_FOLDER;
use crate::sys::ui;
use crate::Context;

/// What a purge deletes: askhook's files that exist, and the folders it then tries to remove
/// (deepest first; each only when empty).
#[derive(Debug, Default)]
pub struct Plan {
    pub files: Vec<PathBuf>,
    pub folders: Vec<PathBuf>,
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Every settings backup under `dir` (files whose name holds `.askhook-bak.`), and the folders
/// holding them, deepest first.
fn backup_files(dir: &Path, files: &mut Vec<PathBuf>, folders: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => backup_files(&path, files, folders),
            Ok(t)
                if t.is_file()
                    && entry
                        .file_name()
                        .to_string_lossy()
                        .contains(".askhook-bak.") =>
            {
                files.push(path);
            }
            _ => {}
        }
    }
    folders.push(dir.to_path_buf());
}

/// What `--purge` would delete for these paths.
pub fn plan(ctx: &Context) -> Plan {
    let p = &ctx.paths;
    let mut files = vec![
        p.db.clone(),
        with_suffix(&p.db, "-wal"),
        with_suffix(&p.db, "-shm"),
        with_suffix(&p.db, "-journal"),
        p.spool(),
        with_suffix(&p.spool(), ".pos"),
        with_suffix(&p.spool(), ".quarantine"),
        p.standing(),
        p.lost_marker(),
        p.error_log.clone(),
        with_suffix(&p.error_log, ".1"),
    ];
    if p.user_registry.starts_with(&p.data_dir) {
        files.push(p.user_registry.clone());
        files.push(with_suffix(&p.user_registry, ".lock"));
    }
    files.retain(|f| fs::symlink_metadata(f).is_ok());
    let mut folders = Vec::new();
    backup_files(&p.data_dir.join(BACKUP_FOLDER), &mut files, &mut folders);
    folders.push(p.data_dir.clone());
    Plan { files, folders }
}

/// Ask a person at a terminal to confirm `plan`; `--yes` skips the question. `Ok(false)`: they
/// said no.
pub fn confirm(plan: &Plan, yes: bool) -> Result<bool> {
    if yes || plan.files.is_empty() {
        return Ok(true);
    }
    let listed = plan.files.len();
    if !(std::io::stdin().is_terminal() && ui::stdout_is_terminal()) {
        return Err(Error::NotConfirmed(format!(
            "--purge would delete {listed} file(s) of askhook's data; nothing was changed (not \
             on a terminal: add --yes to do it, --dry-run to see the list)"
        )));
    }
    let mut text = String::from("askhook uninstall --purge deletes:\n");
    for f in &plan.files {
        text.push_str(&format!(
            "  {}\n",
            ui::sanitize(&f.display().to_string(), false)
        ));
    }
    text.push_str("Delete them, and the folders they leave empty? [y/N] ");
    ui::print(&text)?;
    let mut line = String::new();
    let _ = std::io::stdin().read_line(&mut line);
    Ok(matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// Carry out `plan` (or, in a dry run, say what it would do): the report lines.
pub fn run(plan: &Plan, dry_run: bool) -> Result<Vec<String>> {
    let verb = if dry_run { "would delete" } else { "deleted" };
    let mut lines: Vec<String> = Vec::new();
    for f in &plan.files {
        if !dry_run {
            fs::remove_file(f).map_err(|e| Error::io(f, e))?;
        }
        lines.push(format!("{verb} {}", f.display()));
    }
    for dir in &plan.folders {
        // Only the data folder itself is worth a line; the backup tree is askhook's own.
        if !dry_run && fs::remove_dir(dir).is_ok() && Some(dir) == plan.folders.last() {
            lines.push(format!("removed the folder {}", dir.display()));
        }
    }
    let data = plan.folders.last().filter(|d| d.is_dir());
    if let (Some(data), false) = (data, dry_run) {
        let others: Vec<String> = fs::read_dir(data)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .take(5)
            .collect();
        lines.push(format!(
            "kept {}: it holds files askhook did not make ({})",
            data.display(),
            ui::sanitize(&others.join(", "), false)
        ));
    }
    if plan.files.is_empty() {
        lines.push("no askhook data to delete".into());
    }
    Ok(lines)
}
