//! The query CLI on a real terminal: `askhook log` in an 80-column tmux pane, where stdout is a
//! terminal whose width only `ioctl(TIOCGWINSZ)` knows (no `COLUMNS`), with the pager, colour
//! and `--no-pager`.
//!
//! Needs tmux and less. Without them the test says so on stderr and passes on a developer's
//! machine, and fails under CI (`CI=true`), like the end-to-end suite (`tests/e2e.rs`): CI is
//! never green without it having run. `tests/e2e/setup` installs tmux.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use unicode_width::UnicodeWidthStr;

use crate::harness::{bin, World};

const WIDTH: usize = 80;
const HEIGHT: usize = 24;

/// CI as `tests/e2e.rs` reads it.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"))
}

/// What this machine lacks for the terminal test, or None.
fn missing() -> Option<String> {
    let lacks: Vec<&str> = ["tmux", "less"]
        .into_iter()
        .filter(|tool| {
            Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .map_or(true, |o| !o.status.success())
        })
        .collect();
    (!lacks.is_empty()).then(|| format!("{} not installed", lacks.join(" and ")))
}

/// A private tmux server (its own socket, no config) with one pane of WIDTH × HEIGHT.
struct Pane {
    socket: PathBuf,
}

impl Pane {
    /// Start `script` (a shell script) in a fresh pane.
    fn start(dir: &Path, name: &str, script: &str) -> Pane {
        let file = dir.join(format!("{name}.sh"));
        std::fs::write(&file, script).unwrap();
        let pane = Pane {
            socket: dir.join(format!("{name}.tmux")),
        };
        let (w, h) = (WIDTH.to_string(), HEIGHT.to_string());
        let sh = format!("sh {}", file.display());
        pane.tmux(&["new-session", "-d", "-x", &w, "-y", &h, &sh]);
        pane
    }

    fn tmux(&self, args: &[&str]) -> String {
        let mut all = vec!["-S", self.socket.to_str().unwrap(), "-f", "/dev/null"];
        all.extend_from_slice(args);
        let out = Command::new("tmux").args(&all).output().expect("run tmux");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The screen, wrapped lines joined (so a row wider than the pane shows as one long line);
    /// with `escapes`, colour sequences kept.
    fn screen(&self, escapes: bool) -> String {
        let flags = if escapes { "-pJe" } else { "-pJ" };
        self.tmux(&["capture-pane", flags])
    }

    /// Wait until the screen satisfies `done`; the screen then, or a failure after 15 s.
    #[track_caller]
    fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen(false);
            if done(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "waited 15 s for {what}; the pane shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-S", self.socket.to_str().unwrap(), "kill-server"])
            .output();
    }
}

/// A script that runs `askhook <args>` in `world` with a clean environment (no `COLUMNS`, no
/// `PAGER`, `LESS` or `NO_COLOR`: the defaults; a UTF-8 locale for less), then prints its exit
/// code and waits.
fn script(world: &World, args: &str) -> String {
    format!(
        "exec env -i HOME='{}' ASKHOOK_HOME='{}' TZ=UTC LC_ALL=C.UTF-8 TERM=\"$TERM\" PATH='{}' \\\n  \
         sh -c '\"$0\" \"$@\"; echo EXIT=$?; sleep 60' '{}' {args}\n",
        world.home.display(),
        world.askhook_home.display(),
        std::env::var("PATH").unwrap_or_default(),
        bin(),
    )
}

/// Whether `test` can run here; when it cannot, says so where it is seen (stderr, not the
/// captured output), or fails under CI.
fn can_run(test: &str) -> bool {
    let Some(why) = missing() else {
        return true;
    };
    assert!(
        !under_ci(),
        "the terminal test cannot run: {why} (tests/e2e/setup installs tmux)"
    );
    let _ = writeln!(std::io::stderr(), "terminal: SKIPPED {test}: {why}");
    false
}

/// A world holding the demo session (13 questions).
fn demo_world() -> World {
    let world = World::new();
    let db = world.db();
    world.run(&["demo", "--db", db.to_str().unwrap()]).success();
    world
}

#[test]
fn log_fits_an_80_column_terminal_and_pages_long_output() {
    if !can_run("log_fits_an_80_column_terminal_and_pages_long_output") {
        return;
    }
    let world = demo_world();
    let dir = world.tmp.path();

    // 13 rows fit one screen: `less -F` quits by itself; every row fits 80 columns, coloured.
    let pane = Pane::start(dir, "short", &script(&world, "log"));
    let screen = pane.wait_for("askhook log to end", |s| s.contains("EXIT="));
    assert!(screen.contains("EXIT=0"), "{screen}");
    let rows: Vec<&str> = screen
        .lines()
        .take_while(|l| !l.starts_with("EXIT"))
        .collect();
    assert_eq!(rows.len(), 14, "a header and 13 rows:\n{screen}");
    assert!(
        rows[0].contains("PROJECT") && rows[0].ends_with(" F"),
        "{screen}"
    );
    for row in &rows {
        assert!(
            row.width() <= WIDTH,
            "wider than {WIDTH}: {row:?}\n{screen}"
        );
    }
    assert!(
        pane.screen(true).contains("\u{1b}["),
        "colour on a terminal without NO_COLOR"
    );
    drop(pane);

    // `log --full` is longer than the screen: the pager holds it until `q`, which is success.
    let pane = Pane::start(dir, "long", &script(&world, "log --full"));
    let screen = pane.wait_for("the pager's prompt", |s| {
        s.lines().rev().find(|l| !l.trim().is_empty()) == Some(":")
    });
    assert!(!screen.contains("EXIT="), "{screen}");
    assert!(screen.lines().all(|l| l.width() <= WIDTH), "{screen}");
    pane.tmux(&["send-keys", "q"]);
    let screen = pane.wait_for("askhook to end after q", |s| s.contains("EXIT="));
    assert!(
        screen.contains("EXIT=0"),
        "quitting the pager is success:\n{screen}"
    );
    drop(pane);

    // `--no-pager` prints straight through, and `--color never` has no escapes.
    let pane = Pane::start(
        dir,
        "straight",
        &script(&world, "--no-pager --color never log --full"),
    );
    let screen = pane.wait_for("askhook to end by itself", |s| s.contains("EXIT="));
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(
        !pane.screen(true).contains("\u{1b}[3"),
        "no colour with --color never"
    );
}

#[test]
fn answering_no_to_forget_is_not_an_error() {
    if !can_run("answering_no_to_forget_is_not_an_error") {
        return;
    }
    let world = demo_world();
    let pane = Pane::start(
        world.tmp.path(),
        "forget",
        &script(&world, "forget --question enable-cache"),
    );
    pane.wait_for("the prompt", |s| s.contains("[y/N]"));
    pane.tmux(&["send-keys", "n", "Enter"]);
    let screen = pane.wait_for("forget to end", |s| s.contains("EXIT="));
    assert!(
        screen.contains("nothing deleted") && screen.contains("EXIT=0"),
        "{screen}"
    );
    assert_eq!(world.log().len(), 13, "nothing was deleted");
}

#[test]
fn purge_lists_what_it_deletes_and_asks_first() {
    if !can_run("purge_lists_what_it_deletes_and_asks_first") {
        return;
    }
    let world = demo_world();
    world.run(&["install"]).success();
    let pane = Pane::start(
        world.tmp.path(),
        "purge",
        &script(&world, "uninstall --purge"),
    );
    let db = world.db().display().to_string();
    let screen = pane.wait_for("the question", |s| s.contains("[y/N]"));
    assert!(
        screen.contains(&db),
        "the list names the database:\n{screen}"
    );
    assert!(world.db().exists(), "nothing is deleted before the answer");
    pane.tmux(&["send-keys", "y", "Enter"]);
    let screen = pane.wait_for("uninstall to end", |s| s.contains("EXIT="));
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(!world.askhook_home.exists(), "{screen}");
    assert!(!world.claude_config.join("settings.json").exists());
}
