//! The end-to-end suite (`tests/e2e/`: the real Claude Code CLI, offline, against a fake API,
//! with this askhook binary answering its hooks) as part of `cargo test`: one trial per scenario
//! in `tests/e2e/scenarios/`, each run by `tests/e2e/run <name>`.
//!
//! Whether the scenarios can run is only known at run time (is the pinned `claude` installed?
//! tmux?), so this is a `harness = false` test on libtest-mimic, which keeps cargo's own
//! output, summary and flags (`--ignored`, `--include-ignored`, filters, `--list`, `--exact`).
//! `tests/e2e/run --check` says what is missing, and then:
//! - on a developer's machine every scenario is *ignored*: cargo's summary counts them and the
//!   reason is printed under it; `--include-ignored` runs them anyway, and they fail with it;
//! - under CI (`CI=true`) every scenario fails with the reason: CI is never green without them.
//!
//! `cargo test` never installs anything; `tests/e2e/setup` does (`.ci/run` calls it).

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    let mut args = Arguments::from_args();
    // One scenario at a time unless asked otherwise: each drives a real claude in tmux, and the
    // timing budgets (askhook's 2.5 s deadline, 3 s per hook run) were measured on 2 cores.
    if args.test_threads.is_none() {
        let env = std::env::var("RUST_TEST_THREADS").ok();
        args.test_threads = Some(env.and_then(|n| n.parse().ok()).unwrap_or(1));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = scenario_names(&root.join("tests/e2e/scenarios"));
    let missing = missing_prerequisites(root);
    let ci = under_ci();
    let ignored = missing.is_some() && !ci;
    let trials = names
        .into_iter()
        .map(|name| {
            let missing = missing.clone();
            let nocapture = args.nocapture;
            Trial::test(name.clone(), move || match missing {
                Some(why) => Err(format!("the end-to-end suite cannot run: {why}").into()),
                None => run_scenario(root, &name, nocapture),
            })
            .with_kind("e2e")
            .with_ignored_flag(ignored)
        })
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    // under the summary line, where it is read
    match &missing {
        Some(why) if conclusion.num_ignored > 0 => eprintln!(
            "e2e: {} end-to-end scenarios ignored: {why}\n\
             e2e: `tests/e2e/setup` installs what they need; under CI=true this fails instead.",
            conclusion.num_ignored
        ),
        Some(why) if conclusion.num_failed > 0 => eprintln!(
            "e2e: {} end-to-end scenarios failed: they cannot run{}: {why}\n\
             e2e: `tests/e2e/setup` installs what they need.",
            conclusion.num_failed,
            if ci { " and CI is set" } else { "" }
        ),
        _ => {}
    }
    conclusion.exit();
}

/// CI as the usual services set it (`CI=true`, some `CI=1`); unset, empty, `0` or `false` is
/// not CI.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"))
}

/// What this machine lacks for the suite, as `tests/e2e/run --check` says it (one reason a
/// line, joined), or None when everything is there.
fn missing_prerequisites(root: &Path) -> Option<String> {
    let out = Command::new(root.join("tests/e2e/run"))
        .arg("--check")
        .current_dir(root)
        .stdin(Stdio::null())
        .output();
    match out {
        Ok(out) if out.status.success() => None,
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            let reasons: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            Some(if reasons.is_empty() {
                format!(
                    "tests/e2e/run --check failed ({}) and said nothing",
                    out.status
                )
            } else {
                reasons.join("; ")
            })
        }
        Err(e) => Some(format!("cannot start tests/e2e/run --check: {e}")),
    }
}

/// The scenarios' names (their `name` field), in file order.
fn scenario_names(dir: &Path) -> Vec<String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenarios in {}", dir.display());
    files
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
            let json: serde_json::Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
            json["name"]
                .as_str()
                .unwrap_or_else(|| panic!("{} has no \"name\"", path.display()))
                .to_owned()
        })
        .collect()
}

/// `tests/e2e/run <name>` against this build's askhook. Its output is kept for the failure
/// message, or streamed as it comes with `--nocapture`.
fn run_scenario(root: &Path, name: &str, nocapture: bool) -> Result<(), Failed> {
    let mut cmd = Command::new(root.join("tests/e2e/run"));
    cmd.arg(name)
        .env("ASKHOOK_BIN", env!("CARGO_BIN_EXE_askhook"))
        .env("ASKHOOK_E2E_NO_SETUP", "1")
        .current_dir(root)
        .stdin(Stdio::null());
    if nocapture {
        let status = cmd
            .status()
            .map_err(|e| format!("start tests/e2e/run: {e}"))?;
        return if status.success() {
            Ok(())
        } else {
            Err(format!("tests/e2e/run {name}: {status} (its output is above)").into())
        };
    }
    let out = cmd
        .output()
        .map_err(|e| format!("start tests/e2e/run: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty());
    // the exit status alone once let a suite that never ran pass
    if out.status.success() && last == Some("1 passed, 0 failed") {
        Ok(())
    } else {
        Err(format!("tests/e2e/run {name}: {}\n{stdout}{stderr}", out.status).into())
    }
}
