//! The settings commands: `askhook install`, `uninstall`, `status` and `rollback`. The edit
//! path itself (lock, re-read, merge, backup, atomic write) is [`crate::install`]; this file
//! decides what to print.
//!
//! `status` also checks the data folder ([`super::health`]; `data` in `--json`) and exits 1
//! when the hook cannot record there, or did not.

use std::fs;
use std::io;
use std::process::ExitCode;

use serde_json::Value;

use crate::cli::{InstallArgs, RollbackArgs, SettingsTarget, StatusArgs, UninstallArgs};
use crate::error::{Error, Result};
use crate::install::{
    backup, claude_md, edit, ensure_parent, lock, merge, on_disk, real_path, report, resolve,
    saved_backups, this_binary, Change, Desired, ItemStatus, ScopeStatus, Target,
};
use crate::sys::{fsutil, ui};
use crate::Context;

use super::{health, purge, Run};

impl Run for InstallArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        install(self, ctx)
    }
}

impl Run for UninstallArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        uninstall(self, ctx)
    }
}

impl Run for StatusArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        status(self, ctx)
    }
}

impl Run for RollbackArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        rollback(self, ctx)
    }
}

/// The lines printed for a list of changes: one per event, prunes and collapses summed up.
fn change_lines(changes: &[Change]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut pruned = Vec::new();
    let mut collapsed = 0;
    for change in changes {
        match change {
            Change::Pruned { program, .. } => pruned.push(program.clone()),
            Change::Collapsed { .. } => collapsed += 1,
            other => lines.push(ui::sanitize(&other.to_string(), false)),
        }
    }
    if !pruned.is_empty() {
        let mut programs = pruned.clone();
        programs.sort();
        programs.dedup();
        lines.push(ui::sanitize(
            &format!(
                "pruned {} dead {} ({} no longer exists)",
                pruned.len(),
                if pruned.len() == 1 {
                    "entry"
                } else {
                    "entries"
                },
                programs.join(", ")
            ),
            false,
        ));
    }
    if collapsed > 0 {
        lines.push(format!(
            "collapsed {collapsed} duplicate {}",
            if collapsed == 1 { "entry" } else { "entries" }
        ));
    }
    lines
}

fn print_lines(lines: &[String]) -> Result<()> {
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    ui::print(&text)
}

fn install(args: &InstallArgs, ctx: &Context) -> Result<ExitCode> {
    let target = resolve(&args.target, ctx);
    let desired = Desired {
        program: this_binary()?,
        shell_form: args.shell_form,
        timeout: args.timeout,
    };
    let home = ctx.paths.home.clone();
    let alive = move |program: &str| on_disk(program, home.as_deref()).exists != Some(false);
    let merge_fn = |v: &Value| merge::install(v, &desired, &alive);
    let edited = edit(&target, args.dry_run, &merge_fn)?;
    if let Some(diff) = &edited.diff {
        ui::print(diff)?;
    }
    if edited.wrote
        && (desired.program.contains("/target/debug/")
            || desired.program.contains("/target/release/"))
    {
        ui::eprintln_warning(&format!(
            "registering a binary inside a cargo target folder ({}); `cargo clean` would break \
             the hook. install/install.sh installs a stable copy.",
            desired.program
        ));
    }
    let mut lines = change_lines(&edited.changes);
    if let Some(b) = &edited.backup {
        lines.push(format!("backup: {}", b.display()));
    }
    let file = target.path.display();
    lines.push(if args.dry_run {
        if edited.changes.iter().any(Change::writes) {
            format!(
                "dry run: {file} was not changed; run the same command without --dry-run to apply"
            )
        } else {
            format!("dry run: nothing to change in {file}")
        }
    } else if edited.wrote {
        format!(
            "askhook is registered in {file}; Claude Code reloads settings on its own (new \
             sessions pick it up). Check with `askhook status`, try `askhook doctor`."
        )
    } else {
        format!("nothing to change: {file} already registers askhook. See `askhook status`.")
    });
    print_lines(&lines)?;
    if args.claude_md {
        claude_md_edit(
            &claude_md::add(&claude_md::path(&ctx.paths.claude_config_dir))?,
            args.dry_run,
            ctx,
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Apply (or with `dry_run` show) an edit of the CLAUDE.md block, and say what happened.
fn claude_md_edit(edit: &claude_md::Edit, dry_run: bool, ctx: &Context) -> Result<()> {
    let file = edit.path.display();
    if !edit.changes() {
        let state = if edit.new.as_deref().is_some_and(claude_md::has_block) {
            "already holds askhook's marker block"
        } else {
            "holds no askhook block"
        };
        return ui::println(&format!("nothing to change: {file} {state}."));
    }
    if dry_run {
        ui::print(&edit.diff())?;
        return ui::println(&format!("dry run: {file} was not changed"));
    }
    let backup = edit.apply(&ctx.paths.data_dir.join(crate::install::BACKUP_FOLDER))?;
    let mut lines = Vec::new();
    if let Some(b) = backup {
        lines.push(format!("backup: {}", b.display()));
    }
    lines.push(if edit.new.as_deref().is_some_and(claude_md::has_block) {
        format!(
            "added askhook's block to {file}: agents will mark recurring questions with \
             <askhook-qid:ID>, so your preferences follow them whatever the wording."
        )
    } else {
        format!("removed askhook's block from {file}.")
    });
    print_lines(&lines)
}

fn uninstall(args: &UninstallArgs, ctx: &Context) -> Result<ExitCode> {
    let target = resolve(&args.target, ctx);
    let plan = args.purge.then(|| purge::plan(ctx));
    if let Some(plan) = &plan {
        if !args.dry_run && !purge::confirm(plan, args.yes)? {
            ui::println("nothing changed")?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut lines = unregister(args, &target)?;
    if args.purge {
        // Planned again: the uninstall has just added a backup.
        lines.extend(purge::run(&purge::plan(ctx), args.dry_run)?);
        let others = report(&SettingsTarget::default(), ctx);
        for s in others.scopes.iter().filter(|s| !s.items.is_empty()) {
            lines.push(format!(
                "note: askhook is still registered in {} ({}); its hook starts a new log on \
                 the next question: `askhook uninstall{} --purge`",
                ui::sanitize(&s.file, false),
                s.scope,
                scope_flags(s.scope, &s.file)
            ));
        }
    }
    print_lines(&lines)?;
    // The block belongs with the user-scope registration: uninstalling a project scope leaves it.
    if real_path(&target.path).ok() == real_path(&ctx.paths.user_settings()).ok() {
        let block = claude_md::remove(&claude_md::path(&ctx.paths.claude_config_dir))?;
        if block.changes() {
            claude_md_edit(&block, args.dry_run, ctx)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Remove askhook's entries from the target's settings file: the report lines (a dry run's
/// diff is printed here).
fn unregister(args: &UninstallArgs, target: &Target) -> Result<Vec<String>> {
    let file = target.path.display();
    if !args.dry_run && !target.path.exists() {
        return Ok(vec![format!("nothing to change: {file} does not exist.")]);
    }
    let merge_fn = |v: &Value| merge::uninstall(v);
    let edited = edit(target, args.dry_run, &merge_fn)?;
    if let Some(diff) = &edited.diff {
        ui::print(diff)?;
    }
    let mut lines = change_lines(&edited.changes);
    if let Some(b) = &edited.backup {
        lines.push(format!("backup: {}", b.display()));
    }
    let flags = scope_flags(target.scope, &target.path.to_string_lossy());
    let emptied = if edited.removed {
        " It held nothing else, so the file is removed."
    } else {
        ""
    };
    let kept = if args.purge {
        ""
    } else {
        " Your answer log is kept (see `askhook doctor` for where; `--purge` deletes it)."
    };
    lines.push(if args.dry_run {
        if edited.changes.iter().any(Change::writes) {
            format!("dry run: {file} was not changed; run the same command without --dry-run to apply.{emptied}")
        } else {
            format!("dry run: nothing to change in {file}")
        }
    } else if edited.wrote {
        format!(
            "askhook is no longer registered in {file}.{emptied} `askhook rollback{flags}` puts \
             it back.{kept}"
        )
    } else {
        format!("nothing to change: {file} does not register askhook.")
    });
    Ok(lines)
}

fn rollback(args: &RollbackArgs, ctx: &Context) -> Result<ExitCode> {
    let target = resolve(&args.target, ctx);
    let path = &real_path(&target.path)?;
    let none = || {
        Error::Refused(format!(
            "{}: no askhook backup to restore (askhook backs a file up into {} before each \
             change; the first install into a new file has none; use `askhook uninstall`)",
            path.display(),
            target.backup_dir.display()
        ))
    };
    if saved_backups(&target.backup_dir, path).is_empty() {
        return Err(none());
    }
    // An uninstall may have removed the file and its emptied folder.
    ensure_parent(path, &target)?;
    let _lock = lock(path)?;
    let latest = saved_backups(&target.backup_dir, path)
        .pop()
        .ok_or_else(none)?;
    let restored = fs::read(&latest).map_err(|e| Error::io(&latest, e))?;
    let current = match fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(path, e)),
    };
    if current.as_deref() == Some(&restored[..]) {
        ui::println(&format!(
            "nothing to change: {} already equals its latest backup {}",
            path.display(),
            latest.display()
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let saved = match &current {
        Some(bytes) => Some(backup(&target.backup_dir, path, bytes)?),
        None => None,
    };
    fsutil::atomic_write(path, &restored).map_err(|e| Error::io(path, e))?;
    let mut lines = vec![format!(
        "restored {} from {}",
        path.display(),
        latest.display()
    )];
    if let Some(s) = saved {
        lines.push(format!(
            "backup of the file before the rollback: {}",
            s.display()
        ));
    }
    lines.push(
        "check the result with `askhook status`; running `askhook rollback` again undoes this rollback."
            .into(),
    );
    print_lines(&lines)?;
    Ok(ExitCode::SUCCESS)
}

/// The human-readable lines for one scope.
pub fn scope_lines(s: &ScopeStatus) -> Vec<String> {
    let mut lines = vec![format!("{:<8} {}", s.scope, ui::sanitize(&s.file, false))];
    if let Some(problem) = &s.problem {
        lines.push(format!("  cannot read: {}", ui::sanitize(problem, false)));
        return lines;
    }
    if !s.exists {
        lines.push("  no file; askhook not registered".into());
        return lines;
    }
    if s.plugin_enabled {
        lines.push("  enables the askhook plugin (hooks/hooks.json)".into());
    }
    if s.items.is_empty() {
        lines.push("  askhook not registered in this file".into());
        return lines;
    }
    lines.push(format!(
        "  {}: {}",
        if s.registered {
            "registered"
        } else {
            "partly registered"
        },
        s.events.join(" ")
    ));
    if !s.missing.is_empty() {
        lines.push(format!("  missing: {}", s.missing.join(" ")));
    }
    let mut commands: Vec<&ItemStatus> = Vec::new();
    for item in &s.items {
        if !commands
            .iter()
            .any(|c| c.command == item.command && c.form == item.form)
        {
            commands.push(item);
        }
    }
    for c in commands {
        let state = match (c.exists, c.executable) {
            (Some(false), _) => "MISSING",
            (Some(true), Some(false)) => "not executable",
            (Some(true), _) => "exists, executable",
            (None, _) => "not checked (resolved by the shell or PATH)",
        };
        lines.push(format!(
            "  command: {} ({} form; {}{})",
            ui::sanitize(&c.command, false),
            c.form,
            state,
            if c.this_binary { "; this binary" } else { "" }
        ));
    }
    if !s.duplicates.is_empty() {
        lines.push(format!("  duplicates: {}", s.duplicates.join(" ")));
    }
    if s.dead > 0 {
        lines.push(format!("  dead entries: {}", s.dead));
    }
    lines
}

/// `status --json`: the registrations, and the data folder.
#[derive(serde::Serialize)]
struct StatusJson<'a> {
    #[serde(flatten)]
    report: &'a crate::install::StatusReport,
    data: &'a health::Health,
}

pub fn status(args: &StatusArgs, ctx: &Context) -> Result<ExitCode> {
    let report = report(&args.target, ctx);
    let data = health::check(ctx);
    let code = if data.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    };
    if args.json {
        let json = StatusJson {
            report: &report,
            data: &data,
        };
        ui::println(&serde_json::to_string_pretty(&json).expect("status serialises"))?;
        return Ok(code);
    }
    let mut lines = Vec::new();
    if let Some(b) = &report.binary {
        lines.push(format!("this binary: {}", ui::sanitize(b, false)));
    }
    for s in &report.scopes {
        lines.extend(scope_lines(s));
    }
    lines.push("data folder".into());
    lines.extend(health::lines(&data));
    lines.push(if data.ok() {
        next_step(&report, &args.target)
    } else {
        "next: fix the PROBLEM lines above: askhook could not, or cannot, record there.".into()
    });
    print_lines(&lines)?;
    Ok(code)
}

/// The flags that name one scope's file again in a suggested command (` --scope project`,
/// ` --settings FILE`; nothing for the default user scope).
fn scope_flags(scope: &str, file: &str) -> String {
    match scope {
        "user" => String::new(),
        "file" => format!(" --settings {}", super::shell_word(file)),
        scope => format!(" --scope {scope}"),
    }
}

/// [`scope_flags`] of a status line.
fn flags_of(s: &ScopeStatus) -> String {
    scope_flags(s.scope, &s.file)
}

/// `status`'s last line: the one thing to do next, as a command that works on the scope shown.
fn next_step(report: &crate::install::StatusReport, target: &SettingsTarget) -> String {
    if let Some(s) = report.scopes.iter().find(|s| s.problem.is_some()) {
        return format!(
            "next: {} cannot be read (see above): fix it by hand, or restore askhook's last \
             backup with `askhook rollback{flags}`; then `askhook install{flags}`.",
            ui::sanitize(&s.file, false),
            flags = flags_of(s)
        );
    }
    if let Some(s) = report
        .scopes
        .iter()
        .find(|s| !s.items.is_empty() && (!s.registered || !s.duplicates.is_empty() || s.dead > 0))
    {
        return format!(
            "next: run `askhook install{}` to repair the registration in {}.",
            flags_of(s),
            ui::sanitize(&s.file, false)
        );
    }
    // One file can be two scopes (a project at $HOME): count files, not scopes.
    let mut registered: Vec<&ScopeStatus> = Vec::new();
    for s in report.scopes.iter().filter(|s| s.registered) {
        if !registered.iter().any(|r| r.file == s.file) {
            registered.push(s);
        }
    }
    if let [keep, extra @ ..] = &registered[..] {
        if !extra.is_empty() {
            let remove: Vec<String> = extra
                .iter()
                .map(|s| format!("`askhook uninstall{}`", flags_of(s)))
                .collect();
            return format!(
                "next: askhook is registered in {} scopes ({}), so every event runs the hook {}; \
                 keep one ({}) and remove the others: {}.",
                registered.len(),
                registered
                    .iter()
                    .map(|s| s.scope)
                    .collect::<Vec<_>>()
                    .join(", "),
                if registered.len() == 2 {
                    "twice".to_owned()
                } else {
                    format!("{} times", registered.len())
                },
                keep.scope,
                remove.join(", ")
            );
        }
        if report.scopes.iter().any(|s| s.plugin_enabled) {
            return format!(
                "next: the askhook plugin is enabled and askhook is registered in the {} scope, \
                 so every event runs the hook twice; disable the plugin (`/plugin`) or run \
                 `askhook uninstall{}`.",
                keep.scope,
                flags_of(keep)
            );
        }
        return "next: nothing to do; `askhook doctor` runs a self-test of the hook.".into();
    }
    match (&target.settings, target.scope) {
        (Some(_), _) | (None, Some(_)) => format!(
            "next: `askhook install{}` registers askhook there.",
            report.scopes.first().map(flags_of).unwrap_or_default()
        ),
        (None, None) => {
            "next: `askhook install` registers askhook for your user (or --scope project|local)."
                .into()
        }
    }
}
