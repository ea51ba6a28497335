//! Load and crash tests: many concurrent `askhook hook` processes on one database, the same
//! with the database locked past the busy budget (everything goes to the spool; the next hook
//! ingests a chunk of it, the CLI the rest), and SIGKILL in the middle of writes. Bounded: the
//! whole topic runs in seconds. The helpers are shared with `faults.rs`.
//!
//! What a user would notice if these failed: a question missing from the log or logged twice,
//! a hook that blocks the session (non-zero exit, output, or a run past the deadline), or a
//! database that no longer opens after a crash.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::os::unix::process::ExitStatusExt;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;
use serde_json::{json, Value};

use crate::harness::World;

/// Concurrent sessions in the load tests.
const SESSIONS: usize = 64;

/// The hook's deadline in these tests (the default, `ASKHOOK_DEADLINE_MS`).
const DEADLINE: Duration = Duration::from_millis(2500);

/// Slack on top of the deadline for process start and exit on a loaded 2-core machine. A hook
/// that actually hit its deadline also says so in the error log, which is asserted separately.
const SCHEDULING_SLACK: Duration = Duration::from_millis(1500);

/// One question of a replayed session, and the answer its human gives.
#[derive(Debug, Clone)]
pub(crate) struct Asked {
    pub(crate) session: String,
    pub(crate) tool_use_id: String,
    pub(crate) index: usize,
    pub(crate) text: String,
    pub(crate) answer: &'static str,
}

/// One AskUserQuestion call of a replayed session.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub(crate) session: String,
    pub(crate) tool_use_id: String,
    pub(crate) questions: Vec<Asked>,
}

pub(crate) fn tool_input(questions: &[Asked]) -> Value {
    json!({
        "questions": questions.iter().map(|q| json!({
            "question": q.text,
            "header": "Load",
            "options": [
                {"label": "Left", "description": "Go left."},
                {"label": "Right", "description": "Go right."}
            ],
            "multiSelect": false
        })).collect::<Vec<_>>()
    })
}

pub(crate) fn pre_tool_use(world: &World, call: &Call) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "session_id": call.session,
        "cwd": world.project,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion",
        "tool_input": tool_input(&call.questions),
        "tool_use_id": call.tool_use_id,
    }))
    .unwrap()
}

pub(crate) fn post_tool_use(world: &World, call: &Call) -> Vec<u8> {
    let answers: serde_json::Map<String, Value> = call
        .questions
        .iter()
        .map(|q| (q.text.clone(), Value::String(q.answer.into())))
        .collect();
    let mut input = tool_input(&call.questions);
    input["answers"] = Value::Object(answers.clone());
    let mut response = tool_input(&call.questions);
    response["answers"] = Value::Object(answers);
    response["annotations"] = json!({});
    serde_json::to_vec(&json!({
        "session_id": call.session,
        "cwd": world.project,
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "AskUserQuestion",
        "tool_input": input,
        "tool_response": response,
        "tool_use_id": call.tool_use_id,
    }))
    .unwrap()
}

/// A Stop event for a session that asked nothing: it opens the store (so it ingests the
/// spool) and changes no row.
pub(crate) fn stop_of_a_quiet_session() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "session_id": "quiet-session",
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    }))
    .unwrap()
}

/// `sessions` sessions of `calls` calls with `per_call` questions each, every text unique.
pub(crate) fn sessions(
    tag: &str,
    sessions: usize,
    calls: usize,
    per_call: usize,
) -> Vec<Vec<Call>> {
    (0..sessions)
        .map(|s| {
            (0..calls)
                .map(|c| {
                    let session = format!("{tag}-session-{s:03}");
                    let tool_use_id = format!("toolu_{tag}_{s:03}_{c:02}");
                    let questions = (0..per_call)
                        .map(|i| Asked {
                            session: session.clone(),
                            tool_use_id: tool_use_id.clone(),
                            index: i,
                            text: format!("{tag}: session {s} call {c} question {i}, which way?"),
                            answer: if (s + c + i) % 2 == 0 {
                                "Left"
                            } else {
                                "Right"
                            },
                        })
                        .collect();
                    Call {
                        session,
                        tool_use_id,
                        questions,
                    }
                })
                .collect()
        })
        .collect()
}

/// One finished hook process.
struct Ran {
    what: String,
    output: Output,
    took: Duration,
}

/// Replay every session at once, one thread per session, each event one real hook process.
fn replay_concurrently(world: &World, sessions: &[Vec<Call>]) -> Vec<Ran> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = sessions
            .iter()
            .map(|calls| {
                scope.spawn(move || {
                    let mut ran = Vec::new();
                    for call in calls {
                        for (event, payload) in [
                            ("PreToolUse", pre_tool_use(world, call)),
                            ("PostToolUse", post_tool_use(world, call)),
                        ] {
                            let started = Instant::now();
                            let output = world.hook(&payload);
                            ran.push(Ran {
                                what: format!("{event} {}", call.tool_use_id),
                                output,
                                took: started.elapsed(),
                            });
                        }
                    }
                    ran
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("session thread"))
            .collect()
    })
}

/// Every run exited 0, printed nothing, and finished inside the deadline.
#[track_caller]
fn assert_every_hook_abstained_in_time(ran: &[Ran]) {
    let slowest = ran.iter().map(|r| r.took).max().unwrap_or_default();
    for r in ran {
        assert_eq!(
            r.output.status.code(),
            Some(0),
            "{} exited {:?}; stderr: {}",
            r.what,
            r.output.status,
            String::from_utf8_lossy(&r.output.stderr)
        );
        assert!(
            r.output.stdout.is_empty(),
            "{} printed {:?} (an abstain is empty stdout)",
            r.what,
            String::from_utf8_lossy(&r.output.stdout)
        );
        assert!(
            r.took <= DEADLINE + SCHEDULING_SLACK,
            "{} took {:?}, past the {DEADLINE:?} deadline",
            r.what,
            r.took
        );
    }
    eprintln!("{} hook runs, slowest {slowest:?}", ran.len());
}

/// No line of the error log says the deadline was spent or an event was lost.
#[track_caller]
fn assert_no_deadline_or_loss(world: &World) {
    let bad: Vec<String> = world
        .error_lines()
        .into_iter()
        .filter(|l| l.contains("deadline") || l.contains("lost") || l.contains("panic"))
        .collect();
    assert!(bad.is_empty(), "the error log reports:\n{}", bad.join("\n"));
}

/// Every row of the database: (session, `tool_use_id`, index) → (question, outcome, answer).
pub(crate) type Rows = BTreeMap<(String, String, i64), (String, String, Option<String>)>;

pub(crate) fn rows(conn: &Connection) -> Rows {
    let mut stmt = conn
        .prepare("SELECT session_id, tool_use_id, question_index, question, outcome, answer FROM questions")
        .unwrap();
    let mut out = Rows::new();
    let mut doubled = Vec::new();
    for row in stmt
        .query_map([], |r| {
            Ok((
                (r.get(0)?, r.get(1)?, r.get(2)?),
                (r.get(3)?, r.get(4)?, r.get(5)?),
            ))
        })
        .unwrap()
    {
        let (key, value) = row.unwrap();
        if out.insert(key.clone(), value).is_some() {
            doubled.push(key);
        }
    }
    assert!(doubled.is_empty(), "rows stored twice: {doubled:?}");
    out
}

pub(crate) fn open(world: &World) -> Connection {
    let conn = Connection::open(world.db()).expect("the database opens");
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn
}

/// Every question of `sessions` is in `rows` exactly once, answered with its own answer, and
/// nothing else is there.
#[track_caller]
fn assert_exactly_answered(rows: &Rows, sessions: &[Vec<Call>]) {
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    let mut expected = 0;
    for q in sessions.iter().flatten().flat_map(|c| &c.questions) {
        expected += 1;
        let key = (q.session.clone(), q.tool_use_id.clone(), q.index as i64);
        match rows.get(&key) {
            None => missing.push(key),
            Some((text, outcome, answer)) => {
                if text != &q.text || outcome != "answered" || answer.as_deref() != Some(q.answer) {
                    wrong.push(format!(
                        "{key:?}: stored ({text:?}, {outcome}, {answer:?}), expected answered {:?}",
                        q.answer
                    ));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {expected} questions missing, e.g. {:?}",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
    assert!(wrong.is_empty(), "wrong rows:\n{}", wrong.join("\n"));
    assert_eq!(rows.len(), expected, "rows that no session asked");
}

/// Records in the spool file (each starts with the record separator `\x1e`), ingested or not.
pub(crate) fn spool_records(world: &World) -> usize {
    std::fs::read(world.askhook_home.join("askhook.db.spool"))
        .map_or(0, |b| b.split(|&c| c == 0x1e).count() - 1)
}

/// The spool file's size (0 once everything in it was ingested).
pub(crate) fn spool_bytes(world: &World) -> u64 {
    std::fs::metadata(world.askhook_home.join("askhook.db.spool")).map_or(0, |m| m.len())
}

/// Let a CLI command ingest the whole spool (hooks only ingest a chunk).
#[track_caller]
pub(crate) fn ingest_with_the_cli(world: &World) {
    world.run(&["log", "--json"]).success();
    assert_eq!(spool_bytes(world), 0, "the CLI ingested the whole spool");
}

#[test]
fn sixty_four_concurrent_sessions_lose_and_double_nothing() {
    let world = World::new();
    let sessions = sessions("load", SESSIONS, 3, 2);
    let ran = replay_concurrently(&world, &sessions);
    assert_every_hook_abstained_in_time(&ran);
    assert_no_deadline_or_loss(&world);
    let spooled = spool_records(&world);
    // Under contention a write may legitimately go to the spool; the CLI ingests what is left.
    ingest_with_the_cli(&world);
    let rows = rows(&open(&world));
    assert_exactly_answered(&rows, &sessions);
    eprintln!("{spooled} spool record(s) before the final ingest");
}

#[test]
fn a_database_locked_past_the_busy_budget_spools_every_event_and_loses_none() {
    let world = World::new().env("ASKHOOK_BUSY_TIMEOUT_MS", "50");
    // Create the database (schema, WAL) with one real question, then lock it.
    let warm_up = sessions("warmup", 1, 1, 1);
    assert_every_hook_abstained_in_time(&replay_concurrently(&world, &warm_up));
    ingest_with_the_cli(&world);
    let holder = open(&world);
    holder
        .execute_batch("BEGIN EXCLUSIVE")
        .expect("take the lock");
    let locked_at = Instant::now();

    let sessions = sessions("locked", SESSIONS, 2, 2);
    let ran = replay_concurrently(&world, &sessions);
    assert!(
        locked_at.elapsed() > Duration::from_millis(50),
        "the lock must outlast the busy budget"
    );
    assert_every_hook_abstained_in_time(&ran);
    assert_no_deadline_or_loss(&world);
    // Nothing reached the database while it was locked: every event is a spool line.
    assert_eq!(
        rows(&holder).len(),
        1,
        "only the warm-up row is in the database"
    );
    assert_eq!(
        spool_records(&world),
        ran.len(),
        "every event of every session is in the spool"
    );
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);

    let next = world.hook(&stop_of_a_quiet_session());
    assert!(next.status.success() && next.stdout.is_empty());
    assert!(
        rows(&open(&world)).len() > 1,
        "the next hook ingested a chunk of the spool"
    );
    ingest_with_the_cli(&world);
    let (locked, warm): (Rows, Rows) = rows(&open(&world))
        .into_iter()
        .partition(|((session, _, _), _)| session.starts_with("locked-"));
    assert_exactly_answered(&locked, &sessions);
    assert_exactly_answered(&warm, &warm_up);
}

/// A tiny deterministic generator (xorshift), seeded from the clock and printed, so a failing
/// run can be replayed with `ASKHOOK_TEST_SEED`.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn seeded() -> Rng {
        let seed = std::env::var("ASKHOOK_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
            })
            | 1;
        eprintln!("ASKHOOK_TEST_SEED={seed}");
        Rng(seed)
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Open the database and check it passes `PRAGMA integrity_check` (`when` names the moment).
pub(crate) fn open_intact(world: &World, when: &str) -> Connection {
    let conn = open(world);
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok", "the database is damaged {when}");
    conn
}

/// Let the next hook run ingest a chunk of the spool and the CLI the rest (a torn record is
/// skipped, never fatal), then count the rows of each call, asserting none is half written
/// (`per_call` rows each, but the warm-up calls).
pub(crate) fn ingest_spool_and_count(world: &World, per_call: usize) -> BTreeMap<String, usize> {
    let next = world.hook(&stop_of_a_quiet_session());
    assert!(next.status.success() && next.stdout.is_empty());
    ingest_with_the_cli(world);
    let conn = open_intact(world, "after ingesting the spool");
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for (_, tool_use_id, _) in rows(&conn).into_keys() {
        *counts.entry(tool_use_id).or_default() += 1;
    }
    for (id, n) in &counts {
        assert!(
            *n == per_call || id.starts_with("toolu_warmup"),
            "{id} has {n} of {per_call} rows: a call was half written"
        );
    }
    counts
}

/// Run the hook on `call`'s PreToolUse and SIGKILL it `after` its start (when still running).
fn kill_after(world: &World, call: &Call, after: Option<Duration>) -> std::process::ExitStatus {
    let payload = pre_tool_use(world, call);
    let mut child = world
        .command()
        .arg("hook")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn askhook");
    let started = Instant::now();
    child.stdin.take().unwrap().write_all(&payload).unwrap();
    if let Some(after) = after {
        std::thread::sleep(after.saturating_sub(started.elapsed()));
        let _ = child.kill();
    }
    child.wait().unwrap()
}

#[test]
fn sigkill_at_random_moments_leaves_a_clean_database_with_every_committed_call() {
    const RUNS: usize = 48;
    const PER_CALL: usize = 16; // the most questions one call may carry
    let world = World::new().env("ASKHOOK_BUSY_TIMEOUT_MS", "30");
    let mut rng = Rng::seeded();
    let calls: Vec<Call> = sessions("crash", RUNS, 1, PER_CALL)
        .into_iter()
        .flatten()
        .collect();
    // Create the database first (a command folds the warm-up's spool in and leaves the hook its
    // preferences copy), so that every run below is a question's hook as on a user's machine.
    assert_every_hook_abstained_in_time(&replay_concurrently(&world, &sessions("warmup", 1, 1, 1)));
    ingest_with_the_cli(&world);
    // Every third run meets a locked database (a question's hook does not wait on it: its kill
    // lands in the spool append either way).
    let locked = |n: usize| n % 3 == 2;
    let lock = |n: usize| {
        locked(n).then(|| {
            let c = open(&world);
            c.execute_batch("BEGIN EXCLUSIVE").unwrap();
            c
        })
    };
    // How long a whole run takes on this machine, free and locked: kills are spread over
    // 1.5 times that, so some land before, inside and after the write.
    let calibrate = |n: usize| {
        let _locker = lock(n);
        let started = Instant::now();
        let status = kill_after(&world, &calls[n], None);
        assert!(status.success());
        started.elapsed()
    };
    let (free_run, locked_run) = (calibrate(0), calibrate(2));

    let mut completed = vec![calls[0].tool_use_id.clone(), calls[2].tool_use_id.clone()];
    let mut killed = 0;
    for (n, call) in calls.iter().enumerate().skip(3) {
        let _locker = lock(n);
        let whole = if locked(n) { locked_run } else { free_run };
        let after = Duration::from_micros(rng.below(whole.as_micros() as u64 * 3 / 2 + 1));
        let status = kill_after(&world, call, Some(after));
        if let Some(9) = status.signal() {
            killed += 1;
        } else {
            assert!(status.success(), "{}: {status:?}", call.tool_use_id);
            completed.push(call.tool_use_id.clone());
        }
    }
    eprintln!(
        "{killed} of {} runs killed mid-flight (a run takes {free_run:?}, {locked_run:?} locked)",
        RUNS - 3
    );
    assert!(
        killed > 0 && completed.len() > 2,
        "the kills must land both before and after some runs end"
    );

    drop(open_intact(&world, "after kill -9"));
    let per_call = ingest_spool_and_count(&world, PER_CALL);
    for id in &completed {
        assert_eq!(
            per_call.get(id).copied(),
            Some(PER_CALL),
            "{id} finished (exit 0) but its questions are not all in the log"
        );
    }
}

/// Run `call` with a deadline, writing its payload after `hold_payload`; true when its run
/// said the deadline cut it short.
fn run_with_deadline(
    world: &World,
    call: &Call,
    deadline_ms: u128,
    hold_payload: Duration,
) -> bool {
    let lines_before = world.error_lines().len();
    let mut child = world
        .command()
        .arg("hook")
        .env("ASKHOOK_DEADLINE_MS", deadline_ms.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn askhook");
    std::thread::sleep(hold_payload);
    // A 1 ms deadline can end the hook before it reads: a broken pipe here is fine.
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(&pre_tool_use(world, call));
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "deadline {deadline_ms} ms: {out:?}"
    );
    assert!(
        out.stdout.is_empty(),
        "deadline {deadline_ms} ms printed output"
    );
    world.error_lines()[lines_before..]
        .iter()
        .any(|l| l.contains("deadline of"))
}

/// The deadline timer ends a hook wherever it is: with deadlines spread from 1 ms to three
/// times a measured whole run, it falls in start-up, in the classifier, inside the SQLite
/// write, after it, or not at all. Every run must still exit 0 with empty stdout, and leave
/// each call wholly recorded (or spooled) or wholly absent with a deadline line in the error
/// log; the database must pass its integrity check. Both kinds of run must occur.
#[test]
fn a_deadline_falling_mid_write_exits_0_and_half_writes_nothing() {
    const PER_CALL: usize = 16;
    const RUNS: usize = 24;
    let calls: Vec<Call> = sessions("deadline", RUNS + 1, 1, PER_CALL)
        .into_iter()
        .flatten()
        .collect();
    let world = World::new();
    // The database and the preferences copy exist before the timed runs, as on a user's
    // machine: each run is a question's hook, an append to the spool.
    assert_every_hook_abstained_in_time(&replay_concurrently(&world, &sessions("warmup", 1, 1, 1)));
    ingest_with_the_cli(&world);
    let run = |call: &Call, deadline_ms: u128| {
        run_with_deadline(&world, call, deadline_ms, Duration::ZERO)
    };
    let started = Instant::now();
    assert!(
        !run(&calls[0], DEADLINE.as_millis()),
        "a free run hit the default deadline"
    );
    let whole_ms = started.elapsed().as_millis().max(1);

    let (mut cut_short, mut finished) = (Vec::new(), Vec::new());
    for (n, call) in calls.iter().enumerate().skip(1) {
        // A fast machine can finish a whole hook inside the smallest deadline, so the first
        // run's payload arrives late: its deadline always falls while the hook waits to read.
        let deadline_ms = 1 + whole_ms * 3 * (n as u128 - 1) / RUNS as u128;
        let cut = if n == 1 {
            let cut = run_with_deadline(&world, call, deadline_ms, Duration::from_millis(200));
            assert!(
                cut,
                "a deadline spent waiting for the payload did not say so"
            );
            cut
        } else {
            run(call, deadline_ms)
        };
        if cut {
            cut_short.push(call.tool_use_id.clone());
        } else {
            finished.push(call.tool_use_id.clone());
        }
    }
    let per_call = ingest_spool_and_count(&world, PER_CALL);
    for call in &calls {
        assert!(
            per_call.contains_key(&call.tool_use_id) || cut_short.contains(&call.tool_use_id),
            "{} is not recorded, yet its run did not say the deadline cut it short",
            call.tool_use_id
        );
    }
    for id in &finished {
        assert_eq!(
            per_call.get(id).copied(),
            Some(PER_CALL),
            "{id} finished but is not logged"
        );
    }
    eprintln!(
        "a whole run took {whole_ms} ms; {} of {RUNS} runs cut short, {} finished",
        cut_short.len(),
        finished.len()
    );
    assert!(
        !cut_short.is_empty(),
        "a 1 ms deadline must cut some run short"
    );
    assert!(
        !finished.is_empty(),
        "deadlines of up to 3 whole runs must let some finish"
    );
}
