//! Which language a field is written in, and whether the classifier can read it.
//!
//! Scripts decide first: Han with Kana is Japanese, Han alone Chinese, Hangul Korean; a script
//! with no lexicon (Arabic, Hebrew, Devanagari, Thai, Greek …) cannot be read. Latin and
//! Cyrillic text is told apart by the words every sentence is made of (each covered lexicon's
//! `@stopword` block, and `langid.txt` for languages without a lexicon: Italian, Dutch, Polish,
//! Turkish, Ukrainian …) and by letters only some languages use (`ñ`, `ł`, `ő`, `ї` …). A word
//! known to several languages counts for each in part.

use super::lexicon::{self, Hit, Kind};
use super::text::{Kind as TokKind, Letters, Script, Token};

/// The language of a field or of a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// A language with a lexicon: `en`, `zh` …
    Covered(&'static str),
    /// A language or script without one: `it`, `pl`, `arabic` …
    Uncovered(&'static str),
    /// Too little text to tell (a label like `PostgreSQL`).
    Unclear,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::Covered(c) | Lang::Uncovered(c) => c,
            Lang::Unclear => "-",
        }
    }
}

/// Votes for languages, gathered over one field or a whole question.
#[derive(Debug, Clone, Default)]
pub struct Votes {
    covered: Vec<(&'static str, f32)>,
    uncovered: Vec<(&'static str, f32)>,
    /// Prose words (not identifiers, paths or code) in Latin or Cyrillic script.
    pub words: u32,
    /// Of those, words some covered lexicon knows (a stopword or a concept).
    pub known: u32,
    letters: Letters,
}

fn add(list: &mut Vec<(&'static str, f32)>, code: &'static str, weight: f32) {
    match list.iter_mut().find(|(c, _)| *c == code) {
        Some((_, w)) => *w += weight,
        None => list.push((code, weight)),
    }
}

fn best(list: &[(&'static str, f32)]) -> Option<(&'static str, f32)> {
    list.iter()
        .copied()
        .fold(None, |acc: Option<(&str, f32)>, (c, w)| match acc {
            Some((_, bw)) if bw >= w => acc,
            _ => Some((c, w)),
        })
}

impl Votes {
    /// Count the words of one field (`tokens` and `hits` of that field only).
    pub fn of_field(tokens: &[Token], hits: &[Hit], letters: &Letters) -> Votes {
        let mut v = Votes {
            letters: letters.clone(),
            ..Votes::default()
        };
        let mut known = vec![false; tokens.len()];
        let mut stop_langs = vec![0u8; tokens.len()];
        for hit in hits {
            let t = &tokens[hit.start as usize];
            if !matches!(t.script, Script::Latin | Script::Cyrillic) || t.in_code {
                continue;
            }
            known[hit.start as usize] = true;
            if hit.kind() == Kind::Stopword {
                stop_langs[hit.start as usize] += 1;
            }
        }
        for hit in hits {
            let n = stop_langs[hit.start as usize];
            if n > 0 && hit.kind() == Kind::Stopword && !tokens[hit.start as usize].in_code {
                // Split across every covered language that knows the word.
                let lang = lexicon::LEXICON_LANGS[hit.term().lang as usize];
                add(&mut v.covered, lang, 1.0 / f32::from(n));
            }
        }
        for (i, t) in tokens.iter().enumerate() {
            if t.kind != TokKind::Word || t.in_code {
                continue;
            }
            if !matches!(t.script, Script::Latin | Script::Cyrillic) {
                continue;
            }
            v.words += 1;
            if known[i] {
                v.known += 1;
            }
            let langs = lexicon::LANGID.get(&t.key);
            let covered_too = known[i];
            for &l in langs {
                let code = lexicon::LANGID_LANGS[l as usize];
                // A word a covered language also has counts half: `de`, `la`, `per`.
                let share = if covered_too { 0.5 } else { 1.0 } / langs.len() as f32;
                add(&mut v.uncovered, code, share);
            }
        }
        for &c in &letters.marked {
            let lower: String = c.to_lowercase().collect();
            let owners: Vec<&'static str> = lexicon::LETTERS
                .iter()
                .filter(|(_, set)| set.contains(lower.as_str()))
                .map(|(code, _)| *code)
                .collect();
            for code in &owners {
                let w = 1.0 / owners.len() as f32;
                if lexicon::LEXICON_LANGS.contains(code) {
                    add(&mut v.covered, code, w);
                } else {
                    add(&mut v.uncovered, code, w);
                }
            }
        }
        v
    }

    /// Whether `code` is nearly as likely as the best covered language (within one word):
    /// a short option in Portuguese (`Registro no banco e disparo imediato`) votes Spanish
    /// by a word, and is read in the language of its question.
    pub fn leans_to(&self, code: &str) -> bool {
        let weight = self
            .covered
            .iter()
            .find(|(c, _)| *c == code)
            .map_or(0.0, |(_, w)| *w);
        weight > 0.0 && best(&self.covered).is_some_and(|(_, w)| w - weight <= 1.0)
    }

    /// Whether enough of the words are known to some covered lexicon (one in five) for the
    /// text to be read at all.
    pub fn readable(&self) -> bool {
        self.words > 0 && self.known * 5 >= self.words
    }

    pub fn merge(&mut self, other: &Votes) {
        for &(c, w) in &other.covered {
            add(&mut self.covered, c, w);
        }
        for &(c, w) in &other.uncovered {
            add(&mut self.uncovered, c, w);
        }
        self.words += other.words;
        self.known += other.known;
        let l = &mut self.letters;
        let o = &other.letters;
        l.latin += o.latin;
        l.cyrillic += o.cyrillic;
        l.greek += o.greek;
        l.cjk += o.cjk;
        l.kana += o.kana;
        l.hangul += o.hangul;
        l.other += o.other;
        l.fenced_code += o.fenced_code;
        if l.other_script.is_none() {
            l.other_script = o.other_script;
        }
    }

    /// The language these votes point to.
    pub fn decide(&self) -> Lang {
        let l = &self.letters;
        let total = l.latin + l.cyrillic + l.greek + l.cjk + l.kana + l.hangul + l.other;
        if total == 0 {
            return Lang::Unclear;
        }
        if l.other >= 8 || l.other * 4 >= total {
            return Lang::Uncovered(l.other_script.unwrap_or("other"));
        }
        if l.greek >= 8 || l.greek * 4 >= total {
            return Lang::Uncovered("el");
        }
        let east = l.cjk + l.kana + l.hangul;
        if east * 3 >= total {
            return if l.hangul * 2 >= east {
                Lang::Covered("ko")
            } else if l.kana > 0 {
                Lang::Covered("ja")
            } else {
                Lang::Covered("zh")
            };
        }
        // An uncovered language only has to beat the likeliest covered one: reading it as a
        // covered language would miss the verbs that language's lexicon does not know, while
        // reading a covered question as uncovered only asks the human.
        let covered_best = best(&self.covered).map_or(0.0, |(_, w)| w);
        let uncovered = best(&self.uncovered);
        if let Some((code, w)) = uncovered {
            if w > covered_best && (w >= 1.5 || (w >= 1.0 && self.words <= 3)) {
                return Lang::Uncovered(code);
            }
        }
        match best(&self.covered) {
            Some((code, w)) if w > 0.0 => {
                // Cyrillic text votes Russian only through Russian words.
                Lang::Covered(code)
            }
            _ if l.cyrillic > l.latin => Lang::Covered("ru"),
            _ => Lang::Unclear,
        }
    }
}
