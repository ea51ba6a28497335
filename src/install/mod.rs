//! The installer: `askhook install / uninstall / status / rollback` merge askhook's hook
//! registrations into Claude Code settings files without ever damaging what is already there.
//!
//! Every change follows one path: take an exclusive lock on the settings file's folder (the
//! folder itself, opened read-only: no lock file is left behind; `std::fs::File::try_lock`
//! polled for [`LOCK_BUDGET`], see `fsutil`) → re-read the file under the lock → refuse invalid
//! JSON, a non-object root or a non-object `hooks` (exit 3, file byte-identical; an empty file
//! is `{}`, and a leading UTF-8 byte order mark is read past and written back) → pure merge
//! ([`merge`]) → nothing to change: write nothing, not even a backup → back up into askhook's
//! own data folder ([`backup_path`]: `<data>/settings-backups/<the file's absolute path>`
//! `.askhook-bak.<UTC stamp>`, 0600 in 0700 folders, last [`KEEP_BACKUPS`] kept) → atomic
//! write (temp file in the same folder, mode and owner kept, fsync, rename), or, when nothing
//! is left in the file (`{}`), remove it, and its folder too when that is then empty (not for
//! the user scope). Key order, other keys, the indentation (2 spaces unless the file used
//! another) and the trailing newline are kept. A symlinked settings file is followed
//! ([`real_path`]): the write happens beside the file it points at and the link stays a link; a
//! link to nothing is refused (exit 3). Nothing here ever prompts (`--yes` is accepted
//! for scripts; `uninstall --purge` asks in `cmd::install`).
//!
//! So a project-scope install and uninstall leave nothing untracked in the repository. Backups
//! and `.<name>.askhook-lock` files that older versions left beside a settings file are moved
//! into the data folder (backups) or removed (lock files) by the next change to that file.
//!
//! ## Scopes
//! | scope | file |
//! |---|---|
//! | `user` (default) | `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json` |
//! | `project` | `<project>/.claude/settings.json` |
//! | `local` | `<project>/.claude/settings.local.json` |
//!
//! `--settings FILE` wins over `--scope`. `<project>` is `project::project_root(cwd)`.
//!
//! ## `status --json`
//! ```json
//! { "binary": "/abs/askhook",
//!   "scopes": [ { "scope": "user", "file": "/h/.claude/settings.json", "exists": true,
//!     "problem": null, "registered": true,
//!     "events": ["PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "UserPromptSubmit", "SessionEnd"],
//!     "missing": [], "duplicates": [], "dead": 0,
//!     "items": [ { "event": "PreToolUse", "matcher": "(AskUserQuestion|mcp__.*__AskUserQuestion)",
//!       "command": "/abs/askhook", "form": "exec", "exists": true, "executable": true,
//!       "this_binary": true } ],
//!     "plugin_enabled": false } ] }
//! ```
//! `scope` is `user`, `project`, `local` or `file` (for `--settings`). `problem` names why the
//! file cannot be read (invalid JSON, wrong shape). `registered` is true when every event has a
//! working askhook item. `exists` / `executable` are `null` when the command cannot be checked
//! (a bare name resolved on `PATH`, or one holding `$` or `~`). `dead` counts items whose binary
//! is missing or not executable. `plugin_enabled` is true when the file enables the askhook plugin
//! (`enabledPlugins["askhook@…"]`): with settings registrations as well, the hook runs twice.
//! Without `--scope` / `--settings`, every scope is listed.

pub mod claude_md;
pub mod diff;
pub mod merge;

use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::cli::{Scope, SettingsTarget};
use crate::error::{Error, Result};
use crate::sys::project::project_root;
use crate::sys::time;
use crate::sys::{fsutil, json};
use crate::Context;

pub(crate) use merge::{Change, Desired, EVENTS};

/// How long to wait for another askhook holding the settings lock.
pub const LOCK_BUDGET: Duration = Duration::from_secs(3);

/// How many askhook backups of one settings file are kept.
pub const KEEP_BACKUPS: usize = 10;

/// The settings file one command acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `user`, `project`, `local`, or `file` for `--settings`.
    pub scope: &'static str,
    pub path: PathBuf,
    /// Where backups of settings files go: `<data folder>/settings-backups`.
    pub backup_dir: PathBuf,
}

/// The folder under the data folder that holds settings backups.
pub const BACKUP_FOLDER: &str = "settings-backups";

fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Local => "local",
    }
}

/// The settings file of a scope.
pub fn scope_path(scope: Scope, ctx: &Context) -> PathBuf {
    match scope {
        Scope::User => ctx.paths.user_settings(),
        Scope::Project => project_root(&ctx.cwd).join(".claude/settings.json"),
        Scope::Local => project_root(&ctx.cwd).join(".claude/settings.local.json"),
    }
}

/// The file `--scope` / `--settings` name (`user` when neither is given).
pub fn resolve(target: &SettingsTarget, ctx: &Context) -> Target {
    if let Some(file) = &target.settings {
        let path = if file.is_absolute() {
            file.clone()
        } else {
            ctx.cwd.join(file)
        };
        return Target {
            scope: "file",
            path,
            backup_dir: ctx.paths.data_dir.join(BACKUP_FOLDER),
        };
    }
    let scope = target.scope.unwrap_or(Scope::User);
    Target {
        scope: scope_name(scope),
        path: scope_path(scope, ctx),
        backup_dir: ctx.paths.data_dir.join(BACKUP_FOLDER),
    }
}

/// The file to really edit: a symlinked settings file (dotfile managers do this) is followed,
/// so the lock, the backup and the atomic rename are beside the file it points at, and the
/// link stays a link. A link to nothing is refused ([`Error::Invalid`], exit 3): creating its
/// target could write into a dotfiles checkout that moved or is not mounted, and replacing the
/// link with a file would fork the user's settings; the message says how to fix it.
pub(crate) fn real_path(path: &Path) -> Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => fs::canonicalize(path).map_err(|e| {
            let target = fs::read_link(path).unwrap_or_default();
            let problem = if e.kind() == io::ErrorKind::NotFound {
                format!(
                    "a symbolic link to {}, which does not exist; create that file (an empty \
                     one will do) or remove the link, then run askhook again",
                    target.display()
                )
            } else {
                format!(
                    "a symbolic link to {} that cannot be followed ({e}); fix or remove the link",
                    target.display()
                )
            };
            Error::Invalid {
                path: path.to_path_buf(),
                problem,
            }
        }),
        _ => Ok(path.to_path_buf()),
    }
}

/// Every scope, or only the one named.
fn targets(target: &SettingsTarget, ctx: &Context) -> Vec<Target> {
    if target.settings.is_some() || target.scope.is_some() {
        return vec![resolve(target, ctx)];
    }
    [Scope::User, Scope::Project, Scope::Local]
        .into_iter()
        .map(|s| Target {
            scope: scope_name(s),
            path: scope_path(s, ctx),
            backup_dir: ctx.paths.data_dir.join(BACKUP_FOLDER),
        })
        .collect()
}

/// The absolute, canonical path of the running askhook binary.
pub fn this_binary() -> Result<String> {
    let exe = std::env::current_exe().map_err(|e| Error::io("the askhook binary", e))?;
    let exe = exe.canonicalize().map_err(|e| Error::io(&exe, e))?;
    exe.to_str().map(str::to_owned).ok_or_else(|| {
        Error::Refused(format!(
            "{}: the binary's path is not valid UTF-8; move it to a plain path and install again",
            exe.display()
        ))
    })
}

/// What is known about a registered program on disk: `None` when it cannot be checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OnDisk {
    pub exists: Option<bool>,
    pub executable: Option<bool>,
}

pub(crate) fn on_disk(program: &str, home: Option<&Path>) -> OnDisk {
    let unknown = OnDisk {
        exists: None,
        executable: None,
    };
    let path = if let Some(rest) = program.strip_prefix("~/") {
        match home {
            Some(h) => h.join(rest),
            None => return unknown,
        }
    } else {
        PathBuf::from(program)
    };
    if program.contains('$') || !(path.is_absolute() || program.contains(['/', '\\'])) {
        return unknown;
    }
    match fs::metadata(&path) {
        Ok(meta) => OnDisk {
            exists: Some(true),
            executable: Some(meta.is_file() && is_executable(&meta)),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => OnDisk {
            exists: Some(false),
            executable: Some(false),
        },
        Err(_) => unknown,
    }
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    true
}

/// A settings file as read: its bytes (when it exists) and its value.
struct Read {
    bytes: Option<Vec<u8>>,
    value: Value,
}

/// Read and check a settings file. Missing → an empty object. Not JSON / wrong shape →
/// [`Error::Invalid`].
fn read_settings(path: &Path) -> Result<Read> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Ok(Read {
                bytes: None,
                value: Value::Object(serde_json::Map::default()),
            })
        }
        Err(e) => return Err(Error::io(path, e)),
    };
    let value = parse_settings(path, &bytes)?;
    Ok(Read {
        bytes: Some(bytes),
        value,
    })
}

/// The UTF-8 byte order mark some Windows editors put first: read past, and written back.
const BOM: &[u8] = b"\xEF\xBB\xBF";

fn parse_settings(path: &Path, bytes: &[u8]) -> Result<Value> {
    let invalid = |problem: String| Error::Invalid {
        path: path.to_path_buf(),
        problem,
    };
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if body.iter().all(u8::is_ascii_whitespace) {
        // An empty file (a fresh `touch`) holds no settings: the same as `{}`.
        return Ok(Value::Object(serde_json::Map::default()));
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        invalid(format!(
            "not valid JSON ({e}); fix it by hand (or restore a backup) and run askhook again"
        ))
    })?;
    merge::validate(&value).map_err(|merge::Invalid(p)| invalid(p))?;
    Ok(value)
}

/// The indentation a file uses: the leading whitespace of its first indented line, else two
/// spaces.
fn indent_of(text: &str) -> String {
    text.lines()
        .skip(1)
        .map(|l| &l[..l.len() - l.trim_start_matches([' ', '\t']).len()])
        .find(|ws| !ws.is_empty())
        .unwrap_or("  ")
        .to_owned()
}

/// Serialise a settings value the way the file was written: indentation, trailing newline, a
/// leading byte order mark, and pure ASCII when the file was pure ASCII with `\u` escapes.
fn render(value: &Value, original: Option<&[u8]>) -> String {
    use serde::Serialize as _;
    let bom = original.is_some_and(|o| o.starts_with(BOM));
    let original = original.map(|o| o.strip_prefix(BOM).unwrap_or(o));
    let ascii = original.is_some_and(|o| o.is_ascii() && o.windows(2).any(|w| w == b"\\u"));
    let original = original.map(String::from_utf8_lossy);
    let indent = original.as_deref().map_or_else(|| "  ".into(), indent_of);
    let mut buf = Vec::new();
    // A file a Python tool wrote with `ensure_ascii` stays pure ASCII (and byte-identical where
    // untouched): every non-ASCII character is written as `\uXXXX`, as it was.
    let escape: fn(char) -> bool = if ascii { |c| !c.is_ascii() } else { |_| false };
    let formatter = json::Escaping {
        inner: serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes()),
        escape,
    };
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, formatter);
    value
        .serialize(&mut ser)
        .expect("a Value always serialises");
    let mut text = String::from_utf8(buf).expect("serde_json writes UTF-8");
    let newline = original
        .as_deref()
        .is_none_or(|o| o.ends_with('\n') || o.is_empty());
    if newline {
        text.push('\n');
    }
    if bom {
        text.insert(0, '\u{FEFF}');
    }
    text
}

/// The sidecar lock file older versions kept beside a settings file (removed on the next edit).
fn legacy_lock_path(path: &Path) -> PathBuf {
    let name = path.file_name().map_or_else(
        || "settings.json".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    path.with_file_name(format!(".{name}.askhook-lock"))
}

/// The folder a settings file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Take the settings lock (held until the returned handle is dropped): an exclusive `flock` on
/// the folder holding the file, so nothing is created for it.
pub(crate) fn lock(path: &Path) -> Result<fs::File> {
    let dir = folder_of(path);
    let handle = fs::File::open(dir).map_err(|e| Error::io(dir, e))?;
    let start = Instant::now();
    match fsutil::lock_within(&handle, LOCK_BUDGET) {
        Ok(true) => Ok(handle),
        Ok(false) => Err(Error::Locked {
            path: path.to_path_buf(),
            waited_ms: start.elapsed().as_millis(),
        }),
        Err(e) => Err(Error::io(dir, e)),
    }
}

/// Create the folder of a settings file when it is missing (private for the user scope).
pub(crate) fn ensure_parent(path: &Path, target: &Target) -> Result<()> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    if dir.is_dir() {
        return Ok(());
    }
    let made = if target.scope == "user" {
        fsutil::create_private_dir(dir)
    } else {
        fs::create_dir_all(dir)
    };
    made.map_err(|e| Error::io(dir, e))
}

// ---------------------------------------------------------------------------------------------
// Backups

const BACKUP_TAG: &str = ".askhook-bak.";

/// `20261202T134641.123Z` from milliseconds (sorts like time).
fn stamp(ms: i64) -> String {
    time::format_rfc3339(ms).replace(['-', ':'], "")
}

fn parse_stamp(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 20 {
        return None;
    }
    let text = format!(
        "{}-{}-{}T{}:{}:{}",
        &s[0..4],
        &s[4..6],
        &s[6..8],
        &s[9..11],
        &s[11..13],
        &s[13..]
    );
    time::parse_rfc3339(&text)
}

/// Where the backups of the settings file `path` go: its absolute path (lexically normalised)
/// under `backup_dir`, each backup being `<that>.askhook-bak.<stamp>`. A backup never lands in
/// the settings file's own folder, which for a project scope is inside a repository.
pub fn backup_path(backup_dir: &Path, path: &Path) -> PathBuf {
    let mut mirrored = backup_dir.to_path_buf();
    let base = backup_dir.components().count();
    for part in path.components() {
        match part {
            Component::Normal(name) => mirrored.push(name),
            Component::ParentDir if mirrored.components().count() > base => {
                mirrored.pop();
            }
            _ => {}
        }
    }
    mirrored
}

/// Every backup askhook kept of `path`, oldest first: in the data folder, and any an older
/// version left beside the file.
pub fn saved_backups(backup_dir: &Path, path: &Path) -> Vec<PathBuf> {
    let mut all = stamped(&backup_path(backup_dir, path));
    all.extend(stamped(path));
    all.sort();
    all.into_iter().map(|(_, p)| p).collect()
}

/// Move the backups an older askhook left beside `path` into the data folder, and remove its
/// sidecar lock file (called under the lock, before an edit).
fn adopt_legacy(backup_dir: &Path, path: &Path) {
    let _ = fs::remove_file(legacy_lock_path(path));
    let legacy = backups(path);
    if legacy.is_empty() {
        return;
    }
    let home = backup_path(backup_dir, path);
    if fsutil::create_private_dir(folder_of(&home)).is_err() {
        return;
    }
    for old in legacy {
        let Some(name) = old.file_name() else {
            continue;
        };
        let new = home.with_file_name(name);
        if fs::rename(&old, &new).is_err() && fs::copy(&old, &new).is_ok() {
            let _ = fs::remove_file(&old);
        }
    }
}

/// askhook's backups of `path` in `path`'s own folder, oldest first.
fn backups(path: &Path) -> Vec<PathBuf> {
    stamped(path).into_iter().map(|(_, p)| p).collect()
}

/// The backups beside `path` with their stamps, sorted.
fn stamped(path: &Path) -> Vec<(String, PathBuf)> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}{BACKUP_TAG}", name.to_string_lossy());
    let mut found: Vec<(String, PathBuf)> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            let s = n.strip_prefix(&prefix)?.to_owned();
            parse_stamp(&s).map(|_| (s, e.path()))
        })
        .collect();
    found.sort();
    found
}

/// Copy `bytes` (the current content of the settings file `path`) to a new backup in
/// `backup_dir` ([`backup_path`]), 0600, named after a time later than every existing backup;
/// then keep only the last [`KEEP_BACKUPS`].
pub(crate) fn backup(backup_dir: &Path, path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let path = &backup_path(backup_dir, path);
    let folder = folder_of(path);
    fsutil::create_private_dir(folder).map_err(|e| Error::io(folder, e))?;
    let existing = backups(path);
    let mut ms = time::now_ms();
    if let Some(last) = existing.last() {
        let last_ms = last
            .to_string_lossy()
            .rsplit(BACKUP_TAG)
            .next()
            .and_then(parse_stamp)
            .unwrap_or(0);
        ms = ms.max(last_ms + 1);
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut created = None;
    for bump in 0..1000 {
        let candidate = path.with_file_name(format!("{name}{BACKUP_TAG}{}", stamp(ms + bump)));
        match fsutil::private_options(OpenOptions::new().write(true).create_new(true))
            .open(&candidate)
        {
            Ok(file) => {
                created = Some((candidate, file));
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(&candidate, e)),
        }
    }
    let (backup_path, mut file) = created.ok_or_else(|| {
        Error::io(
            path,
            io::Error::new(io::ErrorKind::AlreadyExists, "no free backup name"),
        )
    })?;
    if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
        let _ = fs::remove_file(&backup_path);
        return Err(Error::io(&backup_path, e));
    }
    let all = backups(path);
    for old in &all[..all.len().saturating_sub(KEEP_BACKUPS)] {
        let _ = fs::remove_file(old);
    }
    Ok(backup_path)
}

// ---------------------------------------------------------------------------------------------
// The one edit path

pub(crate) type Merge<'a> =
    dyn Fn(&Value) -> std::result::Result<(Value, Vec<Change>), merge::Invalid> + 'a;

/// What an edit did.
pub(crate) struct Edited {
    pub changes: Vec<Change>,
    pub wrote: bool,
    /// Nothing was left in the file, so it was (or, in a dry run, would be) removed.
    pub removed: bool,
    pub backup: Option<PathBuf>,
    /// A dry run's unified diff of what would change.
    pub diff: Option<String>,
}

/// Whether a merged value leaves nothing worth a file (`{}`), for a file that exists.
fn leaves_nothing(read: &Read, value: &Value) -> bool {
    read.bytes.is_some() && value.as_object().is_some_and(serde_json::Map::is_empty)
}

/// Lock → re-read → merge → (nothing to do | diff | backup + atomic write, or removal when
/// nothing is left).
pub(crate) fn edit(target: &Target, dry_run: bool, merge_fn: &Merge<'_>) -> Result<Edited> {
    let path = &real_path(&target.path)?;
    if dry_run {
        return dry_edit(path, merge_fn);
    }
    ensure_parent(path, target)?;
    let _lock = lock(path)?;
    adopt_legacy(&target.backup_dir, path);
    let read = read_settings(path)?;
    let (value, changes) = apply(path, &read, merge_fn)?;
    let mut edited = Edited {
        wrote: changes.iter().any(Change::writes),
        changes,
        removed: false,
        backup: None,
        diff: None,
    };
    if !edited.wrote {
        return Ok(edited);
    }
    if let Some(bytes) = &read.bytes {
        edited.backup = Some(backup(&target.backup_dir, path, bytes)?);
    }
    if leaves_nothing(&read, &value) {
        fs::remove_file(path).map_err(|e| Error::io(path, e))?;
        edited.removed = true;
        // A project's `.claude` folder that only held this file goes with it.
        if target.scope != "user" {
            let _ = fs::remove_dir(folder_of(path));
        }
    } else {
        let text = render(&value, read.bytes.as_deref());
        fsutil::atomic_write(path, text.as_bytes()).map_err(|e| Error::io(path, e))?;
    }
    Ok(edited)
}

/// A dry run: what [`edit`] would change, as a unified diff; nothing is locked or written.
fn dry_edit(path: &Path, merge_fn: &Merge<'_>) -> Result<Edited> {
    let read = read_settings(path)?;
    let (value, changes) = apply(path, &read, merge_fn)?;
    let removed = leaves_nothing(&read, &value);
    let mut diff = None;
    if changes.iter().any(Change::writes) {
        let old = read
            .bytes
            .as_deref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default();
        let shown = path.display().to_string();
        let (new, new_name) = if removed {
            (String::new(), "/dev/null".to_owned())
        } else {
            (render(&value, read.bytes.as_deref()), shown.clone())
        };
        let old_name = if read.bytes.is_some() {
            shown
        } else {
            "/dev/null".into()
        };
        diff = Some(diff::unified(&old, &new, &old_name, &new_name));
    }
    Ok(Edited {
        changes,
        wrote: false,
        removed,
        backup: None,
        diff,
    })
}

fn apply(path: &Path, read: &Read, merge_fn: &Merge<'_>) -> Result<(Value, Vec<Change>)> {
    merge_fn(&read.value).map_err(|merge::Invalid(problem)| Error::Invalid {
        path: path.to_path_buf(),
        problem,
    })
}

// ---------------------------------------------------------------------------------------------
// Status

/// One askhook item as `status` reports it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ItemStatus {
    pub event: String,
    pub matcher: Option<String>,
    pub command: String,
    pub form: &'static str,
    pub exists: Option<bool>,
    pub executable: Option<bool>,
    pub this_binary: bool,
}

/// One settings file as `status` reports it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ScopeStatus {
    pub scope: &'static str,
    pub file: String,
    pub exists: bool,
    pub problem: Option<String>,
    pub registered: bool,
    pub events: Vec<String>,
    pub missing: Vec<String>,
    pub duplicates: Vec<String>,
    pub dead: usize,
    pub items: Vec<ItemStatus>,
    /// The file enables the askhook Claude Code plugin (`enabledPlugins["askhook@…"]`).
    pub plugin_enabled: bool,
}

/// The whole `status --json` document.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct StatusReport {
    pub binary: Option<String>,
    pub scopes: Vec<ScopeStatus>,
}

fn scope_status(target: &Target, binary: Option<&str>, home: Option<&Path>) -> ScopeStatus {
    let mut status = ScopeStatus {
        scope: target.scope,
        file: target.path.display().to_string(),
        exists: target.path.exists(),
        problem: None,
        registered: false,
        events: Vec::new(),
        missing: EVENTS.iter().map(|e| (*e).to_owned()).collect(),
        duplicates: Vec::new(),
        dead: 0,
        items: Vec::new(),
        plugin_enabled: false,
    };
    let value = match real_path(&target.path).and_then(|path| read_settings(&path)) {
        Ok(read) => read.value,
        Err(Error::Invalid { problem, .. }) => {
            status.problem = Some(problem);
            return status;
        }
        Err(e) => {
            status.problem = Some(e.to_string());
            return status;
        }
    };
    status.plugin_enabled = value
        .get("enabledPlugins")
        .and_then(Value::as_object)
        .is_some_and(|plugins| {
            plugins
                .iter()
                .any(|(id, on)| id.starts_with("askhook@") && on.as_bool() == Some(true))
        });
    let Ok(found) = merge::scan(&value) else {
        return status;
    };
    for f in found {
        let disk = on_disk(&f.program, home);
        if disk.exists == Some(false) || disk.executable == Some(false) {
            status.dead += 1;
        }
        status.items.push(ItemStatus {
            this_binary: binary == Some(f.program.as_str()),
            event: f.event,
            matcher: f.matcher,
            command: f.program,
            form: if f.exec_form { "exec" } else { "shell" },
            exists: disk.exists,
            executable: disk.executable,
        });
    }
    for event in EVENTS {
        let of_event: Vec<&ItemStatus> = status.items.iter().filter(|i| i.event == event).collect();
        if !of_event.is_empty() {
            status.events.push(event.into());
        }
        if of_event.len() > 1 {
            status.duplicates.push(event.into());
        }
    }
    status.missing.retain(|e| !status.events.contains(e));
    let working = |event: &str| {
        status
            .items
            .iter()
            .any(|i| i.event == event && i.exists != Some(false) && i.executable != Some(false))
    };
    status.registered = EVENTS.iter().all(|e| working(e));
    status
}

/// The status of every scope (or of the one `target` names).
pub fn report(target: &SettingsTarget, ctx: &Context) -> StatusReport {
    let binary = this_binary().ok();
    let scopes = targets(target, ctx)
        .iter()
        .map(|t| scope_status(t, binary.as_deref(), ctx.paths.home.as_deref()))
        .collect();
    StatusReport { binary, scopes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_sort_like_time_and_parse_back() {
        let a = stamp(1_764_683_201_123);
        let b = stamp(1_764_683_201_124);
        assert!(a < b);
        assert_eq!(parse_stamp(&a), Some(1_764_683_201_123));
        assert_eq!(parse_stamp("garbage"), None);
    }

    #[test]
    fn render_keeps_indentation_and_trailing_newline() {
        let v: Value = serde_json::from_str(r#"{"a":{"b":1}}"#).unwrap();
        assert_eq!(render(&v, None), "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n");
        let tabbed = b"{\n\t\"a\": 1\n}";
        assert_eq!(
            render(&v, Some(tabbed)),
            "{\n\t\"a\": {\n\t\t\"b\": 1\n\t}\n}"
        );
        let four = b"{\n    \"a\": 1\n}\n";
        assert!(render(&v, Some(four)).starts_with("{\n    \"a\": {\n        \"b\""));
    }

    #[test]
    fn ascii_files_stay_ascii() {
        // As Python's json.dumps(ensure_ascii=True) writes it; JSON.stringify would not escape.
        let python = "{\n  \"name\": \"caf\\u00e9 \\ud83d\\ude00\"\n}\n";
        let v: Value = serde_json::from_str(python).unwrap();
        assert_eq!(v["name"], "café 😀");
        assert_eq!(render(&v, Some(python.as_bytes())), python);
        let js = "{\n  \"name\": \"café 😀\"\n}\n";
        assert_eq!(render(&v, Some(js.as_bytes())), js);
        assert_eq!(render(&v, None), js);
    }
}
