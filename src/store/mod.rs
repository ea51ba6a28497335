//! The answer log: one SQLite file holding every question asked, how it settled, and the
//! user's standing preferences. The only module that speaks SQL: every statement askhook runs
//! is in here (`mod.rs` opens, migrates and writes; `read.rs` reads rows, stats and counts;
//! `prefs.rs` preferences and their history; `filter.rs` builds the one `WHERE`; `diagnose.rs`
//! says what an error means and refuses a path that is no file before SQLite opens it).
//!
//! ## Locking
//! One connection per process, WAL journal (readers never block the writer), `synchronous =
//! NORMAL`, and a `busy_timeout` from the hook budget (`ASKHOOK_BUSY_TIMEOUT_MS`, default
//! 300 ms). Each hook event is one `BEGIN IMMEDIATE` transaction. When the database stays busy
//! past the budget the hook appends its write to the spool (`<db>.spool`, see [`spool`])
//! instead. A hook ingests the spool only after its own event is safe, and only a chunk of it
//! ([`Store::ingest_spool_within`]); opening the store for the CLI ([`Store::open`]) ingests
//! the rest, chunk by chunk. Every write is idempotent on the natural key
//! `(session_id, tool_use_id, question_index)`, so replays never duplicate a row.
//!
//! ## Compatibility
//! The schema version is `PRAGMA user_version`; migrations (see `migrations.rs`) are additive
//! and applied once, in one exclusive transaction, by whichever process opens first. A
//! database newer than this binary is read and written as far as the known columns go; a door,
//! outcome or id source this binary does not know fails the read with an error naming the value
//! (update askhook), rather than being shown as something it is not.
//!
//! ## Performance
//! When `user_version` is current no migration work runs; statements are `prepare_cached`.
//! Indexes serve the hook's lookups (natural key, pending rows of a session) and the query
//! CLI's time, question and session filters. The database and its spool are created 0600 in
//! a 0700 folder.

pub mod diagnose;
pub mod doors;
pub mod families;
pub mod filter;
pub mod history;
pub mod migrations;
pub mod prefs;
pub mod read;
pub mod row;
pub mod rules;
pub mod spool;
pub mod standing;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use askhook_core::registry::Registry;
use rusqlite::{params, Connection, OpenFlags, TransactionBehavior};

use crate::sys::fsutil;
use crate::sys::paths::spool_for;

pub use filter::Filter;
pub use row::{Batch, Outcome, Row};

/// Why a store operation failed: SQLite, or the file system around it (folder, spool).
#[derive(Debug)]
pub enum Error {
    Sql(rusqlite::Error),
    Io(std::io::Error),
}

impl Error {
    /// Whether it may pass (busy, disk full, I/O): a write that failed so is tried again later,
    /// where any other failure means the write itself is at fault.
    pub fn is_transient(&self) -> bool {
        use rusqlite::ErrorCode as C;
        match self {
            Error::Io(_) => true,
            Error::Sql(e) => matches!(
                e.sqlite_error_code(),
                Some(
                    C::DatabaseBusy
                        | C::DatabaseLocked
                        | C::DiskFull
                        | C::SystemIoFailure
                        | C::ReadOnly
                        | C::CannotOpen
                        | C::OutOfMemory
                        | C::OperationInterrupted
                        | C::FileLockingProtocolFailed
                )
            ),
        }
    }

    /// Whether it means "someone else holds the database": the write goes to the spool.
    pub fn is_busy(&self) -> bool {
        matches!(self, Error::Sql(e) if matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        ))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Sql(e) => e.fmt(f),
            Error::Io(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Sql(e) => Some(e),
            Error::Io(e) => Some(e),
        }
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::Sql(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::Io(e)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// WAL size past which the end of a turn (Stop, UserPromptSubmit, SessionEnd) checkpoints it:
/// nobody waits on a question then.
pub const WAL_CHECKPOINT_BYTES: u64 = 128 * 1024;

/// WAL size past which any write checkpoints it, so it stays small even in a session whose
/// turns never end cleanly. Every hook process rebuilds its WAL index from the whole WAL on
/// open (it is the only connection), so a large WAL costs every run, while each checkpoint
/// costs two `fsync`s: 256 KiB measured best (1 MiB and 512 KiB had a worse p99, 128 KiB a
/// worse median).
pub const WAL_HARD_CAP_BYTES: u64 = 256 * 1024;

/// How far opening a database migrates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Migrate {
    /// To the latest schema (CLI commands).
    All,
    /// Only when the schema lacks what the hook writes (the hook).
    HookMinimum,
}

/// How much of the spool a CLI command ingests per transaction (it goes on to the end).
/// Chunks stay short so that hooks waiting to append are never held up long.
const CLI_INGEST: spool::Budget = spool::Budget {
    bytes: 4 << 20,
    time: Duration::from_millis(250),
    record_bytes: spool::MAX_RECORD_BYTES,
    lock_wait: Duration::from_secs(1),
};

/// What an ingest of the spool did, for the error log.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Ingested {
    /// Writes applied.
    pub applied: usize,
    /// Spool bytes still waiting.
    pub backlog: u64,
    /// One line per kind of trouble: damaged records skipped (and where they are kept),
    /// writes the database refused, a cursor that did not match.
    pub problems: Vec<String>,
}

/// An open answer log.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// `PRAGMA user_version` once opened (and migrated as far as this open goes): what the
    /// database has decides which columns are written and read.
    schema: i64,
    /// What went wrong ingesting the spool on open, if anything (the spool is kept for the
    /// next open; the store is usable regardless).
    pub spool_problem: Option<String>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Open (creating if needed) the database at `path`, migrate it, and ingest its spool.
    pub fn open(path: &Path, busy_timeout: Duration) -> Result<Store> {
        Self::open_with(path, busy_timeout, Migrate::All)
    }

    /// [`Store::open`] for the hook: a new database gets the whole schema (instant while it is
    /// empty), but an existing one is only migrated when it lacks what the hook writes
    /// ([`migrations::HOOK_SCHEMA`]). Later migrations (indexes for the query CLI) can take
    /// seconds on a large log, which must never eat a hook's deadline; the first CLI command
    /// after an upgrade applies them.
    pub fn open_for_hook(path: &Path, busy_timeout: Duration) -> Result<Store> {
        Self::open_with(path, busy_timeout, Migrate::HookMinimum)
    }

    fn open_with(path: &Path, busy_timeout: Duration, migrate: Migrate) -> Result<Store> {
        diagnose::check_path(path)?;
        if let Some(dir) = path.parent() {
            fsutil::create_private_dir(dir)?;
        }
        match std::fs::metadata(path) {
            // SQLite would block reading a FIFO for ever.
            Ok(meta) if !meta.is_file() => return Err(fsutil::not_regular().into()),
            Ok(_) => {}
            Err(_) => {
                // Create the file ourselves so it is private from the first byte; SQLite gives
                // the -wal and -shm files the same mode.
                let _ = fsutil::open_regular(
                    path,
                    fsutil::private_options(std::fs::OpenOptions::new().write(true).create(true)),
                );
            }
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        Self::setup(conn, path, busy_timeout, migrate)
    }

    /// Open an existing database for reading only (query commands); fails when it is missing.
    pub fn open_read_only(path: &Path, busy_timeout: Duration) -> Result<Store> {
        diagnose::check_path(path)?;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(busy_timeout)?;
        let schema = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            schema,
            spool_problem: None,
        })
    }

    /// The one connection setup: pragmas, migrations, and for the CLI the spool ingest.
    fn setup(
        conn: Connection,
        path: &Path,
        busy_timeout: Duration,
        migrate: Migrate,
    ) -> Result<Store> {
        conn.busy_timeout(busy_timeout)?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        // Every hook run is a short-lived process and usually the last connection: without this,
        // each close would checkpoint and delete the WAL (several fsyncs per question).
        conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )?;
        // Auto-checkpoint misfires across processes (each new connection sees the whole WAL as
        // uncheckpointed, so once past the threshold every commit checkpoints and the WAL never
        // shrinks); `apply` checkpoints explicitly instead (see `checkpoint_past`).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        conn.set_prepared_statement_cache_capacity(32);
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            schema: 0,
            spool_problem: None,
        };
        let version = store.schema_version()?;
        let needed = match migrate {
            Migrate::All => version < migrations::latest(),
            // A new database gets every migration (instant while empty).
            Migrate::HookMinimum => version < migrations::HOOK_SCHEMA,
        };
        if needed {
            store.migrate()?;
        }
        store.schema = store.schema_version()?;
        if migrate == Migrate::All {
            match store.ingest_spool() {
                Ok(done) if done.problems.is_empty() => {}
                Ok(done) => store.spool_problem = Some(done.problems.join("; ")),
                Err(e) => store.spool_problem = Some(format!("spool not ingested yet: {e}")),
            }
            // A busy log is clustered by the next command; until then rows keep their hash.
            let _ = store.settle_families();
            store.refresh_standing_quietly();
        }
        Ok(store)
    }

    /// Classify the questions the hook stored unclassified ([`doors::settle`]), with the
    /// registry a hook would have used; a read-only or busy log keeps them for the next command.
    pub fn settle_doors(&mut self, registry: &Registry) -> Result<usize> {
        if self.schema < migrations::DOORS_SCHEMA || !doors::unsettled(&self.conn)? {
            return Ok(0);
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let settled = doors::settle(&tx, registry)?;
        tx.commit()?;
        Ok(settled)
    }

    /// Cluster the questions the hook stored since the last command ([`families::settle`]).
    pub fn settle_families(&mut self) -> Result<usize> {
        if self.schema < migrations::SETTLE_SCHEMA || !families::unsettled(&self.conn)? {
            return Ok(0);
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let read = families::settle(&tx)?;
        // New members of a family with a preference change what the hook's copy says.
        standing::invalidate(&self.path)?;
        tx.commit()?;
        Ok(read)
    }

    /// Leave the connection open for the process's exit to end, for the hook's one-shot
    /// process: closing finalizes every cached statement and walks the WAL index (~0.1 ms)
    /// and buys nothing, since every write is committed, a close never checkpoints
    /// (`NO_CKPT_ON_CLOSE`), and the locks end with the process.
    pub fn leave_open(self) {
        std::mem::forget(self);
    }

    /// [`Store::refresh_standing`] for a CLI command: a file that cannot be written is removed
    /// (the hook then reads the database), and the command goes on.
    pub fn refresh_standing_quietly(&mut self) {
        if self.refresh_standing().is_err() {
            let _ = standing::invalidate(&self.path);
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the database has question families, `decided_by` and rules (schema 3).
    pub fn has_families(&self) -> bool {
        self.schema >= migrations::FAMILIES_SCHEMA
    }

    /// `PRAGMA user_version`.
    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    fn migrate(&mut self) -> Result<()> {
        // journal_mode cannot change inside a transaction; it is persistent once set.
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        let _ = mode;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Exclusive)?;
        let current: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        for (n, sql) in migrations::MIGRATIONS
            .iter()
            .enumerate()
            .skip(current.max(0) as usize)
        {
            tx.execute_batch(sql)?;
            if n + 1 == migrations::FAMILIES_SCHEMA as usize {
                backfill_families(&tx)?;
            }
            if n + 1 == migrations::CLUSTERS_SCHEMA as usize {
                families::backfill(&tx)?;
            }
            tx.pragma_update(None, "user_version", (n + 1) as i64)?;
        }
        standing::invalidate(&self.path)?;
        Ok(tx.commit()?)
    }

    /// Ingest the whole spool, one chunk per transaction (the CLI).
    pub fn ingest_spool(&mut self) -> Result<Ingested> {
        let mut done = Ingested::default();
        loop {
            let before = (done.applied, done.problems.len());
            let step = self.ingest_spool_within(&CLI_INGEST)?;
            done.applied += step.applied;
            done.backlog = step.backlog;
            done.problems.extend(step.problems);
            if done.backlog == 0 || (done.applied, done.problems.len()) == before {
                return Ok(done);
            }
        }
    }

    /// Ingest one chunk of the spool within `budget`, in one transaction (a hook, after its
    /// own event is safe). A cheap `stat` when the spool is empty.
    ///
    /// The database write lock is taken first and the spool lock only then, for the short
    /// read-apply-commit: a process waiting on a busy database must never hold the spool lock,
    /// or every hook that needs to append would queue behind it.
    pub fn ingest_spool_within(&mut self, budget: &spool::Budget) -> Result<Ingested> {
        let path = spool_for(&self.path);
        if std::fs::metadata(&path).map_or(true, |m| m.len() == 0) {
            return Ok(Ingested::default());
        }
        let mut tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let Some(mut chunk) = spool::take(&path, budget)? else {
            return Ok(Ingested::default());
        };
        let writes = std::mem::take(&mut chunk.writes);
        let mut applied = 0;
        for write in &writes {
            let sp = tx.savepoint()?;
            match apply_in(&sp, write, self.schema) {
                Ok(()) => {
                    sp.commit()?;
                    applied += 1;
                }
                // The database cannot take it now: keep the whole chunk for later.
                Err(e) if e.is_transient() => return Err(e),
                // This write never will be: keep it aside rather than block the spool for ever.
                Err(_) => chunk.reject(write, "refused by the database"),
            }
        }
        tx.commit()?;
        let mut done = Ingested {
            applied,
            backlog: chunk.backlog(),
            problems: Vec::new(),
        };
        done.problems.extend(damage_report(&path, &chunk));
        if let Some(problem) = chunk.finish()? {
            done.problems
                .push(format!("damaged spool records not kept: {problem}"));
        }
        self.checkpoint_past(WAL_HARD_CAP_BYTES);
        Ok(done)
    }

    /// Apply one event's writes in one transaction.
    pub fn apply(&mut self, write: &Batch) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        apply_in(&tx, write, self.schema)?;
        tx.commit()?;
        let threshold = match write {
            Batch::Decline { .. } => WAL_CHECKPOINT_BYTES,
            Batch::Records { .. } => WAL_HARD_CAP_BYTES,
        };
        self.checkpoint_past(threshold);
        Ok(())
    }

    /// Fold the WAL back into the database once it passes `threshold` bytes: one `stat` per
    /// write. Writes of questions (someone may be waiting on the picker) use the hard cap;
    /// the end of a turn uses the small threshold. A busy checkpoint is retried by a later write.
    fn checkpoint_past(&self, threshold: u64) {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        if std::fs::metadata(&wal).is_ok_and(|m| m.len() > threshold) {
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
    }
}

/// The error-log lines for what a chunk skipped.
fn damage_report(spool: &Path, chunk: &spool::Chunk) -> Vec<String> {
    let mut lines = Vec::new();
    if chunk.cursor_reset {
        lines.push(format!(
            "the spool cursor {} did not match the spool; ingesting it from the start (replays are harmless)",
            spool::cursor_path(spool).display()
        ));
    }
    if let Some(first) = chunk.damaged.first() {
        let bytes: u64 = chunk.damaged.iter().map(|d| d.len).sum();
        lines.push(format!(
            "skipped {} damaged spool record(s), {bytes} bytes (the first at offset {}: {}); \
             every whole record after them was ingested; the damaged bytes are kept in {}",
            chunk.damaged.len(),
            first.offset,
            first.why,
            spool::quarantine_path(spool).display()
        ));
    }
    lines
}

/// Compute the family of every unmarked row stored before families existed (migration 3), in
/// the migration's transaction: the family is a pure function of the stored question text and
/// option labels, which is what the hook hashes too.
fn backfill_families(conn: &Connection) -> Result<()> {
    let mut read = conn.prepare(
        "SELECT id, question, options FROM questions WHERE id_source = 'hash' AND family IS NULL",
    )?;
    let mut write = conn.prepare("UPDATE questions SET family = ?2 WHERE id = ?1")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let (id, question, options): (i64, String, String) = (r.get(0)?, r.get(1)?, r.get(2)?);
        let options: Vec<askhook_core::question::Choice> =
            serde_json::from_str(&options).unwrap_or_default();
        if let Some(family) = askhook_core::family::family_id(&question, &options) {
            write.execute(params![id, family])?;
        }
    }
    Ok(())
}

/// `INSERT INTO questions (the first `columns` of a row) VALUES (…)` followed by `on_conflict`.
fn insert_sql(columns: usize, on_conflict: &str) -> String {
    let marks: Vec<String> = (1..=columns).map(|n| format!("?{n}")).collect();
    format!(
        "INSERT INTO questions ({}) VALUES ({}) {on_conflict}",
        row::COLUMNS[..columns].join(", "),
        marks.join(", ")
    )
}

/// How many of [`row::COLUMNS`] a database at `schema` has.
fn columns_at(schema: i64) -> usize {
    if schema >= migrations::FAMILIES_SCHEMA {
        row::COLUMNS.len()
    } else {
        row::COLUMNS.len() - row::NEW_COLUMNS
    }
}

/// The insert for `schema` with `on_conflict`, built once per process in `cache` (one slot
/// per column set).
fn cached_insert(
    cache: &'static [OnceLock<String>; 2],
    schema: i64,
    on_conflict: &str,
) -> &'static str {
    let columns = columns_at(schema);
    cache[usize::from(columns == row::COLUMNS.len())]
        .get_or_init(|| insert_sql(columns, on_conflict))
}

/// Pending rows only ever insert: a replayed PreToolUse must not touch a settled row. The
/// short statement also compiles faster than [`upsert`] in the hook's fresh process.
fn insert_pending(schema: i64) -> &'static str {
    static SQL: [OnceLock<String>; 2] = [OnceLock::new(), OnceLock::new()];
    cached_insert(
        &SQL,
        schema,
        "ON CONFLICT (session_id, tool_use_id, question_index) DO NOTHING",
    )
}

/// Settled rows insert, or settle a row that is still pending (or was declined). A row askhook
/// auto-decided stays so, whatever a later event says: in answer mode Claude Code fires
/// PostToolUse with the answers askhook gave.
fn upsert(schema: i64) -> &'static str {
    static SQL: [OnceLock<String>; 2] = [OnceLock::new(), OnceLock::new()];
    cached_insert(
        &SQL,
        schema,
        "ON CONFLICT (session_id, tool_use_id, question_index) DO UPDATE SET
                outcome = excluded.outcome,
                answer = excluded.answer,
                selections = excluded.selections,
                free_text = excluded.free_text,
                notes = excluded.notes,
                followed_recommendation = excluded.followed_recommendation,
                afk = excluded.afk,
                error = excluded.error,
                settled_at = excluded.settled_at
            WHERE questions.outcome IN ('pending', 'declined') AND excluded.outcome <> 'pending'",
    )
}

fn apply_in(conn: &Connection, write: &Batch, schema: i64) -> Result<()> {
    match write {
        Batch::Records { records } => {
            let all_pending = records.iter().all(|r| r.outcome == Outcome::Pending);
            let mut stmt = conn.prepare_cached(if all_pending {
                insert_pending(schema)
            } else {
                upsert(schema)
            })?;
            let columns = columns_at(schema);
            for r in records {
                let family = if schema >= migrations::CLUSTERS_SCHEMA {
                    families::assign(conn, r)?
                } else {
                    r.family.clone()
                };
                let joined;
                let r = if family == r.family {
                    r
                } else {
                    joined = Row {
                        family,
                        ..r.clone()
                    };
                    &joined
                };
                stmt.execute(rusqlite::params_from_iter(
                    r.params().into_iter().take(columns),
                ))?;
            }
        }
        Batch::Decline { session_id, at } => {
            conn.prepare_cached(
                "UPDATE questions SET outcome = 'declined', settled_at = ?2
                 WHERE session_id = ?1 AND outcome = 'pending' AND asked_at <= ?2",
            )?
            .execute(params![session_id, at])?;
        }
    }
    Ok(())
}
