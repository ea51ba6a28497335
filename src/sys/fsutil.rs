//! Small file-system helpers shared by the store, the error log and the installer: private
//! (0600 / 0700) creation, atomic replace, and bounded waits for advisory locks.
//!
//! Locks use `std::fs::File::lock` / `try_lock` (stable since Rust 1.89) rather than the
//! `fd-lock` crate: the standard library now does exactly this, with one dependency fewer.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Options that create files readable by their owner only (0600 on Unix).
pub fn private_options(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

/// Create a folder (and its parents) that only its owner can enter (0700 on Unix).
/// An existing folder is left as it is.
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    if dir.as_os_str().is_empty() || dir.is_dir() {
        return Ok(());
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Take an exclusive lock on `file`, polling until `budget` is spent.
/// Returns `Ok(false)` when the lock was not obtained in time.
pub fn lock_within(file: &File, budget: Duration) -> io::Result<bool> {
    poll_lock(budget, || file.try_lock())
}

/// Take a shared lock on `file`, polling until `budget` is spent.
/// Returns `Ok(false)` when the lock was not obtained in time.
pub fn lock_shared_within(file: &File, budget: Duration) -> io::Result<bool> {
    poll_lock(budget, || file.try_lock_shared())
}

fn poll_lock(
    budget: Duration,
    try_lock: impl Fn() -> Result<(), fs::TryLockError>,
) -> io::Result<bool> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match try_lock() {
            Ok(()) => return Ok(true),
            Err(fs::TryLockError::WouldBlock) => {}
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
        let spent = start.elapsed();
        if spent >= budget {
            return Ok(false);
        }
        std::thread::sleep(pause.min(budget.checked_sub(spent).unwrap()));
        pause = (pause * 2).min(Duration::from_millis(25));
    }
}

/// Replace `path` with `contents` atomically: a new temp file in the same folder (`create_new`),
/// the old file's mode kept, `sync_all`, rename. The temp file is removed on any error.
pub fn atomic_write(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let old_meta = fs::metadata(path).ok();
    let (tmp_path, mut tmp) = create_temp_beside(dir, &name)?;
    let result = (|| {
        tmp.write_all(contents)?;
        if let Some(meta) = &old_meta {
            tmp.set_permissions(meta.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                // Keep the owner when we can (we may not be allowed to; that is fine).
                let _ = std::os::unix::fs::fchown(&tmp, Some(meta.uid()), Some(meta.gid()));
            }
        }
        tmp.sync_all()?;
        fs::rename(&tmp_path, path)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp_path);
    }
    result
}

fn create_temp_beside(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for attempt in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let candidate = dir.join(format!(".{name}.askhook-tmp.{pid}.{nanos:x}.{attempt}"));
        match private_options(OpenOptions::new().write(true).create_new(true)).open(&candidate) {
            Ok(file) => return Ok((candidate, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "could not create a temporary file",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        }
        atomic_write(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o640
            );
        }
        let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file left behind");
    }

    #[test]
    fn lock_within_gives_up_in_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let a = File::create(&path).unwrap();
        let b = File::options().write(true).open(&path).unwrap();
        assert!(lock_within(&a, Duration::from_millis(10)).unwrap());
        let start = Instant::now();
        assert!(!lock_within(&b, Duration::from_millis(50)).unwrap());
        assert!(start.elapsed() < Duration::from_millis(500));
    }
}
