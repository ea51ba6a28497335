//! Auto-decisions beyond the exact id: question families and rules, through the real hook,
//! and what each records (`family`, `decided_by`).

use serde_json::{json, Value};

use crate::harness::{stdout, World};

/// A PreToolUse payload of one unmarked question.
pub(crate) fn ask(world: &World, call: &str, text: &str, header: &str, labels: &[&str]) -> Value {
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
pub(crate) fn decide(world: &World, payload: &Value) -> Option<Value> {
    let out = world.hook_json(payload.clone());
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    (!text.is_empty()).then(|| serde_json::from_str(&text).expect("one JSON object"))
}

pub(crate) fn row(world: &World, call: &str) -> Value {
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

/// The PostToolUse of `payload` (a PreToolUse from [`ask`]) answered with `answer`.
fn answer(world: &World, payload: &Value, answer: &str) {
    let mut post = payload.clone();
    post["hook_event_name"] = json!("PostToolUse");
    let text = post["tool_input"]["questions"][0]["question"].clone();
    let mut answers = serde_json::Map::new();
    answers.insert(text.as_str().unwrap().to_owned(), json!(answer));
    post["tool_response"] = json!({
        "questions": post["tool_input"]["questions"].clone(),
        "answers": answers,
    });
    let out = world.hook_json(post);
    assert!(out.status.success() && out.stdout.is_empty());
}

/// `askhook <args>` (exit 0), its stdout parsed as JSON.
fn json_of(world: &World, args: &[&str]) -> Value {
    serde_json::from_slice(&world.run(args).success().stdout).expect("JSON on stdout")
}

/// Run a silencing command without a terminal: its stderr and output, or `None` when the test
/// runner itself runs under an agent (then it is refused, as `trust.rs` tests).
fn silence(world: &World, args: &[&str]) -> Option<(String, std::process::Output)> {
    let out = world.run(args).without_tty().output();
    if outer_agent() {
        return None;
    }
    assert!(out.status.success(), "{}", crate::harness::stderr(&out));
    Some((crate::harness::stderr(&out), out))
}

/// Whether the test runner itself runs under an agent: silencing without a terminal is then
/// refused (tested in `trust.rs`), so these tests stop short of it.
fn outer_agent() -> bool {
    askhook::trust::marker_for_this_process().is_some()
}

#[test]
fn pref_set_says_what_it_will_do_from_the_users_own_history() {
    let world = World::new();
    let labels = ["PG (Recommended)", "MySQL"];
    for call in ["toolu_h1", "toolu_h2", "toolu_h3"] {
        let p = ask(&world, call, "Which database should we use?", "DB", &labels);
        assert_eq!(decide(&world, &p), None);
        answer(&world, &p, "MySQL");
    }
    let id = row(&world, "toolu_h3")["question_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let Some((said, out)) = silence(&world, &["pref", "set", &id, "never-ask"]) else {
        return;
    };
    for needle in [
        "\"PG (Recommended)\"",
        "you followed the recommendation 0 of 3 times; your last answers were MySQL, MySQL, MySQL",
        "warning: you chose something other than the recommendation 3 of 3 times",
    ] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
    assert!(stdout(&out).contains(&format!("{id} is now never-ask (global)")));
    // --json carries the same facts.
    let out = world
        .run(&["pref", "set", &id, "ask-only-for-one-way", "--json"])
        .without_tty()
        .success();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["recommended"], "PG (Recommended)");
    assert_eq!(v["history"]["with_recommendation"], 3);
    assert_eq!(v["history"]["followed"], 0);
    assert_eq!(
        v["history"]["last_answers"],
        json!(["MySQL", "MySQL", "MySQL"])
    );
    assert_eq!(v["warnings"].as_array().unwrap().len(), 1);
}

#[test]
fn pref_set_refuses_what_the_log_never_saw_and_last_names_the_latest_question() {
    let world = World::new();
    let out = world
        .run(&["pref", "set", "hook-0123456789", "never-ask"])
        .without_tty()
        .code(1);
    assert!(crate::harness::stderr(&out).contains("--force"));
    let out = world
        .run(&["pref", "set", "family:fam-0123456789", "never-ask"])
        .without_tty()
        .code(1);
    assert!(crate::harness::stderr(&out).contains("never asked"));
    world
        .run(&["pref", "set", "no-such-id", "always-ask"])
        .without_tty()
        .success();
    world.run(&["pref", "set", "--last", "never-ask"]).code(1);
    world
        .run(&["pref", "set", "--last", "a", "never-ask"])
        .code(2);
    world.run(&["pref", "set", "some-id", "sometimes"]).code(2);
    let p = ask(
        &world,
        "toolu_l1",
        "Run the linter now?",
        "Lint",
        &["Yes", "No"],
    );
    decide(&world, &p);
    let family = row(&world, "toolu_l1")["family"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = world
        .run(&["pref", "set", "--last", "never-ask", "--json"])
        .without_tty()
        .output();
    if outer_agent() {
        return;
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("--json");
    assert_eq!(v["question_id"], json!(format!("family:{family}")));
    // No recommended option: it can never fire, and `pref list` says so.
    assert_eq!(v["recommended"], Value::Null);
    assert!(v["warnings"][0].as_str().unwrap().contains("never fire"));
    let list = json_of(&world, &["pref", "list", "--json"]);
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["question_id"] == json!(format!("family:{family}")))
        .unwrap()
        .clone();
    assert_eq!(listed["inert"], true);
    assert_eq!(listed["why_inert"], "no recommended option");
    world
        .run(&["pref", "set", "hook-0123456789", "never-ask", "--force"])
        .without_tty()
        .success();
}

#[test]
fn rule_add_list_show_test_and_rm_through_the_cli() {
    let world = World::new();
    let labels = ["Postgres (Recommended)", "SQLite"];
    let p = ask(
        &world,
        "toolu_c1",
        "Which database for the cache?",
        "DB",
        &labels,
    );
    decide(&world, &p);
    answer(&world, &p, "Postgres (Recommended)");
    world.run(&["rule", "add", "db", "never-ask"]).code(2);
    let bad = world
        .run(&["rule", "add", "db", "--question", "(unclosed", "never-ask"])
        .code(2);
    assert!(crate::harness::stderr(&bad).contains("not a valid regex"));
    world
        .run(&["rule", "add", "Bad Name", "--question", "x", "never-ask"])
        .code(2);
    // Under an agent marker without a terminal, a silencing rule is refused.
    world
        .run(&["rule", "add", "db", "--question", "database", "never-ask"])
        .env("CLAUDECODE", "1")
        .without_tty()
        .code(2);
    assert_eq!(
        world.run(&["rule", "list", "--json"]).success().stdout,
        b"[]\n"
    );
    let args = [
        "rule",
        "add",
        "db",
        "--question",
        r"\bdatabase\b",
        "--option",
        "postgres",
        "never-ask",
    ];
    let Some((said, _)) = silence(&world, &args) else {
        return;
    };
    assert!(
        said.contains("it matches 1 of your last 1 recorded questions"),
        "{said}"
    );
    assert!(
        said.contains("answered \"Postgres (Recommended)\""),
        "{said}"
    );
    rule_show_test_and_rm(&world, &p);
}

/// The rest of a rule's life, in a world where rule `db` was added for question `p`.
fn rule_show_test_and_rm(world: &World, p: &Value) {
    let list = json_of(world, &["rule", "list", "--json"]);
    assert_eq!(list[0]["name"], "db");
    assert_eq!(
        list[0]["patterns"][1],
        json!({"field": "option", "pattern": "postgres"})
    );
    let shown = json_of(world, &["rule", "show", "db", "--json"]);
    assert_eq!(shown["matches"][0]["times"], 1);
    let tested = json_of(
        world,
        &[
            "rule",
            "test",
            "Which database for the queue?",
            "--option",
            "Postgres (Recommended)",
            "--option",
            "SQLite",
            "--json",
        ],
    );
    assert_eq!(tested["decision"], "auto-decide");
    assert_eq!(tested["questions"][0]["rules"][0]["name"], "db");
    assert_eq!(tested["questions"][0]["applies"]["source"], "rule:db");
    assert_eq!(tested["questions"][0]["answer"], "Postgres (Recommended)");
    // A payload works too, and a one-way door is still asked.
    let mut drop = p.clone();
    drop["tool_input"]["questions"][0]["question"] = json!("Drop the database now?");
    let tested: Value = serde_json::from_slice(
        &world
            .run(&["rule", "test", "-", "--json"])
            .stdin(serde_json::to_vec(&drop).unwrap())
            .success()
            .stdout,
    )
    .unwrap();
    assert_eq!(tested["decision"], "ask");
    assert!(tested["questions"][0]["why_not"]
        .as_str()
        .unwrap()
        .contains("one-way"));
    let history = json_of(world, &["pref", "history", "rule:db", "--json"]);
    assert_eq!(history[0]["new_value"], "never-ask");
    assert!(history[0]["detail"]
        .as_str()
        .unwrap()
        .contains("question=/\\bdatabase\\b/"));
    world.run(&["rule", "rm", "db"]).success();
    world.run(&["rule", "rm", "db"]).code(1);
    assert_eq!(json_of(world, &["rule", "list", "--json"]), json!([]));
}

/// A PreToolUse of two marked questions, with a field Claude Code may add (`metadata`) and an
/// option `preview`: all of it must come back in `updatedInput`.
fn two_marked(world: &World, call: &str, tool: &str) -> Value {
    json!({
        "session_id": "s-answer",
        "cwd": world.project.to_string_lossy(),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_use_id": call,
        "tool_input": {
            "questions": [
                {"question": "Enable the cache? <askhook-qid:cache-on>", "header": "Cache",
                 "options": [{"label": "Yes (Recommended)", "description": "d", "preview": "p"},
                             {"label": "No", "description": ""}], "multiSelect": false},
                {"question": "Which extras? <askhook-qid:extras>", "header": "Extras",
                 "options": [{"label": "Logs", "description": ""},
                             {"label": "Metrics (推荐)", "description": ""}], "multiSelect": true}
            ],
            "metadata": {"source": "remember"}
        }
    })
}

fn write_config(world: &World, text: &str) {
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    std::fs::write(world.askhook_home.join("config.toml"), text).unwrap();
}

#[test]
fn answer_mode_allows_with_every_answer_and_post_tool_use_keeps_it_auto_decided() {
    let world = World::new();
    write_config(&world, "decide_with = \"answer\"\n");
    world.prefer("cache-on", "never-ask", None);
    world.prefer("extras", "never-ask", None);
    let pre = two_marked(&world, "toolu_a1", "AskUserQuestion");
    let d = decide(&world, &pre).expect("answered");
    let out = &d["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], "allow");
    let mut want = pre["tool_input"].clone();
    want["answers"] = json!({
        "Enable the cache? <askhook-qid:cache-on>": "Yes (Recommended)",
        "Which extras? <askhook-qid:extras>": "Metrics (推荐)",
    });
    assert_eq!(out["updatedInput"], want);
    assert!(out["permissionDecisionReason"]
        .as_str()
        .unwrap()
        .contains("[cache-on]"));
    assert!(out["additionalContext"]
        .as_str()
        .unwrap()
        .contains("standing preference"));
    // Claude Code then runs the tool and fires PostToolUse with those answers.
    let mut post = pre.clone();
    post["hook_event_name"] = json!("PostToolUse");
    post["tool_input"] = want.clone();
    post["tool_response"] = json!({"questions": want["questions"], "answers": want["answers"]});
    let out = world.hook_json(post);
    assert!(out.status.success() && out.stdout.is_empty());
    let rows: Vec<Value> = world.log();
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r["outcome"], "auto-decided", "{r}");
        assert_eq!(r["decided_by"], "id");
        assert_eq!(r["followed_recommendation"], Value::Null);
    }
    assert_eq!(rows[1]["answer"], "Metrics (推荐)");
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
}

#[test]
fn answer_mode_denies_mcp_copies_and_the_environment_overrides_the_file() {
    let world = World::new();
    world.prefer("cache-on", "never-ask", None);
    world.prefer("extras", "never-ask", None);
    write_config(&world, "decide_with = \"answer\"\n");
    let mcp = two_marked(&world, "toolu_m1", "mcp__relay__AskUserQuestion");
    let d = decide(&world, &mcp).expect("decided");
    assert_eq!(d["hookSpecificOutput"]["permissionDecision"], "deny");
    write_config(&world, "decide_with = \"deny\"\n");
    let native = two_marked(&world, "toolu_m2", "AskUserQuestion");
    let out = world
        .run(&["hook"])
        .env("ASKHOOK_DECIDE_WITH", "answer")
        .stdin(serde_json::to_vec(&native).unwrap())
        .output();
    let d: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["hookSpecificOutput"]["permissionDecision"], "allow");
    // Without the variable the file's deny applies.
    let d = decide(&world, &two_marked(&world, "toolu_m3", "AskUserQuestion")).unwrap();
    assert_eq!(d["hookSpecificOutput"]["permissionDecision"], "deny");
}

#[test]
fn an_invalid_config_makes_the_hook_do_nothing_and_say_why() {
    let world = World::new();
    world.prefer("cache-on", "never-ask", None);
    world.prefer("extras", "never-ask", None);
    write_config(&world, "decide_with = \"allow\"\n");
    assert_eq!(
        decide(&world, &two_marked(&world, "toolu_i1", "AskUserQuestion")),
        None
    );
    assert!(world.log().is_empty(), "nothing recorded");
    let lines = world.error_lines();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("decide_with") && l.contains("askhook config show")),
        "{lines:?}"
    );
    let out = world.run(&["config", "show", "--json"]).code(3);
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["valid"], false);
    assert!(shown["error"].as_str().unwrap().contains("decide_with"));
}

#[test]
fn families_reach_log_show_stats_and_suggest() {
    let world = World::new();
    let labels = ["PG (Recommended)", "MySQL"];
    let wordings = [
        "Which database should we use?",
        "Which database should we use, please?",
        "Which database do we use?",
        "What database should I use?",
        "which  DATABASE should we use",
    ];
    for (i, text) in wordings.iter().enumerate() {
        let p = ask(&world, &format!("toolu_w{i}"), text, "DB", &labels);
        decide(&world, &p);
        answer(&world, &p, "PG (Recommended)");
    }
    let family = row(&world, "toolu_w0")["family"]
        .as_str()
        .unwrap()
        .to_owned();
    let key = format!("family:{family}");
    let suggested = json_of(&world, &["suggest", "--json"]);
    let candidate = &suggested["never_ask"][0];
    assert_eq!(candidate["question_id"], json!(key), "{suggested}");
    assert_eq!(candidate["kind"], "family");
    assert_eq!(candidate["wordings"], 5);
    assert_eq!(candidate["asked"], 5);
    let shown = json_of(&world, &["show", &key, "--json"]);
    assert_eq!(shown["kind"], "family");
    assert_eq!(shown["rows"].as_array().unwrap().len(), 5);
    let full = stdout(&world.run(&["log", "--full"]).success());
    assert!(full.contains(&format!("family: {family}")), "{full}");
    let filtered = json_of(&world, &["log", "--question", &key, "--json"]);
    assert_eq!(filtered.as_array().unwrap().len(), 5);
    world.prefer(&key, "never-ask", None);
    world.rule("queue", "never-ask", &[("question", "queue")]);
    let p = ask(
        &world,
        "toolu_w9",
        "Which database should we use now?",
        "DB",
        &labels,
    );
    assert!(decide(&world, &p).is_some(), "decided by the family");
    let p = ask(
        &world,
        "toolu_w10",
        "Which queue?",
        "Q",
        &["Redis (Recommended)", "SQS"],
    );
    assert!(decide(&world, &p).is_some(), "decided by the rule");
    let stats = json_of(&world, &["stats", "--json"]);
    assert_eq!(
        stats["auto_decided_by"],
        json!({"id": 0, "family": 1, "rule": 1, "rules": {"queue": 1}})
    );
    assert_eq!(stats["families"][0]["family"], json!(family));
    assert_eq!(stats["families"][0]["question_ids"], 6);
    assert_eq!(stats["families"][0]["preference"], "never-ask");
    let text = stdout(&world.run(&["stats"]).success());
    assert!(text.contains("1 by family, 1 by rule (queue 1)"), "{text}");
    assert!(text.contains("WORDINGS"), "{text}");
    let shown = stdout(&world.run(&["show", &key]).success());
    assert!(
        shown.contains(&format!("preference: never-ask on {key}")),
        "{shown}"
    );
}

#[test]
fn a_database_from_before_families_is_written_by_the_hook_and_backfilled_by_the_cli() {
    let world = World::new();
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    {
        let conn = rusqlite::Connection::open(world.db()).unwrap();
        conn.execute_batch("PRAGMA journal_mode = WAL").unwrap();
        for sql in &askhook::store::migrations::MIGRATIONS[..2] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 2).unwrap();
    }
    let p = ask(
        &world,
        "toolu_old",
        "Which database should we use?",
        "DB",
        &["PG (Recommended)", "MySQL"],
    );
    assert_eq!(decide(&world, &p), None);
    let version = |w: &World| -> i64 {
        rusqlite::Connection::open(w.db())
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version(&world), 2, "the hook never runs migration 3");
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
    // The first CLI command migrates, and fills in the family of the earlier row.
    let r = row(&world, "toolu_old");
    assert_eq!(version(&world), askhook::store::migrations::latest());
    let family = r["family"].as_str().expect("backfilled");
    let again = ask(
        &world,
        "toolu_new",
        "Which database, please?",
        "DB",
        &["MySQL", "PG (Recommended)"],
    );
    decide(&world, &again);
    assert_eq!(row(&world, "toolu_new")["family"], json!(family));
}

/// A call of 1–4 marked questions with 2–4 options, some recommended (maybe twice), some
/// silenced, some worded as one-way doors: in answer mode the hook must print nothing, a
/// `deny`, or an `allow` whose `updatedInput` is the call's `tool_input` plus an answer for
/// every question, each one of its own labels — never an `allow` with a gap.
fn answer_mode_case(
    world: &World,
    ctx: &askhook::hook::HookContext,
    shape: &[(u8, u8, bool, bool)],
) -> Result<(), String> {
    let mut questions = Vec::new();
    for (i, (options, recommended, silenced, one_way)) in shape.iter().enumerate() {
        let id = format!("prop-{i}");
        if *silenced {
            world.prefer(&id, "never-ask", None);
        }
        let verb = if *one_way { "Force-push" } else { "Format" };
        let labels: Vec<Value> = (0..*options)
            .map(|o| {
                let mark = if o < *recommended {
                    " (Recommended)"
                } else {
                    ""
                };
                json!({"label": format!("Choice {o}{mark}"), "description": "d"})
            })
            .collect();
        questions.push(
            json!({"question": format!("{verb} part {i}? <askhook-qid:{id}>"),
            "header": "H", "options": labels, "multiSelect": i % 2 == 1}),
        );
    }
    let input = json!({"questions": questions, "metadata": {"source": "prop"}});
    let payload = json!({"session_id": "s", "cwd": world.project.to_string_lossy(),
        "hook_event_name": "PreToolUse", "tool_name": "AskUserQuestion",
        "tool_use_id": format!("toolu_prop_{}", shape.len()), "tool_input": input});
    let handled = askhook::hook::handle(&serde_json::to_vec(&payload).unwrap(), ctx);
    let bytes = askhook::hook::render::render(&handled.output);
    if bytes.is_empty() {
        return Ok(());
    }
    let v: Value = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
    let out = &v["hookSpecificOutput"];
    match out["permissionDecision"].as_str() {
        Some("deny") => Ok(()),
        Some("allow") => {
            let mut updated = out["updatedInput"].clone();
            let answers = updated
                .as_object_mut()
                .and_then(|o| o.remove("answers"))
                .ok_or("allow without answers")?;
            if updated != input {
                return Err(format!("updatedInput is not the tool_input: {updated}"));
            }
            let answers = answers.as_object().ok_or("answers is not an object")?;
            for q in input["questions"].as_array().unwrap() {
                let text = q["question"].as_str().unwrap();
                let label = answers.get(text).and_then(Value::as_str);
                let labels: Vec<&str> = q["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|o| o["label"].as_str())
                    .collect();
                if !label.is_some_and(|l| labels.contains(&l)) {
                    return Err(format!("{text:?} answered {label:?}"));
                }
            }
            if answers.len() != input["questions"].as_array().unwrap().len() {
                return Err("answers for questions not asked".into());
            }
            Ok(())
        }
        other => Err(format!("decision {other:?}")),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, failure_persistence: None, ..Default::default() })]

    #[test]
    fn answer_mode_never_allows_without_every_answer(
        shape in proptest::collection::vec((2u8..=4, 0u8..=2, proptest::bool::weighted(0.8), proptest::bool::weighted(0.1)), 1..=4)
    ) {
        let world = World::new();
        let paths = askhook::sys::paths::Paths::resolve(&askhook::cli::PathFlags::default(), &|name| {
            (name == "ASKHOOK_HOME").then(|| world.askhook_home.clone().into_os_string())
        });
        let ctx = askhook::hook::HookContext {
            paths,
            budget: askhook::sys::paths::Budget::default(),
            config: Ok(askhook::config::Config {
                decide_with: askhook::config::DecideWith::Answer,
                ..askhook::config::Config::default()
            }),
            now_ms: 1_700_000_000_000,
            started: std::time::Instant::now(),
        };
        let checked = answer_mode_case(&world, &ctx, &shape);
        proptest::prop_assert!(checked.is_ok(), "{:?}: {:?}", shape, checked);
    }
}

#[test]
fn a_project_rule_applies_in_its_project_only() {
    let world = World::new();
    let other = world.tmp.path().join("other");
    std::fs::create_dir_all(other.join(".git")).unwrap();
    let labels = ["Yes (Recommended)", "No"];
    let p = ask(
        &world,
        "toolu_p0",
        "Regenerate the snapshots?",
        "Snap",
        &labels,
    );
    decide(&world, &p);
    let Some(_) = silence(
        &world,
        &[
            "rule",
            "add",
            "snaps",
            "--question",
            "snapshots",
            "never-ask",
            "--project",
            ".",
        ],
    ) else {
        return;
    };
    let list = json_of(&world, &["rule", "list", "--json"]);
    assert_eq!(list[0]["scope"], "project");
    assert!(decide(
        &world,
        &ask(
            &world,
            "toolu_p1",
            "Regenerate the snapshots?",
            "Snap",
            &labels
        )
    )
    .is_some());
    let mut elsewhere = ask(
        &world,
        "toolu_p2",
        "Regenerate the snapshots?",
        "Snap",
        &labels,
    );
    elsewhere["cwd"] = json!(other.to_string_lossy());
    let out = world.hook(&serde_json::to_vec(&elsewhere).unwrap());
    assert!(out.stdout.is_empty(), "another project: {}", stdout(&out));
}
