//! Rules: a standing preference for every question whose header, text or options match
//! regexes (`askhook rule add NAME --header RE --question RE --option RE … VALUE`), and the
//! patterns of the config file (`redact`, `record_filter`), all compiled here.
//!
//! ## Matching
//! A rule matches a question when every one of its patterns does: `header` against the header
//! (a question without one does not match), `question` against the question text (markers
//! stripped), each `option` against at least one option label (its recommendation marker
//! stripped). Patterns use the regex crate's syntax, are unanchored and case-insensitive.
//!
//! ## Cost
//! The hook starts a fresh process for every question, so nothing is compiled ahead: when a
//! rule is added, each pattern keeps the literals one of which every text it can match must
//! contain ([`needs`]: from `which (database|db)`, `which ` — folded as the hook folds text,
//! ASCII letters lowercased). The hook checks those with a substring search and compiles a
//! pattern only for a question that passes, once per process ([`Matcher`]). A compiled
//! pattern is the regex crate's meta engine with only the NFA simulation: a few tens of µs to
//! build, where `regex::Regex`'s full set of engines and case-insensitive prefilters took
//! about a millisecond. Most patterns people write are plain words (`postgres`, `^yes`,
//! `\bdeploy to staging\b`): those are not compiled at all but matched as text
//! ([`Plain`]), with the regex crate's own meaning of case, `^`, `$` and `\b`.
//!
//! A stored pattern that no longer compiles (written by another version, or by hand) makes its
//! rule count as `always-ask`: a broken rule can only make askhook ask more.

use std::cell::OnceCell;

use askhook_core::policy::Preference;
use askhook_core::question::{strip_recommendation, Question};
use regex_automata::{meta, nfa::thompson::WhichCaptures, util::syntax};
use regex_syntax::hir::{Class, Hir, HirKind};

/// Largest compiled pattern, in bytes of NFA: a pattern past it is refused when added.
const NFA_SIZE_LIMIT: usize = 1 << 20;

/// Most literals a pattern's prefilter keeps; with more, the pattern is always compiled.
const MAX_NEEDS: usize = 16;

/// What a rule's pattern is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Header,
    Question,
    Option,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Header => "header",
            Field::Question => "question",
            Field::Option => "option",
        }
    }

    pub fn parse(text: &str) -> Option<Field> {
        [Field::Header, Field::Question, Field::Option]
            .into_iter()
            .find(|f| f.as_str() == text)
    }
}

/// One pattern of a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    pub field: Field,
    pub pattern: String,
    /// Folded literals one of which every text the pattern matches contains; empty: none known,
    /// compile it for every question.
    pub needs: Vec<String>,
}

impl Pattern {
    /// A checked pattern with its prefilter, or the compile error to show.
    pub fn new(field: Field, pattern: &str) -> Result<Pattern, String> {
        compile(pattern)?;
        Ok(Pattern {
            field,
            pattern: pattern.to_owned(),
            needs: needs(pattern),
        })
    }
}

/// A rule as the hook evaluates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub name: String,
    /// `""` global, else a project root.
    pub scope: String,
    /// `None`: a value this binary does not know (the rule is treated as `always-ask`).
    pub value: Option<Preference>,
    pub patterns: Vec<Pattern>,
}

/// Compile one pattern the way every rule and config pattern is compiled: case-insensitive,
/// unanchored, NFA simulation only.
pub fn compile(pattern: &str) -> Result<meta::Regex, String> {
    meta::Regex::builder()
        .configure(
            meta::Config::new()
                .auto_prefilter(false)
                .which_captures(WhichCaptures::Implicit)
                .nfa_size_limit(Some(NFA_SIZE_LIMIT)),
        )
        .syntax(syntax::Config::new().case_insensitive(true))
        .build(pattern)
        .map_err(|e| {
            e.syntax_error()
                .map_or_else(|| e.to_string(), ToString::to_string)
        })
}

/// The text as prefilters compare it: ASCII letters lowercased, everything else as is (a
/// case-insensitive match of an ASCII letter other than `k` and `s` can only be an ASCII
/// letter, see [`needs`]).
pub fn fold(text: &str) -> String {
    text.to_ascii_lowercase()
}

/// The literals one of which every text `pattern` matches must contain, folded ([`fold`]);
/// empty when none is known. Sound by construction: a piece of a case-insensitive pattern is a
/// literal only when every character it can match folds to one character — so `k` and `s`
/// (which also match the Kelvin sign and the long s) and cased non-ASCII letters end a literal.
pub fn needs(pattern: &str) -> Vec<String> {
    let Ok(hir) = regex_syntax::ParserBuilder::new()
        .case_insensitive(true)
        .build()
        .parse(pattern)
    else {
        return Vec::new();
    };
    need(&hir)
        .filter(|set| set.iter().all(|l| !l.is_empty() && !l.contains('\u{1f}')))
        .unwrap_or_default()
}

/// The one folded string `hir` matches, if it matches exactly one.
fn exact(hir: &Hir) -> Option<String> {
    match hir.kind() {
        HirKind::Literal(lit) => std::str::from_utf8(&lit.0).ok().map(fold),
        HirKind::Class(class) => single_char(class).map(String::from),
        HirKind::Capture(cap) => exact(&cap.sub),
        HirKind::Concat(subs) => subs.iter().map(exact).collect(),
        _ => None,
    }
}

/// The folded character every member of `class` folds to, if they all fold to one.
fn single_char(class: &Class) -> Option<char> {
    let mut members: Vec<char> = Vec::new();
    match class {
        Class::Unicode(c) => {
            for range in c.iter() {
                for ch in range.start()..=range.end() {
                    members.push(ch);
                    if members.len() > 4 {
                        return None;
                    }
                }
            }
        }
        Class::Bytes(c) => {
            for range in c.iter() {
                for b in range.start()..=range.end() {
                    members.push(char::from(b).to_ascii_lowercase());
                    if members.len() > 4 || !b.is_ascii() {
                        return None;
                    }
                }
            }
        }
    }
    let first = members.first()?.to_ascii_lowercase();
    members
        .iter()
        .all(|c| c.to_ascii_lowercase() == first)
        .then_some(first)
}

/// Literals one of which any match of `hir` contains; `None`: no constraint known.
fn need(hir: &Hir) -> Option<Vec<String>> {
    if let Some(text) = exact(hir) {
        return (!text.is_empty()).then(|| vec![text]);
    }
    match hir.kind() {
        HirKind::Capture(cap) => need(&cap.sub),
        HirKind::Repetition(rep) if rep.min >= 1 => need(&rep.sub),
        HirKind::Alternation(subs) => {
            let mut all: Vec<String> = Vec::new();
            for sub in subs {
                for lit in need(sub)? {
                    if !all.contains(&lit) {
                        all.push(lit);
                    }
                }
            }
            (all.len() <= MAX_NEEDS).then_some(all)
        }
        HirKind::Concat(subs) => best_of_concat(subs),
        _ => None,
    }
}

/// The best constraint among a concatenation's parts: runs of exact parts joined, then each
/// other part's own constraint; the one whose shortest literal is longest wins.
fn best_of_concat(subs: &[Hir]) -> Option<Vec<String>> {
    let mut candidates: Vec<Vec<String>> = Vec::new();
    let mut run = String::new();
    for sub in subs {
        if let Some(text) = exact(sub) {
            run.push_str(&text);
        } else {
            if !run.is_empty() {
                candidates.push(vec![std::mem::take(&mut run)]);
            }
            candidates.extend(need(sub));
        }
    }
    if !run.is_empty() {
        candidates.push(vec![run]);
    }
    candidates.into_iter().max_by_key(|set| {
        let shortest = set.iter().map(|l| l.chars().count()).min().unwrap_or(0);
        (shortest, std::cmp::Reverse(set.len()))
    })
}

/// A pattern that is plain text between optional anchors — `^`, then `\b`, then ASCII letters,
/// digits, spaces and punctuation that has no meaning in a regex, then `\b`, then `$` — matched
/// without compiling it, exactly as the compiled pattern would match (case-insensitive, Unicode
/// word boundaries, `^` and `$` at the ends of the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plain {
    start: Edge,
    /// ASCII, lowercased.
    text: String,
    end: Edge,
}

/// What one end of a [`Plain`] pattern must stand at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edge {
    /// `^` or `$`: the end of the text.
    text: bool,
    /// `\b`: a word boundary.
    word: bool,
}

impl Plain {
    /// `pattern` as plain text, if it is (see [`Plain`]).
    pub fn parse(pattern: &str) -> Option<Plain> {
        let mut rest = pattern;
        let start = strip_prefix(&mut rest, "^");
        let word_start = strip_prefix(&mut rest, r"\b");
        // An escaped `\$` or `\\b` at the end leaves a backslash in the body: not plain.
        let end = strip_suffix(&mut rest, "$");
        let word_end = strip_suffix(&mut rest, r"\b");
        let body = rest;
        let plain_char =
            |c: char| c.is_ascii_alphanumeric() || c == ' ' || "-_/:,;'\"=@%!<>~`".contains(c);
        (!body.is_empty() && body.chars().all(plain_char)).then(|| Plain {
            start: Edge {
                text: start,
                word: word_start,
            },
            text: body.to_ascii_lowercase(),
            end: Edge {
                text: end,
                word: word_end,
            },
        })
    }

    /// Whether the pattern matches `text`; `None` when `text` holds a letter outside ASCII that
    /// matches an ASCII one case-insensitively (the Kelvin sign, the long s): then compile.
    pub fn is_match(&self, text: &str) -> Option<bool> {
        if text.contains(['\u{212a}', '\u{17f}']) {
            return None;
        }
        let folded = fold(text);
        let word_before = |at: usize| {
            folded[..at]
                .chars()
                .next_back()
                .is_some_and(regex_syntax::is_word_character)
        };
        let word_after = |at: usize| {
            folded[at..]
                .chars()
                .next()
                .is_some_and(regex_syntax::is_word_character)
        };
        // Every occurrence, overlapping ones too (`aa$` in `aaa` ends at the second).
        let mut from = 0;
        while let Some(found) = folded[from..].find(&self.text) {
            let at = from + found;
            let end = at + self.text.len();
            if (!self.start.text || at == 0)
                && (!self.end.text || end == folded.len())
                && (!self.start.word || word_before(at) != word_after(at))
                && (!self.end.word || word_before(end) != word_after(end))
            {
                return Some(true);
            }
            // The body is ASCII, so it starts on a char boundary: step to the next one.
            from = at + folded[at..].chars().next().map_or(1, char::len_utf8);
        }
        Some(false)
    }
}

fn strip_prefix(text: &mut &str, prefix: &str) -> bool {
    text.strip_prefix(prefix).map(|rest| *text = rest).is_some()
}

fn strip_suffix(text: &mut &str, suffix: &str) -> bool {
    text.strip_suffix(suffix).map(|rest| *text = rest).is_some()
}

/// A pattern ready to match: plain text, or compiled.
enum Ready {
    Plain(Plain),
    Regex(meta::Regex),
}

impl Ready {
    fn of(pattern: &str) -> Option<Ready> {
        match Plain::parse(pattern) {
            Some(plain) => Some(Ready::Plain(plain)),
            None => compile(pattern).ok().map(Ready::Regex),
        }
    }
}

/// The rules that match questions, compiling each pattern at most once and only when a
/// question passes its prefilter.
pub struct Matcher<'r> {
    rules: &'r [Rule],
    compiled: Vec<Vec<OnceCell<Option<Ready>>>>,
    /// Regexes compiled for a plain pattern whose text needed one (see [`Plain::is_match`]).
    fallback: Vec<Vec<OnceCell<Option<meta::Regex>>>>,
    /// Rules with a pattern that did not compile (they count as `always-ask`).
    pub broken: Vec<String>,
}

/// A question's text fields, each with its folded copy made on first use.
struct Texts<'q> {
    header: Option<(&'q str, OnceCell<String>)>,
    question: (&'q str, OnceCell<String>),
    options: Vec<(String, OnceCell<String>)>,
}

impl<'q> Texts<'q> {
    fn of(q: &'q Question) -> Texts<'q> {
        Texts {
            header: q.header.as_deref().map(|h| (h, OnceCell::new())),
            question: (&q.text, OnceCell::new()),
            options: q
                .options
                .iter()
                .map(|o| (strip_recommendation(&o.label), OnceCell::new()))
                .collect(),
        }
    }

    /// The texts a field is matched against (one, or every option).
    fn of_field(&self, field: Field) -> Vec<(&str, &OnceCell<String>)> {
        match field {
            Field::Header => self.header.iter().map(|(t, f)| (*t, f)).collect(),
            Field::Question => vec![(self.question.0, &self.question.1)],
            Field::Option => self.options.iter().map(|(t, f)| (t.as_str(), f)).collect(),
        }
    }
}

fn passes(needs: &[String], text: &str, folded: &OnceCell<String>) -> bool {
    needs.is_empty() || {
        let folded = folded.get_or_init(|| fold(text));
        needs.iter().any(|n| folded.contains(n.as_str()))
    }
}

impl<'r> Matcher<'r> {
    pub fn new(rules: &'r [Rule]) -> Matcher<'r> {
        fn cells<T>(rules: &[Rule]) -> Vec<Vec<OnceCell<T>>> {
            rules
                .iter()
                .map(|r| r.patterns.iter().map(|_| OnceCell::new()).collect())
                .collect()
        }
        Matcher {
            rules,
            compiled: cells(rules),
            fallback: cells(rules),
            broken: Vec::new(),
        }
    }

    /// The rules matching `q`, in order, each with the preference it applies (a rule with a
    /// broken pattern or an unknown value applies `always-ask`).
    pub fn matching(&mut self, q: &Question) -> Vec<(&'r str, Preference)> {
        let texts = Texts::of(q);
        let mut out = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            match self.rule_matches(i, &texts) {
                Some(false) => {}
                Some(true) => out.push((
                    rule.name.as_str(),
                    rule.value.unwrap_or(Preference::AlwaysAsk),
                )),
                None => {
                    if !self.broken.contains(&rule.name) {
                        self.broken.push(rule.name.clone());
                    }
                    out.push((rule.name.as_str(), Preference::AlwaysAsk));
                }
            }
        }
        out
    }

    /// Whether rule `i` matches; `None` when one of its patterns does not compile.
    fn rule_matches(&self, i: usize, texts: &Texts<'_>) -> Option<bool> {
        let rule = &self.rules[i];
        // Every prefilter first: most rules end here, with nothing compiled.
        for p in &rule.patterns {
            if !texts
                .of_field(p.field)
                .iter()
                .any(|(t, f)| passes(&p.needs, t, f))
            {
                return Some(false);
            }
        }
        for (j, p) in rule.patterns.iter().enumerate() {
            let ready = self.compiled[i][j]
                .get_or_init(|| Ready::of(&p.pattern))
                .as_ref()?;
            let mut matched = false;
            for (t, f) in texts.of_field(p.field) {
                if !passes(&p.needs, t, f) {
                    continue;
                }
                matched = match ready {
                    Ready::Regex(regex) => regex.is_match(t),
                    Ready::Plain(plain) => match plain.is_match(t) {
                        Some(m) => m,
                        None => self.fallback[i][j]
                            .get_or_init(|| compile(&p.pattern).ok())
                            .as_ref()?
                            .is_match(t),
                    },
                };
                if matched {
                    break;
                }
            }
            if !matched {
                return Some(false);
            }
        }
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use askhook_core::question::Choice;
    use proptest::prelude::*;

    #[test]
    fn needs_cases() {
        let cases: &[(&str, &[&str])] = &[
            ("database", &["databa"]),
            ("Which Database", &["which databa"]),
            ("which (database|db)", &["which "]),
            ("(postgres|mysql)", &["tgre", "ql"]),
            ("^deploy.*prod", &["deploy"]),
            ("colou?r", &["colo"]),
            ("a+b", &["b"]),
            ("x*", &[]),
            (r"\w+", &[]),
            ("(a|b*)", &[]),
            ("数据库", &["数据库"]),
            ("(?-i:Kafka)", &["kafka"]),
            ("[", &[]),
        ];
        for (pattern, want) in cases {
            assert_eq!(needs(pattern), *want, "{pattern}");
        }
    }

    fn question(text: &str, header: Option<&str>, labels: &[&str]) -> Question {
        let options = Choice::labelled(labels);
        Question::new(0, text.into(), header.map(str::to_owned), options, false)
    }

    fn rule(name: &str, value: Preference, patterns: &[(Field, &str)]) -> Rule {
        Rule {
            name: name.into(),
            scope: String::new(),
            value: Some(value),
            patterns: patterns
                .iter()
                .map(|(f, p)| Pattern::new(*f, p).unwrap())
                .collect(),
        }
    }

    #[test]
    fn every_pattern_of_a_rule_must_match() {
        let rules = [
            rule(
                "db",
                Preference::NeverAsk,
                &[
                    (Field::Question, "which (database|db)"),
                    (Field::Option, "^postgres"),
                ],
            ),
            rule(
                "header",
                Preference::AlwaysAsk,
                &[(Field::Header, "^Deploy$")],
            ),
            rule("broken", Preference::NeverAsk, &[(Field::Question, "x")]),
        ];
        let mut rules = rules.to_vec();
        rules[2].patterns[0].pattern = "(".into();
        let mut m = Matcher::new(&rules);
        let q = question(
            "Which DATABASE should we use?",
            Some("Database"),
            &["PostgreSQL (Recommended)", "SQLite"],
        );
        assert_eq!(m.matching(&q), vec![("db", Preference::NeverAsk)]);
        let no_option = question("Which database?", None, &["SQLite", "MySQL"]);
        assert!(m.matching(&no_option).is_empty());
        let deploy = question("Ship it? x", Some("deploy"), &["Yes", "No"]);
        assert_eq!(
            m.matching(&deploy),
            vec![
                ("header", Preference::AlwaysAsk),
                ("broken", Preference::AlwaysAsk)
            ]
        );
        assert_eq!(m.broken, vec!["broken".to_owned()]);
    }

    #[test]
    fn nothing_is_compiled_for_a_question_no_prefilter_passes() {
        let rules: Vec<Rule> = (0..50)
            .map(|i| {
                rule(
                    &format!("r{i}"),
                    Preference::NeverAsk,
                    &[(Field::Question, &format!("(?:topic|subject){i} here"))],
                )
            })
            .collect();
        let m = {
            let mut m = Matcher::new(&rules);
            assert!(m
                .matching(&question("Which database?", None, &["A", "B"]))
                .is_empty());
            m
        };
        let compiled = m.compiled.iter().flatten().filter(|c| c.get().is_some());
        assert_eq!(compiled.count(), 0);
    }

    #[test]
    fn plain_patterns_are_told_apart_from_regexes() {
        for plain in [
            "postgres",
            "^yes",
            r"\bdeploy to staging\b$",
            "v2-api",
            "it's \"on\"",
        ] {
            assert!(Plain::parse(plain).is_some(), "{plain}");
        }
        for regex in [
            "", "^", "$", r"\b", "a.b", "a+", "(a)", "[ab]", "a|b", r"\$", r"x\$", r"x\\b",
            "(?i)x", "x{2}", r"\d", "é", "x#y", "a^b", "a$b",
        ] {
            assert!(Plain::parse(regex).is_none(), "{regex}");
        }
    }

    /// The premise of [`Plain::is_match`]: case-insensitively, an ASCII letter matches only its
    /// two cases, plus the Kelvin sign for `k` and the long s for `s`.
    #[test]
    fn ascii_letters_fold_only_to_ascii_and_two_known_letters() {
        for letter in ('a'..='z').chain('0'..='9') {
            let hir = regex_syntax::ParserBuilder::new()
                .case_insensitive(true)
                .build()
                .parse(&letter.to_string())
                .unwrap();
            let members: Vec<char> = match hir.kind() {
                HirKind::Class(Class::Unicode(c)) => {
                    c.iter().flat_map(|r| r.start()..=r.end()).collect()
                }
                HirKind::Literal(_) => vec![letter],
                other => panic!("{letter}: {other:?}"),
            };
            for member in members {
                assert!(
                    member.is_ascii()
                        || (letter, member) == ('k', '\u{212a}')
                        || (letter, member) == ('s', '\u{17f}'),
                    "{letter} also matches {member:?}"
                );
            }
        }
    }

    #[test]
    fn a_rule_of_plain_patterns_compiles_nothing() {
        let rules = [rule(
            "plain",
            Preference::NeverAsk,
            &[(Field::Question, r"\bqueue 7\b"), (Field::Option, "^yes")],
        )];
        let mut m = Matcher::new(&rules);
        let q = question(
            "Switch the queue 7 over?",
            None,
            &["Yes, switch (Recommended)", "No"],
        );
        assert_eq!(m.matching(&q), vec![("plain", Preference::NeverAsk)]);
        assert!(m
            .matching(&question("Switch the queue 77 over?", None, &["Yes", "No"]))
            .is_empty());
        assert!(m.fallback.iter().flatten().all(|c| c.get().is_none()));
        // A long s in the text (it matches `s` case-insensitively) takes the compiled path.
        let long_s = question("Switch the queue 7 over?", None, &["Yeſ", "No"]);
        assert_eq!(m.matching(&long_s), vec![("plain", Preference::NeverAsk)]);
    }

    proptest! {
        /// A plain pattern matches exactly the texts its compiled regex matches.
        #[test]
        fn plain_matching_is_the_regex_matching(
            start in any::<bool>(),
            word_start in any::<bool>(),
            body in "[aAkKsS -]{1,4}",
            word_end in any::<bool>(),
            end in any::<bool>(),
            pre in "[aAkKsS é_\u{212a}\u{17f}-]{0,3}",
            post in "[aAkKsS é_\u{212a}\u{17f}-]{0,3}",
            noise in "[aAkKsS é_\u{212a}\u{17f}-]{0,10}",
            upper in any::<bool>(),
        ) {
            let pattern = format!(
                "{}{}{body}{}{}",
                if start { "^" } else { "" },
                if word_start { r"\b" } else { "" },
                if word_end { r"\b" } else { "" },
                if end { "$" } else { "" },
            );
            let plain = Plain::parse(&pattern).unwrap();
            let regex = compile(&pattern).unwrap();
            let cased = if upper { body.to_uppercase() } else { body.to_lowercase() };
            for text in [format!("{pre}{cased}{post}"), format!("{pre}{cased}{cased}"), noise.clone()] {
                let want = regex.is_match(&text);
                if let Some(got) = plain.is_match(&text) {
                    prop_assert_eq!(got, want, "{:?} on {:?}", pattern, text);
                } else {
                    let has_odd_letter = text.contains(['\u{212a}', '\u{17f}']);
                    prop_assert!(has_odd_letter);
                }
            }
        }

        /// The prefilter never rejects a text the pattern matches.
        #[test]
        fn the_prefilter_is_sound(
            parts in prop::collection::vec(
                prop_oneof![
                    "[a-zA-Z]{1,6}",
                    Just("(?:ab|K)".to_owned()),
                    Just("s+".to_owned()),
                    Just("[xX]".to_owned()),
                    Just("é".to_owned()),
                    Just(".?".to_owned()),
                    Just("(?-i:Qu)".to_owned()),
                ],
                1..5,
            ),
            noise in "[a-zA-Z ſK]{0,8}",
        ) {
            let pattern = parts.join("");
            let regex = compile(&pattern).unwrap();
            let needs = needs(&pattern);
            // Texts built from the pattern's own pieces, in odd cases.
            for text in [
                format!("{noise}{}{noise}", parts.join("")),
                parts.join("").to_uppercase(),
                parts.join("").replace('s', "ſ").replace('k', "\u{212a}"),
                noise.clone(),
            ] {
                if regex.is_match(&text) {
                    let folded = fold(&text);
                    prop_assert!(
                        needs.is_empty() || needs.iter().any(|n| folded.contains(n.as_str())),
                        "{pattern:?} matches {text:?} but needs {needs:?}"
                    );
                }
            }
        }
    }
}
