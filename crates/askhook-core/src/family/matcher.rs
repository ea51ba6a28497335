//! The family matcher: whether two unmarked questions ask for the same decision, reworded.
//!
//! A question is read into a [`Signature`] once (its asking sentence, context, header and option
//! labels as stemmed content words, the members of contrast groups it names, its negations), and
//! two signatures are compared by [`same_decision`]. The comparison is built to prefer a missed
//! match to a wrong one: a family preference answers every question of the family, so every
//! rule below is a veto, and only a pair no veto stops *and* whose content words cover each
//! other is called the same decision. `docs/families.md` explains each rule.

use std::fmt;
use std::sync::OnceLock;

use super::lexicon::{self, Agree, Group, Part, Set, Str};
use super::text::{self, listed, lookup, Kind, Lang};
use crate::question::{recommendation_line_value, strip_recommendation, Choice};

/// One token of a question: a content word (stemmed) or only a contrast-group member (a
/// function word such as `all` that must still agree), or both.
#[derive(Debug, Clone)]
struct Tok {
    word: Option<String>,
    group: Option<(Group, &'static str)>,
    named: bool,
}

/// The tokens of one text.
#[derive(Debug, Default)]
struct Tokens {
    toks: Vec<Tok>,
    negations: usize,
    raw: Vec<String>,
    /// A French `ne` was counted, so its `pas` / `jamais` / `aucun` is the same negation.
    ne: bool,
}

/// A question read for comparison: build it once, compare it with many.
#[derive(Debug)]
pub struct Signature {
    lang: Lang,
    negations: usize,
    /// The raw words of the asking sentence, then of the context (for near-copies).
    raw: Vec<String>,
    /// The content words of the asking sentence and the header.
    core: Vec<String>,
    /// The content words of the whole text and the header.
    text_words: Vec<String>,
    /// Every content word, options included: sorted, unique.
    all: Vec<String>,
    /// The specific words of each option (sorted, unique), options that name nothing left out.
    options: Vec<Vec<String>>,
    /// Two adjacent content words of the asking sentence or the header read as one (`editor
    /// config`, `trailing commas`): the
    /// compound (the pair joined, read as one word, or their two readings joined) and the two
    /// words. The compounds are in [`Self::all`] too.
    joined: Vec<(String, String, String)>,
    /// For each word of [`Self::core`], then of [`Self::text_words`]: its weight and its class of
    /// [`lexicon::ACTION_SYNONYMS`] (read once, not on every comparison).
    core_info: Vec<(f64, Option<usize>)>,
    text_info: Vec<(f64, Option<usize>)>,
    /// The raw words of the asking sentence but function words, each with the number of
    /// `into` / `onto` / `to` / `from` before it (for [`order_differs`]).
    ask_sides: Vec<(String, usize)>,
    /// The classes of [`lexicon::ACTION_SYNONYMS`] its words name, sorted.
    classes: Vec<usize>,
    /// For each of [`Self::options`], its specific words and those of its description.
    described: Vec<Vec<String>>,
    /// Some option answers yes / no rather than naming a choice.
    answers: bool,
    /// Every option answers yes / no: a question about doing one thing.
    yes_no: bool,
    /// The CJK words of the text, joined.
    cjk_text: String,
    /// [`Self::cjk_text`] then the option labels, joined.
    cjk_all: String,
    /// Content words of the asking sentence written like names (`Stripe`, `src/app.ts`).
    named: Vec<String>,
    /// Contrast-group members named, by [`Part`]: all, text, core. Sorted, unique.
    groups: [Vec<(Group, &'static str)>; 3],
}

/// Why two questions are, or are not, the same decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Each covers enough of the other's content words (percent of each side covered).
    Covered(u8, u8),
    /// They name different members of a contrast group (`staging` / `production`).
    Contrast(&'static str),
    /// One is negated and the other not.
    Negation,
    /// The same words in another order around `into` / `from` (`merge a into b`, `b into a`).
    Order,
    /// Almost the same text, with a content word that differs.
    NearCopyDiffers,
    /// Each names a subject (a capitalised name, a path) the other does not.
    NamedSubjects,
    /// Both list specific options, and no option of one is an option of the other.
    OptionsDisjoint,
    /// Each asks for an action (a verb of development work) the other does not name.
    Actions,
    /// One asks yes or no, the other to choose between named options it never mentions.
    Kind,
    /// Too few of the content words of one are in the other (percent covered).
    TooFewShared(u8, u8),
    /// The words they share are verbs and general words: no subject of one is in the other,
    /// and no option matches.
    NoSubject,
}

/// The verdict of [`same_decision`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub same: bool,
    pub reason: Reason,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Covered(a, b) => write!(f, "content words covered {a}%/{b}%"),
            Reason::Contrast(g) => write!(f, "different {g}"),
            Reason::Negation => f.write_str("one is negated"),
            Reason::Order => f.write_str("same words, other direction"),
            Reason::NearCopyDiffers => f.write_str("near copy with a different word"),
            Reason::NamedSubjects => f.write_str("different named subjects"),
            Reason::OptionsDisjoint => f.write_str("no option in common"),
            Reason::Actions => f.write_str("different actions"),
            Reason::Kind => f.write_str("a yes/no question and a choice"),
            Reason::TooFewShared(a, b) => write!(f, "too few content words shared {a}%/{b}%"),
            Reason::NoSubject => f.write_str("no subject in common"),
        }
    }
}

/// The content-word coverage both ways needed to call two questions the same decision.
const COVERAGE: f64 = 0.4;
/// From this near-copy ratio, any differing content word makes them different.
const NEAR: f64 = 0.5;
/// From this ratio, a content word substituted on both sides makes them different.
const SEMI_NEAR: f64 = 0.33;

/// The bytes of a question text read (a question is a sentence or a short paragraph).
pub const MAX_TEXT: usize = 2000;
/// The bytes of a header or an option label read.
pub const MAX_LABEL: usize = 200;
/// The options read.
pub const MAX_OPTIONS: usize = 8;

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

impl Signature {
    /// Read a question: its text (markers already removed), header and options.
    pub fn new(question: &str, header: Option<&str>, options: &[Choice]) -> Signature {
        let labels: Vec<&str> = options.iter().map(|o| o.label.as_str()).collect();
        let descriptions: Vec<&str> = options.iter().map(|o| o.description.as_str()).collect();
        Signature::read(question, header.unwrap_or(""), &labels, &descriptions)
    }

    /// Read a question from its text, header and option labels (recommendation markers are
    /// stripped here too).
    ///
    /// Bounded: only the first [`MAX_TEXT`] bytes of the text, [`MAX_LABEL`] of the header and
    /// of each label, and the first [`MAX_OPTIONS`] options are read, so a huge question costs
    /// no more than a long one.
    pub fn of_labels<S: AsRef<str>>(question: &str, header: &str, labels: &[S]) -> Signature {
        Signature::read(question, header, labels, &[])
    }

    /// [`Signature::of_labels`], with the options' descriptions (the first [`MAX_LABEL`] bytes
    /// of each) read for the options' agreement.
    fn read<S: AsRef<str>>(
        question: &str,
        header: &str,
        labels: &[S],
        descriptions: &[&str],
    ) -> Signature {
        let labels: Vec<String> = labels
            .iter()
            .take(MAX_OPTIONS)
            .map(|l| strip_recommendation(clip(l.as_ref(), MAX_LABEL)))
            .collect();
        let header = clip(header, MAX_LABEL);
        let text = without_recommendation_lines(clip(question, MAX_TEXT));
        let mut texts: Vec<&str> = vec![&text, header];
        texts.extend(labels.iter().map(String::as_str));
        let lang = text::language(&texts);
        let (asking, context) = asking_and_context(&text);
        let ask = tokens(&asking, lang);
        let ctx = tokens(&context, lang);
        let head = tokens(header, lang);
        let opts: Vec<Vec<Tok>> = labels.iter().map(|l| tokens(l, lang).toks).collect();

        let words =
            |toks: &[&Tok]| -> Vec<String> { toks.iter().filter_map(|t| t.word.clone()).collect() };
        let core_toks: Vec<&Tok> = ask.toks.iter().chain(&head.toks).collect();
        let text_toks: Vec<&Tok> = ask.toks.iter().chain(&ctx.toks).chain(&head.toks).collect();
        let all_toks: Vec<&Tok> = text_toks
            .iter()
            .copied()
            .chain(opts.iter().flatten())
            .collect();
        let joined: Vec<(String, String, String)> = [asking.as_str(), header]
            .into_iter()
            .flat_map(|t| compounds(t, lang))
            .collect();
        let mut all = words(&all_toks);
        all.extend(joined.iter().map(|(c, _, _)| c.clone()));
        all.sort_unstable();
        all.dedup();
        let groups = [&all_toks, &text_toks, &core_toks].map(|toks| members(toks));
        let answers = labels
            .iter()
            .zip(&opts)
            .any(|(label, toks)| is_answer(label, toks));
        let yes_no = !labels.is_empty()
            && labels
                .iter()
                .zip(&opts)
                .all(|(label, toks)| is_answer(label, toks));
        let (options, described) = options_of(&opts, descriptions, lang);
        let named = named_of(&ask.toks);
        let cjk_text: String = ask
            .raw
            .iter()
            .chain(&head.raw)
            .chain(&ctx.raw)
            .filter(|w| w.chars().any(text::is_cjk))
            .map(String::as_str)
            .collect();
        let cjk_all = format!("{cjk_text}{}", labels.concat());
        let classes = classes_of(&all, &cjk_all, lang);
        let mut raw = ask.raw.clone();
        raw.extend(ctx.raw.iter().cloned());
        let core = words(&core_toks);
        let text_words = words(&text_toks);
        Signature {
            lang,
            negations: ask.negations,
            core_info: word_info(&core, lang),
            text_info: word_info(&text_words, lang),
            ask_sides: ask_sides_of(&ask.raw),
            core,
            text_words,
            all,
            options,
            joined,
            classes,
            described,
            answers,
            yes_no,
            cjk_text,
            cjk_all,
            named,
            groups,
            raw,
        }
    }

    fn has(&self, word: &str) -> bool {
        self.all.binary_search_by(|w| w.as_str().cmp(word)).is_ok()
    }

    fn members(&self, part: Part, group: Group) -> impl Iterator<Item = &'static str> + '_ {
        let n = match part {
            Part::All => 0,
            Part::Text => 1,
            Part::Core => 2,
        };
        self.groups[n]
            .iter()
            .filter(move |(g, _)| *g == group)
            .map(|(_, m)| *m)
    }

    /// The words a match needs, as one line to store beside a question: the content words of
    /// the asking sentence and header, a tab, every content word (both space-separated), a
    /// tab, and `2` when it lists at least two specific options (else `0`). [`may_match`]
    /// reads it to skip, without reading the question, one that cannot match.
    pub fn key(&self) -> String {
        let options = if self.options.len() >= 2 { '2' } else { '0' };
        format!("{}\t{}\t{options}", self.core.join(" "), self.all.join(" "))
    }

    /// Whether the question has any content word at all (a question of only function words
    /// never matches another).
    pub fn is_empty(&self) -> bool {
        self.core.is_empty()
    }
}

/// The content words of some tokens written like names (`Stripe`, `src/app.ts`), general
/// acronyms left out: sorted, unique.
fn named_of(toks: &[Tok]) -> Vec<String> {
    let mut named: Vec<String> = toks
        .iter()
        .filter(|t| t.named)
        .filter_map(|t| t.word.clone())
        .filter(|w| !listed(lexicon::GENERIC_ACRONYMS, w))
        .collect();
    named.sort_unstable();
    named.dedup();
    named
}

/// Each word's weight and class of [`lexicon::ACTION_SYNONYMS`].
fn word_info(words: &[String], lang: Lang) -> Vec<(f64, Option<usize>)> {
    words
        .iter()
        .map(|w| (weight(w), synonym_class(lang, w)))
        .collect()
}

/// The raw words of an asking sentence but function words, each with the number of `into` /
/// `onto` / `to` / `from` before it.
fn ask_sides_of(raw: &[String]) -> Vec<(String, usize)> {
    let directed: fn(&str) -> bool = |w| matches!(w, "into" | "onto" | "to" | "from");
    sides(raw, directed)
        .into_iter()
        .map(|(w, n)| (w.to_owned(), n))
        .collect()
}

/// The specific words of each option that names something, and for each the words of its
/// description too.
fn options_of(
    opts: &[Vec<Tok>],
    descriptions: &[&str],
    lang: Lang,
) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let mut options: Vec<Vec<String>> = Vec::new();
    let mut described: Vec<Vec<String>> = Vec::new();
    for (n, o) in opts.iter().enumerate() {
        let words = specific(o);
        if words.is_empty() {
            continue;
        }
        let mut more = words.clone();
        if let Some(d) = descriptions.get(n).filter(|d| !d.is_empty()) {
            more.extend(specific(&tokens(clip(d, MAX_LABEL), lang).toks));
            more.sort_unstable();
            more.dedup();
        }
        options.push(words);
        described.push(more);
    }
    (options, described)
}

/// The classes of [`lexicon::ACTION_SYNONYMS`] named by some words or inside some CJK text,
/// sorted, unique.
fn classes_of(all: &[String], cjk_all: &str, lang: Lang) -> Vec<usize> {
    let mut classes: Vec<usize> = all
        .iter()
        .filter_map(|w| synonym_class(lang, w))
        .chain(
            lexicon::ACTION_SYNONYMS
                .iter()
                .enumerate()
                .filter(|(_, words)| {
                    words
                        .iter()
                        .any(|w| w.chars().any(text::is_cjk) && cjk_all.contains(w))
                })
                .map(|(class, _)| class),
        )
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
}

/// Whether a question whose [`Signature::key`] is `key` could be the same decision as `b`:
/// the share of each side's asking words found among the other's words must reach the
/// coverage [`same_decision`] needs (one side only when both list two specific options). Never
/// false for a pair [`same_decision`] would match; cheap (no allocation).
pub fn may_match(key: &str, b: &Signature) -> bool {
    let mut parts = key.split('\t');
    let (core, all) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let options = parts.next() == Some("2");
    let share = |words: &mut dyn Iterator<Item = &str>, found: &dyn Fn(&str) -> bool| {
        let (mut total, mut hit) = (0.0, 0.0);
        for w in words.filter(|w| !w.is_empty()) {
            total += weight(w);
            if found(w) {
                hit += weight(w);
            }
        }
        if total > 0.0 {
            hit / total
        } else {
            0.0
        }
    };
    // A verb of a synonym class may be matched by another of its class: counted as found (the
    // key does not say its language), so this stays true wherever `same_decision` could be.
    // A word of a compound the key's question has (`trailing commas` for `trailingComma`):
    // any word of the key's that begins or ends such a compound of `b`'s.
    let mut all: Vec<&str> = all.split(' ').filter(|w| !w.is_empty()).collect();
    all.sort_unstable();
    let in_key = |w: &str| all.binary_search(&w).is_ok();
    let shared: Vec<&str> = all.iter().copied().filter(|c| b.has(c)).collect();
    let compound = |w: &str| {
        shared
            .iter()
            .any(|c| c.len() > w.len() && (c.starts_with(w) || c.ends_with(w)))
    };
    let cover_a = share(&mut core.split(' '), &|w| {
        b.has(w) || has_synonyms(w) || compound(w)
    });
    let cover_b = share(&mut b.core.iter().map(String::as_str), &|w| {
        synonym_class(b.lang, w).is_some()
            || in_key(w)
            || b.joined
                .iter()
                .any(|(c, l, r)| (l == w || r == w) && in_key(c))
    });
    if options && b.options.len() >= 2 {
        cover_a.max(cover_b) >= COVERAGE
    } else {
        cover_a.min(cover_b) >= COVERAGE
    }
}

/// Whether `a` and `b` ask for the same decision, and why.
pub fn same_decision(a: &Signature, b: &Signature) -> Verdict {
    let no = |reason| Verdict {
        same: false,
        reason,
    };
    if let Some(group) = contrast(a, b) {
        return no(Reason::Contrast(group.name()));
    }
    if a.negations % 2 != b.negations % 2 {
        return no(Reason::Negation);
    }
    if order_differs(a, b) || roles_swapped(a, b) {
        return no(Reason::Order);
    }
    let (cover_a, miss_a) = coverage(&a.core, &a.core_info, a, b);
    let (cover_b, miss_b) = coverage(&b.core, &b.core_info, b, a);
    let near = near_copy(&a.raw, &b.raw);
    if near >= NEAR {
        let text_a = !coverage(&a.text_words, &a.text_info, a, b).1.is_empty();
        let text_b = !coverage(&b.text_words, &b.text_info, b, a).1.is_empty();
        if !miss_a.is_empty() || !miss_b.is_empty() || (text_a && text_b) {
            return no(Reason::NearCopyDiffers);
        }
    } else if near >= SEMI_NEAR {
        // Here a verb of the other's class is no substitution (`open` / `create` a PR).
        let unmatched = |miss: &[&str], s: &Signature, other: &Signature| {
            miss.iter()
                .filter(|w| !synonym_named(synonym_class(s.lang, w), other))
                .count()
        };
        let (ua, ub) = (unmatched(&miss_a, a, b), unmatched(&miss_b, b, a));
        if ua > 0 && ub > 0 && ua + ub >= 2 {
            return no(Reason::NearCopyDiffers);
        }
    }
    let named_a = miss_a.iter().any(|w| listed_sorted(&a.named, w));
    let named_b = miss_b.iter().any(|w| listed_sorted(&b.named, w));
    if named_a && named_b {
        return no(Reason::NamedSubjects);
    }
    // A choice between named options none of which the yes/no question mentions.
    let choice = |s: &Signature, yes_no: &Signature| {
        yes_no.yes_no
            && !s.answers
            && s.options.len() >= 2
            && !s.options.iter().flatten().any(|w| yes_no.has(w))
    };
    if choice(a, b) || choice(b, a) {
        return no(Reason::Kind);
    }
    let (matched, rate, disjoint) = option_agreement(a, b);
    if disjoint {
        return no(Reason::OptionsDisjoint);
    }
    if actions_differ(a, b) {
        return no(Reason::Actions);
    }
    let strong = matched >= 2 && rate >= 0.66;
    let pct = |x: f64| (x * 100.0).round() as u8;
    let same = cover_a.min(cover_b) >= COVERAGE || (strong && cover_a.max(cover_b) >= COVERAGE);
    // A verb weighs 1.5, so a short question covers another with its verb alone (`Should I add
    // CONTRIBUTING.md?` / `zod is missing. Add it?`): without an option in common, each must
    // find one of its subjects in the other.
    if same && matched == 0 && !(subject_found(a, b) && subject_found(b, a)) {
        return no(Reason::NoSubject);
    }
    Verdict {
        same,
        reason: if same {
            Reason::Covered(pct(cover_a), pct(cover_b))
        } else {
            Reason::TooFewShared(pct(cover_a), pct(cover_b))
        },
    }
}

/// A question text without its `Recommendation: …` lines.
fn without_recommendation_lines(question: &str) -> String {
    let kept: Vec<&str> = question
        .lines()
        .filter(|line| recommendation_line_value(line).is_none())
        .collect();
    kept.join("\n")
}

/// The contrast-group members named by some tokens: sorted, unique.
fn members(toks: &[&Tok]) -> Vec<(Group, &'static str)> {
    let mut v: Vec<(Group, &'static str)> = toks.iter().filter_map(|t| t.group).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The asking sentences of a text (those ending in a question mark, else the last one) and the
/// others, each joined by spaces.
fn asking_and_context(text_: &str) -> (String, String) {
    let sentences = text::sentences(text_);
    let asking: Vec<&str> = sentences
        .iter()
        .copied()
        .filter(|s| s.trim_end().ends_with(['?', '？']))
        .collect();
    let asking = if asking.is_empty() {
        sentences.last().copied().into_iter().collect()
    } else {
        asking
    };
    let mut context: Vec<&str> = sentences
        .iter()
        .copied()
        .filter(|s| !asking.contains(s))
        .collect();
    let mut ask = Vec::new();
    for sentence in asking {
        let (main, why) = main_clause(sentence);
        ask.push(main);
        context.extend(why);
    }
    (ask.join(" "), context.join(" "))
}

/// A sentence cut before a clause of purpose or cause (`… so it doesn't come back`, `… because
/// CI is slow`, `… damit …`, `… чтобы …`): the main clause asks, the rest is context (its
/// negations and verbs are not the decision's). Only after two words at least.
fn main_clause(sentence: &str) -> (&str, Vec<&str>) {
    // `While fixing storage.js, should I …?`: a leading clause up to its comma is context.
    let first = sentence.split_whitespace().next().map(text::fold);
    if first.is_some_and(|w| listed(lexicon::LEADING_SUBORDINATORS, &w)) {
        if let Some(comma) = sentence.find(',') {
            let rest = sentence[comma + 1..].trim_start();
            if !rest.is_empty() {
                let (main, mut why) = main_clause(rest);
                why.push(&sentence[..comma]);
                return (main, why);
            }
        }
    }
    let mut spans: Vec<(usize, String)> = Vec::new();
    let mut start = None;
    for (at, c) in sentence.char_indices().chain([(sentence.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(at),
            (true, Some(from)) => {
                let word = sentence[from..at].trim_matches(|c: char| !c.is_alphanumeric());
                spans.push((from, text::fold(word)));
                start = None;
            }
            _ => {}
        }
    }
    for i in 2..spans.len() {
        let word = spans[i].1.as_str();
        let cut = if listed(lexicon::SUBORDINATORS, word) {
            Some(spans[i].0)
        } else {
            let pair = |(p, w): &(Str, Str)| p.get() == spans[i - 1].1 && w.get() == word;
            (i >= 3 && lexicon::SUBORDINATOR_PAIRS.iter().any(pair)).then_some(spans[i - 1].0)
        };
        if let Some(cut) = cut {
            return (&sentence[..cut], vec![&sentence[cut..]]);
        }
    }
    (sentence, Vec::new())
}

fn listed_sorted(list: &[String], word: &str) -> bool {
    list.binary_search_by(|w| w.as_str().cmp(word)).is_ok()
}

/// The first contrast group whose members differ as its rule forbids.
fn contrast(a: &Signature, b: &Signature) -> Option<Group> {
    for group in Group::ALL {
        let (agree, part, default) = group.rule();
        let mut ga: Vec<&str> = a
            .members(part, group)
            .filter(|m| Some(*m) != default)
            .collect();
        let mut gb: Vec<&str> = b
            .members(part, group)
            .filter(|m| Some(*m) != default)
            .collect();
        if ga == gb {
            continue;
        }
        match agree {
            Agree::Exactly => return Some(group),
            Agree::NotOpposed => {
                ga.retain(|m| !b.members(part, group).any(|n| n == *m));
                gb.retain(|m| !a.members(part, group).any(|n| n == *m));
                if !ga.is_empty() && !gb.is_empty() {
                    return Some(group);
                }
            }
        }
    }
    None
}

/// Two words shared once each by both asking sentences, on the two sides of `into`, `onto`,
/// `to` or `from` in opposite orders (`merge main into develop` / `merge develop into main`,
/// `from Jest to Vitest` / `from Vitest to Jest`). Words moved within one side (`pin the image
/// to a digest` / `the image pinned to a digest`) are only another phrasing.
/// Each asks for an action the other only mentions as context (`While fixing the login bug,
/// should I update the README?` / `While updating the README, should I fix the login bug?`).
fn roles_swapped(a: &Signature, b: &Signature) -> bool {
    let background = |w: &String, s: &Signature| {
        is_any_action(w)
            && s.has(w)
            && !s.core.contains(w)
            && !s.options.iter().flatten().any(|o| o == w)
    };
    a.core.iter().any(|w| background(w, b)) && b.core.iter().any(|w| background(w, a))
}

/// Each raw word of `raw` but function words, with the number of `divider` words before it.
fn sides(raw: &[String], divider: fn(&str) -> bool) -> Vec<(&str, usize)> {
    let mut side = 0;
    let mut out = Vec::new();
    for w in raw {
        if divider(w) {
            side += 1;
        } else if !listed(lexicon::STOP_EN, w) {
            out.push((w.as_str(), side));
        }
    }
    out
}

fn order_differs(a: &Signature, b: &Signature) -> bool {
    let sa: Vec<(&str, usize)> = a.ask_sides.iter().map(|(w, n)| (w.as_str(), *n)).collect();
    let sb: Vec<(&str, usize)> = b.ask_sides.iter().map(|(w, n)| (w.as_str(), *n)).collect();
    if sa.iter().all(|(_, n)| *n == 0) || sb.iter().all(|(_, n)| *n == 0) {
        return false;
    }
    let once = |s: &[(&str, usize)], w: &str| s.iter().filter(|(x, _)| *x == w).count() == 1;
    let shared: Vec<(usize, usize)> = sa
        .iter()
        .filter(|(w, _)| once(&sa, w) && once(&sb, w))
        .filter_map(|(w, n)| sb.iter().find(|(x, _)| x == w).map(|(_, m)| (*n, *m)))
        .collect();
    shared.iter().enumerate().any(|(i, (na, nb))| {
        shared[i + 1..]
            .iter()
            .any(|(ma, mb)| (na < ma && nb > mb) || (na > ma && nb < mb))
    })
}

fn is_generic(word: &str) -> bool {
    listed(lexicon::GENERIC, word)
}

fn weight(word: &str) -> f64 {
    if is_generic(word) {
        0.3
    } else if is_any_action(word) {
        // The verb is what is decided: one the other side lacks counts for more.
        1.5
    } else if word.chars().any(text::is_cjk) {
        0.5
    } else {
        1.0
    }
}

/// The weighted share of `words` (of `me`) that `other` has anywhere, a verb counting as
/// had when `other` names a verb of its class, and the words it lacks (the verb of another
/// class or not: the vetoes of near copies read them).
fn coverage<'a>(
    words: &'a [String],
    info: &[(f64, Option<usize>)],
    me: &Signature,
    other: &Signature,
) -> (f64, Vec<&'a str>) {
    if words.is_empty() {
        return (0.0, Vec::new());
    }
    let (mut total, mut hit) = (0.0, 0.0);
    let mut missing: Vec<&str> = Vec::new();
    for (w, &(weight, class)) in words.iter().zip(info) {
        total += weight;
        let had = other.has(w);
        // A word of a compound the other writes as one (`editor cfg` / `.editorconfig`).
        let joined = || {
            me.joined
                .iter()
                .any(|(c, l, r)| (l == w || r == w) && other.has(c))
        };
        if had || synonym_named(class, other) || joined() {
            hit += weight;
        }
        if !had && !is_generic(w) && !missing.contains(&w.as_str()) {
            missing.push(w);
        }
    }
    (hit / total, missing)
}

/// Whether some core word of `me` that is neither a verb of development work nor a general
/// word (a subject: `database`, `branch`, `.env`) is anywhere in `other`, or `me` names none.
fn subject_found(me: &Signature, other: &Signature) -> bool {
    let mut subjects = me
        .core
        .iter()
        .zip(&me.core_info)
        // Neither a verb (1.5) nor a general word (0.3): a word (1.0) or CJK pair (0.5).
        .filter(|(_, &(weight, _))| weight > 0.4 && weight < 1.4)
        .map(|(w, _)| w)
        .peekable();
    subjects.peek().is_none()
        || subjects.any(|w| {
            other.has(w)
                || me
                    .joined
                    .iter()
                    .any(|(c, l, r)| (l == w || r == w) && other.has(c))
        })
}

/// The length of the longest common subsequence of the two word lists, over their mean length.
fn near_copy(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    2.0 * row[b.len()] as f64 / (a.len() + b.len()) as f64
}

/// Options matched by their specific words: (matched, share of the smaller list, disjoint: both
/// list at least two specific options, none matches, and no two match by their descriptions).
fn option_agreement(a: &Signature, b: &Signature) -> (usize, f64, bool) {
    let (sa, sb) = (&a.options, &b.options);
    if sa.is_empty() || sb.is_empty() {
        return (0, 0.0, false);
    }
    let (small, big) = if sa.len() <= sb.len() { (a, b) } else { (b, a) };
    // A word of `t`, or a verb of its class (`Update snapshots` / `Regenerate`).
    let found = |w: &str, t: &[String]| {
        listed_sorted(t, w)
            || synonym_class(small.lang, w)
                .is_some_and(|c| t.iter().any(|x| synonym_class(big.lang, x) == Some(c)))
    };
    let agree = |s: &[String], t: &[String]| {
        let common = s.iter().filter(|w| found(w, t)).count();
        let union = s.len() + t.len() - common;
        let subset = common == s.len() || common == t.len();
        common as f64 / union as f64 >= 0.5 || (common >= 1 && subset)
    };
    // A label renamed keeps its old name in the new option's description (`Lint` / `eslint:
    // linting staged files`, `kebab-case` / `user-profile.ts: kebab-case`). Descriptions only
    // keep two lists from being disjoint: when two options match so at least, and some label
    // of each list is in a description of the other. A description often names an alternative
    // the other list chooses between (`Neon: serverless Postgres` for where to host it, where
    // `PostgreSQL: relational` never names a host).
    let within = |s: &[String], t: &[String]| s.iter().all(|w| listed_sorted(t, w));
    let (n, m) = (small.options.len(), big.options.len());
    let forward = |i: usize, j: usize| within(&small.options[i], &big.described[j]);
    let backward = |i: usize, j: usize| within(&big.options[j], &small.described[i]);
    let described = || {
        let pairs = || (0..n).flat_map(|i| (0..m).map(move |j| (i, j)));
        (0..n)
            .filter(|&i| (0..m).any(|j| forward(i, j) || backward(i, j)))
            .count()
            >= 2
            && pairs().any(|(i, j)| forward(i, j))
            && pairs().any(|(i, j)| backward(i, j))
    };
    let count = || {
        (0..n)
            .filter(|&i| (0..m).any(|j| agree(&small.options[i], &big.options[j])))
            .count()
    };
    let matched = count();
    let disjoint =
        matched == 0 && sa.len() >= 2 && sb.len() >= 2 && !a.answers && !b.answers && !described();
    (
        matched,
        matched as f64 / small.options.len() as f64,
        disjoint,
    )
}

/// Each asks for an action the other never names, nor any verb of its class
/// ([`lexicon::ACTION_SYNONYMS`]).
fn actions_differ(a: &Signature, b: &Signature) -> bool {
    let own = |s: &Signature, other: &Signature| {
        s.core.iter().any(|w| {
            is_action(s.lang, w) && !other.has(w) && !synonym_named(synonym_class(s.lang, w), other)
        }) || lexicon::CJK_ACTIONS.iter().any(|w| {
            s.cjk_text.contains(w)
                && !other.cjk_all.contains(w)
                && !synonym_named(cjk_synonym_class(w), other)
        })
    };
    own(a, b) && own(b, a)
}

/// Whether `s` names a verb of the class (in its words, or inside its CJK text).
fn synonym_named(class: Option<usize>, s: &Signature) -> bool {
    class.is_some_and(|c| s.classes.binary_search(&c).is_ok())
}

/// The class of [`lexicon::ACTION_SYNONYMS`] a content word (as [`tokens`] reads it) is in.
fn synonym_class(lang: Lang, word: &str) -> Option<usize> {
    static CLASSES: OnceLock<[Vec<(String, usize)>; 6]> = OnceLock::new();
    let tables = CLASSES.get_or_init(|| {
        let langs = [Lang::En, Lang::De, Lang::Fr, Lang::Es, Lang::Pt, Lang::Ru];
        langs.map(|lang| {
            let mut v: Vec<(String, usize)> = Vec::new();
            for (class, words) in lexicon::ACTION_SYNONYMS.iter().enumerate() {
                for w in words.iter().filter(|w| !w.chars().any(text::is_cjk)) {
                    v.push((normal_word(w, lang), class));
                }
            }
            v.sort_unstable();
            v.dedup_by(|x, y| x.0 == y.0);
            v
        })
    });
    lookup_owned(&tables[lang as usize], word)
        .or_else(|| lookup_owned(&tables[Lang::En as usize], word))
}

/// Whether a content word, read in any language, is in a class of [`lexicon::ACTION_SYNONYMS`].
fn has_synonyms(word: &str) -> bool {
    static ANY: OnceLock<Vec<String>> = OnceLock::new();
    let words = ANY.get_or_init(|| {
        let mut v: Vec<String> = [Lang::En, Lang::De, Lang::Fr, Lang::Es, Lang::Pt, Lang::Ru]
            .into_iter()
            .flat_map(|lang| {
                lexicon::ACTION_SYNONYMS
                    .iter()
                    .flat_map(|words| words.iter())
                    .filter(|w| !w.chars().any(text::is_cjk))
                    .map(move |w| normal_word(w, lang))
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    });
    listed_sorted(words, word)
}

/// The class of a CJK verb of [`lexicon::CJK_ACTIONS`].
fn cjk_synonym_class(word: &str) -> Option<usize> {
    lexicon::ACTION_SYNONYMS
        .iter()
        .position(|words| words.contains(word))
}

fn lookup_owned(table: &[(String, usize)], word: &str) -> Option<usize> {
    table
        .binary_search_by(|(w, _)| w.as_str().cmp(word))
        .ok()
        .map(|i| table[i].1)
}

/// Whether a content word is a verb of development work in any language (a weight must not
/// depend on the language: [`may_match`] does not know the key's).
fn is_any_action(word: &str) -> bool {
    static ANY: OnceLock<Vec<String>> = OnceLock::new();
    let words = ANY.get_or_init(|| {
        let mut v: Vec<String> = [Lang::En, Lang::De, Lang::Fr, Lang::Es, Lang::Pt, Lang::Ru]
            .into_iter()
            .flat_map(|lang| {
                lang.actions()
                    .iter()
                    .map(move |w| normal_word(&text::fold(w), lang))
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    });
    listed_sorted(words, word)
}

fn is_action(lang: Lang, word: &str) -> bool {
    static ACTIONS: OnceLock<[Vec<String>; 6]> = OnceLock::new();
    let sets = ACTIONS.get_or_init(|| {
        let langs = [Lang::En, Lang::De, Lang::Fr, Lang::Es, Lang::Pt, Lang::Ru];
        langs.map(|lang| {
            let mut v: Vec<String> = lang
                .actions()
                .iter()
                .map(|w| normal_word(&text::fold(w), lang))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
    });
    let index = |l: Lang| l as usize;
    listed_sorted(&sets[index(lang)], word)
        || (lang != Lang::En && listed_sorted(&sets[index(Lang::En)], word))
}

/// A word as [`tokens`] reads a content word: aliased, stemmed, cut to five letters outside
/// English.
fn normal_word(word: &str, lang: Lang) -> String {
    normal_form(alias(word, lang).unwrap_or(word), lang)
}

/// A word (already aliased) stemmed as [`tokens`] stems it.
fn normal_form(a: &str, lang: Lang) -> String {
    if a.chars().any(text::is_cyrillic) {
        return text::prefix(text::stem_cyrillic(a), 5).to_owned();
    }
    let stem = text::stem_latin(a);
    if lang != Lang::En && !is_alias_value(a) {
        return text::prefix(&stem, 5).to_owned();
    }
    stem
}

/// The alias of a word: of the word itself, or, in English, of its inflection's stem (`updates`,
/// `deleted` read as `update`, `delete`: the alias of every form of the word).
fn alias(word: &str, lang: Lang) -> Option<&'static str> {
    static STEMS: OnceLock<Vec<(String, &'static str)>> = OnceLock::new();
    if let Some(a) = lookup(lexicon::ALIASES, word) {
        return Some(a);
    }
    // A Romance verb without its infinitive's `r`: an imperative or third person, or the stem
    // before a clitic (`atualizá-los`, `crea`, `supprime`) takes the infinitive's alias.
    if matches!(lang, Lang::Fr | Lang::Es | Lang::Pt) && word.ends_with(['a', 'e', 'i']) {
        if let Some(a) = lookup(lexicon::ALIASES, &format!("{word}r")) {
            return Some(a);
        }
    }
    if lang != Lang::En || !word.is_ascii() || word.len() <= 4 {
        return None;
    }
    let stems = STEMS.get_or_init(|| {
        let mut v: Vec<(String, &'static str)> = lexicon::ALIASES
            .iter()
            .map(|(w, a)| (text::stem_latin(w), a))
            .collect();
        v.sort_unstable();
        v.dedup();
        // A stem two aliases share names neither.
        let ambiguous: Vec<String> = v
            .windows(2)
            .filter(|p| p[0].0 == p[1].0)
            .map(|p| p[0].0.clone())
            .collect();
        v.retain(|(s, _)| !ambiguous.contains(s));
        v
    });
    let stem = text::stem_latin(word);
    if stem == word {
        return None;
    }
    stems
        .binary_search_by(|(s, _)| s.as_str().cmp(&stem))
        .ok()
        .map(|i| stems[i].1)
}

fn is_alias_value(word: &str) -> bool {
    lexicon::ALIASES.values().strs().iter().any(|v| v.is(word))
}

fn group_of(word: &str) -> Option<(Group, &'static str)> {
    lexicon::GROUP_WORDS.get(word)
}

fn cjk_groups(run: &str, toks: &mut Vec<Tok>) {
    for &(w, g, m) in lexicon::CJK_GROUP_WORDS {
        if run.contains(w.get()) {
            toks.push(Tok {
                word: None,
                group: Some((g, m.get())),
                named: false,
            });
        }
    }
}

fn is_stop(word: &str, lang: Lang) -> bool {
    listed(lexicon::STOP_EN, word) || listed(lang.stop_words(), word) || is_generic(word)
}

fn is_negation(word: &str, lang: Lang) -> bool {
    const CONTRACTED: [&str; 12] = [
        "don", "doesn", "isn", "aren", "won", "can", "shouldn", "wouldn", "didn", "couldn",
        "haven", "hasn",
    ];
    if lang == Lang::En {
        if listed(lexicon::NEG_EN, word) {
            return true;
        }
        return word
            .strip_suffix("nt")
            .is_some_and(|stem| CONTRACTED.contains(&stem));
    }
    listed(lang.negations(), word) || matches!(word, "not" | "dont" | "never")
}

fn char_listed(list: Set, c: char) -> bool {
    let mut buf = [0u8; 4];
    listed(list, c.encode_utf8(&mut buf))
}

fn content(word: String, group: Option<(Group, &'static str)>, named: bool) -> Tok {
    Tok {
        word: Some(word),
        group,
        named,
    }
}

/// The tokens, negation count and raw words of a text.
fn tokens(text_: &str, lang: Lang) -> Tokens {
    let mut ws: Vec<(Kind, String, bool)> = Vec::new();
    for piece in text::pieces(text_) {
        let mut word = piece.text;
        if piece.kind == Kind::Word {
            if word.chars().all(char::is_numeric) {
                continue;
            }
            word = text::digits_as_hash(&word);
            if word.chars().filter(|c| c.is_alphabetic()).count() <= 1 {
                continue;
            }
        }
        ws.push((piece.kind, word, piece.named));
    }
    let mut out = Tokens::default();
    let mut particles: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        if particles.contains(&i) {
            i += 1;
            continue;
        }
        let (kind, ref w, named) = ws[i];
        let w = w.clone();
        match kind {
            Kind::Ident => {
                i += 1;
                out.raw.push(w.clone());
                out.toks.push(content(w, None, true));
            }
            Kind::Word => {
                if let Some((n, canon)) = phrase_at(&ws, i) {
                    i += n;
                    if let Some(canon) = canon {
                        out.toks
                            .push(content(text::stem_latin(canon), group_of(canon), false));
                        out.raw.push(canon.to_owned());
                    }
                    continue;
                }
                if let Some((at, canon)) = separated_phrase(&ws, i, lang) {
                    particles.push(at);
                    i += 1;
                    if let Some(canon) = canon {
                        out.toks
                            .push(content(text::stem_latin(canon), group_of(canon), false));
                        out.raw.push(canon.to_owned());
                    }
                    continue;
                }
                i += 1;
                word_token(&w, named, lang, &mut out);
            }
            Kind::Han | Kind::Katakana | Kind::Hangul | Kind::Hiragana => {
                i += 1;
                if matches!(kind, Kind::Han | Kind::Katakana) {
                    let (rest, found) = cjk_alias(&w);
                    if !found.is_empty() {
                        for canon in found {
                            out.toks.push(content(text::stem_latin(canon), None, false));
                            out.raw.push(canon.to_owned());
                        }
                        for (k, part) in rest.into_iter().enumerate() {
                            ws.insert(i + k, (kind, part, false));
                        }
                        continue;
                    }
                }
                out.raw.push(w.clone());
                cjk_tokens(kind, &w, &mut out);
            }
        }
    }
    out
}

/// One word (not part of a phrase) onto `out`: a negation counted, a function word dropped (its
/// contrast group kept), a content word aliased and stemmed.
fn word_token(w: &str, named: bool, lang: Lang, out: &mut Tokens) {
    // `with or without`, `or not`, `oder nicht`: the other alternative, not a negation.
    let alternative = out.raw.last().is_some_and(|p| listed(lexicon::OR_WORDS, p));
    out.raw.push(w.to_owned());
    if is_negation(w, lang) {
        // `ne … pas` is one negation.
        let second = lang == Lang::Fr && out.ne && w != "ne";
        out.ne = lang == Lang::Fr && w == "ne";
        out.negations += usize::from(!alternative && !second);
        return;
    }
    let a = alias(w, lang).unwrap_or(w);
    let mut group = group_of(a).or_else(|| group_of(w));
    let stem = if a.chars().any(text::is_cyrillic) {
        if group.is_none() {
            group = lexicon::CYRILLIC_GROUP_PREFIXES
                .iter()
                .find(|(p, _, _)| a.starts_with(p.get()))
                .map(|(_, g, m)| (*g, m.get()));
        }
        text::prefix(text::stem_cyrillic(a), 5).to_owned()
    } else {
        let stem = text::stem_latin(a);
        if group.is_none() {
            group = group_of(&stem);
        }
        if lang != Lang::En && !is_alias_value(a) {
            text::prefix(&stem, 5).to_owned()
        } else {
            stem
        }
    };
    if is_stop(a, lang) || is_stop(w, lang) {
        if group.is_some() {
            out.toks.push(Tok {
                word: None,
                group,
                named: false,
            });
        }
        return;
    }
    out.toks.push(content(stem, group, named));
}

/// The compounds of a text: each two adjacent content words (letters only), joined and read as
/// one word (`trailing commas` → `trailingcomma`), and their readings joined (`editor cfg` →
/// `editorconfig`), with the two words' readings. A compound is kept only when it begins with
/// the first reading and ends with the second (so [`may_match`] can find its words).
fn compounds(text_: &str, lang: Lang) -> Vec<(String, String, String)> {
    let words: Vec<String> = text::pieces(text_)
        .into_iter()
        .filter(|p| p.kind == Kind::Word)
        .map(|p| p.text)
        .collect();
    let content = |w: &str| {
        w.chars().all(|c| c.is_ascii_alphabetic())
            && w.len() > 1
            && !is_stop(w, lang)
            && !is_negation(w, lang)
    };
    let mut out = Vec::new();
    for pair in words.windows(2) {
        let (x, y) = (&pair[0], &pair[1]);
        if !content(x) || !content(y) {
            continue;
        }
        let (l, r) = (normal_word(x, lang), normal_word(y, lang));
        for c in [normal_word(&format!("{x}{y}"), lang), format!("{l}{r}")] {
            if c.starts_with(l.as_str()) && c.ends_with(r.as_str()) && c.len() > l.len() + 1 {
                out.push((c, l.clone(), r.clone()));
            }
        }
    }
    out
}

/// The phrase starting at `ws[i]`, if any: its length and canonical word.
fn phrase_at(ws: &[(Kind, String, bool)], i: usize) -> Option<(usize, Option<&'static str>)> {
    for n in [3, 2] {
        if i + n > ws.len() || ws[i..i + n].iter().any(|(k, _, _)| *k != Kind::Word) {
            continue;
        }
        for &(words, canon) in lexicon::PHRASES {
            let words = words.strs();
            if words.len() == n
                && inflected(&ws[i].1, words[0].get())
                && words[1..]
                    .iter()
                    .zip(&ws[i + 1..i + n])
                    .all(|(p, (_, w, _))| p.is(w))
            {
                return Some((n, canon.map(Str::get)));
            }
        }
    }
    None
}

/// `word` is `verb` or an English inflection of it (`turned`, `pulling` for `turn`, `pull`).
fn inflected(word: &str, verb: &str) -> bool {
    word == verb || (word.is_ascii() && word.len() > verb.len() && text::stem_latin(word) == verb)
}

/// A phrasal verb split by its object (`turn the cache on`, `pull the form out into …`): the
/// index of its particle (at most three words after the verb, at the end of the text or
/// before a function word or `into`) and its canonical word.
fn separated_phrase(
    ws: &[(Kind, String, bool)],
    i: usize,
    lang: Lang,
) -> Option<(usize, Option<&'static str>)> {
    for &(words, canon) in lexicon::PHRASES {
        let &[verb, particle] = words.strs() else {
            continue;
        };
        let (verb, particle) = (verb.get(), particle.get());
        if !listed(lexicon::PARTICLES, particle) || !inflected(&ws[i].1, verb) {
            continue;
        }
        for at in i + 2..ws.len().min(i + 5) {
            let (kind, w, _) = &ws[at];
            if *kind != Kind::Word {
                break;
            }
            if w == particle {
                let ends = ws
                    .get(at + 1)
                    .is_none_or(|(_, next, _)| next == "into" || is_stop(next, lang));
                return ends.then_some((at, canon.map(Str::get)));
            }
            if listed(lexicon::PARTICLES, w) {
                break;
            }
        }
    }
    None
}

/// A CJK run with its compounds cut out: the remaining parts and the compounds' canonical words.
fn cjk_alias(run: &str) -> (Vec<String>, Vec<&'static str>) {
    let mut text = run.to_owned();
    let mut found = Vec::new();
    for (compound, canon) in lexicon::CJK_ALIASES.iter() {
        if text.contains(compound) {
            text = text.replace(compound, "\u{3000}");
            found.push(canon);
        }
    }
    let parts = text
        .split('\u{3000}')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    (parts, found)
}

fn cjk_tokens(kind: Kind, w: &str, out: &mut Tokens) {
    let mut pairs = Vec::new();
    match kind {
        Kind::Han => {
            out.negations += han_negations(w);
            cjk_groups(w, &mut out.toks);
            let cut =
                |c: char| char_listed(lexicon::HAN_STOP, c) || char_listed(lexicon::HAN_NEG, c);
            for run in w.split(cut).filter(|r| !r.is_empty()) {
                text::bigrams(run, &mut pairs);
            }
        }
        Kind::Katakana => {
            cjk_groups(w, &mut out.toks);
            text::bigrams(w, &mut pairs);
        }
        Kind::Hangul => {
            if listed(lexicon::KO_STOP, w) {
                return;
            }
            // A particle alone is the ending of a Latin word before it (`DB를`, `README에`).
            if lexicon::KO_ENDINGS.contains(w) {
                return;
            }
            let stem = text::strip_korean_ending(w);
            if let Some(canon) = lookup(lexicon::CJK_ALIASES, stem) {
                out.toks.push(content(text::stem_latin(canon), None, false));
                return;
            }
            if ((stem.starts_with(['안', '못'])) && w.chars().count() <= 3) || w.contains('않') {
                out.negations += 1;
            }
            cjk_groups(stem, &mut out.toks);
            if stem.is_empty() || listed(lexicon::KO_STOP, stem) {
                return;
            }
            text::bigrams(stem, &mut pairs);
        }
        Kind::Hiragana => {
            if w.contains("ない") || w.contains("ません") {
                out.negations += 1;
            }
        }
        Kind::Word | Kind::Ident => {}
    }
    out.toks
        .extend(pairs.into_iter().map(|p| content(p, None, false)));
}

/// The negations of a Han run: each negating character, except between two of the same
/// character (`要不要`, `用不用`: "or not", a choice rather than a negation).
fn han_negations(run: &str) -> usize {
    let chars: Vec<char> = run.chars().collect();
    (0..chars.len())
        .filter(|&i| char_listed(lexicon::HAN_NEG, chars[i]))
        .filter(|&i| !(i > 0 && i + 1 < chars.len() && chars[i - 1] == chars[i + 1]))
        .count()
}

/// The specific words of an option: content words that name a choice of their own.
///
/// An identifier brings its parts too (`foo.test.ts`: `foo`, `test`; a file extension and
/// numbers left out), so a label renamed to an example (`.test.ts` / `foo.test.ts`) still
/// shares its words.
fn specific(toks: &[Tok]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for w in toks.iter().filter_map(|t| t.word.as_deref()) {
        if listed(lexicon::GENERIC_LABEL, w) || is_generic(w) {
            continue;
        }
        v.push(w.to_owned());
        if w.contains(['.', '/', '_', '@', '-', ':']) {
            let parts = w
                .split(|c: char| !c.is_alphanumeric() && c != '#')
                .filter(|p| p.chars().filter(|c| c.is_alphabetic()).count() > 1)
                .filter(|p| !listed(lexicon::FILE_EXTENSIONS, p))
                .map(text::stem_latin)
                .filter(|p| !listed(lexicon::GENERIC_LABEL, p) && !is_generic(p));
            v.extend(parts);
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Whether an option answers yes / no (`Yes`, `No, keep it`, `Skip`) rather than naming a
/// choice.
fn is_answer(label: &str, toks: &[Tok]) -> bool {
    let first = label
        .trim()
        .split(|c: char| c.is_whitespace() || ",.:;!?，、".contains(c))
        .next()
        .unwrap_or("");
    let first: String = text::fold(first)
        .chars()
        .filter(|c| !matches!(c, '\'' | '’'))
        .collect();
    if !first.is_empty()
        && (listed(lexicon::ANSWER_WORDS, &first)
            || lexicon::ANSWER_PREFIXES_CJK
                .iter()
                .any(|p| first.starts_with(p)))
    {
        return true;
    }
    specific(toks).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(q: &str, labels: &[&str]) -> Signature {
        Signature::of_labels(q, "", labels)
    }

    fn same(a: (&str, &[&str]), b: (&str, &[&str])) -> Verdict {
        same_decision(&sig(a.0, a.1), &sig(b.0, b.1))
    }

    #[test]
    fn a_shared_verb_alone_is_no_decision() {
        let yes_no: &[&str] = &["Yes (Recommended)", "No"];
        for (a, b) in [
            (
                "Should I add a LICENSE file to the repository?",
                "The build imports lodash but it is not installed. Should I add it?",
            ),
            (
                "Should I run the tests with coverage?",
                "Which port should the dev server run on?",
            ),
            (
                "Soll ich eine LICENSE-Datei zum Repository hinzufügen?",
                "Der Build importiert lodash, aber es ist nicht installiert. Soll ich es hinzufügen?",
            ),
        ] {
            let v = same((a, yes_no), (b, yes_no));
            assert!(!v.same, "{a} / {b}: {}", v.reason);
        }
        let v = same(
            ("Should I add a LICENSE file to the repository?", yes_no),
            (
                "The build imports lodash but it is not installed. Should I add it?",
                yes_no,
            ),
        );
        assert_eq!(v.reason, Reason::NoSubject);
    }

    #[test]
    fn rewordings_of_one_decision_match() {
        let yes_no: &[&str] = &["Yes (Recommended)", "No"];
        for (a, b) in [
            (
                (
                    "Which database should we use for this project?",
                    &["PostgreSQL (Recommended)", "MySQL", "SQLite"][..],
                ),
                (
                    "What database do you want for the new service?",
                    &["SQLite", "Postgres", "MySQL"][..],
                ),
            ),
            (
                ("Should I commit these 3 files now?", yes_no),
                ("Commit the 12 files?", &["No", "Yes"][..]),
            ),
            (
                ("Should I add a CHANGELOG entry?", yes_no),
                ("Add an entry to CHANGELOG.md?", yes_no),
            ),
            (
                (
                    "Welche Datenbank sollen wir verwenden?",
                    &["PostgreSQL", "SQLite"][..],
                ),
                (
                    "Welche Datenbank möchtest du für das Projekt?",
                    &["SQLite", "PostgreSQL (empfohlen)"][..],
                ),
            ),
            (
                ("用哪个数据库？", &["PostgreSQL（推荐）", "SQLite"][..]),
                ("这个项目用什么数据库？", &["SQLite", "PostgreSQL"][..]),
            ),
            (
                ("¿Qué base de datos usamos?", &["PostgreSQL", "SQLite"][..]),
                (
                    "¿Qué base de datos prefieres para el proyecto?",
                    &["SQLite", "PostgreSQL"][..],
                ),
            ),
            (
                (
                    "Какую базу данных использовать?",
                    &["PostgreSQL", "SQLite"][..],
                ),
                (
                    "Какую базу данных выбрать для проекта?",
                    &["SQLite", "PostgreSQL"][..],
                ),
            ),
        ] {
            let v = same(a, b);
            assert!(v.same, "{a:?} / {b:?}: {}", v.reason);
        }
    }

    #[test]
    fn synonyms_of_development_words_match() {
        let yes_no: &[&str] = &["Yes", "No"];
        for (a, b) in [
            // dead / unused
            (
                ("The helper parseDate is dead code now. Remove it?", yes_no),
                ("parseDate is unused. Should I delete it?", yes_no),
            ),
            // framework / tool, in German, French, Portuguese
            (
                (
                    "Welches Test-Framework für die Unit-Tests?",
                    &["Vitest", "Jest"][..],
                ),
                (
                    "Welches Test-Tool für die Unit-Tests?",
                    &["Jest", "Vitest"][..],
                ),
            ),
            (
                (
                    "Quel framework de test pour les tests unitaires ?",
                    &["Vitest", "Jest"][..],
                ),
                (
                    "Quel outil de test pour les tests unitaires ?",
                    &["Jest", "Vitest"][..],
                ),
            ),
            // aktualisieren / update
            (
                ("Soll ich Angular aktualisieren?", &["Ja", "Nein"][..]),
                (
                    "Soll ich das Update von Angular machen?",
                    &["Ja", "Nein"][..],
                ),
            ),
            // function words: Russian possessives, Spanish `hacer`
            (
                ("Закоммитить изменения?", yes_no),
                ("Закоммитить мои изменения?", yes_no),
            ),
            (
                ("¿Hago commit de los cambios?", yes_no),
                ("¿Quieres que haga commit de los cambios?", yes_no),
            ),
            // create / add, whole / full
            (
                ("The query is slow. Add an index?", yes_no),
                (
                    "The query is slow. Should I create an index for it?",
                    yes_no,
                ),
            ),
            (
                ("Run the full test suite now?", yes_no),
                ("Run the whole test suite now?", yes_no),
            ),
            // pipeline / CI, banco de dados / BD
            (
                ("Should CI enforce a coverage threshold?", yes_no),
                ("Should the pipeline enforce a coverage threshold?", yes_no),
            ),
            (
                ("Qual banco de dados usar?", &["PostgreSQL", "SQLite"][..]),
                ("Qual BD você prefere?", &["SQLite", "Postgres"][..]),
            ),
            // endpoint / route
            (
                ("Should I add a /health endpoint?", yes_no),
                ("Add a /health route to the server?", yes_no),
            ),
            // an inflected form takes its word's alias (`deleted` is `delete`, so `remove`)
            (
                ("Remove the unused helpers?", yes_no),
                ("Should the unused helpers be deleted?", yes_no),
            ),
            // a Korean loanword and a Korean particle after a Latin word
            (
                (
                    "어떤 데이터베이스를 사용할까요?",
                    &["PostgreSQL", "MySQL", "SQLite"][..],
                ),
                ("DB를 골라 주세요.", &["SQLite", "MySQL", "Postgres"][..]),
            ),
        ] {
            let v = same(a, b);
            assert!(v.same, "{a:?} / {b:?}: {}", v.reason);
        }
    }

    #[test]
    fn alternatives_and_purpose_clauses_do_not_negate() {
        let yes_no: &[&str] = &["Yes", "No"];
        for (a, b) in [
            // `or not`, `with or without`, `要不要`: the other alternative
            (
                "Should I add a changelog entry?",
                "Add a changelog entry or not?",
            ),
            (
                "Do you want type hints in the generated client?",
                "Do you want the generated client with or without type hints?",
            ),
            ("要提交这些改动吗？", "要不要提交这些改动？"),
            // a negation or a verb after `so` / `because` / `damit` is the reason, not the ask
            (
                "Should I pin the Node version in .nvmrc?",
                "Should I pin the Node version in .nvmrc so CI doesn't drift?",
            ),
            (
                "Soll ich die Node-Version in .nvmrc festlegen?",
                "Soll ich die Node-Version in .nvmrc festlegen, damit die CI nicht abweicht?",
            ),
        ] {
            let v = same((a, yes_no), (b, yes_no));
            assert!(v.same, "{a} / {b}: {}", v.reason);
        }
        // A negation of the asking clause itself still counts.
        let v = same(
            ("Should I pin the Node version so CI is stable?", yes_no),
            ("Should I not pin the Node version?", yes_no),
        );
        assert_eq!(v.reason, Reason::Negation);
    }

    fn described(q: &str, options: &[(&str, &str)]) -> Signature {
        let choices: Vec<Choice> = options
            .iter()
            .map(|(label, description)| Choice {
                label: (*label).to_owned(),
                description: (*description).to_owned(),
            })
            .collect();
        Signature::new(q, None, &choices)
    }

    #[test]
    fn options_renamed_match_by_their_descriptions() {
        // Every option renamed to a concrete value, its old name in the new description.
        let a = described(
            "Which naming scheme should the CSS classes follow?",
            &[
                ("BEM (Recommended)", "block__element--modifier"),
                ("Utility classes", "Tailwind-style atomic utilities"),
            ],
        );
        let b = described(
            "How do you want the CSS classes named?",
            &[
                ("Atomic utilities", "Utility classes, Tailwind-like"),
                ("card__title--active", "BEM naming"),
            ],
        );
        let v = same_decision(&a, &b);
        assert!(v.same, "{}", v.reason);
        // Without the descriptions they share no option.
        let v = same(
            (
                "Which naming scheme should the CSS classes follow?",
                &["BEM", "Utility classes"],
            ),
            (
                "How do you want the CSS classes named?",
                &["Atomic utilities", "card__title--active"],
            ),
        );
        assert_eq!(v.reason, Reason::OptionsDisjoint);
        // Descriptions that name the other question's options (where to host each engine) do
        // not make a choice of host the choice of an engine.
        let engine = described(
            "Which database should the app use?",
            &[
                ("PostgreSQL (Recommended)", "Relational"),
                ("MongoDB", "Documents"),
            ],
        );
        let host = described(
            "Where should the database be hosted?",
            &[
                ("Neon", "Serverless Postgres"),
                ("Atlas", "Managed MongoDB"),
            ],
        );
        let v = same_decision(&engine, &host);
        assert!(!v.same, "{}", v.reason);
    }

    #[test]
    fn verbs_of_one_class_are_one_action() {
        let yes_no: &[&str] = &["Yes", "No"];
        for (a, b) in [
            (
                "ESLint found 5 fixable problems. Run the autofix?",
                "Do you want me to apply the ESLint autofix to these problems?",
            ),
            (
                "Should I open a draft pull request for the retry changes?",
                "Retries are implemented and pushed. Want a draft PR created?",
            ),
            (
                "The docs site builds cleanly now. Deploy it to Netlify?",
                "Do you want me to host the documentation site on Netlify?",
            ),
            ("要运行数据库迁移吗？", "要应用数据库迁移吗？"),
        ] {
            let v = same((a, yes_no), (b, yes_no));
            assert!(v.same, "{a} / {b}: {}", v.reason);
        }
        // A verb of one class covers the other's.
        let hosts: &[&str] = &["Netlify (Recommended)", "Vercel", "GitHub Pages"];
        let v = same(
            ("Where should we deploy the docs site?", hosts),
            (
                "Which platform do you want for hosting the documentation site?",
                &["GitHub Pages", "Netlify", "Vercel"],
            ),
        );
        assert!(v.same, "{}", v.reason);
        // But a near copy with the other verb still differs: opening a file is not adding it.
        let v = same(
            ("Should I add the Vite config file?", yes_no),
            ("Should I open the Vite config file?", yes_no),
        );
        assert_eq!(v.reason, Reason::NearCopyDiffers);
        // Verbs of other steps stay different actions.
        for (a, b) in [
            (
                "Extract the pricing table into its own component?",
                "Move the PricingTable component into the shared ui package?",
            ),
            (
                "Squash the commits on feature/login?",
                "Merge feature/login into main?",
            ),
            (
                "Should I build the API image now?",
                "Push the image of the API to the registry?",
            ),
            (
                "Should I copy .env.example to .env for you?",
                "Commit the .env file to the repository?",
            ),
        ] {
            let v = same((a, yes_no), (b, yes_no));
            assert!(!v.same, "{a} / {b}: {}", v.reason);
        }
    }

    #[test]
    fn phrasal_verbs_read_inflected_and_split() {
        let yes_no: &[&str] = &["Yes", "No"];
        for (a, b) in [
            (
                "Should I enable the response cache for the API?",
                "Want the API response cache turned on?",
            ),
            (
                "Should I turn the response cache on for the API?",
                "Enable the API response cache?",
            ),
            (
                "Should I pull the retry logic out into a module?",
                "Extract the retry logic into a module?",
            ),
        ] {
            let v = same((a, yes_no), (b, yes_no));
            assert!(v.same, "{a} / {b}: {}", v.reason);
        }
        let v = same(
            ("Should I turn the response cache off for the API?", yes_no),
            ("Enable the API response cache?", yes_no),
        );
        assert_eq!(v.reason, Reason::Contrast("enable/disable"));
        // `on` before a content word is a preposition: no phrase.
        let toks = tokens("Switch the runner on CI to Node 22?", Lang::En);
        assert!(toks.toks.iter().all(|t| t.group.is_none()), "{toks:?}");
    }

    #[test]
    fn renamed_tools_verbs_and_inflections_match() {
        let yes_no: &[&str] = &["Yes", "No"];
        let sim: &[&str] = &["Sim", "Não"];
        for (a, b) in [
            // a product's full name
            (
                (
                    "Should the Storybook stories mock the API with MSW?",
                    yes_no,
                ),
                (
                    "Use Mock Service Worker to mock the API in the Storybook stories?",
                    yes_no,
                ),
            ),
            // options whose verbs are of one class (`Run` / `Apply`)
            (
                (
                    "Prettier would change 40 files. Reformat them now?",
                    &["Run the formatter", "Review manually"][..],
                ),
                (
                    "Should I reformat the 40 files with Prettier?",
                    &["Apply formatting", "Look at each file"][..],
                ),
            ),
            // a Portuguese verb before its clitic (`atualizá-los`) is `atualizar`
            (
                ("Os snapshots estão desatualizados. Atualizá-los?", sim),
                ("Devo atualizar os snapshots?", sim),
            ),
            // 制表符 is a tab; an identifier's parts name its option (`.spec.ts` / `a.spec.ts`)
            (
                ("新文件的缩进用 Tab 还是空格？", &["Tab", "2 个空格"][..]),
                ("新文件用哪种缩进？", &["两个空格", "制表符"][..]),
            ),
            (
                (
                    "How should the new test files be named?",
                    &[".e2e.ts", ".test.ts"][..],
                ),
                (
                    "How should the new test files be named?",
                    &["parser.test.ts", "parser.e2e.ts"][..],
                ),
            ),
            // `Deixar` (leave it) answers, like `Keep`
            (
                (
                    "Devo adicionar o .env.local ao gitignore?",
                    &["Adicionar", "Deixar"][..],
                ),
                ("Quer que eu ignore o .env.local no git?", sim),
            ),
        ] {
            let v = same(a, b);
            assert!(v.same, "{a:?} / {b:?}: {}", v.reason);
        }
        let v = same(
            ("Os snapshots estão obsoletos. Removê-los?", sim),
            ("Os snapshots mudaram. Atualizá-los?", sim),
        );
        assert!(!v.same, "remove / update: {}", v.reason);
    }

    #[test]
    fn negations_orders_and_verbs_still_tell_decisions_apart() {
        let yes_no: &[&str] = &["Yes", "No"];
        let oui: &[&str] = &["Oui", "Non"];
        // `ne … pas` is one negation, not two that cancel.
        let v = same(
            (
                "Dois-je activer le cache pour que la CI aille plus vite ?",
                oui,
            ),
            ("Dois-je ne pas activer le cache ?", oui),
        );
        assert_eq!(v.reason, Reason::Negation);
        // Words swapped across `from` / `to` differ; words moved on one side do not.
        let v = same(
            ("Migrate the unit tests from Jest to Vitest?", yes_no),
            ("Migrate the unit tests from Vitest to Jest?", yes_no),
        );
        assert_eq!(v.reason, Reason::Order);
        let v = same(
            ("Should I pin the base image to a digest?", yes_no),
            ("Want the base image pinned to a digest?", yes_no),
        );
        assert!(v.same, "{}", v.reason);
        // Choosing a thing is not choosing where to host it, though the hosts name it.
        let v = same(
            (
                "Which database should the new service use?",
                &["PostgreSQL (Recommended)", "MongoDB"],
            ),
            (
                "Where should the new service's database be hosted?",
                &["Neon", "MongoDB Atlas", "Self-hosted"],
            ),
        );
        assert!(!v.same, "{}", v.reason);
    }

    #[test]
    fn compounds_and_leading_clauses() {
        let yes_no: &[&str] = &["Yes", "No"];
        for (a, b) in [
            // a compound written apart, or as one camelCase name
            (
                ("Should I add a .prettierrc to the repo?", yes_no),
                ("Do you want a prettier rc file at the repo root?", yes_no),
            ),
            (
                ("Should source maps be enabled in production?", yes_no),
                ("Enable sourcemaps in production?", yes_no),
            ),
            // a leading `While …,` clause is context
            (
                (
                    "The auth module uses callbacks. Convert it to async/await?",
                    yes_no,
                ),
                (
                    "While fixing the session bug, should I also convert the auth callbacks to async/await?",
                    yes_no,
                ),
            ),
        ] {
            let v = same(a, b);
            assert!(v.same, "{a:?} / {b:?}: {}", v.reason);
        }
        // The action asked by each is the other's background.
        let v = same(
            (
                "While fixing the login bug, should I also update the README?",
                yes_no,
            ),
            (
                "While updating the README, should I also fix the login bug?",
                yes_no,
            ),
        );
        assert_eq!(v.reason, Reason::Order);
    }

    #[test]
    fn synonyms_keep_their_contrasts() {
        let yes_no: &[&str] = &["Yes", "No"];
        // Removing unused code is not keeping it.
        let v = same(
            ("Remove the dead code?", yes_no),
            ("Keep the unused code?", yes_no),
        );
        assert!(!v.same, "remove / keep: {}", v.reason);
        // `create` is `add` and `drop` is `remove`: still opposite actions.
        let v = same(
            ("Create an index on users.email?", yes_no),
            ("Drop the index on users.email?", yes_no),
        );
        assert!(!v.same, "create / drop: {}", v.reason);
    }

    #[test]
    fn vetoes_keep_different_decisions_apart() {
        let yes_no: &[&str] = &["Yes", "No"];
        for (a, b, reason) in [
            (
                "Should I deploy to staging?",
                "Should I deploy to production?",
                Reason::Contrast("environment"),
            ),
            (
                "Should I enable the cache?",
                "Should I disable the cache?",
                Reason::Contrast("enable/disable"),
            ),
            (
                "Should I add the lodash dependency?",
                "Should I remove the lodash dependency?",
                Reason::Contrast("add/remove"),
            ),
            (
                "Should I run the unit tests?",
                "Should I run the integration tests?",
                Reason::Contrast("kind of test"),
            ),
            (
                "Should I push the branch?",
                "Should I not push the branch?",
                Reason::Negation,
            ),
            (
                "Merge main into develop?",
                "Merge develop into main?",
                Reason::Order,
            ),
            (
                "Should I format all files?",
                "Should I format only the changed files?",
                Reason::Contrast("scope"),
            ),
            (
                "Should I build the Docker image?",
                "Should I push the Docker image?",
                Reason::NearCopyDiffers,
            ),
        ] {
            let v = same((a, yes_no), (b, yes_no));
            assert!(!v.same, "{a} / {b}");
            assert_eq!(v.reason, reason, "{a} / {b}");
        }
        // Two roles of one thing, with the same choices: two settings, two decisions.
        let role = Reason::Contrast(Group::Role.name());
        let regions: &[&str] = &["eu-west-1 (Recommended)", "us-east-1", "ap-south-1"];
        for (a, b) in [
            (
                "Which primary region should the database run in?",
                "Which secondary region should the database run in?",
            ),
            (
                "Which branch is the source for the release notes?",
                "Which branch is the target for the release notes?",
            ),
            (
                "What default timeout should the HTTP client use?",
                "What maximum timeout should the HTTP client use?",
            ),
        ] {
            let v = same((a, regions), (b, regions));
            assert!(!v.same, "{a} / {b}");
            assert_eq!(v.reason, role, "{a} / {b}");
        }
        let v = same(
            ("Which test runner?", &["Jest", "Vitest"]),
            ("Which test runner?", &["Mocha", "Ava"]),
        );
        assert_eq!(v.reason, Reason::OptionsDisjoint);
        let v = same(
            ("用哪个数据库？", &["PostgreSQL", "SQLite"]),
            ("要删除数据库吗？", &["是", "否"]),
        );
        assert!(!v.same, "{}", v.reason);
    }

    #[test]
    fn empty_questions_match_nothing() {
        let a = sig("Should I?", &["Yes", "No"]);
        assert!(a.is_empty());
        assert!(!same_decision(&a, &sig("Should I?", &["Yes", "No"])).same);
    }
}

/// The matcher on the pair corpora of `tests/corpus/` (the report is `cargo bench --bench
/// families`): no different-decision pair may match, every mechanical rewording must, and the
/// share of blind rewordings matched must not fall below a floor a little under what is
/// measured today (so a regression fails; raise the floor when the matcher improves).
#[cfg(test)]
mod corpus {
    use super::*;
    use serde_json::Value;

    fn signature(q: &Value) -> Signature {
        let options: Vec<Choice> = q["options"]
            .as_array()
            .map(|o| {
                o.iter()
                    .map(|o| Choice {
                        label: o["label"].as_str().unwrap_or("").to_owned(),
                        description: o["description"].as_str().unwrap_or("").to_owned(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let (_, _, text) = crate::question::question_id(q["question"].as_str().unwrap_or(""), &[]);
        Signature::new(&text, q["header"].as_str(), &options)
    }

    /// (same-decision pairs, of them matched, different-decision pairs that match).
    fn measure(file: &str) -> (usize, usize, Vec<String>) {
        let path = format!("{}/../../tests/corpus/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the corpus");
        let (mut same, mut matched, mut collided) = (0, 0, Vec::new());
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let p: Value = serde_json::from_str(line).expect("a JSON line");
            let (a, b) = (signature(&p["a"]), signature(&p["b"]));
            let v = same_decision(&a, &b);
            assert!(!v.same || may_match(&a.key(), &b), "{line}");
            if p["same"].as_bool() == Some(true) {
                same += 1;
                matched += usize::from(v.same);
            } else if v.same {
                collided.push(p["id"].as_str().unwrap_or("").to_owned());
            }
        }
        (same, matched, collided)
    }

    #[test]
    fn the_blind_corpora_never_collide_and_stay_above_their_floor() {
        for (file, floor) in [
            // 104 of 151: the subject veto ([`Reason::NoSubject`]) costs two pairs of a verb
            // and a pronoun (`Add it?`) and keeps short questions from joining another
            // decision's family in the log (clustered 95 → 99).
            ("families.jsonl", 0.68),
            ("families-extra.jsonl", 0.84),
            ("families-more.jsonl", 0.52),
        ] {
            let (same, matched, collided) = measure(file);
            assert!(
                collided.is_empty(),
                "{file}: different decisions match: {collided:?}"
            );
            let rate = matched as f64 / same as f64;
            assert!(
                rate >= floor,
                "{file}: {matched} of {same} ({rate:.2}) < {floor}"
            );
        }
    }

    #[test]
    fn every_mechanical_rewording_matches() {
        let (same, matched, _) = measure("families-mechanical.jsonl");
        assert_eq!(matched, same);
    }
}
