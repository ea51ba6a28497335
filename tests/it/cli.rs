//! The command line itself: completions and man pages generated from it, help text, and the
//! values it refuses.

use std::process::Command;

use crate::harness::{stderr, stdout, World};

#[test]
fn completions_are_generated_for_every_shell() {
    let world = World::new();
    for (shell, marker) in [
        ("bash", "complete -F _askhook"),
        ("zsh", "#compdef askhook"),
        ("fish", "complete -c askhook"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[askhook]"),
    ] {
        let text = stdout(&world.run(&["completions", shell]).success());
        assert!(text.contains(marker), "{shell}: no {marker:?}");
        assert!(text.contains("uninstall"), "{shell}: every subcommand");
    }
    world.run(&["completions", "tcsh"]).code(2);
}

#[test]
fn the_bash_completion_completes_subcommands() {
    let world = World::new();
    let script = world.tmp.path().join("askhook.bash");
    std::fs::write(
        &script,
        world.run(&["completions", "bash"]).success().stdout,
    )
    .unwrap();
    let probe = format!(
        "source '{}'; COMP_WORDS=(askhook unin); COMP_CWORD=1; _askhook askhook unin askhook; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = Command::new("bash").args(["--norc", "-c", &probe]).output();
    let Ok(out) = out else {
        return; // no bash on this machine: the generation test above still ran
    };
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "uninstall");
}

#[test]
fn the_man_page_is_generated_whole_or_per_command() {
    let world = World::new();
    let page = stdout(&world.run(&["man"]).success());
    assert!(page.contains(".TH askhook 1"), "{page}");
    for section in ["SYNOPSIS", "SUBCOMMANDS", "askhook\\-uninstall(1)"] {
        assert!(page.contains(section), "no {section}");
    }
    let dir = world.tmp.path().join("man1");
    world
        .run(&["man", "--dir", dir.to_str().unwrap()])
        .success();
    for name in [
        "askhook.1",
        "askhook-log.1",
        "askhook-pref-set.1",
        "askhook-man.1",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        assert!(text.starts_with(".ie"), "{name}: {text:?}");
    }
    assert!(stderr(&world.run(&["man"]).success()).is_empty());
}

#[test]
fn help_never_shows_an_empty_env_value_and_empty_means_unset() {
    let world = World::new().env("ASKHOOK_HOME", "").env("ASKHOOK_DB", "");
    let help = stdout(&world.run(&["--help"]).success());
    assert!(help.contains("ASKHOOK_HOME]"), "{help}");
    assert!(!help.contains("=]"), "{help}");
    // An empty variable is unset, not a missing value for --home.
    world.run(&["log"]).success();
}

#[test]
fn nonsensical_values_are_refused_with_their_range() {
    let world = World::new();
    for (args, env, range) in [
        (&["install", "--timeout", "100000"][..], None, "1..=600"),
        (&["install", "--timeout", "0"][..], None, "1..=600"),
        (&["suggest", "--min-follow", "150"][..], None, "0..=100"),
        (&["suggest", "--min-asked", "0"][..], None, "1.."),
        (&["watch", "--interval-ms", "1"][..], None, "10..=60000"),
        (
            &["log"][..],
            Some(("ASKHOOK_DEADLINE_MS", "abc")),
            "1..=60000",
        ),
        (
            &["status"][..],
            Some(("ASKHOOK_DEADLINE_MS", "100000")),
            "1..=60000",
        ),
        (
            &["log"][..],
            Some(("ASKHOOK_BUSY_TIMEOUT_MS", "-1")),
            "0..=60000",
        ),
    ] {
        let mut run = world.run(args);
        if let Some((k, v)) = env {
            run = run.env(k, v);
        }
        let out = run.code(2);
        assert!(
            stderr(&out).contains(range),
            "{args:?} {env:?}: {}",
            stderr(&out)
        );
    }
    assert!(!world.claude_config.join("settings.json").exists());
    // The hook never refuses: a value it cannot read keeps the default.
    let out = world
        .run(&["hook"])
        .env("ASKHOOK_DEADLINE_MS", "abc")
        .stdin("{}")
        .success();
    assert!(out.stdout.is_empty());
}

#[test]
fn global_is_the_user_scope() {
    let world = World::new();
    world.run(&["install", "--scope", "global"]).success();
    assert!(world.claude_config.join("settings.json").exists());
    let out = stdout(&world.run(&["status", "--scope", "user"]).success());
    assert!(out.contains("next: nothing to do"), "{out}");
}

#[test]
fn status_says_what_to_do_next() {
    let world = World::new();
    let next = |args: &[&str]| {
        let out = stdout(&world.run(args).success());
        out.lines()
            .rev()
            .find(|l| l.starts_with("next:"))
            .unwrap_or_default()
            .to_owned()
    };
    assert!(next(&["status"]).contains("`askhook install` registers askhook for your user"));
    world.run(&["install"]).success();
    assert!(next(&["status"]).contains("nothing to do"));
    world.run(&["install", "--scope", "project"]).success();
    let both = next(&["status"]);
    assert!(
        both.contains("registered in 2 scopes (user, project)")
            && both.contains("runs the hook twice")
            && both.contains("`askhook uninstall --scope project`"),
        "{both}"
    );
    let broken = world.tmp.path().join("broken settings.json");
    std::fs::write(&broken, "{bad").unwrap();
    let file = broken.to_str().unwrap();
    let fix = next(&["status", "--settings", file]);
    assert!(
        fix.contains("cannot be read")
            && fix.contains(&format!("`askhook rollback --settings '{file}'`"))
            && !fix.starts_with("next: `askhook install"),
        "{fix}"
    );
    let other = world.tmp.path().join("other.json");
    let fresh = next(&["status", "--settings", other.to_str().unwrap()]);
    assert!(
        fresh.contains(&format!("`askhook install --settings {}`", other.display())),
        "{fresh}"
    );
}

/// gstack's layout: `<home>/projects/<slug>/question-log.jsonl`, one followed answer per line.
fn gstack_home(world: &World, id: &str, answers: usize) -> std::path::PathBuf {
    let home = world.tmp.path().join("gstack-home");
    let project = home.join("projects/shop");
    std::fs::create_dir_all(&project).unwrap();
    let lines: Vec<String> = (0..answers)
        .map(|i| {
            serde_json::json!({
                "question_id": id, "question_summary": "Run the linter?",
                "user_choice": "Yes", "recommended": "Yes", "followed_recommendation": true,
                "session_id": format!("s{i}"), "tool_use_id": format!("t{i}"),
                "ts": format!("2026-11-0{}T10:00:00Z", i + 1),
            })
            .to_string()
        })
        .collect();
    std::fs::write(project.join("question-log.jsonl"), lines.join("\n")).unwrap();
    home
}

#[test]
fn import_gstack_takes_gstack_home_and_says_when_it_finds_nothing() {
    let world = World::new();
    let home = gstack_home(&world, "run-linter", 2);
    let out = stdout(
        &world
            .run(&["import", "gstack", home.to_str().unwrap()])
            .success(),
    );
    assert!(
        out.contains("1 project folder(s)") && out.contains("2 imported"),
        "{out}"
    );
    let empty = world.tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = stdout(
        &world
            .run(&["import", "gstack", empty.to_str().unwrap()])
            .success(),
    );
    assert!(out.contains("no gstack files here"), "{out}");
}

#[test]
fn suggest_prints_commands_for_the_database_in_use() {
    let world = World::new();
    let home = gstack_home(&world, "run-linter", 5);
    let db = world.tmp.path().join("elsewhere.db");
    let db = db.to_str().unwrap();
    world
        .run(&["--db", db, "import", "gstack", home.to_str().unwrap()])
        .success();
    let out = stdout(&world.run(&["--db", db, "suggest"]).success());
    assert!(
        out.contains(&format!("askhook --db {db} pref set run-linter never-ask")),
        "{out}"
    );
    // The default database needs no flag.
    world
        .run(&["import", "gstack", home.to_str().unwrap()])
        .success();
    let out = stdout(&world.run(&["suggest"]).success());
    assert!(
        out.contains("    askhook pref set run-linter never-ask"),
        "{out}"
    );
}

#[test]
fn watch_says_it_is_waiting_for_the_database() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let world = World::new();
    let mut child = world
        .command()
        .arg("watch")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.contains("waiting for") && line.contains("askhook.db"),
        "{line}"
    );
    assert!(!world.db().exists(), "watch never creates the database");
}
