//! The only place that reads HOME, XDG, `CLAUDE_CONFIG_DIR` and `ASKHOOK_*`: every path and
//! every time budget askhook uses is resolved here once and passed down.
//!
//! | what | flag | env var | default |
//! |---|---|---|---|
//! | data folder | `--home` | `ASKHOOK_HOME` | platform data dir (`~/.local/share/askhook`) |
//! | answer log | `--db` | `ASKHOOK_DB` | `<home>/askhook.db` |
//! | spool | — | — | `<db>.spool` beside the database (and its `.pos` and `.quarantine`) |
//! | lost-events marker | — | — | `<db>.lost`: one line per event the hook could not record |
//! | error log | `--error-log` | `ASKHOOK_ERROR_LOG` | `<home>/errors.log` |
//! | user registry | `--registry` | `ASKHOOK_REGISTRY` | `$ASKHOOK_HOME/registry.json`, else `~/.config/askhook/registry.json` |
//! | config file | `--config` | `ASKHOOK_CONFIG` | `$ASKHOOK_HOME/config.toml`, else `~/.config/askhook/config.toml` |
//! | Claude Code config | — | `CLAUDE_CONFIG_DIR` | `~/.claude` |
//!
//! Budgets: `ASKHOOK_DEADLINE_MS` (default 2500), `ASKHOOK_BUSY_TIMEOUT_MS` (default 300),
//! `ASKHOOK_MAX_INPUT_BYTES` (default 4 MiB); the first two also from the config file, which
//! the environment overrides, as it does `decide_with` and `context_from_history`
//! ([`config_with_env`]). `VISUAL` / `EDITOR` for `config edit` ([`editor`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::PathFlags;
use crate::config::Config;

/// Every file askhook touches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// Folder holding the database, spool and error log.
    pub data_dir: PathBuf,
    /// The SQLite answer log.
    pub db: PathBuf,
    /// The hook's error log.
    pub error_log: PathBuf,
    /// The optional user question registry.
    pub user_registry: PathBuf,
    /// The optional config file.
    pub config: PathBuf,
    /// Claude Code's config folder (holds the user settings.json).
    pub claude_config_dir: PathBuf,
    /// The user's home folder, when known.
    pub home: Option<PathBuf>,
}

impl Paths {
    /// Resolve from flags and the process environment.
    pub fn from_env(flags: &PathFlags) -> Paths {
        Self::resolve(flags, &|name| std::env::var_os(name))
    }

    /// Resolve from flags and an explicit environment (for tests).
    pub fn resolve(flags: &PathFlags, env: &dyn Fn(&str) -> Option<OsString>) -> Paths {
        let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = var("HOME")
            .or_else(|| directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()));
        let project_dirs = directories::ProjectDirs::from("", "", "askhook");

        let askhook_home = flags.home.clone().or_else(|| var("ASKHOOK_HOME"));
        let data_dir = askhook_home.clone().unwrap_or_else(|| {
            project_dirs
                .as_ref()
                .map(|p| p.data_dir().to_path_buf())
                .or_else(|| home.as_ref().map(|h| h.join(".local/share/askhook")))
                .unwrap_or_else(|| PathBuf::from(".askhook"))
        });
        let db = flags
            .db
            .clone()
            .or_else(|| var("ASKHOOK_DB"))
            .unwrap_or_else(|| data_dir.join("askhook.db"));
        let error_log = flags
            .error_log
            .clone()
            .or_else(|| var("ASKHOOK_ERROR_LOG"))
            .unwrap_or_else(|| data_dir.join("errors.log"));
        let user_registry = flags
            .registry
            .clone()
            .or_else(|| var("ASKHOOK_REGISTRY"))
            .or_else(|| askhook_home.as_ref().map(|h| h.join("registry.json")))
            .unwrap_or_else(|| {
                project_dirs
                    .as_ref()
                    .map(|p| p.config_dir().join("registry.json"))
                    .or_else(|| {
                        home.as_ref()
                            .map(|h| h.join(".config/askhook/registry.json"))
                    })
                    .unwrap_or_else(|| data_dir.join("registry.json"))
            });
        let config = flags
            .config
            .clone()
            .or_else(|| var("ASKHOOK_CONFIG"))
            .or_else(|| askhook_home.as_ref().map(|h| h.join("config.toml")))
            .unwrap_or_else(|| {
                project_dirs
                    .as_ref()
                    .map(|p| p.config_dir().join("config.toml"))
                    .or_else(|| home.as_ref().map(|h| h.join(".config/askhook/config.toml")))
                    .unwrap_or_else(|| data_dir.join("config.toml"))
            });
        let claude_config_dir = var("CLAUDE_CONFIG_DIR")
            .or_else(|| home.as_ref().map(|h| h.join(".claude")))
            .unwrap_or_else(|| PathBuf::from(".claude"));
        Paths {
            data_dir,
            db,
            error_log,
            user_registry,
            config,
            claude_config_dir,
            home,
        }
    }

    /// The spool beside the database: every question's events, until the end of its turn or
    /// the next command ingests them.
    pub fn spool(&self) -> PathBuf {
        spool_for(&self.db)
    }

    /// The hook's copy of the standing preferences, beside the database
    /// (`crate::store::standing`).
    pub fn standing(&self) -> PathBuf {
        standing_for(&self.db)
    }

    /// The marker a hook leaves for each event it could not record (database and spool both
    /// failed): `doctor` and `status` report it.
    pub fn lost_marker(&self) -> PathBuf {
        let mut name = self.db.as_os_str().to_owned();
        name.push(".lost");
        PathBuf::from(name)
    }

    /// Claude Code's user settings file.
    pub fn user_settings(&self) -> PathBuf {
        self.claude_config_dir.join("settings.json")
    }
}

/// The spool file that belongs to a database file.
pub fn spool_for(db: &Path) -> PathBuf {
    let mut name = db
        .file_name()
        .map_or_else(|| OsString::from("askhook.db"), OsString::from);
    name.push(".spool");
    db.with_file_name(name)
}

/// The hook's copy of the standing preferences of the database at `db`: `<db>.standing`.
pub fn standing_for(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".standing");
    PathBuf::from(name)
}

/// Time and size budgets of the hook hot path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Hard limit for one hook run, far inside Claude Code's 5 s timeout.
    pub deadline: Duration,
    /// How long SQLite may wait on a lock before the event goes to the spool.
    pub busy_timeout: Duration,
    /// Largest stdin payload the hook reads.
    pub max_input_bytes: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            deadline: Duration::from_millis(2500),
            busy_timeout: Duration::from_millis(300),
            max_input_bytes: 4 * 1024 * 1024,
        }
    }
}

impl Budget {
    /// The budget from `ASKHOOK_DEADLINE_MS`, `ASKHOOK_BUSY_TIMEOUT_MS`, `ASKHOOK_MAX_INPUT_BYTES`.
    pub fn from_env() -> Budget {
        Self::resolve(&|name| std::env::var_os(name))
    }

    /// The budget from the environment, else the config file's keys, else the defaults.
    pub fn from_env_and(config: &Config) -> Budget {
        Self::resolve_with(&|name| std::env::var_os(name), config)
    }

    /// The budget from an explicit environment; unparsable values keep the default.
    pub fn resolve(env: &dyn Fn(&str) -> Option<OsString>) -> Budget {
        Self::resolve_with(env, &Config::default())
    }

    /// The budget from an explicit environment, else `config`, else the defaults.
    pub fn resolve_with(env: &dyn Fn(&str) -> Option<OsString>, config: &Config) -> Budget {
        let number = |name: &str| env(name).and_then(|v| v.to_str()?.trim().parse::<u64>().ok());
        let default = Budget::default();
        let deadline = number("ASKHOOK_DEADLINE_MS")
            .or(config.deadline_ms)
            .map_or(default.deadline, Duration::from_millis);
        let busy_timeout = number("ASKHOOK_BUSY_TIMEOUT_MS")
            .or(config.busy_timeout_ms)
            .map_or(default.busy_timeout, Duration::from_millis)
            .min(deadline);
        let max_input_bytes =
            number("ASKHOOK_MAX_INPUT_BYTES").map_or(default.max_input_bytes, |n| n as usize);
        Budget {
            deadline,
            busy_timeout,
            max_input_bytes,
        }
    }
}

/// What each budget variable accepts: name, lowest, highest, default, unit. The CLI refuses
/// anything else ([`budget_problem`]), so a typo shows up the first time the user runs
/// askhook; the hook itself never refuses (it keeps the default for a value it cannot read).
pub const BUDGET_RANGES: [(&str, u64, u64, u64, &str); 3] = [
    ("ASKHOOK_DEADLINE_MS", 1, 60_000, 2500, "milliseconds"),
    ("ASKHOOK_BUSY_TIMEOUT_MS", 0, 60_000, 300, "milliseconds"),
    (
        "ASKHOOK_MAX_INPUT_BYTES",
        1024,
        256 * 1024 * 1024,
        4 * 1024 * 1024,
        "bytes",
    ),
];

/// The first budget variable set to a value outside [`BUDGET_RANGES`], said with its range;
/// unset or empty variables are fine.
pub fn budget_problem(env: &dyn Fn(&str) -> Option<OsString>) -> Option<String> {
    BUDGET_RANGES
        .iter()
        .find_map(|&(name, low, high, default, unit)| {
            let value = env(name).filter(|v| !v.is_empty())?;
            let text = value.to_string_lossy();
            let why = match text.trim().parse::<u64>() {
                Ok(n) if (low..=high).contains(&n) => return None,
                Ok(_) => "is out of range",
                Err(_) => "is not a whole number",
            };
            Some(format!(
            "{name}={text:?} {why}: use {low}..={high} ({unit}; default {default}), or unset it"
        ))
        })
}

/// `config` with the process environment's overrides (`ASKHOOK_DECIDE_WITH`,
/// `ASKHOOK_CONTEXT_FROM_HISTORY`).
pub fn config_with_env(config: Config) -> Config {
    config.with_env(&|name| std::env::var_os(name))
}

/// The editor `config edit` runs: `VISUAL`, else `EDITOR`, else `vi` (a shell word list).
pub fn editor() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "vi".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn askhook_home_holds_everything() {
        let paths = Paths::resolve(
            &PathFlags::default(),
            &env_of(&[("HOME", "/h"), ("ASKHOOK_HOME", "/a")]),
        );
        assert_eq!(paths.db, PathBuf::from("/a/askhook.db"));
        assert_eq!(paths.error_log, PathBuf::from("/a/errors.log"));
        assert_eq!(paths.user_registry, PathBuf::from("/a/registry.json"));
        assert_eq!(paths.config, PathBuf::from("/a/config.toml"));
        assert_eq!(paths.spool(), PathBuf::from("/a/askhook.db.spool"));
        assert_eq!(paths.lost_marker(), PathBuf::from("/a/askhook.db.lost"));
        assert_eq!(paths.claude_config_dir, PathBuf::from("/h/.claude"));
    }

    #[test]
    fn flags_win_over_env() {
        let flags = PathFlags {
            db: Some("/x/my.db".into()),
            ..PathFlags::default()
        };
        let paths = Paths::resolve(
            &flags,
            &env_of(&[("ASKHOOK_HOME", "/a"), ("ASKHOOK_DB", "/y.db")]),
        );
        assert_eq!(paths.db, PathBuf::from("/x/my.db"));
        assert_eq!(paths.spool(), PathBuf::from("/x/my.db.spool"));
    }

    #[test]
    fn claude_config_dir_follows_env() {
        let paths = Paths::resolve(
            &PathFlags::default(),
            &env_of(&[("HOME", "/h"), ("CLAUDE_CONFIG_DIR", "/c")]),
        );
        assert_eq!(paths.user_settings(), PathBuf::from("/c/settings.json"));
    }

    #[test]
    fn budget_values_outside_their_range_are_named() {
        for (name, env, want) in [
            ("unset", &[][..], None),
            ("empty", &[("ASKHOOK_DEADLINE_MS", "")][..], None),
            ("in range", &[("ASKHOOK_DEADLINE_MS", "800")][..], None),
            (
                "not a number",
                &[("ASKHOOK_DEADLINE_MS", "abc")][..],
                Some("ASKHOOK_DEADLINE_MS=\"abc\" is not a whole number: use 1..=60000"),
            ),
            (
                "too large",
                &[("ASKHOOK_BUSY_TIMEOUT_MS", "100000")][..],
                Some("ASKHOOK_BUSY_TIMEOUT_MS=\"100000\" is out of range: use 0..=60000"),
            ),
        ] {
            let env = move |n: &str| {
                env.iter()
                    .find(|(k, _)| *k == n)
                    .map(|(_, v)| OsString::from(v))
            };
            let got = budget_problem(&env);
            match want {
                None => assert_eq!(got, None, "{name}"),
                Some(start) => assert!(
                    got.as_deref().is_some_and(|g| g.starts_with(start)),
                    "{name}: {got:?}"
                ),
            }
        }
    }

    #[test]
    fn budget_reads_env_and_keeps_busy_inside_deadline() {
        let b = Budget::resolve(&env_of(&[
            ("ASKHOOK_DEADLINE_MS", "100"),
            ("ASKHOOK_BUSY_TIMEOUT_MS", "900"),
        ]));
        assert_eq!(b.deadline, Duration::from_millis(100));
        assert_eq!(b.busy_timeout, Duration::from_millis(100));
        let b = Budget::resolve(&env_of(&[("ASKHOOK_DEADLINE_MS", "soon")]));
        assert_eq!(b, Budget::default());
        let file = Config {
            deadline_ms: Some(900),
            busy_timeout_ms: Some(80),
            ..Config::default()
        };
        let b = Budget::resolve_with(&env_of(&[("ASKHOOK_BUSY_TIMEOUT_MS", "40")]), &file);
        assert_eq!(b.deadline, Duration::from_millis(900), "the file's");
        assert_eq!(b.busy_timeout, Duration::from_millis(40), "the env wins");
    }
}
