//! A clean uninstall: nothing of askhook's is left in a project (no `{}` settings file, no
//! backups, no lock file), backups live in askhook's data folder where `rollback` finds them,
//! and `uninstall --purge` deletes askhook's data, and only askhook's.

use std::fs;
use std::path::{Path, PathBuf};

use crate::harness::{stderr, stdout, World};

/// Every file and folder below `dir`, relative, sorted (`.git` skipped).
fn tree(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            out.push(path.strip_prefix(root).unwrap().display().to_string());
            if path.is_dir() {
                walk(root, &path, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn a_project_scope_round_trip_leaves_nothing_in_the_repository() {
    let w = World::new();
    w.run(&["install", "--scope", "project"]).success();
    assert_eq!(tree(&w.project), [".claude", ".claude/settings.json"]);
    // A second install backs up the file: into the data folder, not the repository.
    w.run(&["install", "--scope", "project", "--timeout", "9"])
        .success();
    assert_eq!(tree(&w.project), [".claude", ".claude/settings.json"]);

    let out = w.run(&["uninstall", "--scope", "project"]).success();
    assert!(
        stdout(&out).contains("the file is removed"),
        "{}",
        stdout(&out)
    );
    assert!(tree(&w.project).is_empty(), "{:?}", tree(&w.project));

    // The backups are in the data folder, so the uninstall can still be rolled back.
    let out = w.run(&["rollback", "--scope", "project"]).success();
    assert!(stdout(&out).contains("restored"), "{}", stdout(&out));
    assert_eq!(tree(&w.project), [".claude", ".claude/settings.json"]);
    let status = stdout(&w.run(&["status", "--scope", "project"]).success());
    assert!(status.contains("registered: PreToolUse"), "{status}");
}

#[test]
fn a_file_with_other_settings_is_kept_and_nothing_is_added_beside_it() {
    let w = World::new();
    let settings = w.project.join(".claude/settings.json");
    fs::create_dir_all(settings.parent().unwrap()).unwrap();
    fs::write(&settings, "{\n  \"model\": \"opus\"\n}\n").unwrap();
    w.run(&["install", "--scope", "project"]).success();
    w.run(&["uninstall", "--scope", "project"]).success();
    assert_eq!(
        fs::read_to_string(&settings).unwrap(),
        "{\n  \"model\": \"opus\"\n}\n"
    );
    assert_eq!(tree(&w.project), [".claude", ".claude/settings.json"]);
}

#[test]
fn what_older_versions_left_beside_a_file_moves_into_the_data_folder() {
    let w = World::new();
    let settings = w.claude_config.join("settings.json");
    fs::create_dir_all(&w.claude_config).unwrap();
    fs::write(&settings, "{\n  \"model\": \"opus\"\n}\n").unwrap();
    let legacy = w
        .claude_config
        .join("settings.json.askhook-bak.20250101T000000.000Z");
    fs::write(&legacy, "{\n  \"model\": \"sonnet\"\n}\n").unwrap();
    fs::write(w.claude_config.join(".settings.json.askhook-lock"), "").unwrap();
    w.run(&["install"]).success();
    assert_eq!(tree(&w.claude_config), ["settings.json"]);
    // Both backups are found: the one install made, and the adopted one, oldest first.
    w.run(&["rollback"]).success();
    assert!(fs::read_to_string(&settings).unwrap().contains("opus"));
    w.run(&["rollback"]).success();
    w.run(&["rollback"]).success();
    let backups: Vec<PathBuf> = fs::read_dir(
        w.askhook_home
            .join("settings-backups")
            .join(w.claude_config.strip_prefix("/").unwrap()),
    )
    .unwrap()
    .flatten()
    .map(|e| e.path())
    .collect();
    assert!(
        backups
            .iter()
            .any(|b| b.ends_with(legacy.file_name().unwrap())),
        "{backups:?}"
    );
}

#[test]
fn purge_needs_a_yes_and_deletes_only_askhooks_files() {
    let w = World::new();
    w.run(&["install"]).success();
    let db = w.db();
    w.run(&["demo", "--db", db.to_str().unwrap()]).success();
    fs::write(w.error_log(), "x\n").unwrap();

    // No terminal, no --yes: nothing changes at all.
    let out = w.run(&["uninstall", "--purge"]).code(2);
    assert!(stderr(&out).contains("add --yes"), "{}", stderr(&out));
    assert!(db.exists());
    assert!(w.claude_config.join("settings.json").exists());

    let dry = stdout(&w.run(&["uninstall", "--purge", "--dry-run"]).success());
    assert!(
        dry.contains(&format!("would delete {}", db.display())),
        "{dry}"
    );
    assert!(db.exists());

    let mine = w.askhook_home.join("notes.txt");
    fs::write(&mine, "mine").unwrap();
    w.run(&["install", "--scope", "project"]).success();
    let out = stdout(&w.run(&["uninstall", "--purge", "--yes"]).success());
    assert!(out.contains(&format!("deleted {}", db.display())), "{out}");
    assert!(out.contains("kept") && out.contains("notes.txt"), "{out}");
    assert!(
        out.contains("still registered")
            && out.contains("`askhook uninstall --scope project --purge`"),
        "{out}"
    );
    assert_eq!(
        tree(&w.askhook_home),
        ["notes.txt"],
        "only the foreign file is left"
    );
    assert!(!w.claude_config.join("settings.json").exists());

    fs::remove_file(&mine).unwrap();
    w.run(&["uninstall", "--scope", "project", "--purge", "--yes"])
        .success();
    assert!(!w.askhook_home.exists(), "the emptied data folder goes too");
    assert!(tree(&w.project).is_empty());
}
