//! Build-time compiler of the door lexicons: `data/doors/*.txt` → static tables in
//! `$OUT_DIR/door_tables.rs` (what the classifier matches) and `$OUT_DIR/door_examples.rs`
//! (every example line, for the tests). The format is documented in `data/doors/README.md`.
//!
//! A malformed line fails the build with its file and line number: the lexicons are code.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::fold::{apostrophe_bounds, fnv1a, fold_key, umlaut_spelling};

/// The languages whose lexicon the classifier reads, and the pseudo-language `tech` (terms every
/// language borrows: commands, flags, product names).
pub const LEXICON_LANGS: &[&str] = &["tech", "en", "es", "pt", "fr", "de", "ru", "zh", "ja", "ko"];

struct Concept {
    name: String,
    kind: String,
    rule: String,
}

#[derive(Clone)]
struct Term {
    concept: usize,
    lang: usize,
    elems: Vec<Elem>,
    window: u8,
    source: String,
}

#[derive(Clone, PartialEq)]
enum Elem {
    Exact(String),
    Prefix(String),
    Suffix(String),
    Infix(String),
    Short(String),
    Long(String),
    Gap(u8),
    Symbol(String),
}

impl Elem {
    fn rust(&self, pool: &mut Pool) -> String {
        match self {
            Elem::Exact(s) => format!("Elem::Exact({})", pool.add(s)),
            Elem::Prefix(s) => format!("Elem::Prefix({})", pool.add(s)),
            Elem::Suffix(s) => format!("Elem::Suffix({})", pool.add(s)),
            Elem::Infix(s) => format!("Elem::Infix({})", pool.add(s)),
            Elem::Short(s) => format!("Elem::Short({})", pool.add(s)),
            Elem::Long(s) => format!("Elem::Long({})", pool.add(s)),
            Elem::Gap(n) => format!("Elem::Gap({n})"),
            Elem::Symbol(s) => format!("Elem::Symbol({})", pool.add(s)),
        }
    }
}

/// Every string of the tables in one literal, each named by its place in it (`Str(at, len)`).
///
/// A table of `&'static str` costs the binary one dynamic relocation per string, applied by the
/// loader at every start, before `main`, whatever the run needs: with ~100 000 strings that was
/// most of the hook's start-up time and 3 MiB of dirtied pages. Offsets into one literal cost
/// nothing until read.
#[derive(Default)]
pub struct Pool {
    pub text: String,
    at: HashMap<String, (usize, usize)>,
}

impl Pool {
    /// `Str(at, len)`: the place of `s` in the pool (added if new; a string is pooled once).
    pub fn add(&mut self, s: &str) -> String {
        let (at, len) = *self.at.entry(s.to_owned()).or_insert_with(|| {
            let at = self.text.len();
            self.text.push_str(s);
            (at, s.len())
        });
        format!("Str({}, {})", grouped(at as u32), grouped(len as u32))
    }
}

struct Example {
    file: String,
    line: usize,
    expect: char,
    text: String,
}

struct Fail(String);

fn fail<T>(file: &str, line: usize, what: impl std::fmt::Display) -> Result<T, Fail> {
    Err(Fail(format!("{file}:{line}: {what}")))
}

/// Compile `dir` (data/doors) into `out_dir`. Panics with the offending file and line.
pub fn compile(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    if let Err(Fail(msg)) = compile_inner(dir, out_dir) {
        panic!("door lexicon: {msg}");
    }
}

fn compile_inner(dir: &Path, out_dir: &Path) -> Result<(), Fail> {
    let concepts = read_concepts(&dir.join("concepts.txt"))?;
    let by_name: BTreeMap<&str, usize> = concepts
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.as_str(), i))
        .collect();
    let mut terms = Vec::new();
    let mut examples = Vec::new();
    for (lang, code) in LEXICON_LANGS.iter().enumerate() {
        let path = dir.join(format!("{code}.txt"));
        println!("cargo:rerun-if-changed={}", path.display());
        if !path.exists() {
            continue;
        }
        read_lexicon(&path, lang, &by_name, &concepts, &mut terms, &mut examples)?;
    }
    let (langid, letters) = read_langid(&dir.join("langid.txt"))?;
    let tables = render_tables(&concepts, &terms, &langid, &letters);
    write(&out_dir.join("door_tables.rs"), &tables);
    write(
        &out_dir.join("door_examples.rs"),
        &render_examples(&examples),
    );
    Ok(())
}

fn write(path: &PathBuf, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

fn lines(path: &Path) -> Result<Vec<(usize, String)>, Fail> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Fail(format!("{}: {e}", path.display())))?;
    Ok(text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim().to_owned()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with("# ") && l != "#")
        .collect())
}

const KINDS: &[(&str, &[&str])] = &[
    (
        "action",
        &[
            "always",
            "unless-benign",
            "unless-disposable",
            "unless-safe",
            "if-danger",
            "if-unplaced",
            "if-place",
            "modifies",
        ],
    ),
    (
        "object",
        &[
            "danger",
            "precious",
            "shared",
            "neutral",
            "benign",
            "disposable",
            "inert",
        ],
    ),
    ("place", &["danger", "shared", "neutral", "safe"]),
    ("effect", &["one-way", "unknown"]),
    (
        "qualifier",
        &[
            "negate",
            "negate-after",
            "preview",
            "meta",
            "soft",
            "container",
            "container-after",
            "break",
            "join",
            "source",
            "past",
            "edit-only",
            "destination",
            "soft-after",
            "meta-after",
            "perform",
            "rebuilt",
            "look",
            "edits-code",
            "proposes",
            "copy-of",
            "agreed",
        ],
    ),
    ("stopword", &["-"]),
];

fn read_concepts(path: &Path) -> Result<Vec<Concept>, Fail> {
    let file = path.display().to_string();
    let mut out: Vec<Concept> = Vec::new();
    for (n, line) in lines(path)? {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, kind, rule, ..] = words[..] else {
            return fail(&file, n, "expected `name kind rule [description]`");
        };
        let Some((_, rules)) = KINDS.iter().find(|(k, _)| *k == kind) else {
            return fail(&file, n, format!("unknown kind {kind:?}"));
        };
        if !rules.contains(&rule) {
            return fail(
                &file,
                n,
                format!("kind {kind} takes one of {rules:?}, not {rule:?}"),
            );
        }
        if out.iter().any(|c| c.name == name) {
            return fail(&file, n, format!("concept {name} defined twice"));
        }
        out.push(Concept {
            name: name.to_owned(),
            kind: kind.to_owned(),
            rule: rule.to_owned(),
        });
    }
    Ok(out)
}

fn read_lexicon(
    path: &Path,
    lang: usize,
    by_name: &BTreeMap<&str, usize>,
    concepts: &[Concept],
    terms: &mut Vec<Term>,
    examples: &mut Vec<Example>,
) -> Result<(), Fail> {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let german = LEXICON_LANGS[lang] == "de";
    let mut current: Option<(usize, u8)> = None;
    for (n, line) in lines(path)? {
        if let Some(head) = line.strip_prefix('@') {
            let mut words = head.split_whitespace();
            let name = words.next().unwrap_or("");
            let Some(&concept) = by_name.get(name) else {
                return fail(
                    &file,
                    n,
                    format!("unknown concept @{name} (see concepts.txt)"),
                );
            };
            let window = match words.next() {
                None => default_window(&concepts[concept]),
                Some(w) => match w.parse::<u8>() {
                    Ok(w) if w <= 12 => w,
                    _ => return fail(&file, n, format!("window {w:?} is not 0..=12")),
                },
            };
            current = Some((concept, window));
            continue;
        }
        if let Some(rest) = ["+ ", "- ", "? "]
            .iter()
            .find_map(|p| line.strip_prefix(p).map(|r| (p, r)))
        {
            examples.push(Example {
                file: file.clone(),
                line: n,
                expect: rest.0.chars().next().unwrap(),
                text: rest.1.trim().to_owned(),
            });
            continue;
        }
        let Some((concept, window)) = current else {
            return fail(&file, n, "a term before any @concept line");
        };
        for raw in split_terms(&line).map_err(|e| Fail(format!("{file}:{n}: {e}")))? {
            let mut spellings = vec![raw.clone()];
            if german {
                if let Some(alt) = umlaut_spelling(&raw) {
                    spellings.push(alt);
                }
            }
            for spelling in spellings {
                let elems =
                    parse_term(&spelling).map_err(|e| Fail(format!("{file}:{n}: {raw:?}: {e}")))?;
                terms.push(Term {
                    concept,
                    lang,
                    elems,
                    window,
                    source: format!("{file}:{n}"),
                });
            }
        }
    }
    Ok(())
}

fn default_window(c: &Concept) -> u8 {
    match (c.kind.as_str(), c.rule.as_str()) {
        ("qualifier", "negate") => 3,
        ("qualifier", "negate-after") => 2,
        ("qualifier", "meta") => 4,
        ("qualifier", "preview") => 6,
        ("qualifier", "source") => 2,
        ("qualifier", "copy-of") => 3,
        ("qualifier", "past") => 2,
        ("qualifier", "destination") => 3,
        ("qualifier", "soft") => 1,
        ("qualifier", "soft-after") => 2,
        ("qualifier", "meta-after") => 4,
        _ => 0,
    }
}

/// Terms on a line: separated by whitespace or commas, a quoted term may hold spaces.
fn split_terms(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == ',' {
            chars.next();
            continue;
        }
        let mut term = String::new();
        if c == '"' {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => term.push(c),
                    None => return Err("unterminated quote".into()),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ',' {
                    break;
                }
                term.push(c);
                chars.next();
            }
        }
        if !term.trim().is_empty() {
            out.push(term.trim().to_owned());
        }
    }
    Ok(out)
}

/// A one-dash flag: up to three letters are short flags, set in any cluster; a capital among
/// them is kept, so `-D` matches only `-D` (see `match_short`). A longer name is one flag.
fn flag_elem(raw: &str) -> Elem {
    let name = fold_key(raw);
    if name.len() > 3 {
        Elem::Long(name)
    } else if raw.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Elem::Short(raw.to_owned())
    } else {
        Elem::Short(name)
    }
}

fn parse_term(term: &str) -> Result<Vec<Elem>, String> {
    let mut elems = Vec::new();
    // A hyphen (or `=`) inside a word joins two tokens (`force-push` is `force push` to the tokenizer);
    // a leading dash is a flag, a trailing one (`non-`) belongs to the word.
    let mut parts: Vec<String> = Vec::new();
    for part in term.split_whitespace() {
        if part.starts_with('-') || part.starts_with('<') || part.contains("://") || part == "." {
            parts.push(part.to_owned());
            continue;
        }
        // `verify=False` is two words to the tokenizer (a piece with `.` or `:` stays whole).
        let separators: &[char] = if part.contains(['.', ':']) {
            &['-']
        } else {
            &['-', '=']
        };
        let pieces: Vec<&str> = part.split(separators).filter(|p| !p.is_empty()).collect();
        if pieces.is_empty() {
            return Err(format!("bad word {part:?}"));
        }
        parts.extend(pieces.iter().map(|p| (*p).to_owned()));
    }
    for part in parts.iter().map(String::as_str) {
        let elem = if part == "~" {
            Elem::Gap(6)
        } else if let Some(n) = part
            .strip_prefix('~')
            .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
        {
            Elem::Gap(n.parse().map_err(|_| format!("bad gap {part:?}"))?)
        } else if part.starts_with('<') && part.ends_with('>') {
            let name = &part[1..part.len() - 1];
            if ![
                "star", "plus", "colon", "pipe", "num", "tilde", "dollar", "root", "money", "host",
                "share",
            ]
            .contains(&name)
            {
                return Err(format!("unknown symbol {part}"));
            }
            Elem::Symbol(name.to_owned())
        } else if part == "--" {
            Elem::Exact("--".to_owned())
        } else if let Some(name) = part.strip_prefix("--") {
            Elem::Long(fold_key(name))
        } else if part.starts_with('-') && part.len() > 1 {
            flag_elem(&part[1..])
        } else {
            // `#general`: a channel, a word written with `#` in front.
            if let Some(tag) = part.strip_prefix('#').filter(|t| !t.is_empty()) {
                elems.push(Elem::Exact(format!("#{}", fold_key(tag))));
                continue;
            }
            if part.contains("\\*") {
                elems.push(Elem::Exact(fold_key(&part.replace("\\*", "*"))));
                continue;
            }
            let star_front = part.starts_with('*') && part.len() > 1;
            let star_back = part.ends_with('*') && part.len() > 1;
            let core = part.trim_matches('*');
            if core.is_empty() {
                return Err("empty word".into());
            }
            // Read around apostrophes as the tokenizer reads the word (`team's` is `team`).
            let chars: Vec<char> = core.chars().collect();
            let (from, to) = apostrophe_bounds(chars.len(), |i| chars[i]);
            let key = fold_key(&chars[from..to].iter().collect::<String>());
            match (star_front, star_back) {
                (true, true) => Elem::Infix(key),
                (true, false) => Elem::Suffix(key),
                (false, true) => Elem::Prefix(key),
                (false, false) => Elem::Exact(key),
            }
        };
        if matches!(elem, Elem::Gap(_)) && elems.is_empty() {
            return Err("a term cannot start with a gap".into());
        }
        elems.push(elem);
    }
    if matches!(elems.last(), Some(Elem::Gap(_))) {
        return Err("a term cannot end with a gap".into());
    }
    if elems.is_empty() {
        return Err("empty term".into());
    }
    Ok(elems)
}

/// `langid.txt`: `@xx` blocks of words that tell language xx; `@letters xx …` lines.
/// Words that tell a language, by language; letters only some languages use.
type LangId = (Vec<(String, Vec<String>)>, Vec<(String, String)>);

fn read_langid(path: &Path) -> Result<LangId, Fail> {
    let file = path.display().to_string();
    println!("cargo:rerun-if-changed={file}");
    let mut langs: Vec<(String, Vec<String>)> = Vec::new();
    let mut letters = Vec::new();
    for (n, line) in lines(path)? {
        if let Some(rest) = line.strip_prefix("@letters ") {
            let mut words = rest.split_whitespace();
            let (Some(code), Some(set)) = (words.next(), words.next()) else {
                return fail(&file, n, "expected `@letters xx abc`");
            };
            letters.push((code.to_owned(), set.to_owned()));
        } else if let Some(code) = line.strip_prefix('@') {
            langs.push((code.trim().to_owned(), Vec::new()));
        } else {
            let Some((_, words)) = langs.last_mut() else {
                return fail(&file, n, "words before any @xx line");
            };
            words.extend(
                line.split([' ', ','])
                    .filter(|w| !w.is_empty())
                    .map(fold_key),
            );
        }
    }
    Ok((langs, letters))
}

/// An open-addressing table of `(hash, first index)` for keys; entries with equal keys are
/// consecutive in `order`.
fn hash_table(keys: &[(String, u32)]) -> (Vec<(u32, String, u32, u32)>, usize) {
    // Group indices by key: (key, [indices]).
    let mut groups: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    for (key, index) in keys {
        groups.entry(key.as_str()).or_default().push(*index);
    }
    let size = (groups.len() * 2).next_power_of_two().max(16);
    let mut slots = vec![(0u32, String::new(), 0u32, 0u32); size];
    let mut lists: Vec<u32> = Vec::new();
    let mut ranges = Vec::new();
    for (key, indices) in &groups {
        let start = lists.len() as u32;
        lists.extend(indices);
        ranges.push((*key, start, indices.len() as u32));
    }
    for (key, start, len) in ranges {
        let hash = fnv1a(key.as_bytes());
        let mut at = hash as usize & (size - 1);
        while slots[at].3 != 0 {
            at = (at + 1) & (size - 1);
        }
        slots[at] = (hash, key.to_owned(), start, len);
    }
    // Slots carry (hash, start into the list, count); the list is emitted beside them.
    LIST.with(|l| *l.borrow_mut() = lists);
    (slots, size)
}

thread_local! {
    static LIST: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn emit_table(out: &mut String, pool: &mut Pool, name: &str, keys: &[(String, u32)]) {
    let (slots, size) = hash_table(keys);
    let list = LIST.with(|l| l.borrow().clone());
    writeln!(
        out,
        "pub static {name}: Table = Table {{ mask: {}, slots: &[",
        size - 1
    )
    .unwrap();
    for (hash, key, start, len) in slots {
        let key = pool.add(&key);
        writeln!(out, "    ({}, {key}, {start}, {len}),", grouped(hash)).unwrap();
    }
    writeln!(out, "], list: &{list:?} }};").unwrap();
}

/// A number as Rust source with `_` between thousands (the generated code passes clippy).
pub fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

fn first_key(elems: &[Elem]) -> Option<(&'static str, &str)> {
    match &elems[0] {
        Elem::Exact(s) => Some(("exact", s)),
        Elem::Prefix(s) => Some(("prefix", s)),
        Elem::Suffix(s) => Some(("suffix", s)),
        _ => None,
    }
}

fn render_tables(
    concepts: &[Concept],
    terms: &[Term],
    langid: &[(String, Vec<String>)],
    letters: &[(String, String)],
) -> String {
    let mut out = String::from("// Generated by build.rs from data/doors/*.txt: do not edit.\n\n");
    writeln!(
        out,
        "pub static LEXICON_LANGS: &[&str] = &{LEXICON_LANGS:?};"
    )
    .unwrap();
    let mut pool = Pool::default();
    render_concepts(&mut out, concepts);
    render_terms(&mut out, &mut pool, terms);

    let mut exact = Vec::new();
    let mut prefix = Vec::new();
    let mut suffix = Vec::new();
    let mut other = Vec::new();
    let mut num_first = Vec::new();
    let mut long_first = Vec::new();
    let mut short_first = Vec::new();
    let mut infix_first = Vec::new();
    let mut prefix_lens: u64 = 0;
    let mut suffix_lens: u64 = 0;
    let mut segment_words: Vec<(String, u32)> = Vec::new();
    // Every word and stem of every term, wherever it stands in the term: a word in odd case
    // (`logGen`) that the lexicons know is a word, not a camelCase name.
    let mut word_exact: Vec<(String, u32)> = Vec::new();
    let mut word_prefix: Vec<(String, u32)> = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        for e in &t.elems {
            if let Elem::Exact(s) = e {
                if s.chars().any(crate::fold::is_east_asian) {
                    segment_words.push((s.clone(), i as u32));
                } else {
                    word_exact.push((s.clone(), i as u32));
                }
            }
            if let Elem::Prefix(s) = e {
                word_prefix.push((s.clone(), i as u32));
            }
        }
        match first_key(&t.elems) {
            Some(("exact", k)) => exact.push((k.to_owned(), i as u32)),
            Some(("prefix", k)) => {
                prefix_lens |= 1 << k.len().min(63);
                prefix.push((k.to_owned(), i as u32));
            }
            Some((_, k)) => {
                suffix_lens |= 1 << k.len().min(63);
                suffix.push((k.to_owned(), i as u32));
            }
            None => match &t.elems[0] {
                Elem::Long(name) => long_first.push((name.clone(), i as u32)),
                Elem::Short(_) => short_first.push(i as u32),
                Elem::Infix(_) => infix_first.push(i as u32),
                // `<num> customers`: tried at numbers only, not at every token.
                Elem::Symbol(name) if name == "num" || name == "money" => {
                    num_first.push(i as u32);
                }
                _ => other.push(i as u32),
            },
        }
    }
    render_langid(&mut out, &mut pool, langid, letters);

    emit_table(&mut out, &mut pool, "EXACT", &exact);
    emit_table(&mut out, &mut pool, "WORD_EXACT", &word_exact);
    emit_table(&mut out, &mut pool, "WORD_PREFIX", &word_prefix);
    emit_table(&mut out, &mut pool, "PREFIX", &prefix);
    emit_table(&mut out, &mut pool, "SUFFIX", &suffix);
    emit_table(&mut out, &mut pool, "SEGMENTS", &segment_words);
    let max_segment = segment_words
        .iter()
        .map(|(s, _)| s.chars().count())
        .max()
        .unwrap_or(1);
    writeln!(out, "pub const MAX_SEGMENT_CHARS: usize = {max_segment};").unwrap();
    writeln!(out, "#[allow(clippy::unreadable_literal)] // a bit set, written by build/doors.rs\npub const PREFIX_LENS: u64 = {prefix_lens};").unwrap();
    writeln!(out, "pub const SUFFIX_LENS: u64 = {suffix_lens};").unwrap();
    writeln!(out, "pub static SYMBOL_FIRST: &[u32] = &{other:?};").unwrap();
    writeln!(out, "pub static NUM_FIRST: &[u32] = &{num_first:?};").unwrap();
    writeln!(out, "pub static SHORT_FIRST: &[u32] = &{short_first:?};").unwrap();
    writeln!(out, "pub static INFIX_FIRST: &[u32] = &{infix_first:?};").unwrap();
    emit_table(&mut out, &mut pool, "LONG_FIRST", &long_first);
    writeln!(out, "pub static POOL: &str = {:?};", pool.text).unwrap();
    out
}

/// The terms, and all their elements in one array (`ELEMS`) that a term names a run of.
fn render_terms(out: &mut String, pool: &mut Pool, terms: &[Term]) {
    let mut elems: Vec<String> = Vec::new();
    writeln!(out, "pub static TERMS: &[Term] = &[").unwrap();
    for t in terms {
        let at = elems.len();
        elems.extend(t.elems.iter().map(|e| e.rust(pool)));
        writeln!(
            out,
            "    Term {{ concept: {}, lang: {}, window: {}, elems: ({}, {}), source: {} }},",
            t.concept,
            t.lang,
            t.window,
            grouped(at as u32),
            t.elems.len(),
            pool.add(&t.source)
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(out, "pub static ELEMS: &[Elem] = &[").unwrap();
    for e in elems {
        writeln!(out, "    {e},").unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// Stopwords of uncovered languages, by key, and the letters that tell languages apart.
fn render_langid(
    out: &mut String,
    pool: &mut Pool,
    langid: &[(String, Vec<String>)],
    letters: &[(String, String)],
) {
    writeln!(out, "pub static LANGID_LANGS: &[&str] = &[").unwrap();
    for (code, _) in langid {
        writeln!(out, "    {code:?},").unwrap();
    }
    writeln!(out, "];").unwrap();
    let mut langid_keys = Vec::new();
    for (i, (_, words)) in langid.iter().enumerate() {
        for w in words {
            langid_keys.push((w.clone(), i as u32));
        }
    }
    emit_table(out, pool, "LANGID", &langid_keys);
    writeln!(out, "pub static LETTERS: &[(&str, &str)] = &{letters:?};").unwrap();
}

fn render_concepts(out: &mut String, concepts: &[Concept]) {
    writeln!(out, "pub static CONCEPTS: &[ConceptDef] = &[").unwrap();
    for c in concepts {
        let kind = match (c.kind.as_str(), c.rule.as_str()) {
            ("action", "always") => "Kind::Action(ActionRule::Always)".to_owned(),
            ("action", "unless-benign") => "Kind::Action(ActionRule::UnlessBenign)".into(),
            ("action", "if-danger") => "Kind::Action(ActionRule::IfDanger)".into(),
            ("action", "if-unplaced") => "Kind::Action(ActionRule::IfUnplaced)".into(),
            ("action", "if-place") => "Kind::Action(ActionRule::IfPlace)".into(),
            ("action", "modifies") => "Kind::Action(ActionRule::Modifies)".into(),
            ("action", "unless-disposable") => "Kind::Action(ActionRule::UnlessDisposable)".into(),
            ("action", "unless-safe") => "Kind::Action(ActionRule::UnlessSafe)".into(),
            ("object", r) => format!("Kind::Object(Weight::{})", camel(r)),
            ("place", r) => format!("Kind::Place(Weight::{})", camel(r)),
            ("effect", "one-way") => "Kind::Effect(Door::OneWay)".into(),
            ("effect", _) => "Kind::Effect(Door::Unknown)".into(),
            ("qualifier", r) => format!("Kind::Qualifier(Qualifier::{})", camel(r)),
            _ => "Kind::Stopword".into(),
        };
        writeln!(
            out,
            "    ConceptDef {{ name: {:?}, kind: {kind} }},",
            c.name
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn camel(kebab: &str) -> String {
    kebab
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

fn render_examples(examples: &[Example]) -> String {
    let mut out = String::from("// Generated by build.rs from data/doors/*.txt: do not edit.\n\n");
    writeln!(
        out,
        "pub static EXAMPLES: &[(&str, usize, char, &str)] = &["
    )
    .unwrap();
    for e in examples {
        writeln!(
            out,
            "    ({:?}, {}, {:?}, {:?}),",
            e.file, e.line, e.expect, e.text
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
    out
}
