//! Small file-system helpers shared by the store, the error log, the installer and the exports:
//! private (0600 / 0700) creation, atomic replace (whole bytes, or a streamed [`AtomicFile`]),
//! output [`Held`] until it is complete, bounded waits for advisory locks, and opening only
//! regular files without ever blocking ([`open_regular`]: a FIFO or a device planted where a
//! file should be must never hang the hook).
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

/// Open `path` with `options` without blocking, and only when it is a regular file (following
/// symlinks). A FIFO, a device or a folder is refused with [`io::ErrorKind::InvalidInput`]:
/// `O_NONBLOCK` makes opening a FIFO return at once (or fail with `ENXIO` when nobody reads it),
/// and `O_NOCTTY` keeps a terminal from becoming ours. Every file on the hook path opens here.
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    let file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ENXIO) {
            not_regular()
        } else {
            e
        }
    })?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// The error for a path that is not a regular file (callers name the path).
pub fn not_regular() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "not a regular file (a FIFO, device or folder?); askhook will not open it",
    )
}

/// Read a regular file of at most `cap` bytes ([`open_regular`]); a larger one is an error.
pub fn read_regular(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let file = open_regular(path, OpenOptions::new().read(true))?;
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is larger than {cap} bytes", path.display()),
        ));
    }
    Ok(bytes)
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
    let old_meta = fs::metadata(path).ok();
    let mut new = AtomicFile::create(path)?;
    new.write_all(contents)?;
    if let Some(meta) = &old_meta {
        new.file.set_permissions(meta.permissions())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            // Keep the owner when we can (we may not be allowed to; that is fine).
            let _ = std::os::unix::fs::fchown(&new.file, Some(meta.uid()), Some(meta.gid()));
        }
    }
    new.commit()
}

/// A file written under a temporary name in its destination's folder (created 0600) and
/// renamed over the destination by [`AtomicFile::commit`]: readers see the old file or the
/// whole new one. Dropped without a commit, the temporary file is removed and the destination
/// is left as it was.
pub struct AtomicFile {
    path: PathBuf,
    tmp_path: PathBuf,
    file: File,
    committed: bool,
}

impl AtomicFile {
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (tmp_path, file) = create_temp_beside(folder_of(path), &name)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp_path,
            file,
            committed: false,
        })
    }

    /// `sync_all`, rename over the destination, sync the folder.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.sync_all()?;
        fs::rename(&self.tmp_path, &self.path)?;
        self.committed = true;
        if let Ok(d) = File::open(folder_of(&self.path)) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.tmp_path);
        }
    }
}

/// The folder a path is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Output held back until it is complete, so it can be written whole or not at all: in
/// memory up to [`Held::MEMORY`], beyond that in a private temporary file with no name (created
/// 0600 in the first of `dirs` that takes it, and unlinked at once).
pub struct Held {
    memory: Vec<u8>,
    file: Option<File>,
    dirs: Vec<PathBuf>,
}

impl Held {
    /// How much is held in memory before it goes to a temporary file.
    pub const MEMORY: usize = 8 << 20;

    pub fn new(dirs: Vec<PathBuf>) -> Held {
        Held {
            memory: Vec::new(),
            file: None,
            dirs,
        }
    }

    fn spill(&mut self) -> io::Result<&mut File> {
        let mut last = io::Error::new(io::ErrorKind::NotFound, "no folder for a temporary file");
        for dir in &self.dirs {
            match create_temp_beside(dir, "askhook-output") {
                Ok((path, mut file)) => {
                    let _ = fs::remove_file(&path);
                    file.write_all(&self.memory)?;
                    self.memory = Vec::new();
                    return Ok(self.file.insert(file));
                }
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// Write everything held to `out`.
    pub fn copy_to(self, out: &mut dyn Write) -> io::Result<()> {
        use std::io::{Seek, SeekFrom};
        match self.file {
            None => out.write_all(&self.memory)?,
            Some(mut file) => {
                file.seek(SeekFrom::Start(0))?;
                io::copy(&mut file, out)?;
            }
        }
        out.flush()
    }
}

impl Write for Held {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.file.is_none() && self.memory.len() + buf.len() <= Self::MEMORY {
            self.memory.extend_from_slice(buf);
            return Ok(buf.len());
        }
        let file = match self.file.as_mut() {
            Some(file) => file,
            None => self.spill()?,
        };
        file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.as_mut().map_or(Ok(()), Write::flush)
    }
}

fn create_temp_beside(dir: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for attempt in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let candidate = dir.join(format!(".{name}.askhook-tmp.{pid}.{nanos:x}.{attempt}"));
        match private_options(OpenOptions::new().read(true).write(true).create_new(true))
            .open(&candidate)
        {
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
    fn an_atomic_file_dropped_uncommitted_leaves_the_destination_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("export.csv");
        fs::write(&path, "old").unwrap();
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"half of the n").unwrap();
        drop(file);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "temp removed");
        let mut file = AtomicFile::create(&path).unwrap();
        file.write_all(b"new").unwrap();
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    }

    #[test]
    fn held_output_spills_to_a_nameless_file_and_comes_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut held = Held::new(vec![dir.path().join("missing"), dir.path().to_path_buf()]);
        let chunk = vec![b'x'; Held::MEMORY / 3 + 1];
        for _ in 0..4 {
            held.write_all(&chunk).unwrap();
        }
        assert!(held.file.is_some(), "past the memory limit it is in a file");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            0,
            "the file has no name"
        );
        let mut out = Vec::new();
        held.copy_to(&mut out).unwrap();
        assert_eq!(out.len(), chunk.len() * 4);
    }

    #[test]
    fn open_regular_refuses_fifos_and_folders_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for options in [
            OpenOptions::new().read(true),
            OpenOptions::new().append(true),
            OpenOptions::new().append(true).create(true),
        ] {
            let e = open_regular(&fifo, options).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{e}");
        }
        let e = open_regular(dir.path(), OpenOptions::new().read(true)).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        let file = dir.path().join("file");
        fs::write(&file, "12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        assert_eq!(
            read_regular(&file, 4).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
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
