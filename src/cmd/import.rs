//! `askhook import gstack [DIR]`: bring gstack's question history and preferences into the
//! answer log, idempotently.
//!
//! gstack keeps, per project slug, `~/.gstack/projects/<slug>/question-log.jsonl` (one JSON
//! object per line: `skill`, `question_id`, `question_summary`, `options_count`,
//! `user_choice`, `recommended`, `followed_recommendation`, `source`, `session_id`,
//! `tool_use_id`, `ts`) and `question-preferences.json` (`{"<question_id>": "never-ask" | …}`).
//! `DIR` is that `projects` folder (default `~/.gstack/projects`), gstack's home holding it
//! (`~/.gstack`), or one project folder.
//!
//! Each log line becomes one row: `question` = `question_summary`, `answer` = `user_choice`,
//! outcome `auto-decided` when `source` says so (it contains `auto`), else `answered`;
//! `asked_at` = `settled_at` = `ts`; `project` = `gstack:<slug>`; `tool_name` =
//! `gstack:<skill>`; the door type from the registry, else the classifier. A line without a
//! `tool_use_id` gets one derived from its content, so re-running never imports it twice:
//! rows already present (same session, call and question) are *skipped*. Lines that are not
//! JSON objects, lack `question_id`, or carry no readable `ts` are *rejected*, with the file,
//! line and reason.
//!
//! Preferences are imported as global ones. An id askhook already has a preference for is
//! skipped (askhook's own choice wins); an id with different values in different gstack
//! projects or an unknown value is rejected. A silencing value on a one-way door (askhook's or
//! gstack's registry) or a split-chain id is imported as *inert*, with why: it is kept, as gstack
//! keeps it, and never fires. Every silencing value goes through
//! [`crate::trust::confirm_silencing`] like `askhook pref set`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use serde_json::Value;
use sha1::{Digest, Sha1};

use crate::cli::ImportGstackArgs;
use crate::error::{Error, Result};
use askhook_core::answer::Answer;
use askhook_core::question::IdSource;

use crate::cli::ImportCommand;
use crate::store::prefs::GLOBAL_SCOPE;
use crate::store::{Batch, Outcome, Row, Store};
use crate::sys::{json, ui};
use crate::Context;
use askhook_core::classify::Door;
use askhook_core::policy::Preference;
use askhook_core::registry::Registry;

/// Why one line or preference was not imported.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Reason {
    pub file: String,
    pub line: Option<usize>,
    pub reason: String,
}

/// The `import gstack --json` report.
#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub imported: u64,
    pub skipped: u64,
    pub rejected: u64,
    pub preferences_imported: u64,
    /// Silencing preferences on a one-way door or a split chain: kept, but they never fire.
    pub preferences_inert: u64,
    pub preferences_skipped: u64,
    pub preferences_rejected: u64,
    pub reasons: Vec<Reason>,
}

impl Report {
    fn reject(&mut self, file: &Path, line: Option<usize>, reason: impl Into<String>) {
        self.rejected += 1;
        self.note(file, line, reason);
    }

    fn note(&mut self, file: &Path, line: Option<usize>, reason: impl Into<String>) {
        self.reasons.push(Reason {
            file: file.display().to_string(),
            line,
            reason: reason.into(),
        });
    }
}

/// The project folders under `dir` (or `dir` itself when it holds gstack files), sorted.
fn project_dirs(dir: &Path) -> Vec<PathBuf> {
    let holds = |d: &Path| {
        d.join("question-log.jsonl").is_file() || d.join("question-preferences.json").is_file()
    };
    if holds(dir) {
        return vec![dir.to_path_buf()];
    }
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && holds(p))
        .collect();
    out.sort();
    out
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// `ts` as milliseconds: RFC 3339, or a number of seconds / milliseconds since the epoch.
fn timestamp(v: &Value) -> Option<i64> {
    match v.get("ts")? {
        Value::String(s) => crate::sys::time::parse_rfc3339(s),
        Value::Number(n) => {
            let f = n.as_f64()?;
            Some(if f > 1e12 {
                f as i64
            } else {
                (f * 1000.0) as i64
            })
        }
        _ => None,
    }
}

/// The row for one gstack log line, or why it cannot be imported.
pub fn record_of(line: &str, slug: &str, registry: &Registry) -> std::result::Result<Row, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    if !v.is_object() {
        return Err("not a JSON object".into());
    }
    let id = text(&v, "question_id").ok_or("no question_id")?;
    if id.chars().count() > 200 || id.chars().any(char::is_control) {
        return Err("question_id is not a usable id".into());
    }
    let ts = timestamp(&v).ok_or("no readable ts (expected RFC 3339)")?;
    let question = text(&v, "question_summary").unwrap_or(id).to_owned();
    let auto = text(&v, "source").is_some_and(|s| s.to_ascii_lowercase().contains("auto"));
    // As in the hook: the registry can only raise what the classifier reads.
    let (door, rule) = askhook_core::policy::door_of(
        registry.door(id),
        &askhook_core::policy::classify_text(&question),
    );
    let tool_use_id = if let Some(t) = text(&v, "tool_use_id") {
        t.to_owned()
    } else {
        let mut h = Sha1::new();
        h.update(slug.as_bytes());
        h.update(b"\n");
        h.update(line.trim().as_bytes());
        let digest = h.finalize();
        let hex = digest.iter().take(8).fold(String::new(), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        });
        format!("gstack-{hex}")
    };
    Ok(Row {
        session_id: text(&v, "session_id").unwrap_or("gstack").to_owned(),
        tool_use_id,
        question_index: 0,
        question_id: id.to_owned(),
        id_source: IdSource::Gstack,
        question,
        header: None,
        options: Vec::new(),
        multi_select: false,
        recommended: text(&v, "recommended").map(str::to_owned),
        door_type: door,
        door_rule: rule,
        tool_name: format!("gstack:{}", text(&v, "skill").unwrap_or("unknown")),
        project: Some(format!("gstack:{slug}")),
        cwd: None,
        permission_mode: None,
        agent_id: None,
        prompt_id: None,
        outcome: if auto {
            Outcome::AutoDecided
        } else {
            Outcome::Answered
        },
        reply: Answer {
            answer: text(&v, "user_choice").map(str::to_owned),
            followed_recommendation: if auto {
                None
            } else {
                v.get("followed_recommendation").and_then(Value::as_bool)
            },
            ..Answer::default()
        },
        error: None,
        asked_at: ts,
        settled_at: Some(ts),
        family: None,
        // gstack answered from its preference on the question id.
        decided_by: auto.then(|| "id".to_owned()),
        row_id: 0,
    })
}

fn import_log(
    file: &Path,
    slug: &str,
    registry: &Registry,
    store: &mut Store,
    report: &mut Report,
) -> Result<()> {
    let content = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
    // Question index within a call: order of distinct question ids, in file order.
    let mut calls: HashMap<(String, String), Vec<String>> = HashMap::new();
    let mut fresh = Vec::new();
    for (n, line) in content.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut record = match record_of(line, slug, registry) {
            Ok(r) => r,
            Err(why) => {
                report.reject(file, Some(n + 1), why);
                continue;
            }
        };
        let ids = calls
            .entry((record.session_id.clone(), record.tool_use_id.clone()))
            .or_default();
        if ids.contains(&record.question_id) {
            report.skipped += 1;
            report.note(file, Some(n + 1), "duplicate of an earlier line");
            continue;
        }
        record.question_index = ids.len() as i64;
        ids.push(record.question_id.clone());
        let exists = store
            .has_row(
                &record.session_id,
                &record.tool_use_id,
                record.question_index,
            )
            .map_err(|e| Error::db(store.path(), e))?;
        if exists {
            report.skipped += 1;
        } else {
            // Imported text is stored like the hook's: secrets redacted first.
            record.scrub();
            fresh.push(record);
        }
    }
    report.imported += fresh.len() as u64;
    if !fresh.is_empty() {
        store
            .apply(&Batch::Records { records: fresh })
            .map_err(|e| Error::db(store.path(), e))?;
    }
    Ok(())
}

/// A preference a gstack file asks for: id, value, the first file that asks.
type Wanted = (String, String, PathBuf);

/// The preferences the gstack files ask for: `(id, value, first file)` over every project, and
/// the ids whose value differs between projects. Unreadable files are noted in `report`.
fn wanted_preferences(
    files: &[PathBuf],
    report: &mut Report,
) -> Result<(Vec<Wanted>, Vec<String>)> {
    let mut wanted: Vec<Wanted> = Vec::new();
    let mut conflicted: Vec<String> = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
        let map = match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                report.preferences_rejected += 1;
                report.note(file, None, "not a JSON object of question id → preference");
                continue;
            }
            Err(e) => {
                report.preferences_rejected += 1;
                report.note(file, None, format!("not JSON ({e})"));
                continue;
            }
        };
        for (id, value) in map {
            let Some(value) = value.as_str().map(str::to_owned) else {
                report.preferences_rejected += 1;
                report.note(file, None, format!("{id}: the value is not a string"));
                continue;
            };
            match wanted.iter().find(|(i, _, _)| *i == id) {
                Some((_, v, _)) if *v != value => {
                    if !conflicted.contains(&id) {
                        conflicted.push(id.clone());
                    }
                }
                Some(_) => {}
                None => wanted.push((id, value, file.clone())),
            }
        }
    }
    Ok((wanted, conflicted))
}

fn import_preferences(
    files: &[PathBuf],
    registry: &Registry,
    store: &mut Store,
    report: &mut Report,
    now_ms: i64,
) -> Result<()> {
    let (wanted, conflicted) = wanted_preferences(files, report)?;
    let existing: HashMap<String, String> = store
        .all_preferences()
        .map_err(|e| Error::db(store.path(), e))?
        .into_iter()
        .filter(super::super::store::prefs::StoredPreference::is_global)
        .map(|p| (p.question_id, p.value))
        .collect();
    for (id, value, file) in wanted {
        if conflicted.contains(&id) {
            report.preferences_rejected += 1;
            report.note(&file, None, format!("{id}: different values in different gstack projects; set it yourself with `askhook pref set`"));
            continue;
        }
        let Some(pref) = Preference::parse(&value) else {
            report.preferences_rejected += 1;
            report.note(&file, None, format!("{id}: unknown preference {value:?}"));
            continue;
        };
        // gstack refuses these too (one-way ids, split chains): kept as inert, with why.
        let inert = pref
            .silences()
            .then(|| inert_reason(&id, registry))
            .flatten();
        if let Some(current) = existing.get(&id) {
            report.preferences_skipped += 1;
            if *current != value {
                report.note(
                    &file,
                    None,
                    format!("{id}: askhook already has {current}; kept"),
                );
            }
            continue;
        }
        let confirmed_by = match crate::trust::confirm_silencing(&id, pref, store) {
            Ok(how) => how,
            Err(Error::NotConfirmed(why)) => {
                report.preferences_rejected += 1;
                report.note(&file, None, format!("{id}: {why}"));
                continue;
            }
            Err(e) => return Err(e),
        };
        store
            .set_preference(
                &id,
                GLOBAL_SCOPE,
                Some(pref),
                &format!("import gstack; {confirmed_by}"),
                now_ms,
            )
            .map_err(|e| Error::db(store.path(), e))?;
        if let Some(why) = inert {
            report.preferences_inert += 1;
            report.note(&file, None, format!("{id}: imported as inert: {why}"));
        } else {
            report.preferences_imported += 1;
        }
    }
    Ok(())
}

/// Why a silencing preference on `id` can never fire, if it can't.
fn inert_reason(id: &str, registry: &Registry) -> Option<&'static str> {
    if registry.door(id) == Some(Door::OneWay) {
        Some("a one-way door (gstack marks it so too); askhook always asks for it")
    } else if askhook_core::registry::is_always_asked(id) {
        Some("a gstack split-chain question; askhook always asks for it")
    } else {
        None
    }
}

impl super::Run for ImportCommand {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        match self {
            ImportCommand::Gstack(args) => gstack(args, ctx),
        }
    }
}

/// The folder to import from and the gstack project folders in it: `DIR` (default
/// `~/.gstack/projects`), or the `projects` folder of a gstack home given as `DIR`.
fn gstack_dir(args: &ImportGstackArgs, ctx: &Context) -> Result<(PathBuf, Vec<PathBuf>)> {
    let dir = match &args.dir {
        Some(d) if d.is_absolute() => d.clone(),
        Some(d) => ctx.cwd.join(d),
        None => ctx
            .paths
            .home
            .as_ref()
            .map(|h| h.join(".gstack/projects"))
            .ok_or_else(|| {
                Error::Usage(
                    "HOME is not set: give the gstack projects folder (askhook import gstack DIR)"
                        .into(),
                )
            })?,
    };
    if !dir.is_dir() {
        return Err(Error::Usage(format!(
            "{}: no such folder (give gstack's projects folder: askhook import gstack ~/.gstack/projects)",
            dir.display()
        )));
    }
    let projects = project_dirs(&dir);
    let inner = dir.join("projects");
    if projects.is_empty() && inner.is_dir() {
        let projects = project_dirs(&inner);
        return Ok((inner, projects));
    }
    Ok((dir, projects))
}

fn gstack(args: &ImportGstackArgs, ctx: &Context) -> Result<ExitCode> {
    let (dir, projects) = gstack_dir(args, ctx)?;
    let registry =
        crate::registry::load(&ctx.paths.user_registry).map_err(|problem| Error::Invalid {
            path: ctx.paths.user_registry.clone(),
            problem,
        })?;
    let mut report = Report::default();
    if !projects.is_empty() {
        let mut store = Store::open(&ctx.paths.db, std::time::Duration::from_secs(5))
            .map_err(|e| Error::db(&ctx.paths.db, e))?;
        let mut pref_files = Vec::new();
        for project in &projects {
            let slug = project
                .file_name()
                .map_or_else(|| "gstack".into(), |n| n.to_string_lossy().into_owned());
            let log = project.join("question-log.jsonl");
            if log.is_file() {
                import_log(&log, &slug, &registry, &mut store, &mut report)?;
            }
            let prefs = project.join("question-preferences.json");
            if prefs.is_file() {
                pref_files.push(prefs);
            }
        }
        import_preferences(&pref_files, &registry, &mut store, &mut report, ctx.now_ms)?;
    }
    if args.json {
        ui::println(&json::to_string_pretty(&report))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = format!(
        "{}: {} project folder(s)\nquestions: {} imported, {} skipped (already imported), {} rejected\npreferences: {} imported, {} inert, {} skipped, {} rejected\n",
        dir.display(),
        projects.len(),
        report.imported,
        report.skipped,
        report.rejected,
        report.preferences_imported,
        report.preferences_inert,
        report.preferences_skipped,
        report.preferences_rejected
    );
    if projects.is_empty() {
        out.push_str(
            "no gstack files here: askhook reads <project>/question-log.jsonl and \
             question-preferences.json under gstack's projects folder (~/.gstack/projects), \
             or those two files in one project folder\n",
        );
    }
    for r in report.reasons.iter().take(20) {
        let at = r.line.map(|l| format!(":{l}")).unwrap_or_default();
        out.push_str(&format!(
            "  {}{at}: {}\n",
            r.file,
            ui::sanitize(&r.reason, false)
        ));
    }
    if report.reasons.len() > 20 {
        out.push_str(&format!(
            "  … {} more (see --json)\n",
            report.reasons.len() - 20
        ));
    }
    ui::print(&out)?;
    Ok(ExitCode::SUCCESS)
}
