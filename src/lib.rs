//! askhook: a deterministic, fast, safe policy and memory in front of the questions coding
//! agents ask their humans.
//!
//! Two crates. `askhook-core` (`crates/askhook-core`) is pure: questions, answers, the door
//! classifier, the registry lookup, the policy, the secret scrubber — no I/O, and the compiler
//! keeps it so. This crate holds every read and write:
//!
//! | module | owns |
//! |---|---|
//! | [`cli`] | clap types only: every subcommand, flag and env var |
//! | [`config`] | the config file: its keys, reading it (one `stat` when absent), env overrides |
//! | [`cmd`] | one file per subcommand, routed by [`cmd::run`] (the hook too); all printing and prompting |
//! | [`hook`] | the hot path: stdin → wire → event → decide → record → stdout, never failing the session |
//! | [`store`] | the only SQL: the answer log, one `Row` type, a typed `Filter`, preferences, migrations, spool |
//! | [`install`] | merging askhook into Claude Code settings files: lock, read, pure merge, backup, atomic write |
//! | [`registry`] | reading the user registry file into the core registry |
//! | [`rules`] | rules: regex patterns over a question, compiled lazily behind a literal prefilter |
//! | [`trust`] | only a person can silence a question: the agent-marker gate on `/dev/tty` |
//! | [`sys`] | the edges: paths (the only env/HOME reads), files, the deadline, the error log, time, terminal output |
//! | [`error`] | the CLI's error and its exit codes |

pub mod cli;
pub mod cmd;
pub mod config;
pub mod error;
pub mod hook;
pub mod install;
pub mod registry;
pub mod rules;
pub mod store;
pub mod sys;
pub mod trust;

use std::path::PathBuf;

pub use cmd::run;

use sys::paths::Paths;

/// What every CLI command gets: resolved paths, the working directory, the clock.
#[derive(Debug, Clone)]
pub struct Context {
    pub paths: Paths,
    pub cwd: PathBuf,
    pub now_ms: i64,
}

impl Context {
    pub fn from_env(flags: &cli::PathFlags) -> Context {
        Context {
            paths: Paths::from_env(flags),
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            now_ms: sys::time::now_ms(),
        }
    }
}
