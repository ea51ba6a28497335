//! Which rows a command touches: `--project` takes what the PROJECT column shows (a name, an
//! imported `gstack:<slug>`), a folder, or nothing for the current project, and refuses a
//! name that is unknown or ambiguous; `forget` says which projects' rows it deletes, needs a
//! filter or `--all`, and never blames the user's file for a query of its own.

use std::path::Path;

use serde_json::{json, Value};

use crate::harness::{fixture, stderr, stdout, World};

/// A captured payload, parsed.
fn payload(name: &str) -> Value {
    serde_json::from_slice(&fixture(&format!("captured/{name}.json"))).unwrap()
}

/// Record the `basic` call (two answered questions) with its `cwd` set to `dir`, under its
/// own session so calls in several folders stay apart.
fn record_in(world: &World, dir: &Path, session: &str) {
    std::fs::create_dir_all(dir).unwrap();
    for name in ["basic--01-PreToolUse", "basic--02-PostToolUse"] {
        let mut p = payload(name);
        p["cwd"] = json!(dir.to_string_lossy());
        p["session_id"] = json!(session);
        assert!(world
            .hook(&serde_json::to_vec(&p).unwrap())
            .status
            .success());
    }
}

/// One imported gstack row, project `gstack:shop`.
fn import_gstack_shop(world: &World) {
    let dir = world.home.join(".gstack/projects/shop");
    std::fs::create_dir_all(&dir).unwrap();
    let line = json!({"skill": "ship", "question_id": "enable-cache",
        "question_summary": "Enable the build cache?", "options_count": 2, "user_choice": "Yes",
        "recommended": "Yes", "followed_recommendation": true, "source": "user",
        "session_id": "gs-1", "tool_use_id": "toolu_gs_1", "ts": "2026-11-30T10:00:00Z"});
    std::fs::write(dir.join("question-log.jsonl"), format!("{line}\n")).unwrap();
    world.run(&["import", "gstack", "--json"]).success();
}

/// The `project` of every row `log --json <args>` prints, run in `dir`.
fn projects_in(world: &World, dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["log", "--json"];
    all.extend_from_slice(args);
    let out = world.run(&all).current_dir(dir).success();
    let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["project"].as_str().unwrap_or("-").to_owned())
        .collect()
}

/// The `project` of every row `log --json <args>` prints, run in the world's project.
fn projects(world: &World, args: &[&str]) -> Vec<String> {
    projects_in(world, &world.project, args)
}

/// The repo's own two rows (project = the world's project) and one imported `gstack:shop` row.
fn repo_and_gstack() -> World {
    let world = World::new();
    record_in(&world, &world.project, "s-repo");
    import_gstack_shop(&world);
    world
}

#[test]
fn forget_project_by_its_imported_name_deletes_only_that_project() {
    // Issue #12.7: inside a repo, `--project gstack:shop` was read as the folder
    // <repo>/gstack:shop, whose project is the repo: the repo's rows went, gstack:shop stayed.
    let world = repo_and_gstack();
    let repo = world.project.to_string_lossy().into_owned();
    let out = world
        .run(&["forget", "--project", "gstack:shop", "--yes"])
        .success();
    let said = stdout(&out);
    assert!(
        said.contains("1 row(s)") && said.contains("gstack:shop (1 row)"),
        "forget says which project's rows go before deleting: {said}"
    );
    assert!(!said.contains(&repo), "{said}");
    assert_eq!(projects(&world, &[]), vec![repo.clone(), repo]);
}

#[test]
fn project_takes_a_name_a_folder_or_nothing() {
    let world = repo_and_gstack();
    let repo = world.project.to_string_lossy().into_owned();
    let sub = world.project.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    let elsewhere = world.tmp.path().canonicalize().unwrap().join("other");
    record_in(&world, &elsewhere, "s-other");
    let other = elsewhere.to_string_lossy().into_owned();
    let (repo, other) = (repo.as_str(), other.as_str());
    for (name, args, dir, want) in [
        (
            "short name",
            &["--project", "proj"][..],
            None,
            vec![repo, repo],
        ),
        (
            "imported name",
            &["--project", "gstack:shop"],
            None,
            vec!["gstack:shop"],
        ),
        ("whole key", &["--project", other], None, vec![other, other]),
        (
            "bare is the current project",
            &["--project"],
            Some(&sub),
            vec![repo, repo],
        ),
        (
            "a relative folder",
            &["--project", "src/deep"],
            None,
            vec![repo, repo],
        ),
        (
            "a folder given as a path",
            &["--project", "./src"],
            None,
            vec![repo, repo],
        ),
        (
            "a name from another folder",
            &["--project", "other"],
            Some(&sub),
            vec![other, other],
        ),
    ] {
        let got = projects_in(&world, dir.unwrap_or(&world.project), args);
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn an_unknown_or_ambiguous_project_is_refused_with_the_candidates() {
    let world = repo_and_gstack();
    let root = world.tmp.path().canonicalize().unwrap();
    record_in(&world, &root.join("a/shop"), "s-a");
    record_in(&world, &root.join("b/shop"), "s-b");
    for (name, value, needles) in [
        (
            "unknown name",
            "gstack:shopp",
            &["no project of that name", "gstack:shop (1 row)", "proj ("][..],
        ),
        (
            "a folder that does not exist",
            "./no/such/dir",
            &["no such folder", "gstack:shop (1 row)"],
        ),
        (
            "two projects share the short name",
            "shop",
            &["ambiguous", "/a/shop", "/b/shop"],
        ),
    ] {
        for args in [
            &["log", "--project", value][..],
            &["forget", "--project", value, "--yes"],
        ] {
            let err = stderr(&world.run(args).code(2));
            for needle in needles {
                assert!(
                    err.contains(needle),
                    "{name}, {args:?}: {needle:?} in {err}"
                );
            }
        }
    }
    assert_eq!(projects(&world, &[]).len(), 7, "nothing was deleted");
    // An empty log has no project names: a name is refused there too (exit 2, not 0).
    let empty = World::new();
    let out = empty.run(&["log", "--project", "gstack:shop"]).code(2);
    assert!(stderr(&out).contains("no project yet"), "{}", stderr(&out));
}

#[test]
fn forget_needs_a_filter_or_all_and_never_blames_the_file() {
    // Issue #12.8: `forget --yes` and `forget --limit 2 --yes` failed with an SQL error
    // ("Wrong number of parameters") blamed on the user's file.
    let world = repo_and_gstack();
    record_in(&world, &world.project.join("sub"), "s-late");
    let total = projects(&world, &[]).len();
    assert_eq!(total, 5);
    for (name, args) in [
        ("no filter", &["forget", "--yes"][..]),
        ("no filter, asking", &["forget"]),
        (
            "all with a filter",
            &["forget", "--all", "--session", "s-repo", "--yes"],
        ),
        (
            "all with a limit",
            &["forget", "--all", "--limit", "1", "--yes"],
        ),
    ] {
        let out = world.run(args).code(2);
        let err = stderr(&out);
        assert!(err.contains("--all"), "{name}: {err}");
        assert!(!err.contains("check the file"), "{name}: {err}");
        assert_eq!(
            projects(&world, &[]).len(),
            total,
            "{name}: nothing deleted"
        );
    }
    // --limit N is a filter: the N most recent rows.
    let newest: Vec<Value> = world
        .json(&["log", "--json", "--limit", "2"])
        .as_array()
        .unwrap()
        .clone();
    let r = world.json(&["forget", "--limit", "2", "--yes", "--json"]);
    assert_eq!(
        (r["matched"].as_u64(), r["deleted"].as_u64()),
        (Some(2), Some(2)),
        "{r}"
    );
    let left = world.json(&["log", "--json"]);
    for gone in &newest {
        assert!(
            !left
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["tool_use_id"] == gone["tool_use_id"]
                    && r["session_id"] == gone["session_id"]
                    && r["question_index"] == gone["question_index"]),
            "{gone}"
        );
    }
    // --all deletes every row, and says which projects they were.
    let r = world.json(&["forget", "--all", "--yes", "--json"]);
    assert_eq!(r["deleted"], 3, "{r}");
    let listed: Vec<(&str, u64)> = r["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["project"].as_str().unwrap(), p["rows"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        listed,
        vec![(world.project.to_str().unwrap(), 2), ("gstack:shop", 1)]
    );
    assert_eq!(projects(&world, &[]).len(), 0);
    // On an empty log the contract is the same: no filter is still a usage error.
    let out = World::new().run(&["forget", "--yes"]).code(2);
    assert!(stderr(&out).contains("--all"));
    World::new().run(&["forget", "--all", "--yes"]).success();
}
