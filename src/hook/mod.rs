//! The hook hot path: `askhook hook`. One JSON payload on stdin → record → decide → at most
//! one JSON object on stdout. It cannot fail the session:
//!
//! - every error and every panic becomes an abstain (exit 0, empty stdout) plus one line in
//!   the error log;
//! - the whole run is bounded by a hard deadline (`ASKHOOK_DEADLINE_MS`, default 2.5 s, far
//!   inside Claude Code's 5 s timeout): a timer ends the process with exit 0 when it is spent
//!   ([`crate::sys::deadline`]);
//! - stdin is read once, capped (`ASKHOOK_MAX_INPUT_BYTES`), then parsed as a slice;
//! - payloads that are not ours (other tools, other events) open nothing and record nothing;
//! - a question and its answer never open SQLite: the decision reads the copy of the standing
//!   preferences beside the database (`crate::store::standing`; the database only when the
//!   copy is missing), and the event is appended to the spool, which the end of the turn
//!   (Stop, UserPromptSubmit, SessionEnd) and every CLI command ingest;
//! - a write the database cannot take within the busy budget goes to the spool too, and so
//!   does the event when the deadline or SIGTERM, SIGINT or SIGHUP cuts the run;
//! - an event that reaches neither leaves a trace: a line on stderr (Claude Code shows it in
//!   verbose mode), one in the error log where it is writable, and one in the lost-events
//!   marker (`<db>.lost`) that `doctor` and `status` report;
//! - the config file (`crate::config`) is read only when it exists (one `stat` otherwise); one
//!   it cannot use makes every event an abstain with a line in the error log.

pub mod context;
pub mod event;
pub mod handle;
pub mod prefer;
pub mod privacy;
pub mod render;
pub mod wire;

use std::fs::OpenOptions;
use std::io::{Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::sys::deadline;
use crate::sys::errlog::ErrorLog;
use crate::sys::fsutil;
use crate::sys::paths::{Budget, Paths};

pub use handle::handle;
pub use render::Output;

/// What one hook run produced: the output, the lines for the error log, and why its event
/// was lost, if it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handled {
    pub output: Output,
    pub errors: Vec<String>,
    pub lost: Option<String>,
}

impl Handled {
    pub(crate) fn abstain() -> Handled {
        Handled {
            output: Output::Abstain,
            errors: Vec::new(),
            lost: None,
        }
    }

    pub(crate) fn abstain_because(error: impl Into<String>) -> Handled {
        Handled {
            output: Output::Abstain,
            errors: vec![error.into()],
            lost: None,
        }
    }
}

/// Everything a hook run needs from outside: where the files are, its budget, the clock.
#[derive(Debug, Clone)]
pub struct HookContext {
    pub paths: Paths,
    pub budget: Budget,
    /// The config file with the environment's overrides, or why it cannot be used (then the
    /// hook does nothing: see [`crate::config`]).
    pub config: Result<Config, String>,
    pub now_ms: i64,
    pub started: Instant,
}

impl HookContext {
    /// Time left before the deadline, less a margin for writing the output.
    pub(crate) fn remaining(&self) -> Duration {
        self.budget
            .deadline
            .saturating_sub(self.started.elapsed())
            .saturating_sub(Duration::from_millis(50))
    }

    pub(crate) fn busy_timeout(&self) -> Duration {
        self.budget.busy_timeout.min(self.remaining())
    }
}

static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Run the hook on the process's stdin and return the bytes for stdout. Never fails, never
/// panics, returns within the deadline — or, if the deadline falls first, ends the process
/// with exit 0 and empty stdout (see [`crate::sys::deadline`]).
pub fn run(paths: Paths, budget: Budget, config: Result<Config, String>) -> Vec<u8> {
    let started = Instant::now();
    let now_ms = crate::sys::time::now_ms();
    let log = ErrorLog::new(&paths.error_log);
    let files = deadline::Files {
        error_log: &paths.error_log,
        spool: &paths.spool(),
        lost_marker: &paths.lost_marker(),
    };
    if let Err(e) = deadline::arm(budget.deadline, &files) {
        log.write("hook", &format!("could not start the deadline timer: {e}"));
    }
    panic::set_hook(Box::new(|info| {
        if let Ok(mut slot) = LAST_PANIC.lock() {
            *slot = Some(info.to_string());
        }
    }));
    let ctx = HookContext {
        paths,
        budget,
        config,
        now_ms,
        started,
    };
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        match read_stdin(ctx.budget.max_input_bytes) {
            Ok(bytes) => handle(&bytes, &ctx),
            Err(e) => Handled::abstain_because(e),
        }
    }));
    let output = if let Ok(handled) = result {
        for line in &handled.errors {
            log.write("hook", line);
        }
        if let Some(lost) = &handled.lost {
            leave_trace(&ctx.paths, lost);
        }
        render::render(&handled.output)
    } else {
        let message = LAST_PANIC
            .lock()
            .ok()
            .and_then(|mut s| s.take())
            .unwrap_or_else(|| "unknown panic".into());
        log.write("hook", &format!("panic (abstained): {message}"));
        Vec::new()
    };
    deadline::disarm();
    output
}

/// The lost-events marker stops growing here (it is still touched, so its time is the last
/// loss).
const LOST_MARKER_MAX_BYTES: u64 = 64 * 1024;

/// An event reached neither the database nor the spool: say so on stderr, and in the
/// lost-events marker when it can be written (the error-log line is written by the caller).
fn leave_trace(paths: &Paths, why: &str) {
    let _ = writeln!(
        std::io::stderr().lock(),
        "askhook: {why} (run `askhook doctor`)"
    );
    let marker = paths.lost_marker();
    let mut options = OpenOptions::new();
    options.append(true).create(true);
    if let Ok(mut file) = fsutil::open_regular(&marker, fsutil::private_options(&mut options)) {
        let line = format!(
            "{} {}\n",
            crate::sys::time::format_rfc3339(crate::sys::time::now_ms()),
            why.replace('\n', " ")
        );
        if file
            .metadata()
            .is_ok_and(|m| m.len() < LOST_MARKER_MAX_BYTES)
        {
            let _ = file.write_all(line.as_bytes());
        } else {
            let _ = file.set_modified(std::time::SystemTime::now());
        }
    }
}

/// Read stdin once, refusing more than `cap` bytes.
fn read_stdin(cap: usize) -> Result<Vec<u8>, String> {
    let mut buf = Vec::with_capacity(8 * 1024);
    std::io::stdin()
        .lock()
        .take(cap as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("reading stdin failed: {e}"))?;
    if buf.len() > cap {
        return Err(format!(
            "stdin is larger than {cap} bytes (ASKHOOK_MAX_INPUT_BYTES); abstained"
        ));
    }
    Ok(buf)
}
