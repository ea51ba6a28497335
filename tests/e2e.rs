//! The end-to-end suite (`tests/e2e/run`: the real Claude Code CLI, offline, against a fake
//! API, with this askhook binary answering its hooks) as part of `cargo test`.
//!
//! It skips itself, with a message, when the pinned `claude` binary or tmux is not installed
//! (`tests/e2e/setup` installs both; `.ci/run` calls it). `cargo test` never installs anything.

use std::path::Path;
use std::process::Command;

#[test]
fn real_claude_code_end_to_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(root.join("tests/e2e/run"))
        .env("ASKHOOK_BIN", env!("CARGO_BIN_EXE_askhook"))
        .env("ASKHOOK_E2E_NO_SETUP", "1")
        .current_dir(root)
        .output()
        .expect("run tests/e2e/run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Shown with --nocapture, and on failure.
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "the end-to-end suite failed:\n{stdout}\n{stderr}"
    );
    let last = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    assert!(
        last.ends_with(" failed") && last.contains("passed"),
        "no summary line: {last:?}"
    );
}
