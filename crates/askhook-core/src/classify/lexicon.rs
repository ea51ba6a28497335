//! The lexicons compiled from `data/doors/*.txt` by `build.rs`, and matching their terms
//! against a token stream.
//!
//! Every term names a concept (`delete`, `database`, `production`, `negation` …) whose kind and
//! rule come from `concepts.txt`; the engine reasons over concepts only, so a language is
//! added by writing its lexicon, never by writing code. Lookups are hash probes into static
//! tables (exact words, stems, word endings), so a question costs a few hundred probes.

use super::fold::fnv1a;
use super::text::{Kind as TokKind, Token};
use super::Door;

/// How an action decides (see `concepts.txt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionRule {
    /// One-way whatever it touches.
    Always,
    /// One-way unless everything it touches is harmless, or the place is safe.
    UnlessBenign,
    /// One-way only when it touches something dangerous.
    IfDanger,
    /// One-way when it touches something dangerous, or when nothing says where it goes.
    IfUnplaced,
    /// One-way only in a dangerous place (restarting production, not restarting Postgres).
    IfPlace,
    /// One-way on something dangerous; precious work (uncommitted, unpushed) may be moved.
    Modifies,
    /// One-way unless it happens in a safe place (local, dev, test), whatever it touches.
    UnlessSafe,
    /// One-way unless what it touches is disposable (a cache, build output, a draft): throwing
    /// away code or edits is not undone by git.
    UnlessDisposable,
}

/// How much an object or place matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Weight {
    /// Words that only keep other words from being misread (`from scratch`, `moving parts`).
    Inert,
    /// Regenerable or throwaway: a cache, build output, a draft.
    Disposable,
    /// Harmless to delete or change, since git keeps it: code, an unused import, a comment.
    Benign,
    /// A local or development place.
    Safe,
    /// Says nothing either way: a file, a branch, staging.
    Neutral,
    /// Used by others (a remote, everything): dangerous to destroy, normal to change.
    Shared,
    /// Data, production, people, money: one-way unless the place is safe.
    Danger,
    /// Lost for good whatever the place: unpushed work, the only copy.
    Precious,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Qualifier {
    /// `not`, `never`, `without` before what it negates.
    Negate,
    /// Japanese/Korean/German negation after the verb.
    NegateAfter,
    /// `--dry-run`, `preview`: nothing in the clause happens for real.
    Preview,
    /// `implement`, `add a button to`, `write a test that`: talk about code that acts.
    Meta,
    /// `soft`-delete, move to trash: reversible by design.
    Soft,
    /// The same after the action (`suppression logique`, `als gelöscht markieren`).
    SoftAfter,
    /// Talk about code after the action it is about (German: `… löschen implementieren`).
    MetaAfter,
    /// `in`, `from`, `inside`: what follows is where, not what.
    Container,
    /// `の`, `的`, `의`: what precedes is where, not what.
    ContainerAfter,
    /// `then`, `afterwards`: a new clause starts.
    Break,
    /// `and`, `as well as`, a comma: a new clause only when a new action follows, so a list of
    /// objects stays with its verb (`delete the cache, the logs and the users table`).
    Join,
    /// `with`, `using`: the place after it is where something comes from.
    Source,
    /// `was`, `already`: the action after it has happened; nothing is proposed.
    Past,
    /// `I'm only editing the file`: what the question's actions do is edit text.
    EditOnly,
    /// `to`, `into`: what follows is where the action lands, whatever was said of its source.
    Destination,
    /// `follow the runbook`, `run the steps`: talk about a procedure after it is done, not
    /// written.
    Perform,
    /// `staging is rebuilt every night`: a statement that what the question touches is
    /// recreated on a schedule anyway.
    Rebuilt,
    /// `посмотреть`, `prüfen` right before a comma and a `what`: the clause after it says what
    /// an action would do, to be seen, not done.
    Look,
    /// `inline`, `rename`, `refactor`, `split out`: an identifier in the same field
    /// (`purgeCache()`, `wipe_device()`) is code being edited, not an order to run it.
    EditsCode,
    /// `which tests should I add`, `which design should the RFC propose`: a question that
    /// chooses what to write down; its options are test cases and designs, not orders.
    Proposes,
    /// `a copy of`, `clones of`: what follows is what the copy was made from; the copy is
    /// what an action on it touches (`the practice copy of the HR database on your laptop`).
    CopyOf,
    /// `as we agreed`, `как договорились`, `o que a gente combinou`: the question defers to an
    /// earlier conversation the classifier never saw.
    Agreed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Action(ActionRule),
    Object(Weight),
    Place(Weight),
    Effect(Door),
    Qualifier(Qualifier),
    Stopword,
}

#[derive(Debug)]
pub struct ConceptDef {
    pub name: &'static str,
    pub kind: Kind,
}

/// A string of the tables: its place in [`POOL`], the one literal that holds them all. The
/// tables hold no pointers, so the loader has nothing to relocate in them at start-up (a
/// `&'static str` each cost one relocation per run, ~100 000 of them).
#[derive(Clone, Copy)]
pub struct Str(u32, u32);

impl Str {
    pub fn get(self) -> &'static str {
        &POOL[self.0 as usize..(self.0 + self.1) as usize]
    }
}

impl std::fmt::Debug for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.get())
    }
}

/// One element of a term.
#[derive(Debug)]
pub enum Elem {
    Exact(Str),
    Prefix(Str),
    Suffix(Str),
    Infix(Str),
    /// Short flags that must all be set (`rf` in `-rf`, `-fr`, `-r -f`).
    Short(Str),
    /// A long flag (`--force`, `-Recurse`).
    Long(Str),
    /// Up to this many tokens of anything, inside the clause.
    Gap(u8),
    /// `star` (`*`), `pipe` (`|`), `plus`/`colon`/`dollar`/`tilde` (a prefixed word), `num`.
    Symbol(Str),
}

#[derive(Debug)]
pub struct Term {
    pub concept: u16,
    pub lang: u8,
    /// For qualifiers: how many tokens away they reach.
    pub window: u8,
    /// Where its elements are in [`ELEMS`], and how many.
    elems: (u32, u8),
    /// `file:line` in `data/doors`, to say which line matched.
    source: Str,
}

impl Term {
    pub fn elems(&self) -> &'static [Elem] {
        let (at, len) = (self.elems.0 as usize, usize::from(self.elems.1));
        &ELEMS[at..at + len]
    }

    pub fn source(&self) -> &'static str {
        self.source.get()
    }
}

/// An open-addressing hash table from a key to a run of indices in `list`.
pub struct Table {
    mask: usize,
    slots: &'static [(u32, Str, u32, u32)],
    list: &'static [u32],
}

impl Table {
    pub fn get(&self, key: &str) -> &'static [u32] {
        self.get_hashed(fnv1a(key.as_bytes()), key)
    }

    /// `get` with the key's hash already computed (a running hash over a word's prefixes).
    pub fn get_hashed(&self, hash: u32, key: &str) -> &'static [u32] {
        let mut at = hash as usize & self.mask;
        loop {
            let (h, k, start, len) = self.slots[at];
            if len == 0 {
                return &[];
            }
            if h == hash && k.get() == key {
                return &self.list[start as usize..(start + len) as usize];
            }
            at = (at + 1) & self.mask;
        }
    }

    pub fn contains(&self, key: &str) -> bool {
        !self.get(key).is_empty()
    }
}

include!(concat!(env!("OUT_DIR"), "/door_tables.rs"));

pub fn concept(id: u16) -> &'static ConceptDef {
    &CONCEPTS[id as usize]
}

/// The longest lexicon word at the start of `chars` (folded characters of a CJK or Hangul
/// run), in characters.
pub fn longest_segment(chars: &[String]) -> Option<usize> {
    let max = chars.len().min(MAX_SEGMENT_CHARS);
    let mut key = String::new();
    let mut best = None;
    for (len, c) in chars.iter().take(max).enumerate() {
        key.push_str(c);
        if SEGMENTS.contains(&key) {
            best = Some(len + 1);
        }
    }
    best
}

/// A term found in the tokens: `start..=end` token indices.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    pub concept: u16,
    pub term: u32,
    pub start: u32,
    pub end: u32,
}

impl Hit {
    pub fn kind(&self) -> Kind {
        concept(self.concept).kind
    }

    pub fn term(&self) -> &'static Term {
        &TERMS[self.term as usize]
    }
}

/// Every term of every lexicon found in `tokens`, in token order.
pub fn find_hits(tokens: &[Token]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::with_capacity(tokens.len());
    for i in 0..tokens.len() {
        hits_at(tokens, i, &mut hits);
    }
    hits.sort_by_key(|h| (h.start, h.end));
    drop_shadowed(&mut hits, tokens);
    hits.retain(|h| {
        !participle_after_determiner(h, tokens)
            && !preview_word_in_output(h, tokens)
            && !asks_what_you_would(h, tokens)
    });
    hits
}

/// `What fix would you like?`, `Which one would you prefer?`: a `what … would` followed by
/// `you` asks the user to choose; it previews nothing (`see what it would delete` does).
fn asks_what_you_would(hit: &Hit, tokens: &[Token]) -> bool {
    let end = hit.end as usize;
    matches!(hit.kind(), Kind::Qualifier(Qualifier::Preview))
        && tokens[end].key == "would"
        && tokens
            .get(end + 1)
            .is_some_and(|t| t.field == tokens[end].field && t.key == "you")
}

/// `count: 0` in a fenced block of `git count-objects` output: a preview word quoted in
/// output or a script is what the block says, not what the question does. A flag there
/// (`--dry-run`) still is one.
fn preview_word_in_output(hit: &Hit, tokens: &[Token]) -> bool {
    matches!(hit.kind(), Kind::Qualifier(Qualifier::Preview))
        && tokens[hit.start as usize..=hit.end as usize]
            .iter()
            .all(|t| t.fenced && t.dashes == 0)
}

/// English determiners: a participle right after one describes a thing, it does not act.
const ENGLISH_DETERMINERS: &[&str] = &[
    "the", "a", "an", "this", "these", "those", "its", "our", "your", "their", "my", "his", "her",
];

/// `the updated schema.prisma`, `the deleted customers`, `a renamed column`: an English past
/// participle right after a determiner is an adjective naming a state, not an action. The
/// actions around it still count (`Publish the updated package`).
fn participle_after_determiner(hit: &Hit, tokens: &[Token]) -> bool {
    let i = hit.start as usize;
    hit.start == hit.end
        && i > 0
        && matches!(hit.kind(), Kind::Action(_))
        && LEXICON_LANGS[hit.term().lang as usize] == "en"
        && tokens[i].key.ends_with("ed")
        && !tokens[i].boundary
        && tokens[i - 1].field == tokens[i].field
        && ENGLISH_DETERMINERS.contains(&tokens[i - 1].key.as_str())
}

/// Record a match unless the same concept already matched the same words in the same lexicon
/// (one per lexicon: a qualifier counts in its own language only).
fn push(hits: &mut Vec<Hit>, term: u32, start: usize, end: usize) {
    let concept = TERMS[term as usize].concept;
    let lang = TERMS[term as usize].lang;
    let (start, end) = (start as u32, end as u32);
    let seen =
        hits.iter().rev().take(24).any(|h| {
            h.concept == concept && h.start == start && h.end == end && h.term().lang == lang
        });
    if !seen {
        hits.push(Hit {
            concept,
            term,
            start,
            end,
        });
    }
}

/// Try the terms of `list`, found through token `i`'s key.
fn try_terms(tokens: &[Token], i: usize, list: &[u32], hits: &mut Vec<Hit>) {
    let ident = tokens[i].kind == TokKind::Ident;
    for &term in list {
        let def = &TERMS[term as usize];
        if ident && LEXICON_LANGS[def.lang as usize] != "tech" {
            continue;
        }
        // A one-word term found through its own key matches as it is.
        if def.elems().len() == 1
            && matches!(
                def.elems()[0],
                Elem::Exact(_) | Elem::Prefix(_) | Elem::Suffix(_)
            )
        {
            push(hits, term, i, i);
        } else if let Some(end) = match_from(tokens, i, def.elems()) {
            push(hits, term, i, end);
        }
    }
}

/// Every term that starts at token `i`.
fn hits_at(tokens: &[Token], i: usize, hits: &mut Vec<Hit>) {
    let t = &tokens[i];
    let key = t.key.as_str();
    let lexical = matches!(t.kind, TokKind::Word | TokKind::Segment | TokKind::Number);
    if lexical || matches!(t.kind, TokKind::Ident | TokKind::Path | TokKind::Symbol) {
        try_terms(tokens, i, EXACT.get(key), hits);
    }
    // A word written `#general` (a channel) meets the terms written so.
    if lexical && t.prefix == b'#' {
        try_terms(tokens, i, EXACT.get(&format!("#{key}")), hits);
    }
    if lexical {
        // Stems: a running hash over the word's prefixes, probed at the lengths stems have.
        let mut hash: u32 = 0x811c_9dc5;
        for (len, &b) in key.as_bytes().iter().enumerate() {
            hash = (hash ^ u32::from(b)).wrapping_mul(0x0100_0193);
            let len = len + 1;
            if len < 64 && PREFIX_LENS & (1 << len) != 0 && key.is_char_boundary(len) {
                try_terms(tokens, i, PREFIX.get_hashed(hash, &key[..len]), hits);
            }
        }
        for (at, _) in key.char_indices() {
            let len = key.len() - at;
            if len < 64 && SUFFIX_LENS & (1 << len) != 0 {
                try_terms(tokens, i, SUFFIX.get(&key[at..]), hits);
            }
        }
    } else if t.kind == TokKind::Ident && t.constant {
        // A constant ends in a tail only after an underscore (`*_api_key`: `SENDGRID_API_KEY`,
        // not the function `get_api_key`).
        for (at, _) in key.match_indices('_') {
            let len = key.len() - at;
            if len < 64 && SUFFIX_LENS & (1 << len) != 0 {
                try_terms(tokens, i, SUFFIX.get(&key[at..]), hits);
            }
        }
    }
    if t.kind == TokKind::Path {
        for term in path_terms(key) {
            push(hits, term, i, i);
        }
    }
    // Terms that start with a flag, a symbol or a word part, tried only where they can match.
    let firsts: &[&[u32]] = match t.kind {
        TokKind::Flag if t.dashes == 1 && t.key.len() <= 4 => &[SHORT_FIRST, LONG_FIRST.get(key)],
        TokKind::Flag => &[LONG_FIRST.get(key)],
        TokKind::Word | TokKind::Segment if key.len() >= 6 => &[INFIX_FIRST, SYMBOL_FIRST],
        TokKind::Ident if t.call => &[INFIX_FIRST, SYMBOL_FIRST],
        // Terms that start with `<num>` or `<money>` match at a number only.
        TokKind::Number => &[NUM_FIRST, SYMBOL_FIRST],
        _ => &[SYMBOL_FIRST],
    };
    for &term in firsts.iter().flat_map(|list| list.iter()) {
        if let Some(end) = match_from(tokens, i, TERMS[term as usize].elems()) {
            push(hits, term, i, end);
        }
    }
}

/// Words inside a longer, gap-free term mean what the longer term says: `delete button` is a
/// UI element, not a deletion; `cdn cache` a cache, not infrastructure.
fn drop_shadowed(hits: &mut Vec<Hit>, tokens: &[Token]) {
    let weighed = |h: &Hit| {
        matches!(
            concept(h.concept).kind,
            Kind::Action(_) | Kind::Object(_) | Kind::Place(_) | Kind::Effect(_)
        )
    };
    let gapped = |h: &Hit| h.term().elems().iter().any(|e| matches!(e, Elem::Gap(_)));
    // `What would you like to try?` asks the user, `Shall I already purge it?` asks to do it
    // now, `crio-ME` is a microscope, `the items you had already picked` are work: a preview,
    // past, code-talk or edit-only word inside an idiom or an object written whole is that
    // term's (`リリース前のマージ` is a merge waiting for the release, not a design phase).
    let qualifier_in_idiom = |h: &Hit| {
        matches!(
            h.kind(),
            Kind::Qualifier(
                Qualifier::Preview | Qualifier::Past | Qualifier::Meta | Qualifier::EditOnly
            )
        ) && hits.iter().any(|long| {
            // A preview flag named inside an object (`a --dry-run flag`) still previews.
            let holds = match long.kind() {
                Kind::Object(Weight::Inert) => true,
                Kind::Object(_) => !matches!(h.kind(), Kind::Qualifier(Qualifier::Preview)),
                _ => false,
            };
            holds
                && !gapped(long)
                && long.end - long.start > h.end - h.start
                && long.start <= h.start
                && long.end >= h.end
        })
    };
    // `plug-in`, `built-in`, `opt-in`: a preposition joined to the word before by a hyphen is
    // part of that word, not where anything is.
    let preposition_in_word = |h: &Hit| {
        matches!(
            h.kind(),
            Kind::Qualifier(
                Qualifier::Container
                    | Qualifier::ContainerAfter
                    | Qualifier::Destination
                    | Qualifier::Source
            )
        ) && h.start == h.end
            && tokens[h.start as usize].joined
    };
    let shadowed: Vec<bool> = hits
        .iter()
        .map(|h| {
            qualifier_in_idiom(h)
                || preposition_in_word(h)
                || (weighed(h)
                    && (compound_named(h, hits)
                        || hits.iter().any(|long| {
                            // An action written as one hyphenated word (`dist-upgrade`)
                            // holds no object of its own (`dist`, build output).
                            let one_word = (long.start + 1..=long.end)
                                .all(|k| tokens[k as usize].joined)
                                && long.end > long.start;
                            let may_shadow = weighed(long)
                                && (!matches!(long.kind(), Kind::Action(_))
                                    || matches!(h.kind(), Kind::Action(_))
                                    || one_word);
                            // A phrase written whole is more exact than a pattern with a gap
                            // that spans the same words (`open a follow-up` / `open ~ up`).
                            let longer = long.end - long.start > h.end - h.start
                                || long.end - long.start == h.end - h.start && gapped(h);
                            let inside = longer
                                && long.start <= h.start
                                && long.end >= h.end
                                && !gapped(long);
                            // `Where should the runbook live?`: an idiom with a gap names its
                            // first and last words.
                            let idiom_end = gapped(long)
                                && matches!(long.kind(), Kind::Object(Weight::Inert))
                                && h.start == h.end
                                && (h.start == long.start || h.start == long.end);
                            may_shadow && (inside || idiom_end)
                        })))
        })
        .collect();
    let mut i = 0;
    hits.retain(|_| {
        i += 1;
        !shadowed[i - 1]
    });
}

/// A compound the lexicons know whole as something harmless (`löschdialog`, a deletion
/// dialog; `dropdown`) is that thing, not the action whose stem merely starts it (`lösch*`).
fn compound_named(action: &Hit, hits: &[Hit]) -> bool {
    let stem_len = match action.term().elems() {
        [Elem::Prefix(stem)] if action.start == action.end => stem.get().len(),
        _ => return false,
    };
    matches!(action.kind(), Kind::Action(_))
        && hits.iter().any(|whole| {
            whole.start == action.start
                && whole.end == action.end
                && matches!(whole.kind(), Kind::Object(w) if w <= Weight::Benign)
                && matches!(whole.term().elems(), [Elem::Exact(word)] if word.get().len() >= stem_len + 4)
        })
}

/// What a path is: the terms of its most specific name a lexicon knows (`~/.cache/pip` is a
/// cache, `/srv/app/uploads` uploads), the heaviest when its file name says several things
/// (`secrets.txt` is secrets, not text).
/// `www.exemple.fr`, `https://app.minhaempresa.com.br`, `lk.company.ru`: a site's own name
/// (a public top-level domain, no label that names a test or staging host such as
/// `recette.exemple.fr` or `app.staging.acme.com`) is where its users are.
fn is_public_host(key: &str) -> bool {
    const TLDS: &[&str] = &[
        "com", "net", "org", "io", "co", "app", "ai", "shop", "store", "online", "site", "fr",
        "de", "es", "ru", "br", "pt", "jp", "cn", "kr", "uk", "us", "ca", "au", "mx", "ar", "cl",
        "it", "nl", "eu", "ch", "at", "be", "se", "no", "dk", "pl", "in", "tw", "hk", "рф",
    ];
    const NOT_LIVE: &[&str] = &[
        "dev",
        "develop",
        "development",
        "staging",
        "stage",
        "stg",
        "test",
        "tests",
        "testing",
        "qa",
        "uat",
        "preview",
        "sandbox",
        "demo",
        "local",
        "localhost",
        "recette",
        "homolog",
        "homologacao",
        "hml",
        "int",
        "integration",
        "sit",
        "beta",
        "canary",
        "preprod",
        "pre",
        "docs",
        "doc",
        "example",
        "examples",
        "github",
        "npmjs",
        "pypi",
        "mock",
        "fake",
        "testnet",
        "devnet",
        "edu",
        "lab",
        "labs",
    ];
    let bare = key
        .strip_prefix("https://")
        .or_else(|| key.strip_prefix("http://"));
    let host = bare.unwrap_or(key);
    let host = host.split(['/', ':', '?', '#']).next().unwrap_or(host);
    let labels: Vec<&str> = host.split('.').collect();
    // Two labels without a scheme are as often a product (`Fly.io`, `Customer.io`) or a
    // module path (`golang.org/x/crypto`) as a site.
    (labels.len() >= 3 && host.len() == key.len() || bare.is_some() && labels.len() >= 2)
        && !["com", "org", "net", "io"].contains(&labels[0])
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_alphanumeric() || c == '-'))
        && TLDS.contains(labels.last().unwrap_or(&""))
        && !labels
            .iter()
            .any(|l| NOT_LIVE.contains(l) || l.split('-').any(|part| NOT_LIVE.contains(&part)))
}

fn path_terms(path: &str) -> Vec<u32> {
    let names = path_names(path);
    let known = |name: &str| -> Vec<u32> {
        EXACT
            .get(name)
            .iter()
            .copied()
            .filter(|&term| {
                // Folder and file names are the tech lexicon's: `feature/login` is a branch name,
                // not a feature.
                let def = &TERMS[term as usize];
                def.elems().len() == 1
                    && LEXICON_LANGS[def.lang as usize] == "tech"
                    && matches!(concept(def.concept).kind, Kind::Object(_) | Kind::Place(_))
            })
            .collect()
    };
    let weight = |term: u32| match concept(TERMS[term as usize].concept).kind {
        Kind::Object(w) | Kind::Place(w) => w,
        _ => Weight::Inert,
    };
    // A file whose whole name is a local place (`.env.local`, `.env.development`) is that
    // place, not the parts of its name (`.env`, a secrets file).
    let whole = path
        .rsplit(['/', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or(path);
    if whole.starts_with('.')
        && known(whole).iter().any(|&t| {
            matches!(
                concept(TERMS[t as usize].concept).kind,
                Kind::Place(Weight::Safe)
            )
        })
    {
        return Vec::new();
    }
    // The file name's parts come last in `names`: weigh them together.
    let file_parts = names
        .iter()
        .rev()
        .take_while(|n| !n.ends_with('/'))
        .count()
        .min(3);
    let (dirs, file) = names.split_at(names.len() - file_parts);
    // A source file is code whatever it is called (`invoices.go`); a file name is never a place.
    let source = file
        .last()
        .is_some_and(|ext| SOURCE_EXTENSIONS.contains(&ext.as_str()));
    let file: &[String] = if source {
        &file[file.len() - 1..]
    } else {
        file
    };
    // A SQL file kept with code (`scripts/old_cleanup.sql`, `macros/surrogate_key.sql`) is a
    // script, unless its own name says what it holds (`scripts/prod_dump.sql`).
    let code_dir = || {
        dirs.iter().rev().find(|d| {
            known(d)
                .iter()
                .any(|&t| concept(TERMS[t as usize].concept).kind == Kind::Object(Weight::Benign))
        })
    };
    if file.last().is_some_and(|ext| ext == ".sql") {
        let stem_says_something = file[..file.len() - 1]
            .iter()
            .flat_map(|n| n.split(['_', '-', '.']))
            .filter(|part| *part != "sql")
            .any(|part| !known(part).is_empty());
        if let (false, Some(dir)) = (stem_says_something, code_dir()) {
            return known(dir);
        }
    }
    let mut best: Vec<u32> = file
        .iter()
        .flat_map(|n| known(n))
        .filter(|&t| matches!(concept(TERMS[t as usize].concept).kind, Kind::Object(_)))
        .collect();
    if let Some(top) = best.iter().map(|&t| weight(t)).max() {
        best.retain(|&t| weight(t) == top);
        return best;
    }
    for name in dirs.iter().rev() {
        let terms = known(name);
        if !terms.is_empty() {
            return terms;
        }
    }
    Vec::new()
}

/// Extensions of source code: a file with one of them is code, whatever its name says.
const SOURCE_EXTENSIONS: &[&str] = &[
    ".rs", ".go", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".py", ".rb", ".java", ".kt",
    ".kts", ".scala", ".swift", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".php", ".ex", ".exs",
    ".erl", ".hs", ".ml", ".clj", ".dart", ".lua", ".vue", ".svelte", ".css", ".scss", ".html",
    ".m", ".mm", ".zig",
];

/// The names a path is known by: its last segment, that segment without its extension, the
/// extension with its dot, and every directory on the way (`node_modules` in
/// `node_modules/.cache/x`).
fn path_names(path: &str) -> Vec<String> {
    // `of=/dev/sda`, `--out=dist/`: the path after the name.
    let path = match path.split_once('=') {
        Some((name, rest)) if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => rest,
        _ => path,
    };
    let trimmed = path.trim_end_matches(['/', '\\', '*']);
    let segments: Vec<&str> = trimmed
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != "." && *s != "..")
        .collect();
    let mut out: Vec<String> = Vec::new();
    if let Some(device) = path.strip_prefix("/dev/") {
        // Block devices only: `/dev/sda`, `/dev/nvme0n1`, not `/dev/ttyACM0`.
        let disk = [
            "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "md", "mapper", "dm-",
        ]
        .iter()
        .any(|p| device.starts_with(p));
        return if disk {
            vec!["/dev/".to_owned()]
        } else {
            Vec::new()
        };
    }
    // Where it lives: `~/`, `/home/`, `/var/lib/`.
    if path.starts_with("~/") {
        out.push("~/".to_owned());
    }
    // A Windows path is rooted at its drive: `C:\Users\marta` lives in `/users/`.
    let drive = path.len() > 2
        && path.as_bytes()[0].is_ascii_alphabetic()
        && path.as_bytes()[1] == b':'
        && matches!(path.as_bytes()[2], b'\\' | b'/');
    let rooted = if drive {
        &segments[1.min(segments.len())..]
    } else {
        &segments[..]
    };
    if path.starts_with('/') || drive {
        if let Some(first) = rooted.first() {
            out.push(format!("/{first}/"));
            if let Some(second) = rooted.get(1) {
                out.push(format!("/{first}/{second}/"));
            }
        }
    }
    for (i, segment) in segments.iter().enumerate() {
        out.push((*segment).to_owned());
        if i + 1 < segments.len() || trimmed.len() < path.len() {
            out.push(format!("{segment}/"));
        }
    }
    if let Some(last) = segments.last() {
        if let Some(dot) = last.rfind('.') {
            if dot > 0 {
                out.push(last[..dot].to_owned());
            }
            out.push(last[dot..].to_owned());
        }
    }
    out
}

/// Match `elems` starting at token `i`; the index of the last token matched.
fn match_from(tokens: &[Token], i: usize, elems: &[Elem]) -> Option<usize> {
    let mut at = i;
    let mut first = true;
    let mut gap: usize = 0;
    for elem in elems {
        if let Elem::Gap(n) = elem {
            gap = *n as usize;
            continue;
        }
        let mut found = None;
        let mut j = at;
        let limit = if first { i } else { at + gap };
        while j <= limit && j < tokens.len() {
            if !first && (tokens[j].field != tokens[i].field || tokens[j].boundary) {
                break;
            }
            if let Some(end) = match_elem(tokens, j, elem) {
                found = Some(end);
                break;
            }
            j += 1;
        }
        let end = found?;
        at = end + 1;
        first = false;
        gap = 0;
    }
    Some(at - 1)
}

fn match_elem(tokens: &[Token], j: usize, elem: &Elem) -> Option<usize> {
    let t = &tokens[j];
    let lexical = matches!(t.kind, TokKind::Word | TokKind::Segment | TokKind::Number);
    let key = t.key.as_str();
    let ok = match *elem {
        Elem::Exact(s) => {
            let s = s.get();
            (lexical || matches!(t.kind, TokKind::Ident | TokKind::Path | TokKind::Symbol))
                && (key == s || t.prefix == b'#' && s.strip_prefix('#') == Some(key))
        }
        Elem::Prefix(s) => lexical && key.starts_with(s.get()),
        // A tail starting with `_` names the last part of a snake_case identifier
        // (`*_api_key`: `SENDGRID_API_KEY`).
        Elem::Suffix(s) => {
            (lexical || t.kind == TokKind::Ident && t.constant && s.get().starts_with('_'))
                && key.ends_with(s.get())
        }
        Elem::Infix(s) => {
            let s = s.get();
            (lexical && key.len() >= s.len() + 2 || t.kind == TokKind::Ident && t.call)
                && key.contains(s)
        }
        Elem::Long(name) => t.kind == TokKind::Flag && key == name.get(),
        Elem::Short(chars) => return match_short(tokens, j, chars.get()),
        Elem::Symbol(name) => match name.get() {
            "star" => t.kind == TokKind::Symbol && key == "*",
            "pipe" => t.kind == TokKind::Symbol && key == "|",
            "plus" => t.prefix == b'+',
            "colon" => t.prefix == b':',
            "dollar" => t.prefix == b'$',
            "tilde" => t.prefix == b'~',
            "num" => t.kind == TokKind::Number,
            "money" => {
                t.kind == TokKind::Number && t.key.starts_with(['$', '€', '£', '¥', '₹', '₽', '₩'])
            }
            "root" => t.kind == TokKind::Path && is_root(key),
            "host" => matches!(t.kind, TokKind::Path | TokKind::Ident) && is_public_host(key),
            "share" => t.kind == TokKind::Path && is_network_share(key),
            _ => false,
        },
        Elem::Gap(_) => false,
    };
    ok.then_some(j)
}

/// Consecutive short-flag clusters from `j` that together set every flag in `chars`. A flag
/// written in lowercase in a term is either case in the text (`-rf` is `-Rf`); one written as
/// a capital is only that capital (`-D` is not `-d`).
fn match_short(tokens: &[Token], j: usize, chars: &str) -> Option<usize> {
    let mut seen: Vec<(char, bool)> = Vec::new();
    let mut k = j;
    while k < tokens.len() {
        let t = &tokens[k];
        if t.kind != TokKind::Flag || t.dashes != 1 || t.key.len() > 4 || (k > j && t.boundary) {
            break;
        }
        seen.extend(
            t.key
                .chars()
                .enumerate()
                .map(|(n, c)| (c, t.caps >> n & 1 == 1)),
        );
        let set = |c: char| {
            let lower = c.to_ascii_lowercase();
            seen.iter()
                .any(|&(s, cap)| s == lower && (cap || !c.is_ascii_uppercase()))
        };
        if chars.chars().all(set) {
            return Some(k);
        }
        k += 1;
    }
    None
}

/// Whether a folded word is a whole word some term starts with (`anyone`, `delete`).
pub fn is_exact_word(key: &str) -> bool {
    EXACT.contains(key)
}

/// The length of the longest word or stem of any term, in any position, that `key` is or
/// starts with (`logg` of "token* ~ logg*" in `loggen`), 0 when none.
pub fn word_stem_len(key: &str) -> usize {
    if !WORD_EXACT.get(key).is_empty() {
        return key.len();
    }
    key.char_indices()
        .skip(1)
        .map(|(len, _)| len)
        .chain(std::iter::once(key.len()))
        .filter(|&len| !WORD_PREFIX.get(&key[..len]).is_empty())
        .max()
        .unwrap_or(0)
}

/// The length of the longest action or effect stem that `key` starts with (`delet` in
/// `deleteuser`), 0 when none. A phrase's first word counts too: `ComMito` is `commito`, the
/// verb of "commit* ~ secrets" written in odd case, not a name.
pub fn action_stem_len(key: &str) -> usize {
    let is_action = |list: &[u32]| {
        list.iter().any(|&t| {
            let def = &TERMS[t as usize];
            matches!(concept(def.concept).kind, Kind::Action(_) | Kind::Effect(_))
        })
    };
    let mut best = 0;
    for (len, _) in key
        .char_indices()
        .skip(1)
        .chain(std::iter::once((key.len(), ' ')))
    {
        let prefix = &key[..len];
        if is_action(PREFIX.get(prefix)) || len == key.len() && is_action(EXACT.get(prefix)) {
            best = len;
        }
    }
    best
}

/// Whether `c` is a letter that some languages use and others don't (`@letters` lines).
pub fn is_marked_letter(c: char) -> bool {
    LETTERS.iter().any(|(_, set)| set.contains(c))
        || c.is_uppercase()
            && c.to_lowercase()
                .any(|l| LETTERS.iter().any(|(_, set)| set.contains(l)))
}

/// A Windows network share written as a UNC path (`\\fileserver\accounting\2020`), not a
/// local device path (`\\.\pipe`, `\\?\C:`) or WSL's own share.
fn is_network_share(path: &str) -> bool {
    path.strip_prefix("\\\\")
        .and_then(|rest| rest.split_once('\\'))
        .is_some_and(|(server, share)| {
            !server.is_empty()
                && !share.is_empty()
                && !matches!(server, "." | "?" | "wsl$" | "wsl.localhost" | "localhost")
        })
}

/// `/`, `~`, `$HOME` and their globs: everything a user has.
fn is_root(path: &str) -> bool {
    matches!(
        path.trim_end_matches(['*', '.']),
        "/" | "~" | "~/" | "$home" | "$home/" | "${home}" | "${home}/" | "c:\\" | "c:/"
    )
}
