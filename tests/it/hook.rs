//! `askhook hook` through the real binary: payload on stdin, stdout bytes, exit code, and the
//! rows read back with `askhook log --json`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::harness::{fixture, fixtures, stderr, stdout, World};

/// Every `.json` fixture (captured and hand-written), sorted.
fn all_fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![fixtures()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Parse a fixture and point its `cwd` at the world's project.
fn payload(world: &World, name: &str) -> Value {
    let mut v: Value = serde_json::from_slice(&fixture(name)).unwrap();
    if v.get("cwd").is_some() {
        v["cwd"] = json!(world.project.to_string_lossy());
    }
    v
}

fn send(world: &World, v: &Value) -> std::process::Output {
    world.hook(&serde_json::to_vec(v).unwrap())
}

/// Assert the hook abstained: exit 0, empty stdout, nothing on stderr.
#[track_caller]
fn assert_abstained(out: &std::process::Output) {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(out));
    assert!(
        out.stdout.is_empty(),
        "expected an abstain, got stdout {:?}",
        stdout(out)
    );
}

/// The one JSON object the hook printed.
#[track_caller]
fn decision(out: &std::process::Output) -> Value {
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(out);
    assert!(
        text.starts_with('{') && text.ends_with('\n') && text.matches('\n').count() == 1,
        "{text:?}"
    );
    serde_json::from_str(&text).expect("stdout is one JSON object")
}

fn rows_of(world: &World, tool_use_id: &str) -> Vec<Value> {
    world
        .log()
        .into_iter()
        .filter(|r| r["tool_use_id"] == tool_use_id)
        .collect()
}

#[test]
fn every_fixture_exits_zero_and_never_defers() {
    let fixtures = all_fixtures();
    assert!(fixtures.len() > 60, "fixtures found: {}", fixtures.len());
    for path in fixtures {
        let world = World::new();
        let bytes = std::fs::read(&path).unwrap();
        let out = world.hook(&bytes);
        let name = path.display();
        assert_eq!(out.status.code(), Some(0), "{name}: exit code");
        assert!(out.stderr.is_empty(), "{name}: stderr {:?}", stderr(&out));
        let text = stdout(&out);
        assert!(!text.contains("defer"), "{name}: printed defer");
        assert!(!text.contains("\"allow\""), "{name}: printed allow");
        if text.is_empty() {
            continue;
        }
        let v = decision(&out);
        let input: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            v["hookSpecificOutput"]["hookEventName"], input["hook_event_name"],
            "{name}: event echo"
        );
        if let Some(d) = v["hookSpecificOutput"].get("permissionDecision") {
            assert_eq!(d, "deny", "{name}");
            assert!(
                v["hookSpecificOutput"]["permissionDecisionReason"]
                    .as_str()
                    .unwrap()
                    .len()
                    < 10_000
            );
        }
    }
}

#[test]
fn captured_basic_session_records_then_settles_both_questions() {
    let world = World::new();
    assert_abstained(&send(
        &world,
        &payload(&world, "captured/basic--01-PreToolUse.json"),
    ));
    let rows = world.log();
    assert_eq!(rows.len(), 2);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["outcome"], "pending");
        assert_eq!(row["question_index"], i);
        assert_eq!(row["tool_use_id"], "toolu_fake_basic_0001");
        assert_eq!(row["tool_name"], "AskUserQuestion");
        assert_eq!(row["permission_mode"], "auto");
        assert_eq!(row["project"], json!(world.project.to_string_lossy()));
        assert!(row["question_id"].as_str().unwrap().starts_with("hook-"));
        assert!(row["settled_at"].is_null());
    }
    assert_eq!(rows[0]["recommended"], "X (Recommended)");
    assert_eq!(rows[1]["multi_select"], true);
    assert_eq!(rows[1]["options"][2]["label"], "Gamma");

    assert_abstained(&send(
        &world,
        &payload(&world, "captured/basic--02-PostToolUse.json"),
    ));
    let rows = world.log();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["outcome"], "answered");
    assert_eq!(rows[0]["answer"], "X (Recommended)");
    assert_eq!(rows[0]["followed_recommendation"], true);
    assert_eq!(rows[0]["free_text"], Value::Null);
    assert_eq!(rows[1]["answer"], "Alpha, Gamma");
    assert_eq!(rows[1]["selections"], json!(["Alpha", "Gamma"]));
    assert_eq!(
        rows[1]["followed_recommendation"],
        Value::Null,
        "no recommendation offered"
    );
    assert!(rows[1]["settled_at"].is_string());
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
}

#[test]
fn captured_free_text_is_recorded() {
    let world = World::new();
    send(
        &world,
        &payload(&world, "captured/freetext--01-PreToolUse.json"),
    );
    send(
        &world,
        &payload(&world, "captured/freetext--02-PostToolUse.json"),
    );
    let rows = world.log();
    assert_eq!(rows[0]["free_text"], "my own free text answer");
    assert_eq!(rows[0]["followed_recommendation"], false);
    assert_eq!(
        rows[1]["selections"],
        json!(["Beta", "extra feature delta"])
    );
    assert_eq!(rows[1]["free_text"], "extra feature delta");
}

#[test]
fn captured_mcp_answer_inside_content_blocks_is_read() {
    let world = World::new();
    send(
        &world,
        &payload(&world, "captured/mcp-ok--01-PreToolUse.json"),
    );
    assert_abstained(&send(
        &world,
        &payload(&world, "captured/mcp-ok--02-PostToolUse.json"),
    ));
    let rows = world.log();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["question_id"], "mcp-q", "marker id");
    assert_eq!(rows[0]["question"], "Deploy now?", "marker stripped");
    assert_eq!(rows[0]["tool_name"], "mcp__askmcp__AskUserQuestion");
    assert_eq!(rows[0]["outcome"], "answered");
    assert_eq!(rows[0]["answer"], "Yes");
}

#[test]
fn never_ask_two_way_question_is_auto_decided_with_a_deny_naming_the_option() {
    let world = World::new();
    world.prefer("enable-cache", "never-ask", None);
    let out = send(&world, &payload(&world, "hook/pre-marker.json"));
    let v = decision(&out);
    let hso = &v["hookSpecificOutput"];
    assert_eq!(hso["hookEventName"], "PreToolUse");
    assert_eq!(hso["permissionDecision"], "deny");
    let reason = hso["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.contains("[enable-cache]") && reason.contains("\"Yes (Recommended)\""),
        "{reason}"
    );
    assert!(reason.contains("without asking"), "{reason}");
    let rows = world.log();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["outcome"], "auto-decided");
    assert_eq!(rows[0]["answer"], "Yes (Recommended)");
    assert!(rows[0]["settled_at"].is_string());

    // Redelivery decides the same way and does not duplicate the row.
    assert_eq!(
        decision(&send(&world, &payload(&world, "hook/pre-marker.json"))),
        v
    );
    assert_eq!(world.log().len(), 1);
}

#[test]
fn questions_that_must_reach_the_human_abstain() {
    struct Case {
        name: &'static str,
        fixture: &'static str,
        id: &'static str,
        preference: &'static str,
    }
    let cases = [
        Case {
            name: "always-ask",
            fixture: "hook/pre-marker.json",
            id: "enable-cache",
            preference: "always-ask",
        },
        Case {
            name: "no preference",
            fixture: "hook/pre-marker.json",
            id: "unrelated-id",
            preference: "never-ask",
        },
        Case {
            name: "no recommendation",
            fixture: "hook/pre-no-recommendation.json",
            id: "indent-style",
            preference: "never-ask",
        },
    ];
    for case in cases {
        let world = World::new();
        world.prefer(case.id, case.preference, None);
        let out = send(&world, &payload(&world, case.fixture));
        assert!(out.stdout.is_empty(), "{}: {}", case.name, stdout(&out));
        assert_eq!(world.log()[0]["outcome"], "pending", "{}", case.name);
    }
}

#[test]
fn one_way_door_is_never_auto_decided_even_with_never_ask() {
    let world = World::new();
    let first = payload(&world, "hook/pre-one-way.json");
    assert_abstained(&send(&world, &first));
    let row = &world.log()[0];
    assert_eq!(row["door_type"], "one-way");
    let id = row["question_id"].as_str().unwrap().to_owned();
    for preference in ["never-ask", "ask-only-for-one-way"] {
        world.prefer(&id, preference, None);
        let mut again = first.clone();
        again["tool_use_id"] = json!(format!("toolu_again_{preference}"));
        assert_abstained(&send(&world, &again));
    }
    assert!(world.log().iter().all(|r| r["outcome"] != "auto-decided"));
}

#[test]
fn a_call_is_auto_decided_only_when_every_question_is_eligible() {
    let world = World::new();
    let mut v = payload(&world, "hook/pre-marker.json");
    let second = json!({"question": "Which log level? <askhook-qid:log-level>", "header": "Logs",
        "options": [{"label": "info (Recommended)", "description": ""}, {"label": "debug", "description": ""}],
        "multiSelect": false});
    v["tool_input"]["questions"]
        .as_array_mut()
        .unwrap()
        .push(second);
    world.prefer("enable-cache", "never-ask", None);
    assert_abstained(&send(&world, &v));
    assert_eq!(
        world
            .log()
            .iter()
            .filter(|r| r["outcome"] == "pending")
            .count(),
        2
    );

    world.prefer("log-level", "ask-only-for-one-way", None);
    v["tool_use_id"] = json!("toolu_both_eligible");
    let reason =
        decision(&send(&world, &v))["hookSpecificOutput"]["permissionDecisionReason"].clone();
    let reason = reason.as_str().unwrap();
    assert!(
        reason.contains("[enable-cache]")
            && reason.contains("[log-level]")
            && reason.contains("info (Recommended)")
    );
    assert_eq!(
        rows_of(&world, "toolu_both_eligible")
            .iter()
            .filter(|r| r["outcome"] == "auto-decided")
            .count(),
        2
    );
}

#[test]
fn project_preference_wins_over_global() {
    // `pref set --project` from a subfolder keys the preference on the project root, as the
    // hook derives it from the payload's cwd (always-ask needs no confirmation).
    let world = World::new();
    world.prefer("enable-cache", "never-ask", None);
    let sub = world.project.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    world
        .run(&["pref", "set", "enable-cache", "always-ask", "--project"])
        .current_dir(&sub)
        .success();
    assert_abstained(&send(&world, &payload(&world, "hook/pre-marker.json")));

    let other = World::new();
    other
        .run(&["pref", "set", "enable-cache", "always-ask"])
        .success();
    other.prefer("enable-cache", "never-ask", Some(&other.project));
    let out = send(&other, &payload(&other, "hook/pre-marker.json"));
    assert_eq!(
        decision(&out)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
}

#[test]
fn silencing_a_registry_one_way_id_is_refused() {
    let world = World::new();
    let out = world
        .run(&["pref", "set", "force-push-branch", "never-ask"])
        .code(1);
    assert!(stderr(&out).contains("one-way"), "{}", stderr(&out));
    world.prefer("force-push-branch", "always-ask", None);
}

#[test]
fn post_without_pre_inserts_settled_rows() {
    let world = World::new();
    assert_abstained(&send(
        &world,
        &payload(&world, "hook/post-single-answered.json"),
    ));
    let rows = world.log();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["outcome"], "answered");
    assert_eq!(rows[0]["answer"], "SQLite");
    assert_eq!(rows[0]["followed_recommendation"], false);
}

#[test]
fn redelivery_never_duplicates_or_corrupts() {
    let world = World::new();
    let pre = payload(&world, "hook/pre-multi-question.json");
    let post = payload(&world, "hook/post-multi-question.json");
    for v in [&pre, &pre, &post, &post, &pre] {
        assert_abstained(&send(&world, v));
    }
    let rows = world.log();
    assert_eq!(rows.len(), 2, "one row per question");
    assert!(rows.iter().all(|r| r["outcome"] == "answered"));
    assert_eq!(
        rows[1]["selections"],
        json!(["Auth", "Metrics, dashboards", "only in staging"])
    );
    assert_eq!(rows[1]["free_text"], "only in staging");
}

#[test]
fn answer_shapes() {
    struct Case {
        name: &'static str,
        fixture: &'static str,
        check: fn(&Value),
    }
    let cases = [
        Case {
            name: "notes",
            fixture: "hook/post-notes.json",
            check: |r| {
                assert_eq!(r["notes"], "use the managed instance");
                assert_eq!(r["free_text"], "use the managed instance");
                assert_eq!(r["followed_recommendation"], true);
            },
        },
        Case {
            name: "afk",
            fixture: "hook/post-afk.json",
            check: |r| {
                assert_eq!(r["afk"], true);
                assert_eq!(r["followed_recommendation"], Value::Null);
            },
        },
        Case {
            name: "dismissed with a typed reply",
            fixture: "hook/post-response.json",
            check: |r| {
                assert_eq!(r["answer"], Value::Null);
                assert_eq!(
                    r["free_text"],
                    "Neither; let's discuss the data model first."
                );
            },
        },
        Case {
            name: "legacy answers array",
            fixture: "hook/post-legacy-answers-array.json",
            check: |r| assert_eq!(r["answer"], "SQLite"),
        },
        Case {
            name: "legacy user_answer",
            fixture: "hook/post-legacy-user-answer.json",
            check: |r| assert_eq!(r["answer"], "SQLite"),
        },
        Case {
            // Issue #12.16: only "Other" was kept.
            name: "legacy Other with typed text",
            fixture: "hook/post-legacy-other-free-text.json",
            check: |r| {
                assert_eq!(r["answer"], "Use DuckDB for the analytics tables");
                assert_eq!(r["free_text"], "Use DuckDB for the analytics tables");
                assert_eq!(r["followed_recommendation"], false);
            },
        },
    ];
    for case in cases {
        let world = World::new();
        assert_abstained(&send(&world, &payload(&world, case.fixture)));
        let rows = world.log();
        assert_eq!(rows.len(), 1, "{}", case.name);
        assert_eq!(rows[0]["outcome"], "answered", "{}", case.name);
        (case.check)(&rows[0]);
    }
}

#[test]
fn unrecognised_response_records_a_null_answer_and_one_error_line() {
    let world = World::new();
    assert_abstained(&send(
        &world,
        &payload(&world, "hook/post-unknown-shape.json"),
    ));
    let rows = world.log();
    assert_eq!(rows[0]["outcome"], "answered");
    assert_eq!(rows[0]["answer"], Value::Null);
    assert!(!serde_json::to_string(&rows)
        .unwrap()
        .contains("__unknown__"));
    assert_eq!(world.error_lines().len(), 1, "{:?}", world.error_lines());
}

#[test]
fn error_shapes_settle_failed_and_tell_the_model_to_ask_in_prose() {
    for (fixture, event) in [
        ("hook/post-null-response.json", "PostToolUse"),
        ("hook/post-is-error.json", "PostToolUse"),
        ("hook/post-missing-sentinel.json", "PostToolUse"),
        // Issue #12.15: gstack's tests send the sentinel inside `content`.
        ("hook/post-missing-content-string.json", "PostToolUse"),
        ("hook/post-missing-content-blocks.json", "PostToolUse"),
        ("hook/failure-mcp.json", "PostToolUseFailure"),
        (
            "captured/mcp-fail--02-PostToolUseFailure.json",
            "PostToolUseFailure",
        ),
    ] {
        let world = World::new();
        let v = decision(&send(&world, &payload(&world, fixture)));
        let hso = &v["hookSpecificOutput"];
        assert_eq!(hso["hookEventName"], event, "{fixture}");
        assert!(hso.get("permissionDecision").is_none(), "{fixture}");
        assert!(
            hso["additionalContext"]
                .as_str()
                .unwrap()
                .contains("plain prose"),
            "{fixture}"
        );
        let rows = world.log();
        assert_eq!(rows[0]["outcome"], "failed", "{fixture}");
        assert!(rows[0]["error"].is_string(), "{fixture}");
    }
    let world = World::new();
    send(&world, &payload(&world, "hook/failure-mcp.json"));
    assert_eq!(
        world.log()[0]["error"],
        "MCP error -32001: Request timed out"
    );
}

#[test]
fn subagent_fields_are_recorded() {
    let world = World::new();
    assert_abstained(&send(
        &world,
        &payload(&world, "hook/pre-subagent-mcp.json"),
    ));
    let row = &world.log()[0];
    assert_eq!(row["agent_id"], "agent-7f3a");
    assert_eq!(row["tool_name"], "mcp__conductor__AskUserQuestion");
}

#[test]
fn declined_questions_settle_when_the_turn_moves_on() {
    for (end, event) in [
        ("captured/esc--02-Stop.json", "Stop"),
        ("captured/chat--02-Stop.json", "Stop"),
        ("captured/review-cancel--03-SessionEnd.json", "SessionEnd"),
    ] {
        let world = World::new();
        let prefix = end.split("--").next().unwrap();
        send(
            &world,
            &payload(&world, &format!("{prefix}--01-PreToolUse.json")),
        );
        assert_eq!(world.log()[0]["outcome"], "pending");
        assert_abstained(&send(&world, &payload(&world, end)));
        assert!(
            world.log().iter().all(|r| r["outcome"] == "declined"),
            "{event}"
        );
    }
    // UserPromptSubmit (the user typed a new prompt instead of answering).
    let world = World::new();
    let pre = payload(&world, "captured/esc--01-PreToolUse.json");
    send(&world, &pre);
    let mut prompt = payload(&world, "hook/user-prompt-submit.json");
    prompt["session_id"] = pre["session_id"].clone();
    assert_abstained(&send(&world, &prompt));
    assert!(world.log().iter().all(|r| r["outcome"] == "declined"));
    // Another session's Stop leaves the question pending.
    let other = World::new();
    send(&other, &payload(&other, "captured/esc--01-PreToolUse.json"));
    send(&other, &payload(&other, "captured/basic--03-Stop.json"));
    assert!(other.log().iter().all(|r| r["outcome"] == "pending"));
}

#[test]
fn turn_events_without_a_database_create_nothing() {
    let world = World::new();
    assert_abstained(&send(
        &world,
        &payload(&world, "captured/basic--03-Stop.json"),
    ));
    assert!(!world.db().exists());
}

#[test]
fn a_newer_question_in_the_same_session_abandons_a_pending_one() {
    let world = World::new();
    let first = payload(&world, "hook/pre-single.json");
    let mut second = payload(&world, "hook/pre-no-recommendation.json");
    second["session_id"] = first["session_id"].clone();
    second["prompt_id"] = json!("another-prompt");
    send(&world, &first);
    std::thread::sleep(Duration::from_millis(5));
    send(&world, &second);
    let rows = world.log();
    assert_eq!(rows[0]["outcome"], "abandoned");
    assert_eq!(rows[1]["outcome"], "pending");
}

#[test]
fn parallel_calls_of_one_prompt_are_all_pending() {
    // Claude Code fires the PreToolUse of every AskUserQuestion in one assistant message
    // before it shows the first picker (seen with the real CLI): both are on screen.
    let world = World::new();
    let first = payload(&world, "hook/pre-single.json");
    let mut second = payload(&world, "hook/pre-no-recommendation.json");
    second["session_id"] = first["session_id"].clone();
    second["prompt_id"] = first["prompt_id"].clone();
    send(&world, &first);
    std::thread::sleep(Duration::from_millis(5));
    send(&world, &second);
    assert!(world.log().iter().all(|r| r["outcome"] == "pending"));
}

#[test]
fn bad_input_abstains_with_one_error_line_and_records_nothing() {
    for fixture in [
        "hook/malformed.json",
        "hook/empty.json",
        "hook/not-an-object.json",
        "hook/wrong-type-session-id.json",
        "hook/wrong-type-questions.json",
    ] {
        let world = World::new();
        assert_abstained(&world.hook(&fixture_bytes(fixture)));
        assert_eq!(
            world.error_lines().len(),
            1,
            "{fixture}: {:?}",
            world.error_lines()
        );
        assert!(!world.db().exists(), "{fixture}: no database for bad input");
    }
}

fn fixture_bytes(name: &str) -> Vec<u8> {
    fixture(name)
}

#[test]
fn payloads_that_are_not_ours_touch_nothing() {
    for fixture in [
        "hook/not-ours-bash.json",
        "hook/not-ours-lookalike-tool.json",
    ] {
        let world = World::new();
        assert_abstained(&world.hook(&fixture_bytes(fixture)));
        assert!(!world.db().exists(), "{fixture}");
        assert!(world.error_lines().is_empty(), "{fixture}");
    }
}

#[test]
fn oversized_stdin_abstains_quickly() {
    let world = World::new();
    let mut v = payload(&world, "hook/pre-single.json");
    v["tool_input"]["questions"][0]["question"] = json!("x".repeat(10 * 1024 * 1024));
    let start = Instant::now();
    assert_abstained(&send(&world, &v));
    assert!(start.elapsed() < Duration::from_secs(5));
    let lines = world.error_lines();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("ASKHOOK_MAX_INPUT_BYTES"), "{}", lines[0]);
}

/// Run `cmd` (a hook) with its stdin held open, as a caller that never closes it would: the
/// deadline alone must end it. Fails (kills the child) instead of hanging if it does not.
#[track_caller]
pub(crate) fn run_with_stdin_held_open(
    mut cmd: std::process::Command,
) -> (std::process::Output, Duration) {
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _keep_open = child.stdin.take();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(5) {
            let _ = child.kill();
            panic!("the hook was still running after 5 s: its deadline did not end it");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = start.elapsed();
    (child.wait_with_output().unwrap(), took)
}

#[test]
fn a_stdin_that_never_closes_is_cut_off_by_the_deadline() {
    for (ms, within) in [
        ("300", Duration::from_secs(3)),
        ("0", Duration::from_secs(2)),
    ] {
        let world = World::new();
        let mut cmd = world.command();
        cmd.arg("hook").env("ASKHOOK_DEADLINE_MS", ms);
        let (out, took) = run_with_stdin_held_open(cmd);
        assert!(took < within, "deadline {ms} ms: took {took:?}");
        assert_abstained(&out);
        let lines = world.error_lines();
        assert!(
            lines[0].contains(&format!("deadline of {ms} ms spent")),
            "{lines:?}"
        );
    }
}

/// A caller that spawns hooks with SIGALRM blocked or ignored (the mask and ignored
/// dispositions survive exec) must not switch the deadline off.
#[test]
fn the_deadline_holds_when_the_caller_blocked_and_ignored_sigalrm() {
    use std::os::unix::process::CommandExt;
    let world = World::new();
    let mut cmd = world.command();
    cmd.arg("hook").env("ASKHOOK_DEADLINE_MS", "300");
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let mut alarm: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&raw mut alarm);
            libc::sigaddset(&raw mut alarm, libc::SIGALRM);
            libc::sigprocmask(libc::SIG_BLOCK, &raw const alarm, std::ptr::null_mut());
            libc::signal(libc::SIGALRM, libc::SIG_IGN);
            Ok(())
        });
    }
    let (out, took) = run_with_stdin_held_open(cmd);
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert_abstained(&out);
    assert!(world.error_lines()[0].contains("deadline of 300 ms spent"));
}

#[test]
fn unknown_hook_arguments_never_become_a_blocking_exit() {
    let world = World::new();
    let out = world
        .run(&["hook", "--bogus", "pre"])
        .stdin(fixture("hook/pre-single.json"))
        .output();
    assert_abstained(&out);
}

#[cfg(unix)]
#[test]
fn files_holding_answers_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let world = World::new();
    send(&world, &payload(&world, "hook/pre-single.json"));
    world.hook(b"not json");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&world.askhook_home), 0o700);
    // The hook appends the question to the spool; the next command ingests it into the log
    // and writes the hook's copy of the preferences.
    assert_eq!(mode(&world.askhook_home.join("askhook.db.spool")), 0o600);
    assert_eq!(mode(&world.error_log()), 0o600);
    assert_eq!(world.log().len(), 1);
    assert_eq!(mode(&world.db()), 0o600);
    assert_eq!(mode(&world.askhook_home.join("askhook.db.standing")), 0o600);
}

#[test]
fn secrets_never_reach_the_log() {
    let world = World::new();
    let key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
    let mut pre = payload(&world, "hook/pre-single.json");
    pre["tool_input"]["questions"][0]["options"][1]["description"] =
        json!(format!("uses ANTHROPIC_API_KEY={key}"));
    let mut post = payload(&world, "hook/post-single-answered.json");
    post["tool_use_id"] = pre["tool_use_id"].clone();
    post["tool_input"] = pre["tool_input"].clone();
    post["tool_response"]["answers"] =
        json!({"Which database should we use?": "password=hunter2hunter2 please"});
    send(&world, &pre);
    send(&world, &post);
    // Scrubbed before the spool, where the hook writes them first.
    let spooled = String::from_utf8_lossy(
        &std::fs::read(world.askhook_home.join("askhook.db.spool")).unwrap(),
    )
    .into_owned();
    assert!(spooled.contains("[redacted:"), "{spooled}");
    assert!(
        !spooled.contains(key) && !spooled.contains("hunter2hunter2"),
        "{spooled}"
    );
    let dump = serde_json::to_string(&world.log()).unwrap();
    assert!(
        !dump.contains(key) && !dump.contains("hunter2hunter2"),
        "{dump}"
    );
    assert!(dump.contains("[redacted:"), "{dump}");
    let row = &world.log()[0];
    assert!(
        row["free_text"].as_str().unwrap().ends_with(" please"),
        "the rest of the text is kept"
    );
}

#[test]
fn database_passwords_never_reach_the_log_and_keys_stay_as_sent() {
    // Issue #12.12: these forms were stored in clear.
    let world = World::new();
    let secrets = [
        "PGPASSWORD=PgSecret1",
        "MYSQL_PWD=MySecret2",
        "SMTP_PASS=MailSecret3",
        "dbpassword: DbSecret4",
        "mypassword=MineSecret5",
        "mysql -u root -pHunter2Secret",
        "psql --password Hunter3Secret",
        "password=Xk29&fjw0q",
    ];
    let mut pre = payload(&world, "hook/pre-single.json");
    pre["tool_input"]["questions"][0]["question"] = json!(secrets.join("\n"));
    send(&world, &pre);
    let row = &world.log()[0];
    let question = row["question"].as_str().unwrap();
    for secret in [
        "PgSecret1",
        "MySecret2",
        "MailSecret3",
        "DbSecret4",
        "MineSecret5",
        "Hunter2Secret",
        "Hunter3Secret",
        "fjw0q",
    ] {
        assert!(!question.contains(secret), "{secret}: {question}");
    }
    assert_eq!(
        question.matches("[redacted:password]").count(),
        secrets.len(),
        "{question}"
    );
    // Keys and paths are stored as sent (docs/trust.md says why).
    assert_eq!(row["session_id"], pre["session_id"]);
    assert_eq!(row["tool_use_id"], pre["tool_use_id"]);
    assert_eq!(row["cwd"], pre["cwd"]);
}

/// The door as the hook wrote it, before any CLI command has read the log.
fn stored_door(world: &World, tool_use_id: &str) -> (String, Option<String>) {
    (
        world
            .stored(tool_use_id, "door_type")
            .as_str()
            .unwrap()
            .to_owned(),
        world
            .stored(tool_use_id, "door_rule")
            .as_str()
            .map(str::to_owned),
    )
}

#[test]
fn the_hook_classifies_only_when_a_preference_could_decide_and_the_cli_settles_the_rest() {
    let world = World::new();
    let first = payload(&world, "hook/pre-one-way.json");
    let first_call = first["tool_use_id"].as_str().unwrap().to_owned();
    assert_abstained(&send(&world, &first));
    // No preference: the hook stored the question without working its door out.
    assert_eq!(
        stored_door(&world, &first_call),
        ("unknown".into(), Some("unclassified".into()))
    );
    // The first CLI command classifies it, for good.
    let row = &world.log()[0];
    assert_eq!(row["door_type"], "one-way");
    assert_ne!(row["door_rule"], "unclassified");
    assert_eq!(stored_door(&world, &first_call).0, "one-way");

    // With a never-ask preference the hook classifies live: a one-way door is still asked,
    // and stored classified at once.
    let id = row["question_id"].as_str().unwrap().to_owned();
    world.prefer(&id, "never-ask", None);
    let mut again = first.clone();
    again["tool_use_id"] = json!("toolu_again_classified");
    assert_abstained(&send(&world, &again));
    assert_eq!(stored_door(&world, "toolu_again_classified").0, "one-way");
}
