//! The query CLI over a real database filled through `askhook hook` with captured payloads:
//! every filter, every format parsed back, relative spans, an empty and an older database,
//! `watch` against a concurrent writer, `import gstack`, `forget`, `suggest`, `demo`.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{fixture, stdout, World};

/// A captured payload, parsed.
fn payload(name: &str) -> Value {
    serde_json::from_slice(&fixture(&format!("captured/{name}.json"))).unwrap()
}

/// Run captured events through the hook in `world`'s project.
fn replay(world: &World, names: &[&str]) {
    for name in names {
        let out = world.hook_json(payload(name));
        assert!(out.status.success(), "hook {name}");
    }
}

/// Ten rows: basic (2 answered), marker (1 answered), freetext (2 answered), mcp-fail
/// (1 failed), esc (2 declined), deny PreToolUse only (2 pending).
fn filled() -> World {
    let world = World::new();
    replay(
        &world,
        &[
            "basic--01-PreToolUse",
            "basic--02-PostToolUse",
            "marker--01-PreToolUse",
            "marker--02-PostToolUse",
            "freetext--01-PreToolUse",
            "freetext--02-PostToolUse",
            "mcp-fail--01-PreToolUse",
            "mcp-fail--02-PostToolUseFailure",
            "esc--01-PreToolUse",
            "esc--02-Stop",
            "deny--01-PreToolUse",
        ],
    );
    // The hooks spooled it all; a command folds it into the database (tests below edit it).
    world.log();
    world
}

fn json_of(world: &World, args: &[&str]) -> Value {
    world.json(args)
}

fn log_of(world: &World, args: &[&str]) -> Vec<Value> {
    let mut all = vec!["log", "--json"];
    all.extend_from_slice(args);
    json_of(world, &all).as_array().unwrap().clone()
}

fn field<'a>(rows: &'a [Value], name: &str) -> Vec<&'a str> {
    rows.iter()
        .map(|r| r[name].as_str().unwrap_or(""))
        .collect()
}

const BASIC_SESSION: &str = "3f4df1a0-5706-4256-b8f7-7fd6bea635e8";

#[test]
fn log_json_keeps_the_documented_schema() {
    let world = filled();
    let rows = world.log();
    assert_eq!(rows.len(), 10);
    for key in [
        "question_id",
        "question",
        "header",
        "options",
        "multi_select",
        "recommended",
        "answer",
        "selections",
        "free_text",
        "notes",
        "followed_recommendation",
        "afk",
        "outcome",
        "door_type",
        "door_rule",
        "error",
        "session_id",
        "tool_use_id",
        "question_index",
        "tool_name",
        "project",
        "cwd",
        "permission_mode",
        "agent_id",
        "asked_at",
        "settled_at",
    ] {
        assert!(rows[0].get(key).is_some(), "missing {key}");
    }
    let asked = field(&rows, "asked_at");
    let mut sorted = asked.clone();
    sorted.sort_unstable();
    assert_eq!(asked, sorted, "oldest first");
    let outcomes = field(&rows, "outcome");
    for (outcome, n) in [
        ("answered", 5),
        ("failed", 1),
        ("declined", 2),
        ("pending", 2),
    ] {
        assert_eq!(
            outcomes.iter().filter(|o| **o == outcome).count(),
            n,
            "{outcome}"
        );
    }
}

#[test]
fn each_filter_selects_its_rows() {
    let world = filled();
    // One more row in another project, with a one-way question.
    let other = world.tmp.path().canonicalize().unwrap().join("other");
    std::fs::create_dir_all(other.join(".git")).unwrap();
    let mut p = payload("marker--01-PreToolUse");
    p["cwd"] = json!(other.to_string_lossy());
    p["session_id"] = json!("other-session");
    p["tool_use_id"] = json!("toolu_other_1");
    p["tool_input"]["questions"][0]["question"] = json!("Delete the old release branch?");
    assert!(world
        .hook(&serde_json::to_vec(&p).unwrap())
        .status
        .success());

    let cases: &[(&str, &[&str], usize)] = &[
        ("no filter", &[], 11),
        ("session", &["--session", BASIC_SESSION], 2),
        ("question id", &["--question", "demo-q"], 1),
        ("outcome answered", &["--outcome", "answered"], 5),
        ("outcome failed", &["--outcome", "failed"], 1),
        ("outcome declined", &["--outcome", "declined"], 2),
        ("outcome pending", &["--outcome", "pending"], 3),
        ("outcome abandoned", &["--outcome", "abandoned"], 0),
        (
            "outcomes repeated",
            &["--outcome", "failed", "--outcome", "declined"],
            3,
        ),
        // The delete question, and the captured "Deploy now?" (deploying is one-way).
        ("door one-way", &["--door", "one-way"], 2),
        ("door two-way", &["--door", "two-way"], 9),
        ("grep header, any case", &["--grep", "FEATURES"], 4),
        ("grep option label", &["--grep", "gamma"], 4),
        ("grep question text", &["--grep", "deploy now"], 1),
        ("grep nothing", &["--grep", "no such words"], 0),
        ("bare project = current", &["--project"], 10),
        ("project dir", &["--project", other.to_str().unwrap()], 1),
        ("limit", &["--limit", "3"], 3),
        ("since span", &["--since", "1h"], 11),
        ("until span", &["--until", "1h"], 0),
        ("since date", &["--since", "2020-01-01"], 11),
        ("until date", &["--until", "2020-01-01"], 0),
        ("since rfc 3339", &["--since", "2020-01-01T00:00:00Z"], 11),
        (
            "combined",
            &["--session", BASIC_SESSION, "--grep", "approach"],
            1,
        ),
    ];
    for (name, args, want) in cases {
        let rows = log_of(&world, args);
        assert_eq!(rows.len(), *want, "{name}: {args:?}");
    }
    // --limit keeps the most recent rows, still oldest first.
    let all = world.log();
    let last3 = log_of(&world, &["--limit", "3"]);
    assert_eq!(last3, all[all.len() - 3..].to_vec());
    // The door filter found the delete question.
    let one_way = log_of(&world, &["--door", "one-way"]);
    assert!(one_way
        .iter()
        .any(|r| r["question"] == "Delete the old release branch?"));
    // A bad time is a usage error that says what it expects.
    let out = world.run(&["log", "--since", "yesterday"]).code(2);
    assert!(crate::harness::stderr(&out).contains("RFC 3339"));
}

/// A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(field.is_empty() && row.is_empty(), "CSV ends with CRLF");
    rows
}

#[test]
fn every_format_parses_back_to_the_same_rows() {
    let world = filled();
    // A question with commas, quotes and a newline, to exercise CSV quoting.
    let mut p = payload("marker--01-PreToolUse");
    p["tool_use_id"] = json!("toolu_csv_1");
    p["tool_input"]["questions"][0]["question"] = json!("Use \"fast\", or safe\nmode?");
    world.hook_json(p);
    let rows = world.log();

    let jsonl = stdout(&world.run(&["log", "--format", "jsonl"]).success());
    let parsed: Vec<Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed, rows, "jsonl");

    let exported: Value = json_of(&world, &["export", "--format", "json"]);
    assert_eq!(exported.as_array().unwrap(), &rows, "export json");
    let exported_jsonl = stdout(&world.run(&["export"]).success());
    assert_eq!(exported_jsonl, jsonl, "export defaults to jsonl");

    for args in [
        &["log", "--format", "csv"][..],
        &["export", "--format", "csv"][..],
    ] {
        let text = stdout(&world.run(args).success());
        let table = parse_csv(&text);
        let header = &table[0];
        assert_eq!(header[0], "question_id");
        assert_eq!(header.len(), 28);
        assert_eq!(table.len(), rows.len() + 1, "{args:?}");
        for (csv_row, json_row) in table[1..].iter().zip(&rows) {
            for (i, name) in header.iter().enumerate() {
                let want = match &json_row[name.as_str()] {
                    Value::Null => String::new(),
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    other => other.to_string(),
                };
                assert_eq!(csv_row[i], want, "{args:?} column {name}");
            }
        }
    }

    let file = world.tmp.path().join("out.csv");
    world
        .run(&[
            "export",
            "--format",
            "csv",
            "--output",
            file.to_str().unwrap(),
        ])
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(parse_csv(&text).len(), rows.len() + 1);
}

#[test]
fn the_table_fits_the_terminal_width_and_marks_followed() {
    let world = filled();
    for width in ["60", "100", "160"] {
        let out = world.run(&["log"]).env("COLUMNS", width).success();
        let text = stdout(&out);
        let w: usize = width.parse().unwrap();
        assert!(text.lines().count() == 11, "{text}");
        for line in text.lines() {
            assert!(line.chars().count() <= w, "wider than {w}: {line:?}");
        }
        assert!(!text.contains('\u{1b}'), "no colour off a terminal");
    }
    let text = stdout(&world.run(&["log"]).success());
    assert!(text.contains('✓'), "{text}");
    assert!(text.contains("demo-q"));
    assert!(text.contains("declined"));
    let full = stdout(
        &world
            .run(&["log", "--full", "--question", "demo-q"])
            .success(),
    );
    assert!(full.contains("Should we enable the cache?"), "{full}");
    assert!(
        full.contains("(•) Yes (Recommended)"),
        "the chosen option is marked: {full}"
    );
    assert!(full.contains("( ) No"));
}

/// Text no terminal may receive raw: OSC and CSI sequences, BEL, the C1 CSI (U+009B),
/// backspace, carriage return, a right-to-left override, an isolate, zero-width characters and
/// a tag character.
const HOSTILE: &str = "Clear \u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m scr\u{8}\u{8}een\rX \u{202E}cod.exe\u{2066}?\u{200B}\u{200D}\u{FEFF}\u{E0041}";

fn hostile_world() -> World {
    let world = World::new();
    let mut p = payload("marker--01-PreToolUse");
    p["tool_input"]["questions"][0]["question"] = json!(HOSTILE);
    p["tool_input"]["questions"][0]["options"][0]["label"] = json!("Yes\u{202E}\u{9b}");
    world.hook_json(p);
    world
}

/// The hostile characters of [`HOSTILE`] found in `text`.
fn raw_hostile(text: &str) -> Vec<char> {
    text.chars()
        .filter(|c| {
            matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
                | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}')
        })
        .collect()
}

/// Run `askhook <args>` with stdout on a fresh pseudo-terminal in raw mode (no newline
/// translation): what it printed there.
fn on_terminal(world: &World, args: &[&str]) -> String {
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave) = (0, 0);
    // SAFETY: a zeroed termios is valid input to cfmakeraw, which fills it in.
    let mut raw: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: cfmakeraw writes the struct; openpty writes two fds into the out-parameters.
    let rc = unsafe {
        libc::cfmakeraw(&raw mut raw);
        libc::openpty(
            &raw mut master,
            &raw mut slave,
            std::ptr::null_mut(),
            &raw const raw,
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: fcntl on the fds just returned, which are owned here from now on.
    let (master, slave) = unsafe {
        libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::fcntl(slave, libc::F_SETFD, libc::FD_CLOEXEC);
        (
            std::fs::File::from_raw_fd(master),
            OwnedFd::from_raw_fd(slave),
        )
    };
    let mut cmd = world.command();
    // The text askhook prints, not what a pager makes of it.
    cmd.args(args)
        .env("ASKHOOK_PAGER", "")
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::null());
    let mut child = cmd.spawn().expect("spawn askhook");
    drop(cmd); // the parent's copy of the slave: the master then sees EOF when the child exits
    let shown = crate::harness::drain_pty(master);
    assert!(child.wait().unwrap().success(), "{args:?}");
    shown.join().unwrap()
}

#[test]
fn hostile_text_never_reaches_the_terminal_raw() {
    let world = hostile_world();
    for args in [
        &["log"][..],
        &["log", "--full"],
        &["pending"],
        &["show", "toolu_fake_marker_0001"],
    ] {
        let text = stdout(&world.run(args).success());
        assert_eq!(raw_hostile(&text), [], "{args:?}: {text:?}");
    }
    // Every format on a terminal (issue #12.11: CSV printed it all raw).
    for args in [
        &["log", "--format", "csv"][..],
        &["export", "--format", "csv"],
        &["log", "--json"],
        &["log", "--format", "jsonl"],
        &["export"],
        &["log"],
        &["log", "--full"],
        &["pending", "--json"],
        &["show", "toolu_fake_marker_0001", "--json"],
    ] {
        let text = on_terminal(&world, args);
        assert!(text.contains("Clear"), "{args:?}: {text:?}");
        let found: Vec<char> = raw_hostile(&text)
            .into_iter()
            .filter(|c| *c != '\r' || !args.contains(&"csv"))
            .collect();
        assert_eq!(found, [], "{args:?} on a terminal: {text:?}");
        if args.contains(&"csv") {
            // CRLF ends CSV records; no other CR is there.
            assert_eq!(
                text.matches('\r').count(),
                text.matches("\r\n").count(),
                "{text:?}"
            );
        }
    }
}

#[test]
fn json_escapes_hidden_characters_and_reads_back_exactly() {
    let world = hostile_world();
    for args in [
        &["log", "--json"][..],
        &["log", "--format", "jsonl"],
        &["export", "--format", "json"],
        &["pending", "--json"],
        &["show", "toolu_fake_marker_0001", "--json"],
    ] {
        let text = stdout(&world.run(args).success());
        assert_eq!(raw_hostile(&text), [], "{args:?}: {text:?}");
        let first = text.lines().find(|l| l.contains("Clear")).unwrap_or(&text);
        assert!(first.contains(r"\u009b31m"), "{args:?}: {first}");
        assert!(first.contains(r"\u202ecod.exe"), "{args:?}: {first}");
    }
    let rows = world.log();
    assert_eq!(rows[0]["question"], HOSTILE, "the text reads back exactly");
    assert_eq!(rows[0]["options"][0]["label"], "Yes\u{202E}\u{9b}");
    // Off a terminal, CSV holds the recorded text exactly (it is data for a program).
    let csv = stdout(&world.run(&["export", "--format", "csv"]).success());
    assert_eq!(parse_csv(&csv)[1][1], HOSTILE);
}

#[test]
fn an_empty_or_missing_database_reads_as_empty_and_is_not_created() {
    let world = World::new();
    assert_eq!(world.log(), Vec::<Value>::new());
    let stats = json_of(&world, &["stats", "--json"]);
    assert_eq!(stats["total"], 0);
    assert_eq!(json_of(&world, &["pending", "--json"]), json!([]));
    let csv = stdout(&world.run(&["export", "--format", "csv"]).success());
    assert_eq!(parse_csv(&csv).len(), 1, "header only");
    assert!(stdout(&world.run(&["log"]).success()).contains("no questions recorded yet"));
    world.run(&["stats"]).success();
    world.run(&["suggest"]).success();
    world.run(&["forget", "--all", "--yes"]).success();
    assert!(!world.db().exists(), "a read command created the database");
}

#[test]
fn filters_are_checked_whatever_the_log_holds_and_empty_results_say_why() {
    // Issue #12.9: bad filter values passed on an empty log, an inverted range and `--limit 0`
    // passed silently, and a filter that matched nothing said the log was empty.
    let filled = filled();
    let empty = World::new();
    for world in [&filled, &empty] {
        for (name, args, needle) in [
            (
                "unreadable time",
                &["log", "--since", "yesterday-ish"][..],
                "--since",
            ),
            (
                "unreadable time, stats",
                &["stats", "--until", "soon"],
                "--until",
            ),
            (
                "inverted range",
                &["log", "--since", "1h", "--until", "2h"],
                "not before",
            ),
            (
                "inverted dates",
                &["export", "--since", "2026-12-02", "--until", "2026-12-01"],
                "swap",
            ),
            ("limit 0", &["log", "--limit", "0"], "--limit 0"),
            (
                "limit 0, pending",
                &["pending", "--json", "--limit", "0"],
                "--limit 0",
            ),
        ] {
            let out = world.run(args).code(2);
            assert!(stdout(&out).is_empty(), "{name}");
            assert!(crate::harness::stderr(&out).contains(needle), "{name}");
        }
    }
    assert!(!empty.db().exists());
    let none = stdout(
        &filled
            .run(&["log", "--session", "no-such-session"])
            .success(),
    );
    assert!(
        none.contains("no questions match these filters (10 recorded in all)"),
        "{none}"
    );
    assert!(!none.contains("recorded yet"), "{none}");
    let full = stdout(&filled.run(&["log", "--full", "--grep", "zzz"]).success());
    assert!(full.contains("no questions match"), "{full}");
    let stats = stdout(&filled.run(&["stats", "--until", "2000-01-01"]).success());
    assert!(
        stats.contains("no questions match these filters"),
        "{stats}"
    );
    let nothing = stdout(&empty.run(&["log", "--session", "x"]).success());
    assert!(nothing.contains("no questions recorded yet"), "{nothing}");
}

/// A log of 600 rows (2 KiB of text each, so they span many pages) whose second half of
/// pages is overwritten with garbage: reading it fails partway.
fn damaged() -> World {
    let world = filled();
    let conn = rusqlite::Connection::open(world.db()).unwrap();
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60)
         INSERT INTO questions (session_id, tool_use_id, question_index, question_id, id_source,
             question, header, options, multi_select, recommended, door_type, door_rule,
             tool_name, project, cwd, permission_mode, agent_id, prompt_id, outcome, answer,
             selections, free_text, notes, followed_recommendation, afk, error, asked_at,
             settled_at)
         SELECT session_id || '-' || i, tool_use_id, question_index, question_id, id_source,
             question || hex(randomblob(1024)), header, options, multi_select, recommended,
             door_type, door_rule, tool_name, project, cwd, permission_mode, agent_id,
             prompt_id, outcome, answer, selections, free_text, notes, followed_recommendation,
             afk, error, asked_at + i, settled_at
         FROM questions, n;
         PRAGMA wal_checkpoint(TRUNCATE);
         PRAGMA journal_mode = DELETE;",
    )
    .unwrap();
    drop(conn);
    let mut bytes = std::fs::read(world.db()).unwrap();
    let half = bytes.len() / 2;
    bytes[half..].fill(0xA5);
    std::fs::write(world.db(), bytes).unwrap();
    world
}

#[test]
fn a_read_that_fails_halfway_prints_nothing_and_writes_no_file() {
    // Issue #12.10: `log --json` printed `[` and then failed: output must be whole or absent.
    let world = damaged();
    for args in [
        &["log", "--json"][..],
        &["log", "--format", "jsonl"],
        &["log", "--format", "csv"],
        &["export"],
        &["export", "--format", "json"],
    ] {
        let out = world.run(args).code(1);
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(!crate::harness::stderr(&out).is_empty(), "{args:?}");
    }
    // Stdout redirected to a file (`> out`, `>> out`): cut back to what it held.
    for (name, before, append) in [("> fresh", "", false), (">> existing", "kept\n", true)] {
        let file = world.tmp.path().join("redirected");
        std::fs::write(&file, before).unwrap();
        let out = std::fs::OpenOptions::new()
            .append(append)
            .write(true)
            .open(&file)
            .unwrap();
        let mut cmd = world.command();
        cmd.args(["log", "--json"])
            .stdout(out)
            .stderr(Stdio::null());
        assert_eq!(cmd.status().unwrap().code(), Some(1), "{name}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "{name}");
    }
    let file = world.tmp.path().join("export.jsonl");
    let path = file.to_str().unwrap();
    world.run(&["export", "--output", path]).code(1);
    assert!(!file.exists(), "no half-written export");
    std::fs::write(&file, "an earlier export\n").unwrap();
    world.run(&["export", "--output", path]).code(1);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "an earlier export\n"
    );
    let leftovers: Vec<_> = std::fs::read_dir(world.tmp.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("askhook-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn exports_larger_than_memory_come_out_whole() {
    // Past the in-memory limit the output waits in a nameless file: it must come back whole.
    let world = filled();
    let conn = rusqlite::Connection::open(world.db()).unwrap();
    conn.execute_batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
         INSERT INTO questions (session_id, tool_use_id, question_index, question_id, id_source,
             question, options, multi_select, door_type, tool_name, outcome, afk, asked_at)
         SELECT session_id || '-' || i, tool_use_id, question_index, question_id, id_source,
             hex(randomblob(12288)), options, multi_select, door_type, tool_name, outcome, afk,
             asked_at + i
         FROM questions, n",
    )
    .unwrap();
    drop(conn);
    let redirected = world.tmp.path().join("redirected.jsonl");
    let mut cmd = world.command();
    cmd.arg("export")
        .stdout(std::fs::File::create(&redirected).unwrap());
    assert!(cmd.status().unwrap().success());
    let out = world.run(&["export"]).success();
    assert!(out.stdout.len() > 8 << 20, "{} bytes", out.stdout.len());
    assert!(
        std::fs::read(&redirected).unwrap() == out.stdout,
        "the same through a file"
    );
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 410);
}

#[test]
fn a_database_path_that_is_no_file_says_what_is_wrong_and_touches_nothing() {
    // Issue #12.13: ASKHOOK_DB=/dev/null created /dev/null-journal and /dev/null.spool, and a
    // folder as the database reported "disk I/O error".
    let world = World::new();
    let folder = world.tmp.path().join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let fifo = world.tmp.path().join("a-fifo");
    let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    let journal_before = std::path::Path::new("/dev/null-journal").exists();
    for (name, db, what) in [
        (
            "/dev/null",
            std::path::PathBuf::from("/dev/null"),
            "a character device",
        ),
        ("a folder", folder.clone(), "a folder"),
        ("a FIFO (SQLite would block on it)", fifo.clone(), "a FIFO"),
    ] {
        for args in [
            &["log"][..],
            &["stats", "--json"],
            &["export"],
            &["pref", "set", "some-id", "always-ask"],
            &["forget", "--all", "--yes"],
        ] {
            let out = world.run(args).env("ASKHOOK_DB", &db).code(1);
            let err = crate::harness::stderr(&out);
            assert!(
                err.contains(what) && err.contains("--db"),
                "{name} {args:?}: {err}"
            );
            assert!(!err.contains("bug"), "{name} {args:?}: {err}");
        }
        let out = world
            .run(&["hook"])
            .env("ASKHOOK_DB", &db)
            .stdin(fixture("captured/basic--01-PreToolUse.json"))
            .success();
        assert!(out.stdout.is_empty(), "{name}: the hook abstains");
        let mut spool = db.clone().into_os_string();
        spool.push(".spool");
        assert!(
            !std::path::Path::new(&spool).exists(),
            "{name}: spooled beside it"
        );
        assert!(
            world.error_lines().iter().any(|l| l.contains(what)),
            "{name}: {:?}",
            world.error_lines()
        );
    }
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
    assert_eq!(
        std::path::Path::new("/dev/null-journal").exists(),
        journal_before,
        "a journal was created beside /dev/null"
    );
}

#[test]
fn a_damaged_database_is_named_as_one_and_not_as_a_bug() {
    let world = damaged();
    let err = crate::harness::stderr(&world.run(&["log"]).code(1));
    assert!(
        err.contains("damaged") && err.contains("move it aside"),
        "{err}"
    );
    assert!(!err.contains("bug"), "{err}");
}

#[test]
fn a_database_from_an_older_schema_version_is_read() {
    let world = World::new();
    std::fs::create_dir_all(&world.askhook_home).unwrap();
    {
        let conn = rusqlite::Connection::open(world.db()).unwrap();
        conn.execute_batch(askhook::store::migrations::MIGRATIONS[0])
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        conn.execute(
            "INSERT INTO questions (session_id, tool_use_id, question_index, question_id, id_source,
               question, options, multi_select, door_type, tool_name, outcome, answer, asked_at, settled_at)
             VALUES ('s-old', 't-old', 0, 'old-q', 'marker', 'An old question?', '[]', 0, 'two-way',
                     'AskUserQuestion', 'answered', 'Yes', 1700000000000, 1700000004000)",
            [],
        )
        .unwrap();
    }
    let rows = world.log();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["question_id"], "old-q");
    assert_eq!(rows[0]["asked_at"], "2023-11-14T22:13:20.000Z");
    let stats = json_of(&world, &["stats", "--json"]);
    assert_eq!(stats["outcomes"]["answered"], 1);
    // New rows still go in after the upgrade.
    replay(&world, &["marker--01-PreToolUse"]);
    assert_eq!(world.log().len(), 2);
}

#[test]
fn stats_count_outcomes_follow_rate_and_time() {
    let world = filled();
    let s = json_of(&world, &["stats", "--json"]);
    assert_eq!(s["total"], 10);
    for (outcome, n) in [
        ("answered", 5),
        ("failed", 1),
        ("declined", 2),
        ("pending", 2),
        ("abandoned", 0),
        ("auto-decided", 0),
    ] {
        assert_eq!(s["outcomes"][outcome], n, "{outcome}");
    }
    assert_eq!(s["human_answers"], 5);
    // basic: X (Recommended) followed; freetext: free text overrode it; marker: Yes followed.
    assert!(
        s["follow_rate"].as_f64().unwrap() > 0.0 && s["follow_rate"].as_f64().unwrap() < 1.0,
        "{s}"
    );
    assert!(s["time_to_answer_ms"]["median"].is_i64());
    assert_eq!(s["busiest_projects"][0]["asked"], 10);
    let ids: Vec<&str> = s["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["question_id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"demo-q") && ids.contains(&"mcp-q"), "{ids:?}");
    let text = stdout(&world.run(&["stats"]).success());
    for needle in [
        "declined 2",
        "abandoned 0",
        "pending 2",
        "QUESTION ID",
        "demo-q",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    // Filters apply to stats too.
    let s = json_of(&world, &["stats", "--json", "--session", BASIC_SESSION]);
    assert_eq!(s["total"], 2);
}

#[test]
fn pending_lists_unsettled_questions_with_their_age() {
    let world = filled();
    let rows = json_of(&world, &["pending", "--json"]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows
        .iter()
        .all(|r| r["outcome"] == "pending" && r["age_seconds"].is_i64()));
    let text = stdout(&world.run(&["pending"]).success());
    assert!(
        text.contains("waiting") && text.contains("Which approach should we use?"),
        "{text}"
    );
    // A newer question in the same session, from a later prompt, makes the older one read as
    // abandoned.
    let mut newer = payload("deny--01-PreToolUse");
    newer["tool_use_id"] = json!("toolu_newer");
    newer["prompt_id"] = json!("a-later-prompt");
    newer["prompt_id"] = json!("a-later-prompt");
    newer["tool_input"]["questions"] = json!([newer["tool_input"]["questions"][0]]);
    world.hook_json(newer);
    assert_eq!(
        json_of(&world, &["pending", "--json"])
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(log_of(&world, &["--outcome", "abandoned"]).len(), 2);
    let s = json_of(&world, &["stats", "--json"]);
    assert_eq!(s["outcomes"]["abandoned"], 2);
}

#[test]
fn show_finds_a_question_id_or_a_call() {
    let world = filled();
    let q = json_of(&world, &["show", "demo-q", "--json"]);
    assert_eq!(q["kind"], "question");
    assert_eq!(q["rows"].as_array().unwrap().len(), 1);
    let call = json_of(&world, &["show", "toolu_fake_mcp_fail_0001", "--json"]);
    assert_eq!(call["kind"], "call");
    assert_eq!(call["rows"][0]["outcome"], "failed");
    assert!(call["rows"][0]["error"]
        .as_str()
        .unwrap()
        .contains("timeout"));
    let text = stdout(&world.run(&["show", "demo-q"]).success());
    assert!(text.contains("Should we enable the cache?"));
    world.run(&["show", "no-such-id"]).code(1);
}

#[test]
fn watch_sees_a_question_asked_by_another_process() {
    let world = World::new();
    // The database exists before watch starts (watch also waits for one to appear).
    replay(&world, &["basic--01-PreToolUse", "basic--02-PostToolUse"]);
    let mut child = world
        .command()
        .args(["watch", "--json", "--interval-ms", "40"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next = |rx: &mpsc::Receiver<String>| -> Value {
        let line = rx
            .recv_timeout(Duration::from_secs(15))
            .expect("watch printed nothing");
        serde_json::from_str(&line).unwrap()
    };
    // Give watch a moment to take its starting point; an early event would still be seen.
    std::thread::sleep(Duration::from_millis(200));
    replay(&world, &["marker--01-PreToolUse"]);
    let asked = next(&rx);
    assert_eq!(asked["event"], "asked");
    assert_eq!(asked["question_id"], "demo-q");
    assert_eq!(asked["outcome"], "pending");
    replay(&world, &["marker--02-PostToolUse"]);
    let settled = next(&rx);
    assert_eq!(settled["event"], "settled");
    assert_eq!(settled["question_id"], "demo-q");
    assert_eq!(settled["outcome"], "answered");
    assert!(
        rx.recv_timeout(Duration::from_millis(300)).is_err(),
        "old rows are not replayed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn watch_exits_cleanly_when_its_reader_goes_away() {
    let world = World::new();
    replay(&world, &["basic--01-PreToolUse"]);
    let mut child = world
        .command()
        .args(["watch", "--interval-ms", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    std::thread::sleep(Duration::from_millis(100));
    replay(&world, &["marker--01-PreToolUse"]);
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "watch kept running on a closed pipe"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
}

/// A gstack projects tree in gstack's documented format.
fn gstack_tree(world: &World) -> std::path::PathBuf {
    let root = world.home.join(".gstack/projects");
    let a = root.join("shop");
    let b = root.join("blog");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let line = |v: Value| serde_json::to_string(&v).unwrap();
    let log_a = [
        line(
            json!({"skill": "ship", "question_id": "enable-cache", "question_summary": "Enable the build cache?",
                    "options_count": 2, "user_choice": "Yes", "recommended": "Yes", "followed_recommendation": true,
                    "source": "user", "session_id": "gs-1", "tool_use_id": "toolu_gs_1", "ts": "2026-11-30T10:00:00Z"}),
        ),
        line(
            json!({"skill": "ship", "question_id": "ship-changelog-voice", "question_summary": "Polish the changelog voice?",
                    "options_count": 3, "user_choice": "Keep", "recommended": "Polish", "followed_recommendation": false,
                    "source": "user", "session_id": "gs-1", "tool_use_id": "toolu_gs_1", "ts": "2026-11-30T10:00:05Z"}),
        ),
        line(
            json!({"skill": "ship", "question_id": "enable-cache", "question_summary": "Enable the build cache?",
                    "options_count": 2, "user_choice": "Yes", "recommended": "Yes", "followed_recommendation": true,
                    "source": "auto-decided", "session_id": "gs-2", "tool_use_id": "toolu_gs_2", "ts": "2026-12-01T09:00:00Z"}),
        ),
        "{not json".to_owned(),
        line(
            json!({"skill": "ship", "question_summary": "No id here", "ts": "2026-12-01T09:00:00Z"}),
        ),
        line(
            json!({"skill": "ship", "question_id": "bad-ts", "question_summary": "When?", "ts": "last tuesday"}),
        ),
    ];
    std::fs::write(a.join("question-log.jsonl"), log_a.join("\n") + "\n").unwrap();
    std::fs::write(
        a.join("question-preferences.json"),
        r#"{"enable-cache": "never-ask", "force-push-branch": "never-ask", "weird": "sometimes",
            "land-and-deploy-merge-confirm": "never-ask", "ship-split-rspec": "ask-only-for-one-way"}"#,
    )
    .unwrap();
    let log_b = [line(
        json!({"skill": "review", "question_id": "review-depth", "question_summary": "Review depth?",
                              "options_count": 2, "user_choice": "Deep", "recommended": "Deep",
                              "followed_recommendation": true, "source": "user", "session_id": "gs-3",
                              "ts": "2026-12-01T11:00:00Z"}),
    )];
    std::fs::write(b.join("question-log.jsonl"), log_b.join("\n") + "\n").unwrap();
    root
}

/// Silencing gstack preferences on one-way ids and split chains are kept, marked inert.
fn assert_gstack_preferences_kept_and_inert(world: &World) {
    let prefs = json_of(world, &["pref", "list", "--json"]);
    let ids: Vec<&str> = prefs
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["question_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![
            "enable-cache",
            "force-push-branch",
            "land-and-deploy-merge-confirm",
            "ship-split-rspec"
        ]
    );
    let inert: Vec<bool> = prefs
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["inert"] == true)
        .collect();
    assert_eq!(inert, vec![false, true, true, true], "{prefs}");
}

#[test]
fn import_gstack_is_idempotent_and_says_why_it_rejects() {
    let world = World::new();
    gstack_tree(&world);
    let first = json_of(&world, &["import", "gstack", "--json"]);
    assert_eq!(first["imported"], 4, "{first}");
    assert_eq!(first["skipped"], 0);
    assert_eq!(first["rejected"], 3);
    assert_eq!(first["preferences_imported"], 1, "{first}");
    assert_eq!(
        first["preferences_inert"], 3,
        "askhook's and gstack's one-way doors, and a split chain: {first}"
    );
    assert_eq!(
        first["preferences_rejected"], 1,
        "an unknown value: {first}"
    );
    let reasons: Vec<&str> = first["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reason"].as_str().unwrap())
        .collect();
    for needle in [
        "not JSON",
        "no question_id",
        "no readable ts",
        "imported as inert: a one-way door",
        "imported as inert: a gstack split-chain question",
        "unknown preference",
    ] {
        assert!(
            reasons.iter().any(|r| r.contains(needle)),
            "{needle}: {reasons:?}"
        );
    }
    let again = json_of(&world, &["import", "gstack", "--json"]);
    assert_eq!(again["imported"], 0, "{again}");
    assert_eq!(again["skipped"], 4);
    assert_eq!(again["preferences_imported"], 0);

    let rows = world.log();
    assert_eq!(rows.len(), 4);
    let auto = rows
        .iter()
        .find(|r| r["outcome"] == "auto-decided")
        .unwrap();
    assert_eq!(auto["question_id"], "enable-cache");
    assert_eq!(auto["project"], "gstack:shop");
    let call = log_of(&world, &["--session", "gs-1"]);
    assert_eq!(
        call.iter()
            .map(|r| r["question_index"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        vec![0, 1]
    );
    assert_gstack_preferences_kept_and_inert(&world);
    // An explicit folder works too, and a missing one is a usage error.
    let one = world.home.join(".gstack/projects/blog");
    let r = json_of(
        &world,
        &["import", "gstack", one.to_str().unwrap(), "--json"],
    );
    assert_eq!(r["skipped"], 1);
    world.run(&["import", "gstack", "/no/such/dir"]).code(2);
}

#[test]
fn imported_rows_are_scrubbed_like_the_hooks() {
    let world = World::new();
    let dir = world.home.join(".gstack/projects/shop");
    std::fs::create_dir_all(&dir).unwrap();
    let line = json!({"skill": "ship", "question_id": "db-login",
        "question_summary": "Run PGPASSWORD=PgSecret1 psql -h db?", "options_count": 2,
        "user_choice": "Yes, with password=hunter2hunter2", "source": "user",
        "session_id": "gs-1", "tool_use_id": "toolu_gs_1", "ts": "2026-11-30T10:00:00Z"});
    std::fs::write(dir.join("question-log.jsonl"), format!("{line}\n")).unwrap();
    world.run(&["import", "gstack"]).success();
    let text = serde_json::to_string(&world.log()).unwrap();
    assert!(
        !text.contains("PgSecret1") && !text.contains("hunter2hunter2"),
        "{text}"
    );
    assert!(
        text.contains("PGPASSWORD=[redacted:password] psql"),
        "{text}"
    );
}

#[test]
fn forget_deletes_only_matching_rows_and_needs_yes_off_a_terminal() {
    let world = filled();
    let out = world.run(&["forget", "--session", BASIC_SESSION]).code(2);
    assert!(crate::harness::stderr(&out).contains("--yes"));
    assert_eq!(world.log().len(), 10, "nothing deleted without --yes");
    let r = json_of(
        &world,
        &["forget", "--session", BASIC_SESSION, "--yes", "--json"],
    );
    assert_eq!(r["deleted"], 2);
    let rows = world.log();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r["session_id"] != BASIC_SESSION));
    let r = json_of(
        &world,
        &["forget", "--outcome", "declined", "--yes", "--json"],
    );
    assert_eq!(r["deleted"], 2);
    // The answers are gone from the file, not just unlinked.
    let bytes = std::fs::read(world.db()).unwrap();
    let needle = b"Alpha, Gamma";
    assert!(
        !bytes.windows(needle.len()).any(|w| w == needle),
        "deleted answer still on disk"
    );
}

#[test]
fn suggest_offers_followed_two_way_questions_but_never_one_way_ones() {
    let world = World::new();
    for n in 0..5 {
        for (name, text) in [
            ("two", "Should we enable the cache? <askhook-qid:demo-q>"),
            ("one", "Delete the uploads folder? <askhook-qid:wipe-build>"),
        ] {
            let tool_use_id = format!("toolu_{name}_{n}");
            let mut pre = payload("marker--01-PreToolUse");
            pre["tool_use_id"] = json!(tool_use_id);
            pre["tool_input"]["questions"][0]["question"] = json!(text);
            let mut post = payload("marker--02-PostToolUse");
            post["tool_use_id"] = json!(tool_use_id);
            post["tool_input"]["questions"][0]["question"] = json!(text);
            post["tool_response"]["questions"][0]["question"] = json!(text);
            post["tool_input"]["answers"] = json!({ text: "Yes (Recommended)" });
            post["tool_response"]["answers"] = json!({ text: "Yes (Recommended)" });
            world.hook_json(pre);
            world.hook_json(post);
        }
    }
    let s = json_of(&world, &["suggest", "--json"]);
    let ids: Vec<&str> = s["never_ask"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["question_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["demo-q"], "{s}");
    assert_eq!(
        s["never_ask"][0]["command"],
        "askhook pref set demo-q never-ask"
    );
    let text = stdout(&world.run(&["suggest"]).success());
    assert!(text.contains("askhook pref set demo-q never-ask"), "{text}");
    assert!(!text.contains("wipe-build"));
    // Higher thresholds than the history: nothing.
    let s = json_of(&world, &["suggest", "--json", "--min-asked", "6"]);
    assert_eq!(s["never_ask"], json!([]));
    // --apply sets it (no agent marker in this environment).
    let s = json_of(&world, &["suggest", "--json", "--apply"]);
    assert_eq!(s["applied"], json!(["demo-q"]));
    let prefs = json_of(&world, &["pref", "list", "--json"]);
    assert_eq!(prefs[0]["question_id"], "demo-q");
    assert_eq!(prefs[0]["value"], "never-ask");
    // Once set, it is no longer a candidate.
    assert_eq!(
        json_of(&world, &["suggest", "--json"])["never_ask"],
        json!([])
    );
}

#[test]
fn suggest_lists_silenced_questions_the_user_kept_overriding() {
    let world = World::new();
    for n in 0..3 {
        let tool_use_id = format!("toolu_over_{n}");
        let mut pre = payload("marker--01-PreToolUse");
        pre["tool_use_id"] = json!(tool_use_id);
        let mut post = payload("marker--02-PostToolUse");
        post["tool_use_id"] = json!(tool_use_id);
        let q = post["tool_input"]["questions"][0]["question"].clone();
        let mut answers = serde_json::Map::new();
        answers.insert(q.as_str().unwrap().to_owned(), json!("No"));
        post["tool_input"]["answers"] = Value::Object(answers.clone());
        post["tool_response"]["answers"] = Value::Object(answers);
        world.hook_json(pre);
        world.hook_json(post);
    }
    world.prefer("demo-q", "never-ask", None);
    let s = json_of(&world, &["suggest", "--json"]);
    assert_eq!(s["reconsider"][0]["question_id"], "demo-q", "{s}");
    assert_eq!(s["reconsider"][0]["overridden"], 3);
    assert_eq!(s["reconsider"][0]["command"], "askhook pref clear demo-q");
}

#[test]
fn demo_replays_a_realistic_session_through_the_hook() {
    let world = World::new();
    let out = world.run(&["demo"]).success();
    let text = stdout(&out);
    for needle in [
        "$ askhook log",
        "$ askhook stats",
        "auto",
        "failed",
        "declined",
        "pending",
        "enable-cache",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    assert!(
        !world.db().exists(),
        "the throwaway demo must not touch the user's database"
    );

    let db = world.tmp.path().join("demo.db");
    world.run(&["demo", "--db", db.to_str().unwrap()]).success();
    let rows: Vec<Value> = serde_json::from_slice(
        &world
            .run(&["--db", db.to_str().unwrap(), "log", "--json"])
            .success()
            .stdout,
    )
    .unwrap();
    assert!(rows.len() >= 12, "{}", rows.len());
    let outcomes = field(&rows, "outcome");
    for outcome in ["answered", "auto-decided", "failed", "declined", "pending"] {
        assert!(outcomes.contains(&outcome), "{outcome}");
    }
    assert!(rows
        .iter()
        .any(|r| r["multi_select"] == true && r["selections"].is_array()));
    assert!(rows.iter().any(|r| r["free_text"].is_string()));
    let push = rows
        .iter()
        .find(|r| r["question_id"] == "force-push-branch")
        .unwrap();
    assert_eq!(push["door_type"], "one-way");
    assert_eq!(
        push["outcome"], "answered",
        "a one-way door still asks despite never-ask"
    );
    // An existing file is refused rather than mixed into.
    world.run(&["demo", "--db", db.to_str().unwrap()]).code(1);
}

/// `--help` of a query command groups its flags: the command's own options first, then the
/// shared filters, then the path overrides, each under its heading and each listed once.
#[test]
fn query_help_groups_options_filters_and_paths() {
    let world = World::new();
    for command in [
        "log", "stats", "pending", "watch", "suggest", "export", "forget",
    ] {
        let help = stdout(&world.run(&[command, "--help"]).success());
        let at = |text: &str| {
            assert_eq!(
                help.matches(text).count(),
                1,
                "{command}: {text:?} once in\n{help}"
            );
            help.find(text).unwrap()
        };
        let (options, filters, paths) = (at("\nOptions:"), at("\nFilters:"), at("\nPaths"));
        assert!(options < filters && filters < paths, "{command}:\n{help}");
        assert!(
            at("--since") > filters && at("--grep") < paths,
            "{command}:\n{help}"
        );
        assert!(at("--db <FILE>") > paths, "{command}:\n{help}");
        assert!(at("--help") < filters, "{command}:\n{help}");
    }
}

/// Tables and the text report show local time (here `TZ=IST-5:30`, a POSIX zone that needs no
/// tz database, with a half-hour offset); JSON stays UTC and adds the local hours.
#[test]
fn tables_show_local_time_and_json_stays_utc() {
    let world = World::new().env("TZ", "IST-5:30");
    replay(&world, &["basic--01-PreToolUse", "basic--02-PostToolUse"]);
    let rows = log_of(&world, &[]);
    let asked_at = rows[0]["asked_at"].as_str().unwrap();
    assert!(asked_at.ends_with('Z'), "JSON times are UTC: {asked_at}");
    // Minutes into the UTC day, and the same instant in IST (the date may roll over).
    let n = |r: std::ops::Range<usize>| asked_at[r].parse::<u64>().unwrap();
    let utc_minute = n(11..13) * 60 + n(14..16);
    let local_minute = (utc_minute + 5 * 60 + 30) % 1440;
    let local_hhmm = format!(" {:02}:{:02}", local_minute / 60, local_minute % 60);

    let table = stdout(&world.run(&["log"]).success());
    let header = table.lines().next().unwrap();
    assert!(
        header.contains("IST"),
        "the header names the zone: {header}"
    );
    assert!(table.contains(&local_hhmm), "{local_hhmm:?} in\n{table}");
    let full = stdout(&world.run(&["log", "--full"]).success());
    assert!(full.contains(&format!("{local_hhmm} IST")), "{full}");

    let s = json_of(&world, &["stats", "--json"]);
    assert_eq!(s["local_time_zone"], "IST");
    assert_eq!(s["busiest_hours_utc"][0]["hour"], utc_minute / 60, "{s}");
    assert_eq!(
        s["busiest_hours_local"][0]["hour"],
        local_minute / 60,
        "{s}"
    );
    let text = stdout(&world.run(&["stats"]).success());
    assert!(
        text.contains(&format!("busiest hours (IST): {:02}:00", local_minute / 60)),
        "{text}"
    );
}

/// Every command of the query CLI speaks JSON: `export --json` is `--format json`, and
/// `demo --json` is one object holding what `log --json` and `stats --json` print for it.
#[test]
fn export_and_demo_take_json_too() {
    let world = filled();
    let log = json_of(&world, &["log", "--json"]);
    assert_eq!(json_of(&world, &["export", "--json"]), log);
    assert_eq!(json_of(&world, &["export", "--format", "json"]), log);
    world.run(&["export", "--json", "--format", "csv"]).code(2);

    let db = world.tmp.path().join("demo.db");
    let db = db.to_str().unwrap();
    let demo = json_of(&world, &["demo", "--db", db, "--json"]);
    assert_eq!(demo["db"], db);
    assert!(demo["events"].as_u64().unwrap() >= 12, "{demo}");
    assert_eq!(demo["log"], json_of(&world, &["--db", db, "log", "--json"]));
    let stats = json_of(&world, &["--db", db, "stats", "--json"]);
    assert_eq!(demo["stats"]["total"], stats["total"]);
    assert_eq!(demo["stats"]["outcomes"], stats["outcomes"]);
    // A throwaway demo says where nothing stays.
    assert_eq!(json_of(&world, &["demo", "--json"])["db"], Value::Null);
}
