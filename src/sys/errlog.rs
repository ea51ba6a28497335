//! The hook's error log: opened lazily on the first error, one line per error, bounded in size.
//!
//! The hook never reports errors to its caller (that would disturb the session); it abstains
//! and writes one line here instead. When the file grows past [`MAX_BYTES`] it is rotated to
//! `<file>.1` (one generation kept), so it can never fill a disk; the deadline's signal handler
//! rotates at the same size. It is opened without blocking and only when it is a regular file
//! ([`fsutil::open_regular`]): a FIFO in its place is ignored, never waited on.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::sys::fsutil;
use crate::sys::time;

/// Size at which the log rotates.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// Longest message kept on one line.
const MAX_LINE_CHARS: usize = 2000;

/// A lazily opened, size-bounded, append-only log file.
#[derive(Debug, Clone)]
pub struct ErrorLog {
    path: PathBuf,
}

impl ErrorLog {
    pub fn new(path: impl Into<PathBuf>) -> ErrorLog {
        ErrorLog { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one line: `<RFC 3339 time> [<context>] <message>`. Never fails loudly.
    pub fn write(&self, context: &str, message: &str) {
        let _ = self.try_write(context, message);
    }

    fn try_write(&self, context: &str, message: &str) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            fsutil::create_private_dir(dir)?;
        }
        if fs::metadata(&self.path).is_ok_and(|m| m.len() >= MAX_BYTES) {
            let mut rotated = self.path.clone().into_os_string();
            rotated.push(".1");
            let _ = fs::rename(&self.path, rotated);
        }
        let mut file = fsutil::open_regular(
            &self.path,
            fsutil::private_options(OpenOptions::new().append(true).create(true)),
        )?;
        let line = format!(
            "{} [{}] {}\n",
            time::format_rfc3339(time::now_ms()),
            context,
            one_line(&askhook_core::scrub::scrub(message))
        );
        file.write_all(line.as_bytes())
    }

    /// The last `n` lines of the log (for `doctor`).
    pub fn tail(&self, n: usize) -> Vec<String> {
        let Ok(bytes) = fsutil::read_regular(&self.path, 2 * MAX_BYTES) else {
            return Vec::new();
        };
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..]
            .iter()
            .map(std::string::ToString::to_string)
            .collect()
    }
}

/// Fold a message onto one line of bounded length.
fn one_line(message: &str) -> String {
    let mut out: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_LINE_CHARS)
        .collect();
    if message.chars().count() > MAX_LINE_CHARS {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_one_line_per_error_and_rotates() {
        let dir = tempfile::tempdir().unwrap();
        let log = ErrorLog::new(dir.path().join("sub/errors.log"));
        log.write("PreToolUse", "first\nsecond");
        log.write("PostToolUse", "third");
        let lines = log.tail(10);
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].ends_with("[PreToolUse] first second"),
            "{}",
            lines[0]
        );
        assert!(lines[1].contains("[PostToolUse] third"));

        fs::write(log.path(), vec![b'x'; MAX_BYTES as usize]).unwrap();
        log.write("Hook", "after rotation");
        assert_eq!(log.tail(5).len(), 1);
        assert!(dir.path().join("sub/errors.log.1").exists());
    }

    #[test]
    fn long_messages_are_cut() {
        let long = "y".repeat(MAX_LINE_CHARS * 2);
        assert_eq!(one_line(&long).chars().count(), MAX_LINE_CHARS + 1);
    }
}
