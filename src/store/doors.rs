//! Doors the hook left unclassified: the hook works a question's door out only when a
//! preference could auto-decide it (the classifier is the costliest part of a run on a long
//! question), and stores the rest as unknown with the rule [`UNCLASSIFIED`]. The CLI settles
//! them when it opens the log ([`settle`]), with the same function the hook would have used
//! (`policy::door_of_question`), so `log`, `show`, `stats` and `suggest` see the verdict.
//!
//! A stored door is the log's record, never a decision's input: a question the hook
//! auto-decides is always classified live first.

use askhook_core::classify::Door;
use askhook_core::policy;
use askhook_core::question::Choice;
use askhook_core::registry::Registry;
use rusqlite::{params, Connection};

use super::Result;

/// The `door_rule` of a question whose door is not worked out yet (its `door_type` reads
/// `unknown` until then).
pub const UNCLASSIFIED: &str = "unclassified";

/// Whether any question waits to be classified (a read: no write lock for nothing).
pub fn unsettled(conn: &Connection) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM questions INDEXED BY questions_unclassified
                            WHERE door_rule = 'unclassified')",
        )?
        .query_row([], |r| r.get(0))?)
}

/// Classify every question the hook left unclassified; the number classified.
pub fn settle(conn: &Connection, registry: &Registry) -> Result<usize> {
    let mut read = conn.prepare_cached(
        "SELECT id, question_id, question, header, options FROM questions
         INDEXED BY questions_unclassified WHERE door_rule = 'unclassified'",
    )?;
    // Read first, then write: an update takes the row out of the index being read.
    let mut settled: Vec<(i64, Door, Option<String>)> = Vec::new();
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let question_id: String = r.get(1)?;
        let question: String = r.get(2)?;
        let header: Option<String> = r.get(3)?;
        let options: Vec<Choice> =
            serde_json::from_str(&r.get::<_, String>(4)?).unwrap_or_default();
        let (door, rule): (Door, Option<String>) = policy::door_of_question(
            registry,
            &question_id,
            &question,
            header.as_deref(),
            &options,
        );
        settled.push((id, door, rule));
    }
    let mut write =
        conn.prepare_cached("UPDATE questions SET door_type = ?2, door_rule = ?3 WHERE id = ?1")?;
    for (id, door, rule) in &settled {
        write.execute(params![id, door.as_str(), rule])?;
    }
    Ok(settled.len())
}
