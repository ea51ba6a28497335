//! The word lists the family matcher reads: data, not logic. The lists are in
//! `data/families/*.txt` (format: `data/families/README.md`), compiled by `build.rs`
//! (`build/families.rs`) into the tables included here; this module holds the types they are
//! read through and the contrast groups.
//!
//! Every list of words is folded (lowercase, accents and full-width forms folded: what
//! [`super::text`] makes of a word); a [`Set`] (and the words of a [`Map`]) is sorted (byte
//! order) and holds each word once, so a lookup is a binary search. The build fails on a word
//! out of order or listed twice, and the unit tests check the fold, so an entry added out of
//! place never silently fails to match.
//!
//! The tables hold no pointers: every string is a place ([`Str`]) in one literal, and a list is
//! a run ([`List`]) of one array of words. A `&'static str` in a static table costs the binary
//! one relocation, applied by the loader at every start of the hook whether the run reads it or
//! not: these lists were some 3,300 of them.
//!
//! The lists are general vocabulary of software work in the nine languages askhook reads (en,
//! zh, ja, ko, es, de, fr, pt, ru) — function words, negations, names that mean the same tool,
//! the groups of words whose members name alternatives that must agree (environments, test
//! kinds, scope, opposite actions), verbs of development work — never words picked to make one
//! pair of questions match. `docs/families.md` says what each list does to a match.

/// A contrast group: its words name alternatives, and two questions naming different ones are
/// different decisions (`staging` / `production`, `enable` / `disable`, `unit` / `integration`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Group {
    /// Where it runs: local (the default, may go unsaid), staging, production, preview, remote.
    Env,
    /// The kind of test: unit, integration, e2e, smoke.
    TestKind,
    /// How much: all / every / whole, or only.
    Scope,
    /// Public or private / internal (`the public API` / `the API`: naming it on one side
    /// only is fine).
    Visibility,
    /// Frontend or backend.
    Side,
    /// A major or a minor version.
    Level,
    /// A forced variant (`--force`, force-push).
    Force,
    /// Before or after something.
    Order,
    Enable,
    Add,
    Up,
    Import,
    Show,
    Allow,
    Include,
    Start,
    Inline,
    Lock,
    Encrypt,
    Merged,
    Staged,
    /// Which of the thing's roles: the default or the fallback, the primary or the secondary,
    /// the source or the target, the minimum or the maximum (`default locale` / `fallback
    /// locale` are two settings with the same choices).
    Role,
    /// Where a value lives: the API's response or payload, or a table's column (`the time
    /// field of the API response` / `the time column of the table`; a value stored, or one a
    /// report shows).
    Layer,
    /// Which property of a thing is decided: how long it is kept, how finely it is cut, when it
    /// expires (`partition granularity` / `partition retention`).
    Facet,
    /// The kind of change a branch or a release carries: a feature or a fix (`Which branch
    /// should the hotfix be based on?` / `Branch the search feature off develop or main?`).
    Change,
    /// What is built: an application or a library others install (`How should the web app's
    /// dependencies be pinned?` / `Our published SDK declares dependencies too`).
    Product,
}

/// How a group's members must agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Agree {
    /// The same members on both sides (one side naming one and the other none differs too).
    Exactly,
    /// Never a member on one side only whose opposite is on the other side only; naming it on
    /// one side and nothing on the other is fine (`Add it?` / `Do you want it?`).
    NotOpposed,
}

/// Which parts of a question a group is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// The asking sentence and the header.
    Core,
    /// The whole question text and the header.
    Text,
    /// The text, the header and the option labels.
    All,
    /// The asking sentence alone: what is asked for, not the topic a header or a context
    /// sentence names (`Upgrade` over `After the upgrade the admin broke. Roll it back?`).
    Ask,
}

impl Group {
    /// Every group, in the order they are checked.
    pub(super) const ALL: [Group; 26] = [
        Group::Env,
        Group::TestKind,
        Group::Scope,
        Group::Visibility,
        Group::Side,
        Group::Level,
        Group::Force,
        Group::Order,
        Group::Enable,
        Group::Add,
        Group::Up,
        Group::Import,
        Group::Show,
        Group::Allow,
        Group::Include,
        Group::Start,
        Group::Inline,
        Group::Lock,
        Group::Encrypt,
        Group::Merged,
        Group::Staged,
        Group::Role,
        Group::Layer,
        Group::Facet,
        Group::Change,
        Group::Product,
    ];

    /// How its members must agree, where they are read, and the member that may go unsaid.
    pub(super) fn rule(self) -> (Agree, Part, Option<&'static str>) {
        match self {
            Group::Env => (Agree::Exactly, Part::Text, Some("local")),
            Group::Level => (Agree::Exactly, Part::Text, None),
            Group::TestKind => (Agree::NotOpposed, Part::Text, None),
            Group::Scope => (Agree::Exactly, Part::Core, None),
            Group::Force => (Agree::Exactly, Part::All, None),
            Group::Order => (Agree::NotOpposed, Part::Core, None),
            Group::Up | Group::Layer | Group::Facet => (Agree::NotOpposed, Part::Ask, None),
            _ => (Agree::NotOpposed, Part::Text, None),
        }
    }

    /// Its name, for a verdict's reason.
    pub(super) fn name(self) -> &'static str {
        match self {
            Group::Env => "environment",
            Group::TestKind => "kind of test",
            Group::Scope => "scope",
            Group::Visibility => "visibility",
            Group::Side => "frontend/backend",
            Group::Level => "version level",
            Group::Force => "force",
            Group::Order => "before/after",
            Group::Enable => "enable/disable",
            Group::Add => "add/remove",
            Group::Up => "up/down",
            Group::Import => "import/export",
            Group::Show => "show/hide",
            Group::Allow => "allow/deny",
            Group::Include => "include/exclude",
            Group::Start => "start/stop",
            Group::Inline => "inline/extract",
            Group::Lock => "lock/unlock",
            Group::Encrypt => "encrypt/decrypt",
            Group::Merged => "merged/unmerged",
            Group::Staged => "staged/unstaged",
            Group::Role => "role (default/fallback, primary/secondary, source/target, min/max)",
            Group::Layer => "API response/table column",
            Group::Facet => "retention/granularity/expiry",
            Group::Change => "feature/fix",
            Group::Product => "application/library",
        }
    }
}

/// A string of the word lists: its place in [`POOL`], the one literal that holds them all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Str(u32, u32);

impl Str {
    pub(crate) fn get(self) -> &'static str {
        &POOL[self.0 as usize..self.0 as usize + self.1 as usize]
    }

    fn bytes(self) -> &'static [u8] {
        &POOL.as_bytes()[self.0 as usize..self.0 as usize + self.1 as usize]
    }

    /// Whether it is `word` (the lengths compared first: most words differ there).
    pub(crate) fn is(self, word: &str) -> bool {
        self.1 as usize == word.len() && self.bytes() == word.as_bytes()
    }
}

/// A list of words, in the order written: a run of [`WORDS`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct List(u32, u32);

impl List {
    fn range(self) -> std::ops::Range<usize> {
        self.0 as usize..self.0 as usize + self.1 as usize
    }

    /// Its words as places in [`POOL`].
    pub(crate) fn strs(self) -> &'static [Str] {
        &WORDS[self.range()]
    }

    pub(crate) fn iter(self) -> Words {
        let get: fn(&Str) -> &'static str = |s| s.get();
        self.strs().iter().map(get)
    }

    /// Whether it holds `word` (a linear search: a [`Set`] searches faster).
    pub(crate) fn contains(self, word: &str) -> bool {
        self.strs().iter().any(|s| s.is(word))
    }
}

/// The words of a [`List`] or [`Set`], in order.
pub(crate) type Words = std::iter::Map<std::slice::Iter<'static, Str>, fn(&Str) -> &'static str>;

impl IntoIterator for List {
    type Item = &'static str;
    type IntoIter = Words;

    fn into_iter(self) -> Words {
        self.iter()
    }
}

/// A list of words sorted (byte order), each once (the build checks both): a word is found by
/// a binary search over the numbers its words begin with ([`KEYS`]), then one comparison.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Set(List);

impl Set {
    /// The place of `word` in the set.
    pub(crate) fn find(self, word: &str) -> Option<usize> {
        let range = self.0.range();
        let (keys, words) = (&KEYS[range.clone()], &WORDS[range]);
        let key = key(word.as_bytes());
        // Sorted words have sorted keys; the words sharing their first eight bytes are
        // consecutive.
        let first = keys.partition_point(|&k| k < key);
        (first..keys.len())
            .take_while(|&i| keys[i] == key)
            .find(|&i| words[i].is(word))
    }

    pub(crate) fn contains(self, word: &str) -> bool {
        self.find(word).is_some()
    }

    pub(crate) fn iter(self) -> Words {
        self.0.iter()
    }
}

/// A table sorted by its words, each once: the words are a [`Set`], their values a [`List`] in
/// the same order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Map {
    words: Set,
    values: List,
}

impl Map {
    pub(crate) fn get(self, word: &str) -> Option<&'static str> {
        self.words.find(word).map(|i| self.values.strs()[i].get())
    }

    /// Each word with its value, in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = (&'static str, &'static str)> {
        self.words.iter().zip(self.values.iter())
    }

    pub(crate) fn values(self) -> List {
        self.values
    }
}

/// A [`Map`] from contrast-group words to the member each names, and their groups: a run of
/// [`GROUPS`], in the same order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupMap {
    map: Map,
    groups: u32,
}

impl GroupMap {
    /// The group and member `word` names.
    pub(crate) fn get(self, word: &str) -> Option<(Group, &'static str)> {
        let i = self.map.words.find(word)?;
        Some((self.group(i), self.map.values.strs()[i].get()))
    }

    /// Each word with its group and member, in order.
    #[cfg(test)]
    pub(crate) fn iter(self) -> impl Iterator<Item = (&'static str, Group, &'static str)> {
        (self.map.iter().enumerate()).map(move |(i, (w, m))| (w, self.group(i), m))
    }

    fn group(self, i: usize) -> Group {
        GROUPS[self.groups as usize + i]
    }
}

/// The first eight bytes of a word as a number (shorter words padded with zeros): in the order
/// of the words (byte order), and equal only for words that share their first eight bytes.
const fn key(word: &[u8]) -> u64 {
    if let Some(head) = word.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    let mut bytes = [0u8; 8];
    bytes.split_at_mut(word.len()).0.copy_from_slice(word);
    u64::from_be_bytes(bytes)
}

/// The [`key`] of each word (computed at compile time into [`KEYS`]).
const fn keys<const N: usize>(words: &[Str; N]) -> [u64; N] {
    let mut keys = [0; N];
    let mut i = 0;
    while i < N {
        let Str(at, len) = words[i];
        let (_, word) = POOL.as_bytes().split_at(at as usize);
        let (word, _) = word.split_at(len as usize);
        keys[i] = key(word);
        i += 1;
    }
    keys
}

include!(concat!(env!("OUT_DIR"), "/family_tables.rs"));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::text::fold;

    fn check_folded(name: &str, words: impl IntoIterator<Item = &'static str>) {
        for w in words {
            assert_eq!(fold(w), w, "{name}: {w:?} is not folded");
        }
    }

    fn check_sorted(name: &str, words: &[&str]) {
        for pair in words.windows(2) {
            assert!(
                pair[0] < pair[1],
                "{name}: {:?} before {:?}",
                pair[0],
                pair[1]
            );
        }
    }

    const SETS: [(&str, Set); 37] = [
        ("STOP_EN", STOP_EN),
        ("STOP_DE", STOP_DE),
        ("STOP_FR", STOP_FR),
        ("STOP_ES", STOP_ES),
        ("STOP_PT", STOP_PT),
        ("STOP_RU", STOP_RU),
        ("GENERIC", GENERIC),
        ("NEG_EN", NEG_EN),
        ("NEG_DE", NEG_DE),
        ("NEG_FR", NEG_FR),
        ("NEG_ES", NEG_ES),
        ("NEG_PT", NEG_PT),
        ("NEG_RU", NEG_RU),
        ("OR_WORDS", OR_WORDS),
        ("DETERMINERS_EN", DETERMINERS_EN),
        ("CJK_OR_WORDS", CJK_OR_WORDS),
        ("STATUS_QUO", STATUS_QUO),
        ("CJK_STATUS_QUO", CJK_STATUS_QUO),
        ("SUBORDINATORS", SUBORDINATORS),
        ("LEADING_SUBORDINATORS", LEADING_SUBORDINATORS),
        ("PARTICLES", PARTICLES),
        ("GENERIC_ACRONYMS", GENERIC_ACRONYMS),
        ("GENERIC_LABEL", GENERIC_LABEL),
        ("ANSWER_WORDS", ANSWER_WORDS),
        ("ANSWER_PREFIXES_CJK", ANSWER_PREFIXES_CJK),
        ("FILE_EXTENSIONS", FILE_EXTENSIONS),
        ("HAN_STOP", HAN_STOP),
        ("HAN_NEG", HAN_NEG),
        ("KO_STOP", KO_STOP),
        ("ACTIONS_EN", ACTIONS_EN),
        ("ACTIONS_DE", ACTIONS_DE),
        ("ACTIONS_FR", ACTIONS_FR),
        ("ACTIONS_ES", ACTIONS_ES),
        ("ACTIONS_PT", ACTIONS_PT),
        ("ACTIONS_RU", ACTIONS_RU),
        ("QUANTITY_WORDS", QUANTITY_WORDS),
        ("NUMBER_WORDS", NUMBER_WORDS),
    ];

    #[test]
    fn word_lists_are_folded_and_sorted() {
        for (name, set) in SETS {
            let words: Vec<&str> = set.iter().collect();
            check_sorted(name, &words);
            check_folded(name, words);
        }
        for (name, map) in [
            ("ALIASES", ALIASES),
            ("CJK_ALIASES", CJK_ALIASES),
            ("IRREGULAR", IRREGULAR),
        ] {
            let words: Vec<&str> = map.iter().map(|(w, _)| w).collect();
            check_sorted(name, &words);
            check_folded(name, words);
        }
        let groups: Vec<&str> = GROUP_WORDS.iter().map(|(w, _, _)| w).collect();
        check_sorted("GROUP_WORDS", &groups);
        check_folded("GROUP_WORDS", groups);
    }

    #[test]
    fn a_set_finds_each_of_its_words_and_no_other() {
        let sets = SETS.into_iter().chain([
            ("ALIASES", ALIASES.words),
            ("CJK_ALIASES", CJK_ALIASES.words),
            ("IRREGULAR", IRREGULAR.words),
            ("GROUP_WORDS", GROUP_WORDS.map.words),
        ]);
        for (name, set) in sets {
            for (i, w) in set.iter().enumerate() {
                assert_eq!(set.find(w), Some(i), "{name}: {w:?}");
                // Words that share their first eight bytes, or the whole key of a shorter word.
                for other in [format!("{w}\u{0}"), format!("{w}s"), format!("{w}zzzzzzzz")] {
                    assert_eq!(
                        set.contains(&other),
                        set.iter().any(|x| x == other),
                        "{name}: {other:?}"
                    );
                }
                let mut cut = w.to_owned();
                cut.pop();
                assert_eq!(
                    set.contains(&cut),
                    set.iter().any(|x| x == cut),
                    "{name}: {cut:?}"
                );
            }
            assert!(!set.contains(""), "{name}");
        }
        assert!(STOP_EN.contains("the") && !STOP_EN.contains("database"));
        assert_eq!(ALIASES.get("pg"), Some("postgres"));
        assert_eq!(GROUP_WORDS.get("staging"), Some((Group::Env, "staging")));
    }

    #[test]
    fn the_ordered_lists_hold_folded_words_and_endings_longest_first() {
        for (name, list) in [("KO_ENDINGS", KO_ENDINGS), ("RU_ENDINGS", RU_ENDINGS)] {
            let words: Vec<&str> = list.iter().collect();
            for pair in words.windows(2) {
                assert!(
                    pair[0].chars().count() >= pair[1].chars().count(),
                    "{name}: {:?} before {:?}",
                    pair[0],
                    pair[1]
                );
            }
        }
        for (words, _) in PHRASES {
            check_folded("PHRASES", words.iter());
        }
        for pair in PHRASES.windows(2) {
            assert!(
                pair[0].0.strs().len() >= pair[1].0.strs().len(),
                "PHRASES longest first"
            );
        }
        // The CJK and Cyrillic group lists are the CJK and Cyrillic words of GROUP_WORDS.
        for (w, g, m) in CJK_GROUP_WORDS.iter().chain(CYRILLIC_GROUP_PREFIXES) {
            assert_eq!(GROUP_WORDS.get(w.get()), Some((*g, m.get())), "{w:?}");
        }
        for g in Group::ALL {
            assert!(
                GROUP_WORDS.iter().any(|(_, h, _)| h == g),
                "{} has no words",
                g.name()
            );
        }
    }
}
