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
    named: Name,
    /// Written right after a determiner (`this build`): a verb of work read as its object.
    object: bool,
}

/// How a word was written: plainly, like a name (capitals, an identifier), or in a code span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Name {
    Plain,
    Written,
    Code,
}

/// The tokens of one text.
#[derive(Debug, Default)]
struct Tokens {
    toks: Vec<Tok>,
    negations: usize,
    raw: Vec<String>,
    /// A French `ne` was counted, so its `pas` / `jamais` / `aucun` is the same negation.
    ne: bool,
    /// The words inside its identifiers and camelCase names (folded, not yet read as content
    /// words).
    parts: Vec<String>,
    /// The last word read was a determiner ([`lexicon::DETERMINERS_EN`]).
    det: bool,
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
    /// Those of [`Signature::core`] that may ask for an action: not written as the object of a
    /// determiner (`this build`).
    acts: Vec<String>,
    /// The content words of the whole text and the header.
    text_words: Vec<String>,
    /// The content words only the header writes: a chip's label, free to vary between two
    /// askings of one decision (`Cleanup` / `Old branch`).
    header_only: Vec<String>,
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
    /// What it says of amounts: whether it asks for one, and in which units.
    amounts: Amounts,
    /// The CJK words of the text, joined.
    cjk_text: String,
    /// [`Self::cjk_text`] then the option labels, joined.
    cjk_all: String,
    /// Content words of the asking sentence written like names (`Stripe`, `src/app.ts`).
    named: Vec<String>,
    /// Contrast-group members named, by [`Part`]: all, text, core. Sorted, unique.
    groups: [Vec<(Group, &'static str)>; 4],
    /// Contrast-group members the option labels name. Sorted, unique.
    offered: Vec<(Group, &'static str)>,
    /// The content words of the option descriptions: sorted, unique.
    description_words: Vec<String>,
    /// The asking sentence offers alternatives (`… or …`, `还是`, `아니면`): its scope words
    /// (`all`, `only`) name one of them, not the question's scope.
    alternatives: bool,
    /// The runs of three adjacent words or more of the text and header (letters only, no
    /// function word), each word as its initial and its reading (`architecture decision
    /// record`: `a` `architectur`, `d` `decision`, `r` `record`): three or four of them spell
    /// out an acronym another question writes (see [`Self::capitals`], [`spelling`]).
    spelled: Vec<Vec<(u8, String)>>,
    /// The versions it writes.
    versions: Versions,
    /// The acronyms of three or four letters the text and header write in capitals (`ADR`,
    /// `HSTS`), folded, with their reading (a content word of [`Self::all`] that begins the
    /// acronym: `hst`).
    capitals: Vec<(String, String)>,
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
    /// One asks yes or no, the other to choose between named options it never mentions, or
    /// for an amount.
    Kind,
    /// Both choose amounts, counted in units of different kinds (seconds / times).
    Units,
    /// One asks to move from one version to another, the other names no version.
    VersionMove,
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
            Reason::Units => f.write_str("amounts of different units"),
            Reason::OptionsDisjoint => f.write_str("no option in common"),
            Reason::Actions => f.write_str("different actions"),
            Reason::Kind => f.write_str("a yes/no question and a choice"),
            Reason::VersionMove => f.write_str("a version move and no version"),
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
/// [`NEAR`] and [`SEMI_NEAR`] for texts with CJK, whose raw words are single characters.
const NEAR_CJK: f64 = 0.75;
const SEMI_NEAR_CJK: f64 = 0.6;

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
        let mut sentences = Sentences::read(&text, lang);
        let written = sentences.written.take();
        let (asking, context, moved, ask, ctx) = sentences.parts();
        let head = tokens(header, lang);
        let opts: Vec<Tokens> = labels.iter().map(|l| tokens(l, lang)).collect();
        let described_tokens: Vec<Tokens> = descriptions
            .iter()
            .take(labels.len())
            .map(|d| tokens(clip(d, MAX_LABEL), lang))
            .collect();
        let joined: Vec<(String, String, String)> = [asking.as_str(), header]
            .into_iter()
            .flat_map(|t| compounds(t, lang))
            .collect();
        let words = Words::of(&ask, &ctx, &head, &opts, &joined, lang);
        let (w_ask, w_ctx, w_asking) = as_written(written.as_ref(), &ask, &ctx, &asking);
        let groups = match &written {
            Some(_) => Words::of(w_ask, w_ctx, &head, &opts, &joined, lang).groups,
            None => words.groups,
        };
        let (all, core, acts, text_words) = (words.all, words.core, words.acts, words.text);
        let answer = |(label, o): (&String, &Tokens)| is_answer(label, &o.toks);
        let answers = labels.iter().zip(&opts).any(answer);
        let yes_no = !labels.is_empty() && labels.iter().zip(&opts).all(answer);
        let (options, described) = options_of(&opts, &described_tokens);
        let named = named_subjects(w_ask, w_ctx, &options, w_asking, lang);
        let cjk_text = cjk_text_of(&[&ask, &head, &ctx]);
        let cjk_all = format!("{cjk_text}{}", labels.concat());
        let classes = classes_of(&all, &cjk_all, lang);
        // The near-copy veto reads the words in the order written: a status-quo tail (`…, or
        // leave it?`) moved to the context is read where it was.
        let raw: Vec<String> = if moved {
            let (asking, context, _) = asking_and_context(&text, lang, false);
            let read = |t: &String| tokens(t, lang).raw;
            [asking, context].iter().flat_map(read).collect()
        } else {
            ask.raw.iter().chain(&ctx.raw).cloned().collect()
        };
        let spelled = [asking.as_str(), header, context.as_str()]
            .into_iter()
            .flat_map(|t| spelled_runs(t, lang, &all))
            .collect();
        Signature {
            lang,
            negations: w_ask.negations,
            core_info: word_info(&core, lang),
            text_info: word_info(&text_words, lang),
            ask_sides: ask_sides_of(&ask.raw),
            versions: Versions::of(&asking, &text, header, &labels, &classes),
            core,
            acts,
            text_words,
            header_only: header_only_words(&head, &[&ask, &ctx]),
            options,
            joined,
            classes,
            described,
            answers,
            yes_no,
            amounts: Amounts::of(&asking, &labels),
            cjk_text,
            cjk_all,
            named,
            groups,
            offered: members(&opts.iter().flat_map(|o| &o.toks).collect::<Vec<_>>()),
            raw: characters_of_cjk(raw),
            description_words: description_words_of(&described_tokens, lang),
            alternatives: offers_alternatives(&asking, lang),
            spelled,
            capitals: capitals_of(&[&text, header], lang, &all),
            all,
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
            Part::Ask => 3,
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

/// The content words only the header writes (sorted, unique): not the text, nor the text in
/// parts (a header's `Rollout` is the text's `roll out`).
fn header_only_words(head: &Tokens, text: &[&Tokens]) -> Vec<String> {
    let in_text = |w: &String| {
        text.iter()
            .flat_map(|t| &t.toks)
            .filter_map(|t| t.word.as_ref())
            .any(|t| t == w || t.chars().count() >= 3 && w.starts_with(t.as_str()))
    };
    let mut only: Vec<String> = head
        .toks
        .iter()
        .filter_map(|t| t.word.clone())
        .filter(|w| !in_text(w))
        .collect();
    only.sort_unstable();
    only.dedup();
    only
}

/// The subjects a question names: those of its asking sentence, and when that sentence only
/// offers the options (`Jest or Vitest?`), those of its context too (`The ui library has no
/// tests yet.`, the library written in a code span), where its subject then is.
fn named_subjects(
    ask: &Tokens,
    ctx: &Tokens,
    options: &[Vec<String>],
    asking: &str,
    lang: Lang,
) -> Vec<String> {
    let offered = |w: &String| options.iter().flatten().any(|o| o == w);
    let only_offers = offers_alternatives(asking, lang)
        && ask.toks.iter().filter_map(|t| t.word.as_ref()).all(offered);
    if !only_offers {
        return named_of(&ask.toks);
    }
    let mut named = named_of(&ask.toks);
    named.extend(named_of(&ctx.toks));
    named.sort_unstable();
    named.dedup();
    named
}

/// The content words of some tokens written like names (`Stripe`, `src/app.ts`), general
/// acronyms left out (`DB`, read `database`) unless written in a code span: sorted, unique.
fn named_of(toks: &[Tok]) -> Vec<String> {
    let mut named: Vec<String> = toks
        .iter()
        .filter(|t| t.named != Name::Plain)
        .filter(|t| {
            t.word
                .as_ref()
                .is_some_and(|w| t.named == Name::Code || !is_generic_acronym(w))
        })
        .filter_map(|t| t.word.clone())
        .collect();
    named.sort_unstable();
    named.dedup();
    named
}

/// The content words of a question, and the contrast-group members it names.
struct Words {
    /// Of the asking sentence and the header.
    core: Vec<String>,
    /// Of the asking sentence and the header, not right after a determiner.
    acts: Vec<String>,
    /// Of the whole text and the header.
    text: Vec<String>,
    /// Of everything: the options too, the compounds, and the parts of identifiers. Sorted,
    /// unique.
    all: Vec<String>,
    /// By [`Part`]: all, text, core, ask.
    groups: [Vec<(Group, &'static str)>; 4],
}

impl Words {
    fn of(
        ask: &Tokens,
        ctx: &Tokens,
        head: &Tokens,
        opts: &[Tokens],
        joined: &[(String, String, String)],
        lang: Lang,
    ) -> Words {
        let words =
            |toks: &[&Tok]| -> Vec<String> { toks.iter().filter_map(|t| t.word.clone()).collect() };
        let core_toks: Vec<&Tok> = ask.toks.iter().chain(&head.toks).collect();
        let text_toks: Vec<&Tok> = ask.toks.iter().chain(&ctx.toks).chain(&head.toks).collect();
        let all_toks: Vec<&Tok> = text_toks
            .iter()
            .copied()
            .chain(opts.iter().flat_map(|o| &o.toks))
            .collect();
        let mut all = words(&all_toks);
        all.extend(joined.iter().map(|(c, _, _)| c.clone()));
        // The words inside identifiers and camelCase names: found by the other question
        // (`Stripe` finds `STRIPE_SECRET_KEY`), never asked of it (they are no core words).
        let texts = [ask, ctx, head].into_iter().chain(opts);
        all.extend(texts.flat_map(|t| part_words(t, lang)));
        all.sort_unstable();
        all.dedup();
        let not_objects: Vec<&Tok> = core_toks.iter().copied().filter(|t| !t.object).collect();
        Words {
            acts: words(&not_objects),
            core: words(&core_toks),
            text: words(&text_toks),
            all,
            groups: [
                &all_toks,
                &text_toks,
                &core_toks,
                &ask.toks.iter().collect(),
            ]
            .map(|toks| members(toks)),
        }
    }
}

/// The content words of some option descriptions (their parts too): sorted, unique.
fn description_words_of(descriptions: &[Tokens], lang: Lang) -> Vec<String> {
    let mut words: Vec<String> = descriptions
        .iter()
        .flat_map(|d| {
            let toks = d.toks.iter().filter_map(|t| t.word.clone());
            toks.chain(part_words(d, lang))
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    words
}

/// Whether a content word (as [`tokens`] reads it: `databas`) is a general acronym's reading.
fn is_generic_acronym(word: &str) -> bool {
    static STEMS: OnceLock<Vec<String>> = OnceLock::new();
    let stems = STEMS.get_or_init(|| {
        let mut v: Vec<String> = lexicon::GENERIC_ACRONYMS
            .iter()
            .map(text::stem_latin)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    });
    listed(lexicon::GENERIC_ACRONYMS, word) || listed_sorted(stems, word)
}

/// The words inside the identifiers and camelCase names of some tokens, read as content words
/// (one letter and function words left out).
fn part_words(toks: &Tokens, lang: Lang) -> impl Iterator<Item = String> + '_ {
    toks.parts
        .iter()
        .filter(move |p| p.chars().filter(|c| c.is_alphabetic()).count() > 1 && !is_stop(p, lang))
        .map(move |p| normal_word(p, lang))
}

/// Whether an asking sentence offers alternatives: an `or` past its first word, or a CJK `or`.
fn offers_alternatives(asking: &str, lang: Lang) -> bool {
    asking
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .skip(1)
        .any(|w| is_or(w, lang))
        || lexicon::CJK_OR_WORDS.iter().any(|o| asking.contains(o))
}

/// Whether a word as written is `or` ([`lexicon::OR_WORDS`]): not `où` (where), and a one-letter
/// `o` only in Spanish (in Portuguese it is `the`).
fn is_or(written: &str, lang: Lang) -> bool {
    // The longest, `либо`, is eight bytes.
    if written.len() > 8 {
        return false;
    }
    let folded = text::fold(written);
    listed(lexicon::OR_WORDS, &folded)
        && written
            .chars()
            .all(|c| c.is_ascii() || text::is_cyrillic(c))
        && (folded.len() > 1 || lang == Lang::Es)
}

/// The runs of three adjacent words or more of a text (letters only, no function word nor
/// negation), each word as its initial (folded) and its reading; a word whose reading does not
/// begin with its initial (an alias: `create` read `add`) or is not a content word of the
/// question (`all`: in a phrase, `pull request`) ends a run.
fn spelled_runs(text_: &str, lang: Lang, all: &[String]) -> Vec<Vec<(u8, String)>> {
    let pieces = text::pieces(text_);
    let content: Vec<Option<&str>> = pieces
        .iter()
        .map(|p| {
            let w = p.text.as_str();
            let content = p.kind == Kind::Word
                && w.len() > 1
                && w.bytes().all(|b| b.is_ascii_alphabetic())
                && !is_stop(w, lang)
                && !is_negation(w, lang);
            content.then_some(w)
        })
        .collect();
    let mut runs = Vec::new();
    // Only runs of three words are read (each word's reading costs).
    for words in content.split(Option::is_none).filter(|ws| ws.len() >= 3) {
        let mut run: Vec<(u8, String)> = Vec::new();
        for w in words.iter().flatten() {
            let initial = w.as_bytes()[0];
            let reading = normal_word(w, lang);
            if reading.as_bytes()[0] == initial && listed_sorted(all, &reading) {
                run.push((initial, reading));
            } else if run.len() >= 3 {
                runs.push(std::mem::take(&mut run));
            } else {
                run.clear();
            }
        }
        if run.len() >= 3 {
            runs.push(run);
        }
    }
    runs
}

/// The windows of `runs` whose initials spell `acronym` (three or four letters).
fn spelling<'a>(
    runs: &'a [Vec<(u8, String)>],
    acronym: &'a str,
) -> impl Iterator<Item = &'a [(u8, String)]> + 'a {
    runs.iter()
        .flat_map(move |run| run.windows(acronym.len()))
        .filter(move |w| w.iter().map(|(i, _)| *i).eq(acronym.bytes()))
}

/// The acronyms some texts write in capitals (three or four letters, `ADR`, `HSTS`), folded,
/// with their reading, kept when the reading is among the question's content words (`all`)
/// and begins the acronym (no alias: `PKG` is read `package` already): sorted, unique.
fn capitals_of(texts: &[&str], lang: Lang, all: &[String]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = texts
        .iter()
        .flat_map(|t| t.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| (3..=4).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_uppercase()))
        .map(|w| {
            let folded = w.to_ascii_lowercase();
            let reading = normal_word(&folded, lang);
            (folded, reading)
        })
        .filter(|(folded, reading)| {
            folded.starts_with(reading.as_str()) && listed_sorted(all, reading)
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Each word's weight and class of [`lexicon::ACTION_SYNONYMS`].
fn word_info(words: &[String], lang: Lang) -> Vec<(f64, Option<usize>)> {
    words
        .iter()
        .map(|w| (weight(w), synonym_class(lang, w)))
        .collect()
}

/// Raw words for the near-copy veto, a CJK run cut into its characters: a run is a whole
/// clause (`要不要把订单模块从单体里拆成独立服务`), so two runs that differ in one word
/// (`用户模块`) would share no word at all.
fn characters_of_cjk(raw: Vec<String>) -> Vec<String> {
    raw.into_iter()
        .flat_map(|w| {
            if w.chars().any(text::is_cjk) {
                w.chars().map(String::from).collect()
            } else {
                vec![w]
            }
        })
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
fn options_of(opts: &[Tokens], descriptions: &[Tokens]) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let mut options: Vec<Vec<String>> = Vec::new();
    let mut described: Vec<Vec<String>> = Vec::new();
    for (n, o) in opts.iter().enumerate() {
        let words = specific(&o.toks);
        if words.is_empty() {
            continue;
        }
        let mut more = words.clone();
        if let Some(d) = descriptions.get(n).filter(|d| !d.toks.is_empty()) {
            more.extend(specific(&d.toks));
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

/// Whether a question whose [`Signature::key`] is `key` could be the same decision as `b`
/// ([`Probe::may_match`]). To test one question against many keys, build the [`Probe`] once.
pub fn may_match(key: &str, b: &Signature) -> bool {
    Probe::new(b).may_match(&StoredKey::parse(key))
}

/// A [`Signature::key`] as stored, read once for [`Probe::may_match`]: what it says of each of
/// its words does not depend on the question it is tested against.
#[derive(Debug)]
pub struct StoredKey {
    /// The content words of the asking sentence and header, each with its weight and whether
    /// it is a verb of some synonym class.
    core: Vec<(String, f64, bool)>,
    /// Every content word: sorted.
    all: Vec<String>,
    /// It lists at least two specific options.
    options: bool,
}

impl StoredKey {
    pub fn parse(key: &str) -> StoredKey {
        fn words(part: Option<&str>) -> impl Iterator<Item = String> + '_ {
            part.unwrap_or("")
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(str::to_owned)
        }
        let mut parts = key.split('\t');
        let core = words(parts.next())
            .map(|w| {
                let (weight, synonyms) = (weight(&w), has_synonyms(&w));
                (w, weight, synonyms)
            })
            .collect();
        let mut all: Vec<String> = words(parts.next()).collect();
        all.sort_unstable();
        StoredKey {
            core,
            all,
            options: parts.next() == Some("2"),
        }
    }
}

/// A question read for [`Probe::may_match`] against many stored keys: what does not depend on
/// the key (the acronyms its runs of words could spell) is worked out once.
pub struct Probe<'a> {
    b: &'a Signature,
    /// For each word of `b.core`: the initials of every run of three or four words of
    /// `b.spelled` that holds it, as read in every language (an acronym the key may write).
    spelled_by: Vec<Vec<String>>,
    /// The initials of every run of three or four words of `b.spelled`.
    initials: Vec<String>,
    /// The weight of each word of `b.core`, and whether it is a verb of a synonym class (found
    /// in any key: the key does not say its language).
    words: Vec<(f64, bool)>,
}

impl<'a> Probe<'a> {
    pub fn new(b: &'a Signature) -> Probe<'a> {
        let windows = || {
            b.spelled
                .iter()
                .flat_map(|run| (3..=4).flat_map(move |n| run.windows(n)))
        };
        let initials_of = |window: &[(u8, String)]| -> String {
            window.iter().map(|(i, _)| *i as char).collect()
        };
        let spelled_by = b
            .core
            .iter()
            .map(|w| {
                let mut read: Vec<String> = windows()
                    .filter(|window| window.iter().any(|(_, x)| x == w))
                    .flat_map(|window| {
                        let initials = initials_of(window);
                        Lang::ALL
                            .iter()
                            .map(move |&lang| normal_word(&initials, lang))
                    })
                    .collect();
                read.sort_unstable();
                read.dedup();
                read
            })
            .collect();
        let initials = windows().map(initials_of).collect();
        Probe {
            b,
            spelled_by,
            initials,
            words: b
                .core
                .iter()
                .map(|w| (weight(w), synonym_class(b.lang, w).is_some()))
                .collect(),
        }
    }

    /// Whether a question whose [`Signature::key`] is `key` could be the same decision as this
    /// one: the share of each side's asking words found among the other's words must reach the
    /// coverage [`same_decision`] needs (one side only when both list two specific options).
    /// Never false for a pair [`same_decision`] would match.
    pub fn may_match(&self, key: &StoredKey) -> bool {
        let b = self.b;
        let all = &key.all;
        // The share of the weight of words found.
        let share = |words: &mut dyn Iterator<Item = (f64, bool)>| {
            let (mut total, mut hit) = (0.0, 0.0);
            for (weight, found) in words {
                total += weight;
                if found {
                    hit += weight;
                }
            }
            if total > 0.0 {
                hit / total
            } else {
                0.0
            }
        };
        // A verb of a synonym class may be matched by another of its class: counted as found
        // (the key does not say its language), so this stays true wherever `same_decision` could
        // be; so are a path whose last part the other has and an acronym spelled out (see
        // `coverage`). A word of a compound the key's question has (`trailing commas` for
        // `trailingComma`): any word of the key's that begins or ends such a compound of `b`'s.
        let in_key = |w: &str| all.binary_search_by(|x| x.as_str().cmp(w)).is_ok();
        let compound = |w: &str| {
            b.all
                .iter()
                .any(|c| c.len() > w.len() && (c.starts_with(w) || c.ends_with(w)) && in_key(c))
        };
        // A word of the key's as read in some language (the key's is not known).
        let in_key_read = |w: &str| Lang::ALL.iter().any(|&lang| in_key(&normal_word(w, lang)));
        // Some word of the key's begins with each letter of `acronym` (the words that spell one
        // out are content words: `Signature::spelled`).
        let spelled_in_key = |acronym: &str| {
            acronym.bytes().all(|c| {
                let at = all.partition_point(|w| w.as_bytes()[0] < c);
                all.get(at).is_some_and(|w| w.as_bytes()[0] == c)
            })
        };
        // A word of the key's that may spell out an acronym `b` writes (its initial is one of
        // the acronym's letters), or an acronym's reading (it begins the acronym) `b` spells out.
        let acronym = |w: &str| {
            let first = w.as_bytes()[0];
            b.capitals
                .iter()
                .any(|(c, _)| c.as_bytes().contains(&first) && spelled_in_key(c))
                || (w.len() <= 4 && self.initials.iter().any(|s| s.starts_with(w)))
        };
        let found_b = |i: usize, w: &str| {
            self.words[i].1
                || in_key(w)
                || b.joined
                    .iter()
                    .any(|(c, l, r)| (l == w || r == w) && in_key(c))
                || basename(w).is_some_and(|last| in_key(last) || in_key_read(last))
                || b.capitals
                    .iter()
                    .any(|(c, reading)| reading == w && spelled_in_key(c))
                || self.spelled_by[i].iter().any(|initials| in_key(initials))
        };
        let cover_b = share(
            &mut b
                .core
                .iter()
                .enumerate()
                .filter(|(_, w)| !w.is_empty())
                .map(|(i, w)| (self.words[i].0, found_b(i, w))),
        );
        // Both sides must be covered unless both list two specific options: the side read
        // first (`b`'s words, looked up in the key) mostly decides alone.
        let both = !(key.options && b.options.len() >= 2);
        if both && cover_b < COVERAGE {
            return false;
        }
        let cover_a = share(&mut key.core.iter().map(|(w, weight, synonyms)| {
            let found = b.has(w) || *synonyms || compound(w) || basename_found(w, b) || acronym(w);
            (*weight, found)
        }));
        if both {
            cover_a >= COVERAGE
        } else {
            cover_a.max(cover_b) >= COVERAGE
        }
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
    // CJK raw words are characters: two rewordings share many of them, so only a copy with a
    // word or two changed counts as near (`订单模块` / `用户模块` in one sentence).
    let cjk = |s: &Signature| s.raw.iter().any(|w| w.chars().any(text::is_cjk));
    let (near_at, semi_at) = if cjk(a) || cjk(b) {
        (NEAR_CJK, SEMI_NEAR_CJK)
    } else {
        (NEAR, SEMI_NEAR)
    };
    if near >= near_at && (cjk(a) || cjk(b)) {
        if cjk_substituted(a, b) {
            return no(Reason::NearCopyDiffers);
        }
    } else if near >= near_at {
        let text_a = !coverage(&a.text_words, &a.text_info, a, b).1.is_empty();
        let text_b = !coverage(&b.text_words, &b.text_info, b, a).1.is_empty();
        if !miss_a.is_empty() || !miss_b.is_empty() || (text_a && text_b) {
            return no(Reason::NearCopyDiffers);
        }
    } else if near >= semi_at && substituted((a, &miss_a), (b, &miss_b)) {
        return no(Reason::NearCopyDiffers);
    }
    let named_a = miss_a.iter().any(|w| named_missing(w, a, b));
    let named_b = miss_b.iter().any(|w| named_missing(w, b, a));
    if named_a && named_b {
        return no(Reason::NamedSubjects);
    }
    if let Some(reason) = kinds_differ(a, b) {
        return no(reason);
    }
    let (matched, rate, disjoint) = option_agreement(a, b);
    if disjoint {
        return no(Reason::OptionsDisjoint);
    }
    if actions_differ(a, b) {
        return no(Reason::Actions);
    }
    if moves_version(a, b) || moves_version(b, a) {
        return no(Reason::VersionMove);
    }
    let strong = matched >= 2 && rate >= 0.66;
    // Matching options let one side's coverage carry the pair, but the choices a question
    // names in its asking sentence (`Memcached or Redis?`) are not what it decides: that side
    // must cover the other's subject, the words no option names. (`Where should sessions be
    // stored?` and `The rate limiter needs shared counters. Memcached or Redis?` offer the same
    // stores for two decisions.)
    let pct = |x: f64| (x * 100.0).round() as u8;
    let same = cover_a.min(cover_b) >= COVERAGE
        || (strong
            && cover_a.max(cover_b) >= COVERAGE
            && subject_coverage(a, b).max(subject_coverage(b, a)) >= COVERAGE);
    // A verb weighs 1.5, so a short question covers another with its verb alone (`Should I add
    // CONTRIBUTING.md?` / `zod is missing. Add it?`): without an option in common, each must
    // find one of its subjects in the other.
    if same && matched == 0 && !(subject_found(a, b) && subject_found(b, a)) {
        return no(Reason::NoSubject);
    }
    if same && a.answers && b.answers && asks_own_thing((&miss_a, named_a), (&miss_b, named_b)) {
        return no(Reason::NamedSubjects);
    }
    let (pct_a, pct_b) = (pct(cover_a), pct(cover_b));
    let reason = if same {
        Reason::Covered(pct_a, pct_b)
    } else {
        Reason::TooFewShared(pct_a, pct_b)
    };
    Verdict { same, reason }
}

/// Of two questions that copy a third of each other's words, each writes a content word the
/// other does not: a substitution (`Delete the staging DB?` / `Delete the prod DB?`). A verb of
/// the other's class is none (`open` / `create` a PR), nor is a word only the header writes
/// (`[Cleanup] … Delete the local branch?` / `[Old branch] … remove the local copy of that
/// branch?`); with two or more options matching, one word each is allowed.
fn substituted((a, miss_a): (&Signature, &[&str]), (b, miss_b): (&Signature, &[&str])) -> bool {
    let unmatched = |miss: &[&str], s: &Signature, other: &Signature| {
        miss.iter()
            .filter(|w| !synonym_named(synonym_class(s.lang, w), other))
            .filter(|w| !listed_sorted(&s.header_only, w))
            .count()
    };
    let (ua, ub) = (unmatched(miss_a, a, b), unmatched(miss_b, b, a));
    let (matched, rate, _) = option_agreement(a, b);
    let allowed = if matched >= 2 && rate >= 0.66 { 3 } else { 2 };
    ua > 0 && ub > 0 && ua + ub >= allowed
}

/// Of two yes/no questions, one asks about a thing it names (`GIN-Index`) that the other never
/// mentions, and the other lacks one word only: the named thing is a decision of its own
/// (`Als JSONB-Spalte speichern?` / `Soll die JSONB-Spalte einen GIN-Index bekommen?`). Each
/// side is the words it misses in the other and whether one of them is a name it writes.
fn asks_own_thing((miss_a, named_a): (&[&str], bool), (miss_b, named_b): (&[&str], bool)) -> bool {
    let things = |miss: &[&str]| miss.iter().filter(|w| !is_any_action(w)).count();
    named_b && miss_a.len() == 1 && things(miss_b) >= 2
        || named_a && miss_b.len() == 1 && things(miss_a) >= 2
}

/// What a question says of amounts.
#[derive(Debug, Default)]
struct Amounts {
    /// The asking sentence asks for an amount (`how many`, `cuántos`, `几`).
    asked: bool,
    /// Some option label writes a number (`Oui, à 1 000`, `5 s`, `One hour`): its answers
    /// carry amounts.
    numbered: bool,
    /// Every option label (two or more) begins with a number: a choice of amounts.
    offered: bool,
    /// The kinds of unit ([`lexicon::UNIT_CLASSES`]) the option labels count in, as bits.
    units: u32,
    /// The shortest and the longest duration the option labels write, in seconds.
    durations: Option<(f64, f64)>,
    /// The kinds of unit the asking sentence names, as bits: a unit of time (`How many
    /// seconds?`, `超时几秒`) makes bare numbers offered durations.
    named_units: u32,
}

impl Amounts {
    fn of(asking: &str, labels: &[String]) -> Amounts {
        Amounts {
            asked: asks_amount(asking),
            numbered: labels.iter().any(|l| names_a_number(l)),
            offered: labels.len() >= 2
                && labels
                    .iter()
                    .all(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())),
            units: labels.iter().fold(0, |bits, l| bits | units_of(l)),
            durations: labels
                .iter()
                .flat_map(|l| durations_of(l))
                .fold(None, |range, d| {
                    let (lo, hi) = range.unwrap_or((d, d));
                    Some((lo.min(d), hi.max(d)))
                }),
            named_units: if names_time_unit(asking) {
                DURATION_UNITS
            } else {
                0
            },
        }
    }
}

/// Whether `a` and `b` ask for different kinds of answer: a yes/no and a choice between named
/// options it never mentions, an amount and a yes/no or choice naming none, or amounts counted
/// in units of different kinds.
fn kinds_differ(a: &Signature, b: &Signature) -> Option<Reason> {
    // A choice between named options none of which the yes/no question mentions.
    let choice = |s: &Signature, yes_no: &Signature| {
        yes_no.yes_no
            && !s.answers
            && s.options.len() >= 2
            && !s.options.iter().flatten().any(|w| yes_no.has(w))
    };
    // An amount asked, and a yes/no whose answers name none (`How many retries?` / `Add a
    // circuit breaker?`); or amounts to choose from, and choices that name none (`70 % / 85 %`
    // / `Telegram / PagerDuty`).
    let whether = |s: &Signature, other: &Signature| {
        ((s.amounts.asked && other.yes_no) || (s.amounts.offered && !other.options.is_empty()))
            && !other.amounts.numbered
    };
    if choice(a, b) || choice(b, a) || whether(a, b) || whether(b, a) {
        return Some(Reason::Kind);
    }
    let (ua, ub) = (a.amounts.units, b.amounts.units);
    // Durations two orders of magnitude apart: `retain 15 days` / `scrape every 30 s`.
    let apart = match (a.amounts.durations, b.amounts.durations) {
        (Some((lo_a, hi_a)), Some((lo_b, hi_b))) => {
            hi_a * DURATIONS_APART < lo_b || hi_b * DURATIONS_APART < lo_a
        }
        _ => false,
    };
    // Bare numbers under a question that names no unit of time, and durations: `How many jobs
    // at once? 4 | 8` / `How long may a job run? 1 hour | 3 hours`.
    let counts_and_durations = |s: &Signature, o: &Signature| {
        s.amounts.offered
            && s.amounts.units == 0
            && s.amounts.named_units & DURATION_UNITS == 0
            && o.amounts.offered
            && o.amounts.units == DURATION_UNITS
    };
    ((ua != 0 && ub != 0 && ua & ub == 0)
        || apart
        || counts_and_durations(a, b)
        || counts_and_durations(b, a))
    .then_some(Reason::Units)
}

/// The bit of [`lexicon::UNIT_CLASSES`] that holds units of time (its first class).
const DURATION_UNITS: u32 = 1;

/// Whether a text names a unit of time (a word of [`lexicon::UNIT_SECONDS`] of two letters or
/// more, or a CJK one inside it).
fn names_time_unit(text: &str) -> bool {
    let folded = text::fold(text);
    let words: Vec<&str> = folded.split(|c: char| !c.is_alphanumeric()).collect();
    lexicon::UNIT_SECONDS.iter().any(|(unit, _)| {
        if unit.starts_with(text::is_cjk) {
            folded.contains(unit)
        } else {
            unit.chars().count() >= 2 && words.contains(&unit)
        }
    })
}

/// How many times the longest duration one question offers must fall short of the shortest
/// the other offers for the two to be different settings: a rewording rescales a duration
/// (`300 s` / `5 minutes`, `1 day` / `24 hours`), it does not move it a hundredfold.
const DURATIONS_APART: f64 = 100.0;

/// The durations a label writes, in seconds: each number followed by a unit of
/// [`lexicon::UNIT_SECONDS`] (`30 s`, `15 días`, `2 小时`).
fn durations_of(label: &str) -> Vec<f64> {
    let folded = text::fold(label);
    let mut found = Vec::new();
    let mut rest = folded.as_str();
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let glued = rest[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        let number_end = rest[at..]
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .map_or(rest.len(), |i| at + i);
        let number: Option<f64> = rest[at..number_end].parse().ok();
        let after = &rest[number_end..];
        rest = after;
        let (Some(number), false) = (number, glued) else {
            continue;
        };
        let unit_text = after.trim_start();
        let end = if unit_text.starts_with(text::is_cjk) {
            unit_text.find(|c: char| !text::is_cjk(c))
        } else {
            unit_text.find(|c: char| !c.is_alphabetic())
        }
        .unwrap_or(unit_text.len());
        let word = &unit_text[..end];
        // The longest unit the word is or (in CJK) begins with.
        let seconds = lexicon::UNIT_SECONDS
            .iter()
            .filter(|(unit, _)| {
                *unit == word || (unit.starts_with(text::is_cjk) && word.starts_with(unit))
            })
            .max_by_key(|(unit, _)| unit.len())
            .and_then(|(_, seconds)| seconds.parse::<f64>().ok());
        if let Some(seconds) = seconds {
            found.push(number * seconds);
        }
    }
    found
}

/// Whether an asking sentence asks for an amount: a word or two of
/// [`lexicon::QUANTITY_WORDS`], [`lexicon::QUANTITY_PAIRS`], or CJK text of
/// [`lexicon::CJK_QUANTITY`].
fn asks_amount(asking: &str) -> bool {
    if lexicon::CJK_QUANTITY.iter().any(|w| asking.contains(w)) {
        return true;
    }
    let folded = text::fold(asking);
    let words: Vec<&str> = folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().any(|w| lexicon::QUANTITY_WORDS.contains(w))
        || words.windows(2).any(|pair| {
            lexicon::QUANTITY_PAIRS
                .iter()
                .any(|(p, w)| p.get() == pair[0] && w.get() == pair[1])
        })
}

/// Whether a label writes a number: in digits, as a word of [`lexicon::NUMBER_WORDS`] (`One
/// hour`, `Une sur dix`), or a CJK numeral (`一人`).
fn names_a_number(label: &str) -> bool {
    // Digits that begin a word: `m6i.xlarge`, `v2` and `ES2022` name things, not amounts.
    let mut before = ' ';
    let digits = label.chars().any(|c| {
        let starts = c.is_ascii_digit() && !before.is_alphanumeric();
        before = c;
        starts
    });
    digits
        || lexicon::CJK_NUMERALS.iter().any(|n| label.contains(n))
        || text::fold(label)
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| lexicon::NUMBER_WORDS.contains(w))
}

/// The kinds of unit a label counts in, as bits of [`lexicon::UNIT_CLASSES`]: the word (or
/// the CJK characters, or `%`) right after each number (`30 s`, `500ms`, `2 次`, `3 mal`).
fn units_of(label: &str) -> u32 {
    let folded = text::fold(label);
    let mut bits = 0;
    let mut rest = folded.as_str();
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let glued = rest[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric);
        let after =
            rest[at..].trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
        if glued {
            // Digits inside a name (`utf8mb4`, `m6i`) count nothing.
            rest = after;
            continue;
        }
        let unit_text = after.trim_start();
        let word: &str = if unit_text.starts_with('%') {
            "%"
        } else if unit_text.starts_with(text::is_cjk) {
            let end = unit_text
                .char_indices()
                .find(|&(_, c)| !text::is_cjk(c))
                .map_or(unit_text.len(), |(i, _)| i);
            &unit_text[..end]
        } else {
            let end = unit_text
                .find(|c: char| !c.is_alphabetic())
                .unwrap_or(unit_text.len());
            &unit_text[..end]
        };
        // The longest unit named (`時間` over `時`), in the class that holds it.
        let mut best: Option<(usize, usize)> = None;
        for (class, words) in lexicon::UNIT_CLASSES.iter().enumerate().take(32) {
            for unit in *words {
                let named = if unit.starts_with(text::is_cjk) {
                    word.starts_with(unit)
                } else {
                    word == unit
                };
                if named && best.is_none_or(|(len, _)| unit.len() > len) {
                    best = Some((unit.len(), class));
                }
            }
        }
        if let Some((_, class)) = best {
            bits |= 1 << class;
        }
        rest = after;
    }
    bits
}

/// Whether a word `me` misses in `other` is a subject `me` names (see [`Signature::named`]),
/// unless it is a word of one of `me`'s options that `other` names in an option's description
/// (`Conventional commits` / `Prefix: feat:, fix: (Conventional Commits)`): the description
/// says which of `other`'s options is `me`'s.
fn named_missing(word: &str, me: &Signature, other: &Signature) -> bool {
    listed_sorted(&me.named, word)
        && !(listed_sorted(&other.description_words, word)
            && me.options.iter().flatten().any(|o| o == word))
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
/// others, each joined by spaces; with `status_quo`, an asking sentence's status-quo tail
/// (`…, or leave it?`) is context too, and the third value says whether one was.
fn asking_and_context(text_: &str, lang: Lang, status_quo: bool) -> (String, String, bool) {
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
    let mut moved = false;
    for sentence in asking {
        let cut = status_quo.then(|| status_quo_cut(sentence, lang)).flatten();
        let (sentence, tail) = match cut {
            Some(at) => (&sentence[..at], Some(&sentence[at..])),
            None => (sentence, None),
        };
        let (main, why) = main_clause(sentence);
        ask.push(main);
        context.extend(why);
        context.extend(tail);
        moved |= tail.is_some();
    }
    (ask.join(" "), context.join(" "), moved)
}

/// A question's asking sentence and context as compared, with their tokens, and the tokens as
/// written when an asking sentence with no subject took its context ([`subject_in_context`]):
/// negations, named subjects and contrast groups are read where they were written.
struct Sentences {
    asking: String,
    context: String,
    /// A status-quo tail was moved to the context ([`status_quo_cut`]).
    moved: bool,
    ask: Tokens,
    ctx: Tokens,
    /// The asking sentence's tokens, its context's, and the asking sentence, as written.
    written: Option<(Tokens, Tokens, String)>,
}

impl Sentences {
    fn read(text_: &str, lang: Lang) -> Sentences {
        let (asking, context, moved) = asking_and_context(text_, lang, true);
        let (ask, ctx) = (tokens(&asking, lang), tokens(&context, lang));
        let (asking, context, merged) = subject_in_context(asking, context, &ask, moved, lang);
        match merged {
            Some(written_asking) => Sentences {
                ask: tokens(&asking, lang),
                ctx: Tokens::default(),
                asking,
                context,
                moved,
                written: Some((ask, ctx, written_asking)),
            },
            None => Sentences {
                asking,
                context,
                moved,
                ask,
                ctx,
                written: None,
            },
        }
    }

    fn parts(self) -> (String, String, bool, Tokens, Tokens) {
        (self.asking, self.context, self.moved, self.ask, self.ctx)
    }
}

/// The asking sentence's tokens, its context's and the sentence, as written.
fn as_written<'a>(
    written: Option<&'a (Tokens, Tokens, String)>,
    ask: &'a Tokens,
    ctx: &'a Tokens,
    asking: &'a str,
) -> (&'a Tokens, &'a Tokens, &'a str) {
    match written {
        Some((a, c, written_asking)) => (a, c, written_asking.as_str()),
        None => (ask, ctx, asking),
    }
}

/// The CJK words of some tokens, concatenated.
fn cjk_text_of(texts: &[&Tokens]) -> String {
    texts
        .iter()
        .flat_map(|t| &t.raw)
        .filter(|w| w.chars().any(text::is_cjk))
        .map(String::as_str)
        .collect()
}

/// An asking sentence that names no subject of its own (`Should we use it?`, `Go ahead?`,
/// `¿Lo hacemos?`) decides what its context says: the context is read with it
/// (`The SDK would pull in a GPL-3.0 parser. Should we use it?` is about that parser, not the
/// SDK's licence, whatever its header).
///
/// Returns the asking sentence and context to compare, and, when they were merged, the asking
/// sentence as written.
fn subject_in_context(
    asking: String,
    context: String,
    ask: &Tokens,
    moved: bool,
    lang: Lang,
) -> (String, String, Option<String>) {
    if moved || context.trim().is_empty() {
        return (asking, context, None);
    }
    let words: Vec<String> = ask.toks.iter().filter_map(|t| t.word.clone()).collect();
    // Neither a verb (1.5) nor a general word (0.3): a subject.
    let subject = |&(weight, _): &(f64, Option<usize>)| weight > 0.4 && weight < 1.4;
    if word_info(&words, lang).iter().any(subject) {
        (asking, context, None)
    } else {
        (format!("{context} {asking}"), String::new(), Some(asking))
    }
}

/// Where an asking sentence's status-quo alternative begins: an `or` (past the second word)
/// followed within three words by a verb of leaving things as they are
/// ([`lexicon::STATUS_QUO`]: `Migrate them to hooks, or leave them as classes?`, `¿… o lo
/// dejamos así?`), or a CJK `or` followed within six characters by such a word
/// ([`lexicon::CJK_STATUS_QUO`]: `…，还是先保留？`). The alternative is the `No` of the
/// question, not what it asks.
fn status_quo_cut(sentence: &str, lang: Lang) -> Option<usize> {
    for or in lexicon::CJK_OR_WORDS.iter() {
        if let Some(at) = sentence.rfind(or).filter(|&at| at > 0) {
            let after: String = sentence[at + or.len()..].chars().take(6).collect();
            if lexicon::CJK_STATUS_QUO.iter().any(|k| after.contains(k)) {
                return Some(at);
            }
        }
    }
    let spans = word_spans(sentence);
    (2..spans.len())
        .find(|&i| {
            is_or(spans[i].1, lang)
                && spans[i + 1..spans.len().min(i + 4)]
                    .iter()
                    .any(|(_, w)| listed(lexicon::STATUS_QUO, &text::fold(w)))
        })
        .map(|i| spans[i].0)
}

/// The whitespace-separated words of a sentence, punctuation trimmed, with where each begins.
fn word_spans(sentence: &str) -> Vec<(usize, &str)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (at, c) in sentence.char_indices().chain([(sentence.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(at),
            (true, Some(from)) => {
                let word = sentence[from..at].trim_matches(|c: char| !c.is_alphanumeric());
                spans.push((from, word));
                start = None;
            }
            _ => {}
        }
    }
    spans
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
    let spans: Vec<(usize, String)> = word_spans(sentence)
        .into_iter()
        .map(|(at, w)| (at, text::fold(w)))
        .collect();
    for i in 2..spans.len() {
        let word = spans[i].1.as_str();
        let cut = if listed(lexicon::SUBORDINATORS, word) {
            Some(spans[i].0)
        } else {
            // An elided word is read by what it elides to (`qu'il`: `qu`).
            let elided = word.split(['\'', '’']).next().unwrap_or(word);
            let pair = |(p, w): &(Str, Str)| p.get() == spans[i - 1].1 && w.get() == elided;
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
        // In a question offering alternatives, `all` / `only` name one of them (`Put it all in
        // one commit, or split it?`), not the scope of the question.
        let read = |s: &Signature| !(group == Group::Scope && s.alternatives);
        // A member both offer as an option (`unit, component or end-to-end?` over the same
        // three options) is listed in the question, not asked about.
        let offered = |s: &Signature, m: &'static str| s.offered.contains(&(group, m));
        let listed_alternative = |m: &'static str| offered(a, m) && offered(b, m);
        let mut ga: Vec<&str> = a
            .members(part, group)
            .filter(|m| Some(*m) != default && read(a) && !listed_alternative(m))
            .collect();
        let mut gb: Vec<&str> = b
            .members(part, group)
            .filter(|m| Some(*m) != default && read(b) && !listed_alternative(m))
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
/// class or not: the vetoes of near copies read them). A word is had as [`found`] says.
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
        let had = found(w, me, other);
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

/// Whether `other` has the word `w` of `me`: the word itself, the last part of a path
/// (`src/billing/invoice.ts` / `invoice.ts`), an acronym spelled out (`ADR` / `architecture
/// decision record`) or the reverse.
fn found(w: &str, me: &Signature, other: &Signature) -> bool {
    other.has(w) || basename_found(w, other) || acronym_found(w, me, other)
}

/// The last part of a path (`src/billing/invoice.ts`: `invoice`, a known extension left out),
/// when it is not the whole word. Never of a scoped package (`@types/express` is not `express`).
fn basename(word: &str) -> Option<&str> {
    if !word.contains('/') || word.starts_with('@') {
        return None;
    }
    let last = word.rsplit('/').find(|p| !p.is_empty())?;
    let last = last.trim_start_matches('.');
    let last = match last.split_once('.') {
        Some((name, ext)) if !name.is_empty() && listed(lexicon::FILE_EXTENSIONS, ext) => name,
        _ => last,
    };
    (last != word && !last.is_empty()).then_some(last)
}

/// Whether `other` has the last part of the path `word` (as written, or read as a word).
fn basename_found(word: &str, other: &Signature) -> bool {
    basename(word).is_some_and(|last| other.has(last) || other.has(&normal_word(last, other.lang)))
}

/// Whether `word` of `me` is a word `me` spells out whose initials `other` writes in capitals
/// (`architecture decision record` / `ADR`), or an acronym `me` writes in capitals that
/// `other` spells out.
fn acronym_found(word: &str, me: &Signature, other: &Signature) -> bool {
    other.capitals.iter().any(|(acronym, _)| {
        spelling(&me.spelled, acronym).any(|window| window.iter().any(|(_, w)| w == word))
    }) || me
        .capitals
        .iter()
        .any(|(acronym, w)| w == word && spelling(&other.spelled, acronym).next().is_some())
}

/// How much of `me`'s subject `other` covers: [`coverage`] over the words of its asking
/// sentence and header that no option of either question names, else over those of its whole
/// text; a question that names nothing but its choices is covered.
fn subject_coverage(me: &Signature, other: &Signature) -> f64 {
    let choice = |w: &str| {
        me.options
            .iter()
            .chain(&other.options)
            .any(|o| listed_sorted(o, w))
    };
    let keep = |words: &[String], info: &[(f64, Option<usize>)]| {
        let (w, i): (Vec<String>, Vec<(f64, Option<usize>)>) = words
            .iter()
            .zip(info)
            .filter(|(w, _)| !choice(w))
            .map(|(w, i)| (w.clone(), *i))
            .unzip();
        (w, i)
    };
    let (words, info) = keep(&me.core, &me.core_info);
    let (words, info) = if words.is_empty() {
        keep(&me.text_words, &me.text_info)
    } else {
        (words, info)
    };
    if words.is_empty() {
        return 1.0;
    }
    coverage(&words, &info, me, other).0
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
            found(w, me, other)
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

/// Two near copies with CJK: each writes a word where the other writes another (`订单模块` /
/// `用户模块`, `README` / `代码注释`). Read on the characters left out of their longest common
/// subsequence, function characters and particles aside, and verbs of a class both name
/// (`运行` / `应用`); a word in another script added on one side is enough (`--force`). Bigram
/// coverage cannot tell this: one character added on one side also leaves a bigram of the
/// other side unmatched.
fn cjk_substituted(a: &Signature, b: &Signature) -> bool {
    // A word the sentence's own punctuation ends (`eslint.config.js，`) is that word.
    let trim = |raw: &[String]| -> Vec<String> {
        raw.iter()
            .map(|w| w.trim_end_matches([',', '.', ';', ':']).to_owned())
            .collect()
    };
    let (ra, rb) = (trim(&a.raw), trim(&b.raw));
    let Some((left_a, left_b)) = left_out(&ra, &rb) else {
        return true;
    };
    let content = |w: &&str, s: &Signature, other: &Signature| {
        let mut chars = w.chars();
        let one = match (chars.next(), chars.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        };
        match one {
            Some(c) if text::is_hiragana(c) => false,
            Some(c) if char_listed(lexicon::HAN_STOP, c) => false,
            Some(c) if text::is_hangul(c) && KO_PARTICLES.contains(c) => false,
            Some(c) if text::is_cjk(c) => !lexicon::CJK_ACTIONS.iter().any(|v| {
                v.contains(c)
                    && s.cjk_text.contains(v)
                    && (other.cjk_all.contains(v) || synonym_named(cjk_synonym_class(v), other))
            }),
            _ => !is_stop(w, s.lang) && !synonym_named(synonym_class(s.lang, w), other),
        }
    };
    // A word added in another script still changes the decision (`npm audit fix --force`).
    let latin = |w: &&str| !w.chars().any(text::is_cjk);
    let (ca, cb) = (
        left_a
            .iter()
            .filter(|w| content(w, a, b))
            .collect::<Vec<_>>(),
        left_b
            .iter()
            .filter(|w| content(w, b, a))
            .collect::<Vec<_>>(),
    );
    // A phrase added on one side narrows what is decided (`CLI ツールのライセンス` /
    // `CLI ツールのドキュメントとロゴ画像のライセンス`): four content characters or more.
    let phrase = |c: &[&&str]| c.iter().map(|w| w.chars().count()).sum::<usize>() >= 4;
    (!ca.is_empty() && !cb.is_empty())
        || ca.iter().chain(&cb).any(|w| latin(w))
        || phrase(&ca)
        || phrase(&cb)
}

/// The words of `first` and of `second` left out of their longest common subsequence; `None`
/// for texts too long to align (`40_000` cells).
fn left_out<'t>(first: &'t [String], second: &'t [String]) -> Option<(Vec<&'t str>, Vec<&'t str>)> {
    let (rows, cols) = (first.len(), second.len());
    if rows * cols > 40_000 {
        return None;
    }
    let mut table = vec![vec![0u16; cols + 1]; rows + 1];
    for row in (0..rows).rev() {
        for col in (0..cols).rev() {
            table[row][col] = if first[row] == second[col] {
                table[row + 1][col + 1] + 1
            } else {
                table[row + 1][col].max(table[row][col + 1])
            };
        }
    }
    let (mut only_first, mut only_second) = (Vec::new(), Vec::new());
    let (mut row, mut col) = (0, 0);
    while row < rows && col < cols {
        if first[row] == second[col] {
            row += 1;
            col += 1;
        } else if table[row + 1][col] >= table[row][col + 1] {
            only_first.push(first[row].as_str());
            row += 1;
        } else {
            only_second.push(second[col].as_str());
            col += 1;
        }
    }
    only_first.extend(first[row..].iter().map(String::as_str));
    only_second.extend(second[col..].iter().map(String::as_str));
    Some((only_first, only_second))
}

/// Korean particles and endings of one syllable: no word of their own.
const KO_PARTICLES: &str = "을를이가은는에의도로와과요까고서게지다니면한할하해했죠";

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
    // Renamed choices (`Create branch` / `New feature branch`, `Timestamp Unix` / `Timestamp
    // (secondes)`): two options of two choice lists share a word that no other option of
    // either list has, and that is not a verb (`Add an index` / `Add it` share only theirs).
    let choices = n >= 2 && m >= 2 && !a.answers && !b.answers;
    let only_in = |w: &String, list: &[Vec<String>], k: usize| {
        listed_sorted(&list[k], w)
            && list
                .iter()
                .enumerate()
                .all(|(l, o)| l == k || !listed_sorted(o, w))
    };
    let distinctive = |i: usize, j: usize| {
        choices
            && small.options[i].iter().any(|w| {
                only_in(w, &big.options, j)
                    && only_in(w, &small.options, i)
                    && !is_any_action(w)
                    && synonym_class(small.lang, w).is_none()
            })
    };
    let count = || {
        (0..n)
            .filter(|&i| {
                (0..m).any(|j| agree(&small.options[i], &big.options[j]) || distinctive(i, j))
            })
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

/// What a question writes of versions.
#[derive(Debug)]
struct Versions {
    /// How many its asking sentence writes (`de MUI v4 a MUI v5`: two, a move from one to the
    /// other).
    asked: usize,
    /// Its text, header or an option writes one, or it names a verb of upgrading.
    named: bool,
}

impl Versions {
    fn of(asking: &str, text_: &str, header: &str, labels: &[String], classes: &[usize]) -> Self {
        let upgrade = synonym_class(Lang::En, &normal_word("upgrade", Lang::En));
        let named = [text_, header]
            .into_iter()
            .chain(labels.iter().map(String::as_str))
            .any(|t| versions_written(t) > 0)
            || upgrade.is_some_and(|c| classes.binary_search(&c).is_ok());
        Versions {
            asked: versions_written(asking),
            named,
        }
    }
}

/// How many versions a text writes (`v4`, `3.4`, `v1.4.0`; no bare number).
fn versions_written(text_: &str) -> usize {
    text_
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| text::is_written_version(&text::digits_as_hash(&text::fold(w))))
        .count()
}

/// `me` asks to move something from one version to another (`¿Migramos el panel de MUI v4 a
/// MUI v5?`), and `other` names no version and no upgrade (`¿Usamos MUI para el panel?`): an
/// upgrade and an adoption are two decisions.
fn moves_version(me: &Signature, other: &Signature) -> bool {
    me.versions.asked >= 2 && !other.versions.named
}

/// Each asks for an action the other never names, nor any verb of its class
/// ([`lexicon::ACTION_SYNONYMS`]).
fn actions_differ(a: &Signature, b: &Signature) -> bool {
    let own = |s: &Signature, other: &Signature| {
        s.acts.iter().any(|w| {
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
        let a = text::without_perfective_prefix(a);
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

/// The contrast-group members a CJK run names. A member inside a longer one written there
/// is not named (`비활성화` names disable, not the `활성화` inside it).
fn cjk_groups(run: &str, toks: &mut Vec<Tok>) {
    let mut found: Vec<(usize, usize, Group, &'static str)> = Vec::new();
    for &(w, g, m) in lexicon::CJK_GROUP_WORDS {
        let w = w.get();
        // One Hangul syllable is a verb's stem only alone (`켤까요` → `켤`): inside a longer
        // stem it is part of another word (`꺼내` takes out, `이끌` leads).
        if w.chars().count() == 1 && w.chars().all(text::is_hangul) && run != w {
            continue;
        }
        for (at, _) in run.match_indices(w) {
            found.push((at, at + w.len(), g, m.get()));
        }
    }
    let inside = |&(s, e, _, _): &(usize, usize, Group, &str)| {
        found
            .iter()
            .any(|&(s2, e2, _, _)| s2 <= s && e <= e2 && e2 - s2 > e - s)
    };
    let mut named: Vec<(Group, &'static str)> = Vec::new();
    for f in found.iter().filter(|f| !inside(f)) {
        if !named.contains(&(f.2, f.3)) {
            named.push((f.2, f.3));
        }
    }
    for group in named {
        toks.push(Tok {
            word: None,
            group: Some(group),
            named: Name::Plain,
            object: false,
        });
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

fn content(word: String, group: Option<(Group, &'static str)>, named: Name) -> Tok {
    Tok {
        word: Some(word),
        group,
        named,
        object: false,
    }
}

/// A word of one letter (or none): only ever part of a phrase (`mettre à jour`, `a mano`). A
/// letter with a number is a name (`H2`, `S3`, read `h#`).
fn one_letter((kind, w, _): &(Kind, String, Name)) -> bool {
    *kind == Kind::Word && w.chars().filter(|c| c.is_alphabetic()).count() <= 1 && !w.contains('#')
}

/// The words of a text to read as tokens (kind, word, written as a name); the parts of its
/// identifiers and camelCase names onto `parts`.
fn words_of(text_: &str, lang: Lang, parts: &mut Vec<String>) -> Vec<(Kind, String, Name)> {
    let mut ws: Vec<(Kind, String, Name)> = Vec::new();
    for piece in text::pieces(text_) {
        let text::Piece {
            kind,
            text: mut word,
            named,
            initial_only,
            code,
            parts: inside,
        } = piece;
        parts.extend(inside);
        // German writes every noun with an initial capital: that makes no name.
        let named = if code {
            Name::Code
        } else if named && !(initial_only && lang == Lang::De) {
            Name::Written
        } else {
            Name::Plain
        };
        if kind == Kind::Word {
            if word.chars().all(char::is_numeric) {
                continue;
            }
            word = text::digits_as_hash(&word);
            if !word.chars().any(char::is_alphabetic) {
                continue;
            }
        }
        ws.push((kind, word, named));
    }
    ws
}

/// The tokens, negation count and raw words of a text.
fn tokens(text_: &str, lang: Lang) -> Tokens {
    let mut out = Tokens::default();
    let mut ws = words_of(text_, lang, &mut out.parts);
    let mut particles: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        if particles.contains(&i) {
            i += 1;
            continue;
        }
        let (kind, ref w, named) = ws[i];
        let w = w.clone();
        let after_det = std::mem::take(&mut out.det);
        match kind {
            Kind::Ident => {
                i += 1;
                out.raw.push(w.clone());
                out.toks.push(content(w, None, Name::Written));
            }
            Kind::Word => {
                let forms = Forms::new(&w);
                if let Some((n, canon)) = phrase_at(&ws, i, &forms) {
                    i += n;
                    if let Some(canon) = canon {
                        out.toks.push(content(
                            text::stem_latin(canon),
                            group_of(canon),
                            Name::Plain,
                        ));
                        out.raw.push(canon.to_owned());
                    }
                    continue;
                }
                if one_letter(&ws[i]) {
                    out.det = lang == Lang::En && w == "a";
                    i += 1;
                    continue;
                }
                if let Some((at, canon)) = separated_phrase(&ws, i, &forms, lang) {
                    particles.push(at);
                    i += 1;
                    if let Some(canon) = canon {
                        out.toks.push(content(
                            text::stem_latin(canon),
                            group_of(canon),
                            Name::Plain,
                        ));
                        out.raw.push(canon.to_owned());
                    }
                    continue;
                }
                i += 1;
                out.det = after_det;
                word_token(&w, named, lang, &mut out);
            }
            Kind::Han | Kind::Katakana | Kind::Hangul | Kind::Hiragana => {
                i += 1;
                if matches!(kind, Kind::Han | Kind::Katakana | Kind::Hangul) {
                    let (rest, found) = cjk_alias(&w);
                    if !found.is_empty() {
                        for canon in found {
                            out.toks
                                .push(content(text::stem_latin(canon), None, Name::Plain));
                            out.raw.push(canon.to_owned());
                        }
                        for (k, part) in rest.into_iter().enumerate() {
                            ws.insert(i + k, (kind, part, Name::Plain));
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
fn word_token(w: &str, named: Name, lang: Lang, out: &mut Tokens) {
    // `with or without`, `or not`, `oder nicht`: the other alternative, not a negation.
    let alternative = out.raw.last().is_some_and(|p| listed(lexicon::OR_WORDS, p));
    let object = std::mem::replace(
        &mut out.det,
        lang == Lang::En && listed(lexicon::DETERMINERS_EN, w),
    );
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
        text::prefix(text::stem_cyrillic(text::without_perfective_prefix(a)), 5).to_owned()
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
                named: Name::Plain,
                object: false,
            });
        }
        return;
    }
    out.toks.push(Tok {
        object,
        ..content(stem, group, named)
    });
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

/// The phrase starting at `ws[i]` (whose forms are `forms`), if any: its length and canonical
/// word. Its first word may be inflected ([`Forms::of`]), and its last one too (`env vars`,
/// `pull requests`).
fn phrase_at(
    ws: &[(Kind, String, Name)],
    i: usize,
    forms: &Forms,
) -> Option<(usize, Option<&'static str>)> {
    let same_stem =
        |p: Str, w: &str| w.is_ascii() && text::stem_latin(w) == text::stem_latin(p.get());
    for n in [3, 2] {
        if i + n > ws.len() || ws[i..i + n].iter().any(|(k, _, _)| *k != Kind::Word) {
            continue;
        }
        for &(words, canon) in lexicon::PHRASES {
            let words = words.strs();
            if words.len() == n
                && forms.of(words[0].get())
                && words[1..]
                    .iter()
                    .zip(&ws[i + 1..i + n])
                    .enumerate()
                    .all(|(k, (p, (_, w, _)))| p.is(w) || (k + 2 == n && same_stem(*p, w)))
            {
                return Some((n, canon.map(Str::get)));
            }
        }
    }
    None
}

/// A word read for the verbs of phrases it may be (read once, tried on every phrase).
struct Forms<'a> {
    word: &'a str,
    /// Its English stem (an ASCII word).
    stem: Option<String>,
    /// The verb it is an irregular form of ([`lexicon::IRREGULAR`]).
    irregular: Option<&'static str>,
}

impl<'a> Forms<'a> {
    fn new(word: &'a str) -> Forms<'a> {
        Forms {
            word,
            stem: word.is_ascii().then(|| text::stem_latin(word)),
            irregular: lookup(lexicon::IRREGULAR, word),
        }
    }

    /// Whether the word is `verb` or an English inflection of it (`turned`, `pulling` for
    /// `turn`, `pull`; `broken` for `break`).
    fn of(&self, verb: &str) -> bool {
        self.word == verb
            || (self.word.len() > verb.len() && self.stem.as_deref() == Some(verb))
            || self.irregular == Some(verb)
    }
}

/// A phrasal verb split by its object (`turn the cache on`, `pull the form out into …`): the
/// index of its particle (at most three words after the verb, at the end of the text or
/// before a function word or `into`) and its canonical word.
fn separated_phrase(
    ws: &[(Kind, String, Name)],
    i: usize,
    forms: &Forms,
    lang: Lang,
) -> Option<(usize, Option<&'static str>)> {
    for &(words, canon) in lexicon::PHRASES {
        let &[verb, particle] = words.strs() else {
            continue;
        };
        let (verb, particle) = (verb.get(), particle.get());
        if !listed(lexicon::PARTICLES, particle) || !forms.of(verb) {
            continue;
        }
        // The words after the verb (a word of one letter is none), past its object.
        let mut after = (i + 1..ws.len()).filter(|&k| !one_letter(&ws[k]));
        after.next();
        for at in after.take(3) {
            let (kind, w, _) = &ws[at];
            if *kind != Kind::Word {
                break;
            }
            if w == particle {
                let ends = (at + 1..ws.len())
                    .find(|&k| !one_letter(&ws[k]))
                    .is_none_or(|k| ws[k].1 == "into" || is_stop(&ws[k].1, lang));
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
                out.toks
                    .push(content(text::stem_latin(canon), None, Name::Plain));
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
        .extend(pairs.into_iter().map(|p| content(p, None, Name::Plain)));
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
    if first == "no" && names_a_choice_of_none(label, toks) {
        return false;
    }
    // An amount (`30 s`, `10 MB`, `3`) is a choice of its own, not a yes or a no.
    if first.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
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

/// Whether a label opening with English `No` names none of something as one of the choices
/// (`No retries`, `No cache`, `No pagination`) rather than refusing (`No`, `No, keep it`, `No
/// thanks`, `No changes`): `No` is followed by a space and a word naming a thing.
fn names_a_choice_of_none(label: &str, toks: &[Tok]) -> bool {
    const REFUSALS: [&str; 8] = [
        "thanks", "thank", "need", "change", "changes", "action", "update", "updates",
    ];
    let Some(rest) = label.trim_start().get(2..) else {
        return false;
    };
    let Some(second) = rest
        .strip_prefix(' ')
        .and_then(|r| r.split_whitespace().next())
    else {
        return false;
    };
    let second = text::fold(second);
    !listed(lexicon::ANSWER_WORDS, &second)
        && !REFUSALS.contains(&second.as_str())
        && !specific(toks).is_empty()
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
    fn a_bundler_and_a_build_tool_are_one_thing_and_no_action() {
        let v = same_decision(
            &Signature::of_labels(
                "Which bundler should the admin SPA use?",
                "Bundler",
                &["Vite (Recommended)", "webpack"],
            ),
            &Signature::of_labels(
                "What build tool do you want for the admin SPA?",
                "Build tool",
                &["webpack", "Vite (Recommended)"],
            ),
        );
        assert!(v.same, "{v:?}");
    }

    #[test]
    fn a_move_between_versions_is_not_adopting_the_thing() {
        let adopt = (
            "Should the mobile app use Expo?",
            &["Yes, Expo (Recommended)", "No"][..],
        );
        let upgrade = (
            "Should we move the mobile app from Expo v49 to Expo v50?",
            &["Yes, now (Recommended)", "Later"][..],
        );
        assert!(!same(adopt, upgrade).same);
        assert!(!same(upgrade, adopt).same);
        let adopt_de = (
            "Nutzen wir Tailwind im Kundenportal?",
            &["Ja (Empfohlen)", "Nein"][..],
        );
        let upgrade_de = (
            "Migrieren wir das Kundenportal von Tailwind 3.4 auf Tailwind 4.0?",
            &["Ja (Empfohlen)", "Nein"][..],
        );
        assert_eq!(same(adopt_de, upgrade_de).reason, Reason::VersionMove);
        // The same upgrade, with one version named or an upgrade verb, is still one decision.
        let bump = (
            "Bump Expo to v50 in the mobile app?",
            &["Yes (Recommended)", "Not yet"][..],
        );
        let v = same(upgrade, bump);
        assert_ne!(v.reason, Reason::VersionMove, "{v:?}");
        let v = same(
            upgrade,
            ("Upgrade Expo in the mobile app?", &["Yes", "No"][..]),
        );
        assert_ne!(v.reason, Reason::VersionMove, "{v:?}");
    }

    #[test]
    fn korean_verbs_of_turning_on_and_off_and_of_importing_and_exporting_are_opposites() {
        let on = (
            "스테이징에서 `dark_mode` 기능을 켤까요?",
            &["켜기 (권장)", "그대로"][..],
        );
        let off = (
            "스테이징에서 `dark_mode` 기능을 끌까요?",
            &["끄기 (권장)", "그대로"][..],
        );
        assert_eq!(same(on, off).reason, Reason::Contrast("enable/disable"));
        let left_on = (
            "스테이징에서 `dark_mode` 기능을 켭니다. 괜찮을까요?",
            &["네", "아니요"][..],
        );
        assert_eq!(
            same(left_on, off).reason,
            Reason::Contrast("enable/disable")
        );
        let export = (
            "주문 내역을 CSV로 내보낼까요?",
            &["네 (권장)", "아니요"][..],
        );
        let import = (
            "주문 내역을 CSV에서 가져올까요?",
            &["네 (권장)", "아니요"][..],
        );
        assert_eq!(
            same(export, import).reason,
            Reason::Contrast("import/export")
        );
        // One syllable is a stem only alone: taking a file out (`꺼내`) turns nothing off.
        let take_out = (
            "스테이징에서 `dark_mode` 설정 파일을 꺼내 둘까요?",
            &["네", "아니요"][..],
        );
        assert_ne!(
            same(on, take_out).reason,
            Reason::Contrast("enable/disable")
        );
    }

    #[test]
    fn growing_a_volume_storing_data_and_logging_runs_are_actions() {
        // An alert's threshold and growing the volume at that level are two decisions.
        let v = same_decision(
            &Signature::of_labels(
                "At what usage should the disk alert on the build hosts trigger?",
                "Disk",
                &["80 % (Recommended)", "90 %"],
            ),
            &Signature::of_labels(
                "Should the build hosts' volumes expand by themselves when the disk fills up?",
                "Disk",
                &["Yes, at 80 % (Recommended)", "No, only alert"],
            ),
        );
        assert_eq!(v.reason, Reason::Actions);
        // Where runs are logged and where data is kept, in Russian's first person plural.
        let v = same_decision(
            &Signature::of_labels(
                "Куда логируем метрики обучения?",
                "Модели",
                &["MLflow (Рекомендуется)", "S3"],
            ),
            &Signature::of_labels(
                "Где храним обучающие выборки?",
                "Модели",
                &["DVC + S3 (Рекомендуется)", "MLflow"],
            ),
        );
        assert_eq!(v.reason, Reason::Actions);
    }

    #[test]
    fn code_spans_name_subjects_and_a_bare_choice_takes_its_subject_from_the_context() {
        // `api` in backticks is a package, not the general acronym; the second question's
        // asking sentence only offers the runners, so its subject is the library before it.
        let v = same_decision(
            &Signature::of_labels(
                "Which test runner for the `api` package?",
                "API tests",
                &["Vitest (Recommended)", "Jest"],
            ),
            &Signature::of_labels(
                "The `ui` component library has no tests yet. Jest or Vitest?",
                "UI tests",
                &["Jest (Recommended)", "Vitest"],
            ),
        );
        assert_eq!(v.reason, Reason::NamedSubjects);
        // The same package asked again, one side with backticks, still matches.
        let v = same_decision(
            &Signature::of_labels(
                "Which test runner for the `api` package?",
                "API tests",
                &["Vitest (Recommended)", "Jest"],
            ),
            &Signature::of_labels(
                "The api package has no tests yet. Jest or Vitest?",
                "API tests",
                &["Jest", "Vitest (Recommended)"],
            ),
        );
        assert!(v.same, "{v:?}");
    }

    #[test]
    fn the_same_choices_for_a_feature_and_a_fix_or_an_app_and_a_library_differ() {
        // Both offer the same branches / the same pinning styles; what they decide it for
        // differs, and a preference on one must not answer the other.
        let v = same_decision(
            &Signature::of_labels(
                "Which branch should the hotfix be based on?",
                "Hotfix base",
                &["main (Recommended)", "develop"],
            ),
            &Signature::of_labels(
                "I'm starting the search feature. Should I branch off develop or main?",
                "Feature base",
                &["develop (Recommended)", "main"],
            ),
        );
        assert_eq!(v.reason, Reason::Contrast("feature/fix"));
        let v = same_decision(
            &Signature::of_labels(
                "How should dependencies of the web app be pinned?",
                "App deps",
                &["Exact versions (Recommended)", "Caret ranges"],
            ),
            &Signature::of_labels(
                "Our published SDK declares dependencies too. Caret ranges or exact versions there?",
                "SDK deps",
                &["Caret ranges (Recommended)", "Exact versions"],
            ),
        );
        assert_eq!(v.reason, Reason::Contrast("application/library"));
        // Naming the kind on one side only is no contrast.
        let v = same(
            (
                "Which branch should the hotfix be based on?",
                &["main", "develop"],
            ),
            ("What should I base the branch on?", &["develop", "main"]),
        );
        assert_ne!(v.reason, Reason::Contrast("feature/fix"));
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
            ("Should I add a LICENSE file?", yes_no),
            (
                "lodash is missing from package.json. Should I add it to the dependencies?",
                yes_no,
            ),
        );
        assert_eq!(v.reason, Reason::NoSubject);
    }

    /// Two yes/no questions about one column: storing it as JSONB, and giving it a GIN index.
    /// The index is named by one only, the other lacks just its verb: different decisions.
    #[test]
    fn a_yes_no_question_naming_a_thing_of_its_own_is_another_decision() {
        let ask = |q: &str, options: &[&str]| {
            let choices: Vec<Choice> = options
                .iter()
                .map(|label| Choice {
                    label: (*label).to_owned(),
                    description: String::new(),
                })
                .collect();
            Signature::new(q, Some("Attribute"), &choices)
        };
        let store = ask(
            "Sollen die Kundenattribute als JSONB-Spalte gespeichert werden?",
            &["Ja, JSONB (Empfohlen)", "Nein, eigene Tabelle"],
        );
        let index = ask(
            "Soll die JSONB-Spalte mit den Kundenattributen einen GIN-Index bekommen?",
            &["Ja, jsonb_path_ops (Empfohlen)", "Nein"],
        );
        let verdict = same_decision(&store, &index);
        assert!(!verdict.same);
        assert_eq!(verdict.reason, Reason::NamedSubjects);
        // Reworded, the storage question still matches itself.
        let again = ask(
            "Werden die Kundenattribute als JSONB-Spalte gespeichert?",
            &["Ja (Empfohlen)", "Nein"],
        );
        assert!(same_decision(&store, &again).same);
    }

    /// An asking sentence with no subject of its own (`Should we use it?`) is about what its
    /// context names, not about whatever its header and options share with another question.
    #[test]
    fn a_subjectless_asking_sentence_is_read_with_its_context() {
        let ask = |q: &str, options: &[&str]| {
            let choices: Vec<Choice> = options
                .iter()
                .map(|label| Choice {
                    label: (*label).to_owned(),
                    description: String::new(),
                })
                .collect();
            Signature::new(q, Some("License"), &choices)
        };
        let license = ask(
            "Which license should the SDK be released under?",
            &["MIT (Recommended)", "Apache License 2.0", "GPL-3.0"],
        );
        let parser = ask(
            "The SDK would pull in a GPL-3.0 licensed parser. Should we use it?",
            &[
                "Find an MIT alternative (Recommended)",
                "Use it",
                "Ask legal",
            ],
        );
        assert!(!same_decision(&license, &parser).same);
        // Reworded, the same decision still matches.
        let again = ask(
            "The SDK would pull in a GPL-3.0 licensed parser. Do you want us to use it?",
            &["Use it", "Find an MIT alternative (Recommended)"],
        );
        let v = same_decision(&parser, &again);
        assert!(v.same, "{}", v.reason);
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
            // French elides the `que` of `pour que` before a vowel: `pour qu'il`
            (
                "Dois-je fixer la version de Node dans .nvmrc ?",
                "Dois-je fixer la version de Node dans .nvmrc pour qu'elle ne change pas ?",
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
    fn a_cjk_phrase_added_on_one_side_narrows_the_decision() {
        let licenses: &[&str] = &["MIT (推奨)", "Apache-2.0", "GPL-3.0"];
        let v = same(
            (
                "公開する CLI ツールのライセンスはどれにしますか？",
                licenses,
            ),
            (
                "公開する CLI ツールのドキュメントとロゴ画像のライセンスはどれにしますか？",
                licenses,
            ),
        );
        assert_eq!(v.reason, Reason::NearCopyDiffers);
        // A particle or a word of one or two characters is a rewording.
        let v = same(
            (
                "公開する CLI ツールのライセンスはどれにしますか？",
                licenses,
            ),
            ("公開する CLI ツールのライセンスはどれにする？", licenses),
        );
        assert!(v.same, "{v:?}");
    }

    #[test]
    fn none_of_a_thing_is_a_choice_not_a_refusal() {
        // `No retries` is one of three retry policies: the lists of a queue library and of a
        // retry policy share no option, so they are two decisions.
        let library = sig(
            "Which background job queue should the Node API use?",
            &["BullMQ (Recommended)", "pg-boss", "AWS SQS"],
        );
        let retries = sig(
            "How should the Node API's background job queue retry failed jobs?",
            &[
                "Exponential backoff (Recommended)",
                "Fixed 30s delay",
                "No retries",
            ],
        );
        assert!(!retries.answers);
        let v = same_decision(&library, &retries);
        assert_eq!(v.reason, Reason::OptionsDisjoint);
        // A refusal still answers.
        for label in ["No", "No, keep it", "No thanks", "No changes", "Not now"] {
            assert!(
                sig("Add a cache?", &["Yes (Recommended)", label]).answers,
                "{label}"
            );
        }
    }

    #[test]
    fn the_asking_sentence_says_whether_it_goes_up_or_down() {
        // The header names the topic (an upgrade); the question asks to roll it back.
        for (a, b) in [
            (
                ("Upgrade the project to Django 5.0 now?", "Upgrade"),
                (
                    "The admin broke after moving to Django 5.0. Roll back to 4.2?",
                    "Upgrade",
                ),
            ),
            (
                ("Обновить проект на Django 5.0 сейчас?", "Обновление"),
                (
                    "После перехода на Django 5.0 упала админка. Откатить проект на 4.2?",
                    "Обновление",
                ),
            ),
        ] {
            let yes_no = Choice::labelled(&["Yes (Recommended)", "No"]);
            let v = same_decision(
                &Signature::new(a.0, Some(a.1), &yes_no),
                &Signature::new(b.0, Some(b.1), &yes_no),
            );
            assert_eq!(v.reason, Reason::Contrast("up/down"), "{}", b.0);
        }
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
        // Without the descriptions they share no option (no word of a label either).
        let v = same(
            (
                "Which naming scheme should the CSS classes follow?",
                &["BEM", "Utility classes"],
            ),
            (
                "How do you want the CSS classes named?",
                &["Tailwind-like atoms", "card__title--active"],
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
    fn a_header_word_the_other_never_writes_is_no_substitution_in_a_near_copy() {
        // The chips differ (`Cleanup` / `Old branch`); the asking sentences name the decision.
        let a = Signature::of_labels(
            "feature/onboarding was merged. Delete the local branch?",
            "Cleanup",
            &["Delete it (Recommended)", "Keep it"],
        );
        let b = Signature::of_labels(
            "fix/typo-footer is merged into main. Should I remove the local copy of that branch?",
            "Old branch",
            &["Keep", "Remove (Recommended)"],
        );
        let v = same_decision(&a, &b);
        assert!(v.same, "{}", v.reason);
        assert!(may_match(&a.key(), &b) && may_match(&b.key(), &a));
        // Over a bare `What should we do with it?` the header is what is asked: rolling a flag
        // out and cleaning it up stay two decisions.
        let rollout = Signature::of_labels(
            "How should we roll out the `new_checkout` flag to users?",
            "Rollout",
            &[
                "Percentage ramp (Recommended)",
                "Staff only",
                "Everyone at once",
            ],
        );
        let cleanup = Signature::of_labels(
            "The `new_checkout` flag has been at 100% for six weeks. What should we do with it?",
            "Flag cleanup",
            &[
                "Remove the flag (Recommended)",
                "Keep it as a kill switch",
                "Leave it",
            ],
        );
        let v = same_decision(&rollout, &cleanup);
        assert!(!v.same, "{}", v.reason);
    }

    #[test]
    fn fixing_correcting_and_repairing_are_one_action_and_removing_is_another() {
        let yes_no: &[&str] = &["Yes", "No"];
        // `исправить` / `починить`: a near copy whose verbs are of one class.
        let v = same(
            ("Тест дат падает в високосные годы. Исправить?", yes_no),
            ("Починить тест дат для високосных годов?", yes_no),
        );
        assert!(v.same, "{}", v.reason);
        let v = same(
            ("The upload test is flaky. Should I fix it?", yes_no),
            ("The upload test is flaky. Should I remove it?", yes_no),
        );
        assert!(!v.same, "{}", v.reason);
    }

    #[test]
    fn a_verb_of_work_after_a_determiner_is_an_object_not_an_action() {
        // `this build` names what is deployed: the other question's `push` is no second action
        // to weigh against a `build` (the deploy is named by both).
        let pushed = Signature::of_labels(
            "All checks passed. Ready to push this version to the staging environment?",
            "Deploy stg",
            &["Not yet", "Yes, deploy (Recommended)"],
        );
        let deployed = Signature::of_labels(
            "Should I deploy this build to staging now?",
            "Staging",
            &["Deploy to staging (Recommended)", "Wait"],
        );
        let v = same_decision(&deployed, &pushed);
        assert!(v.same, "{v:?}");
        // Written as a verb, `build` asks for another step than the deploy.
        let built = Signature::of_labels(
            "Should I build and deploy to staging now?",
            "Staging",
            &["Build and deploy (Recommended)", "Wait"],
        );
        let v = same_decision(&built, &pushed);
        assert!(!v.same, "{v:?}");
        assert_eq!(v.reason, Reason::Actions);
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
    fn amounts_and_units_tell_settings_apart() {
        // An amount asked, and a yes/no about doing something: two decisions.
        for (a, b) in [
            (
                (
                    "How many retries when the billing call fails?",
                    &["3 (Recommended)", "None"][..],
                ),
                (
                    "Add a circuit breaker to the billing calls?",
                    &["Yes, with opossum", "No"][..],
                ),
            ),
            (
                (
                    "¿Cuántos reintentos hacemos si falla facturación?",
                    &["3", "Ninguno"][..],
                ),
                (
                    "¿Añadimos un circuit breaker a facturación?",
                    &["Sí", "No"][..],
                ),
            ),
            (
                (
                    "Сколько повторов делать при ошибке запроса к биллингу?",
                    &["3", "Ни одного"][..],
                ),
                (
                    "Добавить circuit breaker для запросов к биллингу?",
                    &["Да", "Нет"][..],
                ),
            ),
        ] {
            let v = same(a, b);
            assert_eq!(v.reason, Reason::Kind, "{a:?} / {b:?}: {}", v.reason);
        }
        // Amounts counted in different kinds of unit: two settings.
        for (a, b) in [
            (
                (
                    "调用支付网关失败时要重试几次？",
                    &["2 次 (推荐)", "不重试"][..],
                ),
                (
                    "调用支付网关时超时时间设多少？",
                    &["3 秒", "10 秒 (推荐)", "30 秒"][..],
                ),
            ),
            (
                (
                    "What limit for the upload endpoint?",
                    &["10 MB", "50 MB"][..],
                ),
                (
                    "What limit for the upload endpoint?",
                    &["30 s", "120 s"][..],
                ),
            ),
        ] {
            let v = same(a, b);
            assert_eq!(v.reason, Reason::Units, "{a:?} / {b:?}");
        }
    }

    #[test]
    fn clock_times_and_durations_far_apart_are_other_settings() {
        // An hour on the clock and a count of retries (`2 点` / `3 次，间隔 5 分钟`).
        let v = same(
            (
                "sync_orders 这个 DAG 每天几点跑？",
                &["凌晨 2 点", "凌晨 4 点", "早上 8 点"],
            ),
            (
                "sync_orders 这个 DAG 失败了重试几次？",
                &["3 次，间隔 5 分钟", "不重试", "10 次"],
            ),
        );
        assert_eq!(v.reason, Reason::Units);
        // `2時間` is a duration, not two o'clock: it joins `120 分`.
        let v = same(
            (
                "バッチのタイムアウトは何時間にしますか？",
                &["2時間", "4時間"],
            ),
            (
                "バッチのタイムアウトはどのくらいにしますか？",
                &["120 分", "240 分"],
            ),
        );
        assert_ne!(v.reason, Reason::Units, "{}", v.reason);
        // Retention in days and a scrape interval in seconds: a hundredfold apart.
        let v = same(
            (
                "¿Cuánto tiempo retiene las métricas Prometheus?",
                &["15 días", "30 días"],
            ),
            (
                "¿Cada cuánto hace scrape Prometheus de los pods?",
                &["30 s", "15 s", "60 s"],
            ),
        );
        assert_eq!(v.reason, Reason::Units);
        // Events counted and an interval in seconds (`条` counts things).
        let v = same(
            ("埋点 SDK 的批量上报间隔设多少？", &["15 秒", "60 秒"]),
            (
                "埋点 SDK 在本地最多缓存多少条事件？",
                &["500 条", "1000 条"],
            ),
        );
        assert_eq!(v.reason, Reason::Units);
        // Bare numbers under a question naming no unit of time, and durations: jobs at once
        // and a job's longest run.
        let v = same(
            (
                "Wie viele Jobs soll jeder GitLab Runner gleichzeitig ausführen?",
                &["4 (Empfohlen)", "8", "2"],
            ),
            (
                "Wie lange darf ein Job auf den GitLab Runnern höchstens laufen?",
                &["1 Stunde (Empfohlen)", "3 Stunden", "30 Minuten"],
            ),
        );
        assert_eq!(v.reason, Reason::Units);
    }

    #[test]
    fn bare_numbers_under_a_unit_of_time_are_durations() {
        let v = same(
            (
                "How many seconds should the carrier API timeout be?",
                &["30", "60"],
            ),
            (
                "What timeout for the carrier API calls?",
                &["30 s", "1 minute"],
            ),
        );
        assert_ne!(v.reason, Reason::Units, "{}", v.reason);
    }

    #[test]
    fn the_same_amount_reworded_still_joins() {
        // The same amount reworded still joins: a unit in one kind, or yes answers that
        // carry the amount.
        for (a, b) in [
            (
                (
                    "What timeout for the carrier API calls?",
                    &["5 s (Recommended)", "15 s"][..],
                ),
                (
                    "Which timeout for the carrier API calls?",
                    &["3000 ms", "8 seconds"][..],
                ),
            ),
            (
                (
                    "Alert when the emails queue holds too many messages?",
                    &["Yes, at 1000", "No"][..],
                ),
                (
                    "How many queued messages in the emails queue before an alert?",
                    &["500", "5000"][..],
                ),
            ),
        ] {
            let v = same(a, b);
            assert_ne!(v.reason, Reason::Units, "{a:?} / {b:?}");
            assert_ne!(v.reason, Reason::Kind, "{a:?} / {b:?}");
        }
    }

    #[test]
    fn an_api_response_and_a_table_column_are_two_places() {
        // A value of the API response and a column of a table: two places, two types.
        let v = same(
            (
                "API 응답의 시간 필드는 어떤 타입으로 내려줄까요?",
                &["OffsetDateTime", "epoch millis"],
            ),
            (
                "MySQL 테이블의 시간 컬럼은 어떤 타입으로 만들까요?",
                &["DATETIME", "BIGINT epoch"],
            ),
        );
        assert_eq!(v.reason, Reason::Contrast(Group::Layer.name()));
        let v = same(
            (
                "Which type should the created_at column of the orders table have?",
                &["timestamptz", "bigint"],
            ),
            (
                "What type for the orders table's created_at column?",
                &["bigint", "timestamptz"],
            ),
        );
        assert!(v.same, "{}", v.reason);
    }

    #[test]
    fn empty_questions_match_nothing() {
        let a = sig("Should I?", &["Yes", "No"]);
        assert!(a.is_empty());
        assert!(!same_decision(&a, &sig("Should I?", &["Yes", "No"])).same);
    }

    /// Each pair: the same decision; then its near miss, a different decision.
    type Asked<'a> = (&'a str, &'a [&'a str]);

    fn same_then_different(pairs: &[(Asked, Asked, Asked)]) {
        for (a, b, other) in pairs {
            let v = same(*a, *b);
            assert!(v.same, "{a:?} / {b:?}: {}", v.reason);
            let v = same(*a, *other);
            assert!(!v.same, "{a:?} / {other:?}: {}", v.reason);
        }
    }

    #[test]
    fn identifiers_are_read_with_their_parts() {
        let yes_no: &[&str] = &["Yes", "No"];
        same_then_different(&[
            // a path's last part, and its words (`payments`)
            (
                (
                    "Should I add retry logic to src/payments/gateway.ts?",
                    yes_no,
                ),
                ("Add retries to the payments gateway?", yes_no),
                ("Add retries to the shipping gateway?", yes_no),
            ),
            // a word of a constant's name
            (
                (
                    "Should the webhook handler verify the Stripe signature?",
                    yes_no,
                ),
                (
                    "Verify the signature with STRIPE_WEBHOOK_SECRET in the webhook handler?",
                    yes_no,
                ),
                (
                    "Verify the signature with GITHUB_WEBHOOK_SECRET in the webhook handler?",
                    yes_no,
                ),
            ),
            // a flag's word
            (
                (
                    "Should I put this fix into the last commit with --amend?",
                    yes_no,
                ),
                ("Amend the last commit with this fix?", yes_no),
                ("Revert the last commit?", yes_no),
            ),
        ]);
        // A part is found by the other question, never asked of it; a camelCase name has
        // parts too, a scoped package none.
        let s = sig("Should I raise maximumPoolSize for @types/express?", yes_no);
        for part in ["maximum", "pool", "size"] {
            assert!(
                s.has(part) && !s.core.iter().any(|w| w == part),
                "{part}: {s:?}"
            );
        }
        assert!(!s.has("express") && !s.has("type"), "{s:?}");
        let v = same(
            (
                "Should I install @types/express as a dev dependency?",
                yes_no,
            ),
            ("Should I install express as a dev dependency?", yes_no),
        );
        assert!(!v.same, "{}", v.reason);
        // A general acronym is no name, read as its word (`DB`, `database`).
        assert!(sig("Where should the DB password be stored?", yes_no)
            .named
            .is_empty());
    }

    #[test]
    fn renamed_options_match_by_a_word_only_they_share() {
        same_then_different(&[(
            (
                "Where should I commit these changes?",
                &["Create branch (Recommended)", "Commit to main"],
            ),
            (
                "Where should I commit these changes?",
                &["New feature branch", "Straight to main"],
            ),
            // `timestamp` is in both options of one list: it tells none apart.
            (
                "Where should I commit these changes?",
                &["Feature branch off main", "Release branch off main"],
            ),
        )]);
        // A verb shared by two options is no choice shared (`Add an index` / `Add it`).
        let v = same(
            (
                "Which index should the orders table get?",
                &["Add an index on user_id", "Skip"],
            ),
            (
                "The orders query is slow. What now?",
                &["Add a cache", "Leave it"],
            ),
        );
        assert!(!v.same, "{}", v.reason);
        // Options of one word each, none shared: still disjoint.
        let v = same(
            (
                "Which format should the API use for dates?",
                &["Unix timestamp", "ISO 8601 string"],
            ),
            (
                "Which format should the API use for dates?",
                &["Timestamp in seconds", "Timestamp in milliseconds"],
            ),
        );
        assert_eq!(v.reason, Reason::OptionsDisjoint);
    }

    #[test]
    fn scope_words_name_an_alternative_in_a_question_offering_them() {
        same_then_different(&[(
            (
                "Should I put it all in one commit, or split it by feature?",
                &["One commit", "Split by feature"],
            ),
            (
                "One commit or several commits for these changes?",
                &["Single commit", "Split by feature"],
            ),
            (
                "Should I squash only the fixup commits?",
                &["Single commit", "Split by feature"],
            ),
        )]);
        // A question without alternatives keeps its scope, and a question with them does not
        // lend it to the other.
        for (a, b) in [
            (
                "Should I format all files?",
                "Should I format only the changed files?",
            ),
            (
                "Should I format all files or only the changed ones?",
                "Should I format only the changed files?",
            ),
        ] {
            let v = same((a, &["Yes", "No"]), (b, &["Yes", "No"]));
            assert_eq!(v.reason, Reason::Contrast("scope"), "{a} / {b}");
        }
        // `où` (where) and the Portuguese article `o` offer nothing.
        assert!(!sig("Où mettre tous les tests ?", &["Oui", "Non"]).alternatives);
        assert!(!sig("Devo formatar todo o projeto?", &["Sim", "Não"]).alternatives);
        assert!(
            sig(
                "¿Formateo todo el proyecto o solo este archivo?",
                &["Sí", "No"]
            )
            .alternatives
        );
    }

    #[test]
    fn nouns_and_phrases_read_in_their_forms() {
        let yes_no: &[&str] = &["Yes", "No"];
        let oui: &[&str] = &["Oui", "Non"];
        same_then_different(&[
            (
                ("Should the release step run manually?", yes_no),
                ("Run the release step by hand?", yes_no),
                ("Should the release step run automatically?", yes_no),
            ),
            // a phrase's last word inflected (`env vars`, `environment variables`)
            (
                ("Should I move the API keys into env vars?", yes_no),
                ("Move the API keys into environment variables?", yes_no),
                ("Move the API keys into the secrets manager?", yes_no),
            ),
            // an irregular form of a phrase's verb (`broken up` is `break up`, split)
            (
                ("Should the monolith be broken up into services?", yes_no),
                ("Should I break up the monolith into services?", yes_no),
                ("Should I merge the services into the monolith?", yes_no),
            ),
            // `mettre à jour`, its `à` kept for the phrase
            (
                ("Dois-je mettre à jour les dépendances ?", oui),
                ("Veux-tu que je mette à jour les dépendances ?", oui),
                ("Veux-tu que je supprime les dépendances ?", oui),
            ),
        ]);
    }

    #[test]
    fn one_side_naming_public_is_no_other_visibility() {
        let yes_no: &[&str] = &["Yes", "No"];
        same_then_different(&[(
            ("Should the public API of the SDK be versioned?", yes_no),
            ("Version the SDK API?", yes_no),
            ("Version the private SDK API?", yes_no),
        )]);
    }

    #[test]
    fn a_german_noun_is_no_name() {
        let ja: &[&str] = &["Ja", "Nein"];
        same_then_different(&[(
            ("Soll die Größe des Connection-Pools erhöht werden?", ja),
            ("Soll ich den Pool für die Verbindungen größer machen?", ja),
            ("Soll ich den Pool für die Verbindungen kleiner machen?", ja),
        )]);
        // A brand written with one capital is no name in German any more: the near copy
        // still tells two of them apart.
        let v = same(
            (
                "Soll ich den Schlüssel für Stripe in die Datei .env schreiben?",
                ja,
            ),
            (
                "Soll ich den Schlüssel für Paddle in die Datei .env schreiben?",
                ja,
            ),
        );
        assert_eq!(v.reason, Reason::NearCopyDiffers);
        // Capitals inside the word still make one.
        assert!(!sig("Soll ich PostgreSQL für die Tests nutzen?", ja)
            .named
            .is_empty());
    }

    #[test]
    fn a_status_quo_alternative_is_context() {
        let yes_no: &[&str] = &["Yes", "No"];
        let si: &[&str] = &["Sí", "No"];
        same_then_different(&[
            (
                (
                    "Should I add tests for the parser now, or leave it for later?",
                    yes_no,
                ),
                ("Add tests for the parser?", yes_no),
                ("Add tests for the lexer?", yes_no),
            ),
            (
                ("¿Escribo tests para el parser o lo dejamos así?", si),
                ("¿Quieres que escriba tests para el parser?", si),
                ("¿Quieres que escriba tests para el lexer?", si),
            ),
            (
                (
                    "要把旧的 .eslintrc 配置迁移到 eslint.config.js，还是先保留？",
                    &["迁移", "保留"],
                ),
                (
                    "要把 .eslintrc 配置迁移到 eslint.config.js 吗？",
                    &["是", "否"],
                ),
                ("要删除旧的 .eslintrc 配置吗？", &["是", "否"]),
            ),
        ]);
        // The alternative still names its contrasts, and another alternative is no status quo.
        let v = same(
            ("Enable the response cache, or leave it disabled?", yes_no),
            ("Disable the response cache?", yes_no),
        );
        assert!(!v.same, "{}", v.reason);
        let v = same(
            (
                "Should I copy the config file or move it?",
                &["Copy", "Move"],
            ),
            ("Should I copy the config file?", yes_no),
        );
        assert!(!v.same, "{}", v.reason);
        // The near-copy veto reads the words where they were written.
        let s = sig("Should I add tests now, or leave it for later?", yes_no);
        assert_eq!(
            s.raw,
            ["should", "add", "tests", "now", "or", "leave", "it", "for", "later"]
        );
        assert_eq!(s.core, ["add", "test"]);
    }

    #[test]
    fn acronyms_spelled_out_and_replacing_verbs_match() {
        let yes_no: &[&str] = &["Yes", "No"];
        let spelled = (
            "Should the queue choice get an architecture decision record?",
            yes_no,
        );
        let v = same(
            ("Should I write an ADR for the queue choice?", yes_no),
            spelled,
        );
        assert!(v.same, "{}", v.reason);
        // Not written in capitals: no acronym.
        let v = same(
            ("Should I write an adr for the queue choice?", yes_no),
            spelled,
        );
        assert!(!v.same, "{}", v.reason);
        same_then_different(&[
            (
                ("Swap moment for date-fns?", yes_no),
                ("Should I replace moment with date-fns?", yes_no),
                ("Should I remove moment?", yes_no),
            ),
            (
                ("Uninstall lodash from the project?", yes_no),
                ("Should I remove lodash?", yes_no),
                ("Should I upgrade lodash?", yes_no),
            ),
        ]);
    }

    #[test]
    fn a_name_in_the_other_description_of_my_option_is_no_other_subject() {
        let a = described(
            "Should the controller tests use @WebMvcTest or @SpringBootTest?",
            &[
                ("@WebMvcTest", "A slice test"),
                ("@SpringBootTest", "The full context"),
            ],
        );
        let b = |slice: &str, full: &str| {
            described(
                "How much of the Spring context do you want loaded for MemberController's tests?",
                &[("Slice test", slice), ("Full context", full)],
            )
        };
        let v = same_decision(&a, &b("@WebMvcTest", "@SpringBootTest"));
        assert_ne!(v.reason, Reason::NamedSubjects);
        // A description naming another subject, or mine that is no option of mine, does not.
        let v = same_decision(&a, &b("Like @DataJpaTest", "Like @SpringBootTest"));
        assert_eq!(v.reason, Reason::NamedSubjects);
    }

    #[test]
    fn answers_and_function_words() {
        // `Ne pas …` and Korean `네` answer; `네트워크` (network) names a choice.
        assert!(sig("Activer HSTS ?", &["Activer", "Ne pas activer"]).answers);
        assert!(sig("배포할까요?", &["네", "아니요"]).yes_no);
        assert!(!sig("어떤 설정?", &["네트워크 정책", "스토리지"]).answers);
        // `per`, `over`, `vs` ask nothing.
        let s = sig(
            "Why pick REST over gRPC, one file per resource vs one?",
            &[],
        );
        for w in ["per", "over", "vs", "why"] {
            assert!(!s.core.iter().any(|c| c == w), "{w}: {:?}", s.core);
        }
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

    /// Pairs written as different decisions that the matcher joins on purpose: `fb3-071` asks
    /// the same recurring question of two releases (`release notes for 2.4.0` / `2.5.0`, from
    /// the merged PRs or the commit log). Numbers are folded away (issue 13), and a preference
    /// for one release is meant for the next (`docs/families.md`).
    pub(crate) const DISPUTED: [&str; 1] = ["fb3-071"];

    /// Different decisions still joined: open defects (see `OPEN_COLLISIONS` in
    /// `tests/corpus/families.rs`), listed so that any other collision fails.
    const OPEN_COLLISIONS: [&str; 2] = ["fb8-037", "fb9-104"];

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
        let mut still_open: Vec<&str> = OPEN_COLLISIONS.to_vec();
        // The floors fell at stop 29, when matching options stopped carrying a pair whose
        // subjects differ (`families-adversarial.jsonl`; `docs/families.md`, "The thirteenth
        // pass"): a missed match is preferred to a wrong one.
        for (file, floor) in [
            // 102 of 151: the subject veto ([`Reason::NoSubject`]) costs two pairs of a verb
            // and a pronoun (`Add it?`) and keeps short questions from joining another
            // decision's family in the log (clustered 95 → 99); reading the context of an
            // asking sentence with no subject (`Merge them?`) costs four more (stop 40).
            ("families.jsonl", 0.67),
            // 66 of 110 (47 when it was measured blind).
            ("families-blind.jsonl", 0.60),
            // 41 of 110 (53 when it was measured blind, with 5 collisions then).
            ("families-blind2.jsonl", 0.37),
            // 58 of 110 (57 when it was measured blind, with 2 collisions then).
            ("families-blind3.jsonl", 0.52),
            // 56 of 110 (60 when it was measured blind, with 5 collisions then; the last,
            // `fb4-013`, fixed at stop 40).
            ("families-blind4.jsonl", 0.50),
            // 43 of 110 (49 when it was measured blind, with 2 collisions then).
            ("families-blind5.jsonl", 0.39),
            // 53 of 110 (58 when it was measured blind, with 9 collisions then; 2 remain).
            ("families-blind6.jsonl", 0.48),
            // 43 of 110 (47 when it was measured blind, with 5 collisions then; 2 remain).
            ("families-blind7.jsonl", 0.38),
            // 32 of 110 (40 when it was measured blind, with 3 collisions then; 1 remains).
            ("families-blind8.jsonl", 0.29),
            // 59 of 110 (70 when it was measured blind, with 1 collision, which remains).
            ("families-blind9.jsonl", 0.53),
            ("families-extra.jsonl", 0.84),
            ("families-more.jsonl", 0.56),
            ("families-adversarial.jsonl", 0.0),
        ] {
            let (same, matched, mut collided) = measure(file);
            still_open.retain(|id| !collided.iter().any(|c| c == id));
            collided.retain(|id| {
                !DISPUTED.contains(&id.as_str()) && !OPEN_COLLISIONS.contains(&id.as_str())
            });
            assert!(
                collided.is_empty(),
                "{file}: different decisions match: {collided:?}"
            );
            let rate = matched as f64 / same.max(1) as f64;
            assert!(
                rate >= floor,
                "{file}: {matched} of {same} ({rate:.2}) < {floor}"
            );
        }
        // A collision fixed must leave the list, so the list says what is open.
        assert!(
            still_open.is_empty(),
            "no longer collide, remove from OPEN_COLLISIONS: {still_open:?}"
        );
    }

    #[test]
    fn every_mechanical_rewording_matches() {
        let (same, matched, _) = measure("families-mechanical.jsonl");
        assert_eq!(matched, same);
    }
}
