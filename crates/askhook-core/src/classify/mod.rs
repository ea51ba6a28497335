//! The one-way-door classifier: pure, over the folded text of a question, its header and every
//! option label and description.
//!
//! One-way = destructive or hard to undo. A question is one-way when any rule below matches
//! anywhere in any of its fields; false positives only ask the human an extra question, false
//! negatives can lose data, so every rule leans towards matching.
//!
//! ## How it works
//! 1. [`crate::normalize::fold_into`] folds every field (look-alike letters, fullwidth forms,
//!    zero-width and bidi characters, markup, case) into one buffer, fields separated by a
//!    newline.
//! 2. A hand-written tokenizer splits it into words of letters and digits. Each word remembers
//!    how many dashes led it (`-rf` is a short-flag cluster, `--force` a long flag, `force-push`
//!    two words joined by a hyphen) and a leading `+`, `:`, `.` or `$` (`push origin +main`,
//!    `push origin :old-branch`, `.env`, `$500`). A lone `--` or `.` is kept as a token of its
//!    own (`git checkout -- .`).
//! 3. The rules in [`RULES`], most specific first, match word stems and flag clusters near each
//!    other (`rm` then, within a few words, `-r` and `-f` in any order or cluster), never exact
//!    phrases. The first match names the verdict's rule (a stable kebab-case name).
//! 4. When no rule matches, the folded text is respelled ([`respelled`]: digits for letters
//!    inside words, `dr0p` → `drop`; a word spelled out letter by letter, `d r o p` → `drop`)
//!    and the rules run again on each respelling.
//!
//! ## Performance
//! No allocation beyond one text buffer and one token vector (and a copy per respelling, only
//! for the rare text that has something to respell), no regex, nothing compiled at start-up: a typical question (a few hundred bytes) classifies in a few microseconds, which
//! matters because the hook runs it in a fresh process on every event.
//!
//! ## `askhook classify --json`
//! One object: `{"door_type": "one-way"|"two-way", "rule": string|null, "matched": string|null,
//! "normalized": string}`. `rule` names the rule that matched, `matched` is the folded text it
//! matched, `normalized` the whole folded text the rules saw (fields joined by newlines).

// The rule engine is being replaced by a data-driven multilingual one; its long rule functions
// and word lists are left as they are until then (pedantic lints included).
#![allow(clippy::pedantic)]

use serde::{Deserialize, Serialize};

use crate::normalize::fold_into;

/// Whether a decision can be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Door {
    /// Destructive or hard to undo: always reaches the human.
    OneWay,
    /// Reversible.
    TwoWay,
    /// The classifier could not read the question (e.g. it is too long to classify). Never
    /// auto-decided: the policy treats it like a one-way door.
    Unknown,
}

impl Door {
    pub fn as_str(self) -> &'static str {
        match self {
            Door::OneWay => "one-way",
            Door::TwoWay => "two-way",
            Door::Unknown => "unknown",
        }
    }

    /// `one-way`, `two-way` or `unknown`.
    pub fn parse(text: &str) -> Option<Door> {
        match text {
            "one-way" => Some(Door::OneWay),
            "two-way" => Some(Door::TwoWay),
            "unknown" => Some(Door::Unknown),
            _ => None,
        }
    }

    /// Whether askhook may ever answer a question behind this door (only a two-way one).
    pub fn is_two_way(self) -> bool {
        self == Door::TwoWay
    }
}

/// The classifier's verdict and the rule that decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    pub door: Door,
    /// The name of the rule that matched (for one-way), e.g. `force-push`.
    pub rule: Option<&'static str>,
}

/// A verdict with the evidence behind it, for `askhook classify`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    pub door_type: Door,
    pub rule: Option<&'static str>,
    /// The folded words the rule matched.
    pub matched: Option<String>,
    /// All the folded text the rules saw.
    pub normalized: String,
}

/// Classify the text fields of one question (text, header, labels, descriptions).
pub fn classify(fields: &[&str]) -> Classification {
    let rule = first_match_or_respelled(&Text::new(fields)).map(|(rule, _)| rule);
    Classification {
        door: if rule.is_some() {
            Door::OneWay
        } else {
            Door::TwoWay
        },
        rule,
    }
}

/// Classify and say why: the rule, the words it matched, the folded text.
pub fn explain(fields: &[&str]) -> Explanation {
    let text = Text::new(fields);
    let found = first_match_or_respelled(&text);
    Explanation {
        door_type: if found.is_some() {
            Door::OneWay
        } else {
            Door::TwoWay
        },
        rule: found.as_ref().map(|(rule, _)| *rule),
        matched: found.map(|(_, matched)| matched),
        normalized: text.s.trim().to_owned(),
    }
}

/// The first rule that matches `text`, else one of its respellings, with the words matched.
fn first_match_or_respelled(text: &Text) -> Option<(&'static str, String)> {
    let found = |t: &Text| {
        t.first_match()
            .map(|(rule, (a, b))| (rule, t.slice(a, b).to_owned()))
    };
    found(text).or_else(|| text.respellings().iter().find_map(found))
}

/// One field of folded text respelled to undo two evasions the fold cannot: digits for
/// letters inside a word (`dr0p`, `f0rce`, `de1ete`: 0→o, 3→e, 4→a, 5→s, 7→t, and 1→`one`)
/// and a word spelled out letter by letter (`d r o p`, `d.r.o.p`, `d-e-l-e-t-e`). `None` when
/// the field has neither, which is nearly always: the classifier then costs one more linear
/// scan.
fn respell(folded: &str, one: u8) -> Option<String> {
    let joined = join_spelled_out(folded);
    unleet(joined.as_deref().unwrap_or(folded), one).or(joined)
}

/// `text` with letters standing for digits inside words that mix both, `one` standing for 1;
/// `None` when nothing changed. A word of digits alone (a version, a port) is left alone.
fn unleet(text: &str, one: u8) -> Option<String> {
    let bytes = text.as_bytes();
    // Copied on the first change only: nearly every text has none.
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let word = &bytes[start..i];
        if !word.iter().any(u8::is_ascii_alphabetic) {
            continue;
        }
        for (k, &b) in word.iter().enumerate() {
            let letter = match b {
                b'0' => b'o',
                b'1' => one,
                b'3' => b'e',
                b'4' => b'a',
                b'5' => b's',
                b'7' => b't',
                _ => continue,
            };
            out.get_or_insert_with(|| bytes.to_vec())[start + k] = letter;
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes, so `out` is still UTF-8.
    out.map(|out| String::from_utf8(out).unwrap_or_default())
}

/// `text` with runs of one-letter words, separated by one space, `.`, `-` or `_`, joined into
/// one word (`d r o p` → `drop`; two letters only across a space, `r m` → `rm`); `None` when
/// there is no such run.
fn join_spelled_out(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let single = |i: usize| {
        bytes[i].is_ascii_alphanumeric()
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + 1).is_none_or(|b| !b.is_ascii_alphanumeric())
    };
    let is_gap = |b: u8| matches!(b, b' ' | b'.' | b'-' | b'_');
    // Built from the first run on only: nearly every text has none.
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < bytes.len() {
        if single(i) {
            // Extend the run: letter, gap, letter, gap, …
            let mut end = i;
            while end + 2 < bytes.len() && is_gap(bytes[end + 1]) && single(end + 2) {
                end += 2;
            }
            // Two letters join only across a space (`r m`): `e.g.`, `i.e.`, `r.m.` stay.
            if end > i + 2 || (end == i + 2 && bytes[i + 1] == b' ') {
                let out = out.get_or_insert_with(|| bytes[..i].to_vec());
                out.extend((i..=end).step_by(2).map(|k| bytes[k]));
                i = end + 1;
                continue;
            }
        }
        if let Some(out) = &mut out {
            out.push(bytes[i]);
        }
        i += 1;
    }
    // Only ASCII bytes were dropped, so `out` is still UTF-8.
    out.map(|out| String::from_utf8(out).unwrap_or_default())
}

/// The names of every rule, most specific first.
pub fn rule_names() -> impl Iterator<Item = &'static str> {
    RULES.iter().map(|(name, _, _)| *name)
}

// ---------------------------------------------------------------------------------------------
// Tokens

/// An inclusive range of token indices: the evidence of a match.
type Span = (usize, usize);

#[derive(Debug, Clone, Copy)]
struct Tok {
    /// Where the token's lead (dashes or prefix) starts, for showing evidence.
    lead: u32,
    start: u32,
    end: u32,
    /// Leading dashes right before the word (0 inside `force-push`), 1 for `-rf`, 2 for `--x`.
    dashes: u8,
    /// A leading `+`, `:`, `.` or `$` (not inside a word), else 0.
    prefix: u8,
    /// Which field the token came from: neighbours only count within one field.
    field: u16,
}

struct Text {
    s: String,
    toks: Vec<Tok>,
    /// Where each field's folded text sits in `s`.
    fields: Vec<std::ops::Range<usize>>,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphanumeric())
}

impl Text {
    fn new(fields: &[&str]) -> Text {
        Text::build(fields, fold_into)
    }

    /// Text from fields that are already folded (respellings of another `Text`'s fields).
    fn from_folded(fields: &[String]) -> Text {
        Text::build(fields, |field, s| s.push_str(field))
    }

    /// Fields appended by `append` into one buffer, each tokenized as its own field and
    /// followed by a newline.
    fn build<F: AsRef<str>>(fields: &[F], append: impl Fn(&str, &mut String)) -> Text {
        let mut s = String::with_capacity(fields.iter().map(|f| f.as_ref().len() + 1).sum());
        let mut toks = Vec::with_capacity(s.capacity() / 5 + 4);
        let mut ranges = Vec::with_capacity(fields.len());
        for (index, field) in fields.iter().enumerate() {
            let from = s.len();
            append(field.as_ref(), &mut s);
            tokenize(&s, from, index.min(u16::MAX as usize) as u16, &mut toks);
            ranges.push(from..s.len());
            s.push('\n');
        }
        Text {
            s,
            toks,
            fields: ranges,
        }
    }

    /// The texts [`respell`] makes of this one, field by field (1 read as `l`, then as `i`),
    /// each tokenized with the same field boundaries; none when nothing needs respelling.
    fn respellings(&self) -> Vec<Text> {
        let mut out: Vec<Text> = Vec::new();
        for one in [b'l', b'i'] {
            let mut changed = false;
            let fields: Vec<String> = self
                .fields
                .iter()
                .map(|r| {
                    let field = &self.s[r.clone()];
                    respell(field, one).map_or_else(
                        || field.to_owned(),
                        |respelled| {
                            changed = true;
                            respelled
                        },
                    )
                })
                .collect();
            // Without a 1 in a word, both respellings are the same.
            if changed && out.last().is_none_or(|t| t.fields_text() != fields) {
                out.push(Text::from_folded(&fields));
            }
        }
        out
    }

    fn fields_text(&self) -> Vec<&str> {
        self.fields.iter().map(|r| &self.s[r.clone()]).collect()
    }

    fn len(&self) -> usize {
        self.toks.len()
    }

    fn word(&self, i: usize) -> &str {
        let t = &self.toks[i];
        &self.s[t.start as usize..t.end as usize]
    }

    fn slice(&self, a: usize, b: usize) -> &str {
        &self.s[self.toks[a].lead as usize..self.toks[b].end as usize]
    }

    // `is` and `stem` run thousands of times per question: comparing the length and the first
    // byte before the bytes keeps almost every mismatch to two integer compares.
    fn is(&self, i: usize, words: &[&str]) -> bool {
        let w = self.word(i).as_bytes();
        let Some(&first) = w.first() else {
            return false;
        };
        words.iter().any(|x| {
            let x = x.as_bytes();
            x.len() == w.len() && x.first() == Some(&first) && x == w
        })
    }

    fn stem(&self, i: usize, stems: &[&str]) -> bool {
        let w = self.word(i).as_bytes();
        let Some(&first) = w.first() else {
            return false;
        };
        stems.iter().any(|s| {
            let s = s.as_bytes();
            s.len() <= w.len() && s.first() == Some(&first) && w.starts_with(s)
        })
    }

    fn prefix(&self, i: usize) -> u8 {
        self.toks[i].prefix
    }

    /// A flag spelled out: `--force`, `-Force`, `--recursive`.
    fn flag_is(&self, i: usize, names: &[&str]) -> bool {
        self.toks[i].dashes >= 1 && self.is(i, names)
    }

    /// A short-flag cluster (`-rf`, `-fdx`, `-D`) that contains `c`.
    fn short_has(&self, i: usize, c: u8) -> bool {
        let w = self.word(i);
        self.toks[i].dashes == 1
            && w.len() <= 6
            && w.bytes().all(|b| b.is_ascii_lowercase())
            && w.as_bytes().contains(&c)
    }

    fn next_is(&self, i: usize, words: &[&str]) -> bool {
        i + 1 < self.len()
            && self.toks[i + 1].field == self.toks[i].field
            && self.toks[i + 1].dashes == 0
            && self.is(i + 1, words)
    }

    fn prev_is(&self, i: usize, words: &[&str]) -> bool {
        i > 0 && self.toks[i - 1].field == self.toks[i].field && self.is(i - 1, words)
    }

    /// The first token matching `a`.
    fn any(&self, a: &dyn Fn(&Text, usize) -> bool) -> Option<Span> {
        (0..self.len()).find(|&i| a(self, i)).map(|i| (i, i))
    }

    /// A token matching `a` with a different token matching `b` at most `window` tokens away
    /// on either side.
    fn near(
        &self,
        a: &dyn Fn(&Text, usize) -> bool,
        b: &dyn Fn(&Text, usize) -> bool,
        window: usize,
    ) -> Option<Span> {
        for i in 0..self.len() {
            if !a(self, i) {
                continue;
            }
            let lo = i.saturating_sub(window);
            let hi = (i + window).min(self.len() - 1);
            if let Some(j) = (lo..=hi).find(|&j| j != i && b(self, j)) {
                return Some((i.min(j), i.max(j)));
            }
        }
        None
    }

    /// A token matching `a` followed within `window` tokens by one matching `b`.
    fn after(
        &self,
        a: &dyn Fn(&Text, usize) -> bool,
        b: &dyn Fn(&Text, usize) -> bool,
        window: usize,
    ) -> Option<Span> {
        for i in 0..self.len() {
            if !a(self, i) {
                continue;
            }
            let hi = (i + window).min(self.len() - 1);
            if let Some(j) = (i + 1..=hi).find(|&j| b(self, j)) {
                return Some((i, j));
            }
        }
        None
    }

    fn first_match(&self) -> Option<(&'static str, Span)> {
        if self.toks.is_empty() {
            return None;
        }
        let keys: Vec<u16> = (0..self.len()).map(|i| key(self.word(i))).collect();
        RULES
            .iter()
            .filter(|(_, anchors, _)| self.anchored(anchors, &keys))
            .find_map(|(name, _, rule)| rule(self).map(|span| (*name, span)))
    }

    /// The first match of every rule, ignoring anchors (for tests of the anchors).
    #[cfg(test)]
    fn first_match_unfiltered(&self) -> Option<(&'static str, Span)> {
        RULES
            .iter()
            .find_map(|(name, _, rule)| rule(self).map(|span| (*name, span)))
    }

    /// Whether any token starts with one of `anchors` (or is it, for `=word`). `keys` holds
    /// each token's [`key`], so nearly every mismatch is one integer compare.
    fn anchored(&self, anchors: &[&str], keys: &[u16]) -> bool {
        anchors.iter().any(|anchor| {
            let (exact, a) = match anchor.strip_prefix('=') {
                Some(a) => (true, a),
                None => (false, *anchor),
            };
            let k = key(a);
            keys.iter().enumerate().any(|(i, &tk)| {
                tk == k && {
                    let w = self.word(i);
                    if exact {
                        w == a
                    } else {
                        w.starts_with(a)
                    }
                }
            })
        })
    }
}

/// The first two bytes of a word (the second 0 for a one-byte word): equal keys are necessary
/// for equality and, for anchors of two bytes or more, for a prefix match.
fn key(word: &str) -> u16 {
    let b = word.as_bytes();
    (u16::from(b.first().copied().unwrap_or(0)) << 8) | u16::from(b.get(1).copied().unwrap_or(0))
}

/// Append the tokens of `s[from..]` (one field) to `toks`.
fn tokenize(s: &str, from: usize, field: u16, toks: &mut Vec<Tok>) {
    let mut chars = s[from..]
        .char_indices()
        .map(|(at, c)| (at + from, c))
        .peekable();
    // The character before the current position, and the dashes/prefix seen since a word.
    let mut prev: char = ' ';
    let mut dashes: u8 = 0;
    let mut lead: usize = 0;
    let mut prefix: u8 = 0;
    while let Some((at, c)) = chars.next() {
        if is_word_char(c) {
            let start = at;
            let mut end = at + c.len_utf8();
            while let Some(&(next_at, next)) = chars.peek() {
                if !is_word_char(next) {
                    break;
                }
                end = next_at + next.len_utf8();
                chars.next();
            }
            let lead_at = if dashes > 0 || prefix != 0 {
                lead
            } else {
                start
            };
            toks.push(Tok {
                lead: lead_at as u32,
                start: start as u32,
                end: end as u32,
                dashes,
                prefix,
                field,
            });
            dashes = 0;
            prefix = 0;
            prev = 'a';
            continue;
        }
        match c {
            '-' => {
                if is_word_char(prev) {
                    // A hyphen inside a word: `force-push`, `--force-with-lease`.
                    prev = '-';
                    dashes = 0;
                    continue;
                }
                if dashes == 0 {
                    lead = at;
                }
                dashes = dashes.saturating_add(1).min(2);
                let next = chars.peek().map(|&(_, n)| n);
                if dashes == 2 && prev == '-' && next.is_none_or(|n| n.is_whitespace()) {
                    // A lone `--` (end of options: `git checkout -- .`).
                    toks.push(Tok {
                        lead: lead as u32,
                        start: lead as u32,
                        end: (at + 1) as u32,
                        dashes: 2,
                        prefix: 0,
                        field,
                    });
                    dashes = 0;
                }
                prev = '-';
                continue;
            }
            '.' if !is_word_char(prev) => {
                let next = chars.peek().map(|&(_, n)| n);
                if next.is_none_or(|n| n.is_whitespace() || n == '"' || n == '\'') {
                    toks.push(Tok {
                        lead: at as u32,
                        start: at as u32,
                        end: (at + 1) as u32,
                        dashes: 0,
                        prefix: 0,
                        field,
                    });
                } else {
                    lead = at;
                    prefix = b'.';
                }
            }
            '+' | ':' | '$' if !is_word_char(prev) => {
                lead = at;
                prefix = c as u8;
            }
            _ => {
                dashes = 0;
                prefix = 0;
            }
        }
        prev = c;
    }
}

// ---------------------------------------------------------------------------------------------
// Word lists

const RM: &[&str] = &[
    "rm", "rmdir", "rmi", "unlink", "shred", "srm", "del", "deltree", "rimraf", "rmtree",
];
const PUSH: &[&str] = &["push", "pushes", "pushed", "pushing", "repush"];
const DB_OBJ: &[&str] = &[
    "table",
    "tables",
    "database",
    "databases",
    "db",
    "dbs",
    "schema",
    "schemas",
    "collection",
    "collections",
    "column",
    "columns",
    "index",
    "indexes",
    "indices",
    "keyspace",
    "keyspaces",
    "tablespace",
    "view",
    "views",
    "sequence",
    "constraint",
    "constraints",
    "trigger",
    "triggers",
    "partition",
    "partitions",
    "bucket",
    "buckets",
    "users",
    "user",
    "data",
];
const DATA_STEMS: &[&str] = &[
    "file",
    "folder",
    "director",
    "data",
    "table",
    "record",
    "row",
    "blob",
    "bucket",
    "volume",
    "disk",
    "partition",
    "backup",
    "branch",
    "repo",
    "account",
    "customer",
    "secret",
    "histor",
    "artifact",
    "cluster",
    "namespace",
    "deployment",
    "stash",
    "upload",
    "attachment",
    "photo",
    "workspace",
    "worktree",
    "everything",
    "migration",
];
const DATA_WORDS: &[&str] = &[
    "db",
    "dbs",
    "dir",
    "dirs",
    "drive",
    "drives",
    "vm",
    "vms",
    "document",
    "documents",
];
/// What clearing, emptying or resetting destroys (never a cache: that is rebuilt).
const WIPE_OBJ: &[&str] = &[
    "uploads",
    "attachments",
    "media",
    "table",
    "tables",
    "database",
    "databases",
    "db",
    "dbs",
    "data",
    "dataset",
    "datasets",
    "records",
    "rows",
    "collection",
    "collections",
    "bucket",
    "buckets",
    "volume",
    "volumes",
    "disk",
    "disks",
    "drive",
    "partition",
    "queue",
    "queues",
    "trash",
    "redis",
    "tfstate",
    "history",
    "backups",
    "backup",
    "logs",
    "files",
    "folder",
    "folders",
    "directory",
    "directories",
    "dir",
    "workspace",
    "everything",
    "cluster",
    "namespace",
    "users",
    "accounts",
    "keyspace",
    "schema",
    "repo",
    "repository",
    "branch",
    "stash",
    "storage",
    "localstorage",
    "bin",
    "inbox",
    "mailbox",
];
const INFRA: &[&str] = &[
    "terraform",
    "tofu",
    "opentofu",
    "pulumi",
    "cdk",
    "kubectl",
    "k8s",
    "kubernetes",
    "helm",
    "aws",
    "gcloud",
    "gcp",
    "az",
    "azure",
    "cloudformation",
    "heroku",
    "flyctl",
    "vercel",
    "netlify",
    "cluster",
    "clusters",
    "infra",
    "infrastructure",
    "namespace",
    "namespaces",
    "instance",
    "instances",
    "ec2",
    "rds",
    "s3",
    "gcs",
    "vm",
    "vms",
    "pod",
    "pods",
    "nodes",
    "droplet",
    "droplets",
    "server",
    "servers",
    "vpc",
    "eks",
    "gke",
    "aks",
    "volume",
    "volumes",
    "docker",
    "compose",
    "statefulset",
    "deployment",
    "deployments",
    "pvc",
    "pv",
];
const CRED: &[&str] = &[
    "credential",
    "credentials",
    "cred",
    "creds",
    "key",
    "keys",
    "apikey",
    "apikeys",
    "token",
    "tokens",
    "secret",
    "secrets",
    "password",
    "passwords",
    "passphrase",
    "passwd",
    "certificate",
    "certificates",
    "cert",
    "certs",
    "oauth",
    "session",
    "sessions",
    "ssh",
    "pat",
    "pats",
    "pgp",
    "gpg",
    "kms",
    "jwt",
    "jwts",
    "signing",
    "2fa",
    "mfa",
    "totp",
    "keypair",
    "keypairs",
];
const CRED_VERBS: &[&str] = &[
    "rotat",
    "reset",
    "regenerat",
    "invalidat",
    "expir",
    "roll",
    "cycl",
    "chang",
    "disabl",
    "deactivat",
    "delet",
    "remov",
    "replac",
    "reissu",
    "revok",
    "leak",
    "wip",
];
const MESSAGE_VERBS: &[&str] = &[
    "send",
    "sends",
    "sending",
    "sent",
    "resend",
    "email",
    "emails",
    "emailing",
    "emailed",
    "mail",
    "mails",
    "mailing",
    "texting",
    "sms",
    "dm",
    "ping",
    "tweet",
    "tweeting",
    "announce",
    "announcing",
    "broadcast",
    "broadcasting",
    "blast",
    "reply",
    "replying",
    "invite",
    "inviting",
    "forward",
    "forwarding",
    "cc",
    "contacting",
    "notify",
    "notifying",
];
const RECIPIENTS: &[&str] = &[
    "email",
    "emails",
    "mail",
    "message",
    "messages",
    "newsletter",
    "newsletters",
    "slack",
    "discord",
    "teams",
    "twitter",
    "tweet",
    "sms",
    "text",
    "texts",
    "notification",
    "notifications",
    "invite",
    "invites",
    "invitation",
    "invitations",
    "customer",
    "customers",
    "client",
    "clients",
    "user",
    "users",
    "subscriber",
    "subscribers",
    "recipient",
    "recipients",
    "everyone",
    "team",
    "channel",
    "list",
    "stakeholders",
    "people",
    "contacts",
    "followers",
    "audience",
    "members",
    "employees",
    "staff",
    "them",
    "him",
    "her",
    "announcement",
    "campaign",
    "reminder",
    "reminders",
    "mailing",
    "inbox",
    "whatsapp",
    "telegram",
    "sms",
    "signal",
    "boss",
    "manager",
    "reviewers",
    "maintainers",
    "vendor",
    "vendors",
    "partners",
];
const POST_TARGETS: &[&str] = &[
    "slack",
    "discord",
    "teams",
    "twitter",
    "tweet",
    "linkedin",
    "channel",
    "mastodon",
    "forum",
    "reddit",
    "hackernews",
    "hn",
    "publicly",
    "public",
    "announcement",
    "blog",
    "bluesky",
    "facebook",
    "instagram",
    "social",
    "newsletter",
    "status",
];
const MONEY: &[&str] = &[
    "money", "funds", "fund", "cash", "payment", "payments", "usd", "eur", "gbp", "dollars",
    "euros", "pounds", "btc", "bitcoin", "eth", "crypto", "wallet", "bank", "card", "cards",
    "invoice", "invoices", "stripe", "paypal", "venmo", "wire", "ach", "sepa", "payroll", "salary",
    "salaries", "tip", "donation",
];
const REGISTRY: &[&str] = &[
    "npm",
    "npmjs",
    "pypi",
    "testpypi",
    "crates",
    "cratesio",
    "registry",
    "registries",
    "rubygems",
    "gem",
    "gems",
    "maven",
    "nuget",
    "dockerhub",
    "docker",
    "ghcr",
    "ecr",
    "gcr",
    "quay",
    "hex",
    "cocoapods",
    "homebrew",
    "brew",
    "appstore",
    "marketplace",
    "vsce",
    "ovsx",
    "jsr",
    "packagist",
    "cran",
    "conda",
    "anaconda",
    "galaxy",
    "testflight",
    "artifactory",
    "nexus",
    "tag",
    "tags",
];
const PROD: &[&str] = &["prod", "production", "prd", "prods", "productions"];
const PROD_BENIGN_NEXT: &[&str] = &[
    "ready",
    "grade",
    "quality",
    "build",
    "builds",
    "mode",
    "dependency",
    "dependencies",
    "deps",
    "bundle",
    "bundles",
    "optimized",
    "optimization",
    "optimizations",
    "like",
    "worthy",
    "strength",
];
/// "matches production", "same as prod": a comparison, not an action on production.
const PROD_BENIGN_PREV: &[&str] = &[
    "non",
    "pre",
    "match",
    "matches",
    "matching",
    "mirror",
    "mirrors",
    "mirroring",
    "like",
    "as",
    "than",
    "resembles",
    "emulate",
    "emulates",
    "emulating",
    "simulate",
    "simulates",
    "unlike",
];
const SCHEMA_CTX: &[&str] = &[
    "schema",
    "schemas",
    "database",
    "databases",
    "db",
    "table",
    "tables",
    "column",
    "columns",
    "sql",
    "prisma",
    "alembic",
    "flyway",
    "liquibase",
    "knex",
    "sequelize",
    "typeorm",
    "ecto",
    "diesel",
    "sqlx",
    "postgres",
    "postgresql",
    "psql",
    "pg",
    "mysql",
    "mariadb",
    "sqlite",
    "mongo",
    "mongodb",
    "rails",
    "django",
    "manage",
    "rake",
    "prod",
    "production",
    "data",
    "dbmate",
    "goose",
    "supabase",
    "drizzle",
    "orm",
    "index",
    "indexes",
    "rows",
    "records",
    "dynamodb",
    "redis",
    "cassandra",
    "migrations",
];
const CODE_CTX: &[&str] = &[
    "jest",
    "vitest",
    "mocha",
    "typescript",
    "ts",
    "javascript",
    "js",
    "eslint",
    "prettier",
    "webpack",
    "vite",
    "react",
    "vue",
    "angular",
    "svelte",
    "library",
    "libraries",
    "framework",
    "frameworks",
    "code",
    "codebase",
    "test",
    "tests",
    "syntax",
    "esm",
    "commonjs",
    "cjs",
    "python3",
    "edition",
    "tailwind",
    "css",
    "component",
    "components",
    "hooks",
    "class",
    "classes",
    "function",
    "functions",
    "module",
    "modules",
    "package",
    "packages",
    "ci",
    "actions",
    "workflow",
    "workflows",
    "api",
    "sdk",
    "version",
    "toolchain",
    "config",
    "docs",
    "lint",
    "linter",
    "formatter",
    "bundler",
    "build",
];
const RELEASE_BENIGN_NEXT: &[&str] = &[
    "mode",
    "build",
    "builds",
    "profile",
    "profiles",
    "notes",
    "note",
    "flag",
    "config",
    "configuration",
    "binary",
    "binaries",
    "target",
    "targets",
    "optimizations",
    "optimization",
    "optimized",
    "branch",
    "branches",
    "candidate",
    "checklist",
    "settings",
    "compile",
    "compilation",
    "artifact",
    "artifacts",
];
const HISTORY_SHARED: &[&str] = &["pushed", "published", "shared", "public"];
const UNCOMMITTED: &[&str] = &[
    "uncommitted",
    "unstaged",
    "unsaved",
    "untracked",
    "uncommited",
    "wip",
];

// ---------------------------------------------------------------------------------------------
// Rules, most specific first. Each returns the token span it matched.

type Rule = fn(&Text) -> Option<Span>;

/// Every rule in the order they are tried, with its anchors: word prefixes (`=word`: the exact
/// word) of which at least one must occur for the rule to be able to match at all. A rule whose
/// anchors are all absent is skipped, which is what keeps a benign question cheap; the anchors
/// must therefore cover every first predicate of the rule (a test checks them against the
/// unfiltered rules). The names are a contract (`askhook log` stores them): add new ones rather
/// than renaming.
const RULES: &[(&str, &[&str], Rule)] = &[
    (
        "chmod-recursive",
        &["chmod", "chown", "chgrp", "chattr", "setfacl"],
        chmod_recursive,
    ),
    (
        "dns-change",
        &[
            "dns",
            "domain",
            "nameserver",
            "registrar",
            "=mx",
            "cname",
            "route53",
            "cloudflare",
        ],
        dns_change,
    ),
    (
        "rm-rf",
        &["rm", "unlink", "shred", "srm", "del", "rimraf", "remove"],
        rm_rf,
    ),
    (
        "force-push",
        &["forcepush", "forcedpush", "force", "push", "repush"],
        force_push,
    ),
    (
        "hard-reset",
        &["hardreset", "resethard", "reset"],
        hard_reset,
    ),
    ("git-clean", &["=git", "clean"], git_clean),
    (
        "discard-changes",
        &[
            "start", "begin", "discard", "throw", "threw", "toss", "blow", "los", "revert",
            "reset", "restor", "checkout", "undo", "overwrit", "clear", "wip", "nuk", "delet",
            "remov", "drop", "=git",
        ],
        discard_changes,
    ),
    (
        "history-rewrite",
        &[
            "rewrit", "rewrote", "filter", "bfg", "reflog", "rebas", "amend", "squash", "reword",
            "fixup", "reorder",
        ],
        history_rewrite,
    ),
    (
        "delete-branch",
        &[
            "branch", "tag", "push", "repush", "delet", "remov", "prun", "=del",
        ],
        delete_branch,
    ),
    ("drop-table", &["drop"], drop_table),
    ("truncate", &["truncat"], truncate),
    (
        "infra-destroy",
        &[
            "destroy",
            "destruct",
            "delet",
            "teardown",
            "terminat",
            "uninstall",
            "drain",
            "decommission",
            "deprovision",
            "remov",
            "tear",
            "tore",
            "rm",
            "unlink",
            "shred",
            "srm",
            "del",
            "rimraf",
            "=rb",
            "nuk",
            "down",
        ],
        infra_destroy,
    ),
    (
        "infra-apply",
        &[
            "terraform",
            "tofu",
            "opentofu",
            "pulumi",
            "cloudformation",
            "cdk",
            "kubectl",
            "helm",
            "ansible",
            "crossplane",
        ],
        infra_apply,
    ),
    (
        "credential-change",
        &[
            "revok",
            "revoc",
            "rotat",
            "reset",
            "regenerat",
            "invalidat",
            "expir",
            "roll",
            "cycl",
            "chang",
            "disabl",
            "deactivat",
            "delet",
            "remov",
            "replac",
            "reissu",
            "leak",
            "wip",
        ],
        credential_change,
    ),
    (
        "account-change",
        &[
            "close",
            "closing",
            "cancel",
            "deactivat",
            "suspend",
            "terminat",
            "delet",
            "disabl",
            "remov",
            "offboard",
            "unsubscrib",
            "ban",
            "kick",
        ],
        account_change,
    ),
    (
        "send-money",
        &[
            "pay",
            "payout",
            "refund",
            "remit",
            "reimburse",
            "venmo",
            "zelle",
            "send",
            "sent",
            "transfer",
            "wire",
            "wiring",
            "move",
            "moving",
            "charg",
            "bill",
            "purchas",
            "buy",
            "donat",
            "tip",
        ],
        send_money,
    ),
    (
        "send-message",
        &[
            "messag",
            "text",
            "=call",
            "phone",
            "send",
            "sent",
            "resend",
            "email",
            "mail",
            "texting",
            "=sms",
            "=dm",
            "ping",
            "tweet",
            "announc",
            "broadcast",
            "blast",
            "repl",
            "invit",
            "forward",
            "=cc",
            "contacting",
            "notif",
            "post",
            "publish",
            "shar",
            "launch",
        ],
        send_message,
    ),
    (
        "schema-migration",
        &[
            "upgrad",
            "downgrad",
            "alembic",
            "flyway",
            "liquibase",
            "dbmate",
            "syncdb",
            "alter",
            "add",
            "renam",
            "chang",
            "modif",
            "schema",
            "=db",
            "database",
            "migrat",
            "remigrat",
            "makemigrations",
        ],
        schema_migration,
    ),
    (
        "format-disk",
        &[
            "mkfs",
            "fdisk",
            "wipefs",
            "diskpart",
            "sfdisk",
            "mkswap",
            "format",
            "reformat",
            "partition",
            "repartition",
            "=dd",
        ],
        format_disk,
    ),
    (
        "publish",
        &[
            "publish",
            "republish",
            "unpublish",
            "upload",
            "push",
            "repush",
            "releas",
            "submit",
            "ship",
            "twine",
            "=gh",
            "github",
            "gem",
            "flit",
            "poetry",
            "hatch",
            "=uv",
        ],
        publish,
    ),
    (
        "deploy",
        &[
            "deploy", "redeploy", "rollout", "golive", "cutover", "ship", "roll", "=go", "goes",
            "going", "went", "launch", "promot",
        ],
        deploy,
    ),
    ("release", &["releas", "prerelease"], release),
    (
        "breaking-change",
        &[
            "break",
            "broke",
            "incompatib",
            "backwardincompat",
            "backwardsincompat",
            "major",
            "remov",
            "renam",
        ],
        breaking_change,
    ),
    (
        "visibility-public",
        &[
            "expos", "publish", "public", "=open", "=opens", "=opened", "=opening",
        ],
        visibility_public,
    ),
    (
        "expose-secret",
        &[
            "commit", "push", "publish", "upload", "shar", "paste", "post", "expos", "print",
            "echo", "leak", "hardcod", "embed", "log", "check",
        ],
        expose_secret,
    ),
    (
        "bulk-data-change",
        &[
            "backfill", "bulk", "mass", "batch", "update", "execut", "run", "apply",
        ],
        bulk_data_change,
    ),
    (
        "sign-agreement",
        &["accept", "agree", "sign", "consent"],
        sign_agreement,
    ),
    (
        "grant-access",
        &[
            "grant", "give", "giving", "add", "make", "making", "promot", "elevat", "invit",
        ],
        grant_access,
    ),
    (
        "disable-protection",
        &[
            "disabl",
            "remov",
            "delet",
            "bypass",
            "weaken",
            "lower",
            "deactivat",
            "unprotect",
            "turn",
            "switch",
            "=no",
        ],
        disable_protection,
    ),
    ("production", &["prod", "prd", "=live"], production),
    (
        "rm",
        &["rm", "unlink", "shred", "srm", "del", "rimraf", "remove"],
        rm,
    ),
    (
        "delete",
        &[
            "=get", "=got", "=gets", "getting", "delet", "undelet", "eras", "expung", "trash",
            "remov", "unlink",
        ],
        delete,
    ),
    (
        "wipe",
        &[
            "clean",
            "wip",
            "nuk",
            "flushall",
            "flushdb",
            "scorch",
            "obliterat",
            "purg",
            "annihilat",
            "prun",
            "shredd",
            "zero",
            "clear",
            "empty",
            "emptying",
            "flush",
            "reset",
            "reinit",
            "recreat",
            "scrub",
            "blank",
        ],
        wipe,
    ),
    (
        "overwrite",
        &[
            "overwrit",
            "overwrote",
            "clobber",
            "supersed",
            "replac",
            "restor",
            "rollback",
            "reseed",
            "reimport",
            "reload",
            "load",
            "import",
            "seed",
        ],
        overwrite,
    ),
    (
        "destroy",
        &[
            "destroy",
            "teardown",
            "decommission",
            "deprovision",
            "dismantl",
            "demolish",
            "annihil",
            "tear",
            "tore",
            "torn",
            "shut",
            "bring",
            "take",
            "taking",
        ],
        destroy,
    ),
    ("drop", &["drop"], drop),
    (
        "irreversible",
        &[
            "irreversib",
            "irrevocab",
            "irrecoverab",
            "unrecoverab",
            "unrecover",
            "permanent",
            "nonreversib",
            "nonrecoverab",
            "destructive",
            "destruction",
            "dangerous",
            "unsafe",
            "irretrievable",
            "unrestorable",
            "unreversible",
            "cannot",
            "=cant",
            "=t",
            "=not",
            "never",
            "impossible",
            "unable",
            "=wont",
            "=no",
            "data",
            "work",
            "chang",
        ],
        irreversible,
    ),
    (
        "force-flag",
        &[
            "force", "hard", "purge", "cascade", "delete", "prune", "yes", "preserve",
        ],
        force_flag,
    ),
];

fn is_rm(t: &Text, i: usize) -> bool {
    t.is(i, RM) && t.toks[i].dashes == 0
}

fn rm_rf(t: &Text) -> Option<Span> {
    if let Some(span) = t.any(&|t, i| t.is(i, &["rimraf", "rmtree", "deltree"])) {
        return Some(span);
    }
    let rm_like =
        |t: &Text, i: usize| is_rm(t, i) || (t.is(i, &["remove"]) && t.next_is(i, &["item"]));
    for i in 0..t.len() {
        if !rm_like(t, i) {
            continue;
        }
        let (mut r, mut f) = (None, None);
        for j in i + 1..(i + 8).min(t.len()) {
            if t.short_has(j, b'r') || t.flag_is(j, &["recursive", "recurse"]) {
                r = Some(j);
            }
            if t.short_has(j, b'f') || t.flag_is(j, &["force"]) {
                f = Some(j);
            }
            if let (Some(r), Some(f)) = (r, f) {
                return Some((i, r.max(f)));
            }
        }
    }
    None
}

fn chmod_recursive(t: &Text) -> Option<Span> {
    t.after(
        &|t, i| t.is(i, &["chmod", "chown", "chgrp", "chattr", "setfacl"]),
        &|t, j| t.short_has(j, b'r') || t.flag_is(j, &["recursive"]),
        4,
    )
}

fn dns_change(t: &Text) -> Option<Span> {
    t.near(
        &|t, i| {
            t.is(
                i,
                &[
                    "dns",
                    "domain",
                    "domains",
                    "nameserver",
                    "nameservers",
                    "registrar",
                    "mx",
                    "cname",
                    "route53",
                    "cloudflare",
                ],
            )
        },
        &|t, j| {
            t.stem(
                j,
                &[
                    "chang", "point", "repoint", "transfer", "updat", "delet", "mov", "switch",
                    "remov", "edit", "modif", "migrat", "releas", "renew",
                ],
            )
        },
        4,
    )
}

fn bulk_data_change(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.stem(i, &["backfill"]))
        .or_else(|| {
            t.near(
                &|t, i| t.is(i, &["bulk", "mass"]),
                &|t, j| {
                    t.stem(
                        j,
                        &[
                            "updat", "delet", "edit", "chang", "modif", "insert", "import",
                            "email", "send", "record", "row", "user", "customer", "data", "writ",
                            "migrat",
                        ],
                    )
                },
                3,
            )
        })
        // SQL `UPDATE … SET`.
        .or_else(|| t.after(&|t, i| t.is(i, &["update"]), &|t, j| t.is(j, &["set"]), 2))
        .or_else(|| {
            t.near(
                &|t, i| t.stem(i, &["execut", "run", "apply"]),
                &|t, j| t.is(j, &["sql", "psql", "query", "queries"]),
                3,
            )
        })
}

fn sign_agreement(t: &Text) -> Option<Span> {
    t.near(
        &|t, i| t.stem(i, &["accept", "agree", "sign", "consent"]),
        &|t, j| {
            t.is(
                j,
                &[
                    "terms",
                    "tos",
                    "contract",
                    "contracts",
                    "agreement",
                    "agreements",
                    "eula",
                    "nda",
                    "cla",
                    "offer",
                    "dpa",
                    "sla",
                ],
            )
        },
        5,
    )
}

fn grant_access(t: &Text) -> Option<Span> {
    let privileged = |t: &Text, j: usize| {
        t.is(
            j,
            &[
                "admin",
                "admins",
                "owner",
                "owners",
                "ownership",
                "root",
                "sudo",
                "sudoer",
                "sudoers",
                "superuser",
                "administrator",
                "maintainer",
                "collaborator",
            ],
        )
    };
    let person = |t: &Text, j: usize| {
        t.is(
            j,
            &[
                "access",
                "rights",
                "privileges",
                "permissions",
                "permission",
                "role",
                "me",
                "him",
                "her",
                "them",
                "user",
                "contractor",
                "bot",
                "account",
                "member",
                "person",
                "team",
                "vendor",
                "everyone",
                "org",
                "organization",
            ],
        )
    };
    t.near(
        &|t, i| t.stem(i, &["grant", "promot", "elevat"]),
        &privileged,
        5,
    )
    .or_else(|| {
        let span = t.near(
            &|t, i| t.stem(i, &["give", "giving", "add", "make", "making", "invit"]),
            &privileged,
            5,
        )?;
        let (lo, hi) = (span.0.saturating_sub(5), (span.1 + 5).min(t.len() - 1));
        (lo..=hi).any(|k| person(t, k)).then_some(span)
    })
}

fn disable_protection(t: &Text) -> Option<Span> {
    t.near(
        &|t, i| {
            t.stem(
                i,
                &[
                    "disabl",
                    "remov",
                    "delet",
                    "bypass",
                    "weaken",
                    "lower",
                    "deactivat",
                    "unprotect",
                ],
            ) || (t.is(i, &["turn", "turning", "switch", "switching"]) && t.next_is(i, &["off"]))
        },
        &|t, j| {
            t.is(
                j,
                &[
                    "protection",
                    "protections",
                    "protected",
                    "2fa",
                    "mfa",
                    "firewall",
                    "security",
                    "ssl",
                    "tls",
                    "https",
                    "encryption",
                    "backups",
                    "audit",
                    "auditing",
                    "sso",
                    "rbac",
                    "waf",
                    "antivirus",
                    "selinux",
                    "apparmor",
                ],
            )
        },
        5,
    )
    .or_else(|| t.any(&|t, i| t.flag_is(i, &["no"]) && t.next_is(i, &["verify"])))
}

fn is_push(t: &Text, i: usize) -> bool {
    t.is(i, PUSH)
}

fn force_push(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.stem(i, &["forcepush", "forcedpush"]))
        .or_else(|| {
            t.any(&|t, i| {
                t.flag_is(i, &["force"])
                    && i + 2 < t.len()
                    && t.toks[i + 1].dashes == 0
                    && ((t.is(i + 1, &["with"]) && t.is(i + 2, &["lease"]))
                        || (t.is(i + 1, &["if"]) && t.is(i + 2, &["includes"])))
            })
        })
        .or_else(|| {
            t.after(
                &is_push,
                &|t, j| {
                    t.short_has(j, b'f')
                        || t.flag_is(j, &["force", "mirror"])
                        || t.prefix(j) == b'+'
                },
                8,
            )
        })
        .or_else(|| {
            t.near(
                &is_push,
                &|t, j| t.is(j, &["force", "forced", "forcing", "forcibly", "forceful"]),
                3,
            )
        })
}

fn is_reset(t: &Text, i: usize) -> bool {
    t.is(i, &["reset", "resets", "resetting", "reseting"])
}

fn hard_reset(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.is(i, &["hardreset", "resethard"]))
        .or_else(|| t.near(&is_reset, &|t, j| t.is(j, &["hard"]), 4))
        .or_else(|| {
            t.after(
                &is_reset,
                &|t, j| t.is(j, &["origin", "upstream", "remote"]),
                4,
            )
        })
}

fn git_clean(t: &Text) -> Option<Span> {
    let clean = |t: &Text, i: usize| t.is(i, &["clean", "cleans", "cleaning", "cleaned"]);
    t.after(&|t, i| t.is(i, &["git"]), &clean, 2)
        .or_else(|| {
            t.after(
                &clean,
                &|t, j| t.short_has(j, b'f') || t.short_has(j, b'x') || t.short_has(j, b'd'),
                3,
            )
        })
        .or_else(|| t.near(&clean, &|t, j| t.is(j, UNCOMMITTED), 4))
}

fn discard_changes(t: &Text) -> Option<Span> {
    if let Some(span) = t.after(
        &|t, i| t.is(i, &["start", "starting", "begin"]),
        &|t, j| t.is(j, &["over", "fresh", "afresh"]),
        1,
    ) {
        return Some(span);
    }
    t.any(&|t, i| t.stem(i, &["discard"]))
        .or_else(|| {
            t.after(
                &|t, i| {
                    t.is(
                        i,
                        &[
                            "throw", "throwing", "threw", "toss", "tossing", "blow", "blowing",
                        ],
                    )
                },
                &|t, j| t.is(j, &["away"]),
                3,
            )
        })
        .or_else(|| t.any(&|t, i| t.is(i, &["lose", "losing", "loses"])))
        .or_else(|| {
            t.near(
                &|t, i| {
                    t.stem(
                        i,
                        &[
                            "revert", "reset", "restor", "checkout", "undo", "overwrit", "clear",
                            "wip", "nuk", "delet", "remov", "drop", "lost",
                        ],
                    )
                },
                &|t, j| {
                    t.is(j, UNCOMMITTED)
                        || (t.is(j, &["local", "working"])
                            && t.next_is(
                                j,
                                &[
                                    "changes",
                                    "change",
                                    "edits",
                                    "modifications",
                                    "tree",
                                    "copy",
                                    "directory",
                                    "dir",
                                ],
                            ))
                },
                5,
            )
        })
        .or_else(|| t.after(&|t, i| t.is(i, &["git"]), &|t, j| t.is(j, &["restore"]), 2))
        .or_else(|| {
            t.after(
                &|t, i| t.is(i, &["checkout", "restore"]),
                &|t, j| t.word(j) == "--" || t.word(j) == ".",
                2,
            )
        })
}

fn history_rewrite(t: &Text) -> Option<Span> {
    let rewrite = |t: &Text, i: usize| {
        t.stem(
            i,
            &["rebas", "amend", "squash", "reword", "fixup", "reorder"],
        )
    };
    if let Some(span) = t.near(&rewrite, &is_push, 6) {
        return Some(span);
    }
    t.near(
        &|t, i| t.stem(i, &["rewrit", "rewrote"]),
        &|t, j| t.stem(j, &["histor", "commit"]),
        4,
    )
    .or_else(|| {
        t.after(
            &|t, i| t.is(i, &["filter"]),
            &|t, j| t.is(j, &["branch", "repo"]),
            1,
        )
    })
    .or_else(|| t.any(&|t, i| t.is(i, &["bfg", "filterbranch", "filterrepo"])))
    .or_else(|| {
        t.near(
            &|t, i| t.is(i, &["reflog"]),
            &|t, j| t.stem(j, &["expir"]),
            3,
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| {
                t.stem(
                    i,
                    &["rebas", "amend", "squash", "reword", "fixup", "reorder"],
                )
            },
            &|t, j| t.is(j, HISTORY_SHARED),
            9,
        )
    })
}

fn delete_branch(t: &Text) -> Option<Span> {
    let branch = |t: &Text, i: usize| {
        t.is(i, &["branch", "branches", "tag", "tags"]) && t.toks[i].dashes == 0
    };
    t.after(
        &branch,
        &|t, j| t.short_has(j, b'd') || t.flag_is(j, &["delete"]),
        2,
    )
    .or_else(|| {
        t.after(
            &is_push,
            &|t, j| t.prefix(j) == b':' || t.flag_is(j, &["delete", "prune"]),
            6,
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| t.stem(i, &["delet", "remov", "prun"]) || t.is(i, &["del"]),
            &branch,
            4,
        )
    })
}

fn drop_words(t: &Text, i: usize) -> bool {
    t.is(
        i,
        &[
            "drop",
            "drops",
            "dropped",
            "dropping",
            "dropdb",
            "droptable",
            "dropdatabase",
        ],
    ) && !t.next_is(
        i,
        &[
            "down", "downs", "in", "ins", "zone", "shadow", "cap", "caps", "shipping",
        ],
    )
}

fn drop_table(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.is(i, &["dropdb", "droptable", "dropdatabase", "dropuser"]))
        .or_else(|| t.after(&drop_words, &|t, j| t.is(j, DB_OBJ), 4))
}

fn truncate(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.stem(i, &["truncat"]))
}

fn infra_destroy(t: &Text) -> Option<Span> {
    let destroy = |t: &Text, i: usize| {
        t.stem(
            i,
            &[
                "destroy",
                "destruct",
                "delet",
                "teardown",
                "terminat",
                "uninstall",
                "drain",
                "decommission",
                "deprovision",
                "remov",
            ],
        ) || (t.is(i, &["tear", "tearing", "tore"]) && t.next_is(i, &["down"]))
            || is_rm(t, i)
            || t.is(i, &["rb", "nuke", "nuking"])
    };
    t.near(&destroy, &|t, j| t.is(j, INFRA), 6).or_else(|| {
        // `docker compose down -v` deletes the volumes.
        t.after(
            &|t, i| t.is(i, &["down"]),
            &|t, j| t.short_has(j, b'v') || t.flag_is(j, &["volumes", "rmi"]),
            3,
        )
    })
}

fn infra_apply(t: &Text) -> Option<Span> {
    let tool = |t: &Text, i: usize| {
        t.is(
            i,
            &[
                "terraform",
                "tofu",
                "opentofu",
                "pulumi",
                "cloudformation",
                "cdk",
                "kubectl",
                "helm",
                "ansible",
                "crossplane",
            ],
        )
    };
    t.near(
        &tool,
        &|t, j| {
            t.is(
                j,
                &[
                    "apply", "applying", "applied", "import", "taint", "upgrade", "rollout",
                    "patch", "scale", "replace", "deploy", "sync",
                ],
            )
        },
        4,
    )
    .or_else(|| t.after(&tool, &|t, j| t.is(j, &["up", "install", "state"]), 2))
}

fn credential_change(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.stem(i, &["revok", "revoc"]))
        .or_else(|| {
            t.near(
                &|t, i| t.stem(i, CRED_VERBS),
                &|t, j| t.is(j, CRED) && t.toks[j].dashes == 0,
                5,
            )
        })
        .or_else(|| {
            t.near(
                &|t, i| t.stem(i, CRED_VERBS),
                &|t, j| {
                    t.is(j, &["api", "access", "deploy", "private", "service"])
                        && t.next_is(j, &["key", "keys", "token", "tokens", "account"])
                },
                5,
            )
        })
}

fn account_change(t: &Text) -> Option<Span> {
    t.near(
        &|t, i| {
            t.stem(
                i,
                &[
                    "close",
                    "closing",
                    "cancel",
                    "deactivat",
                    "suspend",
                    "terminat",
                    "delet",
                    "disabl",
                    "remov",
                    "offboard",
                    "unsubscrib",
                ],
            ) || t.is(i, &["ban", "bans", "banning", "banned", "kick"])
        },
        &|t, j| {
            t.stem(
                j,
                &[
                    "account",
                    "subscription",
                    "membership",
                    "tenant",
                    "customer",
                    "organi",
                    "employee",
                ],
            ) || t.is(
                j,
                &[
                    "user", "users", "org", "orgs", "member", "members", "seat", "seats",
                ],
            )
        },
        4,
    )
}

fn send_money(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.is(
            i,
            &[
                "pay",
                "paying",
                "pays",
                "payout",
                "payouts",
                "refund",
                "refunds",
                "refunding",
                "refunded",
                "remit",
                "reimburse",
                "buy",
                "buying",
                "purchase",
                "purchasing",
                "venmo",
                "zelle",
            ],
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| {
                t.stem(
                    i,
                    &[
                        "send", "sent", "transfer", "wire", "wiring", "move", "moving", "charg",
                        "bill", "purchas", "buy", "donat", "tip",
                    ],
                )
            },
            &|t, j| {
                t.is(j, MONEY)
                    || (t.prefix(j) == b'$'
                        && t.word(j).bytes().all(|b| b.is_ascii_digit() || b == b'k'))
            },
            5,
        )
    })
}

fn send_message(t: &Text) -> Option<Span> {
    let message_verb = |t: &Text, i: usize| {
        t.is(
            i,
            &[
                "message",
                "messaging",
                "text",
                "texting",
                "dm",
                "ping",
                "call",
                "phone",
                "sms",
                "email",
                "mail",
            ],
        ) && !(i > 0
            && t.prev_is(
                i,
                &[
                    "error",
                    "commit",
                    "log",
                    "warning",
                    "status",
                    "success",
                    "info",
                    "debug",
                    "exit",
                    "the",
                    "a",
                    "an",
                    "this",
                    "that",
                    "help",
                    "alt",
                    "placeholder",
                    "your",
                    "our",
                    "plain",
                    "rich",
                    "body",
                ],
            ))
    };
    if let Some(span) = t.after(&message_verb, &|t, j| t.is(j, RECIPIENTS), 2) {
        return Some(span);
    }
    t.near(
        &|t, i| t.is(i, MESSAGE_VERBS),
        &|t, j| t.is(j, RECIPIENTS),
        5,
    )
    .or_else(|| {
        t.near(
            &|t, i| {
                t.is(
                    i,
                    &["post", "posting", "posted", "publish", "share", "sharing"],
                )
            },
            &|t, j| t.is(j, POST_TARGETS),
            5,
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| t.stem(i, &["launch"]),
            &|t, j| t.is(j, &["campaign", "campaigns", "newsletter", "blast"]),
            4,
        )
    })
}

fn schema_migration(t: &Text) -> Option<Span> {
    if let Some(span) = t.near(
        &|t, i| t.stem(i, &["upgrad", "downgrad"]),
        &|t, j| {
            t.is(
                j,
                &[
                    "database",
                    "databases",
                    "db",
                    "postgres",
                    "postgresql",
                    "pg",
                    "mysql",
                    "mariadb",
                    "mongodb",
                    "mongo",
                    "redis",
                    "sqlite",
                    "elasticsearch",
                    "cassandra",
                ],
            )
        },
        4,
    ) {
        return Some(span);
    }
    let migrat = |t: &Text, i: usize| {
        t.stem(i, &["migrat", "remigrat"]) || t.is(i, &["migrate", "syncdb", "makemigrations"])
    };
    t.any(&|t, i| t.is(i, &["alembic", "flyway", "liquibase", "dbmate", "syncdb"]))
        .or_else(|| {
            t.near(
                &|t, i| t.is(i, &["alter", "altering"]),
                &|t, j| {
                    t.is(
                        j,
                        &[
                            "table", "tables", "column", "columns", "schema", "type", "index",
                        ],
                    )
                },
                3,
            )
        })
        .or_else(|| {
            t.after(
                &|t, i| {
                    t.is(
                        i,
                        &[
                            "add",
                            "adding",
                            "rename",
                            "renaming",
                            "change",
                            "changing",
                            "modify",
                            "modifying",
                        ],
                    )
                },
                &|t, j| t.is(j, &["column", "columns"]),
                3,
            )
        })
        .or_else(|| {
            let db_schema = |t: &Text, i: usize| {
                t.is(i, &["schema", "schemas"])
                    && !(i.saturating_sub(3)..(i + 4).min(t.len())).any(|j| {
                        t.is(
                            j,
                            &[
                                "json",
                                "graphql",
                                "zod",
                                "openapi",
                                "yaml",
                                "avro",
                                "protobuf",
                                "proto",
                                "type",
                                "types",
                                "validation",
                                "jsonschema",
                                "xml",
                                "xsd",
                                "yup",
                                "pydantic",
                                "ajv",
                            ],
                        )
                    })
            };
            t.near(
                &db_schema,
                &|t, j| {
                    t.stem(
                        j,
                        &["chang", "updat", "modif", "alter", "push", "sync", "apply"],
                    )
                },
                3,
            )
        })
        .or_else(|| {
            t.after(
                &|t, i| t.is(i, &["db", "database"]),
                &|t, j| {
                    t.is(
                        j,
                        &["push", "reset", "sync", "upgrade", "downgrade", "rollback"],
                    )
                },
                1,
            )
        })
        .or_else(|| {
            // A migration is one-way next to a database word, or when nothing says it is a
            // code migration (Jest to Vitest, a config format).
            // Running or applying migrations is one-way whatever else the text says.
            t.any(&migrat)?;
            t.near(&migrat, &|t, j| t.is(j, SCHEMA_CTX), 40)
                .or_else(|| {
                    t.near(
                        &migrat,
                        &|t, j| {
                            t.stem(
                                j,
                                &[
                                    "run", "apply", "applying", "execut", "rollback", "roll",
                                    "revert", "undo", "pending", "deploy", "up", "down",
                                ],
                            )
                        },
                        4,
                    )
                })
                .or_else(|| {
                    (0..t.len())
                        .find(|&i| {
                            migrat(t, i)
                                && !(i.saturating_sub(6)..(i + 7).min(t.len()))
                                    .any(|j| t.is(j, CODE_CTX))
                        })
                        .map(|i| (i, i))
                })
        })
}

fn format_disk(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.stem(
            i,
            &["mkfs", "fdisk", "wipefs", "diskpart", "sfdisk", "mkswap"],
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| t.stem(i, &["format", "reformat", "partition", "repartition"]),
            &|t, j| {
                t.is(
                    j,
                    &[
                        "disk",
                        "disks",
                        "drive",
                        "drives",
                        "partition",
                        "partitions",
                        "volume",
                        "filesystem",
                        "ssd",
                        "hdd",
                        "usb",
                        "sd",
                        "sda",
                        "sdb",
                        "nvme0n1",
                        "laptop",
                    ],
                )
            },
            3,
        )
    })
    .or_else(|| t.after(&|t, i| t.is(i, &["dd"]), &|t, j| t.is(j, &["of"]), 8))
}

fn publish(t: &Text) -> Option<Span> {
    if let Some(span) = t.near(
        &|t, i| t.stem(i, &["submit"]),
        &|t, j| {
            t.is(
                j,
                &[
                    "store",
                    "appstore",
                    "testflight",
                    "apple",
                    "google",
                    "portal",
                    "government",
                    "regulator",
                    "irs",
                    "hmrc",
                    "tax",
                    "filing",
                    "application",
                    "journal",
                    "conference",
                ],
            )
        },
        5,
    ) {
        return Some(span);
    }
    t.any(&|t, i| t.stem(i, &["publish", "republish", "unpublish"]))
        .or_else(|| {
            t.near(
                &|t, i| {
                    t.stem(i, &["upload", "push", "releas", "submit", "ship"])
                        || t.is(i, &["twine"])
                },
                &|t, j| t.is(j, REGISTRY) && t.toks[j].dashes == 0,
                5,
            )
        })
        .or_else(|| {
            t.after(
                &|t, i| t.is(i, &["gh", "github"]),
                &|t, j| t.stem(j, &["releas"]),
                2,
            )
        })
        .or_else(|| {
            t.after(
                &|t, i| t.is(i, &["twine", "gem", "flit", "poetry", "hatch", "uv"]),
                &|t, j| t.is(j, &["upload", "push", "publish"]),
                1,
            )
        })
        .or_else(|| t.after(&is_push, &|t, j| t.flag_is(j, &["tags", "follow"]), 6))
}

fn deploy(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.stem(i, &["deploy", "redeploy", "rollout", "golive", "cutover"])
            || t.is(i, &["ship", "ships"])
    })
    .or_else(|| {
        t.after(
            &|t, i| t.is(i, &["roll", "rolling", "rolls"]),
            &|t, j| t.is(j, &["out"]),
            1,
        )
    })
    .or_else(|| {
        t.after(
            &|t, i| t.is(i, &["go", "goes", "going", "went"]),
            &|t, j| t.is(j, &["live"]),
            1,
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| t.stem(i, &["launch", "promot"]),
            &|t, j| {
                t.is(j, PROD)
                    || t.is(
                        j,
                        &[
                            "live",
                            "public",
                            "publicly",
                            "customers",
                            "stable",
                            "canary",
                            "release",
                        ],
                    )
            },
            5,
        )
    })
}

fn release(t: &Text) -> Option<Span> {
    // `release` the verb, not the build profile (`--release`, "release mode", "debug or
    // release") nor the notes.
    t.any(&|t, i| {
        let debug = |k: usize| t.is(k, &["debug", "dev", "development", "debugging"]);
        t.is(
            i,
            &["release", "releases", "releasing", "released", "prerelease"],
        ) && t.toks[i].dashes == 0
            && !t.next_is(i, RELEASE_BENIGN_NEXT)
            && !(i > 0 && debug(i - 1))
            && !(i > 1 && t.is(i - 1, &["or", "and", "vs", "versus", "to"]) && debug(i - 2))
    })
}

fn breaking_change(t: &Text) -> Option<Span> {
    t.near(
        &|t, i| t.is(i, &["breaking"]),
        &|t, j| {
            t.stem(
                j,
                &[
                    "chang",
                    "api",
                    "compat",
                    "backward",
                    "client",
                    "consumer",
                    "interface",
                    "contract",
                    "caller",
                    "downstream",
                    "integration",
                    "existing",
                    "public",
                    "semver",
                    "release",
                    "user",
                    "depend",
                    "update",
                    "upgrade",
                    "version",
                ],
            )
        },
        2,
    )
    .or_else(|| {
        t.near(
            &|t, i| t.is(i, &["break", "breaks", "broke", "breaking"]),
            &|t, j| {
                t.stem(
                    j,
                    &[
                        "api",
                        "compat",
                        "backward",
                        "client",
                        "consumer",
                        "interface",
                        "contract",
                        "caller",
                        "downstream",
                        "integration",
                        "existing",
                        "public",
                        "semver",
                        "depend",
                    ],
                )
            },
            3,
        )
    })
    .or_else(|| t.any(&|t, i| t.stem(i, &["incompatib", "backwardincompat", "backwardsincompat"])))
    .or_else(|| {
        t.near(
            &|t, i| t.is(i, &["major"]),
            &|t, j| t.is(j, &["version", "bump", "release", "semver"]),
            2,
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| t.stem(i, &["remov", "renam"]),
            &|t, j| t.stem(j, &["endpoint", "public"]),
            4,
        )
    })
}

fn visibility_public(t: &Text) -> Option<Span> {
    if let Some(span) = t.near(
        // `open` as a word (opened, opening), not a prefix: OpenAPI, OpenAI, opentofu.
        &|t, i| {
            t.stem(i, &["expos", "publish"]) || t.is(i, &["open", "opens", "opened", "opening"])
        },
        &|t, j| {
            t.is(j, &["internet", "world", "publicly", "everyone", "anyone"])
                && !t.prev_is(j, &["hello"])
        },
        5,
    ) {
        return Some(span);
    }
    t.near(
        &|t, i| t.is(i, &["public", "publicly"]),
        &|t, j| {
            t.stem(
                j,
                &[
                    "repo", "bucket", "visib", "acl", "gist", "s3", "dataset", "blob",
                ],
            )
        },
        4,
    )
    .or_else(|| {
        t.after(
            &|t, i| t.is(i, &["open"]),
            &|t, j| t.is(j, &["source", "sourcing"]),
            1,
        )
    })
}

fn expose_secret(t: &Text) -> Option<Span> {
    let secret = |t: &Text, j: usize| {
        t.is(
            j,
            &[
                "secret",
                "secrets",
                "password",
                "passwords",
                "credential",
                "credentials",
                "token",
                "tokens",
                "apikey",
                "rsa",
                "pem",
                "envrc",
                "keystore",
                "keychain",
            ],
        ) || (t.is(j, &["env"]) && t.prefix(j) == b'.')
            || (t.is(j, &["api", "private"]) && t.next_is(j, &["key", "keys"]))
    };
    t.near(
        &|t, i| {
            t.stem(
                i,
                &[
                    "commit", "push", "publish", "upload", "share", "sharing", "paste", "post",
                    "expos", "print", "echo", "leak", "hardcod", "embed",
                ],
            ) || t.is(i, &["log", "logs", "logging", "logged"])
                || (t.is(i, &["check", "checking"]) && t.next_is(i, &["in"]))
        },
        &secret,
        5,
    )
}

fn production(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        (t.is(i, PROD) && !t.next_is(i, PROD_BENIGN_NEXT) && !t.prev_is(i, PROD_BENIGN_PREV))
            || (t.is(i, &["live"])
                && (t.prev_is(
                    i,
                    &[
                        "to", "on", "into", "push", "pushing", "make", "making", "take", "taking",
                        "the",
                    ],
                ) || (i > 1
                    && t.prev_is(
                        i - 1,
                        &[
                            "push", "pushing", "make", "making", "take", "taking", "put",
                            "putting", "go", "going",
                        ],
                    )))
                && !t.next_is(
                    i,
                    &[
                        "reload",
                        "reloading",
                        "preview",
                        "server",
                        "demo",
                        "mode",
                        "updates",
                        "update",
                        "coding",
                        "chat",
                    ],
                ))
    })
}

fn rm(t: &Text) -> Option<Span> {
    t.any(&is_rm)
        .or_else(|| t.after(&|t, i| t.is(i, &["remove"]), &|t, j| t.is(j, &["item"]), 1))
}

fn delete(t: &Text) -> Option<Span> {
    if let Some(span) = t.after(
        &|t, i| t.is(i, &["get", "got", "getting", "gets"]),
        &|t, j| t.is(j, &["rid"]),
        1,
    ) {
        return Some(span);
    }
    t.any(&|t, i| {
        t.stem(i, &["delet", "undelet", "eras", "expung", "trash"]) && !t.is(i, &["erasure"])
    })
    .or_else(|| {
        t.near(
            &|t, i| t.stem(i, &["remov", "unlink"]),
            &|t, j| {
                t.stem(j, DATA_STEMS)
                    || t.is(j, DATA_WORDS)
                    || t.short_has(j, b'r')
                    || t.flag_is(j, &["recurse", "recursive"])
                    || t.is(j, &["item"])
            },
            5,
        )
    })
}

fn wipe(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.is(
            i,
            &[
                "wipe", "wipes", "wiped", "wiping", "nuke", "nukes", "nuked", "nuking", "flushall",
                "flushdb", "scorch",
            ],
        ) || t.stem(
            i,
            &[
                "obliterat",
                "purg",
                "annihilat",
                "prune",
                "pruning",
                "shredd",
                "zeroiz",
                "zeroes",
            ],
        )
    })
    .or_else(|| {
        t.near(
            &|t, i| {
                t.stem(
                    i,
                    &[
                        "clear",
                        "clean",
                        "empty",
                        "emptying",
                        "flush",
                        "reset",
                        "reinit",
                        "reinitializ",
                        "recreat",
                        "zero",
                        "scrub",
                        "blank",
                    ],
                )
            },
            &|t, j| t.is(j, WIPE_OBJ),
            4,
        )
    })
}

fn overwrite(t: &Text) -> Option<Span> {
    t.any(&|t, i| t.stem(i, &["overwrit", "overwrote", "clobber", "supersed"]))
        .or_else(|| {
            t.near(
                &|t, i| {
                    t.stem(
                        i,
                        &[
                            "replac", "restor", "rollback", "reseed", "reimport", "reload",
                        ],
                    )
                },
                &|t, j| {
                    t.is(
                        j,
                        &[
                            "database",
                            "databases",
                            "db",
                            "dump",
                            "backup",
                            "backups",
                            "snapshot",
                            "snapshots",
                            "data",
                            "dataset",
                        ],
                    )
                },
                4,
            )
        })
        .or_else(|| {
            t.near(
                &|t, i| t.stem(i, &["load", "import", "seed"]),
                &|t, j| t.is(j, &["dump", "backup", "snapshot", "prod", "production"]),
                4,
            )
        })
}

fn destroy(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.stem(
            i,
            &[
                "destroy",
                "teardown",
                "decommission",
                "deprovision",
                "dismantl",
                "demolish",
                "annihil",
            ],
        )
    })
    .or_else(|| {
        t.after(
            &|t, i| {
                t.is(
                    i,
                    &[
                        "tear", "tearing", "tore", "torn", "shut", "shutting", "bring", "take",
                        "taking",
                    ],
                )
            },
            &|t, j| t.is(j, &["down"]),
            2,
        )
    })
}

fn drop(t: &Text) -> Option<Span> {
    t.any(&drop_words)
}

fn irreversible(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.stem(
            i,
            &[
                "irreversib",
                "irrevocab",
                "irrecoverab",
                "unrecoverab",
                "unrecover",
                "permanent",
                "nonreversib",
                "nonrecoverab",
            ],
        ) || t.is(
            i,
            &[
                "destructive",
                "destructively",
                "destruction",
                "dangerous",
                "unsafe",
                "irretrievable",
                "unrestorable",
                "unreversible",
            ],
        )
    })
    .or_else(|| {
        t.after(
            &|t, i| {
                t.is(
                    i,
                    &[
                        "cannot",
                        "cant",
                        "t",
                        "not",
                        "never",
                        "impossible",
                        "unable",
                        "wont",
                    ],
                )
            },
            &|t, j| {
                t.stem(
                    j,
                    &[
                        "undo", "undone", "revers", "recover", "restor", "revert", "retriev",
                    ],
                )
            },
            3,
        )
    })
    .or_else(|| {
        t.after(
            &|t, i| t.is(i, &["no"]),
            &|t, j| {
                t.is(j, &["undo", "going", "way", "turning"])
                    && (t.is(j, &["undo"]) || t.next_is(j, &["back"]))
            },
            1,
        )
    })
    .or_else(|| {
        t.after(
            &|t, i| t.stem(i, &["data", "work", "chang"]),
            &|t, j| t.is(j, &["loss", "lost", "lose"]),
            2,
        )
    })
}

fn force_flag(t: &Text) -> Option<Span> {
    t.any(&|t, i| {
        t.flag_is(
            i,
            &[
                "force", "hard", "purge", "cascade", "delete", "prune", "yes",
            ],
        ) || (t.is(i, &["preserve"]) && t.prev_is(i, &["no"]) && t.next_is(i, &["root"]))
    })
}

// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests;
