//! The schema, as an ordered list of migrations keyed on `PRAGMA user_version`.
//!
//! Migration N brings a database from version N to N+1. They are applied in one exclusive
//! transaction, additive only, and **never edited** once released: add a new one instead.

/// Each migration, in order, with why it exists.
pub const MIGRATIONS: &[&str] = &[
    // 1: the answer log, one row per question of a call (natural key: session, call, index),
    //    and the standing preferences with their history.
    r"
    CREATE TABLE questions (
        id                      INTEGER PRIMARY KEY,
        session_id              TEXT NOT NULL,
        tool_use_id             TEXT NOT NULL,
        question_index          INTEGER NOT NULL,
        question_id             TEXT NOT NULL,
        id_source               TEXT NOT NULL,
        question                TEXT NOT NULL,
        header                  TEXT,
        options                 TEXT NOT NULL,
        multi_select            INTEGER NOT NULL,
        recommended             TEXT,
        door_type               TEXT NOT NULL,
        door_rule               TEXT,
        tool_name               TEXT NOT NULL,
        project                 TEXT,
        cwd                     TEXT,
        permission_mode         TEXT,
        agent_id                TEXT,
        prompt_id               TEXT,
        outcome                 TEXT NOT NULL,
        answer                  TEXT,
        selections              TEXT,
        free_text               TEXT,
        notes                   TEXT,
        followed_recommendation INTEGER,
        afk                     INTEGER NOT NULL DEFAULT 0,
        error                   TEXT,
        asked_at                INTEGER NOT NULL,
        settled_at              INTEGER,
        UNIQUE (session_id, tool_use_id, question_index)
    );
    CREATE INDEX questions_by_time ON questions (asked_at);
    CREATE INDEX questions_by_question ON questions (question_id, asked_at);
    CREATE INDEX questions_by_session ON questions (session_id, asked_at);
    CREATE INDEX questions_by_tool_use ON questions (tool_use_id);
    CREATE INDEX questions_pending ON questions (session_id) WHERE outcome = 'pending';

    CREATE TABLE preferences (
        scope       TEXT NOT NULL,
        question_id TEXT NOT NULL,
        value       TEXT NOT NULL,
        updated_at  INTEGER NOT NULL,
        PRIMARY KEY (scope, question_id)
    ) WITHOUT ROWID;

    CREATE TABLE preference_events (
        id           INTEGER PRIMARY KEY,
        question_id  TEXT NOT NULL,
        scope        TEXT NOT NULL,
        old_value    TEXT,
        new_value    TEXT,
        at           INTEGER NOT NULL,
        confirmed_by TEXT NOT NULL
    );
    ",
    // 2: the query CLI at a million rows. `pending` (and `--outcome pending|abandoned`) reads
    //    the few pending rows in time order from a small partial index (covering what `stats`
    //    and the abandoned rule read) instead of walking the whole time index; `stats` and `suggest` scan a narrow covering index (time first, so
    //    `--since` is a range) instead of the table and its question texts.
    r"
    CREATE INDEX questions_pending_by_time ON questions (asked_at, question_id, project, door_type,
        followed_recommendation, afk, settled_at, session_id, tool_use_id, agent_id, prompt_id)
        WHERE outcome = 'pending';
    CREATE INDEX questions_stats ON questions (asked_at, outcome, question_id, project, door_type,
                                               followed_recommendation, afk, settled_at);
    ",
    // 3: auto-decide that works on real questions (issue 13). Each row keeps its question
    //    family (the looser identity of an unmarked question) and, for an auto-decision, what
    //    decided it (`id`, `family` or `rule:<name>`); family preferences live in `preferences`
    //    as `family:<id>`. Rules match questions by regex; each pattern keeps the literals one
    //    of which any text it matches must contain, so the hook compiles a pattern only for a
    //    question that could match it. The preference history gains a detail (a rule's
    //    patterns). The stats indexes are rebuilt to cover the new columns; `store::migrate`
    //    then computes the family of every earlier unmarked row (`backfill_families`).
    r"
    ALTER TABLE questions ADD COLUMN family TEXT;
    ALTER TABLE questions ADD COLUMN decided_by TEXT;
    CREATE INDEX questions_by_family ON questions (family, asked_at) WHERE family IS NOT NULL;
    DROP INDEX questions_stats;
    CREATE INDEX questions_stats ON questions (asked_at, outcome, question_id, project, door_type,
                                               followed_recommendation, afk, settled_at, family,
                                               decided_by);
    DROP INDEX questions_pending_by_time;
    CREATE INDEX questions_pending_by_time ON questions (asked_at, question_id, project, door_type,
        followed_recommendation, afk, settled_at, session_id, tool_use_id, agent_id, prompt_id,
        family, decided_by)
        WHERE outcome = 'pending';

    CREATE TABLE rules (
        name       TEXT PRIMARY KEY,
        scope      TEXT NOT NULL,
        value      TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE rule_patterns (
        rule     TEXT NOT NULL,
        position INTEGER NOT NULL,
        field    TEXT NOT NULL,
        pattern  TEXT NOT NULL,
        needs    TEXT NOT NULL,
        PRIMARY KEY (rule, position)
    ) WITHOUT ROWID;

    ALTER TABLE preference_events ADD COLUMN detail TEXT;
    ",
    // 4: question families by clustering (issue 13). `families` has one row per family, with
    //    the words the family matcher needs (of its founding question) to skip it cheaply;
    //    `family_members` keeps up to `families::MEMBERS` distinct questions of each family
    //    (text, header, options as stored), the first being the founder. A new unmarked
    //    question joins the best-matching family every kept member of which the matcher
    //    calls the same decision, else founds its own (named by its hash). `store::migrate` then
    //    clusters every earlier unmarked row (`families::backfill`).
    r"
    CREATE TABLE families (
        id         TEXT PRIMARY KEY,
        words      TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE family_members (
        family      TEXT NOT NULL,
        question_id TEXT NOT NULL,
        question    TEXT NOT NULL,
        header      TEXT,
        options     TEXT NOT NULL,
        PRIMARY KEY (family, question_id)
    ) WITHOUT ROWID;
    ",
    // 5: where clustering got to. The hook stores a new question's hash family and never
    //    compares (that can take milliseconds); the next CLI command clusters every row past
    //    `clustered_upto` (`families::settle`). Everything stored so far was clustered by
    //    migration 4's backfill or when it was written.
    r"
    CREATE TABLE family_progress (
        id             INTEGER PRIMARY KEY CHECK (id = 1),
        clustered_upto INTEGER NOT NULL
    );
    INSERT INTO family_progress (id, clustered_upto) SELECT 1, COALESCE(MAX(id), 0) FROM questions;
    ",
    // 6: questions the hook did not classify. A door is worked out in the hook only when a
    //    preference could auto-decide the question; the others are stored with door_rule
    //    'unclassified' (`doors::UNCLASSIFIED`), and the next CLI command classifies them
    //    (`doors::settle`). The partial index finds them without a scan, whenever and by
    //    whichever binary they were written; it holds no row once they are settled.
    r"
    CREATE INDEX questions_unclassified ON questions (id) WHERE door_rule = 'unclassified';
    ",
];

/// The first schema where the CLI classifies what the hook left unclassified.
pub const DOORS_SCHEMA: i64 = 6;

/// The first schema with families, `decided_by` and rules: the hook writes and reads those
/// only in a database at least this new (an older one is brought there by the next CLI
/// command, never by the hook: rebuilding the stats indexes takes seconds on a large log).
pub const FAMILIES_SCHEMA: i64 = 3;

/// The first schema with the `families` exemplars: from there the store assigns a new unmarked
/// question the family of an earlier question the matcher calls the same decision, and the hook
/// lets a family preference catch rewordings. Older databases keep the hash family.
pub const CLUSTERS_SCHEMA: i64 = 4;

/// The first schema where the CLI clusters what the hook wrote (`family_progress`).
pub const SETTLE_SCHEMA: i64 = 5;

/// The schema version the hook needs: the tables and columns it must write. Migrations after
/// it add indexes for the query CLI, or columns and tables the hook uses only when they are
/// there ([`FAMILIES_SCHEMA`]), so the hook never waits for them.
pub const HOOK_SCHEMA: i64 = 1;

/// The schema version this binary writes.
pub fn latest() -> i64 {
    MIGRATIONS.len() as i64
}
