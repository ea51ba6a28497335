//! What a store error means for the person who has to act on it: which [`Cause`] (the file
//! is busy, not a file, damaged, not a database, the disk is full, …, or askhook's own bug),
//! and what to do next. The CLI's `Error::Db` message is built from it, so a problem with the
//! file is named as one, and a bug of askhook's is never blamed on the user's file.
//!
//! Also the one check of a database path before SQLite touches it ([`check_path`]): SQLite
//! happily "opens" `/dev/null` (and then creates `/dev/null-journal` beside it), blocks on a
//! FIFO, and reports a folder as a disk I/O error.

use std::io;
use std::path::Path;

use rusqlite::ErrorCode;

use super::Error;

/// Why a store operation failed, as far as the user is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Another process holds the database past the wait budget.
    Busy,
    /// The path is a folder, a device, a FIFO or a socket.
    NotAFile,
    /// SQLite found the file damaged (`SQLITE_CORRUPT`).
    Damaged,
    /// The file is not an SQLite database.
    NotADatabase,
    /// The disk (or a quota) is full.
    Full,
    /// The file or its folder cannot be written.
    ReadOnly,
    /// The file or its folder cannot be opened or read.
    NoAccess,
    /// An SQLite database without askhook's tables (another program's, or cut short).
    NoTables,
    /// A value this askhook does not know (a newer askhook wrote it).
    Newer,
    /// The operating system reported an I/O error.
    Io,
    /// Anything else: a mistake in askhook's own statements or use of SQLite.
    Bug,
}

impl Error {
    /// What this error means for the user.
    pub fn cause(&self) -> Cause {
        match self {
            Error::Io(e) => match e.kind() {
                io::ErrorKind::InvalidInput => Cause::NotAFile,
                io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => Cause::Full,
                io::ErrorKind::PermissionDenied | io::ErrorKind::NotFound => Cause::NoAccess,
                io::ErrorKind::ReadOnlyFilesystem => Cause::ReadOnly,
                // What askhook itself reports as an I/O error (a stats thread that panicked).
                io::ErrorKind::Other => Cause::Bug,
                _ => Cause::Io,
            },
            Error::Sql(e) => sql_cause(e),
        }
    }

    /// What to do about it: the end of a message that names the file first.
    pub fn advice(&self) -> &'static str {
        match self.cause() {
            Cause::Busy => "another askhook (or another program) holds it; try again",
            Cause::NotAFile => "point --db or ASKHOOK_DB at a database file (the default is askhook.db in the data folder)",
            Cause::Damaged => "the database is damaged: move it aside (askhook then starts a new one), or restore a copy (`sqlite3 FILE .recover` can save what is readable)",
            Cause::NotADatabase => "it is not an SQLite database: point --db or ASKHOOK_DB at askhook's database, or move the file aside",
            Cause::Full => "the disk is full: free some space, then run the command again",
            Cause::ReadOnly => "askhook cannot write there: check the permissions of the file and its folder, and that the disk is not mounted read-only",
            Cause::NoAccess => "askhook cannot open it: check that its folder exists and that you may read and write both",
            Cause::NoTables => "it holds no askhook tables: it is another program's database, or creating it was cut short (a full disk?); point --db or ASKHOOK_DB at askhook's database, or move the file aside",
            Cause::Newer => "a newer askhook wrote a value this one does not know: update askhook",
            Cause::Io => "the system reported an I/O error: check the disk (and that it is not full)",
            Cause::Bug => "this is a bug in askhook, not a problem with the file: please report it with the command you ran",
        }
    }

    /// Whether a read-only open may still succeed where a read-write one failed: the file or
    /// its folder is not writable, or a writer holds it while migrating. Not for a full disk, a
    /// damaged file or a bug: reading would only hide the real problem behind a later one.
    pub fn may_read_instead(&self) -> bool {
        matches!(
            self.cause(),
            Cause::ReadOnly | Cause::NoAccess | Cause::Busy
        )
    }
}

fn sql_cause(e: &rusqlite::Error) -> Cause {
    match e {
        rusqlite::Error::SqliteFailure(failure, message) => match failure.code {
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => Cause::Busy,
            ErrorCode::DatabaseCorrupt => Cause::Damaged,
            ErrorCode::NotADatabase => Cause::NotADatabase,
            ErrorCode::DiskFull => Cause::Full,
            ErrorCode::ReadOnly => Cause::ReadOnly,
            ErrorCode::CannotOpen | ErrorCode::PermissionDenied => Cause::NoAccess,
            ErrorCode::SystemIoFailure => Cause::Io,
            ErrorCode::Unknown
                if message
                    .as_deref()
                    .is_some_and(|m| m.starts_with("no such table")) =>
            {
                Cause::NoTables
            }
            _ => Cause::Bug,
        },
        rusqlite::Error::SqlInputError { msg, .. } if msg.starts_with("no such table") => {
            Cause::NoTables
        }
        rusqlite::Error::FromSqlConversionFailure(..) => Cause::Newer,
        _ => Cause::Bug,
    }
}

/// Refuse a database path that exists and is not a regular file (a symlink to one is fine),
/// before SQLite opens it. A missing path is fine (it is created).
pub fn check_path(path: &Path) -> Result<(), Error> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::Io(e)),
    };
    if meta.is_file() {
        return Ok(());
    }
    let what = if meta.is_dir() {
        "a folder"
    } else {
        file_kind(&meta)
    };
    Err(Error::Io(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what}, not a database file"),
    )))
}

#[cfg(unix)]
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(not(unix))]
fn file_kind(_meta: &std::fs::Metadata) -> &'static str {
    "not a regular file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite(code: i32, message: Option<&str>) -> Error {
        Error::Sql(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(code),
            message.map(str::to_owned),
        ))
    }

    #[test]
    fn causes_of_store_errors() {
        use rusqlite::ffi;
        for (name, error, cause) in [
            ("busy", sqlite(ffi::SQLITE_BUSY, None), Cause::Busy),
            ("corrupt", sqlite(ffi::SQLITE_CORRUPT, None), Cause::Damaged),
            (
                "not a database",
                sqlite(ffi::SQLITE_NOTADB, None),
                Cause::NotADatabase,
            ),
            ("disk full", sqlite(ffi::SQLITE_FULL, None), Cause::Full),
            (
                "read-only",
                sqlite(ffi::SQLITE_READONLY, None),
                Cause::ReadOnly,
            ),
            (
                "cannot open",
                sqlite(ffi::SQLITE_CANTOPEN, None),
                Cause::NoAccess,
            ),
            ("io", sqlite(ffi::SQLITE_IOERR_WRITE, None), Cause::Io),
            (
                "no such table",
                sqlite(ffi::SQLITE_ERROR, Some("no such table: questions")),
                Cause::NoTables,
            ),
            ("misuse", sqlite(ffi::SQLITE_MISUSE, None), Cause::Bug),
            (
                "wrong parameter count",
                Error::Sql(rusqlite::Error::InvalidParameterCount(1, 0)),
                Cause::Bug,
            ),
            (
                "a syntax error of ours",
                sqlite(ffi::SQLITE_ERROR, Some("near \"SELEC\": syntax error")),
                Cause::Bug,
            ),
            (
                "storage full",
                Error::Io(io::Error::from(io::ErrorKind::StorageFull)),
                Cause::Full,
            ),
        ] {
            assert_eq!(error.cause(), cause, "{name}");
        }
    }

    #[test]
    fn only_access_problems_fall_back_to_reading() {
        use rusqlite::ffi;
        assert!(sqlite(ffi::SQLITE_READONLY, None).may_read_instead());
        assert!(sqlite(ffi::SQLITE_BUSY, None).may_read_instead());
        // A full disk used to fall back to a read-only open of the empty file it left, and
        // report "no such table" instead of the full disk.
        assert!(!sqlite(ffi::SQLITE_FULL, None).may_read_instead());
        assert!(!sqlite(ffi::SQLITE_CORRUPT, None).may_read_instead());
    }

    #[test]
    fn only_regular_files_pass_the_path_check() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_path(&dir.path().join("missing.db")).is_ok());
        let file = dir.path().join("askhook.db");
        std::fs::write(&file, "").unwrap();
        assert!(check_path(&file).is_ok());
        let folder = check_path(dir.path()).unwrap_err();
        assert_eq!(folder.cause(), Cause::NotAFile);
        assert!(folder.to_string().contains("a folder"), "{folder}");
        let null = check_path(Path::new("/dev/null")).unwrap_err();
        assert!(null.to_string().contains("a character device"), "{null}");
    }
}
