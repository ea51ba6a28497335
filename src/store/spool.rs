//! The spool: an append-only JSON-lines file beside the database that holds writes the hook
//! could not commit within its budget. The next successful open ingests it.
//!
//! Appenders take a *shared* lock on the spool file and write each line with one `O_APPEND`
//! write, so any number of hooks append at once; ingest takes the *exclusive* lock, so no line
//! can land between its read and its truncate. Both waits are bounded. Ingest applies every
//! line, commits, then truncates; a crash in between replays lines that are already in the
//! database, which is harmless because every write is idempotent. Appends are not fsynced:
//! like the database (`synchronous = NORMAL`) they survive a crash of the process, not a power
//! cut.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write as _};
use std::path::Path;
use std::time::Duration;

use crate::sys::fsutil;

use super::row::Batch;

/// Append one write to the spool, waiting at most `budget` for its lock.
pub fn append(spool: &Path, write: &Batch, budget: Duration) -> std::io::Result<()> {
    if let Some(dir) = spool.parent() {
        fsutil::create_private_dir(dir)?;
    }
    let mut line = serde_json::to_vec(write).map_err(std::io::Error::other)?;
    line.push(b'\n');
    let mut file =
        fsutil::private_options(OpenOptions::new().append(true).create(true)).open(spool)?;
    if !fsutil::lock_shared_within(&file, budget)? {
        return Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "the spool lock was not obtained in time",
        ));
    }
    let result = file.write_all(&line);
    let _ = file.unlock();
    result
}

/// The result of reading the spool for ingest.
pub struct Pending {
    file: std::fs::File,
    pub writes: Vec<Batch>,
    /// Lines that did not parse (a torn last line after a crash, say).
    pub rejected: usize,
}

impl Pending {
    /// Empty the spool after its writes were committed, and release the lock.
    pub fn finish(self) -> std::io::Result<()> {
        let result = self.file.set_len(0);
        let _ = self.file.unlock();
        result
    }
}

/// Lock and read the spool when it has content. `Ok(None)` when there is nothing to ingest,
/// or another process holds the lock (it will ingest, or we will next time).
pub fn take(spool: &Path) -> std::io::Result<Option<Pending>> {
    let mut file = match OpenOptions::new().read(true).write(true).open(spool) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if file.metadata()?.len() == 0 || !fsutil::lock_within(&file, Duration::from_millis(20))? {
        return Ok(None);
    }
    let mut text = Vec::new();
    file.seek(SeekFrom::Start(0))?;
    file.read_to_end(&mut text)?;
    let mut writes = Vec::new();
    let mut rejected = 0;
    for line in text
        .split(|b| *b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
    {
        match serde_json::from_slice::<Batch>(line) {
            Ok(w) => writes.push(w),
            Err(_) => rejected += 1,
        }
    }
    Ok(Some(Pending {
        file,
        writes,
        rejected,
    }))
}
