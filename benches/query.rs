//! Query CLI speed at a million rows (`cargo bench --bench query`).
//!
//! Fills (once, cached in `target/askhook-bench-query/<rows>-f2.db`) a database with 1,000,000
//! realistic rows across 50 projects and 5,000 sessions over 180 days, then times the real
//! binary, end to end with its output sent to /dev/null: `log --limit 50`, `log --question
//! ID`, `stats`, `pending`, `export --format csv`, and the hook's PreToolUse + PostToolUse on
//! this database against an empty one. Goals (docs/query.md): log and pending < 50 ms, stats
//! < 500 ms, export ≥ 200k rows/s, hook latency unchanged by the table size.
//!
//! `ASKHOOK_BENCH_ROWS` changes the row count (the cache is per count); `ASKHOOK_BENCH_RUNS`
//! the runs per command (default 7; the median and the best are printed).

// A benchmark driver reads top to bottom as one script; splitting it would scatter the setup.
#![allow(clippy::too_many_lines)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use askhook::store::Store;
use rusqlite::params;

const PROJECTS: usize = 50;
const SESSIONS: usize = 5_000;
const RECURRING_IDS: usize = 300;
const DAYS: i64 = 180;

/// A tiny deterministic PRNG (xorshift64*), so every run builds the same database.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const TOPICS: &[&str] = &[
    "test runner",
    "database",
    "logging format",
    "HTTP framework",
    "feature branch name",
    "build cache",
    "CI checks",
    "error handling strategy",
    "config format",
    "migration plan",
    "dependency upgrade",
    "API versioning",
    "auth provider",
    "deploy target",
    "lint rules",
];

fn fill(db: &Path, rows: usize, now_ms: i64) {
    let _ = std::fs::remove_file(db);
    // The store creates the schema; the bulk fill is the bench's own SQL on its own connection.
    drop(Store::open(db, Duration::from_secs(5)).expect("open bench db"));
    let conn = rusqlite::Connection::open(db).expect("open bench db");
    conn.execute_batch("PRAGMA synchronous = OFF; BEGIN")
        .unwrap();
    let mut stmt = conn
        .prepare(
            "INSERT INTO questions (session_id, tool_use_id, question_index, question_id, id_source,
               question, header, options, multi_select, recommended, door_type, door_rule, tool_name,
               project, cwd, permission_mode, agent_id, prompt_id, outcome, answer, selections,
               free_text, notes, followed_recommendation, afk, error, asked_at, settled_at)
             VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28)",
        )
        .unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let start = now_ms - DAYS * 86_400_000;
    let step = (DAYS * 86_400_000) / rows as i64;
    let mut at = start;
    let mut i = 0;
    let mut call = 0u64;
    while i < rows {
        call += 1;
        let session = rng.below(SESSIONS as u64) as usize;
        let project = session % PROJECTS;
        let session_id = format!("{:08x}-5706-4256-b8f7-{:012x}", session, session * 7919);
        let tool_use_id = format!("toolu_01{call:022}");
        let questions = if rng.chance(15) { 2 } else { 1 };
        for index in 0..questions {
            if i >= rows {
                break;
            }
            let recurring = rng.chance(45);
            let topic = TOPICS[rng.below(TOPICS.len() as u64) as usize];
            let (question_id, id_source) = if recurring {
                (
                    format!(
                        "{}-{}",
                        topic.replace(' ', "-"),
                        rng.below(RECURRING_IDS as u64 / TOPICS.len() as u64)
                    ),
                    "marker",
                )
            } else {
                (format!("hook-{:010x}", rng.below(2_000)), "hash")
            };
            let one_way = rng.chance(4);
            let question = if one_way {
                format!("Delete the old {topic} setup in project-{project:02} and force-push the result? This cannot be undone once the remote is rewritten.")
            } else {
                format!("Which {topic} should we use for the orders service in project-{project:02}? The current setup is documented in docs/{topic}.md.")
            };
            let n_opts = 2 + rng.below(3) as usize;
            let labels: Vec<String> = (0..n_opts)
                .map(|k| {
                    if k == 0 {
                        format!("Option {k} (Recommended)")
                    } else {
                        format!("Option {k}")
                    }
                })
                .collect();
            let options = serde_json::to_string(
                &labels
                    .iter()
                    .map(|l| serde_json::json!({"label": l, "description": format!("What choosing {l} means for the {topic}, in one sentence.")}))
                    .collect::<Vec<_>>(),
            )
            .unwrap();
            let roll = rng.below(100);
            let outcome = match roll {
                0..=69 => "answered",
                70..=79 => "auto-decided",
                80..=88 => "declined",
                89..=93 => "failed",
                _ => "pending",
            };
            let followed = rng.chance(82);
            let answer = match outcome {
                "answered" => Some(if followed {
                    labels[0].clone()
                } else {
                    labels[1].clone()
                }),
                "auto-decided" => Some(labels[0].clone()),
                _ => None,
            };
            let settled = match outcome {
                "pending" => None,
                "auto-decided" => Some(at),
                _ => Some(at + 2_000 + rng.below(120_000) as i64),
            };
            stmt.execute(params![
                session_id,
                tool_use_id,
                i64::from(index),
                question_id,
                id_source,
                question,
                topic,
                options,
                false,
                labels[0],
                if one_way { "one-way" } else { "two-way" },
                if one_way { Some("delete") } else { None },
                if rng.chance(5) {
                    "mcp__askmcp__AskUserQuestion"
                } else {
                    "AskUserQuestion"
                },
                format!("/home/dev/src/project-{project:02}"),
                format!("/home/dev/src/project-{project:02}"),
                "auto",
                Option::<String>::None,
                format!("prompt-{call}"),
                outcome,
                answer,
                Option::<String>::None,
                Option::<String>::None,
                Option::<String>::None,
                if outcome == "answered" {
                    Some(followed)
                } else {
                    None
                },
                false,
                if outcome == "failed" {
                    Some("relay: nobody answered (timeout)")
                } else {
                    None
                },
                at,
                settled,
            ])
            .unwrap();
            i += 1;
        }
        at += step * i64::from(questions);
    }
    drop(stmt);
    // No ANALYZE: askhook never runs it, so the plans measured here are the ones a user's
    // database (without sqlite_stat tables) gets.
    conn.execute_batch("COMMIT; PRAGMA wal_checkpoint(TRUNCATE)")
        .unwrap();
}

fn time_runs(label: &str, runs: usize, mut cmd: impl FnMut() -> Command) -> Duration {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut c = cmd();
        c.stdout(Stdio::null()).stderr(Stdio::inherit());
        let t = Instant::now();
        let status = c.status().expect("run askhook");
        times.push(t.elapsed());
        assert!(status.success(), "{label} failed");
    }
    times.sort();
    let median = times[times.len() / 2];
    println!(
        "{label:<34} median {:>8.1} ms   best {:>8.1} ms",
        median.as_secs_f64() * 1000.0,
        times[0].as_secs_f64() * 1000.0
    );
    median
}

fn main() {
    let rows: usize = std::env::var("ASKHOOK_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let runs: usize = std::env::var("ASKHOOK_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/askhook-bench-query");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(format!("{rows}-f2.db"));
    let now_ms = askhook::sys::time::now_ms();
    let complete = db.exists()
        && Store::open(&db, Duration::from_secs(30))
            .and_then(|s| s.counts())
            .map(|c| c.questions)
            .is_ok_and(|n| n as usize >= rows);
    if !complete {
        let t = Instant::now();
        fill(&db, rows, now_ms);
        println!("filled {rows} rows in {:.1} s", t.elapsed().as_secs_f64());
    }
    // Open once so any pending migration runs before timing.
    drop(Store::open(&db, Duration::from_secs(30)).expect("migrate"));
    let size = std::fs::metadata(&db).map_or(0, |m| m.len());
    println!(
        "database: {} ({} rows, {:.0} MB)",
        db.display(),
        rows,
        size as f64 / 1e6
    );
    let bin = env!("CARGO_BIN_EXE_askhook");
    let askhook = |args: &[&str]| {
        let mut c = Command::new(bin);
        c.env_clear()
            .env("ASKHOOK_DB", &db)
            .env("NO_COLOR", "1")
            .args(args);
        c
    };
    let question_id = "database-7";
    time_runs("log --limit 50", runs, || {
        askhook(&["log", "--limit", "50"])
    });
    time_runs("log --limit 50 --json", runs, || {
        askhook(&["log", "--limit", "50", "--json"])
    });
    time_runs(&format!("log --question {question_id}"), runs, || {
        askhook(&["log", "--question", question_id])
    });
    time_runs("log --outcome answered --limit 50", runs, || {
        askhook(&["log", "--outcome", "answered", "--limit", "50"])
    });
    time_runs("pending", runs, || askhook(&["pending"]));
    time_runs("pending --json", runs, || askhook(&["pending", "--json"]));
    time_runs("stats", runs, || askhook(&["stats"]));
    time_runs("stats --since 7d", runs, || {
        askhook(&["stats", "--since", "7d"])
    });
    let export = time_runs("export --format csv", runs.min(3), || {
        askhook(&["export", "--format", "csv"])
    });
    println!(
        "{:<34} {:>8.0} rows/s",
        "export --format csv throughput",
        rows as f64 / export.as_secs_f64()
    );

    // The hook on this database against an empty one.
    let payload = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/captured/basic--01-PreToolUse.json"),
    )
    .unwrap();
    let post = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/captured/basic--02-PostToolUse.json"),
    )
    .unwrap();
    let empty = dir.join("empty.db");
    let _ = std::fs::remove_file(&empty);
    for (label, target) in [
        ("hook Pre+Post, empty db", &empty),
        ("hook Pre+Post, this db", &db),
    ] {
        time_runs(label, runs, || {
            // One process per event, as Claude Code runs it; both events per sample.
            let mut c = Command::new("sh");
            let mut script = String::new();
            for (i, p) in [&payload, &post].iter().enumerate() {
                let file = dir.join(format!("payload-{i}.json"));
                std::fs::write(&file, p).unwrap();
                script.push_str(&format!(
                    "'{bin}' hook < '{}' > /dev/null; ",
                    file.display()
                ));
            }
            c.env_clear()
                .env("ASKHOOK_DB", target)
                .env("ASKHOOK_HOME", &dir)
                .arg("-c")
                .arg(script);
            c
        });
    }
}
