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
//! - a write that cannot be committed within the busy budget goes to the spool;
//! - the config file (`crate::config`) is read only when it exists (one `stat` otherwise); one
//!   it cannot use makes every event an abstain with a line in the error log.

pub mod context;
pub mod event;
pub mod handle;
pub mod prefer;
pub mod privacy;
pub mod render;
pub mod wire;

use std::io::Read;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::config::Config;
use crate::sys::deadline;
use crate::sys::errlog::ErrorLog;
use crate::sys::paths::{Budget, Paths};

pub use handle::handle;
pub use render::Output;

/// What one hook run produced: the output, and the lines for the error log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handled {
    pub output: Output,
    pub errors: Vec<String>,
}

impl Handled {
    pub(crate) fn abstain() -> Handled {
        Handled {
            output: Output::Abstain,
            errors: Vec::new(),
        }
    }

    pub(crate) fn abstain_because(error: impl Into<String>) -> Handled {
        Handled {
            output: Output::Abstain,
            errors: vec![error.into()],
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
    let expired = format!(
        "{} [hook] deadline of {} ms spent; abstained (raise ASKHOOK_DEADLINE_MS if this repeats)",
        crate::sys::time::format_rfc3339(now_ms.saturating_add(budget.deadline.as_millis() as i64)),
        budget.deadline.as_millis()
    );
    if let Err(e) = deadline::arm(budget.deadline, &paths.error_log, &expired) {
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
