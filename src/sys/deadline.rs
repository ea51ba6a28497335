//! The hook's hard deadline and its answer to being told to stop: a real-time timer
//! (`setitimer`) whose `SIGALRM`, and `SIGTERM`, `SIGINT` and `SIGHUP`, end the process with
//! exit 0 and one line in the error log, whatever the hook was doing at the time, without losing
//! the event.
//!
//! Once the hook has built its event it hands the encoded spool record to [`hold`]; when the
//! event is committed (or spooled) it calls [`release`]. A signal that arrives while a record is
//! held appends it to the spool first, so the event is never lost to a deadline, a `kill` or a
//! closed terminal; a record that was committed just before is replayed harmlessly (writes are
//! idempotent). A termination signal that arrives before the event is built (the hook is still
//! reading its payload) is remembered: [`hold`] then spools the event at once and exits 0. A
//! second such signal, or the deadline, ends the run there. A signal the parent set to be
//! ignored stays ignored.
//!
//! This replaces a watchdog thread: spawning a thread (its stack, guard page, and the malloc
//! arena it then grows page by page) cost about 0.15 ms of every run, a tenth of a whole hook.
//! A timer costs two system calls, the other handlers one each. Ending the process mid-write is
//! safe: SQLite commits atomically (a killed writer leaves the last commit intact, which the
//! crash tests check), a spool record is verifiable (a torn one is skipped by the reader), and
//! stdout is written only after [`disarm`], which also blocks the termination signals, so a
//! decision is never cut in half.
//!
//! The handler only calls async-signal-safe functions ([`super::sigsafe`]) on bytes prepared
//! beforehand; it never allocates or locks a mutex. It opens files with `O_NONBLOCK` and only
//! writes to regular ones, so a FIFO planted as the error log cannot hang it, and it rotates the
//! error log at the same size as [`super::errlog`].

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicI32, AtomicPtr, AtomicU8, Ordering};
use std::time::Duration;

use super::sigsafe::{self, Line};

/// The signals that mean "stop": handled like the deadline.
const TERMINATION: [libc::c_int; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

/// The files the handler writes, prepared before the timer starts.
pub struct Files<'a> {
    pub error_log: &'a Path,
    pub spool: &'a Path,
    pub lost_marker: &'a Path,
}

/// Everything the handler needs, as C strings and bytes (it cannot allocate).
struct Prepared {
    log: sigsafe::Target,
    log_rotated: CString,
    spool: sigsafe::Target,
    marker: sigsafe::Target,
    /// `deadline of N ms spent`.
    deadline: Vec<u8>,
}

/// The event's spool record and what to call it if it is lost.
struct Held {
    record: Vec<u8>,
    what: Vec<u8>,
}

static PREPARED: AtomicPtr<Prepared> = AtomicPtr::new(ptr::null_mut());
static HELD: AtomicPtr<Held> = AtomicPtr::new(ptr::null_mut());

/// Where the run is: no event built yet, an event held, the event safe.
static STATE: AtomicU8 = AtomicU8::new(READING);
const READING: u8 = 0;
const HOLDING: u8 = 1;
const DONE: u8 = 2;

/// A termination signal that arrived while [`READING`] (0: none).
static PENDING: AtomicI32 = AtomicI32::new(0);

fn c_path(path: &Path) -> io::Result<CString> {
    Ok(CString::new(path.as_os_str().as_bytes())?)
}

/// Start the timer and the signal handlers: after `after`, or on SIGTERM, SIGINT or SIGHUP,
/// spool the held event if any, append one line to the error log, and exit 0. Call [`disarm`]
/// before writing any output.
pub fn arm(after: Duration, files: &Files<'_>) -> io::Result<()> {
    let mut rotated = files.error_log.as_os_str().to_owned();
    rotated.push(".1");
    let prepared = Prepared {
        log: sigsafe::Target::new(files.error_log)?,
        log_rotated: c_path(Path::new(&rotated))?,
        spool: sigsafe::Target::new(files.spool)?,
        marker: sigsafe::Target::new(files.lost_marker)?,
        deadline: format!("deadline of {} ms spent", after.as_millis()).into_bytes(),
    };
    // Leaked on purpose: it must outlive any moment a signal can arrive, i.e. the process.
    let previous = PREPARED.swap(Box::into_raw(Box::new(prepared)), Ordering::SeqCst);
    if !previous.is_null() {
        // SAFETY: `previous` came from `Box::into_raw` above, and this runs only when the
        // timer is re-armed (tests), so the handler (which would read it) cannot be running.
        drop(unsafe { Box::from_raw(previous) });
    }
    STATE.store(READING, Ordering::SeqCst);
    PENDING.store(0, Ordering::SeqCst);
    // SAFETY: plain libc calls with valid, initialised arguments; the handler is an
    // `extern "C"` function that only makes async-signal-safe calls.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        // One handler at a time: a SIGTERM landing inside the deadline's handler waits.
        libc::sigemptyset(&raw mut action.sa_mask);
        for signal in TERMINATION.iter().chain(&[libc::SIGALRM]) {
            libc::sigaddset(&raw mut action.sa_mask, *signal);
        }
        if libc::sigaction(libc::SIGALRM, &raw const action, ptr::null_mut()) != 0 {
            return Err(io::Error::last_os_error());
        }
        for signal in TERMINATION {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, ptr::null(), &raw mut old) == 0
                && old.sa_sigaction != libc::SIG_IGN
            {
                libc::sigaction(signal, &raw const action, ptr::null_mut());
            }
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

/// The event is built: keep its encoded spool `record` for the handler, and call it `what`
/// (session and call) if it is lost. When a termination signal already arrived, spool it now
/// and exit 0: this does not return then.
pub fn hold(record: Vec<u8>, what: &str) {
    let held = Box::into_raw(Box::new(Held {
        record,
        what: what.replace('\n', " ").into_bytes(),
    }));
    let previous = HELD.swap(held, Ordering::SeqCst);
    STATE.store(HOLDING, Ordering::SeqCst);
    if !previous.is_null() {
        // SAFETY: from `Box::into_raw`; the handler takes `HELD` by swapping it out and never
        // returns after that, so nothing else can be using it.
        drop(unsafe { Box::from_raw(previous) });
    }
    let signal = PENDING.load(Ordering::SeqCst);
    if signal != 0 {
        block_signals();
        let held = HELD.swap(ptr::null_mut(), Ordering::SeqCst);
        let prepared = PREPARED.load(Ordering::SeqCst);
        // SAFETY: both pointers are live for the process (leaked or held), signals are blocked.
        unsafe {
            if let (Some(p), Some(h)) = (prepared.as_ref(), held.as_ref()) {
                spool_and_exit(p, h, signal);
            }
            libc::_exit(0);
        }
    }
}

/// The event is safe (committed, or appended to the spool): a signal now only ends the run.
pub fn release() {
    STATE.store(DONE, Ordering::SeqCst);
    let held = HELD.swap(ptr::null_mut(), Ordering::SeqCst);
    if !held.is_null() {
        // SAFETY: from `Box::into_raw` in `hold`, swapped out so the handler cannot see it.
        drop(unsafe { Box::from_raw(held) });
    }
}

/// Stop the timer and hold back the termination signals, before writing output, so it is
/// never cut off. (A signal held back then dies with the process, which exits 0.)
pub fn disarm() {
    block_signals();
    let _ = set_timer(Duration::ZERO);
}

fn block_signals() {
    // SAFETY: a valid, initialised signal set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut set);
        for signal in TERMINATION {
            libc::sigaddset(&raw mut set, signal);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &raw const set, ptr::null_mut());
    }
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

extern "C" fn on_signal(signal: libc::c_int) {
    let prepared = PREPARED.load(Ordering::SeqCst);
    // SAFETY: only async-signal-safe calls, on memory leaked by `arm` for the process's life
    // or taken out of `HELD` (which nothing frees once taken).
    unsafe {
        let Some(p) = prepared.as_ref() else {
            libc::_exit(0);
        };
        let held = HELD.swap(ptr::null_mut(), Ordering::SeqCst);
        if let Some(h) = held.as_ref() {
            spool_and_exit(p, h, signal);
        }
        let state = STATE.load(Ordering::SeqCst);
        if signal != libc::SIGALRM
            && state == READING
            && PENDING
                .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        {
            // Let the hook finish reading: `hold` spools the event and exits.
            return;
        }
        let mut line = cause_line(p, signal);
        line.push(match state {
            DONE | HOLDING => b"; the event was already recorded; exited",
            _ => b"; abstained",
        });
        if signal == libc::SIGALRM {
            line.push(b" (raise ASKHOOK_DEADLINE_MS if this repeats)");
        }
        log(p, &line);
        libc::_exit(0);
    }
}

/// `<time> [hook] <what stopped the run>`.
fn cause_line(p: &Prepared, signal: libc::c_int) -> Line {
    let mut line = Line::new();
    line.push_time();
    line.push(b" [hook] ");
    match signal {
        libc::SIGALRM => line.push(&p.deadline),
        libc::SIGTERM => line.push(b"SIGTERM received"),
        libc::SIGINT => line.push(b"SIGINT received"),
        libc::SIGHUP => line.push(b"SIGHUP received"),
        _ => line.push(b"signal received"),
    }
    line
}

/// Append the held record to the spool, say so in the error log (and, when that failed, on
/// stderr and in the lost-events marker), and exit 0. Async-signal-safe.
fn spool_and_exit(p: &Prepared, held: &Held, signal: libc::c_int) -> ! {
    let mut line = cause_line(p, signal);
    match sigsafe::append_shared(&p.spool, &held.record, sigsafe::LOCK_WAIT) {
        Ok(locked) => {
            line.push(b"; the event was spooled");
            if !locked {
                line.push(b" (the spool stayed locked; appended without its lock)");
            }
            line.push(b"; abstained");
            if signal == libc::SIGALRM {
                line.push(b" (raise ASKHOOK_DEADLINE_MS if this repeats)");
            }
            log(p, &line);
        }
        Err(errno) => {
            line.push(b"; writing the spool failed (");
            line.push_errno(errno);
            line.push(b"): this event is lost: ");
            line.push(&held.what);
            log(p, &line);
            let _ = sigsafe::append_shared(&p.marker, line.bytes_with_newline(), 0);
            let text = line.bytes_with_newline();
            let mut shown = Line::new();
            shown.push(b"askhook: ");
            shown.push(
                &text[(Line::TIME_BYTES + b" [hook] ".len()).min(text.len() - 1)..text.len() - 1],
            );
            sigsafe::write_stderr(shown.bytes_with_newline());
        }
    }
    // SAFETY: `_exit` is async-signal-safe and ends the process at once.
    unsafe { libc::_exit(0) }
}

/// Append `line` to the error log, rotating it first when it reached the size cap.
fn log(p: &Prepared, line: &Line) {
    sigsafe::append_rotating(
        &p.log,
        &p.log_rotated,
        super::errlog::MAX_BYTES,
        line.bytes_with_newline(),
    );
}
