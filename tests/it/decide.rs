//! Auto-decisions beyond the exact id: question families and rules, through the real hook,
//! and what each records (`family`, `decided_by`).

use serde_json::{json, Value};

use crate::harness::{stdout, World};

/// A PreToolUse payload of one unmarked question.
fn ask(world: &World, call: &str, text: &str, header: &str, labels: &[&str]) -> Value {
    let options: Vec<Value> = labels
        .iter()
        .map(|l| json!({"label": l, "description": ""}))
        .collect();
    json!({
        "session_id": "s-decide",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": world.project.to_string_lossy(),
        "prompt_id": format!("p-{call}"),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion",
        "tool_input": {"questions": [
            {"question": text, "header": header, "options": options, "multiSelect": false}
        ]},
        "tool_use_id": call,
    })
}

/// The hook's decision (`None`: it abstained).
fn decide(world: &World, payload: &Value) -> Option<Value> {
    let out = world.hook_json(payload.clone());
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    (!text.is_empty()).then(|| serde_json::from_str(&text).expect("one JSON object"))
}

fn row(world: &World, call: &str) -> Value {
    world
        .log()
        .into_iter()
        .find(|r| r["tool_use_id"] == call)
        .expect("the call was recorded")
}

#[test]
fn a_family_preference_answers_a_reworded_question() {
    let world = World::new();
    let first = ask(
        &world,
        "toolu_f1",
        "Which database should we use?",
        "Database",
        &["PostgreSQL (Recommended)", "SQLite"],
    );
    assert_eq!(decide(&world, &first), None);
    let family = row(&world, "toolu_f1")["family"]
        .as_str()
        .expect("an unmarked question has a family")
        .to_owned();
    world.prefer(&format!("family:{family}"), "never-ask", None);
    let reworded = ask(
        &world,
        "toolu_f2",
        "Which database, please?",
        "DB",
        &["SQLite (Recommended)", "PostgreSQL"],
    );
    let d = decide(&world, &reworded).expect("auto-decided through the family");
    assert_eq!(d["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = d["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("\"SQLite (Recommended)\" (family preference)"),
        "{reason}"
    );
    let r = row(&world, "toolu_f2");
    assert_eq!(r["family"], json!(family));
    assert_eq!(r["outcome"], "auto-decided");
    assert_eq!(r["decided_by"], "family");
    // Another decision sharing the words is not in the family.
    let other = ask(
        &world,
        "toolu_f3",
        "Which database should the tests use?",
        "Database",
        &["PostgreSQL (Recommended)", "SQLite"],
    );
    assert_eq!(decide(&world, &other), None);
    assert_ne!(row(&world, "toolu_f3")["family"], json!(family));
}

#[test]
fn rules_decide_and_the_id_beats_them_and_always_ask_beats_never_ask() {
    let world = World::new();
    world.rule(
        "db",
        "never-ask",
        &[("question", r"\bdatabase\b"), ("option", "^postgres")],
    );
    let q = |call: &str, text: &str| {
        ask(
            &world,
            call,
            text,
            "Database",
            &["PostgreSQL (Recommended)", "SQLite"],
        )
    };
    let d = decide(&world, &q("toolu_r1", "Which DATABASE for the cache?")).expect("by the rule");
    assert!(d["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .contains("(rule db)"));
    assert_eq!(row(&world, "toolu_r1")["decided_by"], "rule:db");
    // An id preference beats the rule.
    let ask_again = q("toolu_r2", "Which database for the queue?");
    let id = {
        assert!(decide(&world, &ask_again).is_some());
        row(&world, "toolu_r2")["question_id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    world.prefer(&id, "always-ask", None);
    assert_eq!(
        decide(&world, &q("toolu_r3", "Which database for the queue?")),
        None
    );
    // Among rules, always-ask beats never-ask.
    world.rule("queue", "always-ask", &[("question", "queue")]);
    assert_eq!(
        decide(
            &world,
            &q("toolu_r4", "Which database for the queue, again?")
        ),
        None
    );
    assert!(decide(&world, &q("toolu_r5", "Which database for the logs?")).is_some());
    // A one-way door still asks, whatever the rules say.
    world.rule("drop", "never-ask", &[("question", "drop")]);
    assert_eq!(
        decide(
            &world,
            &q("toolu_r6", "Drop the production database and recreate it?")
        ),
        None
    );
    assert_eq!(row(&world, "toolu_r6")["door_type"], "one-way");
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
}
