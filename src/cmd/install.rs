//! The settings commands: `askhook install`, `uninstall`, `status` and `rollback`. The edit
//! path itself (lock, re-read, merge, backup, atomic write) is [`crate::install`]; this file
//! decides what to print.

use std::fs;
use std::io;
use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use crate::cli::{InstallArgs, RollbackArgs, StatusArgs, UninstallArgs};
use crate::error::{Error, Result};
use crate::install::{
    backup, backups, claude_md, edit, lock, merge, on_disk, real_path, report, resolve,
    this_binary, Change, Desired, ItemStatus, ScopeStatus,
};
use crate::sys::{fsutil, ui};
use crate::Context;

use super::Run;

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
    if args.timeout == 0 {
        return Err(Error::Usage(
            "--timeout must be at least 1 second (Claude Code's default is 60; askhook's is 5)"
                .into(),
        ));
    }
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
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Apply (or with `dry_run` show) an edit of the CLAUDE.md block, and say what happened.
fn claude_md_edit(edit: &claude_md::Edit, dry_run: bool) -> Result<()> {
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
    let backup = edit.apply()?;
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
    if args.dry_run || target.path.exists() {
        let merge_fn = |v: &Value| merge::uninstall(v);
        let edited = edit(&target, args.dry_run, &merge_fn)?;
        if let Some(diff) = &edited.diff {
            ui::print(diff)?;
        }
        let mut lines = change_lines(&edited.changes);
        if let Some(b) = &edited.backup {
            lines.push(format!("backup: {}", b.display()));
        }
        let file = target.path.display();
        lines.push(if args.dry_run {
            if edited.changes.iter().any(Change::writes) {
                format!("dry run: {file} was not changed; run the same command without --dry-run to apply")
            } else {
                format!("dry run: nothing to change in {file}")
            }
        } else if edited.wrote {
            format!(
                "askhook is no longer registered in {file}; `askhook rollback` puts it back. \
                 Your answer log is kept (see `askhook doctor` for where)."
            )
        } else {
            format!("nothing to change: {file} does not register askhook.")
        });
        print_lines(&lines)?;
    } else {
        ui::println(&format!(
            "nothing to change: {} does not exist.",
            target.path.display()
        ))?;
    }
    // The block belongs with the user-scope registration: uninstalling a project scope leaves it.
    if real_path(&target.path) == real_path(&ctx.paths.user_settings()) {
        let block = claude_md::remove(&claude_md::path(&ctx.paths.claude_config_dir))?;
        if block.changes() {
            claude_md_edit(&block, args.dry_run)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn rollback(args: &RollbackArgs, ctx: &Context) -> Result<ExitCode> {
    let target = resolve(&args.target, ctx);
    let path = &real_path(&target.path);
    if !path.parent().is_some_and(Path::is_dir) {
        return Err(Error::Refused(format!(
            "{}: no askhook backup to restore (the folder does not exist)",
            path.display()
        )));
    }
    let _lock = lock(path)?;
    let Some(latest) = backups(path).pop() else {
        return Err(Error::Refused(format!(
            "{}: no askhook backup to restore (askhook backs a file up before each change; \
             the first install into a new file has none; use `askhook uninstall`)",
            path.display()
        )));
    };
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
        Some(bytes) => Some(backup(path, bytes)?),
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

pub fn status(args: &StatusArgs, ctx: &Context) -> Result<ExitCode> {
    let report = report(&args.target, ctx);
    if args.json {
        let text = serde_json::to_string_pretty(&report).expect("status serialises");
        ui::println(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut lines = Vec::new();
    if let Some(b) = &report.binary {
        lines.push(format!("this binary: {}", ui::sanitize(b, false)));
    }
    for s in &report.scopes {
        lines.extend(scope_lines(s));
    }
    let needs_repair = report
        .scopes
        .iter()
        .any(|s| !s.items.is_empty() && (!s.registered || !s.duplicates.is_empty() || s.dead > 0));
    let any = report.scopes.iter().any(|s| s.registered);
    lines.push(if needs_repair {
        "next: run `askhook install` (with the same --scope) to repair the registration.".into()
    } else if any {
        "next: nothing to do; `askhook doctor` runs a self-test of the hook.".into()
    } else {
        "next: `askhook install` registers askhook for your user (or --scope project|local).".into()
    });
    print_lines(&lines)?;
    Ok(ExitCode::SUCCESS)
}
