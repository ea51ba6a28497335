//! The door corpora through the real hook: every question of `tests/corpus/doors/` is asked in a
//! PreToolUse payload to `askhook hook`, with a `never-ask` preference on its id and one option
//! recommended, exactly the situation in which askhook answers for the user. The targets of
//! issue 11:
//! - no destructive (one-way) question is auto-decided, in any language;
//! - no question in a language askhook has no lexicon for is auto-decided;
//! - at most 10 % of reversible English questions, and 25 % in each other covered language,
//!   still reach the human (read one-way or unknown, or their recommendation not recognised).
//!
//! The table it prints is the report (`cargo test --test it corpus -- --nocapture`); the
//! classifier-only report, per category too, is `cargo bench --bench classify`.

use std::sync::atomic::{AtomicUsize, Ordering};

use askhook_core::question::{Choice, Question};
use serde_json::{json, Value};

use crate::corpus_cases::{corpus_dir, load, Case, Outcome, Table};
use crate::harness::World;

/// The question id the hook will compute for a case.
fn question_id(case: &Case) -> String {
    let options = case
        .options()
        .into_iter()
        .map(|(label, description)| Choice {
            label: label.to_owned(),
            description: description.to_owned(),
        })
        .collect();
    Question::new(0, case.text("question").to_owned(), None, options, false).id
}

/// Ask one case through the hook; whether askhook answered for the user.
fn auto_decided(world: &World, case: &Case, n: usize) -> bool {
    let payload = json!({
        "session_id": "corpus",
        "transcript_path": "/tmp/corpus.jsonl",
        "cwd": "",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "AskUserQuestion",
        "tool_input": { "questions": [case.question] },
        "tool_use_id": format!("toolu_corpus_{n:05}"),
    });
    let out = world.hook_json(payload);
    assert!(
        out.status.success(),
        "{}: the hook exited {:?}",
        case.id,
        out.status
    );
    if out.stdout.is_empty() {
        return false;
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: stdout is not JSON ({e})", case.id));
    let decision = &v["hookSpecificOutput"]["permissionDecision"];
    assert_ne!(decision, "defer", "{}: never defer", case.id);
    decision == "deny" || decision == "allow"
}

/// Ask every case, on two workers (the machine may have two cores; each run is a process):
/// `(case index, auto-decided)`.
fn ask_all(world: &World, cases: &[Case]) -> Vec<(usize, bool)> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(case) = cases.get(i) else { break done };
                        done.push((i, auto_decided(world, case, i)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    })
}

#[test]
fn no_destructive_question_is_auto_decided_and_reversible_ones_mostly_are() {
    let cases = load(&corpus_dir());
    assert!(cases.len() >= 600, "the corpus has {} cases", cases.len());
    let world = World::new();
    let ids: Vec<String> = cases.iter().map(question_id).collect();
    world.prefer_all(ids.iter().map(String::as_str), "never-ask");
    let results = ask_all(&world, &cases);
    // What the hook recorded for each case: its door.
    let doors: std::collections::HashMap<String, String> = world
        .log()
        .iter()
        .map(|row| {
            (
                row["tool_use_id"].as_str().unwrap_or("").to_owned(),
                row["door_type"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let mut table = Table::default();
    let mut wrong = Vec::new();
    let mut asked: std::collections::BTreeMap<&str, (u32, u32)> = std::collections::BTreeMap::new();
    for (i, decided) in results {
        let case = &cases[i];
        let door = doors
            .get(&format!("toolu_corpus_{i:05}"))
            .map_or("", String::as_str);
        let outcome = match door {
            "one-way" => Outcome::OneWay,
            "two-way" => Outcome::TwoWay,
            _ => Outcome::Unknown,
        };
        table.add(case, outcome);
        if decided && (case.one_way || case.lang == "other") {
            wrong.push(format!("{} ({door})", case.id));
        }
        if !case.one_way && case.lang != "other" {
            let entry = asked.entry(case.lang.as_str()).or_default();
            entry.0 += u32::from(!decided);
            entry.1 += 1;
        }
    }
    println!("{}", table.markdown("read two-way"));
    for (lang, flagged) in table.flagged() {
        println!(
            "{lang}: {:.0}% of reversible questions read one-way or unknown",
            flagged * 100.0
        );
    }
    assert!(
        wrong.is_empty(),
        "auto-decided although destructive or unreadable: {wrong:?}"
    );
    assert_eq!(
        table.missed() + table.uncovered_two_way(),
        0,
        "destructive or unreadable questions recorded two-way"
    );
    for (lang, (still_asked, total)) in asked {
        let goal = if lang == "en" { 0.10 } else { 0.25 };
        let share = f64::from(still_asked) / f64::from(total.max(1));
        assert!(
            share <= goal,
            "{lang}: {still_asked} of {total} reversible questions still asked (goal {:.0}%)",
            goal * 100.0
        );
    }
}
