//! `askhook doctor`: everything needed to tell why askhook does or does not work, in one
//! screen: the paths in use, the schema version and row counts of the answer log, the install
//! state of every settings scope, the last lines of the hook's error log, file modes (the
//! database, spool, error log and settings backups should be 0600, the data folder 0700), and a
//! timed self-test of the hook.
//!
//! The self-test runs this same binary (`current_exe`) as `askhook hook` with `ASKHOOK_HOME`
//! pointing at a fresh temp folder (the real log is never touched) and a sample PreToolUse
//! payload on stdin, then checks: exit 0, empty stdout (an abstain), and a pending row recorded.
//! The real data folder is checked too ([`super::health`]: writable, free space, spool backlog,
//! lost events, schema); the self-test alone would pass on a read-only or full disk.
//! Exit status: 0 when the self-test passes and the data folder has no problem, 1 otherwise.
//! Warnings never change it.
//!
//! ## `doctor --json`
//! ```json
//! { "version": "0.1.0", "binary": "/abs/askhook",
//!   "paths": { "data_dir": "…", "db": "…", "spool": "…", "error_log": "…",
//!              "user_registry": "…", "claude_config_dir": "…",
//!              "settings": { "user": "…", "project": "…", "local": "…" } },
//!   "database": { "exists": true, "schema_version": 1, "latest_schema_version": 1,
//!                 "rows": { "questions": 12, "preferences": 1, "preference_events": 2 },
//!                 "spool_bytes": 0, "problem": null },
//!   "install": { …the `status --json` document… },
//!   "error_log": { "exists": false, "last_lines": [] },
//!   "modes": [ { "what": "database", "path": "…", "mode": "0600", "expected": "0600", "ok": true } ],
//!   "self_test": { "ok": true, "millis": 12.5, "exit_code": 0, "stdout_empty": true,
//!                  "pending_rows": 2, "problem": null },
//!   "data": { …see `cmd::health`: writable, free_bytes, spool_backlog_bytes, lost_events,
//!             problems, warnings… },
//!   "config": { "path": "…", "exists": false, "valid": true, "error": null,
//!               "decide_with": "deny", "context_from_history": false },
//!   "claude_md": { "path": "…/CLAUDE.md", "exists": true, "marker_block": false },
//!   "warnings": [ "…" ] }
//! ```
//! `schema_version` and `rows` are `null` when there is no database yet; `mode` is `null` when
//! the file does not exist (such entries are left out of `modes`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cli::{DoctorArgs, Scope, SettingsTarget};
use crate::error::Result;
use crate::install::{self, StatusReport};
use crate::store::{migrations, Filter, Outcome, Store};
use crate::sys::errlog::ErrorLog;
use crate::sys::fsutil;
use crate::sys::ui;
use crate::Context;

use super::health::{self, Health};

/// Error-log lines shown.
const TAIL_LINES: usize = 10;

/// The longest the self-test waits for the hook (its own deadline is 2.5 s).
const SELF_TEST_BUDGET: Duration = Duration::from_secs(10);

/// The sample payload of the self-test (a real PreToolUse capture, cwd and ids replaced).
const SAMPLE_PAYLOAD: &str = r#"{"session_id":"askhook-doctor-self-test","transcript_path":"/dev/null","cwd":"@CWD@","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which approach should we use?","header":"Approach","options":[{"label":"X (Recommended)","description":"The recommended approach X."},{"label":"Y","description":"The alternative approach Y."}],"multiSelect":false}]},"tool_use_id":"toolu_askhook_doctor_0001"}"#;

#[derive(Debug, Serialize)]
struct SettingsPaths {
    user: String,
    project: String,
    local: String,
}

#[derive(Debug, Serialize)]
struct PathsReport {
    data_dir: String,
    db: String,
    spool: String,
    error_log: String,
    user_registry: String,
    claude_config_dir: String,
    settings: SettingsPaths,
}

#[derive(Debug, Serialize)]
struct Rows {
    questions: i64,
    preferences: i64,
    preference_events: i64,
}

#[derive(Debug, Serialize)]
struct DatabaseReport {
    exists: bool,
    schema_version: Option<i64>,
    latest_schema_version: i64,
    rows: Option<Rows>,
    spool_bytes: Option<u64>,
    problem: Option<String>,
}

#[derive(Debug, Serialize)]
struct ErrorLogReport {
    exists: bool,
    last_lines: Vec<String>,
}

#[derive(Debug, Serialize)]
struct ModeReport {
    what: String,
    path: String,
    mode: String,
    expected: String,
    ok: bool,
}

#[derive(Debug, Serialize)]
struct SelfTest {
    ok: bool,
    millis: f64,
    exit_code: Option<i32>,
    stdout_empty: bool,
    pending_rows: usize,
    problem: Option<String>,
}

/// A user-registry entry that disagrees with the embedded registry.
#[derive(Debug, Serialize)]
struct OverrideReport {
    id: String,
    embedded: &'static str,
    user: &'static str,
    i_know: bool,
    honoured: bool,
}

/// The config file, as the hook will read it.
#[derive(Debug, Serialize)]
struct ConfigReport {
    path: String,
    exists: bool,
    valid: bool,
    error: Option<String>,
    decide_with: &'static str,
    context_from_history: bool,
}

/// The user's CLAUDE.md and askhook's block in it (`install --claude-md`).
#[derive(Debug, Serialize)]
struct ClaudeMdReport {
    path: String,
    exists: bool,
    marker_block: bool,
}

fn config_report(ctx: &Context, warnings: &mut Vec<String>) -> ConfigReport {
    let loaded = crate::config::load(&ctx.paths.config);
    let error = match loaded.config() {
        Err(why) => Some(why.to_owned()),
        Ok(_) => None,
    };
    if let Some(why) = &error {
        warnings.push(format!(
            "the config file cannot be used, so the hook records and decides nothing: {why} (askhook config edit)"
        ));
    }
    let config = crate::sys::paths::config_with_env(loaded.config().unwrap_or_default());
    ConfigReport {
        path: show(&ctx.paths.config),
        exists: loaded != crate::config::Loaded::Absent,
        valid: error.is_none(),
        error,
        decide_with: config.decide_with.as_str(),
        context_from_history: config.context_from_history,
    }
}

fn claude_md_report(ctx: &Context) -> ClaudeMdReport {
    let path = install::claude_md::path(&ctx.paths.claude_config_dir);
    let text = std::fs::read_to_string(&path).ok();
    ClaudeMdReport {
        path: show(&path),
        exists: text.is_some(),
        marker_block: text.as_deref().is_some_and(install::claude_md::has_block),
    }
}

#[derive(Debug, Serialize)]
struct Report {
    version: &'static str,
    binary: Option<String>,
    paths: PathsReport,
    database: DatabaseReport,
    install: StatusReport,
    error_log: ErrorLogReport,
    modes: Vec<ModeReport>,
    self_test: SelfTest,
    data: Health,
    registry_overrides: Vec<OverrideReport>,
    config: ConfigReport,
    claude_md: ClaudeMdReport,
    warnings: Vec<String>,
}

fn show(p: &Path) -> String {
    p.display().to_string()
}

fn database(ctx: &Context) -> DatabaseReport {
    let db = &ctx.paths.db;
    // Questions wait in the spool until the end of their turn: take them in, as `log` would,
    // so the facts below are the log's (a log this process cannot write is only read).
    if std::fs::metadata(ctx.paths.spool()).is_ok_and(|m| m.len() > 0) {
        let _ = super::open_for_query(ctx);
    }
    let spool_bytes = std::fs::metadata(ctx.paths.spool()).ok().map(|m| m.len());
    let mut report = DatabaseReport {
        exists: db.exists(),
        schema_version: None,
        latest_schema_version: migrations::latest(),
        rows: None,
        spool_bytes,
        problem: None,
    };
    if !report.exists {
        return report;
    }
    let store = match Store::open_read_only(db, Duration::from_millis(500)) {
        Ok(s) => s,
        Err(e) => {
            report.problem = Some(e.to_string());
            return report;
        }
    };
    match store.schema_version() {
        Ok(v) => report.schema_version = Some(v),
        Err(e) => report.problem = Some(e.to_string()),
    }
    match store.counts() {
        Ok(c) => {
            report.rows = Some(Rows {
                questions: c.questions,
                preferences: c.preferences,
                preference_events: c.preference_events,
            });
        }
        Err(e) => report.problem = Some(e.to_string()),
    }
    report
}

#[cfg(unix)]
fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<u32> {
    None
}

/// The modes of every private file askhook keeps (only those that exist).
fn modes(ctx: &Context, settings: &[PathBuf]) -> Vec<ModeReport> {
    let mut wanted: Vec<(String, PathBuf, u32)> = vec![
        ("data folder".into(), ctx.paths.data_dir.clone(), 0o700),
        ("database".into(), ctx.paths.db.clone(), 0o600),
        (
            "database WAL".into(),
            suffixed(&ctx.paths.db, "-wal"),
            0o600,
        ),
        (
            "database SHM".into(),
            suffixed(&ctx.paths.db, "-shm"),
            0o600,
        ),
        ("spool".into(), ctx.paths.spool(), 0o600),
        ("standing preferences".into(), ctx.paths.standing(), 0o600),
        ("error log".into(), ctx.paths.error_log.clone(), 0o600),
        (
            "error log (rotated)".into(),
            suffixed(&ctx.paths.error_log, ".1"),
            0o600,
        ),
    ];
    for file in settings {
        let backup_dir = ctx.paths.data_dir.join(install::BACKUP_FOLDER);
        for backup in install::saved_backups(&backup_dir, file) {
            wanted.push(("settings backup".into(), backup, 0o600));
        }
    }
    wanted
        .into_iter()
        .filter_map(|(what, path, expected)| {
            let mode = mode_of(&path)?;
            Some(ModeReport {
                what,
                path: show(&path),
                mode: format!("{mode:04o}"),
                expected: format!("{expected:04o}"),
                ok: mode == expected,
            })
        })
        .collect()
}

fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Run this binary as the hook on a sample payload against a temp `ASKHOOK_HOME`.
fn self_test(ctx: &Context) -> SelfTest {
    let mut result = SelfTest {
        ok: false,
        millis: 0.0,
        exit_code: None,
        stdout_empty: false,
        pending_rows: 0,
        problem: None,
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            result.problem = Some(format!("cannot find this binary: {e}"));
            return result;
        }
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = std::env::temp_dir().join(format!("askhook-doctor-{}-{nanos:x}", std::process::id()));
    if let Err(e) = fsutil::create_private_dir(&tmp) {
        result.problem = Some(format!("{}: {e}", tmp.display()));
        return result;
    }
    run_self_test(&exe, &tmp, ctx, &mut result);
    let _ = std::fs::remove_dir_all(&tmp);
    result.ok = result.problem.is_none();
    result
}

/// The child's exit status, or `None` (and the child killed) once `budget` since `started` is
/// spent.
fn wait_within(
    child: &mut std::process::Child,
    started: Instant,
    budget: Duration,
) -> Option<std::process::ExitStatus> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if started.elapsed() < budget => std::thread::sleep(Duration::from_millis(2)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// Whether the self-test's hook recorded its question as pending: in the temp spool, which a
/// CLI open ingests into the temp database (as `askhook log` would).
fn check_recorded(tmp: &Path, ctx: &Context, result: &mut SelfTest) {
    let db = tmp.join("askhook.db");
    let pending = Store::open(&db, Duration::from_millis(500)).and_then(|store| {
        let query = Filter {
            outcomes: vec![Outcome::Pending],
            ..Filter::at(ctx.now_ms.max(crate::sys::time::now_ms()))
        };
        store.rows(&query)
    });
    match pending {
        Ok(rows) => {
            result.pending_rows = rows.len();
            if rows.is_empty() {
                result.problem = Some("the hook recorded no pending question".into());
            }
        }
        Err(e) => {
            let log = ErrorLog::new(tmp.join("errors.log")).tail(1);
            result.problem = Some(format!(
                "the hook wrote nothing a command can read ({e}){}",
                log.first()
                    .map(|l| format!("; its error log says: {l}"))
                    .unwrap_or_default()
            ));
        }
    }
}

fn run_self_test(exe: &Path, tmp: &Path, ctx: &Context, result: &mut SelfTest) {
    let cwd = tmp
        .to_string_lossy()
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    let payload = SAMPLE_PAYLOAD.replace("@CWD@", &cwd);
    let started = Instant::now();
    let child = Command::new(exe)
        .arg("hook")
        .env("ASKHOOK_HOME", tmp)
        .env_remove("ASKHOOK_DB")
        .env_remove("ASKHOOK_ERROR_LOG")
        .env_remove("ASKHOOK_REGISTRY")
        .current_dir(tmp)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            result.problem = Some(format!("cannot run {} hook: {e}", exe.display()));
            return;
        }
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(payload.as_bytes());
    }
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.read_to_end(&mut out);
        }
        out
    });
    let status = wait_within(&mut child, started, SELF_TEST_BUDGET);
    result.millis = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    let out = reader.join().unwrap_or_default();
    result.stdout_empty = out.is_empty();
    let Some(status) = status else {
        result.problem = Some(format!(
            "the hook did not finish within {} s",
            SELF_TEST_BUDGET.as_secs()
        ));
        return;
    };
    result.exit_code = status.code();
    if !status.success() {
        result.problem = Some(format!("the hook exited {status}; it must always exit 0"));
        return;
    }
    if !out.is_empty() {
        result.problem = Some(format!(
            "the hook printed {:?} for a question it should abstain on",
            ui::sanitize(&String::from_utf8_lossy(&out), false)
        ));
        return;
    }
    check_recorded(tmp, ctx, result);
}

/// What is worth a warning about the registrations: several scopes, plugin and settings both,
/// files that need repair.
fn install_warnings(install: &StatusReport, warnings: &mut Vec<String>) {
    let registered: Vec<&str> = install
        .scopes
        .iter()
        .filter(|s| !s.items.is_empty())
        .map(|s| s.scope)
        .collect();
    if registered.len() > 1 {
        warnings.push(format!(
            "askhook is registered in several scopes ({}): each event runs the hook once per scope",
            registered.join(", ")
        ));
    }
    let plugin = install.scopes.iter().any(|s| s.plugin_enabled);
    if plugin && !registered.is_empty() {
        warnings.push(format!(
            "the askhook plugin is enabled and askhook is also registered in settings ({}): \
             each event runs the hook twice; keep one (`askhook uninstall --scope …` or \
             `/plugin disable askhook@askhook`)",
            registered.join(", ")
        ));
    }
    for s in &install.scopes {
        if let Some(p) = &s.problem {
            warnings.push(format!("{} settings {}: {p}", s.scope, s.file));
        } else if !s.items.is_empty() && (!s.registered || s.dead > 0 || !s.duplicates.is_empty()) {
            warnings.push(format!(
                "{} settings {} need repair: run `askhook install --scope {}`",
                s.scope, s.file, s.scope
            ));
        }
    }
}

fn build(ctx: &Context) -> Report {
    let settings_of = |s| install::scope_path(s, ctx);
    let user = settings_of(Scope::User);
    let project = settings_of(Scope::Project);
    let local = settings_of(Scope::Local);
    let install = install::report(&SettingsTarget::default(), ctx);
    let error_log = ErrorLog::new(&ctx.paths.error_log);
    let mut warnings = Vec::new();
    let modes = modes(ctx, &[user.clone(), project.clone(), local.clone()]);
    for m in modes.iter().filter(|m| !m.ok) {
        let chmod = if m.expected == "0700" { "700" } else { "600" };
        warnings.push(format!(
            "{} {} is {}, expected {} (fix: chmod {chmod} '{}')",
            m.what, m.path, m.mode, m.expected, m.path
        ));
    }
    let database = database(ctx);
    let data = health::check(ctx);
    install_warnings(&install, &mut warnings);
    let registry_overrides = registry_overrides(ctx, &mut warnings);
    let config = config_report(ctx, &mut warnings);
    let claude_md = claude_md_report(ctx);
    let self_test = self_test(ctx);
    Report {
        version: env!("CARGO_PKG_VERSION"),
        binary: install.binary.clone(),
        paths: PathsReport {
            data_dir: show(&ctx.paths.data_dir),
            db: show(&ctx.paths.db),
            spool: show(&ctx.paths.spool()),
            error_log: show(&ctx.paths.error_log),
            user_registry: show(&ctx.paths.user_registry),
            claude_config_dir: show(&ctx.paths.claude_config_dir),
            settings: SettingsPaths {
                user: show(&user),
                project: show(&project),
                local: show(&local),
            },
        },
        database,
        install,
        error_log: ErrorLogReport {
            exists: ctx.paths.error_log.exists(),
            last_lines: error_log.tail(TAIL_LINES),
        },
        modes,
        self_test,
        data,
        registry_overrides,
        config,
        claude_md,
        warnings,
    }
}

/// User-registry entries that change an embedded door type; lowering one is always shown.
fn registry_overrides(ctx: &Context, warnings: &mut Vec<String>) -> Vec<OverrideReport> {
    let registry = match crate::registry::load(&ctx.paths.user_registry) {
        Ok(r) => r,
        Err(problem) => {
            warnings.push(format!(
                "user registry {}: {problem}",
                show(&ctx.paths.user_registry)
            ));
            return Vec::new();
        }
    };
    let overrides: Vec<OverrideReport> = registry
        .overrides()
        .into_iter()
        .map(|o| OverrideReport {
            embedded: o.embedded.as_str(),
            user: o.user.as_str(),
            i_know: o.i_know,
            honoured: o.honoured,
            id: o.id,
        })
        .collect();
    for o in &overrides {
        if o.embedded == "one-way" && o.user == "two-way" {
            let state = if o.honoured {
                "in effect (--i-know): the registry no longer forces it to be asked; the classifier still reads its text"
            } else {
                "ignored (written without --i-know)"
            };
            warnings.push(format!(
                "the user registry marks the one-way question `{}` two-way: {state}",
                o.id
            ));
        }
    }
    overrides
}

fn exists_note(path: &Path) -> &'static str {
    if path.exists() {
        ""
    } else {
        "  (none yet)"
    }
}

/// The `paths` section: every file askhook uses, and whether it exists yet.
fn path_lines(r: &Report, ctx: &Context) -> Vec<String> {
    let clean = |s: &str| ui::sanitize(s, false);
    let mut out = Vec::new();
    let p = &ctx.paths;
    let rows = [
        ("data folder", p.data_dir.clone()),
        ("database", p.db.clone()),
        ("spool", p.spool()),
        ("error log", p.error_log.clone()),
        ("user registry", p.user_registry.clone()),
        ("claude config", p.claude_config_dir.clone()),
    ];
    for (name, path) in rows {
        out.push(format!(
            "  {name:<16} {}{}",
            clean(&show(&path)),
            exists_note(&path)
        ));
    }
    for (name, file) in [
        ("settings user", &r.paths.settings.user),
        ("settings project", &r.paths.settings.project),
        ("settings local", &r.paths.settings.local),
    ] {
        out.push(format!(
            "  {name:<16} {}{}",
            clean(file),
            exists_note(Path::new(file))
        ));
    }
    out
}

/// The `database` section: schema version and row counts, or why it cannot be read.
fn database_lines(d: &DatabaseReport) -> Vec<String> {
    let clean = |s: &str| ui::sanitize(s, false);
    let mut out = Vec::new();
    match (d.exists, d.schema_version, &d.rows) {
        (false, _, _) => out.push("  no database yet (the first question asked creates it)".into()),
        (true, Some(v), Some(rows)) => {
            out.push(format!(
                "  schema version {v} (this binary: {})",
                d.latest_schema_version
            ));
            out.push(format!(
                "  rows: {} questions, {} preferences, {} preference changes",
                rows.questions, rows.preferences, rows.preference_events
            ));
        }
        _ => out.push(format!(
            "  cannot read: {}",
            clean(d.problem.as_deref().unwrap_or("unknown problem"))
        )),
    }
    out
}

/// The closing `next:` line: the most pressing thing to do.
fn next_step(r: &Report) -> &'static str {
    let any_registered = r
        .install
        .scopes
        .iter()
        .any(|s| s.registered || s.plugin_enabled);
    if !r.self_test.ok {
        "next: the hook itself fails; reinstall askhook (install/install.sh) and run doctor again."
    } else if !r.data.ok() {
        "next: fix the PROBLEM lines under `data folder`: askhook could not, or cannot, record there."
    } else if !any_registered {
        "next: `askhook install` registers the hook for your user."
    } else if !r.warnings.is_empty() || !r.data.warnings.is_empty() {
        "next: fix the warnings above."
    } else {
        "next: all good. `askhook log` shows what was asked."
    }
}

/// The config file and the CLAUDE.md block, under `paths`.
fn feature_lines(r: &Report) -> Vec<String> {
    let clean = |s: &str| ui::sanitize(s, false);
    let c = &r.config;
    let config = match (c.exists, &c.error) {
        (false, _) => "none yet: every key at its default (askhook config edit)".to_owned(),
        (true, None) => format!(
            "decide_with = {}, context_from_history = {}",
            c.decide_with, c.context_from_history
        ),
        (true, Some(why)) => format!("INVALID, the hook does nothing: {}", clean(why)),
    };
    let block = match (r.claude_md.exists, r.claude_md.marker_block) {
        (_, true) => "askhook's marker block is there",
        (true, false) => "no askhook block (optional: askhook install --claude-md)",
        (false, false) => "none (optional: askhook install --claude-md)",
    };
    vec![
        format!("  {:<16} {}  {config}", "config", clean(&c.path)),
        format!(
            "  {:<16} {}  {block}",
            "CLAUDE.md",
            clean(&r.claude_md.path)
        ),
    ]
}

fn render(r: &Report, ctx: &Context) -> String {
    let mut out = Vec::new();
    let clean = |s: &str| ui::sanitize(s, false);
    out.push(format!(
        "askhook {} ({})",
        r.version,
        clean(r.binary.as_deref().unwrap_or("binary path unknown"))
    ));
    out.push(String::new());
    out.push("paths".into());
    out.extend(path_lines(r, ctx));
    out.extend(feature_lines(r));
    out.push(String::new());
    out.push("database".into());
    out.extend(database_lines(&r.database));
    out.push(String::new());
    out.push("data folder".into());
    out.extend(health::lines(&r.data));
    out.push(String::new());
    out.push("install".into());
    for s in &r.install.scopes {
        out.extend(
            super::install::scope_lines(s)
                .into_iter()
                .map(|l| format!("  {l}")),
        );
    }
    out.push(String::new());
    out.push(format!("error log (last {TAIL_LINES} lines)"));
    if r.error_log.last_lines.is_empty() {
        out.push("  empty".into());
    } else {
        out.extend(
            r.error_log
                .last_lines
                .iter()
                .map(|l| format!("  {}", clean(l))),
        );
    }
    out.push(String::new());
    out.push("self-test".into());
    let t = &r.self_test;
    if t.ok {
        out.push(format!(
            "  ok: `askhook hook` on a sample question exited 0, printed nothing and recorded {} pending {} in {:.1} ms",
            t.pending_rows,
            if t.pending_rows == 1 { "row" } else { "rows" },
            t.millis
        ));
    } else {
        out.push(format!(
            "  FAILED after {:.1} ms: {}",
            t.millis,
            clean(t.problem.as_deref().unwrap_or("unknown"))
        ));
    }
    if !r.warnings.is_empty() {
        out.push(String::new());
        out.push("warnings".into());
        out.extend(r.warnings.iter().map(|w| format!("  {}", clean(w))));
    }
    out.push(String::new());
    out.push(next_step(r).into());
    let mut text = out.join("\n");
    text.push('\n');
    text
}

impl super::Run for DoctorArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self, ctx)
    }
}

fn run(args: &DoctorArgs, ctx: &Context) -> Result<ExitCode> {
    let report = build(ctx);
    if args.json {
        ui::println(&serde_json::to_string_pretty(&report).expect("doctor report serialises"))?;
    } else {
        ui::print(&render(&report, ctx))?;
    }
    Ok(if report.self_test.ok && report.data.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
