//! `askhook config show | path | edit` and the config keys the hook reads, through the real
//! binary. (What answer mode and an invalid file do to the hook: `decide.rs`.)

use serde_json::Value;

use crate::harness::{stderr, stdout, World};

/// Every config key, as `config show --json` names them.
const KEYS: [&str; 7] = [
    "decide_with",
    "context_from_history",
    "deadline_ms",
    "busy_timeout_ms",
    "redact",
    "record_filter.cwd",
    "record_filter.question",
];

fn shown(world: &World, env: &[(&str, &str)]) -> Value {
    let mut run = world.run(&["config", "show", "--json"]);
    for (k, v) in env {
        run = run.env(k, v);
    }
    serde_json::from_slice(&run.output().stdout).expect("config show --json")
}

#[test]
fn the_path_follows_askhook_home_and_the_flag() {
    let world = World::new();
    let path = stdout(&world.run(&["config", "path"]).success());
    assert_eq!(
        path.trim(),
        world.askhook_home.join("config.toml").to_string_lossy()
    );
    let other = world.project.join("my.toml");
    let path = stdout(
        &world
            .run(&["config", "path", "--config", &other.to_string_lossy()])
            .success(),
    );
    assert_eq!(path.trim(), other.to_string_lossy());
    let path = stdout(
        &world
            .run(&["config", "path"])
            .env("ASKHOOK_CONFIG", &other)
            .success(),
    );
    assert_eq!(path.trim(), other.to_string_lossy());
}

#[test]
fn show_says_every_value_and_where_it_comes_from() {
    let world = World::new();
    let v = shown(&world, &[]);
    assert_eq!(
        (v["exists"].clone(), v["valid"].clone()),
        (false.into(), true.into())
    );
    for key in KEYS {
        assert_eq!(v["keys"][key]["source"], "default", "{key}");
    }
    assert_eq!(v["keys"]["decide_with"]["value"], "deny");
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    std::fs::write(
        world.askhook_home.join("config.toml"),
        "decide_with = \"answer\"\ndeadline_ms = 2000\n[record_filter]\nquestion = [\"salary\"]\n",
    )
    .unwrap();
    let v = shown(&world, &[("ASKHOOK_DEADLINE_MS", "1500")]);
    assert_eq!(v["keys"]["decide_with"]["value"], "answer");
    assert_eq!(v["keys"]["decide_with"]["source"], "file");
    assert_eq!(v["keys"]["deadline_ms"]["value"], 1500);
    assert_eq!(v["keys"]["deadline_ms"]["source"], "env");
    assert_eq!(v["keys"]["record_filter.question"]["value"][0], "salary");
    let v = shown(&world, &[("ASKHOOK_DECIDE_WITH", "deny")]);
    assert_eq!(v["keys"]["decide_with"]["source"], "env");
    let text = stdout(&world.run(&["config", "show"]).success());
    assert!(
        text.contains("(valid)") && text.contains("decide_with"),
        "{text}"
    );
}

#[test]
fn edit_creates_the_template_runs_the_editor_and_checks_the_result() {
    let world = World::new();
    let editor = world.project.join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'decide_with = \"answer\"\\n' >> \"$1\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    world
        .run(&["config", "edit"])
        .env("EDITOR", &editor)
        .success();
    let text = std::fs::read_to_string(world.askhook_home.join("config.toml")).unwrap();
    assert!(
        text.contains("# decide_with = \"deny\""),
        "the template: {text}"
    );
    assert_eq!(shown(&world, &[])["keys"]["decide_with"]["value"], "answer");
    // A second edit that breaks it is reported, and the file is kept as the editor left it.
    std::fs::write(
        &editor,
        "#!/bin/sh\nprintf 'decide_with = 3\\n' >> \"$1\"\n",
    )
    .unwrap();
    let out = world
        .run(&["config", "edit"])
        .env("VISUAL", &editor)
        .code(3);
    assert!(stderr(&out).contains("decide_with"), "{}", stderr(&out));
    assert_eq!(shown(&world, &[])["valid"], false);
    let help = stdout(&world.run(&["config", "--help"]).success());
    for key in KEYS {
        let key = key.split('.').next().unwrap();
        assert!(help.contains(key), "{key} not in --help");
    }
}

/// One question's PreToolUse (and, with `answer`, its PostToolUse) through the hook; returns
/// the PreToolUse's stdout.
fn asked(world: &World, call: &str, text: &str, answer: Option<(&str, &str)>) -> String {
    let questions = serde_json::json!([{"question": text, "header": "DB",
        "options": [{"label": "PG (Recommended)", "description": ""},
                    {"label": "MySQL", "description": ""}], "multiSelect": false}]);
    let mut p = serde_json::json!({
        "session_id": "s-config", "cwd": world.project.to_string_lossy(),
        "hook_event_name": "PreToolUse", "tool_name": "AskUserQuestion",
        "tool_use_id": call, "tool_input": {"questions": questions},
    });
    let out = world.hook_json(p.clone());
    assert!(out.status.success());
    if let Some((answer, notes)) = answer {
        p["hook_event_name"] = "PostToolUse".into();
        p["tool_response"] = serde_json::json!({
            "questions": questions,
            "answers": {text: answer},
            "annotations": {text: {"notes": notes}},
        });
        assert!(world.hook_json(p).status.success());
    }
    stdout(&out)
}

fn write(world: &World, text: &str) {
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    std::fs::write(world.askhook_home.join("config.toml"), text).unwrap();
}

#[test]
fn context_from_history_tells_the_agent_the_last_answers_only_when_asked_to() {
    let world = World::new();
    asked(
        &world,
        "toolu_c1",
        "Which database should we use?",
        Some(("MySQL", "ACME-1234 is on it")),
    );
    asked(
        &world,
        "toolu_c2",
        "Which database should we use?",
        Some(("MySQL", "")),
    );
    // Off by default: nothing printed.
    assert_eq!(
        asked(&world, "toolu_c3", "Which database, please?", None),
        ""
    );
    write(
        &world,
        "context_from_history = true\nredact = [\"ACME-[0-9]{4}\"]\n",
    );
    let out = asked(
        &world,
        "toolu_c4",
        "Which database should we use, please?",
        None,
    );
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    let h = &v["hookSpecificOutput"];
    assert_eq!(h["hookEventName"], "PreToolUse");
    assert!(
        h.get("permissionDecision").is_none(),
        "an abstain with context: {h}"
    );
    let text = h["additionalContext"].as_str().unwrap();
    assert!(
        text.contains("\"MySQL\"") && text.contains("note:"),
        "{text}"
    );
    assert!(!text.contains("ACME-1234"), "redacted: {text}");
    assert!(text.chars().count() <= 2_000);
    // The question is still recorded, pending, for the user to answer.
    let rows = world.log();
    let last = rows
        .iter()
        .find(|r| r["tool_use_id"] == "toolu_c4")
        .unwrap();
    assert_eq!(last["outcome"], "pending");
    // The stored note went through the custom redaction too... when it was stored after the
    // config existed: ask once more and check that one.
    asked(
        &world,
        "toolu_c5",
        "Which database should we use?",
        Some(("MySQL", "ACME-9999")),
    );
    let rows = world.log();
    let r = rows
        .iter()
        .find(|r| r["tool_use_id"] == "toolu_c5")
        .unwrap();
    assert_eq!(r["notes"], "[redacted:custom]");
}

#[test]
fn the_record_filter_keeps_calls_out_of_the_log_but_they_are_still_decided() {
    let world = World::new();
    world.prefer("secret-q", "never-ask", None);
    let cwd = world.project.to_string_lossy().into_owned();
    write(
        &world,
        &format!(
            "[record_filter]\ncwd = ['^{}/private']\nquestion = ['salary']\n",
            regex_quote(&cwd)
        ),
    );
    asked(
        &world,
        "toolu_r1",
        "Raise the salary cap?",
        Some(("MySQL", "")),
    );
    let marked = asked(
        &world,
        "toolu_r2",
        "Which database? <askhook-qid:secret-q> salary",
        None,
    );
    assert!(marked.contains("\"deny\""), "still decided: {marked}");
    asked(&world, "toolu_r3", "Which database should we use?", None);
    let ids: Vec<Value> = world
        .log()
        .iter()
        .map(|r| r["tool_use_id"].clone())
        .collect();
    assert_eq!(ids, vec![Value::from("toolu_r3")]);
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
}

fn regex_quote(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let special = "\\.+*?()|[]{}^$#&-~".contains(c);
            special
                .then_some('\\')
                .into_iter()
                .chain(std::iter::once(c))
        })
        .collect()
}
