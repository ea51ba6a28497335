//! The secret scrubber: every text askhook stores (question, header, options, answers, free
//! text, notes, errors) passes through [`scrub`] first, so API keys, tokens, passwords and
//! private keys never land in the answer log. A secret is replaced by `[redacted:<kind>]`;
//! the rest of the text, and the record, are kept.
//!
//! | kind | what |
//! |---|---|
//! | `anthropic-key` | `sk-ant-…` |
//! | `openai-key` | `sk-proj-…`, `sk-svcacct-…`, `sk-…` (20+ chars with letters and digits) |
//! | `github-token` | `ghp_` `gho_` `ghs_` `ghu_` `ghr_` (30+ alphanumerics), `github_pat_…` |
//! | `slack-token` | `xoxa-` `xoxb-` `xoxp-` `xoxo-` `xoxs-` `xoxr-` |
//! | `stripe-key` | `sk_live_` `rk_live_` `sk_test_` `rk_test_` (16+ alphanumerics) |
//! | `google-api-key` | `AIza…` (30+) |
//! | `npm-token` | `npm_…` (30+ alphanumerics) |
//! | `gitlab-token` | `glpat-…` |
//! | `aws-access-key-id` | `AKIA` / `ASIA` + exactly 16 of `[A-Z0-9]` |
//! | `aws-secret-key` | 40 chars of `[A-Za-z0-9+/]` that pass the entropy test, or the value of `aws_secret_access_key=` |
//! | `jwt` | `eyJ….eyJ….…` |
//! | `private-key` | `-----BEGIN … PRIVATE KEY-----` … `-----END …-----` (to the end of the text when the END line is missing) |
//! | `password` `secret` `token` `api-key` | the value of `password=` `passwd=` `passphrase=` `secret=` `token=` `api_key=` … (any identifier ending in one: `DB_PASSWORD`, `githubToken`, `client_secret`; in `password`, `passwd`, `passphrase` even without a boundary: `mypassword`, `PGPASSWORD`; `pass` or `pwd` as the last part of a name: `SMTP_PASS`, `MYSQL_PWD`, `db.pass`), with `=`, `:`, `:=`, `=>`, quoted or not, up to the next space, quote or separator (`&` only in a URL query) |
//! | `password` `secret` `token` `api-key` (environment names) | the value of an `UPPER_SNAKE` name with a part that is or ends in `PASSWORD`, `PASSWD`, `PASSPHRASE`, `SECRET`, `TOKEN`, `APIKEY`, or `PASS`/`PWD` (alone or after 1–2 letters: `PGPASS`, `DBPWD`): `SECRET_KEY_BASE`, `OAUTH_CLIENTSECRET`; not when its last part makes it a setting about the secret (`_FILE`, `_PATH`, `_ID`, `_MIN_LENGTH`, `_TTL`, `_URL`, `_USER`, …), not `PWD`, `OLDPWD`, `BYPASS` |
//! | `password` (flags) | `--password VALUE`, `--db-password 'VALUE'`, `--token VALUE` (a long option naming a secret, the next word unless it is another option, a `$VAR`, or a word of prose such as `or`); `-p<password>` glued to the flag on a line running `mysql…` or `mariadb…` |
//! | `bearer-token` `basic-auth` `authorization` | `Authorization: Bearer …` / `Basic …` / other schemes; a bare `Bearer <token>` |
//! | `url-password` | the password in `scheme://user:password@host` |
//! | `hex-secret` | 32+ hex digits with letters and digits, except 40 and 64 long (git commit ids, SHA-256 sums are kept) |
//! | `high-entropy` | 32+ chars of `[A-Za-z0-9+/=_-]` with lower, upper and digits (or 40+ with letters and digits), Shannon entropy ≥ 4 bits/char and frequent character-class changes |
//!
//! Kept on purpose: ordinary words and sentences, paths (`src/components/UserProfile2.tsx`),
//! identifiers (`MY_LONG_ENVIRONMENT_VARIABLE_NAME_2`, `snake_case_with_Version2`), UUIDs,
//! git commit ids, `token=$VAR` / `${VAR}` references, a prose `password: required`
//! (a bare keyword, `:`, then a plain lowercase word), `==` comparisons, `passwordless`,
//! `--password-file PATH`, `--password-stdin`, `pass=12` (a bare `pass` is a test count),
//! `mkdir -p`, `ssh -p2222`, `PWD=/home/u`.
//!
//! ## Performance
//! It runs in the hook hot path in a fresh process, on every stored field, so it is one
//! hand-written, allocation-free pass over the bytes (no regex, no compile step): linear in
//! the input, with per-matcher memos so hostile repetitions (`sk-sk-sk-…`, `a-a-a-…`) cannot
//! make it quadratic. Text with no secret comes back as `Cow::Borrowed`. Everything it matches
//! is ASCII, so every cut falls on a UTF-8 boundary; it cannot panic on any `&str`.

use std::borrow::Cow;

/// `text` with every secret replaced by `[redacted:<kind>]`; borrowed when nothing matched.
/// Idempotent: a redaction can expose another secret (a URL's user part reads as high-entropy
/// once its password is gone), so a text that changed is scrubbed again until it is stable.
pub fn scrub(text: &str) -> Cow<'_, str> {
    let Cow::Owned(mut current) = scrub_once(text) else {
        return Cow::Borrowed(text);
    };
    // Each pass only replaces secrets with shorter markers; three more are plenty.
    for _ in 0..3 {
        match scrub_once(&current) {
            Cow::Borrowed(_) => break,
            Cow::Owned(next) => current = next,
        }
    }
    Cow::Owned(current)
}

/// One pass of [`scrub`].
fn scrub_once(text: &str) -> Cow<'_, str> {
    let spans = find(text);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in &spans {
        out.push_str(&text[at..span.start]);
        out.push_str("[redacted:");
        out.push_str(span.kind);
        out.push(']');
        at = span.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

/// [`scrub`] for an owned string: returns it unchanged (no copy) when nothing matched.
pub fn scrub_string(text: String) -> String {
    match scrub(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(clean) => clean,
    }
}

/// [`scrub_string`] on an optional field.
pub fn scrub_option(text: Option<String>) -> Option<String> {
    text.map(scrub_string)
}

/// One secret found: the byte range to replace and its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

/// Tokens longer than this are not scanned further (a match consumes up to here, then the
/// scan resumes); keeps every matcher's work bounded.
const MAX_TOKEN: usize = 16 * 1024;

fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn is_key_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}
fn is_word_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn is_upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
/// The characters of a generic high-entropy run (base64, base64url, hex).
fn is_run_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-')
}
/// The characters of an identifier that may end in a secret keyword (`spring.datasource.password`).
fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}
fn is_token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'~' | b'+' | b'/' | b'=' | b'-')
}

/// A provider token: a fixed, case-sensitive prefix and a body.
struct Prefixed {
    prefix: &'static [u8],
    kind: &'static str,
    body: fn(u8) -> bool,
    min: usize,
    /// Exactly `min` body chars (AWS key ids).
    exact: bool,
    /// The body needs letters and digits (for the weak `sk-` prefix).
    mixed: bool,
}

const fn p(prefix: &'static str, kind: &'static str, body: fn(u8) -> bool, min: usize) -> Prefixed {
    Prefixed {
        prefix: prefix.as_bytes(),
        kind,
        body,
        min,
        exact: false,
        mixed: false,
    }
}

/// Longest prefixes first where one is a prefix of another (`sk-ant-` before `sk-`).
const PREFIXED: &[Prefixed] = &[
    p("sk-ant-", "anthropic-key", is_key_char, 20),
    p("sk-proj-", "openai-key", is_key_char, 20),
    p("sk-svcacct-", "openai-key", is_key_char, 20),
    p("sk-admin-", "openai-key", is_key_char, 20),
    Prefixed {
        mixed: true,
        ..p("sk-", "openai-key", is_key_char, 20)
    },
    p("sk_live_", "stripe-key", is_alnum, 16),
    p("rk_live_", "stripe-key", is_alnum, 16),
    p("sk_test_", "stripe-key", is_alnum, 16),
    p("rk_test_", "stripe-key", is_alnum, 16),
    p("ghp_", "github-token", is_alnum, 30),
    p("gho_", "github-token", is_alnum, 30),
    p("ghs_", "github-token", is_alnum, 30),
    p("ghu_", "github-token", is_alnum, 30),
    p("ghr_", "github-token", is_alnum, 30),
    p("github_pat_", "github-token", is_word_char, 22),
    p("glpat-", "gitlab-token", is_key_char, 20),
    p("xoxa-", "slack-token", is_key_char, 10),
    p("xoxb-", "slack-token", is_key_char, 10),
    p("xoxp-", "slack-token", is_key_char, 10),
    p("xoxo-", "slack-token", is_key_char, 10),
    p("xoxs-", "slack-token", is_key_char, 10),
    p("xoxr-", "slack-token", is_key_char, 10),
    p("AIza", "google-api-key", is_key_char, 30),
    p("npm_", "npm-token", is_alnum, 30),
    Prefixed {
        exact: true,
        ..p("AKIA", "aws-access-key-id", is_upper_digit, 16)
    },
    Prefixed {
        exact: true,
        ..p("ASIA", "aws-access-key-id", is_upper_digit, 16)
    },
];

/// Secret keywords an identifier may end with, and the kind of their value.
const KEYWORDS: &[(&str, &str)] = &[
    ("password", "password"),
    ("passwd", "password"),
    ("passphrase", "password"),
    ("secret", "secret"),
    ("secret_key", "secret"),
    ("secretkey", "secret"),
    ("private_key", "secret"),
    ("token", "token"),
    ("api_key", "api-key"),
    ("api-key", "api-key"),
    ("apikey", "api-key"),
    ("access_key", "api-key"),
    ("authorization", "authorization"),
];

/// Per-matcher memos: a matcher that failed at some start having scanned to `until` fails at
/// every later start before `until` too (same end, fewer chars), so it is not tried there.
struct Memo {
    prefixed: [usize; PREFIXED.len()],
    ident_until: usize,
    jwt_until: usize,
    bearer_until: usize,
    generic_until: usize,
}

/// Every secret in `text`, in order, not overlapping.
pub fn find(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut memo = Memo {
        prefixed: [0; PREFIXED.len()],
        ident_until: 0,
        jwt_until: 0,
        bearer_until: 0,
        generic_until: 0,
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'-' && bytes[i..].starts_with(b"-----BEGIN ") {
            if let Some(end) = private_key_block(bytes, i) {
                spans.push(Span {
                    start: i,
                    end,
                    kind: "private-key",
                });
                i = end;
                continue;
            }
        }
        if b == b':' && bytes[i..].starts_with(b"://") {
            if let Some(span) = url_password(bytes, i + 3) {
                i = span.end;
                spans.push(span);
                continue;
            }
        }
        if !b.is_ascii_alphanumeric() || (i > 0 && is_alnum(bytes[i - 1])) {
            i += 1;
            continue;
        }
        // `i` starts a word: try the specific matchers, most specific first.
        if let Some((found, resume)) = at_word(bytes, i, &mut memo) {
            spans.extend(found);
            i = resume;
        } else {
            i += 1;
        }
    }
    spans
}

/// What starts at the word at `i`: maybe a secret, and where to resume; `None` when nothing
/// does (the caller moves on by one byte).
fn at_word(bytes: &[u8], i: usize, memo: &mut Memo) -> Option<(Option<Span>, usize)> {
    let b = bytes[i];
    if let Some(span) = prefixed(bytes, i, memo) {
        return Some((Some(span), span.end));
    }
    if b == b'p' {
        if let Some(span) = mysql_password(bytes, i) {
            return Some((Some(span), span.end));
        }
    }
    if b == b'e' && i >= memo.jwt_until {
        match jwt(bytes, i) {
            Ok(end) => {
                let kind = "jwt";
                return Some((
                    Some(Span {
                        start: i,
                        end,
                        kind,
                    }),
                    end,
                ));
            }
            Err(until) => memo.jwt_until = until,
        }
    }
    if i >= memo.ident_until {
        match assignment(bytes, i) {
            Ok(found) => return Some((found.span, found.resume)),
            Err(until) => memo.ident_until = until,
        }
    }
    if (b == b'B' || b == b'b') && i >= memo.bearer_until {
        match bare_bearer(bytes, i) {
            Ok(span) => return Some((Some(span), span.end)),
            Err(until) => memo.bearer_until = until,
        }
    }
    // A generic run is judged once, from its first alphanumeric (so `/9j/4AAQ…` and
    // `--x=…` are judged too, and `--token=…` is first seen as an assignment).
    if i >= memo.generic_until {
        let end = run_end(bytes, i, is_run_char);
        memo.generic_until = end;
        if let Some(kind) = high_entropy(&bytes[i..end]) {
            return Some((
                Some(Span {
                    start: i,
                    end,
                    kind,
                }),
                end,
            ));
        }
    }
    None
}

/// The end of the run of `class` chars from `start`, at most [`MAX_TOKEN`] long.
fn run_end(bytes: &[u8], start: usize, class: fn(u8) -> bool) -> usize {
    let limit = bytes.len().min(start.saturating_add(MAX_TOKEN));
    let mut end = start;
    while end < limit && class(bytes[end]) {
        end += 1;
    }
    end
}

fn prefixed(bytes: &[u8], i: usize, memo: &mut Memo) -> Option<Span> {
    let rest = &bytes[i..];
    for (n, rule) in PREFIXED.iter().enumerate() {
        if rest.first() != rule.prefix.first() || !rest.starts_with(rule.prefix) {
            continue;
        }
        if i < memo.prefixed[n] {
            continue;
        }
        let body = i + rule.prefix.len();
        let end = run_end(bytes, body, rule.body);
        let len = end - body;
        let long_enough = if rule.exact {
            len == rule.min && bytes.get(end).is_none_or(|b| !is_alnum(*b))
        } else {
            len >= rule.min
        };
        let mixed = !rule.mixed || {
            let body = &bytes[body..end];
            body.iter().any(u8::is_ascii_digit) && body.iter().any(u8::is_ascii_alphabetic)
        };
        if long_enough && mixed {
            return Some(Span {
                start: i,
                end,
                kind: rule.kind,
            });
        }
        memo.prefixed[n] = end;
    }
    None
}

/// The provider kind of a whole value (`GITHUB_TOKEN=ghp_…` is a `github-token`).
fn provider_kind(value: &[u8]) -> Option<&'static str> {
    let mut memo = Memo {
        prefixed: [0; PREFIXED.len()],
        ident_until: 0,
        jwt_until: 0,
        bearer_until: 0,
        generic_until: 0,
    };
    if let Some(span) = prefixed(value, 0, &mut memo) {
        return Some(span.kind);
    }
    jwt(value, 0).ok().map(|_| "jwt")
}

/// `eyJ<seg>.eyJ<seg>.<sig>`: Ok(end) or Err(how far it scanned without a match).
fn jwt(bytes: &[u8], i: usize) -> Result<usize, usize> {
    let segment = |start: usize| -> Option<usize> {
        if !bytes[start.min(bytes.len())..].starts_with(b"eyJ") {
            return None;
        }
        let end = run_end(bytes, start, is_key_char);
        (end - start >= 10).then_some(end)
    };
    let Some(header_end) = segment(i) else {
        return Err(i + 1);
    };
    if bytes.get(header_end) != Some(&b'.') {
        return Err(header_end);
    }
    let Some(payload_end) = segment(header_end + 1) else {
        return Err(header_end);
    };
    if bytes.get(payload_end) != Some(&b'.') {
        return Err(header_end);
    }
    Ok(run_end(bytes, payload_end + 1, is_key_char))
}

/// What an assignment matcher found: maybe a value to redact, and where to resume.
struct Assignment {
    span: Option<Span>,
    resume: usize,
}

/// The secret kind an identifier names (`DB_PASSWORD` → `password`): it ends in a keyword at a
/// word boundary, or in `password` / `passwd` / `passphrase` anywhere (`mypassword`,
/// `PGPASSWORD`), or its last part is `pass` / `pwd` after another (`SMTP_PASS`, `db.pwd`),
/// or it is an environment-style name with such a part ([`env_kind`]).
fn keyword_kind(ident: &[u8]) -> Option<&'static str> {
    let kind = KEYWORDS
        .iter()
        .find_map(|(word, kind)| {
            let word = word.as_bytes();
            if ident.len() < word.len()
                || !ident[ident.len() - word.len()..].eq_ignore_ascii_case(word)
            {
                return None;
            }
            let at = ident.len() - word.len();
            let boundary = at == 0
                || matches!(ident[at - 1], b'_' | b'-' | b'.')
                || (ident[at].is_ascii_uppercase() && ident[at - 1].is_ascii_lowercase())
                || kind == &"password";
            boundary.then_some(*kind)
        })
        .or_else(|| last_part_kind(ident))
        .or_else(|| env_kind(ident))?;
    let aws_secret = ident.windows(3).any(|w| w.eq_ignore_ascii_case(b"aws"))
        && ident.windows(6).any(|w| w.eq_ignore_ascii_case(b"secret"));
    Some(if aws_secret { "aws-secret-key" } else { kind })
}

/// `pass` or `pwd` as the last part of a dotted, dashed or snake name (`SMTP_PASS`,
/// `db.pwd`). Alone they are not enough: `pass=12` is a test count, `PWD` the current folder.
fn last_part_kind(ident: &[u8]) -> Option<&'static str> {
    let at = ident
        .iter()
        .rposition(|b| matches!(b, b'_' | b'-' | b'.'))?;
    let last = &ident[at + 1..];
    (at > 0 && (last.eq_ignore_ascii_case(b"pass") || last.eq_ignore_ascii_case(b"pwd")))
        .then_some("password")
}

/// Secret words of environment-style names (`UPPER_SNAKE`), matched per `_`-separated part:
/// a part that is the word, or ends with it (`PGPASSWORD`, `CLIENTSECRET`, `APITOKEN`). The
/// short `PASS` and `PWD` also end a part after one or two letters (`PGPASS`, `DBPWD`), but
/// not `BYPASS` or `OLDPWD`.
const ENV_WORDS: &[(&str, &str)] = &[
    ("PASSWORD", "password"),
    ("PASSWD", "password"),
    ("PASSPHRASE", "password"),
    ("SECRET", "secret"),
    ("TOKEN", "token"),
    ("APIKEY", "api-key"),
];

/// Last parts that make an environment-style name a setting *about* a secret, not one:
/// `GITHUB_TOKEN_FILE`, `PASSWORD_MIN_LENGTH`, `TOKEN_TTL`.
const ENV_NOT_SECRET: &[&str] = &[
    "FILE",
    "PATH",
    "DIR",
    "ID",
    "LENGTH",
    "LEN",
    "MIN",
    "MAX",
    "TTL",
    "TIMEOUT",
    "EXPIRY",
    "EXPIRES",
    "COUNT",
    "SIZE",
    "TYPE",
    "MODE",
    "ENABLED",
    "REQUIRED",
    "POLICY",
    "HASHER",
    "ALGORITHM",
    "FORMAT",
    "PROMPT",
    "CMD",
    "COMMAND",
    "HELPER",
    "URL",
    "HOST",
    "PORT",
    "USER",
];

/// The secret kind of an environment-style name holding a secret word in one of its parts
/// (`MYSQL_PWD`, `PGPASSWORD`, `SECRET_KEY_BASE`), unless its last part says it is about the
/// secret (`TOKEN_FILE`).
fn env_kind(ident: &[u8]) -> Option<&'static str> {
    let env_style = ident.first().is_some_and(u8::is_ascii_uppercase)
        && ident
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_');
    if !env_style {
        return None;
    }
    let last = ident.rsplit(|b| *b == b'_').next().unwrap_or_default();
    if ENV_NOT_SECRET.iter().any(|w| w.as_bytes() == last) {
        return None;
    }
    let several = ident.contains(&b'_');
    ident.split(|b| *b == b'_').find_map(|part| {
        let word = ENV_WORDS
            .iter()
            .find(|(w, _)| part.ends_with(w.as_bytes()))
            .map(|(_, kind)| *kind);
        let short = ["PASS", "PWD"].iter().any(|w| {
            part.ends_with(w.as_bytes())
                && match part.len() - w.len() {
                    0 => several,
                    1 | 2 => part != b"BYPASS",
                    _ => false,
                }
        });
        word.or(short.then_some("password"))
    })
}

/// The assignment operator at `j` (`=`, `=>`, `:=`, `:`; not `==` or `::`): where the value
/// may start, and whether it was a bare `:`.
fn operator(bytes: &[u8], mut j: usize) -> Option<(usize, bool)> {
    while matches!(bytes.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    let (len, colon) = match (bytes.get(j), bytes.get(j + 1)) {
        (Some(b'='), Some(b'=')) | (Some(b':'), Some(b':')) => return None,
        (Some(b'='), Some(b'>')) | (Some(b':'), Some(b'=')) => (2, false),
        (Some(b'='), _) => (1, false),
        (Some(b':'), _) => (1, true),
        _ => return None,
    };
    j += len;
    while matches!(bytes.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    Some((j, colon))
}

/// The value starting at `j`: its quote, if any, and its byte range (inside the quotes). An
/// unquoted value runs to the next space, quote or separator; `&` separates only in a URL
/// query (`in_query`), elsewhere it is part of the value (`password=Xk29&fjw0q`).
fn value_bounds(bytes: &[u8], j: usize, in_query: bool) -> (Option<u8>, usize, usize) {
    if let Some(q @ (b'"' | b'\'' | b'`')) = bytes.get(j).copied() {
        let start = j + 1;
        let mut end = start;
        while end < bytes.len() && bytes[end] != q && bytes[end] != b'\n' {
            end += if bytes[end] == b'\\' && end + 1 < bytes.len() && bytes[end + 1] != b'\n' {
                2
            } else {
                1
            };
        }
        return (Some(q), start, end.min(bytes.len()));
    }
    let end = (j..bytes.len())
        .find(|&k| {
            bytes[k].is_ascii_whitespace()
                || (bytes[k] == b'&' && in_query)
                || matches!(
                    bytes[k],
                    b',' | b';' | b')' | b'}' | b']' | b'"' | b'\'' | b'<' | b'>' | b'`'
                )
        })
        .unwrap_or(bytes.len());
    (None, j, end)
}

/// `<identifier ending in a keyword> [quote] (=|:|:=|=>) [quote]value`.
/// Err(until) when `i` starts no such assignment (nor does any start before `until`).
fn assignment(bytes: &[u8], i: usize) -> Result<Assignment, usize> {
    let ident_end = run_end(bytes, i, is_ident_char);
    let kind = keyword_kind(&bytes[i..ident_end]).ok_or(ident_end)?;
    let key_quoted = i > 0 && matches!(bytes[i - 1], b'"' | b'\'');
    let mut j = ident_end;
    if key_quoted && matches!(bytes.get(j), Some(b'"' | b'\'')) {
        j += 1;
    }
    let Some((j, colon)) = operator(bytes, j) else {
        return flag_value(bytes, i, ident_end, kind).ok_or(ident_end);
    };
    let none = |resume| Ok(Assignment { span: None, resume });
    let in_query = i > 0 && matches!(bytes[i - 1], b'?' | b'&');
    let (quote, start, end) = value_bounds(bytes, j, in_query);
    let value = &bytes[start..end];
    if value.is_empty() || is_reference(value) {
        return none(end.max(ident_end));
    }
    let scheme_follows = kind == "authorization"
        && matches!(bytes.get(end), Some(b' ' | b'\t'))
        && bytes.get(end + 1).is_some_and(|b| !b.is_ascii_whitespace());
    let bare = KEYWORDS
        .iter()
        .any(|(word, _)| bytes[i..ident_end].eq_ignore_ascii_case(word.as_bytes()));
    if colon && bare && quote.is_none() && !key_quoted && !scheme_follows && is_prose_word(value) {
        // Prose: "password: required" (a compound name is a setting: `dbpassword: letmein`).
        return none(end);
    }
    if kind == "authorization" {
        return Ok(authorization(bytes, start, end, quote.is_some()));
    }
    let kind = provider_kind(value).unwrap_or(kind);
    Ok(Assignment {
        span: Some(Span { start, end, kind }),
        resume: end,
    })
}

/// A value that only refers to a secret held elsewhere (`$VAR`, `%VAR%`, `{{ var }}`), or one
/// already redacted.
fn is_reference(value: &[u8]) -> bool {
    value.starts_with(b"[redacted:")
        || value.starts_with(b"$")
        || value.starts_with(b"%")
        || value.starts_with(b"{{")
}

/// Words that follow a `--password` flag in prose rather than a password
/// ("use --password or an env var").
const FLAG_PROSE: &[&str] = &[
    "a", "an", "and", "argument", "as", "can", "flag", "for", "from", "if", "in", "instead", "is",
    "it", "must", "not", "of", "on", "only", "option", "or", "should", "that", "the", "to", "was",
    "when", "which", "will", "with", "you",
];

/// `--password VALUE`: a long option naming a secret, its value the next word (a quoted one,
/// or any word that is no other option, no reference and no word of prose).
fn flag_value(bytes: &[u8], i: usize, ident_end: usize, kind: &'static str) -> Option<Assignment> {
    let long_option = i >= 2
        && bytes[i - 2..i] == *b"--"
        && (i == 2
            || matches!(
                bytes[i - 3],
                b' ' | b'\t' | b'\n' | b'"' | b'\'' | b'`' | b'('
            ));
    if !long_option || !matches!(bytes.get(ident_end), Some(b' ' | b'\t')) {
        return None;
    }
    let mut j = ident_end;
    while matches!(bytes.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    if bytes.get(j).is_none_or(|b| *b == b'-') || is_reference(&bytes[j..]) {
        return None;
    }
    let (quote, start, end) = value_bounds(bytes, j, false);
    let value = &bytes[start..end];
    if is_reference(value) {
        return None;
    }
    let word = value
        .iter()
        .rposition(|b| !matches!(b, b'.' | b',' | b'?' | b'!' | b':'))
        .map_or(&value[..0], |last| &value[..=last]);
    let prose = quote.is_none() && FLAG_PROSE.iter().any(|w| w.as_bytes() == word);
    if value.is_empty() || prose {
        return None;
    }
    let kind = provider_kind(value).unwrap_or(kind);
    Some(Assignment {
        span: Some(Span { start, end, kind }),
        resume: end,
    })
}

/// `-p<password>` glued to the flag, on a line that runs `mysql`, `mysqldump`, `mariadb`, …:
/// for other commands `-p` means something else (`mkdir -p`, `git add -p`, `ssh -p 22`).
fn mysql_password(bytes: &[u8], i: usize) -> Option<Span> {
    let flag = bytes[i] == b'p'
        && i >= 1
        && bytes[i - 1] == b'-'
        && (i == 1 || matches!(bytes[i - 2], b' ' | b'\t' | b'"' | b'\'' | b'`' | b'('));
    let value_at = i + 1;
    let glued = bytes
        .get(value_at)
        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'-');
    if !flag || !glued || is_reference(&bytes[value_at..]) || !mysql_on_line(bytes, i - 1) {
        return None;
    }
    let (_, start, end) = value_bounds(bytes, value_at, false);
    (end > start && !is_reference(&bytes[start..end])).then_some(Span {
        start,
        end,
        kind: "password",
    })
}

/// Whether the 256 bytes before `at`, on the same line, name a `mysql` or `mariadb` client.
fn mysql_on_line(bytes: &[u8], at: usize) -> bool {
    let window = &bytes[at.saturating_sub(256)..at];
    let line = window
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(window, |n| &window[n + 1..]);
    (0..line.len()).any(|k| {
        (line[k..].starts_with(b"mysql") || line[k..].starts_with(b"mariadb"))
            && (k == 0 || !line[k - 1].is_ascii_alphanumeric())
    })
}

/// A plain lowercase word, perhaps ending a sentence (`required`, `middleware?`).
fn is_prose_word(value: &[u8]) -> bool {
    let word = value
        .iter()
        .rposition(|b| !matches!(b, b'.' | b'?' | b'!' | b':'))
        .map_or(&value[..0], |last| &value[..=last]);
    !word.is_empty() && word.iter().all(u8::is_ascii_lowercase)
}

/// The value of an `Authorization` header: keep the scheme, redact the credentials.
fn authorization(bytes: &[u8], start: usize, end: usize, quoted: bool) -> Assignment {
    let scheme_end = run_end(bytes, start, |b| b.is_ascii_alphabetic());
    let scheme = &bytes[start..scheme_end];
    let has_scheme = !scheme.is_empty()
        && scheme.len() <= 16
        && matches!(bytes.get(scheme_end), Some(b' ' | b'\t'));
    if !has_scheme {
        return Assignment {
            span: Some(Span {
                start,
                end,
                kind: "authorization",
            }),
            resume: end,
        };
    }
    let mut cred = scheme_end;
    while matches!(bytes.get(cred), Some(b' ' | b'\t')) {
        cred += 1;
    }
    // Unquoted, the value stopped at the space after the scheme: take the next word.
    let cred_end = if quoted {
        end
    } else {
        (cred..bytes.len())
            .find(|&k| bytes[k].is_ascii_whitespace() || matches!(bytes[k], b'"' | b'\'' | b'`'))
            .unwrap_or(bytes.len())
    };
    if cred_end <= cred || bytes[cred..].starts_with(b"[redacted:") || bytes[cred] == b'$' {
        return Assignment {
            span: None,
            resume: cred_end.max(scheme_end),
        };
    }
    let kind = if scheme.eq_ignore_ascii_case(b"bearer") {
        "bearer-token"
    } else if scheme.eq_ignore_ascii_case(b"basic") {
        "basic-auth"
    } else {
        "authorization"
    };
    Assignment {
        span: Some(Span {
            start: cred,
            end: cred_end,
            kind,
        }),
        resume: cred_end,
    }
}

/// `Bearer <token>` outside a header: a 16+ char token with a digit.
fn bare_bearer(bytes: &[u8], i: usize) -> Result<Span, usize> {
    if !bytes[i..]
        .get(..6)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"bearer"))
    {
        return Err(i + 1);
    }
    let mut j = i + 6;
    if !matches!(bytes.get(j), Some(b' ' | b'\t')) {
        return Err(j);
    }
    while matches!(bytes.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    let end = run_end(bytes, j, is_token_char);
    let token = &bytes[j..end];
    if token.len() >= 16 && token.iter().any(u8::is_ascii_digit) {
        Ok(Span {
            start: j,
            end,
            kind: "bearer-token",
        })
    } else {
        Err(j)
    }
}

/// `-----BEGIN … PRIVATE KEY-----` through its END line (or the end of the text).
fn private_key_block(bytes: &[u8], i: usize) -> Option<usize> {
    let header = i + b"-----BEGIN ".len();
    let label_end = run_end(bytes, header, |b| {
        b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' '
    });
    let label = &bytes[header..label_end];
    if !label.windows(11).any(|w| w == b"PRIVATE KEY") || !bytes[label_end..].starts_with(b"-----")
    {
        return None;
    }
    let after = label_end + 5;
    let end = find_bytes(&bytes[after..], b"-----END ")
        .and_then(|k| {
            let end_label = after + k + b"-----END ".len();
            find_bytes(&bytes[end_label..], b"-----").map(|m| end_label + m + 5)
        })
        .unwrap_or(bytes.len());
    Some(end)
}

fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// `user:password@` after `scheme://`: the password's span.
fn url_password(bytes: &[u8], start: usize) -> Option<Span> {
    let limit = bytes.len().min(start + 512);
    let mut colon = None;
    for k in start..limit {
        match bytes[k] {
            b':' if colon.is_none() => colon = Some(k),
            b'@' => {
                let c = colon?;
                if c == start || k == c + 1 || find_bytes(&bytes[start..k], b"[redacted:").is_some()
                {
                    return None;
                }
                return Some(Span {
                    start: c + 1,
                    end: k,
                    kind: "url-password",
                });
            }
            b'/' | b'?' | b'#' | b' ' | b'\t' | b'\n' | b'"' | b'\'' | b'<' | b'>' => return None,
            _ => {}
        }
    }
    None
}

/// Whether a run of base64/hex chars looks like a random secret, and which kind.
fn high_entropy(run: &[u8]) -> Option<&'static str> {
    let trimmed = run
        .strip_suffix(b"==")
        .or_else(|| run.strip_suffix(b"="))
        .unwrap_or(run);
    if trimmed.len() < 32 || is_uuid(run) {
        return None;
    }
    let (mut lower, mut upper, mut digit) = (false, false, false);
    for &b in trimmed {
        match b {
            b'a'..=b'z' => lower = true,
            b'A'..=b'Z' => upper = true,
            b'0'..=b'9' => digit = true,
            _ => {}
        }
    }
    let entropy = shannon(trimmed);
    if trimmed.iter().all(u8::is_ascii_hexdigit) {
        let hashlike = matches!(trimmed.len(), 40 | 64);
        let mixed = digit && (lower || upper) && !(lower && upper);
        return (mixed && !hashlike && entropy >= 3.0).then_some("hex-secret");
    }
    let changes = class_change_ratio(trimmed);
    let three_classes =
        lower && upper && digit && entropy >= 4.0 && changes >= 0.3 && wordiness(trimmed) <= 0.72;
    let digits = trimmed.iter().filter(|b| b.is_ascii_digit()).count() as f64;
    let two_classes = !three_classes
        && trimmed.len() >= 40
        && digits / trimmed.len() as f64 >= 0.15
        && entropy >= 4.0
        && changes >= 0.25;
    if !(three_classes || two_classes) {
        return None;
    }
    let aws_alphabet = run
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'));
    if three_classes && run.len() == 40 && aws_alphabet {
        return Some("aws-secret-key");
    }
    Some("high-entropy")
}

fn is_uuid(run: &[u8]) -> bool {
    run.len() == 36
        && run.iter().enumerate().all(|(k, b)| match k {
            8 | 13 | 18 | 23 => *b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// How often adjacent alphanumerics change class (lower / upper / digit): about 0.6 for random
/// base64, under 0.3 for camelCase words and paths.
fn class_change_ratio(run: &[u8]) -> f64 {
    let class = |b: u8| match b {
        b'a'..=b'z' => 0,
        b'A'..=b'Z' => 1,
        _ => 2,
    };
    let (mut pairs, mut changes) = (0usize, 0usize);
    for w in run.windows(2) {
        if w[0].is_ascii_alphanumeric() && w[1].is_ascii_alphanumeric() {
            pairs += 1;
            changes += usize::from(class(w[0]) != class(w[1]));
        }
    }
    if pairs == 0 {
        0.0
    } else {
        changes as f64 / pairs as f64
    }
}

/// The share of chars inside word-like pieces (`Word`, `word` of 3+ lowercase letters,
/// `WORD` of 4+ capitals): near 1 for identifiers and paths, rarely above 0.7 for random
/// base64.
fn wordiness(run: &[u8]) -> f64 {
    let mut in_words = 0usize;
    let mut k = 0;
    while k < run.len() {
        let uppers = run[k..]
            .iter()
            .take_while(|b| b.is_ascii_uppercase())
            .count();
        let lowers = run[k + uppers..]
            .iter()
            .take_while(|b| b.is_ascii_lowercase())
            .count();
        if uppers + lowers == 0 {
            k += 1;
            continue;
        }
        if uppers >= 4 {
            in_words += uppers;
        }
        if lowers >= 3 {
            in_words += lowers + usize::from((1..4).contains(&uppers));
        }
        k += uppers + lowers;
    }
    in_words as f64 / run.len() as f64
}

/// Shannon entropy in bits per byte.
fn shannon(run: &[u8]) -> f64 {
    let mut counts = [0u32; 256];
    for &b in run {
        counts[b as usize] += 1;
    }
    let n = run.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * log2(p)
        })
        .sum()
}

/// `log2(x)` for `x > 0`, to within a few ulps, without `libm`: `f64::log2` calls `libm`'s, and
/// this and SQLite's FTS5 (compiled out, see `.cargo/config.toml`) were the only reasons the
/// binary loaded `libm.so`, about 0.1 ms of every hook run.
fn log2(x: f64) -> f64 {
    debug_assert!(x > 0.0 && x.is_finite());
    let bits = x.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    // The mantissa as m in [1, 2); subnormals do not occur here (p >= 1 / run length).
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        exponent += 1;
    }
    // ln(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.172: the series converges fast.
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut term = s;
    let mut sum = 0.0;
    let mut k = 1.0;
    while term.abs() > 1e-18 {
        sum += term / k;
        term *= s2;
        k += 2.0;
    }
    exponent as f64 + 2.0 * sum * std::f64::consts::LOG2_E
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log2_matches_the_library_one() {
        let mut x = 1e-6;
        while x < 1e6 {
            let (ours, std) = (log2(x), x.log2());
            assert!(
                (ours - std).abs() <= 4.0 * f64::EPSILON * std.abs().max(1.0),
                "log2({x}) = {ours}, std says {std}"
            );
            x *= 1.0137;
        }
        // Exact: powers of two have exact logarithms.
        #[allow(clippy::float_cmp)]
        for (x, want) in [(1.0, 0.0), (8.0, 3.0), (0.5, -1.0)] {
            assert_eq!(log2(x), want, "log2({x})");
        }
    }

    /// Secrets that must be redacted: (name, text, the kind expected, a part that must survive).
    const REDACTED: &[(&str, &str, &str, &str)] = &[
        ("anthropic", "use sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefghij please", "anthropic-key", "please"),
        ("openai project", "key sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34 ok", "openai-key", "key "),
        ("openai legacy", "sk-1234567890abcdefABCDEF1234567890abcdefABCD", "openai-key", ""),
        ("github classic", "token ghp_16C7e42F292c6912E7710c838347Ae178B4a here", "github-token", "here"),
        ("github oauth", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "github-token", ""),
        ("github server", "ghs_16C7e42F292c6912E7710c838347Ae178B4a", "github-token", ""),
        ("github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU", "github-token", ""),
        ("slack bot", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack-token", ""),
        ("slack user", "(xoxp-1234-5678-abcdefghij)", "slack-token", ")"),
        ("stripe live", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe-key", ""),
        ("stripe restricted", "rk_live_4eC39HqLyjWDarjtT1zdp7dc", "stripe-key", ""),
        ("google", "maps key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY.", "google-api-key", "maps key"),
        ("npm", "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm-token", "registry"),
        ("gitlab", "glpat-xxxxXXXX1234yyyyYYYY", "gitlab-token", ""),
        ("aws key id", "AWS_ACCESS_KEY_ID AKIAIOSFODNN7EXAMPLE", "aws-access-key-id", "AWS_ACCESS_KEY_ID"),
        ("aws session key id", "ASIAY34FZKBOKMUTVV7A", "aws-access-key-id", ""),
        ("aws secret bare", "secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok", "aws-secret-key", "ok"),
        ("aws secret assigned", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key", "aws_secret_access_key = "),
        ("jwt", "Authorization header eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c end", "jwt", "end"),
        ("private key", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----\nafter", "private-key", "after"),
        ("openssh key truncated", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", "private-key", ""),
        ("password=", "connect with password=hunter2 now", "password", "now"),
        ("env password", "DB_PASSWORD=correct-horse", "password", "DB_PASSWORD="),
        ("passwd colon", "passwd: S3cr3t!", "password", "passwd: "),
        ("json password", r#"{"password": "p@ss word"}"#, "password", r#"{"password": ""#),
        ("yaml quoted", "password: 'letmein'", "password", "password: '"),
        ("secret=", "client_secret=abc123def", "secret", "client_secret="),
        ("token=", "https://x.test/cb?token=abcDEF123&next=1", "token", "&next=1"),
        ("camel token", "githubToken: \"ghp_16C7e42F292c6912E7710c838347Ae178B4a\"", "github-token", "githubToken"),
        ("api_key", "api_key=0123-4567", "api-key", "api_key="),
        ("api-key header", "X-Api-Key: Zx9-88-qq", "api-key", "X-Api-Key: "),
        ("apikey", "apiKey := \"abc\"", "api-key", "apiKey"),
        ("dotted", "spring.datasource.password=tiger", "password", "spring.datasource.password="),
        ("bearer header", "curl -H 'Authorization: Bearer abc.def-123_XYZ' https://api", "bearer-token", "Authorization: Bearer "),
        ("basic header", "Authorization: Basic dXNlcjpwYXNz", "basic-auth", "Authorization: Basic "),
        ("token scheme", "authorization: token 0123abcd", "authorization", "authorization: token "),
        ("lowercase bearer", "authorization: bearer abc", "bearer-token", "authorization: bearer "),
        ("bare bearer", "send Bearer 9f8e7d6c5b4a3f2e1d0c", "bearer-token", "send Bearer "),
        ("url password", "postgres://admin:s3cr3t@db.internal:5432/app", "url-password", "postgres://admin:"),
        ("hex secret", "key 8f14e45fceea167a5a36dedd4bea2543 ok", "hex-secret", "ok"),
        ("high entropy", "value Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZkdISUpLTE1O end", "high-entropy", "end"),
        ("base64url", "q8Xr-2Lk_Vb9Tz4Wn7Pm1Hs6Jd3Fg5Ca0Ye", "high-entropy", ""),
        ("after a slash", "data /9j/4AAQSkZJRgABAQEASABIAAD2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODw0 end", "high-entropy", "data /"),
        ("flag value", "--key=q8Xr2LkVb9Tz4Wn7Pm1Hs6Jd3Fg5Ca0YeU", "high-entropy", "--"),
        ("hex in userinfo", "://a00aa00aa0a00001aa1be36bc224cbd5@", "hex-secret", "@"),
        ("lower and digits", "x 9a8s7d6f5g4h3j2k1l0qwe9r8t7y6u5i4o3p2z1x0c end", "high-entropy", "end"),
        // Issue #12.12: passwords in the names and flags database tools use.
        ("PGPASSWORD", "PGPASSWORD=s3cr3t-pg psql -h db", "password", "psql -h db"),
        ("PGPASS", "PGPASS=x9 psql", "password", "PGPASS="),
        ("MYSQL_PWD", "MYSQL_PWD=Hunter2 mysql -u root", "password", "mysql -u root"),
        ("SMTP_PASS", "SMTP_PASS=mailpass99", "password", "SMTP_PASS="),
        ("dotted pass", "db.pass=tiger", "password", "db.pass="),
        ("dbpassword colon", "dbpassword: letmein", "password", "dbpassword: "),
        ("mypassword", "mypassword=abc", "password", "mypassword="),
        ("env secret in the middle", "SECRET_KEY_BASE=9f8e7d", "secret", "SECRET_KEY_BASE="),
        ("env secret glued", "OAUTH_CLIENTSECRET=abc", "secret", "OAUTH_CLIENTSECRET="),
        ("env token glued", "export APITOKEN=abc", "token", "export APITOKEN="),
        ("mysql -p", "mysql -u root -pHunter2Secret shop", "password", " shop"),
        ("mysqldump -p quoted", "mysqldump -p'Hunter 2' shop > dump.sql", "password", "shop > dump.sql"),
        ("mariadb -p", "mariadb -pS3cret", "password", "mariadb -p"),
        ("--password value", "pg_dump --password Hunter2Secret db", "password", " db"),
        ("--password=value", "mycli --password=Hunter2Secret", "password", "--password="),
        ("--token value", "gh auth login --token abc123def", "token", "--token "),
        ("--db-password quoted", "--db-password 'correct horse'", "password", "--db-password '"),
        ("password with &", "password=Xk29&fjw0q", "password", "password="),
    ];

    /// Near misses that must be kept byte for byte.
    const KEPT: &[(&str, &str)] = &[
        ("prose", "Should I rotate the API token before the release?"),
        ("token count", "max_tokens: 1024 and tokenizer=bert"),
        ("password prose", "password: required"),
        ("password field", "Add a password field to the signup form?"),
        ("comparison", "if token == expected {"),
        ("rust path", "std::token::Token"),
        ("env reference", "password=$DB_PASSWORD and token=${TOKEN}"),
        ("empty value", "password=\nnext line"),
        ("short sk", "use sk-learn or task-runner"),
        (
            "hyphenated",
            "disk-usage-report-for-all-the-volumes-we-have",
        ),
        ("ghp short", "ghp_abc is not a token"),
        ("AKIA wrong length", "AKIA1234 and AKIAIOSFODNN7EXAMPLEXX"),
        ("jwt-ish", "eyJhbGciOi is just a prefix"),
        ("path", "src/components/UserProfileSettingsPage2/index.tsx"),
        (
            "long path",
            "/usr/local/lib/python3.11/site-packages/numpy/core/multiarray",
        ),
        ("identifier", "MY_VERY_LONG_ENVIRONMENT_VARIABLE_NAME_2"),
        ("snake", "some_snake_case_identifier_with_Version2"),
        ("camel", "AbstractSingletonProxyFactoryBean2Impl"),
        ("uuid", "550e8400-e29b-41d4-a716-446655440000"),
        ("uuid upper", "550E8400-E29B-41D4-A716-446655440000"),
        (
            "git sha",
            "git reset --hard 3f2a9c1e8b7d6f5a4e3c2b1a0f9e8d7c6b5a4f3e",
        ),
        (
            "sha256",
            "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ),
        ("zeros", "00000000000000000000000000000000"),
        (
            "url without password",
            "https://user@example.com/path and https://example.com:8080/x",
        ),
        ("bearer prose", "Use a Bearer token or Basic auth?"),
        ("authorization prose", "authorization: required"),
        (
            "sentence",
            "Where should the token: cookie or header? And the secret: env.",
        ),
        ("already redacted", "password=[redacted:password]"),
        (
            "markdown",
            "**Force-push** the `feature/login-page-redesign` branch?",
        ),
        (
            "unicode",
            "Supprimer le répertoire « build » ? 日本語のテキスト",
        ),
        (
            "begin not key",
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        ),
        ("npm script", "npm_config_registry is set"),
        ("secret santa", "secret_santa_list.txt"),
        // Issue #12.12: near misses of the database-tool rules.
        ("passwordless", "Use a passwordless login instead?"),
        ("password file flag", "psql --password-file /run/secrets/db"),
        ("password stdin flag", "docker login --password-stdin"),
        (
            "password flag in prose",
            "Pass it with --password or an env var?",
        ),
        ("password flag then option", "mysql --password --host db"),
        ("password flag reference", "mysql --password $PASSWORD"),
        ("env reference", "PGPASSWORD=$DB_PASS psql"),
        ("bare reference", "$PASSWORD"),
        ("working directory", "PWD=/home/u/proj OLDPWD=/home/u"),
        ("bypass", "BYPASS_CACHE=1 and bypass=true"),
        ("passenger", "PASSENGER_COUNT=3"),
        ("token file", "GITHUB_TOKEN_FILE=/run/secrets/gh"),
        ("password policy", "PASSWORD_MIN_LENGTH=12"),
        ("test counts", "pass=12 fail=0"),
        ("compass", "compass: north"),
        ("mkdir -p", "mkdir -p build && cp -pR src dst"),
        ("git add -p", "git add -p src/main.rs"),
        ("ssh port", "ssh -p2222 host and ssh -p 2222 host"),
        ("mysql prompts", "mysql -u root -p shop"),
        ("mysql port", "mysql -P3306 -h db"),
        ("mysql -p reference", "mysql -u root -p$MYSQL_PWD"),
        ("-p on another line", "mysql -u root\nmkdir -pv build"),
    ];

    #[test]
    fn every_secret_kind_is_redacted() {
        for (name, text, kind, kept) in REDACTED {
            let out = scrub(text);
            assert!(
                out.contains(&format!("[redacted:{kind}]")),
                "{name}: {text:?} → {out:?}, expected kind {kind}"
            );
            assert!(out.contains(kept), "{name}: lost {kept:?}: {out:?}");
        }
    }

    #[test]
    fn near_misses_are_kept_borrowed() {
        for (name, text) in KEPT {
            let out = scrub(text);
            assert!(
                matches!(out, Cow::Borrowed(_)),
                "{name}: {text:?} was changed to {out:?} ({:?})",
                find(text)
            );
        }
    }

    #[test]
    fn the_secret_itself_is_gone() {
        let out = scrub("a sk-ant-api03-AbCdEf0123456789_xyz b password=hunter2 c");
        assert_eq!(
            out,
            "a [redacted:anthropic-key] b password=[redacted:password] c"
        );
        assert!(!out.contains("hunter2"));
    }

    #[test]
    fn values_run_to_their_delimiter() {
        for (name, text, want) in [
            (
                "& inside a password",
                "password=Xk29&fjw0q next",
                "password=[redacted:password] next",
            ),
            (
                "& ends a URL query value",
                "https://x.test/cb?token=abcDEF123&next=1",
                "https://x.test/cb?token=[redacted:token]&next=1",
            ),
            (
                "; ends a connection string value",
                "Server=db;Password=Xk29&q;Database=app",
                "Server=db;Password=[redacted:password];Database=app",
            ),
            (
                "mysql -p",
                "mysql -u root -pHunter2Secret shop",
                "mysql -u root -p[redacted:password] shop",
            ),
            (
                "--password value",
                "pg_dump --password Hunter2Secret db",
                "pg_dump --password [redacted:password] db",
            ),
        ] {
            assert_eq!(scrub(text), want, "{name}");
        }
    }

    #[test]
    fn scrubbing_is_idempotent_on_the_table() {
        for (name, text, _, _) in REDACTED {
            let once = scrub(text).into_owned();
            assert_eq!(scrub(&once), once.as_str(), "{name}");
            assert!(matches!(scrub(&once), Cow::Borrowed(_)), "{name}: {once:?}");
        }
    }

    #[test]
    fn hostile_repetitions_stay_linear() {
        // Each would be quadratic without the memos (hours at this size); linear, it is
        // a fraction of a second even in a debug build on a loaded machine.
        for unit in [
            "sk-",
            "a-",
            "eyJaaaaaaaaaa.",
            "password",
            "Bearer ",
            "://a:",
            "ghp_x-",
            "-----BEGIN ",
            "mysql -p-p",
            "--password ",
            "PG_PASS_",
        ] {
            let text = unit.repeat((256 << 10) / unit.len());
            let started = std::time::Instant::now();
            let _ = scrub(&text);
            assert!(
                started.elapsed() < std::time::Duration::from_secs(10),
                "{unit:?}: {:?}",
                started.elapsed()
            );
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, failure_persistence: None, ..Default::default() })]
        #[test]
        fn never_panics_and_keeps_text_around_secrets(s in "\\PC{0,200}") {
            let out = scrub(&s);
            if let Cow::Owned(o) = &out {
                proptest::prop_assert!(o.contains("[redacted:"));
            }
            let again = scrub(&out);
            proptest::prop_assert_eq!(again.as_ref(), out.as_ref());
        }

    }

    #[test]
    fn a_redaction_that_exposes_another_secret_is_scrubbed_to_a_fixed_point() {
        // Found by `pattern_soup_is_idempotent`: once the URL password is redacted, the user
        // part reads as high-entropy.
        let s = "://a00aa0811c3b011435226AKIAsk-ant-:sk-@";
        let once = scrub(s).into_owned();
        assert_eq!(scrub(&once), once.as_str());
        assert!(!once.contains("a00aa0811c3b011435226"), "{once}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, failure_persistence: None, ..Default::default() })]
        #[test]
        fn pattern_soup_is_idempotent(
            s in "(sk-|sk-ant-|ghp_|AKIA|password|_token|=|==|: |:|\"|'|`|Bearer |Basic |Authorization|eyJ|\\.|[A-Za-z0-9+/]{1,16}|[a-f0-9]{8,40}| |\n|/|-----BEGIN |RSA PRIVATE KEY-----|-----END |://|@|\\$|é|\\[redacted:x\\]){0,40}"
        ) {
            let once = scrub(&s).into_owned();
            let twice = scrub(&once);
            proptest::prop_assert_eq!(twice.as_ref(), once.as_str());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, failure_persistence: None, ..Default::default() })]

        #[test]
        fn secrets_embedded_in_noise_are_found(
            before in "[a-z ]{0,20}",
            after in "[a-z ]{0,20}",
            n in 0usize..REDACTED.len(),
        ) {
            let (_, secret, kind, _) = REDACTED[n];
            let text = format!("{before} {secret} {after}");
            let out = scrub(&text);
            let expected = format!("[redacted:{kind}]");
            proptest::prop_assert!(out.contains(&expected), "{:?}", out);
        }
    }
}
