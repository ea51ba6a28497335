//! What a signal handler may do to files: async-signal-safe appends (`open`, `fstat`, `flock`,
//! `write`, `rename`, `close`, `nanosleep`, `clock_gettime` only; no allocation, no mutex) on
//! paths prepared beforehand, and a fixed-size line buffer with a timestamp. Used by
//! [`super::deadline`]'s handler, which must write the error log and the spool wherever the
//! hook was interrupted.
//!
//! Every open is `O_NONBLOCK | O_NOCTTY` and writes only to a regular file: a FIFO or device
//! planted in the data folder cannot block the handler.

use std::ffi::{CStr, CString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// How long the handler waits for the spool's shared lock (an ingest holds it exclusively for
/// a short chunk at a time): after the 2.5 s deadline this still ends well inside 5 s.
pub const LOCK_WAIT: u32 = 1000;

/// An errno of our own: the path is not a regular file.
const NOT_REGULAR: i32 = -1;

/// A file to append to, and its folder (created when missing).
pub struct Target {
    path: CString,
    dir: Option<CString>,
}

impl Target {
    pub fn new(path: &Path) -> io::Result<Target> {
        Ok(Target {
            path: CString::new(path.as_os_str().as_bytes())?,
            dir: path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .and_then(|d| CString::new(d.as_os_str().as_bytes()).ok()),
        })
    }
}

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Open `path` to append, creating it 0600, only if it is a regular file. `Err(errno)`.
fn open_append(path: &CStr) -> Result<libc::c_int, i32> {
    let flags = libc::O_WRONLY
        | libc::O_APPEND
        | libc::O_CREAT
        | libc::O_NONBLOCK
        | libc::O_NOCTTY
        | libc::O_CLOEXEC;
    // SAFETY: a valid C string; plain system calls on the fd they return.
    unsafe {
        let fd = libc::open(path.as_ptr(), flags, 0o600 as libc::c_uint);
        if fd < 0 {
            let e = errno();
            return Err(if e == libc::ENXIO { NOT_REGULAR } else { e });
        }
        let mut stat: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &raw mut stat) != 0 || stat.st_mode & libc::S_IFMT != libc::S_IFREG {
            libc::close(fd);
            return Err(NOT_REGULAR);
        }
        Ok(fd)
    }
}

fn open_target(target: &Target) -> Result<libc::c_int, i32> {
    match open_append(&target.path) {
        Err(libc::ENOENT) => {
            if let Some(dir) = &target.dir {
                // SAFETY: a valid C string.
                unsafe { libc::mkdir(dir.as_ptr(), 0o700) };
            }
            open_append(&target.path)
        }
        other => other,
    }
}

/// Write all of `bytes` to `fd`. `Err(errno)`.
fn write_all(fd: libc::c_int, mut bytes: &[u8]) -> Result<(), i32> {
    while !bytes.is_empty() {
        // SAFETY: a valid buffer and length.
        let n = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if n < 0 {
            let e = errno();
            if e == libc::EINTR {
                continue;
            }
            return Err(e);
        }
        if n == 0 {
            return Err(libc::EIO);
        }
        bytes = &bytes[n as usize..];
    }
    Ok(())
}

fn sleep_ms(ms: u32) {
    let pause = libc::timespec {
        tv_sec: 0,
        tv_nsec: libc::c_long::from(ms) * 1_000_000,
    };
    // SAFETY: a valid timespec; the remainder is not wanted.
    unsafe { libc::nanosleep(&raw const pause, std::ptr::null_mut()) };
}

/// Append `bytes` to `target` under a shared `flock` (as the spool's appenders do), waiting at
/// most `wait_ms` for it; past that, append anyway. `Ok(locked)`, or `Err(errno)`.
pub fn append_shared(target: &Target, bytes: &[u8], wait_ms: u32) -> Result<bool, i32> {
    let fd = open_target(target)?;
    let mut waited = 0;
    let locked = loop {
        // SAFETY: flock on an fd we own.
        if unsafe { libc::flock(fd, libc::LOCK_SH | libc::LOCK_NB) } == 0 {
            break true;
        }
        if errno() != libc::EWOULDBLOCK || waited >= wait_ms {
            break false;
        }
        sleep_ms(2);
        waited += 2;
    };
    let result = write_all(fd, bytes);
    // SAFETY: closing the fd we opened (which also drops the lock).
    unsafe { libc::close(fd) };
    result.map(|()| locked)
}

/// Append `bytes` to `target`, first renaming it to `rotated` when it holds `max` bytes or
/// more (one generation kept, as [`super::errlog`] does). Failures are ignored.
pub fn append_rotating(target: &Target, rotated: &CStr, max: u64, bytes: &[u8]) {
    let Ok(mut fd) = open_target(target) else {
        return;
    };
    // SAFETY: fstat, close, rename on our fd and valid C strings.
    unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        if libc::fstat(fd, &raw mut stat) == 0 && stat.st_size as u64 >= max {
            libc::close(fd);
            libc::rename(target.path.as_ptr(), rotated.as_ptr());
            match open_target(target) {
                Ok(again) => fd = again,
                Err(_) => return,
            }
        }
        let _ = write_all(fd, bytes);
        libc::close(fd);
    }
}

/// Write `bytes` to stderr (shown by Claude Code in verbose mode). Failures are ignored.
pub fn write_stderr(bytes: &[u8]) {
    let _ = write_all(libc::STDERR_FILENO, bytes);
}

/// One log line built without allocating; always newline-terminated, cut at its capacity.
pub struct Line {
    buf: [u8; 1024],
    len: usize,
}

impl Default for Line {
    fn default() -> Line {
        Line::new()
    }
}

impl Line {
    /// The length of [`Line::push_time`]'s text.
    pub const TIME_BYTES: usize = 24;

    pub fn new() -> Line {
        let mut line = Line {
            buf: [0; 1024],
            len: 0,
        };
        line.buf[0] = b'\n';
        line
    }

    pub fn push(&mut self, bytes: &[u8]) {
        let room = self.buf.len() - 1 - self.len;
        let n = bytes.len().min(room);
        self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
        self.buf[self.len] = b'\n';
    }

    /// The text and its newline.
    pub fn bytes_with_newline(&self) -> &[u8] {
        &self.buf[..=self.len]
    }

    fn push_number(&mut self, mut n: u64, width: usize) {
        let mut digits = [b'0'; 20];
        let mut i = digits.len();
        while n > 0 || digits.len() - i < width.max(1) {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        self.push(&digits[i..]);
    }

    /// The current UTC time as RFC 3339 with milliseconds (24 bytes), like the error log's.
    pub fn push_time(&mut self) {
        let mut now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime is async-signal-safe and writes into `now`.
        unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &raw mut now) };
        self.push_utc(now.tv_sec, (now.tv_nsec / 1_000_000) as u64);
    }

    fn push_utc(&mut self, secs: i64, millis: u64) {
        let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
        let t = secs.rem_euclid(86_400) as u64;
        self.push_number(y as u64, 4);
        self.push(b"-");
        self.push_number(m, 2);
        self.push(b"-");
        self.push_number(d, 2);
        self.push(b"T");
        self.push_number(t / 3600, 2);
        self.push(b":");
        self.push_number(t / 60 % 60, 2);
        self.push(b":");
        self.push_number(t % 60, 2);
        self.push(b".");
        self.push_number(millis, 3);
        self.push(b"Z");
    }

    /// What an errno means, briefly (`strerror` is not async-signal-safe).
    pub fn push_errno(&mut self, e: i32) {
        self.push(match e {
            NOT_REGULAR => b"not a regular file" as &[u8],
            libc::ENOSPC => b"no space left on device",
            libc::EDQUOT => b"disk quota exceeded",
            libc::EROFS => b"read-only file system",
            libc::EACCES | libc::EPERM => b"permission denied",
            libc::ENOENT => b"no such file or folder",
            libc::EIO => b"input/output error",
            _ => b"errno",
        });
        if e > 0 {
            self.push(b" ");
            self.push_number(e as u64, 1);
        }
    }
}

/// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u64, u64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u64;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u64;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_matches_the_error_log_format() {
        for ms in [0i64, 951_782_400_000, 1_796_269_467_810, 4_102_444_799_999] {
            let mut line = Line::new();
            line.push_utc(ms.div_euclid(1000), ms.rem_euclid(1000) as u64);
            let text = String::from_utf8(line.bytes_with_newline().to_vec()).unwrap();
            assert_eq!(text, format!("{}\n", crate::sys::time::format_rfc3339(ms)));
            assert_eq!(text.len(), Line::TIME_BYTES + 1);
        }
    }

    #[test]
    fn a_line_is_cut_at_its_capacity_and_keeps_its_newline() {
        let mut line = Line::new();
        line.push(&[b'x'; 2000]);
        let bytes = line.bytes_with_newline();
        assert_eq!(bytes.len(), 1024);
        assert_eq!(bytes.last(), Some(&b'\n'));
    }

    #[test]
    fn appends_refuse_a_fifo_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let target = Target::new(&fifo).unwrap();
        assert_eq!(append_shared(&target, b"x\n", 0), Err(NOT_REGULAR));
        let file = Target::new(&dir.path().join("sub/file")).unwrap();
        assert_eq!(append_shared(&file, b"x\n", 0), Ok(true));
        let rotated = CString::new(dir.path().join("sub/file.1").as_os_str().as_bytes()).unwrap();
        append_rotating(&file, &rotated, 2, b"y\n");
        assert_eq!(std::fs::read(dir.path().join("sub/file")).unwrap(), b"y\n");
        assert_eq!(
            std::fs::read(dir.path().join("sub/file.1")).unwrap(),
            b"x\n"
        );
    }
}
