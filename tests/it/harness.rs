//! The test harness: a temp world per test and a builder that runs the real binary in it.

#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The askhook binary under test.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_askhook")
}

/// The fixtures folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Read a fixture file.
pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// A private world: HOME, `ASKHOOK_HOME`, `CLAUDE_CONFIG_DIR` and a project folder, all temp.
pub struct World {
    pub tmp: tempfile::TempDir,
    pub home: PathBuf,
    pub askhook_home: PathBuf,
    pub claude_config: PathBuf,
    pub project: PathBuf,
    extra_env: Vec<(OsString, OsString)>,
}

impl World {
    pub fn new() -> World {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().canonicalize().unwrap();
        let home = root.join("home");
        let askhook_home = root.join("askhook");
        let claude_config = home.join(".claude");
        let project = root.join("proj");
        for dir in [&home, &project] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::create_dir_all(project.join(".git")).unwrap();
        World {
            tmp,
            home,
            askhook_home,
            claude_config,
            project,
            extra_env: Vec::new(),
        }
    }

    /// Set an extra environment variable for every command this world runs.
    pub fn env(mut self, key: &str, value: impl Into<OsString>) -> World {
        self.extra_env.push((key.into(), value.into()));
        self
    }

    pub fn db(&self) -> PathBuf {
        self.askhook_home.join("askhook.db")
    }

    pub fn error_log(&self) -> PathBuf {
        self.askhook_home.join("errors.log")
    }

    /// The lines of the error log (empty when there is none).
    pub fn error_lines(&self) -> Vec<String> {
        std::fs::read_to_string(self.error_log())
            .map(|t| t.lines().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// A `Command` for the binary with a scrubbed environment pointing into this world.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(bin());
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("ASKHOOK_HOME", &self.askhook_home)
            .env("CLAUDE_CONFIG_DIR", &self.claude_config)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("NO_COLOR", "1")
            // Tables show local time: a fixed zone keeps them the same on every machine.
            .env("TZ", "UTC")
            .current_dir(&self.project);
        for (k, v) in &self.extra_env {
            cmd.env(k, v);
        }
        cmd
    }

    /// Start a run of `askhook <args>`.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut cmd = self.command();
        cmd.args(args);
        Run {
            cmd,
            stdin: Vec::new(),
        }
    }

    /// Run `askhook hook` with `payload` on stdin.
    #[track_caller]
    pub fn hook(&self, payload: &[u8]) -> Output {
        self.run(&["hook"]).stdin(payload).output()
    }

    /// Run `askhook hook` with a payload that has its `cwd` set to this world's project.
    #[track_caller]
    pub fn hook_json(&self, mut payload: Value) -> Output {
        if payload.get("cwd").is_some() {
            payload["cwd"] = Value::String(self.project.to_string_lossy().into_owned());
        }
        self.hook(&serde_json::to_vec(&payload).unwrap())
    }

    /// The writes waiting in the spool, where the hook appends every event (each record's
    /// JSON: `{"write": "records", "records": [...]}` or a decline), oldest first.
    pub fn spooled_writes(&self) -> Vec<Value> {
        let bytes = std::fs::read(self.askhook_home.join("askhook.db.spool")).unwrap_or_default();
        bytes
            .split(|&b| b == 0x1e)
            .skip(1)
            .map(|record| {
                let body = &record[record.iter().position(|&b| b == b'\n').unwrap() + 1..];
                serde_json::from_slice(body.trim_ascii_end()).expect("a whole spool record")
            })
            .collect()
    }

    /// A column of the question of call `tool_use_id` as the hook wrote it: its latest spooled
    /// record while one is waiting in the spool, else the database row (never through the
    /// CLI, which would ingest and settle first).
    pub fn stored(&self, tool_use_id: &str, column: &str) -> Value {
        let spooled = self.spooled_writes().into_iter().rev().find_map(|w| {
            w["records"]
                .as_array()?
                .iter()
                .find(|r| r["tool_use_id"] == tool_use_id)
                .map(|r| r[column].clone())
        });
        spooled.unwrap_or_else(|| {
            let conn = rusqlite::Connection::open(self.db()).unwrap();
            conn.query_row(
                &format!("SELECT {column} FROM questions WHERE tool_use_id = ?1"),
                [tool_use_id],
                |r| {
                    Ok(match r.get::<_, rusqlite::types::Value>(0)? {
                        rusqlite::types::Value::Text(t) => Value::String(t),
                        rusqlite::types::Value::Integer(i) => Value::from(i),
                        _ => Value::Null,
                    })
                },
            )
            .unwrap()
        })
    }

    /// `askhook log --json`, parsed.
    #[track_caller]
    pub fn log(&self) -> Vec<Value> {
        let out = self.run(&["log", "--json"]).success();
        let v: Value = serde_json::from_slice(&out.stdout).expect("log --json is JSON");
        v.as_array().expect("log --json is an array").clone()
    }

    /// `askhook <args>`, asserted to succeed, its stdout parsed as JSON.
    #[track_caller]
    pub fn json(&self, args: &[&str]) -> Value {
        let out = self.run(args).success();
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{args:?}: not JSON ({e}): {}",
                String::from_utf8_lossy(&out.stdout)
            )
        })
    }
}

/// One run of the binary, built up then executed.
#[must_use]
pub struct Run {
    cmd: Command,
    stdin: Vec<u8>,
}

impl Run {
    pub fn stdin(mut self, bytes: impl AsRef<[u8]>) -> Run {
        self.stdin = bytes.as_ref().to_vec();
        self
    }

    pub fn env(mut self, key: &str, value: impl AsRef<std::ffi::OsStr>) -> Run {
        self.cmd.env(key, value);
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Run {
        self.cmd.current_dir(dir);
        self
    }

    #[track_caller]
    pub fn output(mut self) -> Output {
        self.cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = self.cmd.spawn().expect("spawn askhook");
        let mut stdin = child.stdin.take().unwrap();
        let bytes = std::mem::take(&mut self.stdin);
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
        let out = child.wait_with_output().expect("wait askhook");
        let _ = writer.join();
        out
    }

    /// Run and assert exit 0.
    #[track_caller]
    pub fn success(self) -> Output {
        let out = self.output();
        assert!(
            out.status.success(),
            "askhook failed ({:?})\nstdout: {}\nstderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Run and assert this exit code.
    #[track_caller]
    pub fn code(self, code: i32) -> Output {
        let out = self.output();
        assert_eq!(
            out.status.code(),
            Some(code),
            "stdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}

/// Stdout as a string.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stderr as a string.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

// ---- appended for tests/it/trust.rs (terminal control) ----

impl Run {
    /// Run in a new session with no controlling terminal, as the commands an agent runs
    /// are: opening `/dev/tty` fails in the child, whatever terminal the test runner has.
    pub fn without_tty(mut self) -> Run {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
        unsafe {
            self.cmd.pre_exec(|| {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        self
    }

    /// Run in a new session whose controlling terminal is a fresh pseudo-terminal, with
    /// `typed` already typed into it. Returns the output and everything the child wrote to
    /// the terminal (the prompt a person would read). Stdin/stdout/stderr stay pipes.
    #[track_caller]
    pub fn with_tty(mut self, typed: &str) -> (Output, String) {
        use std::os::fd::{FromRawFd, OwnedFd};
        use std::os::unix::process::CommandExt;
        let (mut master, mut slave_fd) = (0, 0);
        // SAFETY: openpty writes two fds into the out-parameters; null name/termios/winsize.
        let rc = unsafe {
            libc::openpty(
                &raw mut master,
                &raw mut slave_fd,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
        // Close-on-exec, so children other tests spawn meanwhile do not keep the pty open.
        // SAFETY: fcntl on fds owned here.
        unsafe {
            libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC);
            libc::fcntl(slave_fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
        // SAFETY: the fds were just returned by openpty and are owned here.
        let master = unsafe { std::fs::File::from_raw_fd(master) };
        let slave_owned = unsafe { OwnedFd::from_raw_fd(slave_fd) };
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            self.cmd.pre_exec(move || {
                if libc::setsid() < 0
                    || libc::ioctl(slave_fd, libc::TIOCSCTTY as _, 0) < 0
                    || libc::fcntl(slave_fd, libc::F_SETFD, 0) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        {
            use std::io::Write as _;
            let mut m = &master;
            m.write_all(typed.as_bytes()).expect("type into the pty");
        }
        let shown = drain_pty(master.try_clone().expect("clone pty master"));
        let out = {
            self.cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = self.cmd.spawn().expect("spawn askhook");
            drop(slave_owned);
            drop(child.stdin.take());
            child.wait_with_output().expect("wait askhook")
        };
        drop(master);
        (out, shown.join().unwrap_or_default())
    }
}

/// Read a pseudo-terminal's master side on a thread until the last holder of the slave side
/// exits (the read then fails with EIO); everything shown there, as text.
pub fn drain_pty(mut master: std::fs::File) -> std::thread::JoinHandle<String> {
    use std::io::Read;
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&all).into_owned()
    })
}

impl World {
    /// Set a preference straight in the store, for tests whose subject is the hook rather than
    /// the human-only gate (`trust.rs` covers that gate through the binary). This keeps them
    /// independent of whether an agent marker is set anywhere above the test runner.
    pub fn prefer(&self, id: &str, value: &str, project: Option<&Path>) {
        let value = askhook_core::policy::Preference::parse(value).expect("a preference value");
        let scope = project
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut store = askhook::store::Store::open(&self.db(), std::time::Duration::from_secs(5))
            .expect("open the store");
        store
            .set_preference(id, &scope, Some(value), "test harness", 0)
            .expect("set the preference");
    }

    /// [`World::prefer`] for many ids at once, global, in one transaction (the door corpora
    /// set thousands).
    pub fn prefer_all<'a>(&self, ids: impl IntoIterator<Item = &'a str>, value: &str) {
        let value = askhook_core::policy::Preference::parse(value).expect("a preference value");
        let changes: Vec<_> = ids.into_iter().map(|id| (id, "", Some(value))).collect();
        let mut store = askhook::store::Store::open(&self.db(), std::time::Duration::from_secs(5))
            .expect("open the store");
        store
            .set_preferences(&changes, "test harness", 0)
            .expect("set the preferences");
    }
}

impl World {
    /// Add a rule straight in the store (the hook is the subject; `rule add` and its gate are
    /// tested through the binary in `decide.rs`). `patterns` are `(field, regex)`.
    pub fn rule(&self, name: &str, value: &str, patterns: &[(&str, &str)]) {
        let rule = askhook::rules::Rule {
            name: name.into(),
            scope: String::new(),
            value: askhook_core::policy::Preference::parse(value),
            patterns: patterns
                .iter()
                .map(|(field, p)| {
                    let field = askhook::rules::Field::parse(field).expect("a field");
                    askhook::rules::Pattern::new(field, p).expect("a valid pattern")
                })
                .collect(),
        };
        let mut store = askhook::store::Store::open(&self.db(), std::time::Duration::from_secs(5))
            .expect("open the store");
        store
            .put_rule(name, Some(&rule), "test harness", 0)
            .expect("store the rule");
    }
}
