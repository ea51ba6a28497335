//! What the classifier and the registry cost the hook per process: `cargo bench --bench classify`.
//!
//! The hook runs in a fresh process on every event, so what counts is the cost of one
//! classification and of one first registry lookup (a binary search over the static tables
//! `build.rs` made of the embedded file), not a warmed-up steady state. Prints microseconds per call; no harness, no dependencies.

use std::hint::black_box;
use std::time::Instant;

const QUESTIONS: &[&[&str]] = &[
    &["Which database should we use?", "Database", "PostgreSQL (Recommended)", "Relational, battle-tested", "SQLite", "Embedded, zero setup", "MySQL", "Widely hosted"],
    &["How should we proceed?", "Next step", "Force-push the rebased branch (Recommended)", "Rewrites the remote branch", "Open a new PR", "Keeps history"],
    &["The migration is ready. Run `npx prisma migrate deploy` against the staging database now, or wait until the review is done? This touches the users and orders tables.", "Migrate", "Run it now", "Applies 3 migrations", "Wait for review (Recommended)", "Nothing changes"],
    &["Use tabs or spaces?", "Indent", "Spaces (Recommended)", "", "Tabs", ""],
];

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
    let _ = Instant::now();
    best
}

fn main() {
    for (i, fields) in QUESTIONS.iter().enumerate() {
        let bytes: usize = fields.iter().map(|f| f.len()).sum();
        let us = per_call_us(20_000, || {
            black_box(askhook_core::classify::classify(black_box(fields)));
        });
        println!("classify question {i} ({bytes} bytes): {us:.2} µs");
    }
    let us = per_call_us(2_000, || {
        black_box(askhook_core::registry::Registry::embedded().entries().len());
    });
    println!("list the whole embedded registry (CLI only, not the hook): {us:.2} µs");
    let missing = std::env::temp_dir().join("askhook-bench-no-such-dir/registry.json");
    let us = per_call_us(20_000, || {
        let registry = askhook::registry::load(black_box(&missing)).unwrap();
        black_box(registry.door(black_box("deploy-production")));
        black_box(registry.door(black_box("hook-0123456789")));
    });
    println!("registry::load (no user file) + two door lookups, as the hook does: {us:.2} µs");
}
