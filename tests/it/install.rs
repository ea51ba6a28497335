//! install / uninstall / status / rollback through the real binary, against real settings files
//! in a temp HOME and `CLAUDE_CONFIG_DIR`; plus the plugin packaging files.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::harness::{stderr, stdout, World};

const MATCHER: &str = "(AskUserQuestion|mcp__.*__AskUserQuestion)";
const TOOL_EVENTS: [&str; 3] = ["PreToolUse", "PostToolUse", "PostToolUseFailure"];
const LIFECYCLE_EVENTS: [&str; 3] = ["Stop", "UserPromptSubmit", "SessionEnd"];
const EVENTS: [&str; 6] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "UserPromptSubmit",
    "SessionEnd",
];

/// The askhook binary under test, as install writes it (absolute, canonical).
fn me() -> String {
    Path::new(env!("CARGO_BIN_EXE_askhook"))
        .canonicalize()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

fn my_item() -> Value {
    json!({"type": "command", "command": me(), "args": ["hook"], "timeout": 5})
}

fn user_settings(w: &World) -> PathBuf {
    w.claude_config.join("settings.json")
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

fn pretty(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap();
    s.push('\n');
    s
}

/// askhook's backups of `path`: in its data folder, under the file's absolute path (nothing is
/// left beside the settings file, which for a project is in a repository).
fn backups(w: &World, path: &Path) -> Vec<PathBuf> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let home = w
        .askhook_home
        .join("settings-backups")
        .join(path.parent().unwrap().strip_prefix("/").unwrap());
    let mut out: Vec<PathBuf> = fs::read_dir(home)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("{name}.askhook-bak."))
        })
        .map(|e| e.path())
        .collect();
    out.sort();
    out
}

/// Every askhook item (exec or shell form) under `event`.
fn askhook_items(settings: &Value, event: &str) -> Vec<Value> {
    settings["hooks"][event]
        .as_array()
        .map(|entries| {
            entries
                .iter()
                .flat_map(|e| e["hooks"].as_array().cloned().unwrap_or_default())
                .filter(|i| {
                    let cmd = i["command"].as_str().unwrap_or("");
                    let args = i["args"].as_array();
                    if let Some(a) = args {
                        cmd.ends_with("/askhook") && a.first() == Some(&json!("hook"))
                    } else {
                        let first = cmd.split(' ').next().unwrap_or("").trim_matches('\'');
                        (first == "askhook" || first.ends_with("/askhook"))
                            && cmd.ends_with(" hook")
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Assert askhook is registered exactly once per event, in the right entry shape.
#[track_caller]
fn assert_registered_once(settings: &Value) {
    for event in EVENTS {
        let items = askhook_items(settings, event);
        assert_eq!(items.len(), 1, "{event}: {settings:#}");
        let entry = settings["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["hooks"].as_array().unwrap().contains(&items[0]))
            .unwrap();
        if TOOL_EVENTS.contains(&event) {
            assert!(
                entry["matcher"]
                    .as_str()
                    .unwrap()
                    .contains("AskUserQuestion"),
                "{event}: {entry}"
            );
        } else {
            assert!(entry.get("matcher").is_none(), "{event}: {entry}");
        }
    }
}

fn foreign_settings() -> Value {
    json!({
        "model": "opus",
        "permissions": {"allow": ["Bash(git *)"], "defaultMode": "default"},
        "hooks": {
            "PreToolUse": [
                {"matcher": MATCHER, "hooks": [
                    {"type": "command", "command": "/opt/gstack/bin/gstack-question-log", "args": ["pre"], "timeout": 10, "statusMessage": "logging…"}
                ]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/bash-guard"}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "/usr/bin/true"}]}]
        },
        "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"}
    })
}

// ---------------------------------------------------------------------------------------------

#[test]
fn install_into_a_fresh_home_creates_folder_and_file() {
    let w = World::new();
    assert!(!w.claude_config.exists());
    let out = w.run(&["install"]).success();
    let text = stdout(&out);
    for event in EVENTS {
        assert!(text.contains(&format!("{event}: added")), "{text}");
    }
    assert!(
        text.trim_end()
            .lines()
            .last()
            .unwrap()
            .contains("askhook status"),
        "last line says what to do next: {text}"
    );
    let path = user_settings(&w);
    let settings = read_json(&path);
    assert_registered_once(&settings);
    assert_eq!(settings["hooks"]["PreToolUse"][0]["matcher"], MATCHER);
    for event in EVENTS {
        assert_eq!(
            settings["hooks"][event][0]["hooks"][0],
            my_item(),
            "{event}"
        );
    }
    let raw = fs::read_to_string(&path).unwrap();
    assert!(raw.ends_with("}\n"), "trailing newline");
    assert!(
        raw.starts_with("{\n  \"hooks\": {\n    \"PreToolUse\""),
        "2-space indent: {raw}"
    );
    assert!(
        backups(&w, &path).is_empty(),
        "nothing to back up for a new file"
    );
    assert!(!w.home.join(".claude/settings.json.askhook-bak").exists());
}

#[test]
fn install_twice_is_byte_identical_and_makes_no_backup() {
    let w = World::new();
    let path = user_settings(&w);
    write(&path, &pretty(&foreign_settings()));
    w.run(&["install"]).success();
    let first = fs::read(&path).unwrap();
    let first_mtime = fs::metadata(&path).unwrap().modified().unwrap();
    assert_eq!(backups(&w, &path).len(), 1);

    let out = w.run(&["install"]).success();
    assert_eq!(fs::read(&path).unwrap(), first);
    assert_eq!(
        fs::metadata(&path).unwrap().modified().unwrap(),
        first_mtime
    );
    assert_eq!(backups(&w, &path).len(), 1, "no backup for a no-op");
    let text = stdout(&out);
    for event in EVENTS {
        assert!(
            text.contains(&format!("{event}: already installed")),
            "{text}"
        );
    }
    assert!(text.contains("nothing to change"), "{text}");
}

#[test]
fn foreign_hooks_on_the_same_events_and_matcher_survive_install_and_uninstall() {
    let w = World::new();
    let path = user_settings(&w);
    let original = pretty(&foreign_settings());
    write(&path, &original);
    w.run(&["install"]).success();

    let settings = read_json(&path);
    assert_registered_once(&settings);
    let pre = settings["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(
        pre[0],
        foreign_settings()["hooks"]["PreToolUse"][0],
        "gstack entry untouched"
    );
    assert_eq!(
        pre[1],
        foreign_settings()["hooks"]["PreToolUse"][1],
        "Bash entry untouched"
    );
    assert_eq!(
        settings["hooks"]["Stop"][0],
        foreign_settings()["hooks"]["Stop"][0]
    );
    assert_eq!(
        settings["hooks"]["Notification"],
        foreign_settings()["hooks"]["Notification"]
    );
    let keys: Vec<&String> = settings.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["model", "permissions", "hooks", "statusLine"],
        "key order kept"
    );

    let out = w.run(&["uninstall"]).success();
    assert!(
        stdout(&out).contains("PreToolUse: removed"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        original,
        "uninstall after install gives back the original bytes"
    );
}

#[test]
fn uninstall_removes_only_askhook_items_even_inside_a_shared_entry() {
    let w = World::new();
    let path = user_settings(&w);
    let mut settings = foreign_settings();
    settings["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(my_item());
    settings["hooks"]["PostToolUse"] = json!([{"matcher": "^AskUserQuestion$", "hooks": [
        {"type": "command", "command": "'/old place/askhook' hook"},
        {"type": "command", "command": "/x/other-post"}
    ]}]);
    write(&path, &pretty(&settings));
    w.run(&["uninstall"]).success();
    let after = read_json(&path);
    assert_eq!(
        after["hooks"]["PreToolUse"][0],
        foreign_settings()["hooks"]["PreToolUse"][0]
    );
    assert_eq!(
        after["hooks"]["PostToolUse"],
        json!([{"matcher": "^AskUserQuestion$", "hooks": [{"type": "command", "command": "/x/other-post"}]}])
    );
    for event in EVENTS {
        assert!(askhook_items(&after, event).is_empty());
    }
    assert_eq!(after["model"], "opus");
    assert_eq!(backups(&w, &path).len(), 1);
}

#[test]
fn odd_formatting_and_unknown_keys_are_preserved() {
    let w = World::new();
    let path = user_settings(&w);
    // Four-space indentation, no trailing newline, unknown keys everywhere, non-ASCII text.
    let original = "{\n    \"zeta\": 1, \"alpha\": {\"ünïcödé\": \"✓\", \"n\": 1.5},\n    \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"x-tool-tag\": \"keep\", \"hooks\": [{\"type\": \"command\", \"command\": \"/x/guard\", \"x-item\": true}]}]},\n    \"futureSetting\": [1, 2, {\"deep\": null}]\n}";
    write(&path, original);
    w.run(&["install"]).success();
    let raw = fs::read_to_string(&path).unwrap();
    assert!(
        !raw.ends_with('\n'),
        "no trailing newline was there, none added"
    );
    assert!(
        raw.starts_with("{\n    \"zeta\": 1,\n    \"alpha\""),
        "{raw}"
    );
    let after: Value = serde_json::from_str(&raw).unwrap();
    let before: Value = serde_json::from_str(original).unwrap();
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["zeta", "alpha", "hooks", "futureSetting"]);
    assert_eq!(after["alpha"], before["alpha"]);
    assert_eq!(after["futureSetting"], before["futureSetting"]);
    assert_eq!(
        after["hooks"]["PreToolUse"][0],
        before["hooks"]["PreToolUse"][0]
    );
    assert_registered_once(&after);

    w.run(&["uninstall"]).success();
    let back: Value = read_json(&path);
    assert_eq!(back, before);
}

#[test]
fn missing_hooks_key_is_added_after_the_other_keys() {
    let w = World::new();
    let path = user_settings(&w);
    write(
        &path,
        "{\n  \"model\": \"sonnet\",\n  \"env\": {\"A\": \"1\"}\n}\n",
    );
    w.run(&["install"]).success();
    let after = read_json(&path);
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["model", "env", "hooks"]);
    assert_registered_once(&after);
    w.run(&["uninstall"]).success();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "{\n  \"model\": \"sonnet\",\n  \"env\": {\n    \"A\": \"1\"\n  }\n}\n"
    );
}

/// Named cases of files askhook must refuse to touch.
const REFUSED: &[(&str, &str, &str)] = &[
    (
        "corrupt body",
        "{\"model\": \"opus\",, \"hooks\": {",
        "not valid JSON",
    ),
    (
        "truncated",
        "{\"hooks\": {\"PreToolUse\": [",
        "not valid JSON",
    ),
    (
        "root is an array",
        "[{\"hooks\": {}}]\n",
        "root is an array",
    ),
    ("root is a string", "\"settings\"", "root is a string"),
    (
        "hooks is an array",
        "{\"hooks\": []}",
        "\"hooks\" is an array",
    ),
    (
        "hooks is a string",
        "{\"hooks\": \"none\"}",
        "\"hooks\" is a string",
    ),
    (
        "event is an object",
        "{\"hooks\": {\"Stop\": {}}}",
        "\"hooks.Stop\" is an object",
    ),
];

#[test]
fn invalid_files_are_never_overwritten() {
    for (name, body, problem) in REFUSED {
        let w = World::new();
        let path = user_settings(&w);
        write(&path, body);
        for args in [&["install"][..], &["uninstall"], &["install", "--dry-run"]] {
            let out = w.run(args).code(3);
            let err = stderr(&out);
            assert!(
                err.contains(&path.display().to_string()),
                "{name}: names the file: {err}"
            );
            assert!(err.contains(problem), "{name}: names the problem: {err}");
            assert_eq!(
                fs::read_to_string(&path).unwrap(),
                *body,
                "{name}: byte-identical"
            );
            assert!(backups(&w, &path).is_empty(), "{name}: no backup");
        }
        let status: Value =
            serde_json::from_slice(&w.run(&["status", "--json"]).success().stdout).unwrap();
        assert!(
            status["scopes"][0]["problem"]
                .as_str()
                .unwrap()
                .contains(problem),
            "{name}: {status}"
        );
    }
}

#[test]
fn a_stale_askhook_path_is_re_pointed_in_place() {
    let w = World::new();
    let path = user_settings(&w);
    // An older copy of askhook that still exists, registered first in a shared entry.
    let old = w.tmp.path().join("old-bin/askhook");
    write(&old, "#!/bin/sh\nexit 0\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&old, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let old = old.to_string_lossy().into_owned();
    let mut settings = foreign_settings();
    settings["hooks"]["PreToolUse"][0]["hooks"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "command", "command": old, "args": ["hook"], "timeout": 5}));
    write(&path, &pretty(&settings));
    let out = w.run(&["install"]).success();
    let text = stdout(&out);
    assert!(
        text.contains(&format!("PreToolUse: re-pointed {old} → {}", me())),
        "{text}"
    );
    let after = read_json(&path);
    let pre = after["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2, "no second entry: {after:#}");
    assert_eq!(
        pre[0]["hooks"][0]["command"],
        "/opt/gstack/bin/gstack-question-log"
    );
    assert_eq!(pre[0]["hooks"][1], my_item(), "re-pointed where it was");
    assert_registered_once(&after);
}

#[test]
fn duplicates_collapse_and_dead_entries_are_pruned_and_reported() {
    let w = World::new();
    let path = user_settings(&w);
    let dead = "/nonexistent/askhook-gone/askhook";
    let item = |cmd: &str| json!({"type": "command", "command": cmd, "args": ["hook"]});
    let settings = json!({"hooks": {
        "PreToolUse": [
            {"matcher": MATCHER, "hooks": [item(&me())]},
            {"matcher": "^(AskUserQuestion|mcp__.+__AskUserQuestion)$", "hooks": [item(dead)]},
            {"matcher": MATCHER, "hooks": [item(&me()), {"type": "command", "command": "/x/keep"}]}
        ],
        "Stop": [{"hooks": [item(dead)]}, {"hooks": [item(dead)]}]
    }});
    write(&path, &pretty(&settings));

    let status: Value =
        serde_json::from_slice(&w.run(&["status", "--json"]).success().stdout).unwrap();
    let user = &status["scopes"][0];
    assert_eq!(user["dead"], 3, "{user:#}");
    assert_eq!(user["duplicates"], json!(["PreToolUse", "Stop"]));
    assert_eq!(user["registered"], false);

    let out = w.run(&["install"]).success();
    let text = stdout(&out);
    assert!(text.contains("pruned 2 dead entries"), "{text}");
    assert!(text.contains("collapsed 1 duplicate entry"), "{text}");
    assert!(
        text.contains(&format!("Stop: re-pointed {dead} → {}", me())),
        "{text}"
    );
    let after = read_json(&path);
    assert_registered_once(&after);
    let pre = after["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2, "{after:#}");
    assert_eq!(
        pre[1]["hooks"],
        json!([{"type": "command", "command": "/x/keep"}])
    );
    assert_eq!(after["hooks"]["Stop"].as_array().unwrap().len(), 1);

    let status: Value =
        serde_json::from_slice(&w.run(&["status", "--json"]).success().stdout).unwrap();
    let user = &status["scopes"][0];
    assert_eq!(user["dead"], 0);
    assert_eq!(user["duplicates"], json!([]));
    assert_eq!(user["registered"], true);
}

#[test]
fn ownership_is_by_program_and_subcommand_not_by_name_alone() {
    let w = World::new();
    let path = user_settings(&w);
    let not_ours = json!({"hooks": {"PreToolUse": [{"matcher": MATCHER, "hooks": [
        {"type": "command", "command": "/x/askhook-notify hook"},
        {"type": "command", "command": "/x/askhook", "args": ["log"]},
        {"type": "command", "command": "/usr/bin/env", "args": ["askhook", "hook"]}
    ]}]}});
    write(&path, &pretty(&not_ours));
    w.run(&["install"]).success();
    let after = read_json(&path);
    assert_eq!(
        after["hooks"]["PreToolUse"][0],
        not_ours["hooks"]["PreToolUse"][0]
    );
    assert_registered_once(&after);
    w.run(&["uninstall"]).success();
    assert_eq!(read_json(&path), not_ours);
}

#[test]
fn shell_form_and_timeout() {
    let w = World::new();
    let path = user_settings(&w);
    w.run(&["install", "--shell-form", "--timeout", "9"])
        .success();
    let after = read_json(&path);
    for event in EVENTS {
        assert_eq!(
            after["hooks"][event][0]["hooks"][0],
            json!({"type": "command", "command": format!("'{}' hook", me()), "timeout": 9}),
            "{event}"
        );
    }
    let status: Value =
        serde_json::from_slice(&w.run(&["status", "--json"]).success().stdout).unwrap();
    assert_eq!(status["scopes"][0]["registered"], true);
    assert_eq!(status["scopes"][0]["items"][0]["form"], "shell");

    // Back to exec form: updated in place, not duplicated.
    let out = w.run(&["install"]).success();
    assert!(
        stdout(&out).contains("PreToolUse: updated"),
        "{}",
        stdout(&out)
    );
    let after = read_json(&path);
    assert_registered_once(&after);
    assert_eq!(after["hooks"]["Stop"][0]["hooks"][0], my_item());
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let w = World::new();
    let path = user_settings(&w);
    let original = pretty(&foreign_settings());
    write(&path, &original);
    let out = w.run(&["install", "--dry-run"]).success();
    let text = stdout(&out);
    assert!(text.contains(&format!("--- {}", path.display())), "{text}");
    assert!(text.contains(&format!("+++ {}", path.display())), "{text}");
    assert!(text.contains("@@ -"), "{text}");
    assert!(
        text.contains(&format!("+            \"command\": \"{}\",", me())),
        "{text}"
    );
    assert!(text.contains("dry run"), "{text}");
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    let names: Vec<String> = fs::read_dir(&w.claude_config)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["settings.json"], "no backup, no lock, no temp file");

    // Into a missing file: a diff from /dev/null, and nothing created.
    let w = World::new();
    let out = w.run(&["install", "--dry-run"]).success();
    assert!(stdout(&out).contains("--- /dev/null"), "{}", stdout(&out));
    assert!(!w.claude_config.exists());

    // Uninstall dry run on an installed file.
    w.run(&["install"]).success();
    let before = fs::read(user_settings(&w)).unwrap();
    let out = w.run(&["uninstall", "--dry-run"]).success();
    assert!(stdout(&out).contains(&format!("-            \"command\": \"{}\",", me())));
    assert_eq!(fs::read(user_settings(&w)).unwrap(), before);
}

#[test]
fn rollback_restores_the_latest_backup_and_backs_up_first() {
    let w = World::new();
    let path = user_settings(&w);
    let original = pretty(&foreign_settings());
    write(&path, &original);
    w.run(&["install"]).success();
    let installed = fs::read_to_string(&path).unwrap();
    assert_ne!(installed, original);

    let out = w.run(&["rollback"]).success();
    assert!(stdout(&out).contains("restored"), "{}", stdout(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    let all = backups(&w, &path);
    assert_eq!(all.len(), 2, "the pre-rollback file was backed up");
    assert_eq!(fs::read_to_string(all.last().unwrap()).unwrap(), installed);

    // Nothing to restore in a scope askhook never changed.
    let out = w.run(&["rollback", "--scope", "project"]).code(1);
    assert!(
        stderr(&out).contains("no askhook backup"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn backups_are_private_and_only_the_last_ten_are_kept() {
    let w = World::new();
    let path = user_settings(&w);
    write(&path, "{\"model\": \"opus\"}\n");
    for _ in 0..7 {
        w.run(&["install"]).success();
        w.run(&["uninstall"]).success();
    }
    let all = backups(&w, &path);
    assert_eq!(all.len(), 10, "{all:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for b in &all {
            assert_eq!(fs::metadata(b).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }
    // The newest backup is the installed file that the last uninstall replaced.
    let newest: Value =
        serde_json::from_str(&fs::read_to_string(all.last().unwrap()).unwrap()).unwrap();
    assert_registered_once(&newest);
}

#[cfg(unix)]
#[test]
fn mode_is_preserved() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    let path = user_settings(&w);
    write(&path, "{\"model\": \"opus\"}\n");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    w.run(&["install"]).success();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
    w.run(&["uninstall"]).success();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o640
    );
}

#[cfg(unix)]
#[test]
fn a_symlinked_settings_file_stays_a_symlink() {
    // Dotfile managers link ~/.claude/settings.json into a repo; replacing the link with a
    // regular file would silently fork the user's dotfiles.
    let w = World::new();
    let real = w.tmp.path().join("dotfiles/claude-settings.json");
    write(&real, &pretty(&foreign_settings()));
    fs::create_dir_all(&w.claude_config).unwrap();
    let link = user_settings(&w);
    std::os::unix::fs::symlink(&real, &link).unwrap();
    w.run(&["install"]).success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_registered_once(&read_json(&real));
    assert_eq!(
        backups(&w, &real).len(),
        1,
        "the backup is of the real file"
    );
    w.run(&["rollback"]).success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(read_json(&real), foreign_settings());
}

#[cfg(unix)]
#[test]
fn a_dangling_symlink_is_refused_and_left_a_link() {
    // Issue #12.14: the link was replaced by a regular file, with no backup.
    let w = World::new();
    let real = w.tmp.path().join("dotfiles/claude-settings.json");
    fs::create_dir_all(&w.claude_config).unwrap();
    let link = user_settings(&w);
    std::os::unix::fs::symlink(&real, &link).unwrap();
    // Nothing is registered in a file that does not exist: uninstall has nothing to do.
    w.run(&["uninstall"]).success();
    for args in [&["install"][..], &["install", "--dry-run"]] {
        let err = stderr(&w.run(args).code(3));
        assert!(
            err.contains(&link.display().to_string()) && err.contains(&real.display().to_string()),
            "{args:?}: names the link and its target: {err}"
        );
        assert!(err.contains("does not exist"), "{args:?}: {err}");
        let meta = fs::symlink_metadata(&link).unwrap();
        assert!(meta.file_type().is_symlink(), "{args:?}: still a link");
        assert_eq!(fs::read_link(&link).unwrap(), real, "{args:?}");
        assert!(!real.exists(), "{args:?}: the target is not created");
    }
    assert_eq!(
        fs::read_dir(&w.claude_config).unwrap().count(),
        1,
        "no backup, no lock"
    );
    let status: Value =
        serde_json::from_slice(&w.run(&["status", "--json"]).success().stdout).unwrap();
    assert!(
        status["scopes"][0]["problem"]
            .as_str()
            .is_some_and(|p| p.contains("does not exist")),
        "{status}"
    );
    // What the message says to do works: an empty target is `{}`.
    write(&real, "");
    w.run(&["install"]).success();
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_registered_once(&read_json(&real));
}

#[test]
fn an_empty_settings_file_is_an_empty_object() {
    for (name, body) in [
        ("empty", ""),
        ("blank lines", "\n\n"),
        ("byte order mark only", "\u{FEFF}"),
    ] {
        let w = World::new();
        let path = user_settings(&w);
        write(&path, body);
        w.run(&["install"]).success();
        let text = fs::read_to_string(&path).unwrap();
        let value: Value = serde_json::from_str(text.trim_start_matches('\u{FEFF}'))
            .unwrap_or_else(|e| panic!("{name}: {e}: {text}"));
        assert_registered_once(&value);
        assert_eq!(
            backups(&w, &path).len(),
            1,
            "{name}: the old file is backed up"
        );
    }
}

#[test]
fn a_byte_order_mark_is_read_past_and_kept() {
    let w = World::new();
    let path = user_settings(&w);
    let original = "\u{FEFF}{\n  \"model\": \"opus\"\n}\n";
    write(&path, original);
    w.run(&["install"]).success();
    let bytes = fs::read(&path).unwrap();
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "the BOM is kept");
    let value: Value = serde_json::from_slice(&bytes[3..]).unwrap();
    assert_eq!(value["model"], "opus");
    assert_registered_once(&value);
    w.run(&["uninstall"]).success();
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        original,
        "byte for byte"
    );
}

#[test]
fn scopes_pick_their_files() {
    let w = World::new();
    let sub = w.project.join("src/deep");
    fs::create_dir_all(&sub).unwrap();
    w.run(&["install", "--scope", "project"])
        .current_dir(&sub)
        .success();
    assert_registered_once(&read_json(&w.project.join(".claude/settings.json")));
    w.run(&["install", "--scope", "local"]).success();
    assert_registered_once(&read_json(&w.project.join(".claude/settings.local.json")));
    assert!(!user_settings(&w).exists());

    // --settings wins over --scope.
    let custom = w.tmp.path().join("custom/my-settings.json");
    w.run(&[
        "install",
        "--scope",
        "local",
        "--settings",
        custom.to_str().unwrap(),
    ])
    .success();
    assert_registered_once(&read_json(&custom));

    // The user scope follows CLAUDE_CONFIG_DIR, never ~/.claude behind its back.
    let w2 = World::new();
    let elsewhere = w2.tmp.path().join("claude-elsewhere");
    w2.run(&["install"])
        .env("CLAUDE_CONFIG_DIR", &elsewhere)
        .success();
    assert_registered_once(&read_json(&elsewhere.join("settings.json")));
    assert!(!w2.home.join(".claude/settings.json").exists());

    // status covers every scope.
    let status: Value =
        serde_json::from_slice(&w.run(&["status", "--json"]).success().stdout).unwrap();
    let scopes: Vec<(&str, bool)> = status["scopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["scope"].as_str().unwrap(),
                s["registered"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        scopes,
        [("user", false), ("project", true), ("local", true)]
    );
    let project = &status["scopes"][1];
    assert_eq!(project["events"], json!(EVENTS));
    assert_eq!(project["missing"], json!([]));
    assert_eq!(project["items"][0]["command"], me());
    assert_eq!(project["items"][0]["exists"], true);
    assert_eq!(project["items"][0]["executable"], true);
    assert_eq!(project["items"][0]["this_binary"], true);
    assert_eq!(status["binary"], me());
}

#[test]
fn status_reads_without_writing_and_reports_partial_registrations() {
    let w = World::new();
    let path = user_settings(&w);
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": MATCHER, "hooks": [my_item()]}]}});
    write(&path, &pretty(&settings));
    let before = fs::read(&path).unwrap();
    let out = w.run(&["status"]).success();
    let text = stdout(&out);
    assert!(text.contains("partly registered: PreToolUse"), "{text}");
    assert!(text.contains("missing: PostToolUse"), "{text}");
    assert!(text.contains("askhook install"), "{text}");
    assert_eq!(fs::read(&path).unwrap(), before);
    assert_eq!(
        fs::read_dir(&w.claude_config).unwrap().count(),
        1,
        "no lock file either"
    );
}

#[test]
fn a_held_lock_means_exit_4_and_nothing_written() {
    let w = World::new();
    let path = user_settings(&w);
    let original = pretty(&foreign_settings());
    write(&path, &original);
    // The lock is on the settings file's folder: no lock file to leave behind.
    let lock = fs::File::open(&w.claude_config).unwrap();
    lock.lock().unwrap();
    let started = std::time::Instant::now();
    let out = w.run(&["install"]).code(4);
    assert!(started.elapsed() < std::time::Duration::from_secs(15));
    assert!(stderr(&out).contains("lock"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&path).unwrap(), original);
    assert!(backups(&w, &path).is_empty());
    lock.unlock().unwrap();
    w.run(&["install"]).success();
}

#[test]
fn concurrent_installs_and_uninstalls_never_lose_foreign_entries() {
    let w = World::new();
    let path = user_settings(&w);
    write(&path, &pretty(&foreign_settings()));
    let mut children = Vec::new();
    for n in 0..16 {
        let mut cmd = w.command();
        cmd.arg(if n % 2 == 0 { "install" } else { "uninstall" })
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        children.push(cmd.spawn().unwrap());
    }
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let after = read_json(&path);
    let counts: Vec<usize> = EVENTS
        .iter()
        .map(|e| askhook_items(&after, e).len())
        .collect();
    assert!(
        counts == [1; 6] || counts == [0; 6],
        "all or nothing, never doubled: {counts:?} {after:#}"
    );
    let foreign = foreign_settings();
    let pre = after["hooks"]["PreToolUse"].as_array().unwrap();
    assert!(pre.contains(&foreign["hooks"]["PreToolUse"][0]));
    assert!(pre.contains(&foreign["hooks"]["PreToolUse"][1]));
    assert!(after["hooks"]["Stop"]
        .as_array()
        .unwrap()
        .contains(&foreign["hooks"]["Stop"][0]));
    assert_eq!(
        after["hooks"]["Notification"],
        foreign["hooks"]["Notification"]
    );
    assert_eq!(after["statusLine"], foreign["statusLine"]);
    let leftovers: Vec<String> = fs::read_dir(&w.claude_config)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("askhook-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // Under the lock every write starts from the file the previous write left, so the backups
    // (one per write, oldest first) and the final file alternate installed / not installed:
    // two neighbours are never equal. Without the lock two writers back up the same snapshot.
    let mut states: Vec<Vec<u8>> = backups(&w, &path)
        .iter()
        .map(|b| fs::read(b).unwrap())
        .collect();
    states.push(fs::read(&path).unwrap());
    for pair in states.windows(2) {
        assert_ne!(
            pair[0], pair[1],
            "two writes started from the same snapshot"
        );
    }

    w.run(&["install"]).success();
    assert_registered_once(&read_json(&path));
}

#[test]
fn yes_is_accepted_and_nothing_prompts_without_a_terminal() {
    let w = World::new();
    let out = w.run(&["install", "--yes"]).success();
    assert!(stdout(&out).contains("PreToolUse: added"));
    let out = w.run(&["uninstall", "-y"]).success();
    assert!(stdout(&out).contains("PreToolUse: removed"));
}

// ---------------------------------------------------------------------------------------------
// Packaging

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn plugin_hooks_json_registers_the_hook_subcommand_on_every_event() {
    let hooks = read_json(&repo_file("hooks/hooks.json"));
    let events = hooks["hooks"].as_object().unwrap();
    assert_eq!(
        events.keys().collect::<Vec<_>>(),
        EVENTS.iter().collect::<Vec<_>>()
    );
    for event in EVENTS {
        let entries = events[event].as_array().unwrap();
        assert_eq!(entries.len(), 1, "{event}");
        if LIFECYCLE_EVENTS.contains(&event) {
            assert!(entries[0].get("matcher").is_none(), "{event}");
        } else {
            assert_eq!(entries[0]["matcher"], MATCHER, "{event}");
        }
        let item = &entries[0]["hooks"][0];
        assert_eq!(item["type"], "command");
        assert_eq!(item["command"], "${CLAUDE_PLUGIN_ROOT}/bin/askhook");
        assert_eq!(item["args"], json!(["hook"]), "{event}");
        assert_eq!(item["timeout"], 5);
    }
    let plugin = read_json(&repo_file(".claude-plugin/plugin.json"));
    assert_eq!(plugin["name"], "askhook");
    assert!(
        plugin.get("hooks").is_none(),
        "hooks/hooks.json loads by default; naming it again is an error"
    );
    let market = read_json(&repo_file(".claude-plugin/marketplace.json"));
    assert_eq!(market["plugins"][0]["name"], "askhook");
    assert_eq!(market["plugins"][0]["source"], "./");
}

#[test]
fn install_script_is_posix_sh() {
    let script = repo_file("install/install.sh");
    for shell in ["sh", "dash"] {
        let Ok(out) = std::process::Command::new(shell)
            .arg("-n")
            .arg(&script)
            .output()
        else {
            continue;
        };
        assert!(
            out.status.success(),
            "{shell} -n: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = std::process::Command::new("sh")
        .arg(&script)
        .arg("--bogus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option"));
    let text = fs::read_to_string(&script).unwrap();
    assert!(text.starts_with("#!/bin/sh\n"));
    assert!(text.contains("cargo install --path"));
    assert!(text.contains("--locked"));
}

#[test]
fn a_file_written_by_python_round_trips_byte_for_byte() {
    // json.dumps(settings, indent=2) + "\n": ASCII-only with \u escapes, as Python tools write it.
    let w = World::new();
    let path = user_settings(&w);
    let python = "{\n  \"env\": {\n    \"GREETING\": \"gr\\u00fc\\u00df dich \\ud83d\\udc4b\"\n  },\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/opt/x/notify\",\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  },\n  \"empty\": [],\n  \"none\": {}\n}\n";
    write(&path, python);
    w.run(&["install"]).success();
    let installed = fs::read(&path).unwrap();
    assert!(
        installed.is_ascii(),
        "{}",
        String::from_utf8_lossy(&installed)
    );
    assert_registered_once(&read_json(&path));
    w.run(&["uninstall"]).success();
    assert_eq!(fs::read_to_string(&path).unwrap(), python);
}
