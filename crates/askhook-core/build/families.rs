//! Build-time compiler of the family matcher's word lists: `data/families/*.txt` → the tables of
//! `$OUT_DIR/family_tables.rs`, included by `src/family/lexicon.rs`. The format is documented in
//! `data/families/README.md`; which tables there are, and the kind of each, is [`TABLES`].
//!
//! Every string of the tables is in one literal (`POOL`) and the tables hold its places
//! (`Str(at, len)`) and runs of one array of words (`WORDS`, `List(at, len)`): integers, which
//! the loader need not relocate at every start, where a `&'static str` in a table costs one
//! relocation each.
//!
//! A malformed line, a word out of order in a sorted table, a word listed twice, a missing or
//! unknown table fails the build with its file and line: the word lists are code. That every
//! word is folded (what the matcher's `text::fold` makes of it) is checked by the unit tests of
//! `src/family/lexicon.rs`, which own that fold.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::doors::{grouped, Pool};

/// What a table's lines hold, and the Rust type it becomes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Words separated by spaces, sorted (byte order), each once: a `Set` (binary-searched).
    Set,
    /// Words separated by spaces, in the order they are tried: a `List`.
    List,
    /// Words separated by spaces, longest (in characters) first: a `List`.
    Endings,
    /// `word = value`, one a line, sorted by word, each word once: a `Map`.
    Map,
    /// `first second`, one pair a line, in order: `&[(Str, Str)]`.
    Pairs,
    /// `word = Group member`, one a line, sorted by word, each word once: a `GroupMap`.
    GroupMap,
    /// `word = Group member` lines of `GROUP_WORDS`, in the order they are tried:
    /// `&[(Str, Group, Str)]`.
    GroupList,
    /// `word word [word] = canonical` (or `word word [word] =`: dropped), longest (in words)
    /// first: `&[(List, Option<Str>)]`.
    Phrases,
    /// One `@` section per class, its words separated by spaces: `&[List]`.
    Classes,
}

/// Every table, in the order they are generated, and its kind.
const TABLES: &[(&str, Kind)] = &[
    ("STOP_EN", Kind::Set),
    ("STOP_DE", Kind::Set),
    ("STOP_FR", Kind::Set),
    ("STOP_ES", Kind::Set),
    ("STOP_PT", Kind::Set),
    ("STOP_RU", Kind::Set),
    ("GENERIC", Kind::Set),
    ("HAN_STOP", Kind::Set),
    ("KO_STOP", Kind::Set),
    ("NEG_EN", Kind::Set),
    ("NEG_DE", Kind::Set),
    ("NEG_FR", Kind::Set),
    ("NEG_ES", Kind::Set),
    ("NEG_PT", Kind::Set),
    ("NEG_RU", Kind::Set),
    ("HAN_NEG", Kind::Set),
    ("OR_WORDS", Kind::Set),
    ("DETERMINERS_EN", Kind::Set),
    ("CJK_OR_WORDS", Kind::Set),
    ("SUBORDINATORS", Kind::Set),
    ("LEADING_SUBORDINATORS", Kind::Set),
    ("SUBORDINATOR_PAIRS", Kind::Pairs),
    ("STATUS_QUO", Kind::Set),
    ("CJK_STATUS_QUO", Kind::Set),
    ("GENERIC_ACRONYMS", Kind::Set),
    ("GENERIC_LABEL", Kind::Set),
    ("ANSWER_WORDS", Kind::Set),
    ("ANSWER_PREFIXES_CJK", Kind::Set),
    ("FILE_EXTENSIONS", Kind::Set),
    ("ALIASES", Kind::Map),
    ("CJK_ALIASES", Kind::Map),
    ("PHRASES", Kind::Phrases),
    ("PARTICLES", Kind::Set),
    ("IRREGULAR", Kind::Map),
    ("GROUP_WORDS", Kind::GroupMap),
    ("CJK_GROUP_WORDS", Kind::GroupList),
    ("CYRILLIC_GROUP_PREFIXES", Kind::GroupList),
    ("ACTIONS_EN", Kind::Set),
    ("ACTIONS_DE", Kind::Set),
    ("ACTIONS_FR", Kind::Set),
    ("ACTIONS_ES", Kind::Set),
    ("ACTIONS_PT", Kind::Set),
    ("ACTIONS_RU", Kind::Set),
    ("ACTION_SYNONYMS", Kind::Classes),
    ("CJK_ACTIONS", Kind::List),
    ("KO_ENDINGS", Kind::Endings),
    ("RU_ENDINGS", Kind::Endings),
    ("RU_BORROWED_ROOTS", Kind::List),
    ("QUANTITY_WORDS", Kind::Set),
    ("QUANTITY_PAIRS", Kind::Pairs),
    ("CJK_QUANTITY", Kind::List),
    ("NUMBER_WORDS", Kind::Set),
    ("CJK_NUMERALS", Kind::List),
    ("UNIT_CLASSES", Kind::Classes),
    ("UNIT_SECONDS", Kind::Map),
];

/// The table `GroupList` tables take their lines from.
const GROUP_WORDS: &str = "GROUP_WORDS";

/// One `@NAME` section of a file: where it starts, the comment right above it, its lines.
struct Section {
    file: String,
    line: usize,
    doc: Vec<String>,
    lines: Vec<(usize, String)>,
}

struct Fail(String);

fn fail<T>(file: &str, line: usize, what: impl std::fmt::Display) -> Result<T, Fail> {
    Err(Fail(format!("{file}:{line}: {what}")))
}

/// Compile `dir` (data/families) into `out_dir`. Panics with the offending file and line.
pub fn compile(dir: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    match compile_inner(dir) {
        Ok(code) => {
            let path = out_dir.join("family_tables.rs");
            std::fs::write(&path, code).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        }
        Err(Fail(msg)) => panic!("family word lists: {msg}"),
    }
}

fn compile_inner(dir: &Path) -> Result<String, Fail> {
    let mut sections: BTreeMap<String, Vec<Section>> = BTreeMap::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Fail(format!("{}: {e}", dir.display())))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        read_sections(path, &mut sections)?;
    }
    for (name, list) in &sections {
        let Some((_, kind)) = TABLES.iter().find(|(n, _)| n == name) else {
            let s = &list[0];
            return fail(
                &s.file,
                s.line,
                format!("unknown table @{name} (see TABLES)"),
            );
        };
        if list.len() > 1 && *kind != Kind::Classes {
            let s = &list[1];
            return fail(&s.file, s.line, format!("@{name} written twice"));
        }
    }
    let mut out = Out::default();
    out.code
        .push_str("// Generated by build.rs from data/families/*.txt: do not edit.\n");
    let group_words = match sections.get(GROUP_WORDS) {
        Some(s) => group_lines(&s[0])?,
        None => Vec::new(),
    };
    for &(name, kind) in TABLES {
        let Some(list) = sections.get(name) else {
            return Err(Fail(format!("no @{name} in {}", dir.display())));
        };
        out.table(name, kind, list, &group_words)?;
    }
    Ok(out.finish())
}

/// The sections of one file onto `sections`, by name.
fn read_sections(path: &Path, sections: &mut BTreeMap<String, Vec<Section>>) -> Result<(), Fail> {
    let file = format!(
        "data/families/{}",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    let text =
        std::fs::read_to_string(path).map_err(|e| Fail(format!("{}: {e}", path.display())))?;
    let mut comment: Vec<String> = Vec::new();
    let mut current: Option<(String, Section)> = None;
    let mut finish = |current: &mut Option<(String, Section)>| {
        if let Some((name, section)) = current.take() {
            sections.entry(name).or_default().push(section);
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if let Some(c) = line.strip_prefix('#') {
            comment.push(c.strip_prefix(' ').unwrap_or(c).to_owned());
            continue;
        }
        if line.is_empty() {
            comment.clear();
            continue;
        }
        if let Some(name) = line.strip_prefix('@') {
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                return fail(&file, n, format!("bad table name {line:?}"));
            }
            finish(&mut current);
            let doc = std::mem::take(&mut comment);
            current = Some((
                name.to_owned(),
                Section {
                    file: file.clone(),
                    line: n,
                    doc,
                    lines: Vec::new(),
                },
            ));
            continue;
        }
        comment.clear();
        let Some((_, section)) = current.as_mut() else {
            return fail(&file, n, "words before any @TABLE line");
        };
        section.lines.push((n, line.to_owned()));
    }
    finish(&mut current);
    Ok(())
}

/// A `word = Group member` line: its word, group and member.
type GroupLine = (String, String, String);

fn group_lines(s: &Section) -> Result<Vec<GroupLine>, Fail> {
    s.lines
        .iter()
        .map(|(n, line)| {
            let Some((word, rest)) = line.split_once(" = ") else {
                return fail(&s.file, *n, "expected `word = Group member`");
            };
            let [group, member] = rest.split_whitespace().collect::<Vec<_>>()[..] else {
                return fail(&s.file, *n, "expected `word = Group member`");
            };
            let word = one_word(&s.file, *n, word)?;
            if !group.starts_with(|c: char| c.is_ascii_uppercase())
                || !group.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return fail(
                    &s.file,
                    *n,
                    format!("bad group {group:?} (a `Group` variant)"),
                );
            }
            Ok((word.to_owned(), group.to_owned(), member.to_owned()))
        })
        .collect()
}

/// `word`, checked to be one word.
fn one_word<'a>(file: &str, n: usize, word: &'a str) -> Result<&'a str, Fail> {
    let word = word.trim();
    if word.is_empty() || word.contains(char::is_whitespace) || word.starts_with('#') {
        return fail(file, n, format!("expected one word, not {word:?}"));
    }
    Ok(word)
}

/// Each word of `s` (words separated by spaces), with its line.
fn words(s: &Section) -> Result<Vec<(usize, &str)>, Fail> {
    let words: Vec<(usize, &str)> = s
        .lines
        .iter()
        .flat_map(|(n, line)| line.split_whitespace().map(move |w| (*n, w)))
        .collect();
    match words.iter().find(|(_, w)| *w == "=" || w.starts_with('#')) {
        Some((n, w)) => fail(
            &s.file,
            *n,
            format!("{w:?} in a list of words (a comment is a line of its own)"),
        ),
        None => Ok(words),
    }
}

/// Strictly increasing in byte order: sorted, each once (`key` of each item, with its line).
fn check_sorted(s: &Section, keys: &[(usize, &str)]) -> Result<(), Fail> {
    for pair in keys.windows(2) {
        let ((_, a), (n, b)) = (pair[0], pair[1]);
        if a == b {
            return fail(&s.file, n, format!("{b:?} listed twice"));
        }
        if a > b {
            return fail(
                &s.file,
                n,
                format!("{b:?} out of order: after {a:?} (sorted)"),
            );
        }
    }
    Ok(())
}

/// The generated code, the pool of its strings and the array of words its lists are runs of.
#[derive(Default)]
struct Out {
    code: String,
    pool: Pool,
    words: Vec<String>,
    groups: Vec<String>,
}

impl Out {
    /// A run of [`Out::words`] holding `words`.
    fn list<'a>(&mut self, words: impl IntoIterator<Item = &'a str>) -> String {
        let at = self.words.len();
        for w in words {
            let s = self.pool.add(w);
            self.words.push(s);
        }
        format!(
            "List({}, {})",
            grouped(at as u32),
            grouped((self.words.len() - at) as u32)
        )
    }

    fn doc(&mut self, s: &Section, name: &str) {
        for line in &s.doc {
            if line.is_empty() {
                self.code.push_str("///\n");
            } else {
                writeln!(self.code, "/// {line}").unwrap();
            }
        }
        if !s.doc.is_empty() {
            self.code.push_str("///\n");
        }
        writeln!(self.code, "/// (`@{name}` of `{}`)", s.file).unwrap();
    }

    fn table(
        &mut self,
        name: &str,
        kind: Kind,
        sections: &[Section],
        group_words: &[GroupLine],
    ) -> Result<(), Fail> {
        let s = &sections[0];
        self.code.push('\n');
        match kind {
            Kind::Classes => {
                writeln!(
                    self.code,
                    "/// Classes of words, each a section `@{name}` of `{}`.",
                    s.file
                )
                .unwrap();
                self.classes(name, sections)
            }
            Kind::Set | Kind::List | Kind::Endings => {
                self.doc(s, name);
                self.words(name, kind, s)
            }
            Kind::Map | Kind::Pairs => {
                self.doc(s, name);
                self.pairs(name, kind, s)
            }
            Kind::GroupMap | Kind::GroupList => {
                self.doc(s, name);
                self.groups(name, kind, s, group_words)
            }
            Kind::Phrases => {
                self.doc(s, name);
                self.phrases(name, s)
            }
        }
    }

    /// `pub(crate) const NAME: &[TY] = &[ROWS];`
    fn array(&mut self, name: &str, ty: &str, rows: &[String]) {
        writeln!(self.code, "pub(crate) const {name}: &[{ty}] = &[").unwrap();
        for row in rows {
            writeln!(self.code, "    {row},").unwrap();
        }
        self.code.push_str("];\n");
    }

    /// A `Set` or a `List`.
    fn words(&mut self, name: &str, kind: Kind, s: &Section) -> Result<(), Fail> {
        let ws = words(s)?;
        if kind == Kind::Set {
            check_sorted(s, &ws)?;
        }
        if kind == Kind::Endings {
            for pair in ws.windows(2) {
                let ((_, a), (n, b)) = (pair[0], pair[1]);
                if a.chars().count() < b.chars().count() {
                    return fail(
                        &s.file,
                        n,
                        format!("{b:?} is longer than {a:?} before it (longest first)"),
                    );
                }
            }
        }
        let list = self.list(ws.iter().map(|(_, w)| *w));
        if kind == Kind::Set {
            writeln!(self.code, "pub(crate) const {name}: Set = Set({list});").unwrap();
        } else {
            writeln!(self.code, "pub(crate) const {name}: List = {list};").unwrap();
        }
        Ok(())
    }

    /// A `Map` (`word = value` lines) or `&[(Str, Str)]` (`first second` lines).
    fn pairs(&mut self, name: &str, kind: Kind, s: &Section) -> Result<(), Fail> {
        let (separator, want) = if kind == Kind::Map {
            (" = ", "word = value")
        } else {
            (" ", "first second")
        };
        let mut pairs: Vec<(usize, &str, &str)> = Vec::new();
        for (n, line) in &s.lines {
            let pair = line
                .split_once(separator)
                .map(|(a, b)| (a.trim(), b.trim()))
                .filter(|(a, b)| !a.is_empty() && !b.is_empty() && !b.contains(' '));
            let Some((a, b)) = pair else {
                return fail(&s.file, *n, format!("expected `{want}`"));
            };
            pairs.push((*n, one_word(&s.file, *n, a)?, b));
        }
        if kind == Kind::Map {
            let keys: Vec<(usize, &str)> = pairs.iter().map(|(n, a, _)| (*n, *a)).collect();
            check_sorted(s, &keys)?;
            let map = self.map(pairs.iter().map(|(_, a, b)| (*a, *b)));
            writeln!(self.code, "pub(crate) const {name}: Map = {map};").unwrap();
        } else {
            let rows: Vec<String> = pairs
                .iter()
                .map(|(_, a, b)| format!("({}, {})", self.pool.add(a), self.pool.add(b)))
                .collect();
            self.array(name, "(Str, Str)", &rows);
        }
        Ok(())
    }

    /// `Map { words, values }`: the words, then their values, as runs of [`Out::words`].
    fn map<'a>(&mut self, pairs: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> String {
        let words = self.list(pairs.clone().map(|(w, _)| w));
        let values = self.list(pairs.map(|(_, v)| v));
        format!("Map {{ words: Set({words}), values: {values} }}")
    }

    /// A `GroupMap` or `&[(Str, Group, Str)]`: `word = Group member` lines.
    fn groups(
        &mut self,
        name: &str,
        kind: Kind,
        s: &Section,
        group_words: &[GroupLine],
    ) -> Result<(), Fail> {
        let lines = group_lines(s)?;
        let mut numbered = s.lines.iter().map(|(n, _)| *n).zip(&lines);
        if kind == Kind::GroupMap {
            let keys: Vec<(usize, &str)> = numbered.map(|(n, (w, _, _))| (n, w.as_str())).collect();
            check_sorted(s, &keys)?;
            let map = self.map(lines.iter().map(|(w, _, m)| (w.as_str(), m.as_str())));
            let at = self.groups.len();
            self.groups
                .extend(lines.iter().map(|(_, group, _)| format!("Group::{group}")));
            writeln!(
                self.code,
                "pub(crate) const {name}: GroupMap = GroupMap {{ map: {map}, groups: {} }};",
                grouped(at as u32)
            )
            .unwrap();
        } else {
            if let Some((n, line)) = numbered.find(|(_, l)| !group_words.contains(l)) {
                return fail(
                    &s.file,
                    n,
                    format!("{:?} is not a line of @{GROUP_WORDS}", line.0),
                );
            }
            let rows: Vec<String> = lines
                .iter()
                .map(|(word, group, member)| {
                    let (w, m) = (self.pool.add(word), self.pool.add(member));
                    format!("({w}, Group::{group}, {m})")
                })
                .collect();
            self.array(name, "(Str, Group, Str)", &rows);
        }
        Ok(())
    }

    /// `&[(List, Option<Str>)]`: `word word [word] = canonical` or `word word [word] =` lines,
    /// longest first.
    fn phrases(&mut self, name: &str, s: &Section) -> Result<(), Fail> {
        let mut rows = Vec::new();
        let mut longest = usize::MAX;
        for (n, line) in &s.lines {
            let Some((words, canon)) = line.split_once('=') else {
                return fail(
                    &s.file,
                    *n,
                    "expected `word word [word] = canonical` or `word word [word] =`",
                );
            };
            let words: Vec<&str> = words.split_whitespace().collect();
            let canon = canon.trim();
            // The matcher reads phrases of two and three words.
            if !(2..=3).contains(&words.len()) || canon.contains(char::is_whitespace) {
                return fail(
                    &s.file,
                    *n,
                    "expected two or three words, `=`, and at most one word",
                );
            }
            if words.len() > longest {
                return fail(
                    &s.file,
                    *n,
                    "longer than the phrase before it (longest first)",
                );
            }
            longest = words.len();
            let list = self.list(words);
            let canon = if canon.is_empty() {
                "None".to_owned()
            } else {
                format!("Some({})", self.pool.add(canon))
            };
            rows.push(format!("({list}, {canon})"));
        }
        self.array(name, "(List, Option<Str>)", &rows);
        Ok(())
    }

    /// `&[List]`: one class a section, its comment kept.
    fn classes(&mut self, name: &str, sections: &[Section]) -> Result<(), Fail> {
        let mut rows = Vec::new();
        for class in sections {
            let ws = words(class)?;
            if ws.is_empty() {
                return fail(&class.file, class.line, "an empty class");
            }
            let mut row = String::new();
            for line in &class.doc {
                write!(row, "// {line}\n    ").unwrap();
            }
            row.push_str(&self.list(ws.iter().map(|(_, w)| *w)));
            rows.push(row);
        }
        self.array(name, "List", &rows);
        Ok(())
    }

    fn finish(mut self) -> String {
        let n = self.words.len();
        writeln!(
            self.code,
            "\n/// Every word of the lists, list after list: a [`List`] is a run of it.\nstatic WORDS: [Str; {n}] = ["
        )
        .unwrap();
        for w in &self.words {
            writeln!(self.code, "    {w},").unwrap();
        }
        self.code.push_str("];\n");
        writeln!(
            self.code,
            "\n/// The [`key`] of each word of [`WORDS`]: what a [`Set`] is searched by.\nstatic KEYS: [u64; {n}] = keys(&WORDS);"
        )
        .unwrap();
        writeln!(
            self.code,
            "\n/// The groups of the words of the [`GroupMap`]s: a map's are a run of it.\nstatic GROUPS: [Group; {}] = [",
            self.groups.len()
        )
        .unwrap();
        for g in &self.groups {
            writeln!(self.code, "    {g},").unwrap();
        }
        self.code.push_str("];\n");
        writeln!(
            self.code,
            "\n/// Every string of the tables, in one literal: a [`Str`] is a place in it.\nconst POOL: &str = {:?};",
            self.pool.text
        )
        .unwrap();
        self.code
    }
}
