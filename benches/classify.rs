//! The door classifier, measured: `cargo bench --bench classify`.
//!
//! 1. **What it costs the hook**: microseconds of CPU per classification (the hook runs it in a
//!    fresh process on every question), for a short question, a typical one with descriptions,
//!    and a long multilingual one.
//! 2. **How right it is**: every case of the door corpora (`tests/corpus/doors/*.jsonl`, plus any
//!    folder named by `ASKHOOK_CORPUS_DIRS`, colon-separated) through the classifier alone, as a
//!    confusion table per language and per category. Destructive questions read two-way are
//!    listed by id. With no `ASKHOOK_CORPUS_DIRS`, the tables replace the generated part of
//!    `docs/trust.md`.
//!
//! The same corpora run through the real hook, with targets, in `tests/it/corpus.rs`.

// A benchmark driver reads top to bottom as one script.
#![allow(clippy::too_many_lines)]

use std::hint::black_box;
use std::path::{Path, PathBuf};

use askhook_core::classify::{classify, Door, QuestionText};

#[path = "../tests/it/corpus_cases.rs"]
mod corpus_cases;
use corpus_cases::{load, Outcome, Table};

/// CPU time of this thread in seconds: the machine is shared, wall time would count the other
/// processes' turns.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Microseconds of CPU per call: the best of five rounds.
fn per_call_us(iterations: u32, mut f: impl FnMut()) -> f64 {
    f();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = cpu_seconds();
        for _ in 0..iterations {
            f();
        }
        best = best.min((cpu_seconds() - start) * 1e6 / f64::from(iterations));
    }
    best
}

/// A question to time: text, header, options.
type Sample<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>);

fn costs() {
    let long_question = format!(
        "{} {} {}",
        "本番 DB の全データを消去して作り直しますか？ステージングの設定はそのままです。".repeat(8),
        "Soll ich das alte Datenverzeichnis aufräumen und danach neu anfangen? ".repeat(8),
        "Which of these approaches should we take for the migration of the reporting service? "
            .repeat(8),
    );
    let cases: [Sample; 3] = [
        ("Use tabs or spaces?", "Indent", vec![("Spaces (Recommended)", ""), ("Tabs", "")]),
        (
            "The migration is ready. Run `npx prisma migrate deploy` against the staging database now, or wait until the review is done? This touches the users and orders tables.",
            "Migrate",
            vec![("Run it now", "Applies 3 migrations to staging"), ("Wait for review (Recommended)", "Nothing changes until the PR is approved")],
        ),
        (&long_question, "データ", vec![("はい (Recommended)", "全部消して作り直す"), ("Nein", "Nichts ändern")]),
    ];
    for (question, header, options) in &cases {
        let text = QuestionText {
            question,
            header,
            options,
        };
        let bytes = question.len()
            + header.len()
            + options
                .iter()
                .map(|(l, d)| l.len() + d.len())
                .sum::<usize>();
        let door = classify(&text).door;
        let us = per_call_us(if bytes > 2000 { 200 } else { 2000 }, || {
            black_box(classify(black_box(&text)));
        });
        println!(
            "classify a {bytes}-byte question ({}): {us:.1} µs",
            door.as_str()
        );
    }
}

fn report(dirs: &[PathBuf]) -> String {
    let mut table = Table::default();
    let mut missed = Vec::new();
    for dir in dirs {
        for case in load(dir) {
            let options = case.options();
            let verdict = classify(&QuestionText {
                question: case.text("question"),
                header: case.text("header"),
                options: &options,
            });
            let outcome = match verdict.door {
                Door::OneWay => Outcome::OneWay,
                Door::TwoWay => Outcome::TwoWay,
                Door::Unknown => Outcome::Unknown,
            };
            if verdict.door == Door::TwoWay && (case.one_way || case.lang == "other") {
                missed.push(case.id.clone());
            }
            table.add(&case, outcome);
        }
    }
    let mut out = table.markdown("read two-way");
    out.push_str(&format!(
        "\nDestructive questions read two-way: {}; questions in uncovered languages read two-way: {}{}.\n",
        table.missed(),
        table.uncovered_two_way(),
        if missed.is_empty() { String::new() } else { format!(" ({})", missed.join(", ")) }
    ));
    let flagged: Vec<String> = table
        .flagged()
        .iter()
        .map(|(lang, f)| format!("{lang} {:.0}%", f * 100.0))
        .collect();
    out.push_str(&format!(
        "Reversible questions read one-way or unknown: {}.\n",
        flagged.join(", ")
    ));
    out
}

const BEGIN: &str =
    "<!-- corpus:begin (generated by `cargo bench --bench classify`; do not edit) -->";
const END: &str = "<!-- corpus:end -->";

fn write_docs(tables: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/trust.md");
    let Ok(doc) = std::fs::read_to_string(&path) else {
        return;
    };
    let (Some(a), Some(b)) = (doc.find(BEGIN), doc.find(END)) else {
        println!("(docs/trust.md has no corpus markers: not written)");
        return;
    };
    let new = format!("{}{BEGIN}\n{tables}{}", &doc[..a], &doc[b..]);
    if new != doc {
        std::fs::write(&path, new).expect("write docs/trust.md");
        println!("(docs/trust.md updated)");
    }
}

fn main() {
    costs();
    let extra: Vec<PathBuf> = std::env::var_os("ASKHOOK_CORPUS_DIRS")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    let dirs = if extra.is_empty() {
        vec![corpus_cases::corpus_dir()]
    } else {
        extra.clone()
    };
    let tables = report(&dirs);
    println!("\n{tables}");
    if extra.is_empty() {
        write_docs(&tables);
    }
}
