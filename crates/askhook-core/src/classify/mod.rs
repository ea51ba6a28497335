//! The one-way-door classifier: is a question destructive or hard to undo (one-way), safely
//! reversible (two-way), or beyond what the classifier can read (unknown)?
//!
//! Only two-way questions may ever be auto-decided, so the classifier fails towards the human:
//! a question is two-way only when it is written in a language the lexicons cover and no field
//! of it (question, header, any option label or description) carries one-way evidence. A
//! question is one-way if any of its options is.
//!
//! ## How it works
//! 1. [`text`] cuts each field into tokens (words, flags, paths, CJK segments) and clauses.
//! 2. [`lexicon`] finds the lexicons' terms; each names a concept (`delete`, `database`,
//!    `production`, `negation` …) of a kind (action, object, place, effect, qualifier).
//! 3. [`lang`] tells each field's language; text it has no lexicon for makes the verdict unknown.
//! 4. [`engine`] weighs each action against what it touches and where, inside its clause, with
//!    negations, previews and talk about code set aside; effects (`0.0.0.0/0`, "anyone with the
//!    link", "irreversible") count alone.
//! 5. A question that reads two-way is read once more respelled (`dr0p`, `d r o p`).
//!
//! The lexicons and rules are data (`data/doors/*.txt`, documented in `data/doors/README.md`),
//! compiled into static tables by `build.rs`; each lexicon line can carry its own examples,
//! which the tests run.
//!
//! ## Performance
//! No start-up work: every table is static. A typical question (a few hundred bytes) costs a
//! few tens of microseconds; text over [`MAX_TEXT_BYTES`] is not read at all (unknown).

pub mod engine;
pub mod fold;
pub mod lang;
pub mod lexicon;
mod respell;
mod t2s;
#[cfg(test)]
mod tests;
pub mod text;

use serde::{Deserialize, Serialize};

use lang::{Lang, Votes};

/// Whether a decision can be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Door {
    /// Destructive or hard to undo: always reaches the human.
    OneWay,
    /// Reversible: may be auto-decided.
    TwoWay,
    /// The classifier could not read the question (a language it has no lexicon for, too
    /// long, mostly code). Never auto-decided: the policy treats it like a one-way door.
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

/// Which part of a question a field is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "part", content = "option")]
pub enum Role {
    Question,
    Header,
    Label(u8),
    Description(u8),
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Role::Question => f.write_str("question"),
            Role::Header => f.write_str("header"),
            Role::Label(i) => write!(f, "option {} label", u16::from(*i) + 1),
            Role::Description(i) => write!(f, "option {} description", u16::from(*i) + 1),
        }
    }
}

/// The text of one question, as the agent wrote it.
#[derive(Debug, Clone, Copy, Default)]
pub struct QuestionText<'a> {
    pub question: &'a str,
    pub header: &'a str,
    /// `(label, description)` of each option.
    pub options: &'a [(&'a str, &'a str)],
}

/// One piece of evidence: a rule that fired (or was set aside) on some words of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub door: Door,
    /// `delete:database`, `force-push`, `unknown-language:pl` …
    pub rule: String,
    /// Index of the field in [`Verdict::fields`].
    pub field: u16,
    /// Byte range of the words in that field's text.
    pub start: u32,
    pub end: u32,
    /// The lexicon the words came from.
    pub lang: &'static str,
    /// `file:line` of the lexicon term.
    pub source: &'static str,
}

/// The classifier's verdict, with why.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub door: Door,
    /// The deciding rule (the first evidence), `None` for two-way.
    pub rule: Option<String>,
    /// The question's language (`en`, `ja`, `it` …, `-` when unclear).
    pub language: &'static str,
    /// Each field's role and language, in the order fields were read.
    pub fields: Vec<(Role, &'static str)>,
    /// Evidence for the verdict: one-way and unknown findings.
    pub evidence: Vec<Evidence>,
    /// What was found and set aside: negated, previewed, harmless objects.
    pub cleared: Vec<Evidence>,
}

/// The rule of a question too long to read.
pub const TOO_LONG: &str = "too-long-to-classify";

/// The most text read. A longer question is unknown: a person should read it, and padding
/// cannot hide a destructive phrase past what the classifier has time to read.
pub const MAX_TEXT_BYTES: usize = 4 * 1024;
/// The most fenced code a question may carry before it counts as code to read.
pub const MAX_FENCED_CODE_CHARS: u32 = 400;

/// Classify one question.
pub fn classify(q: &QuestionText) -> Verdict {
    let mut fields: Vec<(Role, &str)> =
        vec![(Role::Question, q.question), (Role::Header, q.header)];
    for (i, (label, description)) in q.options.iter().enumerate() {
        let i = i.min(250) as u8;
        fields.push((Role::Label(i), label));
        fields.push((Role::Description(i), description));
    }
    let verdict = classify_fields(&fields);
    if verdict.door != Door::TwoWay {
        return verdict;
    }
    // Written to slip past: `dr0p`, `w1pe`, `d r o p`, `d.e.l.e.t.e`. Read it once more respelled.
    for respelled in respell::variants(&fields) {
        let fields: Vec<(Role, &str)> = respelled.iter().map(|(r, t)| (*r, t.as_str())).collect();
        let mut again = classify_fields(&fields);
        if again.door == Door::OneWay {
            for e in &mut again.evidence {
                e.rule.push_str(" (respelled)");
                e.start = 0;
                e.end = 0;
            }
            again.rule = again.evidence.first().map(|e| e.rule.clone());
            return again;
        }
    }
    verdict
}

fn classify_fields(fields: &[(Role, &str)]) -> Verdict {
    let total: usize = fields.iter().map(|(_, t)| t.len()).sum();
    let roles: Vec<Role> = fields.iter().map(|(r, _)| *r).collect();
    if total > MAX_TEXT_BYTES {
        return unknown(&roles, TOO_LONG, Lang::Unclear);
    }
    let (mut tokens, hits, letters) = read(fields);
    let (all, field_langs, unreadable, question) = languages(&tokens, &hits, &letters, &roles);
    let language = all.decide();
    let hits = own_language_qualifiers(hits, &tokens, &field_langs, language);
    // Stopwords only told the language; the engine weighs the rest.
    let hits: Vec<lexicon::Hit> = hits
        .into_iter()
        .filter(|h| h.kind() != lexicon::Kind::Stopword)
        .collect();
    let hits = drop_interface_labels(hits, &tokens);
    let hits = drop_test_snapshots(hits);
    clauses(&mut tokens, &hits);
    let fenced: u32 = letters.iter().map(|l| l.fenced_code).sum();

    let spanish = field_langs
        .iter()
        .map(|&l| l == "es" || l == "-" && language.code() == "es")
        .collect();
    let ctx = engine::Ctx::new(&tokens, &hits, &roles, spanish);
    let (mut evidence, cleared) = engine::evaluate(&ctx);
    if let Some(lang) = unreadable {
        evidence.push(reason(&format!("unknown-language:{}", lang.code())));
    } else if fenced > MAX_FENCED_CODE_CHARS {
        evidence.push(reason("code-block"));
    } else if all.words >= 6
        && all.known * 5 < all.words
        && !question.readable()
        && !matches!(language, Lang::Covered("zh" | "ja" | "ko"))
        && !asked_in_cjk(&roles, &field_langs)
    {
        // Labels and descriptions are often bare nouns (`Dark`, `Light background.`); the
        // question is the sentence, so it alone can show that the text is readable. Only
        // Latin and Cyrillic words are counted: in Chinese, Japanese or Korean text the
        // lexicon reads the CJK, and Latin words are names (`axios`, `fetch`).
        evidence.push(reason("unreadable"));
    } else if evidence.is_empty()
        && (language.code() != "en" || header_names_danger(&hits, &tokens, &roles))
        && names_danger_without_action(&hits, &tokens, &roles)
    {
        // Outside English the lexicons know fewer verbs: a question that names something
        // dangerous (production, customers, money) and no action the lexicon knows may be
        // asking to do something to it in words it cannot read. In English too when the
        // header names it (`[Play Store] Version 3.8.0 is signed. Go ahead?`): the header says
        // what the go-ahead is for.
        evidence.push(reason("danger-without-a-known-action"));
    } else if evidence.is_empty() && defers_to_agreement(&hits, &tokens, &roles) {
        evidence.push(reason(DEFERS_TO_AGREEMENT));
    }
    let door = if evidence.iter().any(|e| e.door == Door::OneWay) {
        Door::OneWay
    } else if evidence.is_empty() {
        Door::TwoWay
    } else {
        Door::Unknown
    };
    let rule = evidence
        .iter()
        .find(|e| e.door == door)
        .map(|e| e.rule.clone());
    Verdict {
        door,
        rule,
        language: language.code(),
        fields: roles.iter().copied().zip(field_langs).collect(),
        evidence,
        cleared,
    }
}

/// Every field's tokens, the lexicon terms found in them, and its letters.
fn read(fields: &[(Role, &str)]) -> (Vec<text::Token>, Vec<lexicon::Hit>, Vec<text::Letters>) {
    let mut tokens = Vec::new();
    let mut letters = Vec::new();
    for (i, (_, text)) in fields.iter().enumerate() {
        let mut l = text::Letters::default();
        text::tokenize(
            text,
            u16::try_from(i).unwrap_or(u16::MAX),
            &mut tokens,
            &mut l,
        );
        letters.push(l);
    }
    let hits = lexicon::find_hits(&tokens);
    (tokens, hits, letters)
}

/// Number the clauses: at punctuation, and at each `then`-like word.
fn clauses(tokens: &mut [text::Token], hits: &[lexicon::Hit]) {
    use lexicon::{Kind, Qualifier};
    let mut breaks = vec![text::Break::None; tokens.len()];
    let mut actions = vec![false; tokens.len()];
    let mut places = vec![false; tokens.len()];
    for h in hits {
        let i = h.start as usize;
        match h.kind() {
            Kind::Qualifier(Qualifier::Break) => breaks[i] = text::Break::Hard,
            Kind::Qualifier(Qualifier::Join) if breaks[i] == text::Break::None => {
                breaks[i] = text::Break::Join;
            }
            Kind::Qualifier(Qualifier::Container | Qualifier::Source | Qualifier::Destination) => {
                places[i] = true;
            }
            Kind::Action(_) => actions[i] = true,
            _ => {}
        }
    }
    // `… from the keyserver and from the file`: a second place of its own is a new clause.
    for h in hits {
        if h.kind() == Kind::Qualifier(Qualifier::Join)
            && places.get(h.end as usize + 1) == Some(&true)
        {
            breaks[h.start as usize] = text::Break::Hard;
        }
    }
    text::assign_clauses(tokens, &breaks, &actions);
}

/// A question about snapshot tests (`the snapshot tests fail`, `jest -u`) means those by a
/// bare `snapshots` too (`Drop the snapshots and assert the headers`): test files, not backups.
/// Unless it also names backups, storage or a dangerous place, where a snapshot may be a copy.
fn drop_test_snapshots(hits: Vec<lexicon::Hit>) -> Vec<lexicon::Hit> {
    use lexicon::{concept, Kind, Weight};
    let named = |name: &str| hits.iter().any(|h| concept(h.concept).name == name);
    let copies_nearby = named("backup")
        || named("storage")
        || hits
            .iter()
            .any(|h| matches!(h.kind(), Kind::Place(w) if w >= Weight::Danger));
    if !named("test-snapshot") || copies_nearby {
        return hits;
    }
    hits.into_iter()
        .filter(|h| concept(h.concept).name != "snapshot")
        .collect()
}

/// The text of an interface element is a label, not what the question does: `Pour « Supprimer
/// mon compte », modale ou page ?`, `the “Delete account” button`. The action, object and place
/// words inside a short quotation that stands next to an `interface` word (button, modal,
/// dialog: at most two words away, no other action between) are dropped. Effects inside stay
/// (“anyone with the link” is a setting, wherever it is written), and nothing is dropped in a
/// question that names a dangerous place (`… in production`), nor in a field that says to press
/// something (`click`, `appuyer`): the label is then what someone is about to do.
///
/// So with a `naming` word (`called`, `titled`, `tagged`, `says`): `a tab called 'DELETE – old
/// codes'`, `an email that says 'your store will be deleted'` name a thing or quote words. Unless
/// the field runs, deploys or follows something (`Run the workflow called 'wipe-db'?`): what is
/// run is what the name says.
fn drop_interface_labels(hits: Vec<lexicon::Hit>, tokens: &[text::Token]) -> Vec<lexicon::Hit> {
    use lexicon::{concept, Kind, Weight};
    let danger_place = hits
        .iter()
        .any(|h| matches!(h.kind(), Kind::Place(w) if w >= Weight::Danger));
    let pressed = |field: u16| {
        hits.iter()
            .any(|h| concept(h.concept).name == "press" && tokens[h.start as usize].field == field)
    };
    // Something is run, deployed or followed in the field: a name there says what it does.
    let runs = |field: u16| {
        hits.iter().any(|h| {
            tokens[h.start as usize].field == field
                && tokens[h.start as usize].quote == 0
                && matches!(
                    concept(h.concept).name,
                    "execute" | "deploy" | "rollback" | "run-migration" | "kill" | "perform"
                )
        })
    };
    let quoted = |h: &lexicon::Hit| {
        let q = tokens[h.start as usize].quote;
        (q != 0
            && tokens[h.start as usize..=h.end as usize]
                .iter()
                .all(|t| t.quote == q && t.field == tokens[h.start as usize].field))
        .then_some((tokens[h.start as usize].field, q))
    };
    let is_label = |(field, q): (u16, u16)| {
        let inside = |t: &text::Token| t.field == field && t.quote == q;
        if pressed(field) {
            return false;
        }
        let (Some(first), Some(last)) = (
            tokens.iter().position(inside),
            tokens.iter().rposition(inside),
        ) else {
            return false;
        };
        hits.iter().any(|ui| {
            let ui_concept = concept(ui.concept).name;
            if !(ui_concept == "interface" || ui_concept == "naming" && !runs(field))
                || quoted(ui) == Some((field, q))
            {
                return false;
            }
            let (ui_start, ui_end) = (ui.start as usize, ui.end as usize);
            // The words between, and the one after them.
            let (between, next) = if ui_start > last && ui_start <= last + 3 {
                (last + 1..ui_start, ui_start)
            } else if ui_end < first && ui_end + 3 >= first {
                (ui_end + 1..first, first)
            } else {
                return false;
            };
            tokens[between.clone()]
                .iter()
                .chain(std::iter::once(&tokens[next]))
                .all(|t| t.field == field)
                && !hits.iter().any(|a| {
                    matches!(a.kind(), Kind::Action(_)) && between.contains(&(a.start as usize))
                })
        })
    };
    if danger_place {
        return hits;
    }
    let drop: Vec<bool> = hits
        .iter()
        .map(|h| {
            matches!(h.kind(), Kind::Action(_) | Kind::Object(_) | Kind::Place(_))
                && !matches!(concept(h.concept).name, "interface" | "naming")
                && quoted(h).is_some_and(is_label)
        })
        .collect();
    hits.into_iter()
        .zip(drop)
        .filter_map(|(h, d)| (!d).then_some(h))
        .collect()
}

/// Function words mean something in their own language only: English `was` is the past,
/// German `was` is "what". A qualifier from another language's lexicon is dropped where the
/// field's own language (or the question's, for a field too short to tell) has a word of its
/// own for the same token; loanwords (`soft delete` in a Spanish question) still count, and
/// `tech` terms apply everywhere.
fn own_language_qualifiers(
    hits: Vec<lexicon::Hit>,
    tokens: &[text::Token],
    field_langs: &[&'static str],
    question: Lang,
) -> Vec<lexicon::Hit> {
    let lang_of = |h: &lexicon::Hit| lexicon::LEXICON_LANGS[h.term().lang as usize];
    let field_lang = |h: &lexicon::Hit| {
        let field = usize::from(tokens[h.start as usize].field);
        match field_langs.get(field).copied() {
            Some(code) if lexicon::LEXICON_LANGS.contains(&code) => code,
            _ => question.code(),
        }
    };
    let same = |a: &str, b: &str| a == b || matches!((a, b), ("zh" | "ja", "zh" | "ja"));
    // Which lexicons have a word at each token (one bit per lexicon language).
    let mut langs_at = vec![0u64; tokens.len()];
    for h in &hits {
        langs_at[h.start as usize] |= 1 << h.term().lang;
    }
    let has_own_word = |h: &lexicon::Hit, lang: &str| {
        let bits = langs_at[h.start as usize];
        lexicon::LEXICON_LANGS
            .iter()
            .enumerate()
            .any(|(i, l)| bits & (1 << i) != 0 && same(l, lang))
    };
    let keep: Vec<bool> = hits
        .iter()
        .map(|h| {
            let (term_lang, lang) = (lang_of(h), field_lang(h));
            !matches!(h.kind(), lexicon::Kind::Qualifier(_))
                || term_lang == "tech"
                || same(term_lang, lang)
                || !has_own_word(h, lang)
        })
        .collect();
    hits.into_iter()
        .zip(keep)
        .filter_map(|(h, k)| k.then_some(h))
        .collect()
}

/// The question field is written in Chinese, Japanese or Korean: the lexicon reads it by its
/// dictionary, whatever Latin names (`uv`, `poetry`, `pip-compile`) fill the options.
fn asked_in_cjk(roles: &[Role], field_langs: &[&str]) -> bool {
    roles
        .iter()
        .position(|r| *r == Role::Question)
        .and_then(|i| field_langs.get(i))
        .is_some_and(|l| matches!(*l, "zh" | "ja" | "ko"))
}

/// The votes of the whole question, each field's language, the first language that cannot
/// be read (a field of three words or more in it, or the question as a whole), and the votes
/// of the question field alone.
fn languages(
    tokens: &[text::Token],
    hits: &[lexicon::Hit],
    letters: &[text::Letters],
    roles: &[Role],
) -> (Votes, Vec<&'static str>, Option<Lang>, Votes) {
    let mut all = Votes::default();
    let mut question = Votes::default();
    let mut field_langs = Vec::with_capacity(letters.len());
    let mut unreadable: Option<Lang> = None;
    let mut votes_of = Vec::with_capacity(letters.len());
    for (i, l) in letters.iter().enumerate() {
        let lo = tokens.partition_point(|t| usize::from(t.field) < i);
        let hi = tokens.partition_point(|t| usize::from(t.field) <= i);
        let field_hits: Vec<lexicon::Hit> = hits
            .iter()
            .filter(|h| (lo..hi).contains(&(h.start as usize)))
            .map(|h| lexicon::Hit {
                start: h.start - lo as u32,
                end: h.end - lo as u32,
                ..*h
            })
            .collect();
        let votes = Votes::of_field(&tokens[lo..hi], &field_hits, l);
        let lang = votes.decide();
        if matches!(lang, Lang::Uncovered(_)) && (votes.words >= 3 || l.other + l.greek > 0) {
            unreadable.get_or_insert(lang);
        }
        field_langs.push(lang.code());
        all.merge(&votes);
        if roles.get(i) == Some(&Role::Question) {
            question.merge(&votes);
        }
        votes_of.push(votes);
    }
    // A field that could as well be in the question's language is read in it.
    if let Lang::Covered(asked) = question.decide() {
        for (lang, votes) in field_langs.iter_mut().zip(&votes_of) {
            if *lang != asked && lexicon::LEXICON_LANGS.contains(lang) && votes.leans_to(asked) {
                *lang = asked;
            }
        }
    }
    if let lang @ Lang::Uncovered(_) = all.decide() {
        unreadable.get_or_insert(lang);
    }
    (all, field_langs, unreadable, question)
}

/// Whether the header names a dangerous place (production, the public, every device) or a
/// privilege (`[Admin rights]`).
fn header_names_danger(hits: &[lexicon::Hit], tokens: &[text::Token], roles: &[Role]) -> bool {
    hits.iter().any(|h| {
        // A count (`[Email to 1]`) says how many, not which place.
        let privilege = matches!(h.kind(), lexicon::Kind::Object(_))
            && lexicon::concept(h.concept).name == "privilege";
        (privilege || matches!(h.kind(), lexicon::Kind::Place(w) if w >= lexicon::Weight::Danger))
            && roles.get(usize::from(tokens[h.start as usize].field)) == Some(&Role::Header)
            && !tokens[h.start as usize..=h.end as usize]
                .iter()
                .any(|t| t.kind == text::Kind::Number)
    })
}

/// Whether the hits name something a question would reach (production, the public, every
/// device, people, money) and no action at all.
fn names_danger_without_action(
    hits: &[lexicon::Hit],
    tokens: &[text::Token],
    roles: &[Role],
) -> bool {
    use lexicon::{concept, Kind, Qualifier, Weight};
    let field = |h: &lexicon::Hit| tokens[h.start as usize].field;
    let reaching: Vec<u16> = hits
        .iter()
        .filter(|h| match h.kind() {
            // A shared branch named only by an option (`Rester sur main : travailler
            // directement`) is where work stays, not something an unread verb acts on.
            Kind::Place(_) if concept(h.concept).name == "shared-branch" => matches!(
                roles.get(usize::from(tokens[h.start as usize].field)),
                Some(Role::Question | Role::Header)
            ),
            Kind::Place(w) => w >= Weight::Danger,
            // An amount alone (`1.234,56 €` as a number format) is not money moving.
            Kind::Object(_) => match concept(h.concept).name {
                "people" => true,
                // A privilege in the header (`[Owner-Rolle] … Soll ich das einrichten?`) is
                // what the go-ahead grants; elsewhere it is often a feature (`Admin intégré`).
                "privilege" => {
                    roles.get(usize::from(tokens[h.start as usize].field)) == Some(&Role::Header)
                }
                "money" => {
                    h.end - h.start > 1 || tokens[h.start as usize].kind != text::Kind::Number
                }
                _ => false,
            },
            _ => false,
        })
        .map(field)
        .collect();
    // What the question is about is plainly elsewhere: it keeps clear of the dangerous thing
    // (`without touching prod`), only previews, talks about code, or works on something local,
    // regenerable or code. Said in a field that names the danger: `sin incidencias` in one
    // option's description says nothing of the `14 almacenes` of the header.
    let elsewhere = hits.iter().any(|h| {
        reaching.contains(&field(h))
            && match h.kind() {
                Kind::Qualifier(q) => matches!(
                    q,
                    Qualifier::Negate
                        | Qualifier::NegateAfter
                        | Qualifier::Preview
                        | Qualifier::Meta
                        | Qualifier::MetaAfter
                        | Qualifier::EditOnly
                ),
                Kind::Place(w) => w <= Weight::Safe,
                Kind::Object(w) => w <= Weight::Benign,
                _ => false,
            }
    });
    !reaching.is_empty() && !elsewhere && !hits.iter().any(|h| matches!(h.kind(), Kind::Action(_)))
}

/// The rule of a go-ahead that only points back to an earlier agreement.
pub const DEFERS_TO_AGREEMENT: &str = "defers-to-an-earlier-agreement";

/// `Делаем, как договорились?`, `faço o que a gente combinou?`: the sentence that asks names
/// no action but an earlier agreement (nothing beyond a bare `do` or `go on`, and no code or
/// version it could be about), so what it does is in a conversation the classifier never read. The header or an
/// option may name it (`[Передача]`) in words it does not know: a person should answer. A
/// sentence that names its action (`Обновить fastapi до 0.115, как обсуждали?`) is read as usual.
fn defers_to_agreement(hits: &[lexicon::Hit], tokens: &[text::Token], roles: &[Role]) -> bool {
    use lexicon::{ActionRule, Kind, Qualifier};
    let sentence = |h: &lexicon::Hit| {
        let t = &tokens[h.start as usize];
        (t.field, t.sentence)
    };
    hits.iter()
        .filter(|h| {
            h.kind() == Kind::Qualifier(Qualifier::Agreed)
                && roles.get(usize::from(tokens[h.start as usize].field)) == Some(&Role::Question)
        })
        .any(|agreed| {
            let (field, said) = sentence(agreed);
            let names_something = hits.iter().any(|h| {
                sentence(h) == (field, said)
                    && match h.kind() {
                        Kind::Action(rule) => rule != ActionRule::Modifies,
                        Kind::Effect(_) => true,
                        _ => false,
                    }
            });
            // (`step 3 of the plan`: a number inside the agreement's own words is no version.)
            let names_code = tokens.iter().enumerate().any(|(i, t)| {
                t.field == field
                    && t.sentence == said
                    && !(agreed.start as usize..=agreed.end as usize).contains(&i)
                    && matches!(
                        t.kind,
                        text::Kind::Ident | text::Kind::Path | text::Kind::Number
                    )
            });
            !names_something && !names_code
        })
}

fn reason(rule: &str) -> Evidence {
    Evidence {
        door: Door::Unknown,
        rule: rule.to_owned(),
        field: 0,
        start: 0,
        end: 0,
        lang: "-",
        source: "",
    }
}

fn unknown(roles: &[Role], rule: &str, lang: Lang) -> Verdict {
    Verdict {
        door: Door::Unknown,
        rule: Some(rule.to_owned()),
        language: lang.code(),
        fields: roles.iter().map(|r| (*r, "-")).collect(),
        evidence: vec![reason(rule)],
        cleared: Vec::new(),
    }
}

/// Classify one question given as plain text only (an imported log line).
pub fn classify_text(text: &str) -> Verdict {
    classify(&QuestionText {
        question: text,
        header: "",
        options: &[],
    })
}
