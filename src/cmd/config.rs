//! `askhook config show | path | edit`: the config file ([`crate::config`] owns its keys).
//!
//! ## `config show --json`
//! `{"path", "exists", "valid", "error" (why it cannot be used, else null), "keys": {"<key>":
//! {"value", "source" ("file" | "env" | "default")}}}` with every key: `decide_with`,
//! `context_from_history`, `deadline_ms`, `busy_timeout_ms`, `redact`, `record_filter.cwd`,
//! `record_filter.question`.

use std::process::ExitCode;

use serde::Serialize;
use serde_json::{json, Value};

use crate::cli::ConfigCommand;
use crate::config::{self, Config, Loaded};
use crate::error::{Error, Result};
use crate::sys::paths::{self, Budget};
use crate::sys::{fsutil, ui};
use crate::Context;

use super::Run;

impl Run for ConfigCommand {
    fn run(&self, ctx: &Context) -> Result<ExitCode> {
        match self {
            ConfigCommand::Show { json } => show(*json, ctx),
            ConfigCommand::Path => {
                ui::println(&ctx.paths.config.to_string_lossy())?;
                Ok(ExitCode::SUCCESS)
            }
            ConfigCommand::Edit => edit(ctx),
        }
    }
}

#[derive(Debug, Serialize)]
struct Key {
    value: Value,
    source: &'static str,
}

#[derive(Debug, Serialize)]
struct Shown {
    path: String,
    exists: bool,
    valid: bool,
    error: Option<String>,
    keys: serde_json::Map<String, Value>,
}

/// Every key with its effective value and where it comes from.
fn keys(file: &Config) -> serde_json::Map<String, Value> {
    let env = paths::config_with_env(file.clone());
    let budget = Budget::from_env_and(file);
    let default = Config::default();
    let default_budget = Budget::default();
    let source = |from_env: bool, in_file: bool| match (from_env, in_file) {
        (true, _) => "env",
        (false, true) => "file",
        (false, false) => "default",
    };
    let mut out = serde_json::Map::new();
    let mut put = |name: &str, value: Value, from_env: bool, in_file: bool| {
        let key = Key {
            value,
            source: source(from_env, in_file),
        };
        out.insert(name.into(), serde_json::to_value(key).unwrap_or_default());
    };
    put(
        "decide_with",
        json!(env.decide_with.as_str()),
        env.decide_with != file.decide_with,
        file.decide_with != default.decide_with,
    );
    put(
        "context_from_history",
        json!(env.context_from_history),
        env.context_from_history != file.context_from_history,
        file.context_from_history,
    );
    for (name, now, in_file, default) in [
        (
            "deadline_ms",
            budget.deadline,
            file.deadline_ms,
            default_budget.deadline,
        ),
        (
            "busy_timeout_ms",
            budget.busy_timeout,
            file.busy_timeout_ms,
            default_budget.busy_timeout,
        ),
    ] {
        let now = now.as_millis() as u64;
        let from_env = in_file.map_or(now != default.as_millis() as u64, |f| f != now);
        put(name, json!(now), from_env, in_file.is_some());
    }
    put("redact", json!(file.redact), false, !file.redact.is_empty());
    put(
        "record_filter.cwd",
        json!(file.record_filter_cwd),
        false,
        !file.record_filter_cwd.is_empty(),
    );
    put(
        "record_filter.question",
        json!(file.record_filter_question),
        false,
        !file.record_filter_question.is_empty(),
    );
    out
}

fn show(json: bool, ctx: &Context) -> Result<ExitCode> {
    let loaded = config::load(&ctx.paths.config);
    let (file, error) = match &loaded {
        Loaded::Absent => (Config::default(), None),
        Loaded::Valid(c) => (c.clone(), None),
        Loaded::Invalid(why) => (Config::default(), Some(why.clone())),
    };
    let shown = Shown {
        path: ctx.paths.config.to_string_lossy().into_owned(),
        exists: loaded != Loaded::Absent,
        valid: error.is_none(),
        error,
        keys: keys(&file),
    };
    if json {
        ui::println(&serde_json::to_string_pretty(&shown).unwrap_or_default())?;
    } else {
        ui::print(&render(&shown))?;
    }
    Ok(if shown.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}

fn render(s: &Shown) -> String {
    let state = match (s.exists, &s.error) {
        (false, _) => "not there: every key has its default (`askhook config edit` creates it)",
        (true, None) => "valid",
        (true, Some(_)) => "INVALID: the hook does nothing until it is fixed",
    };
    let mut out = format!("config file: {} ({state})\n", ui::sanitize(&s.path, false));
    if let Some(why) = &s.error {
        out.push_str(&format!("  {}\n", ui::sanitize(why, true)));
    }
    for (name, key) in &s.keys {
        out.push_str(&format!(
            "{name:<24} = {:<24} ({})\n",
            ui::sanitize(&key["value"].to_string(), false),
            key["source"].as_str().unwrap_or("")
        ));
    }
    out
}

fn edit(ctx: &Context) -> Result<ExitCode> {
    let path = &ctx.paths.config;
    if !path.exists() {
        if let Some(dir) = path.parent() {
            fsutil::create_private_dir(dir).map_err(|e| Error::io(dir, e))?;
        }
        fsutil::atomic_write(path, config::TEMPLATE.as_bytes()).map_err(|e| Error::io(path, e))?;
    }
    let editor = paths::editor();
    let status = std::process::Command::new("/bin/sh")
        .args(["-c", &format!("{editor} \"$1\""), "sh"])
        .arg(path)
        .status()
        .map_err(|e| Error::io(path, e))?;
    if !status.success() {
        return Err(Error::Refused(format!(
            "the editor ({editor}) exited with {status}; {} is as it left it",
            path.display()
        )));
    }
    if let Loaded::Invalid(why) = config::load(path) {
        return Err(Error::Invalid {
            path: path.clone(),
            problem: format!(
                "{why} — the hook does nothing until it is fixed (askhook config edit)"
            ),
        });
    }
    ui::println(&format!("{} is valid", path.display()))?;
    Ok(ExitCode::SUCCESS)
}
