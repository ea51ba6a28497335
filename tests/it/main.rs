//! The one integration test binary: every test runs the real `askhook` binary in its own temp
//! HOME, `ASKHOOK_HOME` and `CLAUDE_CONFIG_DIR`, with a scrubbed environment.
//!
//! One topic per file, one owner per topic.

mod harness;

mod classify;
mod claude_md;
mod cli;
mod config;
mod corpus;
mod corpus_cases;
mod decide;
mod doctor;
mod families;
mod fault_runner;
mod faults;
mod hook;
mod install;
mod load;
mod query;
mod rows;
mod setup;
mod standing;
mod terminal;
mod trust;
mod uninstall;
