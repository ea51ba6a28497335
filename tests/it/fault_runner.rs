//! The fault-injection runner: issue #12's black-box pass, rerunnable. Each run starts one to
//! four hooks at once on one data folder, each with its own question (PreToolUse or PostToolUse,
//! one to four questions, now and then a multi-MB one), a third of the runs against a database
//! held locked (so the hooks spool), and hits each hook with a random fault at a random moment:
//! none, `kill -9`, or SIGTERM, SIGINT or SIGHUP. Where root may mount a tmpfs, a second phase
//! runs the same on a 512 KiB disk that fills up.
//!
//! After every run `PRAGMA integrity_check` is ok. At the end, once the CLI ingested the spool:
//! every hook that exited 0 has all its rows, exactly once (on the tiny disk: or it said on
//! stderr that its event was lost); a hook killed with -9 left all its rows or none; a signalled
//! hook exited 0 (unless the signal beat its handler's installation at process start: the
//! runner reads the hook's `SigCgt` mask just before sending, counts those, and fails on any
//! other).
//!
//! ```sh
//! cargo test --test it fault_runner -- --nocapture              # CI: 30 runs
//! ASKHOOK_FAULT_RUNS=2000 cargo test --release --test it fault_runner -- --nocapture
//! ASKHOOK_TEST_SEED=… (printed by every run) replays one; ASKHOOK_FAULT_VERBOSE=1 shows
//! how each hook ended
//! ```

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::faults::{call, finish_within, spawn_hook, warm_up};
use crate::harness::World;
use crate::load::{ingest_with_the_cli, pre_tool_use, rows, Call, Rng};

/// The hooks' budgets: a short busy wait, so locked runs spool; a long deadline, because the
/// deadline is not one of this runner's faults (`load.rs` cuts runs with it) and a debug
/// build reads a multi-MB payload slowly on a loaded machine.
const ENV: &[(&str, &str)] = &[
    ("ASKHOOK_BUSY_TIMEOUT_MS", "50"),
    ("ASKHOOK_DEADLINE_MS", "15000"),
];

/// What happens to a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    Kill,
    Signal(libc::c_int),
}

/// One hook started by the runner, and how it ended.
struct Launched {
    call: Call,
    fault: Fault,
    /// For a signal: whether the hook had its handler installed when the signal was sent.
    caught: bool,
    out: Output,
}

/// What the runner did, for the summary.
#[derive(Debug, Default)]
struct Tally {
    runs: usize,
    hooks: usize,
    exited_0: usize,
    killed: usize,
    signalled_exit_0: usize,
    signalled_too_early: usize,
    locked_runs: usize,
    said_lost: usize,
    integrity_checks: usize,
}

fn runs() -> usize {
    std::env::var("ASKHOOK_FAULT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30)
}

/// A PostToolUse payload answering every question of `c` (inserted settled: no Pre ran).
fn post_tool_use(world: &World, c: &Call) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(&pre_tool_use(world, c)).unwrap();
    let answers: serde_json::Map<String, Value> = c
        .questions
        .iter()
        .map(|q| (q.text.clone(), json!(q.answer)))
        .collect();
    v["hook_event_name"] = json!("PostToolUse");
    v["tool_response"] =
        json!({"questions": v["tool_input"]["questions"].clone(), "answers": answers});
    serde_json::to_vec(&v).unwrap()
}

fn pick_fault(rng: &mut Rng) -> Fault {
    match rng.below(8) {
        0..=2 => Fault::None,
        3 | 4 => Fault::Kill,
        5 => Fault::Signal(libc::SIGTERM),
        6 => Fault::Signal(libc::SIGINT),
        _ => Fault::Signal(libc::SIGHUP),
    }
}

/// One run: start the hooks, fault them at random moments within twice `span`, wait for all.
fn one_run(world: &World, rng: &mut Rng, run: usize, span: Duration) -> (Vec<Launched>, bool) {
    let holder = (rng.below(3) == 0).then(|| lock(world)).flatten();
    let locked = holder.is_some();
    let started = Instant::now();
    let mut hooks = Vec::new();
    for i in 0..=rng.below(4) as usize {
        // Now and then one multi-MB question (a PreToolUse, so the payload stays under the
        // 4 MiB stdin cap; debug builds read it slowly, hence at most 2 MiB).
        let big = rng.below(8) == 0;
        let (per_call, text) = if big {
            (1, (1 << 20) + rng.below(1 << 20) as usize)
        } else {
            (1 + rng.below(4) as usize, 0)
        };
        let c = call(&format!("run{run}"), i, per_call, text);
        let payload = if big || rng.below(2) == 0 {
            pre_tool_use(world, &c)
        } else {
            post_tool_use(world, &c)
        };
        let child = spawn_hook(world, payload, ENV);
        let when = Duration::from_micros(rng.below(span.as_micros() as u64 * 2 + 1));
        hooks.push((c, pick_fault(rng), when, child));
    }
    let pids: Vec<_> = hooks.iter().map(|h| h.3.id() as libc::pid_t).collect();
    let plan: Vec<_> = hooks.iter().map(|h| (h.1, h.2)).collect();
    let caught = deliver(&plan, &pids, started);
    let launched = hooks
        .into_iter()
        .zip(caught)
        .map(|((c, fault, _, child), caught)| {
            let (out, _) = finish_within(child, Duration::from_secs(120));
            Launched {
                call: c,
                fault,
                caught,
                out,
            }
        })
        .collect();
    drop(holder);
    (launched, locked)
}

/// Send each hook its fault at its moment (after `started`); for each, whether a signal found
/// its handler installed (`SigCgt` in `/proc/<pid>/status`, read just before sending: a handler
/// can only appear in between, never go).
fn deliver(plan: &[(Fault, Duration)], pids: &[libc::pid_t], started: Instant) -> Vec<bool> {
    let mut order: Vec<usize> = (0..plan.len()).collect();
    order.sort_by_key(|&i| plan[i].1);
    let mut caught = vec![false; plan.len()];
    for i in order {
        let signal = match plan[i].0 {
            Fault::None => continue,
            Fault::Kill => libc::SIGKILL,
            Fault::Signal(s) => s,
        };
        std::thread::sleep(plan[i].1.saturating_sub(started.elapsed()));
        caught[i] = catches(pids[i], signal);
        // SAFETY: signalling our own child by its pid (not reaped yet, so still ours).
        unsafe { libc::kill(pids[i], signal) };
    }
    caught
}

/// Whether process `pid` has a handler installed for `signal`.
fn catches(pid: libc::pid_t, signal: libc::c_int) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (signal - 1)) != 0)
}

/// How long an unfaulted hook takes here (faults are spread over twice that).
fn calibrate(world: &World) -> Duration {
    let started = Instant::now();
    warm_up(world);
    started.elapsed().max(Duration::from_millis(5))
}

/// Classify how each hook ended; panic on any that broke a promise.
fn judge(launched: &[Launched], tiny_disk: bool, tally: &mut Tally) -> Vec<(Call, bool)> {
    let mut expect = Vec::new();
    for l in launched {
        tally.hooks += 1;
        let said_lost = String::from_utf8_lossy(&l.out.stderr).contains("this event is lost");
        tally.said_lost += usize::from(said_lost);
        let status = l.out.status;
        let what = format!("{} ({:?})", l.call.tool_use_id, l.fault);
        if std::env::var_os("ASKHOOK_FAULT_VERBOSE").is_some() {
            eprintln!(
                "{what}: {status:?} {}",
                String::from_utf8_lossy(&l.out.stderr)
            );
        }
        if status.code() == Some(0) {
            assert!(
                l.out.stdout.is_empty(),
                "{what}: printed {:?}",
                l.out.stdout
            );
            tally.exited_0 += 1;
            if matches!(l.fault, Fault::Signal(_)) {
                tally.signalled_exit_0 += 1;
            }
            assert!(
                !said_lost || tiny_disk,
                "{what} lost its event: {:?}",
                l.out
            );
            // Must be recorded, unless it said it could not be (only on the tiny disk).
            expect.push((l.call.clone(), !said_lost));
        } else if l.fault == Fault::Kill && status.signal() == Some(libc::SIGKILL) {
            tally.killed += 1;
            expect.push((l.call.clone(), false));
        } else if let (Fault::Signal(s), Some(got)) = (l.fault, status.signal()) {
            assert_eq!(s, got, "{what}: {status:?}");
            assert!(
                !l.caught,
                "{what} died by a signal its handler was installed for"
            );
            tally.signalled_too_early += 1;
            expect.push((l.call.clone(), false));
        } else {
            panic!("{what} ended {status:?}: {:?}", l.out);
        }
    }
    expect
}

/// Hold the database's write lock (until dropped), when it can be taken: on the full tmpfs the
/// shared-memory file it needs may not be able to grow.
fn lock(world: &World) -> Option<rusqlite::Connection> {
    let holder = rusqlite::Connection::open(world.db()).ok()?;
    holder.busy_timeout(Duration::from_secs(5)).ok()?;
    holder.execute_batch("BEGIN EXCLUSIVE").ok()?;
    Some(holder)
}

/// Open the database and check it passes `PRAGMA integrity_check`. The WAL index is kept in
/// this process's memory (`locking_mode = EXCLUSIVE`, no other process runs between runs): on
/// the full tmpfs the shared-memory file may not be able to grow, which says nothing about the
/// database.
fn intact(world: &World, when: &str) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(world.db()).expect("the database opens");
    conn.busy_timeout(Duration::from_secs(5)).unwrap();
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
        .unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap_or_else(|e| panic!("PRAGMA integrity_check {when}: {e}"));
    assert_eq!(check, "ok", "the database is damaged {when}");
    conn
}

/// Every call that must be recorded has all its rows once (or, on a full disk, still waits in
/// the spool); every other has all or none.
fn check_rows(world: &World, expect: &[(Call, bool)]) {
    let mut per_call: BTreeMap<String, usize> = BTreeMap::new();
    for (_, id, _) in rows(&intact(world, "at the end")).into_keys() {
        *per_call.entry(id).or_default() += 1;
    }
    let spool = std::fs::read(world.askhook_home.join("askhook.db.spool")).unwrap_or_default();
    let in_spool = |id: &str| spool.windows(id.len()).any(|w| w == id.as_bytes());
    for (c, must) in expect {
        let n = per_call.get(&c.tool_use_id).copied().unwrap_or(0);
        let all = c.questions.len();
        if *must && n == 0 && in_spool(&c.tool_use_id) {
            continue;
        }
        if *must {
            assert_eq!(
                n, all,
                "{} exited 0 but has {n} of {all} rows",
                c.tool_use_id
            );
        } else {
            assert!(
                n == 0 || n == all,
                "{} is half written: {n} of {all}",
                c.tool_use_id
            );
        }
    }
}

/// `runs` runs on `world`; returns what must be in the log.
fn phase(
    world: &World,
    rng: &mut Rng,
    runs: usize,
    tiny: bool,
    tally: &mut Tally,
) -> Vec<(Call, bool)> {
    let span = calibrate(world);
    let mut expect = Vec::new();
    for run in 0..runs {
        let (launched, locked) = one_run(world, rng, tally.runs + run, span);
        tally.locked_runs += usize::from(locked);
        expect.extend(judge(&launched, tiny, tally));
        drop(intact(world, &format!("after run {run}")));
        tally.integrity_checks += 1;
    }
    tally.runs += runs;
    expect
}

#[test]
fn fault_runner_every_hook_that_exited_0_has_its_rows_exactly_once() {
    let mut rng = Rng::seeded();
    let mut tally = Tally::default();
    let world = World::new();
    let expect = phase(&world, &mut rng, runs(), false, &mut tally);
    ingest_with_the_cli(&world);
    check_rows(&world, &expect);
    let quarantined = std::fs::metadata(world.askhook_home.join("askhook.db.spool.quarantine"))
        .map_or(0, |m| m.len());

    let tiny = World::new();
    if let Some(_disk) = crate::faults::Tmpfs::mount(&tiny.askhook_home, "512k") {
        let expect = phase(&tiny, &mut rng, runs().div_ceil(3), true, &mut tally);
        // The CLI may not be able to ingest on a full disk; what is in the log must be right.
        let _ = tiny.run(&["log", "--json"]).output();
        check_rows(&tiny, &expect);
    }
    eprintln!(
        "fault runner: {tally:?}; {quarantined} bytes of torn spool records quarantined; \
         PRAGMA integrity_check ok every time"
    );
    assert!(
        tally.exited_0 > 0 && tally.killed + tally.signalled_exit_0 > 0,
        "faults landed"
    );
}
