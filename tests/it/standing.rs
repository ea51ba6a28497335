//! The hook decides from its copy of the standing preferences (`<db>.standing`) and appends
//! every event to the spool, so a question never waits on SQLite: proved here with the
//! database locked by another process while the hook runs. The copy may be missing (the hook
//! then reads the database) but never stale: every change rewrites it.

use std::time::Duration;

use serde_json::Value;

use crate::decide::{ask, decide, row};
use crate::faults::lock;
use crate::harness::World;

fn standing(world: &World) -> std::path::PathBuf {
    world.askhook_home.join("askhook.db.standing")
}

fn db_question(world: &World) -> Value {
    ask(
        world,
        "toolu_s1",
        "Which database should we use?",
        "Database",
        &["PostgreSQL (Recommended)", "SQLite"],
    )
}

fn again(world: &World, call: &str) -> Value {
    let mut payload = db_question(world);
    payload["tool_use_id"] = call.into();
    payload
}

/// A world where the question was asked once and has a never-ask preference on its id.
fn silenced() -> (World, String) {
    let world = World::new().env("ASKHOOK_BUSY_TIMEOUT_MS", "30");
    assert_eq!(decide(&world, &db_question(&world)), None);
    let id = row(&world, "toolu_s1")["question_id"]
        .as_str()
        .unwrap()
        .to_owned();
    world.prefer(&id, "never-ask", None);
    (world, id)
}

fn denied(decision: Option<Value>) -> bool {
    decision.is_some_and(|d| d["hookSpecificOutput"]["permissionDecision"] == "deny")
}

fn stop(world: &World, session: &str) -> bool {
    let stop = serde_json::json!({
        "session_id": session, "transcript_path": "/tmp/t.jsonl",
        "cwd": world.project.to_string_lossy(), "hook_event_name": "Stop",
        "stop_hook_active": false,
    });
    let out = world.hook_json(stop);
    out.status.success() && out.stdout.is_empty()
}

#[test]
fn a_question_and_its_turn_end_only_append_and_the_spool_is_folded_in_now_and_then() {
    let world = World::new();
    assert_eq!(decide(&world, &db_question(&world)), None);
    assert!(!world.db().exists(), "the hook opened no database");
    assert_eq!(world.stored("toolu_s1", "outcome"), "pending");
    // The turn ends without an answer: its decline follows the question in the spool.
    assert!(stop(&world, "s-decide"));
    assert!(!world.db().exists(), "a small spool is not folded in");
    let writes = world.spooled_writes();
    assert_eq!(writes.len(), 2, "{writes:?}");
    assert_eq!(writes[1]["write"], "decline");
    // The next command applies both, in order.
    assert_eq!(row(&world, "toolu_s1")["outcome"], "declined");
    assert!(world.spooled_writes().is_empty());

    // Past 128 KiB of spool, a turn's end folds it into the database itself.
    let mut n = 0;
    while std::fs::metadata(world.askhook_home.join("askhook.db.spool")).map_or(0, |m| m.len())
        < 128 * 1024
    {
        n += 1;
        let mut payload = again(&world, &format!("toolu_fill_{n}"));
        payload["session_id"] = "s-fill".into();
        assert_eq!(decide(&world, &payload), None);
    }
    assert!(stop(&world, "s-other"));
    assert!(world.spooled_writes().is_empty(), "the spool was folded in");
    // The turn's end that created the database left the next questions their copy.
    assert!(standing(&world).exists(), "the folding hook wrote the copy");
    let conn = rusqlite::Connection::open(world.db()).unwrap();
    let pending: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM questions WHERE session_id = 's-fill' AND outcome = 'pending'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        pending, n,
        "every question of the other session, still pending"
    );
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
}

#[test]
fn never_ask_decides_from_the_copy_while_the_database_is_locked() {
    let (world, id) = silenced();
    let copy = std::fs::read_to_string(standing(&world)).unwrap();
    assert!(copy.contains(&id), "{copy}");
    let holder = lock(&world);
    let started = std::time::Instant::now();
    assert!(denied(decide(&world, &again(&world, "toolu_s2"))));
    assert!(started.elapsed() < Duration::from_secs(2));
    drop(holder);
    assert_eq!(row(&world, "toolu_s2")["outcome"], "auto-decided");
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
}

#[test]
fn every_change_to_a_preference_or_rule_reaches_the_next_hook() {
    let (world, id) = silenced();
    assert!(denied(decide(&world, &again(&world, "toolu_s2"))));
    world.prefer(&id, "always-ask", None);
    assert_eq!(decide(&world, &again(&world, "toolu_s3")), None);
    world.run(&["pref", "clear", &id]).success();
    assert!(!std::fs::read_to_string(standing(&world))
        .unwrap()
        .contains(&id));
    assert_eq!(decide(&world, &again(&world, "toolu_s4")), None);
    // A rule, read from the copy with the database locked.
    world.rule("db", "never-ask", &[("question", r"\bdatabase\b")]);
    let holder = lock(&world);
    assert!(denied(decide(&world, &again(&world, "toolu_s5"))));
    drop(holder);
    world.run(&["rule", "rm", "db"]).success();
    assert_eq!(decide(&world, &again(&world, "toolu_s6")), None);
    assert_eq!(row(&world, "toolu_s5")["decided_by"], "rule:db");
}

#[test]
fn a_family_preference_decides_a_rewording_from_the_copy() {
    let world = World::new().env("ASKHOOK_BUSY_TIMEOUT_MS", "30");
    assert_eq!(decide(&world, &db_question(&world)), None);
    let family = row(&world, "toolu_s1")["family"]
        .as_str()
        .unwrap()
        .to_owned();
    world.prefer(&format!("family:{family}"), "never-ask", None);
    let holder = lock(&world);
    let reworded = ask(
        &world,
        "toolu_f2",
        "Which database, please?",
        "DB",
        &["SQLite (Recommended)", "PostgreSQL"],
    );
    assert!(denied(decide(&world, &reworded)));
    drop(holder);
    assert_eq!(row(&world, "toolu_f2")["decided_by"], "family");
}

#[test]
fn a_missing_or_damaged_copy_is_read_from_the_database_instead() {
    let (world, _) = silenced();
    std::fs::remove_file(standing(&world)).unwrap();
    assert!(denied(decide(&world, &again(&world, "toolu_s2"))));
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
    std::fs::write(standing(&world), b"{\"format\": 2, \"preferences\": [[").unwrap();
    assert!(denied(decide(&world, &again(&world, "toolu_s3"))));
    assert!(
        world.error_lines().iter().any(|l| l.contains("is damaged")),
        "{:?}",
        world.error_lines()
    );
    // A hook that had to read the database leaves the next ones a good copy in place of a
    // missing, damaged or foreign one; so does any command.
    let current = || {
        let copy: Value =
            serde_json::from_slice(&std::fs::read(standing(&world)).unwrap()).unwrap();
        copy["format"] == 2
            && copy["preferences"]
                .as_array()
                .is_some_and(|p| !p.is_empty())
    };
    assert!(current(), "the hook repaired the damaged copy");
    std::fs::remove_file(standing(&world)).unwrap();
    assert!(denied(decide(&world, &again(&world, "toolu_s5"))));
    assert!(current(), "the hook wrote the missing copy");
    std::fs::write(standing(&world), b"{\"format\": 2, \"preferences\": [[").unwrap();
    world.log();
    assert!(current(), "a command rewrote the damaged copy");
    // A copy from another version is not read either, and is replaced by this version's.
    std::fs::write(standing(&world), b"{\"format\": 99}").unwrap();
    assert!(denied(decide(&world, &again(&world, "toolu_s4"))));
    assert!(current(), "the hook replaced the foreign copy");
}

#[test]
fn a_change_that_cannot_drop_the_old_copy_is_not_made() {
    let (world, id) = silenced();
    // A copy that cannot be removed (a folder in its place) must stop the change: the hook
    // would keep deciding from it.
    std::fs::remove_file(standing(&world)).unwrap();
    std::fs::create_dir(standing(&world)).unwrap();
    std::fs::write(standing(&world).join("x"), b"").unwrap();
    let out = world.run(&["pref", "clear", &id]).output();
    assert!(!out.status.success(), "{out:?}");
    std::fs::remove_dir_all(standing(&world)).unwrap();
    let prefs = world.json(&["pref", "list", "--json"]);
    assert!(
        prefs.to_string().contains(&id),
        "the preference is still there: {prefs}"
    );
}

#[test]
fn a_question_never_opens_the_database() {
    let (world, _) = silenced();
    // Whatever is in the database's place, a question and its answer need none of it: the
    // decision comes from the copy, the events go to the spool.
    let db = std::fs::read(world.db()).unwrap();
    std::fs::write(
        world.db(),
        b"this is not an SQLite database, and nobody reads it",
    )
    .unwrap();
    let _ = std::fs::remove_file(world.askhook_home.join("askhook.db-wal"));
    let _ = std::fs::remove_file(world.askhook_home.join("askhook.db-shm"));
    assert!(denied(decide(&world, &again(&world, "toolu_s2"))));
    assert_eq!(world.stored("toolu_s2", "outcome"), "auto-decided");
    assert!(world.error_lines().is_empty(), "{:?}", world.error_lines());
    std::fs::write(world.db(), db).unwrap();
    assert_eq!(row(&world, "toolu_s2")["outcome"], "auto-decided");
}
