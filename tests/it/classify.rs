//! `askhook classify` and `askhook registry list|show|add|check` through the real binary, and
//! the registry's effect on the hook.

use serde_json::{json, Value};

use crate::harness::{stderr, stdout, World};

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(out)))
}

#[test]
fn classify_names_the_rule_and_the_matched_words() {
    let world = World::new();
    let out = world
        .run(&[
            "classify",
            "How should we proceed?",
            "--option",
            "Force-push the rebased branch (Recommended)",
            "--option",
            "Open a new PR",
            "--json",
        ])
        .success();
    let v = json_of(&out);
    assert_eq!(v["door_type"], "one-way");
    assert_eq!(v["rule"], "force-push");
    assert_eq!(v["matched"], "Force-push");
    assert_eq!(v["language"], "en");
    let first = &v["evidence"][0];
    assert_eq!(
        (first["part"].as_str(), first["option"].as_u64()),
        (Some("label"), Some(1))
    );
    assert!(
        first["source"].as_str().unwrap().starts_with("en.txt:"),
        "{first}"
    );
    assert!(v["normalized"]
        .as_str()
        .unwrap()
        .contains("how should we proceed?"));

    let out = world
        .run(&["classify", "Use tabs or spaces?", "--json"])
        .success();
    let v = json_of(&out);
    assert_eq!(v["door_type"], "two-way");
    assert_eq!(v["rule"], Value::Null);
    assert_eq!(v["matched"], Value::Null);
    assert_eq!(v["evidence"], json!([]));
}

#[test]
fn classify_text_output_sees_through_look_alikes() {
    let world = World::new();
    // Cyrillic "о", a zero-width space and an em dash for `--`.
    let out = world
        .run(&["classify", "Run `git pu\u{200B}sh —fоrce`?"])
        .success();
    let text = stdout(&out);
    assert!(
        text.starts_with("one-way  force-push  [language: en]"),
        "{text}"
    );
    assert!(text.contains("question:"), "{text}");
    let out = world
        .run(&["classify", "Should we enable caching?"])
        .success();
    assert!(
        stdout(&out).starts_with("two-way  (no one-way evidence)  [language: en]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn classify_reads_what_the_hook_reads() {
    let world = World::new();
    // The destruction is only in an option's description, and the label starts with a dash.
    let out = world
        .run(&[
            "classify",
            "What should I do with the old records?",
            "--header",
            "Cleanup",
            "--option",
            "-- keep them (Recommended)",
            "--description",
            "Nothing changes",
            "--option",
            "Tidy up",
            "--description",
            "Deletes the customer records older than 2019 for good",
            "--json",
        ])
        .success();
    let v = json_of(&out);
    assert_eq!(v["door_type"], "one-way", "{v}");
    assert!(
        v["evidence"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["part"] == "description" && e["option"] == 2),
        "{v}"
    );

    // A question askhook has no lexicon for is unknown: never auto-decided.
    let v = json_of(
        &world
            .run(&[
                "classify",
                "Vuoi che aggiorni la documentazione del progetto?",
                "--json",
            ])
            .success(),
    );
    assert_eq!(
        (v["door_type"].as_str(), v["rule"].as_str()),
        (Some("unknown"), Some("unknown-language:it")),
        "{v}"
    );
    // Destructive words it recognises from a neighbouring language make it one-way.
    let v = json_of(
        &world
            .run(&[
                "classify",
                "Vuoi eliminare il vecchio database di produzione?",
                "--json",
            ])
            .success(),
    );
    assert_eq!(v["door_type"], "one-way", "{v}");
    assert_eq!(v["language"], "it", "{v}");
}

#[test]
fn classify_takes_a_payload() {
    let world = World::new();
    // A PreToolUse payload: every question, with its id, the registry applied as in the hook.
    let payload = json!({
        "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion",
        "tool_input": {"questions": [
            {"question": "Which runner? <askhook-qid:test-framework>", "header": "Tests", "multiSelect": false,
             "options": [{"label": "Vitest (Recommended)", "description": ""}, {"label": "Jest", "description": ""}]},
            {"question": "本番データベースを初期化しますか？", "header": "DB", "multiSelect": false,
             "options": [{"label": "はい", "description": "全データを消去します"}, {"label": "いいえ", "description": ""}]},
        ]},
    });
    let file = world.project.join("payload.json");
    std::fs::write(&file, payload.to_string()).unwrap();
    let v = json_of(
        &world
            .run(&["classify", "--payload", file.to_str().unwrap(), "--json"])
            .success(),
    );
    let list = v.as_array().expect("an array with --payload");
    assert_eq!(list.len(), 2);
    assert_eq!(
        (
            list[0]["question_id"].as_str(),
            list[0]["door_type"].as_str()
        ),
        (Some("test-framework"), Some("two-way"))
    );
    assert_eq!(list[1]["door_type"], "one-way", "{}", list[1]);
    assert_eq!(list[1]["language"], "ja");
    let text = stdout(
        &world
            .run(&["classify", "--payload", "-"])
            .stdin(payload.to_string())
            .success(),
    );
    assert_eq!(text.matches("[language: ").count(), 2, "{text}");

    let out = world
        .run(&["classify", "--payload", "-"])
        .stdin("{not json")
        .code(2);
    assert!(stderr(&out).contains("not JSON"), "{}", stderr(&out));
}

#[test]
fn classify_output_cannot_carry_escape_sequences() {
    let world = World::new();
    let out = world
        .run(&["classify", "rm -rf \u{1b}[2J\u{1b}]0;owned\u{7}"])
        .success();
    assert!(!stdout(&out).contains('\u{1b}'), "{:?}", stdout(&out));
}

#[test]
fn registry_list_shows_the_embedded_questions() {
    let world = World::new();
    let out = world.run(&["registry", "list", "--json"]).success();
    let rows = json_of(&out);
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 30, "{} entries", rows.len());
    let find = |id: &str| rows.iter().find(|r| r["id"] == id).cloned().unwrap();
    assert_eq!(find("force-push-branch")["door_type"], "one-way");
    assert_eq!(find("test-framework")["door_type"], "two-way");
    assert_eq!(find("deploy-production")["source"], "embedded");
    for row in rows {
        for key in [
            "id",
            "skill",
            "category",
            "door_type",
            "options",
            "signal_key",
            "description",
            "source",
        ] {
            assert!(row.get(key).is_some(), "{key} missing in {row}");
        }
    }
    let text = stdout(&world.run(&["registry", "list"]).success());
    assert!(text.lines().next().unwrap().starts_with("ID"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("run-migrations") && l.contains("one-way")),
        "{text}"
    );
}

#[test]
fn registry_show_one_entry_and_refuse_unknown_ids() {
    let world = World::new();
    let v = json_of(
        &world
            .run(&["registry", "show", "publish-package", "--json"])
            .success(),
    );
    assert_eq!(v["door_type"], "one-way");
    assert_eq!(v["embedded_door_type"], "one-way");
    assert_eq!(v["user_door_type"], Value::Null);
    assert_eq!(v["override"], Value::Null);
    let text = stdout(
        &world
            .run(&["registry", "show", "publish-package"])
            .success(),
    );
    assert!(text.contains("door:        one-way"), "{text}");
    let out = world.run(&["registry", "show", "no-such-question"]).code(1);
    assert!(
        stderr(&out).contains("not in the question registry"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn registry_add_writes_a_private_user_file_that_raises_safety() {
    let world = World::new();
    let v = json_of(
        &world
            .run(&[
                "registry",
                "add",
                "push-branch",
                "--door",
                "one-way",
                "--category",
                "git",
                "--json",
            ])
            .success(),
    );
    assert_eq!(v["door_type"], "one-way");
    assert_eq!(v["replaced"], false);
    let file = world.askhook_home.join("registry.json");
    assert_eq!(v["file"], file.to_string_lossy().as_ref());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "user registry mode");
    }
    let shown = json_of(
        &world
            .run(&["registry", "show", "push-branch", "--json"])
            .success(),
    );
    assert_eq!(shown["door_type"], "one-way");
    assert_eq!(shown["source"], "embedded+user");
    assert_eq!(shown["override"], "honoured");

    // A second add replaces the entry instead of duplicating it, and the file stays valid.
    world
        .run(&[
            "registry",
            "add",
            "my-own-question",
            "--door",
            "two-way",
            "--option",
            "A",
            "--option",
            "B",
        ])
        .success();
    let v = json_of(
        &world
            .run(&[
                "registry",
                "add",
                "push-branch",
                "--door",
                "one-way",
                "--json",
            ])
            .success(),
    );
    assert_eq!(v["replaced"], true);
    let check = json_of(
        &world
            .run(&["registry", "check", file.to_str().unwrap(), "--json"])
            .success(),
    );
    assert_eq!(check["valid"], true, "{check}");
    assert_eq!(check["entries"], 2);
}

#[test]
fn lowering_an_embedded_one_way_door_needs_i_know() {
    let world = World::new();
    let file = world.askhook_home.join("registry.json");
    let out = world
        .run(&[
            "registry",
            "add",
            "force-push-branch",
            "--door",
            "two-way",
            "--category",
            "git",
        ])
        .code(1);
    assert!(stderr(&out).contains("--i-know"), "{}", stderr(&out));
    assert!(!file.exists(), "nothing written without --i-know");

    world
        .run(&[
            "registry",
            "add",
            "force-push-branch",
            "--door",
            "two-way",
            "--category",
            "git",
            "--i-know",
        ])
        .success();
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["questions"][0]["i_know"], true);
    let shown = json_of(
        &world
            .run(&["registry", "show", "force-push-branch", "--json"])
            .success(),
    );
    assert_eq!(shown["door_type"], "two-way");
    assert_eq!(shown["override"], "honoured");
    // `check` still warns about it, but the file is valid.
    let out = world
        .run(&["registry", "check", file.to_str().unwrap()])
        .success();
    assert!(
        stdout(&out).contains("warning: `force-push-branch` lowers an embedded one-way door"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_hand_written_lowering_without_i_know_is_ignored() {
    let world = World::new();
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    let file = world.askhook_home.join("registry.json");
    std::fs::write(
        &file,
        r#"{"questions": [{"id": "deploy-production", "skill": "ship", "category": "deploy", "door_type": "two-way", "options": [], "signal_key": "d", "description": "Deploy."}]}"#,
    )
    .unwrap();
    let shown = json_of(
        &world
            .run(&["registry", "show", "deploy-production", "--json"])
            .success(),
    );
    assert_eq!(shown["door_type"], "one-way");
    assert_eq!(shown["user_door_type"], "two-way");
    assert_eq!(shown["override"], "ignored");
    let out = world
        .run(&["registry", "check", file.to_str().unwrap()])
        .success();
    assert!(
        stdout(&out)
            .contains(":1: warning: `deploy-production` is one-way in the embedded registry"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn registry_add_refuses_bad_ids_and_categories_and_an_invalid_file() {
    let world = World::new();
    world
        .run(&["registry", "add", "Not_Kebab", "--door", "one-way"])
        .code(2);
    let out = world
        .run(&[
            "registry",
            "add",
            "ok-id",
            "--door",
            "one-way",
            "--category",
            "nope",
        ])
        .code(2);
    assert!(
        stderr(&out).contains("unknown category"),
        "{}",
        stderr(&out)
    );
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    let file = world.askhook_home.join("registry.json");
    std::fs::write(&file, "{ broken").unwrap();
    let out = world
        .run(&["registry", "add", "ok-id", "--door", "one-way"])
        .code(3);
    assert!(stderr(&out).contains("registry.json"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{ broken",
        "left byte-identical"
    );
}

#[test]
fn registry_check_gives_file_and_line_for_each_problem() {
    let world = World::new();
    let file = world.project.join("reg.json");
    std::fs::write(
        &file,
        "{\n  \"questions\": [\n    {\"id\": \"a\", \"skill\": \"s\", \"category\": \"git\", \"door_type\": \"one-way\", \"options\": [], \"signal_key\": \"a\", \"description\": \"A.\"},\n    {\"id\": \"a\", \"skill\": \"s\", \"category\": \"git\", \"door_type\": \"sideways\", \"options\": [], \"signal_key\": \"a\", \"description\": \"A.\"}\n  ]\n}\n",
    )
    .unwrap();
    let out = world
        .run(&["registry", "check", file.to_str().unwrap()])
        .code(1);
    let text = stdout(&out);
    let path = file.to_str().unwrap();
    assert!(
        text.contains(&format!("{path}:4: duplicate id `a` (first on line 3)")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{path}:4: `a`: unknown door_type `sideways`")),
        "{text}"
    );

    let v = json_of(&world.run(&["registry", "check", path, "--json"]).code(1));
    assert_eq!(v["valid"], false);
    assert_eq!(v["entries"], 2);
    assert!(v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["line"] == 4 && p["severity"] == "error"));

    std::fs::write(&file, "{\"questions\": [\n  {\"id\": 1,\n").unwrap();
    let out = world.run(&["registry", "check", path]).code(1);
    assert!(
        stdout(&out).starts_with(&format!("{path}:")),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("not valid JSON"), "{}", stdout(&out));

    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/registry/questions.json");
    let out = world.run(&["registry", "check", shipped]).success();
    assert!(stdout(&out).contains(": ok, "), "{}", stdout(&out));

    let out = world
        .run(&["registry", "check", "/no/such/file.json"])
        .code(1);
    assert!(
        stderr(&out).contains("/no/such/file.json"),
        "{}",
        stderr(&out)
    );
}

fn pre_tool_use(question: &str, labels: &[&str]) -> Value {
    let options: Vec<Value> = labels
        .iter()
        .map(|l| json!({"label": l, "description": ""}))
        .collect();
    json!({
        "session_id": "s-classify",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion",
        "tool_use_id": "toolu_classify_1",
        "tool_input": {"questions": [{
            "question": question,
            "header": "Next",
            "multiSelect": false,
            "options": options,
        }]}
    })
}

#[test]
fn the_hook_records_the_classifier_rule_for_an_option_only_destructive_question() {
    let world = World::new();
    let out = world.hook_json(pre_tool_use(
        "How should we proceed?",
        &[
            "Force-push the rebased branch (Recommended)",
            "Open a new PR",
        ],
    ));
    assert!(out.status.success());
    let rows = world.log();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["door_type"], "one-way");
}

#[test]
fn a_user_registry_one_way_mark_reaches_the_hook() {
    let world = World::new();
    world
        .run(&["registry", "add", "my-choice", "--door", "one-way"])
        .success();
    let out = world.hook_json(pre_tool_use(
        "<askhook-qid:my-choice> Which colour for the button?",
        &["Blue (Recommended)", "Green"],
    ));
    assert!(out.status.success());
    let rows = world.log();
    assert_eq!(rows[0]["question_id"], "my-choice");
    assert_eq!(rows[0]["door_type"], "one-way");
}
