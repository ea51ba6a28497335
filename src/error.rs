//! The CLI's top-level error: a small enum whose message names the file and says what to do,
//! and whose `exit_code()` scripts can rely on.
//!
//! | exit | meaning |
//! |---|---|
//! | 0 | success (the hook always exits 0) |
//! | 1 | failed or refused (I/O, database, a policy refusal) |
//! | 2 | bad usage, or a change that needs a person's confirmation and got none |
//! | 3 | a file askhook will not touch because it is invalid (it is left byte-identical) |
//! | 4 | a lock could not be taken in time; nothing was written |

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Every error a CLI command can end with.
#[derive(Debug)]
pub enum Error {
    /// Reading or writing a file failed.
    Io { path: PathBuf, source: io::Error },
    /// The answer log could not be opened or queried.
    Db {
        path: PathBuf,
        source: crate::store::Error,
    },
    /// A request askhook refuses on purpose; the message says why and what to do.
    Refused(String),
    /// Bad command-line input.
    Usage(String),
    /// A change that needs a person at a terminal, and none confirmed it.
    NotConfirmed(String),
    /// A file askhook will not change because it is invalid.
    Invalid { path: PathBuf, problem: String },
    /// A lock was not obtained within its budget.
    Locked { path: PathBuf, waited_ms: u128 },
}

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Io { .. } | Error::Db { .. } | Error::Refused(_) => 1,
            Error::Usage(_) | Error::NotConfirmed(_) => 2,
            Error::Invalid { .. } => 3,
            Error::Locked { .. } => 4,
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub fn db(path: impl Into<PathBuf>, source: impl Into<crate::store::Error>) -> Error {
        Error::Db {
            path: path.into(),
            source: source.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Db { path, source } => {
                write!(f, "{}: {source}; {}", path.display(), source.advice())
            }
            Error::Refused(msg) | Error::Usage(msg) | Error::NotConfirmed(msg) => f.write_str(msg),
            Error::Invalid { path, problem } => {
                write!(f, "{}: {problem}; the file was left unchanged", path.display())
            }
            Error::Locked { path, waited_ms } => write!(
                f,
                "{}: another askhook holds the lock (waited {waited_ms} ms); nothing was written, try again",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Db { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
