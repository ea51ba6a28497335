//! Trust: only a person can silence a question (the `/dev/tty` gate under an agent marker),
//! every preference change is kept, secrets are scrubbed, untrusted text cannot drive the
//! terminal, and hostile hook input always abstains cleanly.
//!
//! Terminals: every command here runs either in a new session with no controlling terminal
//! (`Run::without_tty`, exactly the situation of a command an agent runs) or with a fresh
//! pseudo-terminal as its controlling terminal (`Run::with_tty`, a person at a terminal), so
//! the results do not depend on whether `cargo test` itself was started from a terminal.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::harness::{fixture, stderr, stdout, World};

/// Whether the test process itself runs under an agent (its environment or an ancestor's
/// carries a marker): then every child inherits that ancestry and silencing is refused even
/// with a scrubbed environment, which is the behaviour under test elsewhere.
fn outer_agent() -> bool {
    askhook::trust::marker_for_this_process().is_some()
}

/// Record one question through the hook and return its id.
fn ask(world: &World, question: &str, options: &[&str]) -> String {
    let mut payload: Value =
        serde_json::from_slice(&fixture("captured/basic--01-PreToolUse.json")).unwrap();
    let opts: Vec<Value> = options
        .iter()
        .map(|l| json!({"label": l, "description": "d"}))
        .collect();
    payload["tool_input"]["questions"] =
        json!([{"question": question, "header": "H", "options": opts, "multiSelect": false}]);
    let payload_id = format!("toolu_trust_{}", question.len());
    payload["tool_use_id"] = json!(payload_id);
    let out = world.hook_json(payload);
    assert!(out.status.success());
    let log = world.log();
    log.iter()
        .find(|r| r["tool_use_id"] == payload_id)
        .unwrap_or_else(|| panic!("{question:?} not recorded: {log:?}"))["question_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// (preferences, preference events) in the database, read directly.
fn counts(world: &World) -> (i64, i64) {
    if !world.db().exists() {
        return (0, 0);
    }
    let conn = rusqlite::Connection::open(world.db()).unwrap();
    let n = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    (
        n("SELECT count(*) FROM preferences"),
        n("SELECT count(*) FROM preference_events"),
    )
}

fn history(world: &World, id: Option<&str>) -> Vec<Value> {
    let mut args = vec!["pref", "history", "--json"];
    args.extend(id);
    let out = world.run(&args).without_tty().success();
    serde_json::from_slice::<Value>(&out.stdout)
        .expect("pref history --json is JSON")
        .as_array()
        .unwrap()
        .clone()
}

const MARKERS: &[(&str, &str)] = &[
    ("CLAUDECODE", "1"),
    (
        "CLAUDE_CODE_SESSION_ID",
        "3f4df1a0-5706-4256-b8f7-7fd6bea635e8",
    ),
    ("CLAUDE_CODE_CHILD_SESSION", "1"),
    ("CLAUDE_CODE_ENTRYPOINT", "cli"),
];

#[test]
fn silencing_under_an_agent_marker_without_a_terminal_is_refused_and_writes_nothing() {
    let world = World::new();
    let id = ask(
        &world,
        "Which approach should we use?",
        &["X (Recommended)", "Y"],
    );
    for (marker, value) in MARKERS {
        for pref in ["never-ask", "ask-only-for-one-way"] {
            for scope in [&["--global"][..], &["--project", "."][..]] {
                let mut args = vec!["pref", "set", id.as_str(), pref];
                args.extend(scope);
                let out = world.run(&args).env(marker, value).without_tty().code(2);
                assert!(
                    stderr(&out).contains("not confirmed by a person"),
                    "{marker} {pref}: {}",
                    stderr(&out)
                );
                assert!(stdout(&out).is_empty(), "{}", stdout(&out));
                assert_eq!(
                    counts(&world),
                    (0, 0),
                    "{marker} {pref} {scope:?} wrote something"
                );
            }
        }
    }
}

#[test]
fn a_scrubbed_environment_does_not_hide_the_agent_that_started_it() {
    use std::os::unix::process::CommandExt;
    let world = World::new();
    // The shell carries the marker, as an agent's Bash tool does; the command strips it.
    let script = format!(
        "env -u CLAUDECODE '{}' pref set deploy-target never-ask --force; exit $?",
        crate::harness::bin()
    );
    let base = world.command();
    let mut sh = std::process::Command::new("/bin/sh");
    sh.env_clear()
        .envs(base.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .env("CLAUDECODE", "1")
        .current_dir(&world.project)
        .args(["-c", &script]);
    // SAFETY: setsid only, between fork and exec.
    unsafe {
        sh.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let out = sh.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not confirmed by a person"));
    assert!(stderr(&out).contains("parent process"), "{}", stderr(&out));
    assert_eq!(counts(&world), (0, 0));
}

#[test]
fn asking_more_never_needs_a_person() {
    let world = World::new();
    world
        .run(&["pref", "set", "deploy-target", "always-ask"])
        .env("CLAUDECODE", "1")
        .without_tty()
        .success();
    world
        .run(&["pref", "clear", "deploy-target"])
        .env("CLAUDECODE", "1")
        .without_tty()
        .success();
    let events = history(&world, Some("deploy-target"));
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["new_value"], "always-ask");
    assert_eq!(events[0]["confirmed_by"], "not needed");
    assert_eq!(events[1]["old_value"], "always-ask");
    assert_eq!(events[1]["new_value"], Value::Null);
    assert_eq!(events[1]["confirmed_by"], "not needed");
}

#[test]
fn clearing_a_project_always_ask_that_unmasks_a_global_never_ask_is_gated() {
    let world = World::new();
    for args in [
        &["pref", "set", "deploy-target", "never-ask", "--force"][..],
        &[
            "pref",
            "set",
            "deploy-target",
            "always-ask",
            "--project",
            ".",
        ][..],
    ] {
        let out = world.run(args).without_tty().output();
        if outer_agent() {
            return;
        }
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = world
        .run(&["pref", "clear", "deploy-target", "--project", "."])
        .env("CLAUDECODE", "1")
        .without_tty()
        .code(2);
    assert!(stderr(&out).contains("not confirmed by a person"));
    assert_eq!(
        counts(&world),
        (2, 2),
        "the project always-ask must survive"
    );
    // Clearing the global one only makes askhook ask more: no confirmation.
    world
        .run(&["pref", "clear", "deploy-target", "--global"])
        .env("CLAUDECODE", "1")
        .without_tty()
        .success();
    assert_eq!(counts(&world), (1, 3));
}

#[test]
fn without_an_agent_marker_a_setup_script_can_silence() {
    let world = World::new();
    let out = world
        .run(&[
            "pref",
            "set",
            "deploy-target",
            "never-ask",
            "--force",
            "--json",
        ])
        .without_tty()
        .output();
    if outer_agent() {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_eq!(counts(&world), (0, 0));
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    let change: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(change["new_value"], "never-ask");
    assert_eq!(change["confirmed_by"], "no agent marker");
    assert_eq!(counts(&world), (1, 1));
    assert_eq!(history(&world, None)[0]["confirmed_by"], "no agent marker");
}

#[test]
fn a_person_confirms_on_the_terminal_after_reading_id_text_and_door() {
    let world = World::new();
    let question = "Enable the \u{1b}]0;pwned\u{7}\u{1b}[2Jstaging cache now?";
    let id = ask(&world, question, &["Yes (Recommended)", "No"]);
    // A person types n: refused, nothing written, and the prompt was shown.
    let (out, shown) = world
        .run(&["pref", "set", &id, "never-ask"])
        .env("CLAUDECODE", "1")
        .with_tty("n\n");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("not confirmed by a person"));
    assert_eq!(counts(&world), (0, 0));
    for needle in [
        id.as_str(),
        "Enable the",
        "staging cache now?",
        "two-way",
        "never-ask",
    ] {
        assert!(shown.contains(needle), "{needle:?} not shown: {shown:?}");
    }
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{7}'),
        "escapes reached the terminal: {shown:?}"
    );

    // A person types y: written, and the history says how.
    let (out, _) = world
        .run(&["pref", "set", &id, "never-ask", "--project", "."])
        .env("CLAUDE_CODE_SESSION_ID", "abc")
        .with_tty("y\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let events = history(&world, Some(&id));
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["confirmed_by"], "tty");
    assert_eq!(events[0]["scope"], "project");
    assert_eq!(
        events[0]["project"],
        world.project.to_string_lossy().as_ref()
    );
    assert_eq!(events[0]["old_value"], Value::Null);
    assert_eq!(events[0]["new_value"], "never-ask");
    assert!(events[0]["at"].as_str().unwrap().contains('T'));
}

#[test]
fn history_keeps_every_change_and_filters_by_id() {
    let world = World::new();
    let steps: &[&[&str]] = &[
        &["pref", "set", "run-tests", "always-ask"],
        &["pref", "set", "run-tests", "always-ask", "--project", "."],
        &["pref", "clear", "run-tests"],
        &["pref", "set", "other-question", "always-ask"],
        // No change, no event.
        &["pref", "set", "other-question", "always-ask"],
    ];
    for args in steps {
        world.run(args).without_tty().success();
    }
    let all = history(&world, None);
    assert_eq!(all.len(), 4, "{all:?}");
    let mine = history(&world, Some("run-tests"));
    let summary: Vec<(String, Value, Value)> = mine
        .iter()
        .map(|e| {
            (
                e["scope"].as_str().unwrap().to_owned(),
                e["old_value"].clone(),
                e["new_value"].clone(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("global".into(), Value::Null, json!("always-ask")),
            ("project".into(), Value::Null, json!("always-ask")),
            ("global".into(), json!("always-ask"), Value::Null),
        ]
    );
    let text = stdout(
        &world
            .run(&["pref", "history", "run-tests"])
            .without_tty()
            .success(),
    );
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(!text.contains("other-question"));
}

#[test]
fn never_ask_on_an_unknown_door_is_allowed_with_a_warning_and_listed_inert() {
    let world = World::new();
    let long = format!(
        "Which one? {}",
        "please read all of this first. ".repeat(2_500)
    );
    let id = ask(&world, &long, &["X (Recommended)", "Y"]);
    let row = world
        .log()
        .into_iter()
        .find(|r| r["question_id"] == id.as_str())
        .unwrap();
    assert_eq!(row["door_type"], "unknown");
    assert_eq!(row["door_rule"], "too-long-to-classify");
    let out = world
        .run(&["pref", "set", id.as_str(), "never-ask"])
        .without_tty()
        .output();
    if outer_agent() {
        return;
    }
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cannot fire while its door is unknown"),
        "{}",
        stderr(&out)
    );
    let out = world
        .run(&["pref", "list", "--json"])
        .without_tty()
        .success();
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let listed = rows
        .iter()
        .find(|r| r["question_id"] == id.as_str())
        .unwrap();
    assert_eq!(listed["door_type"], "unknown");
    assert_eq!(listed["inert"], true);
    let text = stdout(&world.run(&["pref", "list"]).without_tty().success());
    let line = text.lines().find(|l| l.contains(&id)).unwrap();
    assert!(line.contains("[inert: unknown door"), "{line}");
}

#[test]
fn list_shows_scope_and_flags_a_never_ask_on_a_one_way_door_as_inert() {
    let world = World::new();
    let two_way = ask(
        &world,
        "Which approach should we use?",
        &["X (Recommended)", "Y"],
    );
    let one_way = ask(
        &world,
        "Force-push the rebased branch?",
        &["Force-push (Recommended)", "Stop"],
    );
    for args in [
        vec!["pref", "set", two_way.as_str(), "never-ask"],
        vec![
            "pref",
            "set",
            one_way.as_str(),
            "never-ask",
            "--project",
            ".",
        ],
    ] {
        let out = world.run(&args).without_tty().output();
        if outer_agent() {
            return;
        }
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let out = world
        .run(&["pref", "list", "--json"])
        .without_tty()
        .success();
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let row = |id: &str| {
        rows.iter()
            .find(|r| r["question_id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(row(&two_way)["scope"], "global");
    assert_eq!(row(&two_way)["inert"], false);
    assert_eq!(row(&one_way)["scope"], "project");
    assert_eq!(row(&one_way)["door_type"], "one-way");
    assert_eq!(row(&one_way)["inert"], true);
    let text = stdout(&world.run(&["pref", "list"]).without_tty().success());
    let line = text.lines().find(|l| l.contains(&one_way)).unwrap();
    assert!(line.contains("inert") && line.contains("project"), "{line}");
}

#[test]
fn the_hook_never_writes_preferences() {
    let world = World::new().env("CLAUDECODE", "1");
    for name in std::fs::read_dir(crate::harness::fixtures().join("captured")).unwrap() {
        let path = name.unwrap().path();
        world.hook_json(serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap());
    }
    assert!(!world.log().is_empty(), "the fixtures recorded nothing");
    assert_eq!(counts(&world), (0, 0));
}

#[test]
fn recorded_question_text_cannot_drive_the_terminal_in_pref_list() {
    let world = World::new();
    let id = ask(
        &world,
        "Pick \u{1b}[31mred\u{1b}[0m\u{9b}2J or \u{7}blue?",
        &["Red (Recommended)", "Blue"],
    );
    world
        .run(&["pref", "set", &id, "always-ask"])
        .without_tty()
        .success();
    let text = stdout(&world.run(&["pref", "list"]).without_tty().success());
    assert!(text.contains("red") && text.contains("blue?"), "{text}");
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
}

#[test]
fn secrets_never_land_in_the_log() {
    let world = World::new();
    let secret = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    let question = format!("Use the token {secret} to push?");
    ask(
        &world,
        &question,
        &["Yes, with password=hunter2 (Recommended)", "No"],
    );
    let log = world.log();
    let text = serde_json::to_string(&log).unwrap();
    assert!(
        !text.contains(secret) && !text.contains("hunter2"),
        "{text}"
    );
    assert!(text.contains("[redacted:github-token]") && text.contains("[redacted:password]"));
    assert!(text.contains("to push?"), "the rest of the text was kept");
}

// ---- hostile input ----

/// Check one hook run's stdout: empty, or exactly one JSON object line with the payload's
/// event, never `defer`, never `allow`.
/// Every string anywhere in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn check_output(stdout: &[u8], event: Option<&str>) -> Result<(), String> {
    if stdout.is_empty() {
        return Ok(());
    }
    let text = std::str::from_utf8(stdout).map_err(|e| format!("not UTF-8: {e}"))?;
    let line = text.strip_suffix('\n').unwrap_or(text);
    if line.contains('\n') {
        return Err(format!("more than one line: {text:?}"));
    }
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {text:?}"))?;
    let out = v
        .get("hookSpecificOutput")
        .ok_or_else(|| format!("no hookSpecificOutput: {text}"))?;
    let name = out["hookEventName"].as_str();
    if name.is_none() || (event.is_some() && name != event) {
        return Err(format!(
            "hookEventName {name:?} for a {event:?} payload: {text}"
        ));
    }
    if let Some(decision) = out.get("permissionDecision") {
        if decision != "deny" {
            return Err(format!("decision {decision}: {text}"));
        }
    }
    let mut all = Vec::new();
    strings(&v, &mut all);
    if all.iter().any(|s| s == "defer" || s == "allow") {
        return Err(format!("defer/allow printed: {text}"));
    }
    Ok(())
}

fn event_of(bytes: &[u8]) -> Option<String> {
    serde_json::from_slice::<Value>(bytes)
        .ok()?
        .get("hook_event_name")?
        .as_str()
        .map(str::to_owned)
}

fn captured() -> Vec<Value> {
    let mut names: Vec<_> = std::fs::read_dir(crate::harness::fixtures().join("captured"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
        .collect()
}

/// A structure-aware mutation of a fixture: replace the value at one path (chosen by `pick`)
/// with one of a set of hostile values.
fn mutate(value: &mut Value, pick: &mut impl FnMut(usize) -> usize) {
    let hostile = [
        Value::Null,
        json!(0),
        json!(-1),
        json!(1e308),
        json!(true),
        json!(""),
        json!("\u{0}\u{1b}[2J"),
        json!([]),
        json!({}),
        json!([null, 1, "x"]),
        json!("x".repeat(5000)),
        json!({"question": 1, "options": "nope"}),
        json!([{"label": null}]),
        json!("PreToolUse"),
        json!("AskUserQuestion"),
        json!("mcp__x__AskUserQuestion"),
    ];
    let mut at = value;
    loop {
        let children = match at {
            Value::Object(o) => o.len(),
            Value::Array(a) => a.len(),
            _ => 0,
        };
        // Stop here with probability 1/3, or at a leaf.
        if children == 0 || pick(3) == 0 {
            break;
        }
        let k = pick(children);
        at = match at {
            Value::Object(o) => o.values_mut().nth(k).unwrap(),
            Value::Array(a) => &mut a[k],
            _ => unreachable!(),
        };
    }
    *at = hostile[pick(hostile.len())].clone();
}

fn in_process(world: &World, input: &[u8]) -> Result<(), String> {
    let paths =
        askhook::sys::paths::Paths::resolve(
            &askhook::cli::PathFlags::default(),
            &|name| match name {
                "ASKHOOK_HOME" => Some(world.askhook_home.clone().into_os_string()),
                "HOME" => Some(world.home.clone().into_os_string()),
                _ => None,
            },
        );
    let ctx = askhook::hook::HookContext {
        paths,
        budget: askhook::sys::paths::Budget::default(),
        config: Ok(askhook::config::Config::default()),
        now_ms: 1_700_000_000_000,
        started: Instant::now(),
    };
    let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        askhook::hook::handle(input, &ctx)
    }))
    .map_err(|_| format!("handle panicked on {:?}", String::from_utf8_lossy(input)))?;
    let bytes = askhook::hook::render::render(&handled.output);
    check_output(&bytes, event_of(input).as_deref())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn hook_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let world = World::new();
        prop_assert_eq!(in_process(&world, &bytes), Ok(()));
    }

    #[test]
    fn hook_survives_mutated_fixtures(n in 0usize..1000, seeds in proptest::collection::vec(any::<u32>(), 1..24), edits in 0usize..4) {
        let fixtures = captured();
        let mut value = fixtures[n % fixtures.len()].clone();
        let mut seeds = seeds.into_iter().cycle();
        let mut pick = |m: usize| seeds.next().unwrap() as usize % m.max(1);
        for _ in 0..edits {
            mutate(&mut value, &mut pick);
        }
        let bytes = serde_json::to_vec(&value).unwrap();
        prop_assert_eq!(in_process(silenced_world(), &bytes), Ok(()));
    }
}

/// One world shared by the mutation cases, where every fixture question is set to
/// `never-ask`, so mutations also reach the auto-decide (deny) path.
fn silenced_world() -> &'static World {
    static WORLD: std::sync::OnceLock<World> = std::sync::OnceLock::new();
    WORLD.get_or_init(|| {
        let world = World::new();
        for payload in captured() {
            world.hook_json(payload);
        }
        let mut ids: Vec<String> = world
            .log()
            .iter()
            .map(|r| r["question_id"].as_str().unwrap().to_owned())
            .collect();
        ids.sort();
        ids.dedup();
        for id in ids {
            // Refused (and so skipped) when the test runner itself runs under an agent.
            let _ = world
                .run(&["pref", "set", &id, "never-ask"])
                .without_tty()
                .output();
        }
        world
    })
}

#[test]
fn unmutated_fixtures_reach_the_deny_path_in_the_silenced_world() {
    let world = silenced_world();
    if outer_agent() {
        return;
    }
    let denied = captured()
        .iter()
        .filter(|p| {
            let paths =
                askhook::sys::paths::Paths::resolve(&askhook::cli::PathFlags::default(), &|name| {
                    (name == "ASKHOOK_HOME").then(|| world.askhook_home.clone().into_os_string())
                });
            let ctx = askhook::hook::HookContext {
                paths,
                budget: askhook::sys::paths::Budget::default(),
                config: Ok(askhook::config::Config::default()),
                now_ms: 1_700_000_000_000,
                started: Instant::now(),
            };
            let handled = askhook::hook::handle(&serde_json::to_vec(p).unwrap(), &ctx);
            matches!(handled.output, askhook::hook::Output::Deny { .. })
        })
        .count();
    assert!(
        denied > 0,
        "no fixture is auto-decided, so the deny path goes unfuzzed"
    );
}

/// A sample of the same mutations through the real binary: exit 0 and a valid output.
#[test]
fn the_binary_survives_a_sample_of_mutated_fixtures() {
    let fixtures = captured();
    let mut state = 0x9E37_79B9_u64;
    let mut pick = |m: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % m.max(1) as u64) as usize
    };
    let world = World::new();
    for round in 0..24 {
        let mut value = fixtures[round % fixtures.len()].clone();
        mutate(&mut value, &mut pick);
        let bytes = serde_json::to_vec(&value).unwrap();
        let out = world.hook(&bytes);
        assert_eq!(
            out.status.code(),
            Some(0),
            "round {round}: {}",
            stderr(&out)
        );
        if let Err(e) = check_output(&out.stdout, event_of(&bytes).as_deref()) {
            panic!("round {round}: {e}");
        }
    }
}

/// A PreToolUse payload for our tool with `questions` in place.
fn with_questions(questions: Value) -> Vec<u8> {
    let mut payload: Value =
        serde_json::from_slice(&fixture("captured/basic--01-PreToolUse.json")).unwrap();
    payload["tool_input"]["questions"] = questions;
    serde_json::to_vec(&payload).unwrap()
}

#[test]
fn hostile_payloads_abstain_within_the_deadline_with_one_error_line() {
    let deep = {
        let mut v = vec![b'['; 100_000];
        v.extend(vec![b']'; 100_000]);
        v
    };
    let many_questions = with_questions(Value::Array(
        (0..10_000)
            .map(|i| json!({"question": format!("Q{i}?"), "header": "H", "options": [{"label": "A", "description": ""}, {"label": "B", "description": ""}], "multiSelect": false}))
            .collect(),
    ));
    let many_options = with_questions(json!([{
        "question": "Which?", "header": "H", "multiSelect": false,
        "options": (0..10_000).map(|i| json!({"label": format!("O{i}"), "description": ""})).collect::<Vec<_>>(),
    }]));
    let huge_string = {
        let mut p = with_questions(
            json!([{"question": "Q?", "header": "H", "multiSelect": false,
            "options": [{"label": "A", "description": ""}, {"label": "B", "description": ""}]}]),
        );
        // 10 MiB inside the question text (beyond the input cap).
        let at = p.windows(4).position(|w| w == b"Q?\",").unwrap();
        p.splice(at..=at, std::iter::repeat_n(b'x', 10 << 20));
        p
    };
    let invalid_utf8 = {
        let mut p = with_questions(
            json!([{"question": "QQQ", "header": "H", "multiSelect": false, "options": []}]),
        );
        let at = p.windows(3).position(|w| w == b"QQQ").unwrap();
        p[at] = 0xff;
        p[at + 1] = 0xfe;
        p
    };
    let nul = {
        let mut p = fixture("captured/basic--01-PreToolUse.json");
        p.insert(10, 0);
        p
    };
    let numbers = with_questions(
        json!([{"question": 42, "header": 7, "multiSelect": "no", "options": [{"label": 1, "description": 2}]}]),
    );
    let cases: &[(&str, &[u8])] = &[
        ("deep nesting", &deep),
        ("10 MiB string", &huge_string),
        ("10,000 questions", &many_questions),
        ("10,000 options", &many_options),
        ("invalid UTF-8", &invalid_utf8),
        ("NUL byte", &nul),
        ("numbers for strings", &numbers),
    ];
    let mut failures = Vec::new();
    for (name, payload) in cases {
        let world = World::new();
        let started = Instant::now();
        let out = world.hook(payload);
        let took = started.elapsed();
        let lines = world.error_lines();
        let mut problems = Vec::new();
        if out.status.code() != Some(0) {
            problems.push(format!("exit {:?}", out.status.code()));
        }
        if !out.stdout.is_empty() {
            problems.push(format!("stdout {:?}", String::from_utf8_lossy(&out.stdout)));
        }
        if took > Duration::from_secs(4) {
            problems.push(format!("took {took:?}"));
        }
        if lines.len() != 1 {
            problems.push(format!("{} error-log lines: {lines:?}", lines.len()));
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}", problems.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "hostile payloads:\n{}",
        failures.join("\n")
    );
}

/// Large but within the input cap: exit 0, empty stdout, inside Claude Code's 5 s timeout,
/// and when recorded (the deadline may cut a debug build short on a loaded machine) the
/// stored text is scrubbed. This is the scrubber's worst realistic input.
#[test]
fn a_large_question_inside_the_cap_abstains_in_time_and_is_scrubbed() {
    let world = World::new();
    let text = format!(
        "{}?",
        "sk-ant-a1 password=x Bearer 1234567890abcdefgh ".repeat(20_000)
    );
    let payload = with_questions(
        json!([{"question": text, "header": "H", "multiSelect": false,
        "options": [{"label": "A (Recommended)", "description": ""}, {"label": "B", "description": ""}]}]),
    );
    assert!(payload.len() > 900 << 10 && payload.len() < 4 << 20);
    let started = Instant::now();
    let out = world.hook(&payload);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    match world.log().first() {
        Some(row) => {
            let stored = row["question"].as_str().unwrap();
            assert!(
                !stored.contains("Bearer 1234567890abcdefgh"),
                "not scrubbed"
            );
            assert!(stored.contains("[redacted:bearer-token]"));
            assert_eq!(row["door_type"], "unknown", "too long to classify");
            assert_eq!(row["door_rule"], "too-long-to-classify");
        }
        None => assert!(
            world.error_lines().iter().any(|l| l.contains("deadline")),
            "neither recorded nor a deadline: {:?}",
            world.error_lines()
        ),
    }
}
