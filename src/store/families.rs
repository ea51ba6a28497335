//! Question families by clustering: the family of an unmarked question is the family every kept
//! member of which the core's matcher (`askhook_core::family::same_decision`) calls the same
//! decision (of those, the one whose members cover it most), else a new family named by the
//! question's own hash (`fam-…`).
//!
//! Migration 4 adds `families` (one row per family: the matcher words of its founding question,
//! so most families are skipped without reading a member) and `family_members` (up to
//! [`MEMBERS`] distinct questions of a family, as stored). A newcomer must match *every* kept
//! member, not only the founder: a general question (`Which naming convention for files?`)
//! matches two specific ones (`… React component files`, `… hook files`) that are different
//! decisions, and only the members that joined before catch that.
//!
//! **The hook never compares.** Comparing a new question can take milliseconds on a large log,
//! and the hook runs on every question, so a write ([`assign`]) only looks up what is known: the
//! family the same question was given before, else the question's hash. The next CLI command
//! ([`settle`], run when the store opens for the CLI) clusters every row written since the last
//! one, oldest first: a question is compared only when it would open a family (its hash family
//! does not exist yet), with the [`RECENT_FAMILIES`] most recently founded families and every
//! family that has a preference (at most [`MAX_COMPARED`] of those whose words could match are
//! read, so a preference keeps catching rewordings however old it is). A family preference
//! does not wait for that: the hook compares a question with the kept members of the families
//! that have one (`prefs.rs`). The matcher prefers a missed match to a wrong one; a missed match
//! only opens a new family.

use std::collections::HashMap;

use askhook_core::family::{same_decision, Probe, Reason, Signature, StoredKey, FAMILY_KEY_PREFIX};
use askhook_core::question::{Choice, IdSource};
use rusqlite::{params, Connection, OptionalExtension};

use super::row::Row;
use super::Result;

/// How many of the most recently founded families a new question is compared with.
pub const RECENT_FAMILIES: usize = 500;

/// How many families, of those whose words could match, are read and compared at most: a
/// bound on a write's cost when many families share a new question's words (a missed match
/// only opens a new family).
pub const MAX_COMPARED: usize = 150;

/// How many distinct questions of a family are kept, and compared with a newcomer.
pub const MEMBERS: usize = 8;

/// The family a new row of `row`'s question is written with: the family its question was
/// given before, else its hash (`row.family`); [`settle`] clusters it later. Two index lookups,
/// no comparison. `None` for a row without a family.
pub fn assign(conn: &Connection, row: &Row) -> Result<Option<String>> {
    if row.family.is_none() || row.id_source != IdSource::Hash {
        return Ok(row.family.clone());
    }
    // The same question asked again keeps the family it was given.
    let known: Option<String> = conn
        .prepare_cached(
            "SELECT family FROM questions WHERE question_id = ?1 AND family IS NOT NULL LIMIT 1",
        )?
        .query_row(params![row.question_id], |r| r.get(0))
        .optional()?;
    Ok(known.or_else(|| row.family.clone()))
}

/// One question as a family keeps it.
struct Member<'a> {
    question_id: &'a str,
    question: &'a str,
    header: Option<&'a str>,
    options: &'a [Choice],
}

/// The families one [`settle`] has read, each read for the matcher once (a settle of many rows
/// compares each new question with the same recent families): their stored words, and their
/// kept members.
#[derive(Default)]
struct MemberCache {
    keys: HashMap<String, StoredKey>,
    families: HashMap<String, Vec<Signature>>,
}

impl MemberCache {
    /// At most this many families are kept read (each holds up to [`MEMBERS`] signatures).
    const MAX: usize = 4 * RECENT_FAMILIES;

    /// A family's words (they never change once it is founded).
    fn key(&mut self, family: &str, words: &str) -> &StoredKey {
        if !self.keys.contains_key(family) {
            if self.keys.len() >= 4 * Self::MAX {
                self.keys.clear();
            }
            self.keys.insert(family.to_owned(), StoredKey::parse(words));
        }
        &self.keys[family]
    }

    fn members(&mut self, conn: &Connection, family: &str) -> Result<&[Signature]> {
        if !self.families.contains_key(family) {
            if self.families.len() >= Self::MAX {
                self.families.clear();
            }
            self.families
                .insert(family.to_owned(), members(conn, family)?);
        }
        Ok(&self.families[family])
    }

    /// `q` joined `family` (which it founded, read as `founder`): kept read with the others
    /// when they are.
    fn joined(&mut self, family: &str, q: &Member<'_>, founder: Option<Signature>) {
        if let Some(signature) = founder {
            self.families.insert(family.to_owned(), vec![signature]);
        } else if let Some(members) = self.families.get_mut(family) {
            members.push(Signature::new(q.question, q.header, q.options));
        }
    }
}

/// Put a question not seen before into its hash family when that exists, else into the family
/// it matches, else found `hash`; keep it as a member while the family has room.
fn place(
    conn: &Connection,
    cache: &mut MemberCache,
    q: &Member<'_>,
    hash: &str,
    at: i64,
) -> Result<String> {
    // Its hash names a family already (a mechanical rewording: same words, same options).
    let founded: bool = conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM families WHERE id = ?1)")?
        .query_row(params![hash], |r| r.get(0))?;
    let mut founding = None;
    let family = if founded {
        hash.to_owned()
    } else {
        let signature = Signature::new(q.question, q.header, q.options);
        if let Some(family) = matching(conn, cache, &signature)? {
            family
        } else {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO families (id, words, created_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![hash, signature.key(), at])?;
            founding = Some(signature);
            hash.to_owned()
        }
    };
    let joined = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO family_members (family, question_id, question, header, options)
             SELECT ?1, ?2, ?3, ?4, ?5
             WHERE (SELECT COUNT(*) FROM family_members WHERE family = ?1) < ?6",
        )?
        .execute(params![
            family,
            q.question_id,
            q.question,
            q.header,
            serde_json::to_string(q.options).unwrap_or_else(|_| "[]".into()),
            MEMBERS as i64
        ])?;
    if joined > 0 {
        cache.joined(&family, q, founding);
    }
    Ok(family)
}

/// The family (of the recent ones and those with a preference) every kept member of which is
/// the same decision as `signature` and that matches it best ([`match_score`]).
fn matching(
    conn: &Connection,
    cache: &mut MemberCache,
    signature: &Signature,
) -> Result<Option<String>> {
    if signature.is_empty() {
        return Ok(None);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT n, id, words FROM (SELECT rowid AS n, id, words FROM families
                                   ORDER BY rowid DESC LIMIT ?1)
         UNION
         SELECT f.rowid, f.id, f.words FROM preferences p
             JOIN families f ON f.id = substr(p.question_id, length(?2) + 1)
             WHERE p.question_id LIKE ?2 || '%'
         ORDER BY 1 DESC",
    )?;
    let probe = Probe::new(signature);
    let candidates: Vec<String> = stmt
        .query_map(params![RECENT_FAMILIES as i64, FAMILY_KEY_PREFIX], |r| {
            Ok((r.get::<_, String>(1)?, r.get::<_, String>(2)?))
        })?
        .filter_map(std::result::Result::ok)
        .filter(|(id, words)| probe.may_match(cache.key(id, words)))
        .map(|(id, _)| id)
        .take(MAX_COMPARED)
        .collect();
    // The family it matches best: of those every kept member of which matches, the one whose
    // members cover it most (the newest of equals). The newest that matches would often be a
    // family a question of another decision joined wrongly, which a rewording then follows.
    let mut best: Option<(u32, String)> = None;
    for id in candidates {
        if let Some(score) = match_score(cache.members(conn, &id)?, signature) {
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, id));
            }
        }
    }
    Ok(best.map(|(_, id)| id))
}

/// How well `signature` matches a family's kept members: `None` unless every one is the same
/// decision, else the mean of their coverage both ways (percent).
pub fn match_score(members: &[Signature], signature: &Signature) -> Option<u32> {
    if members.is_empty() {
        return None;
    }
    let mut total = 0u32;
    for m in members {
        let v = same_decision(m, signature);
        if !v.same {
            return None;
        }
        if let Reason::Covered(a, b) = v.reason {
            total += u32::from(a) + u32::from(b);
        }
    }
    Some(total / members.len() as u32)
}

/// The kept members of a family, read for the matcher.
pub fn members(conn: &Connection, family: &str) -> Result<Vec<Signature>> {
    let mut stmt = conn
        .prepare_cached("SELECT question, header, options FROM family_members WHERE family = ?1")?;
    let rows = stmt.query_map(params![family], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<String>>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (question, header, options) = row?;
        out.push(signature_of(&question, header.as_deref(), &options));
    }
    Ok(out)
}

/// A kept member read for the matcher, its options as stored (JSON).
pub fn signature_of(question: &str, header: Option<&str>, options_json: &str) -> Signature {
    let options: Vec<Choice> = serde_json::from_str(options_json).unwrap_or_default();
    Signature::new(question, header, &options)
}

/// Cluster every unmarked row already stored (migration 4), oldest first.
pub fn backfill(conn: &Connection) -> Result<()> {
    cluster_after(conn, 0).map(|_| ())
}

/// Whether rows were written since the last [`settle`] (a read: no write lock for nothing).
pub fn unsettled(conn: &Connection) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM questions
                            WHERE id > (SELECT clustered_upto FROM family_progress WHERE id = 1))",
        )?
        .query_row([], |r| r.get(0))?)
}

/// Cluster the unmarked rows written since the last time (by the hook, which only stores
/// their hash family), and remember how far it got. Run by the CLI when it opens the store;
/// the number of rows read.
pub fn settle(conn: &Connection) -> Result<usize> {
    let upto: i64 = conn
        .query_row(
            "SELECT clustered_upto FROM family_progress WHERE id = 1",
            [],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(0);
    let (read, last) = cluster_after(conn, upto)?;
    if let Some(last) = last {
        conn.execute(
            "INSERT INTO family_progress (id, clustered_upto) VALUES (1, ?1)
             ON CONFLICT (id) DO UPDATE SET clustered_upto = excluded.clustered_upto",
            params![last],
        )?;
    }
    Ok(read)
}

/// Cluster the unmarked rows with an id past `after`, oldest first, as if each had been
/// clustered when it was written: a row changes family only to join an earlier family. The
/// number of rows read and the last id read.
fn cluster_after(conn: &Connection, after: i64) -> Result<(usize, Option<i64>)> {
    let mut read = conn.prepare_cached(
        "SELECT id, question_id, question, header, options, family, asked_at FROM questions
         WHERE id > ?1 AND id_source = 'hash' AND family IS NOT NULL ORDER BY id",
    )?;
    let mut write = conn.prepare_cached("UPDATE questions SET family = ?2 WHERE id = ?1")?;
    let mut rows = read.query(params![after])?;
    // The family given to each question id so far (rows are reassigned as they are read).
    let mut given: HashMap<String, String> = HashMap::new();
    let mut cache = MemberCache::default();
    let (mut count, mut last) = (0, None);
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let question_id: String = r.get(1)?;
        let family: String = r.get(5)?;
        (count, last) = (count + 1, Some(id));
        let assigned = if let Some(f) = given.get(&question_id) {
            f.clone()
        } else {
            let question: String = r.get(2)?;
            let header: Option<String> = r.get(3)?;
            let options: Vec<Choice> =
                serde_json::from_str(&r.get::<_, String>(4)?).unwrap_or_default();
            let member = Member {
                question_id: &question_id,
                question: &question,
                header: header.as_deref(),
                options: &options,
            };
            let f = place(conn, &mut cache, &member, &family, r.get(6)?)?;
            given.insert(question_id, f.clone());
            f
        };
        if assigned != family {
            write.execute(params![id, assigned])?;
        }
    }
    Ok((count, last))
}
