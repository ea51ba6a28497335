//! The hook's hard deadline: a real-time timer (`setitimer`) whose `SIGALRM` ends the process
//! with exit 0 and one line in the error log, whatever the hook was doing at the time.
//!
//! This replaces a watchdog thread: spawning a thread (its stack, guard page, and the malloc
//! arena it then grows page by page) cost about 0.15 ms of every run, a tenth of a whole
//! hook. A timer costs two system calls. Ending the process mid-write is safe: SQLite
//! commits atomically (a killed writer leaves the last commit intact, which the crash tests
//! check), a spool line is written with one `O_APPEND` write, and stdout is written only after
//! [`disarm`], so a decision is never cut in half.
//!
//! The signal handler only calls async-signal-safe functions (`open`, `mkdir`, `write`,
//! `close`, `_exit`) on bytes prepared by [`arm`]; it never allocates or locks.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::Duration;

/// What the handler writes, prepared before the timer starts.
struct OnExpiry {
    log_path: CString,
    log_dir: Option<CString>,
    line: Vec<u8>,
}

static ON_EXPIRY: AtomicPtr<OnExpiry> = AtomicPtr::new(ptr::null_mut());

/// Start the timer: after `after`, append `line` (one line, newline added) to the error log at
/// `error_log` and exit 0. Call [`disarm`] before writing any output.
pub fn arm(after: Duration, error_log: &Path, line: &str) -> io::Result<()> {
    let expiry = OnExpiry {
        log_path: CString::new(error_log.as_os_str().as_bytes())?,
        log_dir: error_log
            .parent()
            .and_then(|d| CString::new(d.as_os_str().as_bytes()).ok()),
        line: format!("{}\n", line.replace('\n', " ")).into_bytes(),
    };
    // Leaked on purpose: it must outlive any moment the signal can arrive, i.e. the process.
    let previous = ON_EXPIRY.swap(Box::into_raw(Box::new(expiry)), Ordering::SeqCst);
    if !previous.is_null() {
        // SAFETY: `previous` came from `Box::into_raw` above, and this runs only when the
        // timer is re-armed, so the handler (which would read it) cannot be running.
        drop(unsafe { Box::from_raw(previous) });
    }
    // SAFETY: plain libc calls with valid, initialised arguments; the handler is an
    // `extern "C"` function that only makes async-signal-safe calls.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_deadline as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&raw mut action.sa_mask);
        if libc::sigaction(libc::SIGALRM, &raw const action, ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
        // The signal mask survives exec: a caller that blocked SIGALRM would otherwise
        // switch the deadline off.
        let mut alarm: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut alarm);
        libc::sigaddset(&raw mut alarm, libc::SIGALRM);
        if libc::pthread_sigmask(libc::SIG_UNBLOCK, &raw const alarm, ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    // A zero deadline means "abstain at once", never "no deadline" (a zero timer disarms).
    set_timer(after.max(Duration::from_micros(1)))
}

/// Stop the timer (before writing output, so it is never cut off).
pub fn disarm() {
    let _ = set_timer(Duration::ZERO);
}

fn set_timer(after: Duration) -> io::Result<()> {
    // A zero duration disarms; a positive one shorter than a microsecond must still fire.
    let micros = if after.is_zero() {
        0
    } else {
        after.as_micros().max(1)
    };
    let timer = libc::itimerval {
        it_interval: libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        },
        it_value: libc::timeval {
            tv_sec: (micros / 1_000_000) as libc::time_t,
            tv_usec: (micros % 1_000_000) as libc::suseconds_t,
        },
    };
    // SAFETY: `timer` is a valid itimerval; the old value is not wanted.
    if unsafe { libc::setitimer(libc::ITIMER_REAL, &raw const timer, ptr::null_mut()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

extern "C" fn on_deadline(_signal: libc::c_int) {
    let expiry = ON_EXPIRY.load(Ordering::SeqCst);
    // SAFETY: only async-signal-safe calls, on memory leaked by `arm` for the process's life.
    unsafe {
        if let Some(expiry) = expiry.as_ref() {
            let flags = libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_CLOEXEC;
            let mut fd = libc::open(expiry.log_path.as_ptr(), flags, 0o600 as libc::c_uint);
            if fd < 0 {
                if let Some(dir) = &expiry.log_dir {
                    libc::mkdir(dir.as_ptr(), 0o700);
                }
                fd = libc::open(expiry.log_path.as_ptr(), flags, 0o600 as libc::c_uint);
            }
            if fd >= 0 {
                libc::write(fd, expiry.line.as_ptr().cast(), expiry.line.len());
                libc::close(fd);
            }
        }
        libc::_exit(0);
    }
}
