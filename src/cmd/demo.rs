//! `askhook demo`: a newcomer's first command. Replays a bundled, realistic session
//! (`demo/session.jsonl`: a dozen questions — answered, multiSelect, free text, a never-ask
//! auto-decision, a one-way door that still asks despite a never-ask preference, an MCP
//! failure, a declined question, one left pending) through the real hook code path,
//! [`crate::hook::handle()`], into a throwaway database (or `--db FILE`, which must not exist
//! yet), then prints `log` and `stats` for it. Event times are spread over the last 40
//! minutes, so ages and time-to-answer look real.
//!
//! Each line of the session file is `{"after_s": N, "payload": {…hook payload…}}` (its `cwd`
//! is `{{CWD}}`, replaced by a throwaway project folder) or `{"after_s": N, "pref":
//! {"question_id", "value"}}` (the user setting a preference at that moment).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use serde::Deserialize;

use crate::cli::{DemoArgs, Filters, LogArgs, QueryArgs};
use crate::error::{Error, Result};
use crate::hook::{self, HookContext};
use crate::store::prefs::GLOBAL_SCOPE;
use crate::store::{Row, Store};
use crate::sys::paths::{Budget, Paths};
use crate::sys::{json, ui};
use crate::Context;

use super::Run;
use askhook_core::policy::Preference;

/// The bundled session.
pub const SESSION: &str = include_str!("demo/session.jsonl");

/// How long before now the bundled session starts.
const START_BEFORE_NOW_MS: i64 = 40 * 60 * 1000;

#[derive(Debug, Deserialize)]
struct PrefStep {
    question_id: String,
    value: String,
}

#[derive(Debug, Deserialize)]
struct Step {
    after_s: i64,
    #[serde(default)]
    payload: Option<serde_json::Value>,
    #[serde(default)]
    pref: Option<PrefStep>,
}

/// Removes the throwaway folder when the demo ends, however it ends.
struct Throwaway(Option<PathBuf>);

impl Drop for Throwaway {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Replay the bundled session into `db` with `project` as the session's cwd; returns the
/// number of hook events replayed and the hook's error lines (none expected).
pub fn replay(db: &Path, work: &Path, project: &Path, now_ms: i64) -> Result<(usize, Vec<String>)> {
    let paths = Paths {
        data_dir: work.to_path_buf(),
        db: db.to_path_buf(),
        error_log: work.join("errors.log"),
        user_registry: work.join("registry.json"),
        config: work.join("config.toml"),
        claude_config_dir: work.join("claude"),
        home: None,
    };
    let start = now_ms - START_BEFORE_NOW_MS;
    let cwd = serde_json::Value::String(project.to_string_lossy().into_owned());
    let mut events = 0;
    let mut errors = Vec::new();
    for (n, line) in SESSION.lines().enumerate() {
        let step: Step = serde_json::from_str(line)
            .map_err(|e| Error::Refused(format!("bundled demo session, line {}: {e}", n + 1)))?;
        let at = start + step.after_s * 1000;
        if let Some(mut payload) = step.payload {
            payload["cwd"] = cwd.clone();
            let bytes = serde_json::to_vec(&payload).unwrap_or_default();
            let ctx = HookContext {
                paths: paths.clone(),
                budget: Budget::default(),
                config: Ok(crate::config::Config::default()),
                now_ms: at,
                started: Instant::now(),
            };
            errors.extend(hook::handle(&bytes, &ctx).errors);
            events += 1;
        }
        if let Some(pref) = step.pref {
            let value = Preference::parse(&pref.value).ok_or_else(|| {
                Error::Refused(format!(
                    "bundled demo session: unknown preference {}",
                    pref.value
                ))
            })?;
            let mut store =
                Store::open(db, std::time::Duration::from_secs(5)).map_err(|e| Error::db(db, e))?;
            store
                .set_preference(&pref.question_id, GLOBAL_SCOPE, Some(value), "demo", at)
                .map_err(|e| Error::db(db, e))?;
        }
    }
    Ok((events, errors))
}

impl super::Run for DemoArgs {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        run(self, ctx)
    }
}

fn run(args: &DemoArgs, ctx: &Context) -> Result<ExitCode> {
    if let Some(db) = &args.db {
        if db.exists() {
            return Err(Error::Refused(format!(
                "{}: already exists; the demo writes a fresh database (remove it, or give another --db)",
                db.display()
            )));
        }
    }
    let work = std::env::temp_dir().join(format!(
        "askhook-demo-{}-{}",
        std::process::id(),
        ctx.now_ms
    ));
    let _cleanup = Throwaway(Some(work.clone()));
    let project = work.join("shop");
    std::fs::create_dir_all(project.join(".git")).map_err(|e| Error::io(&project, e))?;
    let db = match &args.db {
        Some(db) if db.is_absolute() => db.clone(),
        Some(db) => ctx.cwd.join(db),
        None => work.join("demo.db"),
    };
    let (events, errors) = replay(&db, &work, &project, ctx.now_ms)?;
    for e in &errors {
        ui::eprintln_warning(&format!("demo: {e}"));
    }
    let demo_ctx = Context {
        paths: Paths {
            db: db.clone(),
            ..ctx.paths.clone()
        },
        cwd: ctx.cwd.clone(),
        now_ms: ctx.now_ms,
    };
    if args.json {
        let report = serde_json::json!({
            "events": events,
            "db": args.db.as_ref().map(|_| db.display().to_string()),
            "log": super::matching_rows(&Filters::default(), &demo_ctx)?
                .iter()
                .map(Row::public)
                .collect::<Vec<_>>(),
            "stats": super::stats::compute(&Filters::default(), &demo_ctx)?,
        });
        ui::println(&json::to_string_pretty(&report))?;
        return Ok(ExitCode::SUCCESS);
    }
    let where_ = if args.db.is_some() {
        format!("into {}", db.display())
    } else {
        "into a throwaway database".to_owned()
    };
    ui::println(&format!(
        "Replayed a bundled Claude Code session ({events} hook events) through `askhook hook` {where_}.\n\n$ askhook log"
    ))?;
    LogArgs {
        filters: Filters::default(),
        json: false,
        format: None,
        full: false,
    }
    .run(&demo_ctx)?;
    ui::println("\n$ askhook stats")?;
    super::stats::StatsCommand(&QueryArgs {
        filters: Filters::default(),
        json: false,
    })
    .run(&demo_ctx)?;
    if args.db.is_some() {
        ui::println(&format!(
            "\nThe demo database stays at {}: try `askhook --db {} log --full` or `… pending`.",
            db.display(),
            db.display()
        ))?;
    } else {
        ui::println("\nNext: `askhook install` registers the hook; `askhook log` then shows your own questions.")?;
    }
    Ok(ExitCode::SUCCESS)
}
