//! The hook benchmark: what `askhook hook` costs against the cheapest possible hook, the floor
//! (`examples/floor.rs`: read stdin, exit 0, same release profile).
//!
//! `cargo bench --bench hook` builds the release binaries, then spawns real processes: a
//! warm-up, then `ASKHOOK_BENCH_RUNS` (default 200) timed runs of every case, round-robin so a
//! change in machine load hits every case alike. For each case it reports min, median, p95 and
//! p99 wall time (spawn to reaped), each also as a ratio to the floor's same statistic in the
//! same run, and peak RSS.
//!
//! Peak RSS comes from separate runs under `/usr/bin/time -f %M` (GNU time `fork`s the child and
//! reads its `ru_maxrss` from `wait4`). Our own `wait4` would not do: `std` spawns with `vfork`
//! semantics and Linux carries the parent's high-water mark into the child at `exec`, so every
//! child would report the bench's own RSS. Without `/usr/bin/time` the column says so.
//!
//! Cases: the floor; a payload that is not AskUserQuestion (the database must not be created);
//! PreToolUse recording a pending question and abstaining; PreToolUse auto-deciding (a
//! `never-ask` preference on a registry two-way id named by a marker); PostToolUse settling an
//! answer (its PreToolUse runs untimed just before); the pending and auto-decide cases with 50
//! rules stored (none matching, then one matching the question, which is decided by it); the
//! pending case with a config file present; an auto-decision in answer mode (`decide_with =
//! "answer"`: an `allow` with every answer); and the pending, auto and settle cases again on a
//! database of 1,000,000 rows. The filled database is made once with one SQL transaction and
//! cached under `target/askhook-bench/`; every run works on a fresh copy.
//!
//! `ASKHOOK_BENCH_AB=path/to/askhook` adds, for every askhook case, a twin run with that binary
//! in the same rounds (named `<case>·B`): an A/B that machine load hits alike.
//!
//! A full run (≥ 200 runs) rewrites the generated part of `docs/performance.md`; a quick run
//! (`ASKHOOK_BENCH_RUNS=20 cargo bench --bench hook`) only prints. Set `ASKHOOK_BENCH_DOCS=1`
//! to write the docs from a quick run anyway, `ASKHOOK_BENCH_ROWS` to change the fill size, and
//! `ASKHOOK_BENCH_BIN=path/to/askhook` to measure a candidate build instead (docs untouched).

// A benchmark driver reads top to bottom as one script; splitting it would scatter the setup.
#![allow(clippy::too_many_lines)]

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use rusqlite::Connection;

/// The binary under test: the one cargo built with the bench (= release) profile, or a
/// candidate build named by `ASKHOOK_BENCH_BIN` (to A/B a change against the same floor). Run
/// from a copy (see [`bench_copy`]).
fn askhook() -> &'static Path {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let source = std::env::var_os("ASKHOOK_BENCH_BIN").map_or_else(
            || PathBuf::from(env!("CARGO_BIN_EXE_askhook")),
            PathBuf::from,
        );
        bench_copy(&source, "askhook")
    })
}

/// The second binary of an A/B (`ASKHOOK_BENCH_AB`), run in the same rounds, from a copy.
fn ab() -> Option<&'static Path> {
    static BIN: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        std::env::var_os("ASKHOOK_BENCH_AB").map(|p| bench_copy(Path::new(&p), "askhook-b"))
    })
    .as_deref()
}

/// A copy of `source` under `target/askhook-bench/bin/`. Every binary runs from a fresh copy in
/// one folder: a binary cargo has just written measured 10–15 % slower to start than a copy of
/// itself, which would skew any comparison between a fresh build and another binary.
fn bench_copy(source: &Path, name: &str) -> PathBuf {
    let dir = bench_dir().join("bin");
    std::fs::create_dir_all(&dir).expect("create the bench bin folder");
    let copy = dir.join(name);
    let _ = std::fs::remove_file(&copy);
    std::fs::copy(source, &copy)
        .unwrap_or_else(|e| panic!("copy {} for the bench: {e}", source.display()));
    copy
}

/// The registry id the auto-decide case names with a marker (two-way in the embedded registry).
const AUTO_ID: &str = "enable-cache";

/// How many rules the rule cases store, and the words their patterns match (one each).
const RULES: usize = 50;
const RULE_WORDS: [&str; 10] = [
    "linter",
    "bundler",
    "formatter",
    "runner",
    "router",
    "logger",
    "queue",
    "mailer",
    "tracer",
    "scheduler",
];

/// What the goals of issue 5 allow, as ratios to the floor in the same run.
const GOAL_NOT_OURS: f64 = 1.3;
const GOAL_MEDIAN: f64 = 2.5;
const GOAL_P99: f64 = 4.0;
const GOAL_RSS_KIB: u64 = 10 * 1024;

/// GNU time, for peak RSS; and how many runs of each case it measures.
const GNU_TIME: &str = "/usr/bin/time";
const RSS_RUNS: usize = 25;

fn main() {
    let runs = env_number("ASKHOOK_BENCH_RUNS").unwrap_or(200).max(5) as usize;
    let fill_rows = env_number("ASKHOOK_BENCH_ROWS").unwrap_or(1_000_000);
    let warm_up = (runs / 10).clamp(5, 20);
    let work = bench_dir().join("work");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("create the bench work folder");

    let floor = bench_copy(&build_floor(), "floor");
    eprintln!(
        "askhook: {}\nfloor:   {}",
        askhook().display(),
        floor.display()
    );
    let cold = check_cold_paths(&work.join("cold"));

    let empty = World::new(&work.join("empty"));
    empty.set_auto_preference();
    let big = World::new(&work.join("big"));
    big.install_db(&filled_db(fill_rows));
    // The end of a turn ingests what the spool holds: each has its own world, so it ingests
    // its own question only.
    let turn = World::new(&work.join("turn"));
    turn.set_auto_preference();
    let big_turn = World::new(&work.join("big-turn"));
    big_turn.install_db(&filled_db(fill_rows));
    let not_ours = World::new(&work.join("not-ours"));
    let rules = World::new(&work.join("rules"));
    rules.add_rules();
    let config = World::new(&work.join("config"));
    config.set_auto_preference();
    config.write_config("decide_with = \"deny\"\ncontext_from_history = false\n");
    let answer = World::new(&work.join("answer"));
    answer.set_auto_preference();
    answer.write_config("decide_with = \"answer\"\n");

    let mut cases = vec![
        Case::new("floor", "floor", Kind::Floor, &empty),
        Case::new(
            "not-ours",
            "`hook`, not AskUserQuestion",
            Kind::NotOurs,
            &not_ours,
        ),
        Case::new(
            "pending",
            "PreToolUse, pending, abstain",
            Kind::Pending,
            &empty,
        ),
        Case::new(
            "pending-long",
            "PreToolUse, pending, 4 long questions in 4 languages",
            Kind::PendingLong,
            &empty,
        ),
        Case::new("auto", "PreToolUse, auto-decide", Kind::Auto, &empty),
        Case::new("settle", "PostToolUse, settle", Kind::Settle, &empty),
        Case::new(
            "pending-rules",
            "PreToolUse, pending, 50 rules (none match)",
            Kind::Pending,
            &rules,
        ),
        Case::new(
            "auto-rule",
            "PreToolUse, auto-decide by 1 of 50 rules",
            Kind::AutoRule,
            &rules,
        ),
        Case::new(
            "pending-config",
            "PreToolUse, pending, config file present",
            Kind::Pending,
            &config,
        ),
        Case::new(
            "auto-answer",
            "PreToolUse, auto-decide, answer mode (allow)",
            Kind::AutoAnswer,
            &answer,
        ),
        Case::new(
            "pending-1m",
            "PreToolUse, pending, abstain",
            Kind::Pending,
            &big,
        )
        .big(),
        Case::new("auto-1m", "PreToolUse, auto-decide", Kind::Auto, &big).big(),
        Case::new("settle-1m", "PostToolUse, settle", Kind::Settle, &big).big(),
        Case::new(
            "turn",
            "Stop after a question and its answer (appends; folds the spool in past 128 KiB)",
            Kind::TurnEnd,
            &turn,
        ),
        Case::new(
            "turn-1m",
            "Stop after a question and its answer (appends; folds the spool in past 128 KiB)",
            Kind::TurnEnd,
            &big_turn,
        )
        .big(),
    ];
    if let Some(b) = ab() {
        let twins: Vec<Case<'_>> = cases
            .iter()
            .filter(|c| c.kind != Kind::Floor)
            .map(|c| c.twin(b))
            .collect();
        cases.extend(twins);
    }
    let started = Instant::now();
    for round in 0..warm_up + runs {
        for case in &mut cases {
            let how = if round < warm_up {
                Measure::WarmUp
            } else {
                Measure::Wall
            };
            case.run_once(&floor, round, how);
        }
    }
    if Path::new(GNU_TIME).exists() {
        for round in 0..runs.min(RSS_RUNS) {
            for case in &mut cases {
                case.run_once(&floor, warm_up + runs + round, Measure::PeakRss);
            }
        }
    }
    let took = started.elapsed();
    assert!(
        !not_ours.db().exists() && !not_ours.askhook_home().exists(),
        "a payload that is not AskUserQuestion created {}",
        not_ours.askhook_home().display()
    );
    let report = Report {
        runs,
        warm_up,
        fill_rows,
        cases: cases.iter().map(Case::summary).collect(),
        floor_bytes: file_size(&floor),
        askhook_bytes: file_size(askhook()),
        cold,
        took,
    };
    let table = report.markdown();
    println!("{table}");
    let failed = report.missed_goals();
    for goal in &failed {
        println!("MISSED: {goal}");
    }
    if std::env::var_os("ASKHOOK_BENCH_BIN").is_some() {
        println!("(candidate binary: docs/performance.md not rewritten)");
    } else if runs >= 200 || std::env::var_os("ASKHOOK_BENCH_DOCS").is_some() {
        write_docs(&table);
    } else {
        println!("(quick run of {runs}: docs/performance.md not rewritten)");
    }
    let _ = std::fs::remove_dir_all(&work);
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse().ok()
}

/// `target/askhook-bench/` (the bench binary lives in `target/release/deps/`).
fn bench_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let target = exe.ancestors().nth(3).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"),
        Path::to_path_buf,
    );
    target.join("askhook-bench")
}

/// Build `examples/floor.rs` with the bench profile (the release profile) and return its path.
fn build_floor() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--profile",
            "bench",
            "--example",
            "floor",
        ])
        .args(["--message-format", "json-render-diagnostics"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(Stdio::inherit())
        .output()
        .expect("run cargo to build the floor");
    assert!(out.status.success(), "building examples/floor.rs failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "floor")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .expect("cargo reported no floor executable")
}

fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// A private HOME / `ASKHOOK_HOME` / project for a group of cases.
struct World {
    root: PathBuf,
}

impl World {
    fn new(root: &Path) -> World {
        for dir in ["home", "proj/.git"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
        }
        World {
            root: root.to_path_buf(),
        }
    }

    fn askhook_home(&self) -> PathBuf {
        self.root.join("askhook")
    }

    fn db(&self) -> PathBuf {
        self.askhook_home().join("askhook.db")
    }

    fn project(&self) -> PathBuf {
        self.root.join("proj")
    }

    /// A scrubbed environment pointing into this world (no agent markers, so `pref set` works).
    fn command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("HOME", self.root.join("home"))
            .env("ASKHOOK_HOME", self.askhook_home())
            .env("CLAUDE_CONFIG_DIR", self.root.join("home/.claude"))
            .env("PATH", "/usr/bin:/bin")
            .current_dir(self.project());
        cmd
    }

    fn askhook(&self, args: &[&str]) -> std::process::Output {
        self.command(askhook())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run askhook")
    }

    fn set_auto_preference(&self) {
        let out = self.askhook(&["pref", "set", AUTO_ID, "never-ask", "--force"]);
        assert!(
            out.status.success(),
            "askhook pref set {AUTO_ID} never-ask: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// 50 rules, each matching questions that name one of [`RULE_WORDS`] and a number.
    fn add_rules(&self) {
        for i in 0..RULES {
            let word = RULE_WORDS[i % RULE_WORDS.len()];
            let out = self.askhook(&[
                "rule",
                "add",
                &format!("r{i:02}"),
                "--question",
                &format!(r"\b{word} {i}\b"),
                "--option",
                "^yes",
                "never-ask",
            ]);
            assert!(
                out.status.success(),
                "askhook rule add: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }

    fn write_config(&self, text: &str) {
        std::fs::create_dir_all(self.askhook_home()).unwrap();
        std::fs::write(self.askhook_home().join("config.toml"), text).unwrap();
    }

    /// Put a copy of `db` in place as this world's database.
    fn install_db(&self, db: &Path) {
        std::fs::create_dir_all(self.askhook_home()).unwrap();
        std::fs::copy(db, self.db()).expect("copy the filled database");
        // As on a user's machine, where any command leaves the hook its copy of the standing
        // preferences beside the database (`store::standing`).
        let out = self.askhook(&["pref", "list"]);
        assert!(out.status.success(), "askhook pref list: {out:?}");
        let mut standing = self.db().into_os_string();
        standing.push(".standing");
        assert!(
            Path::new(&standing).exists(),
            "the CLI wrote the hook's copy of the preferences"
        );
    }
}

/// Bumped whenever the fill changes, so a cached database of an older fill is not reused.
const FILL_FORMAT: u32 = 2;

/// The filled database: made once (per row count and schema version), then reused.
fn filled_db(rows: u64) -> PathBuf {
    // The schema comes from the binary itself: `pref set` creates and migrates the database,
    // and sets the auto-decide preference the 1M cases need.
    let scratch = World::new(&bench_dir().join("work/fill"));
    scratch.set_auto_preference();
    let version: i64 = Connection::open(scratch.db())
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    let cached = bench_dir().join(format!("filled-{rows}-v{version}-f{FILL_FORMAT}.db"));
    if cached.exists() {
        eprintln!("filled database: {} (cached)", cached.display());
        return cached;
    }
    eprintln!(
        "filling a database with {rows} rows (once; cached as {})",
        cached.display()
    );
    let started = Instant::now();
    let conn = Connection::open(scratch.db()).unwrap();
    conn.execute_batch(&fill_sql(rows))
        .expect("fill the database");
    // No ANALYZE: askhook never runs it, so a user's database has no sqlite_stat tables, and
    // with them every hook open would read and decode them (10 pages at 1M rows).
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    drop(conn);
    let partial = cached.with_extension("partial");
    std::fs::copy(scratch.db(), &partial).unwrap();
    std::fs::rename(&partial, &cached).unwrap();
    eprintln!(
        "filled in {:.1?} ({} MiB)",
        started.elapsed(),
        file_size(&cached) >> 20
    );
    cached
}

/// One transaction of `rows` realistic rows: 4 questions a session, 2 a call, a year of
/// history, 5,000 distinct question ids, mostly answered, some auto-decided, a few pending.
fn fill_sql(rows: u64) -> String {
    format!(
        "BEGIN;
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < {rows})
        INSERT INTO questions (
            session_id, tool_use_id, question_index, question_id, id_source, question, header,
            options, multi_select, recommended, door_type, door_rule, tool_name, project, cwd,
            permission_mode, agent_id, prompt_id, outcome, answer, selections, free_text, notes,
            followed_recommendation, afk, error, asked_at, settled_at)
        SELECT
            printf('fill-session-%08d', i / 4),
            printf('toolu_fill_%09d', i / 2),
            i % 2,
            printf('hash-%010x', (i * 7919) % 5000),
            'hash',
            printf('Fill question %d: which approach should we use for component %d?', i, i % 97),
            'Approach',
            '[{{\"label\":\"X (Recommended)\",\"description\":\"The recommended approach X.\"}},{{\"label\":\"Y\",\"description\":\"The alternative approach Y.\"}}]',
            0,
            'X (Recommended)',
            CASE WHEN i % 50 = 0 THEN 'one-way' ELSE 'two-way' END,
            CASE WHEN i % 50 = 0 THEN 'delete' ELSE NULL END,
            'AskUserQuestion',
            printf('/home/user/src/project-%d', i % 20),
            printf('/home/user/src/project-%d', i % 20),
            'default',
            NULL,
            printf('prompt-%08d', i / 4),
            CASE WHEN i % 10 = 0 THEN 'auto-decided' WHEN i % 97 = 0 THEN 'pending' ELSE 'answered' END,
            CASE WHEN i % 97 = 0 THEN NULL WHEN i % 3 = 0 THEN 'Y' ELSE 'X (Recommended)' END,
            NULL, NULL, NULL,
            CASE WHEN i % 97 = 0 OR i % 10 = 0 THEN NULL ELSE (i % 3 <> 0) END,
            0,
            NULL,
            1733000000000 + i * 31536,
            CASE WHEN i % 97 = 0 THEN NULL ELSE 1733000000000 + i * 31536 + 4000 END
        FROM n;
        COMMIT;"
    )
}

/// `--version` and `--help` must not open (or create) the database.
fn check_cold_paths(root: &Path) -> Vec<(String, bool)> {
    let world = World::new(root);
    ["--version", "--help"]
        .into_iter()
        .map(|flag| {
            let out = world.askhook(&[flag]);
            assert!(out.status.success(), "askhook {flag} failed");
            let untouched = !world.db().exists() && !world.askhook_home().exists();
            assert!(
                untouched,
                "askhook {flag} created {}",
                world.askhook_home().display()
            );
            (flag.to_owned(), untouched)
        })
        .collect()
}

/// What one run is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measure {
    WarmUp,
    Wall,
    PeakRss,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Floor,
    NotOurs,
    Pending,
    /// A pending call of four long questions in four languages: the classifier's worst case.
    PendingLong,
    Auto,
    /// A question one of the world's rules decides.
    AutoRule,
    /// The auto-decide question in a world whose config says `decide_with = "answer"`.
    AutoAnswer,
    Settle,
    /// The end of a turn (Stop) after one question was asked and answered (both spooled,
    /// untimed): the declines committed and the spool ingested into the database.
    TurnEnd,
}

/// One benchmark case and its samples.
struct Case<'w> {
    name: String,
    label: String,
    kind: Kind,
    world: &'w World,
    /// The askhook binary it runs (the floor case ignores it).
    program: &'static Path,
    /// On the filled database.
    big: bool,
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
    rss_kib: Vec<u64>,
}

impl<'w> Case<'w> {
    fn new(name: &str, label: &str, kind: Kind, world: &'w World) -> Case<'w> {
        Case {
            name: name.to_owned(),
            label: label.to_owned(),
            kind,
            world,
            program: askhook(),
            big: false,
            wall: Vec::new(),
            cpu: Vec::new(),
            rss_kib: Vec::new(),
        }
    }

    fn big(mut self) -> Case<'w> {
        self.big = true;
        self
    }

    /// The same case run by another binary.
    fn twin(&self, program: &'static Path) -> Case<'w> {
        Case {
            name: format!("{}·B", self.name),
            label: format!("{} [B]", self.label),
            program,
            ..Case::new(&self.name, &self.label, self.kind, self.world)
        }
        .with_big(self.big)
    }

    fn with_big(mut self, big: bool) -> Case<'w> {
        self.big = big;
        self
    }

    /// One run, recorded as `how` says. Checks the exit status and output every time.
    fn run_once(&mut self, floor: &Path, round: usize, how: Measure) {
        let call = format!("{}-{}-{round}", self.name, std::process::id());
        let askhook = self.program;
        let (program, payload) = match self.kind {
            Kind::Floor => (floor, pre_tool_use(self.world, &call, Ask::Plain)),
            Kind::NotOurs => (askhook, not_ours(self.world, &call)),
            Kind::Pending => (askhook, pre_tool_use(self.world, &call, Ask::Plain)),
            Kind::PendingLong => (askhook, pre_tool_use(self.world, &call, Ask::Long)),
            Kind::Auto | Kind::AutoAnswer => {
                (askhook, pre_tool_use(self.world, &call, Ask::Marker))
            }
            Kind::AutoRule => (askhook, pre_tool_use(self.world, &call, Ask::Rule)),
            Kind::Settle => {
                let pre = spawn(
                    self.world,
                    askhook,
                    &pre_tool_use(self.world, &call, Ask::Plain),
                    false,
                );
                assert!(
                    pre.stdout.is_empty() && pre.status.success(),
                    "{}: untimed PreToolUse",
                    self.name
                );
                (askhook, post_tool_use(self.world, &call))
            }
            Kind::TurnEnd => {
                for payload in [
                    pre_tool_use(self.world, &call, Ask::Plain),
                    post_tool_use(self.world, &call),
                ] {
                    let ran = spawn(self.world, askhook, &payload, false);
                    assert!(
                        ran.stdout.is_empty() && ran.status.success(),
                        "{}: untimed question",
                        self.name
                    );
                }
                (askhook, stop(self.world, &call))
            }
        };
        let ran = spawn(self.world, program, &payload, how == Measure::PeakRss);
        self.check(&ran);
        match how {
            Measure::WarmUp => {}
            Measure::Wall => {
                self.wall.push(ran.wall);
                self.cpu.push(ran.cpu);
            }
            Measure::PeakRss => self.rss_kib.extend(ran.peak_rss_kib),
        }
    }

    /// Every run's exit status and output, checked.
    fn check(&self, ran: &Ran) {
        assert!(
            ran.status.success(),
            "{}: exit {:?} (signal {:?})",
            self.name,
            ran.status.code(),
            ran.status.signal()
        );
        // An A/B twin may be a binary from before rules and answer mode: its exit status is
        // checked, what it decides is its own business.
        if self.name.ends_with("·B") {
            return;
        }
        let stdout = String::from_utf8_lossy(&ran.stdout);
        let expected = match self.kind {
            Kind::Auto | Kind::AutoRule => Some("\"permissionDecision\":\"deny\""),
            Kind::AutoAnswer => Some("\"permissionDecision\":\"allow\""),
            _ => None,
        };
        match expected {
            Some(decision) => assert!(
                stdout.contains(decision),
                "{}: expected {decision}, got {stdout:?}",
                self.name
            ),
            None => assert!(
                stdout.is_empty(),
                "{}: expected an abstain, got {stdout:?}",
                self.name
            ),
        }
    }

    fn summary(&self) -> Summary {
        let mut wall = self.wall.clone();
        wall.sort();
        let mut cpu = self.cpu.clone();
        cpu.sort();
        Summary {
            cpu: percentile(&cpu, 50.0),
            name: self.name.clone(),
            label: self.label.clone(),
            kind: self.kind,
            big: self.big,
            min: wall[0],
            median: percentile(&wall, 50.0),
            p95: percentile(&wall, 95.0),
            p99: percentile(&wall, 99.0),
            rss_kib: self.rss_kib.iter().copied().max(),
        }
    }
}

/// Nearest-rank percentile of sorted samples.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Which question a PreToolUse asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    /// Unmarked, no preference: recorded pending.
    Plain,
    /// The registry marker with a never-ask preference.
    Marker,
    /// Unmarked, matched by one rule of the rules world.
    Rule,
    /// Four long unmarked questions in English, Japanese, German and Russian (~3 KB).
    Long,
}

/// Four long questions, the most text one call carries in practice, each in another language
/// and each with four described options: the door classifier reads all of it.
fn long_questions() -> serde_json::Value {
    let q = |text: &str, header: &str, options: [(&str, &str); 4]| {
        serde_json::json!({
            "question": text,
            "header": header,
            "multiSelect": false,
            "options": options
                .iter()
                .map(|(l, d)| serde_json::json!({"label": l, "description": d}))
                .collect::<Vec<_>>(),
        })
    };
    serde_json::json!([
        q(
            "The integration tests in `tests/api/` take eleven minutes on CI because every test \
             starts its own Postgres container and runs all 140 migrations from scratch. I can \
             share one container per worker, snapshot the migrated schema once, and restore it \
             between tests, or keep the current setup and only parallelise the slowest files. \
             Which approach should I take for the test harness?",
            "Test speed",
            [
                ("Shared container (Recommended)", "One Postgres per worker, schema restored from a snapshot between tests; about 3 minutes."),
                ("Parallelise files", "Keep a container per test, split the slowest files across runners; about 7 minutes."),
                ("Transactions", "Wrap every test in a transaction rolled back at the end; fastest, but breaks tests that commit."),
                ("Leave it", "Keep the current harness as it is."),
            ],
        ),
        q(
            "設定ファイルの読み込み処理を整理したいです。現在は `config/default.yaml` と環境変数と \
             コマンドライン引数がそれぞれ別の場所で読まれていて、優先順位がファイルごとに違います。\
             一つのモジュールにまとめて、引数 > 環境変数 > ファイルの順に統一してもよいですか？",
            "設定",
            [
                ("まとめる (推奨)", "config/loader.ts に集約し、既存の呼び出し側を順に置き換えます。"),
                ("段階的に", "新しいモジュールを追加し、古い読み込みは次のリリースまで残します。"),
                ("ドキュメントだけ", "コードは変えず、現在の優先順位を README に書きます。"),
                ("そのまま", "今回は何もしません。"),
            ],
        ),
        q(
            "Die Komponente `InvoiceTable` rendert bei 5 000 Zeilen sehr langsam, weil jede Zeile \
             ihr eigenes Datumsformat berechnet und die Sortierung bei jedem Tastendruck neu läuft. \
             Soll ich die Tabelle virtualisieren, die Formatierung zwischenspeichern oder beides?",
            "Tabelle",
            [
                ("Beides (Empfohlen)", "Virtualisierung mit react-window und ein Cache für formatierte Datumswerte."),
                ("Nur virtualisieren", "Nur sichtbare Zeilen rendern; die Formatierung bleibt wie sie ist."),
                ("Nur Cache", "Formatierte Werte pro Zeile merken; alle Zeilen bleiben im DOM."),
                ("Später", "Erst messen, dann entscheiden."),
            ],
        ),
        q(
            "В модуле отчётов три почти одинаковые функции форматирования дат: `formatDate`, \
             `toReportDate` и `humanDate`. Они отличаются только часовым поясом и форматом \
             месяца. Объединить их в одну функцию с параметрами и обновить все вызовы в проекте?",
            "Рефакторинг",
            [
                ("Объединить (Рекомендуется)", "Одна функция с параметрами, все вызовы обновлены, тесты рядом."),
                ("Оставить обёртки", "Общая функция, а старые имена остаются тонкими обёртками."),
                ("Только тесты", "Покрыть три функции тестами и пока ничего не менять."),
                ("Не трогать", "Оставить как есть."),
            ],
        ),
    ])
}

fn questions(ask: Ask) -> serde_json::Value {
    if ask == Ask::Long {
        return long_questions();
    }
    let text = match ask {
        Ask::Marker => format!("Turn on the build cache? <askhook-qid:{AUTO_ID}>"),
        Ask::Plain => "Which approach should we use?".to_owned(),
        Ask::Rule => format!("Should I switch the {} 7 to the new API?", RULE_WORDS[7]),
        Ask::Long => unreachable!("long questions are built above"),
    };
    serde_json::json!([{
        "question": text,
        "header": "Approach",
        "options": [
            {"label": "Yes (Recommended)", "description": "The recommended approach."},
            {"label": "No", "description": "The alternative."}
        ],
        "multiSelect": false
    }])
}

fn base(world: &World, call: &str, event: &str) -> serde_json::Value {
    serde_json::json!({
        "session_id": format!("bench-session-{call}"),
        "transcript_path": "/home/user/.claude/projects/bench/session.jsonl",
        "cwd": world.project(),
        "prompt_id": format!("bench-prompt-{call}"),
        "permission_mode": "default",
        "hook_event_name": event,
        "tool_use_id": format!("toolu_bench_{call}"),
    })
}

fn pre_tool_use(world: &World, call: &str, ask: Ask) -> Vec<u8> {
    let mut p = base(world, call, "PreToolUse");
    p["tool_name"] = "AskUserQuestion".into();
    p["tool_input"] = serde_json::json!({ "questions": questions(ask) });
    serde_json::to_vec(&p).unwrap()
}

fn post_tool_use(world: &World, call: &str) -> Vec<u8> {
    let mut p = base(world, call, "PostToolUse");
    let answered = serde_json::json!({
        "questions": questions(Ask::Plain),
        "answers": {"Which approach should we use?": "No"},
        "annotations": {}
    });
    p["tool_name"] = "AskUserQuestion".into();
    p["tool_input"] = answered.clone();
    p["tool_response"] = answered;
    serde_json::to_vec(&p).unwrap()
}

fn stop(world: &World, call: &str) -> Vec<u8> {
    let mut p = base(world, call, "Stop");
    p["stop_hook_active"] = false.into();
    serde_json::to_vec(&p).unwrap()
}

fn not_ours(world: &World, call: &str) -> Vec<u8> {
    let mut p = base(world, call, "PreToolUse");
    p["tool_name"] = "Bash".into();
    p["tool_input"] = serde_json::json!({"command": "cargo test", "description": "Run the tests"});
    serde_json::to_vec(&p).unwrap()
}

/// One finished process.
struct Ran {
    status: ExitStatus,
    stdout: Vec<u8>,
    wall: Duration,
    /// User + system CPU time of the process (of GNU time and it, under `rss`).
    cpu: Duration,
    peak_rss_kib: Option<u64>,
}

/// Spawn `program` in `world` with `payload` on stdin and time it from spawn to reaped (by
/// `wait4`, in [`wait_with_cpu`]); with
/// `rss`, run it under GNU time instead and read its peak RSS.
#[allow(clippy::zombie_processes)] // reaped by wait4 in wait_with_cpu
fn spawn(world: &World, program: &Path, payload: &[u8], rss: bool) -> Ran {
    let rss_file = world.root.join("peak-rss.txt");
    let mut cmd = if rss {
        let mut cmd = world.command(Path::new(GNU_TIME));
        cmd.arg("-f")
            .arg("%M")
            .arg("-o")
            .arg(&rss_file)
            .arg(program);
        cmd
    } else {
        world.command(program)
    };
    if program == askhook() || Some(program) == ab() {
        cmd.arg("hook");
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let started = Instant::now();
    let mut child = cmd.spawn().expect("spawn");
    // Payloads are far below the pipe buffer, so this never blocks on the child.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload).expect("write stdin");
    drop(stdin);
    let (status, cpu) = wait_with_cpu(&child);
    let wall = started.elapsed();
    let mut stdout = Vec::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    Ran {
        status,
        stdout,
        wall,
        cpu,
        peak_rss_kib: rss
            .then(|| std::fs::read_to_string(&rss_file).ok())
            .flatten()
            .and_then(|t| t.trim().parse().ok()),
    }
}

/// Reap `child` and read the CPU time it used (user + system, from `wait4`): unlike wall time,
/// barely moved by other processes on a busy machine.
fn wait_with_cpu(child: &std::process::Child) -> (ExitStatus, Duration) {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: wait4 on our own child, writing into the two locals.
    let rc = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(rc, pid, "wait4: {}", std::io::Error::last_os_error());
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    (
        ExitStatus::from_raw(status),
        tv(usage.ru_utime) + tv(usage.ru_stime),
    )
}

/// The statistics of one case.
struct Summary {
    /// Median CPU time.
    cpu: Duration,
    name: String,
    label: String,
    kind: Kind,
    big: bool,
    min: Duration,
    median: Duration,
    p95: Duration,
    p99: Duration,
    rss_kib: Option<u64>,
}

struct Report {
    runs: usize,
    warm_up: usize,
    fill_rows: u64,
    cases: Vec<Summary>,
    floor_bytes: u64,
    askhook_bytes: u64,
    cold: Vec<(String, bool)>,
    took: Duration,
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

impl Report {
    fn floor(&self) -> &Summary {
        &self.cases[0]
    }

    fn markdown(&self) -> String {
        let floor = self.floor();
        let mut t = String::new();
        t.push_str(&format!(
            "Machine: {} × {}, Linux {}. {} timed runs per case after {} warm-up runs, round-robin; \
             {} rows in the large database; {:.0} s in all.\n\n",
            nproc(),
            cpu_model(),
            kernel(),
            self.runs,
            self.warm_up,
            self.fill_rows,
            self.took.as_secs_f64()
        ));
        t.push_str("| case | database | min ms | median ms | p95 ms | p99 ms | median × floor | p99 × floor | CPU ms | CPU × floor | peak RSS KiB |\n");
        t.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for c in &self.cases {
            let db = match c.kind {
                Kind::Floor => "—".to_owned(),
                Kind::NotOurs => "none (not created)".to_owned(),
                _ if c.big => format!("{} rows", self.fill_rows),
                _ => "empty".to_owned(),
            };
            t.push_str(&format!(
                "| {} | {db} | {} | {} | {} | {} | {:.2} | {:.2} | {} | {:.2} | {} |\n",
                c.label,
                ms(c.min),
                ms(c.median),
                ms(c.p95),
                ms(c.p99),
                ratio(c.median, floor.median),
                ratio(c.p99, floor.p99),
                ms(c.cpu),
                ratio(c.cpu, floor.cpu),
                c.rss_kib
                    .map_or_else(|| format!("n/a (no {GNU_TIME})"), |k| k.to_string())
            ));
        }
        t.push_str("\nGrowth from the empty to the large database (median, large ÷ empty): ");
        let growth: Vec<String> = self
            .growth()
            .into_iter()
            .map(|(name, g)| format!("{name} {g:.2}×"))
            .collect();
        t.push_str(&growth.join(", "));
        let ab: Vec<String> = self
            .cases
            .iter()
            .filter_map(|b| {
                let a_name = b.name.strip_suffix("·B")?;
                let a = self.cases.iter().find(|c| c.name == a_name)?;
                Some(format!(
                    "{a_name} {:.2} / {:.2}",
                    ratio(b.median, a.median),
                    ratio(b.cpu, a.cpu)
                ))
            })
            .collect();
        if !ab.is_empty() {
            t.push_str(&format!(
                ".\n\nA/B, B ÷ A (median wall / median CPU): {}",
                ab.join(", ")
            ));
        }
        t.push_str(&format!(
            ".\n\nRelease binary: askhook {} KiB, floor {} KiB. Cold paths: {}.\n",
            self.askhook_bytes >> 10,
            self.floor_bytes >> 10,
            self.cold
                .iter()
                .map(|(flag, ok)| format!(
                    "`askhook {flag}` {}",
                    if *ok {
                        "creates no database"
                    } else {
                        "CREATED THE DATABASE"
                    }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        t
    }

    /// (case, median on the large database ÷ median on the empty one), per binary.
    fn growth(&self) -> Vec<(&str, f64)> {
        self.cases
            .iter()
            .filter(|c| c.big)
            .filter_map(|big| {
                let twin = big.name.ends_with("·B");
                let small = self
                    .cases
                    .iter()
                    .find(|c| !c.big && c.kind == big.kind && c.name.ends_with("·B") == twin)?;
                Some((small.name.as_str(), ratio(big.median, small.median)))
            })
            .collect()
    }

    fn missed_goals(&self) -> Vec<String> {
        let floor = self.floor();
        let mut missed = Vec::new();
        for c in &self.cases[1..] {
            let (m, p) = (ratio(c.median, floor.median), ratio(c.p99, floor.p99));
            match c.kind {
                Kind::NotOurs if m > GOAL_NOT_OURS => missed.push(format!(
                    "{}: median {m:.2}× floor (goal ≤ {GOAL_NOT_OURS}×)",
                    c.name
                )),
                Kind::Pending
                | Kind::PendingLong
                | Kind::Auto
                | Kind::AutoRule
                | Kind::AutoAnswer
                | Kind::Settle => {
                    if m > GOAL_MEDIAN {
                        missed.push(format!(
                            "{}: median {m:.2}× floor (goal ≤ {GOAL_MEDIAN}×)",
                            c.name
                        ));
                    }
                    if p > GOAL_P99 {
                        missed.push(format!(
                            "{}: p99 {p:.2}× floor (goal ≤ {GOAL_P99}×)",
                            c.name
                        ));
                    }
                }
                _ => {}
            }
            if let Some(kib) = c.rss_kib.filter(|k| *k >= GOAL_RSS_KIB) {
                missed.push(format!("{}: peak RSS {kib} KiB (goal < 10 MiB)", c.name));
            }
        }
        for (name, g) in self.growth() {
            // "No measurable growth": allow the noise of a shared machine, 10 %.
            if g > 1.10 {
                missed.push(format!("{name}: {g:.2}× slower on the large database"));
            }
        }
        missed
    }
}

fn nproc() -> String {
    std::thread::available_parallelism().map_or_else(|_| "?".into(), |n| n.get().to_string())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn kernel() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map_or_else(|_| "unknown".into(), |t| t.trim().to_owned())
}

const BEGIN: &str = "<!-- bench:begin (generated by `cargo bench --bench hook`; do not edit) -->";
const END: &str = "<!-- bench:end -->";

/// Replace the generated block of `docs/performance.md`, keeping the prose around it.
fn write_docs(table: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/performance.md");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let block = format!("{BEGIN}\n{table}{END}");
    let new = match (text.find(BEGIN), text.find(END)) {
        (Some(b), Some(e)) if b < e => format!("{}{block}{}", &text[..b], &text[e + END.len()..]),
        _ => format!("{text}\n{block}\n"),
    };
    std::fs::write(&path, new).expect("write docs/performance.md");
    println!("wrote {}", path.display());
}
