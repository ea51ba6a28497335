//! The health of the real data folder, checked by `doctor` and `status` (never a temp copy):
//! whether the hook can write there, whether the disk has room, whether spooled events wait to
//! be ingested, whether a hook lost events, and whether the database and its schema are ones
//! this binary can use. Each finding says what is wrong and what to do next. A *problem* (the
//! hook cannot record, or did not) makes both commands exit 1; a *warning* does not.
//!
//! ## JSON (`data` in `doctor --json` and `status --json`)
//! ```json
//! { "folder": "/home/u/.local/share/askhook", "exists": true, "writable": true,
//!   "free_bytes": 52613349376, "spool_backlog_bytes": 0, "quarantined_bytes": 0,
//!   "lost_events": 0, "last_lost": null, "schema_version": 3, "latest_schema_version": 3,
//!   "problems": [], "warnings": [] }
//! ```
//! `folder` is the database's folder (the data folder unless `--db` points elsewhere);
//! `free_bytes` is `null` when it cannot be read, `schema_version` when there is no database yet;
//! `lost_events` counts the lines of the lost-events marker (`<db>.lost`; it can be 0 with a
//! problem reported when the disk was too full to write a line), `last_lost` is its last line.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::store::{migrations, spool, Store};
use crate::sys::fsutil;
use crate::Context;

/// Below this much free space the hook may fail to record (a question with a long payload is a
/// few MiB in the spool).
pub const MIN_FREE_BYTES: u64 = 4 << 20;

/// A spool backlog past this is reported: the hook appends each question there and the end of
/// its turn ingests it, so a few KiB waiting is the normal state.
pub const SPOOL_BACKLOG_WARN_BYTES: u64 = 4 << 20;

/// The data folder's state, and what is wrong with it.
#[derive(Debug, Clone, Serialize)]
pub struct Health {
    pub folder: String,
    pub exists: bool,
    pub writable: bool,
    pub free_bytes: Option<u64>,
    pub spool_backlog_bytes: u64,
    pub quarantined_bytes: u64,
    pub lost_events: usize,
    pub last_lost: Option<String>,
    pub schema_version: Option<i64>,
    pub latest_schema_version: i64,
    pub problems: Vec<String>,
    pub warnings: Vec<String>,
}

impl Health {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Check the data folder of `ctx` (see the module doc).
pub fn check(ctx: &Context) -> Health {
    let db = &ctx.paths.db;
    let folder = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let mut health = Health {
        folder: folder.display().to_string(),
        exists: folder.is_dir(),
        writable: false,
        free_bytes: None,
        spool_backlog_bytes: 0,
        quarantined_bytes: 0,
        lost_events: 0,
        last_lost: None,
        schema_version: None,
        latest_schema_version: migrations::latest(),
        problems: Vec::new(),
        warnings: Vec::new(),
    };
    check_writable(ctx, &folder, &mut health);
    check_space(&folder, &mut health);
    check_spool(ctx, &mut health);
    check_lost(ctx, &mut health);
    check_schema(db, &mut health);
    health
}

/// The folder (or, before the first question, the nearest folder it would be made in) and
/// every file the hook writes there must be writable.
fn check_writable(ctx: &Context, folder: &Path, health: &mut Health) {
    let target = existing_ancestor(folder);
    let probe = if health.exists {
        probe_create(folder)
    } else {
        access_write(&target)
    };
    let mut refused = Vec::new();
    if let Err(e) = probe {
        refused.push(format!("{} ({e})", target.display()));
    }
    let db = &ctx.paths.db;
    for file in [
        db.clone(),
        suffixed(db, "-wal"),
        suffixed(db, "-shm"),
        ctx.paths.spool(),
    ] {
        if file.exists() {
            if let Err(e) = access_write(&file) {
                refused.push(format!("{} ({e})", file.display()));
            }
        }
    }
    health.writable = refused.is_empty();
    if !refused.is_empty() {
        health.problems.push(format!(
            "cannot write {}: the hook can record nothing. Fix the permissions (or remount \
             the disk read-write), or point ASKHOOK_HOME at a writable folder",
            refused.join(", ")
        ));
    }
}

fn check_space(folder: &Path, health: &mut Health) {
    let Some((free, inodes)) = free_space(&existing_ancestor(folder)) else {
        return;
    };
    health.free_bytes = Some(free);
    if free < MIN_FREE_BYTES || inodes == Some(0) {
        health.problems.push(format!(
            "the disk holding {} is full ({} KiB free{}): the hook cannot record questions; \
             free some space",
            health.folder,
            free / 1024,
            if inodes == Some(0) {
                ", no free inodes"
            } else {
                ""
            }
        ));
    }
}

fn check_spool(ctx: &Context, health: &mut Health) {
    let spool_path = ctx.paths.spool();
    match spool::backlog(&spool_path) {
        Ok(bytes) => {
            // Questions wait there until the end of their turn: only a backlog that no turn's
            // end has taken (no Stop hook installed, or a database that stays busy) is news.
            health.spool_backlog_bytes = bytes;
            if bytes >= SPOOL_BACKLOG_WARN_BYTES {
                health.warnings.push(format!(
                    "{bytes} bytes of events wait in the spool {}: the end of a turn ingests \
                     them (is the Stop hook installed? `askhook install` adds it), and so does \
                     any query command (e.g. `askhook log`)",
                    spool_path.display()
                ));
            }
        }
        Err(e) => health.problems.push(format!(
            "the spool {} cannot be read ({e}): hooks cannot spool events; remove it",
            spool_path.display()
        )),
    }
    let quarantine = spool::quarantine_path(&spool_path);
    health.quarantined_bytes = std::fs::metadata(&quarantine).map_or(0, |m| m.len());
    if health.quarantined_bytes > 0 {
        health.warnings.push(format!(
            "damaged spool records ({} bytes, from hooks killed while spooling) were skipped \
             and kept in {}; the error log says when; delete the file once read",
            health.quarantined_bytes,
            quarantine.display()
        ));
    }
}

fn check_lost(ctx: &Context, health: &mut Health) {
    let marker = ctx.paths.lost_marker();
    let Ok(meta) = std::fs::metadata(&marker) else {
        return;
    };
    let text = fsutil::read_regular(&marker, 1 << 20)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    health.lost_events = text.lines().count();
    health.last_lost = text.lines().last().map(str::to_owned);
    let when = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| crate::sys::time::format_rfc3339(d.as_millis() as i64))
        .unwrap_or_default();
    let count = match health.lost_events {
        // The marker exists but holds no line: the disk was too full to write one.
        0 => "events".to_owned(),
        n => format!("{n} event(s)"),
    };
    health.problems.push(format!(
        "{count} could not be recorded, the last at {when}; fix the cause (see the other \
         problems and the error log), then delete {}",
        marker.display()
    ));
}

fn check_schema(db: &Path, health: &mut Health) {
    let Ok(meta) = std::fs::metadata(db) else {
        return;
    };
    let version = if meta.is_file() {
        Store::open_read_only(db, Duration::from_millis(500)).and_then(|s| s.schema_version())
    } else {
        Err(fsutil::not_regular().into())
    };
    match version {
        Ok(v) => {
            health.schema_version = Some(v);
            if v > health.latest_schema_version {
                health.problems.push(format!(
                    "the database schema ({v}) is newer than this binary knows ({}); update askhook",
                    health.latest_schema_version
                ));
            }
        }
        Err(e) => health.problems.push(format!(
            "the database {} cannot be read ({e}); move it aside (the hook starts a new one) or \
             point ASKHOOK_DB at another",
            db.display()
        )),
    }
}

fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// `path` itself when it exists, else its nearest existing ancestor.
fn existing_ancestor(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|p| p.exists())
        .unwrap_or(Path::new("/"))
        .to_path_buf()
}

/// Create and remove a file in `folder`: the truth about writing there (root ignores modes,
/// not a read-only mount).
fn probe_create(folder: &Path) -> std::io::Result<()> {
    let probe = folder.join(format!(".askhook-probe-{}", std::process::id()));
    let result = fsutil::private_options(
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .truncate(true),
    )
    .open(&probe);
    let _ = std::fs::remove_file(&probe);
    result.map(drop)
}

/// `access(path, W_OK)`, which creates nothing.
fn access_write(path: &Path) -> std::io::Result<()> {
    let c = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: a valid C string.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Free bytes (for an unprivileged user) and free inodes on the disk holding `path`.
fn free_space(path: &Path) -> Option<(u64, Option<u64>)> {
    let c = CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: a valid C string and an out-parameter of the right type.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &raw mut stat) } != 0 {
        return None;
    }
    let free = stat.f_bavail.saturating_mul(stat.f_frsize);
    // Some file systems (btrfs, tmpfs without a limit) report no inode counts at all.
    let inodes = (stat.f_files > 0).then_some(stat.f_favail);
    Some((free, inodes))
}

/// A cheap check for query commands, which would otherwise show an empty or stale log as if
/// nothing was asked: a lost-events marker, or a data folder the hook cannot write.
pub fn hint(ctx: &Context) -> Option<String> {
    let marker = ctx.paths.lost_marker();
    let folder = ctx.paths.db.parent().unwrap_or(Path::new("."));
    let why = if marker.exists() {
        format!("a hook could not record some events ({})", marker.display())
    } else if access_write(&existing_ancestor(folder)).is_err() {
        format!("hooks cannot write {}", folder.display())
    } else {
        return None;
    };
    Some(format!(
        "{why}; the log may be missing questions: run `askhook doctor`"
    ))
}

/// The lines `doctor` and `status` print for it.
pub fn lines(health: &Health) -> Vec<String> {
    let clean = |s: &str| crate::sys::ui::sanitize(s, false);
    let mut out = vec![format!(
        "  {}: {}{}",
        clean(&health.folder),
        if health.writable {
            "writable"
        } else {
            "NOT writable"
        },
        health
            .free_bytes
            .map(|b| format!(", {} MiB free", b >> 20))
            .unwrap_or_default()
    )];
    out.extend(
        health
            .problems
            .iter()
            .map(|p| format!("  PROBLEM: {}", clean(p))),
    );
    out.extend(
        health
            .warnings
            .iter()
            .map(|w| format!("  warning: {}", clean(w))),
    );
    out
}
