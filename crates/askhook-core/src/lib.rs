//! askhook's pure core: everything askhook decides, with no I/O. The compiler keeps it pure:
//! this crate depends on `serde`, `serde_json`, `sha1` and `unicode-normalization` only (no
//! rusqlite, no file system, no terminal), so the `askhook` binary crate holds every read and
//! write.
//!
//! | module | owns |
//! |---|---|
//! | [`question`] | a question as askhook understands it: its id (marker or hash) and recommendation |
//! | [`family`] | question families: the looser identity shared by rewordings of one decision |
//! | [`answer`] | what a tool response says about each question: answer, selections, free text, follow rate |
//! | [`classify`] | the door classifier: one-way, two-way or unknown, with evidence; its lexicons are data (`data/doors/`) |
//! | [`registry`] | the embedded question registry (static tables from `build.rs`) merged with a user registry |
//! | [`policy`] | the auto-decision: abstain or answer every question of a call |
//! | [`scrub`] | redacting secrets from every text before it is stored |

pub mod answer;
pub mod classify;
pub mod family;
pub mod policy;
pub mod question;
pub mod registry;
pub mod scrub;
