//! `askhook doctor` through the real binary: paths, database facts, install state, error log,
//! file modes and the hook self-test.

use std::fmt::Write as _;
use std::fs;

use serde_json::Value;

use crate::harness::{fixture, stdout, World};

fn doctor_json(w: &World) -> Value {
    let out = w.run(&["doctor", "--json"]).success();
    serde_json::from_slice(&out.stdout).expect("doctor --json is JSON")
}

#[test]
fn self_test_passes_without_touching_the_real_log() {
    let w = World::new();
    let report = doctor_json(&w);
    let t = &report["self_test"];
    assert_eq!(t["ok"], true, "{report:#}");
    assert_eq!(t["exit_code"], 0);
    assert_eq!(t["stdout_empty"], true);
    assert_eq!(t["pending_rows"], 1);
    assert!(t["millis"].as_f64().unwrap() > 0.0);
    assert!(!w.db().exists(), "the self-test used a temp database");
    assert!(
        !w.askhook_home.exists(),
        "doctor creates nothing in the data folder"
    );
    assert_eq!(report["database"]["exists"], false);
    assert!(report["database"]["schema_version"].is_null());
}

#[test]
fn paths_and_database_facts() {
    let w = World::new();
    let out = w
        .hook_json(serde_json::from_slice(&fixture("captured/basic--01-PreToolUse.json")).unwrap());
    assert!(out.status.success());
    let report = doctor_json(&w);
    let paths = &report["paths"];
    assert_eq!(paths["db"], w.db().to_string_lossy().as_ref());
    assert_eq!(paths["error_log"], w.error_log().to_string_lossy().as_ref());
    assert_eq!(
        paths["spool"],
        w.askhook_home
            .join("askhook.db.spool")
            .to_string_lossy()
            .as_ref()
    );
    assert_eq!(
        paths["settings"]["user"],
        w.claude_config
            .join("settings.json")
            .to_string_lossy()
            .as_ref()
    );
    assert_eq!(
        paths["settings"]["local"],
        w.project
            .join(".claude/settings.local.json")
            .to_string_lossy()
            .as_ref()
    );
    let db = &report["database"];
    assert_eq!(db["exists"], true);
    assert_eq!(db["schema_version"], db["latest_schema_version"]);
    assert!(db["schema_version"].as_i64().unwrap() >= 1);
    assert_eq!(db["rows"]["questions"], 2, "the fixture asks two questions");
    assert_eq!(db["rows"]["preferences"], 0);
}

#[test]
fn install_state_of_every_scope() {
    let w = World::new();
    let report = doctor_json(&w);
    let scopes = report["install"]["scopes"].as_array().unwrap();
    assert_eq!(scopes.len(), 3);
    assert!(scopes.iter().all(|s| s["registered"] == false));

    w.run(&["install", "--scope", "local"]).success();
    let report = doctor_json(&w);
    let local = &report["install"]["scopes"][2];
    assert_eq!(local["scope"], "local");
    assert_eq!(local["registered"], true);

    w.run(&["install"]).success();
    let report = doctor_json(&w);
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("several scopes")),
        "{warnings:?}"
    );
    let text = stdout(&w.run(&["doctor"]).success());
    assert!(text.contains("registered: PreToolUse"), "{text}");
}

#[test]
fn error_log_tail_is_shown() {
    let w = World::new();
    fs::create_dir_all(&w.askhook_home).unwrap();
    let lines = (1..=15).fold(String::new(), |mut lines, n| {
        let _ = writeln!(
            lines,
            "2026-12-02T10:00:{n:02}.000Z [PreToolUse] failure number {n}"
        );
        lines
    });
    fs::write(w.error_log(), lines).unwrap();
    let report = doctor_json(&w);
    let tail = report["error_log"]["last_lines"].as_array().unwrap();
    assert_eq!(tail.len(), 10);
    assert!(tail[9].as_str().unwrap().ends_with("failure number 15"));
    assert!(tail[0].as_str().unwrap().ends_with("failure number 6"));
    let text = stdout(&w.run(&["doctor"]).success());
    assert!(text.contains("failure number 15"), "{text}");
    assert!(!text.contains("failure number 5\n"), "{text}");
}

#[cfg(unix)]
#[test]
fn loose_file_modes_are_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    let out = w
        .hook_json(serde_json::from_slice(&fixture("captured/basic--01-PreToolUse.json")).unwrap());
    assert!(out.status.success());
    let report = doctor_json(&w);
    assert!(
        report["modes"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["ok"] == true),
        "askhook creates private files: {:#}",
        report["modes"]
    );
    assert!(
        report["warnings"].as_array().unwrap().is_empty(),
        "{report:#}"
    );

    fs::set_permissions(w.db(), fs::Permissions::from_mode(0o644)).unwrap();
    fs::set_permissions(&w.askhook_home, fs::Permissions::from_mode(0o755)).unwrap();
    let settings = w.claude_config.join("settings.json");
    fs::create_dir_all(&w.claude_config).unwrap();
    fs::write(&settings, "{}\n").unwrap();
    w.run(&["install"]).success();
    // Backups are kept in the data folder, under the settings file's own path.
    let backup = fs::read_dir(
        w.askhook_home
            .join("settings-backups")
            .join(w.claude_config.strip_prefix("/").unwrap()),
    )
    .unwrap()
    .flatten()
    .find(|e| e.file_name().to_string_lossy().contains(".askhook-bak."))
    .unwrap()
    .path();
    fs::set_permissions(&backup, fs::Permissions::from_mode(0o644)).unwrap();

    let report = doctor_json(&w);
    let warnings: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let db = w.db().to_string_lossy().into_owned();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains(&db) && w.contains("0644") && w.contains("chmod 600")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("data folder") && w.contains("0700")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.starts_with("settings backup")),
        "{warnings:?}"
    );
}

#[test]
fn a_self_test_that_cannot_run_fails_doctor() {
    // The self-test needs a temp folder; when it cannot make one (TMPDIR under a plain file),
    // doctor must report the self-test as failed and exit 1, not claim all is well.
    let w = World::new();
    let blocker = w.tmp.path().join("not-a-folder");
    fs::write(&blocker, "").unwrap();
    let out = w
        .run(&["doctor", "--json"])
        .env("TMPDIR", blocker.join("sub"))
        .code(1);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["self_test"]["ok"], false);
    assert!(report["self_test"]["problem"].as_str().is_some());
}

#[test]
fn human_output_names_every_section() {
    let w = World::new();
    let text = stdout(&w.run(&["doctor"]).success());
    for section in ["paths", "database", "install", "error log", "self-test"] {
        assert!(
            text.lines().any(|l| l.starts_with(section)),
            "{section} missing:\n{text}"
        );
    }
    assert!(text.contains("ok: `askhook hook`"), "{text}");
    assert!(
        text.trim_end().lines().last().unwrap().starts_with("next:"),
        "{text}"
    );
}

#[test]
fn plugin_and_settings_registration_together_are_warned_about() {
    let w = World::new();
    let settings = w.claude_config.join("settings.json");
    fs::create_dir_all(&w.claude_config).unwrap();
    fs::write(
        &settings,
        "{\n  \"enabledPlugins\": {\"askhook@askhook\": true, \"other@x\": true}\n}\n",
    )
    .unwrap();
    let report = doctor_json(&w);
    assert_eq!(report["install"]["scopes"][0]["plugin_enabled"], true);
    assert!(
        report["warnings"].as_array().unwrap().is_empty(),
        "plugin alone is fine"
    );

    w.run(&["install", "--scope", "local"]).success();
    let report = doctor_json(&w);
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("runs the hook twice")),
        "{warnings:?}"
    );
}

#[test]
fn doctor_shows_a_lowered_one_way_registry_entry() {
    let world = crate::harness::World::new();
    world
        .run(&[
            "registry",
            "add",
            "force-push-branch",
            "--door",
            "two-way",
            "--i-know",
        ])
        .success();
    let out = world.run(&["doctor", "--json"]).output();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    let overrides = report["registry_overrides"].as_array().unwrap();
    assert_eq!(overrides.len(), 1, "{overrides:?}");
    assert_eq!(overrides[0]["id"], "force-push-branch");
    assert_eq!(overrides[0]["embedded"], "one-way");
    assert_eq!(overrides[0]["honoured"], true);
    let warnings = report["warnings"].to_string();
    assert!(
        warnings.contains("force-push-branch") && warnings.contains("--i-know"),
        "{warnings}"
    );
}
