//! Text to words for the family matcher: character folding (case, accents, full-width forms),
//! cutting a text into words, identifiers and runs of CJK characters, sentences, stemming, and
//! the guess of the language a question is written in. Pure and allocation-light; the words it
//! knows are in [`super::lexicon`].
//!
//! - **Words** (Latin, Cyrillic, digits): lowercase, accents folded (`é` → `e`, `ß` → `ss`,
//!   `ё` → `е`), apostrophes dropped (`don't` → `dont`, but French `l'application` →
//!   `l` `application`), hyphenated words cut in parts.
//! - **Identifiers** (`src/utils.ts`, `@types/express`, `feature/login`, `--force`): one token,
//!   digits read as `#`; a file name with a known extension (`CHANGELOG.md`) reads as the words
//!   of its name; a bare version (`v1.4.0`) is dropped. A sentence's final `.` is not part of
//!   one (`.gitignore.`), and brackets cut one off (`config（eslint.config.js）`).
//! - **Parts**: an identifier's words (`src/billing/invoice.ts`: `src`, `billing`, `invoice`; a
//!   final file extension and a scoped package's, `@types/express`, left out) and a camelCase
//!   name's (`maximumPoolSize`: `maximum`, `pool`, `size`), kept beside the piece.
//! - **CJK**: Han and katakana runs, and Korean words without their particle, are read as
//!   overlapping pairs of characters (`数据库` → `数据` `据库`); hiragana carries grammar and is
//!   read only for its negations.

use super::lexicon::{self, Map, Set};

/// The language a question is written in, as far as the matcher cares: which function words,
/// negations and stemming apply. CJK questions read as [`Lang::En`] (their words are pairs of
/// characters; English names inside them are English).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    De,
    Fr,
    Es,
    Pt,
    Ru,
}

impl Lang {
    const LATIN: [Lang; 5] = [Lang::En, Lang::De, Lang::Fr, Lang::Es, Lang::Pt];
    pub(crate) const ALL: [Lang; 6] = [Lang::En, Lang::De, Lang::Fr, Lang::Es, Lang::Pt, Lang::Ru];

    pub(crate) fn stop_words(self) -> Set {
        match self {
            Lang::En => lexicon::STOP_EN,
            Lang::De => lexicon::STOP_DE,
            Lang::Fr => lexicon::STOP_FR,
            Lang::Es => lexicon::STOP_ES,
            Lang::Pt => lexicon::STOP_PT,
            Lang::Ru => lexicon::STOP_RU,
        }
    }

    pub(crate) fn negations(self) -> Set {
        match self {
            Lang::En => lexicon::NEG_EN,
            Lang::De => lexicon::NEG_DE,
            Lang::Fr => lexicon::NEG_FR,
            Lang::Es => lexicon::NEG_ES,
            Lang::Pt => lexicon::NEG_PT,
            Lang::Ru => lexicon::NEG_RU,
        }
    }

    pub(crate) fn actions(self) -> Set {
        match self {
            Lang::En => lexicon::ACTIONS_EN,
            Lang::De => lexicon::ACTIONS_DE,
            Lang::Fr => lexicon::ACTIONS_FR,
            Lang::Es => lexicon::ACTIONS_ES,
            Lang::Pt => lexicon::ACTIONS_PT,
            Lang::Ru => lexicon::ACTIONS_RU,
        }
    }
}

/// Whether a sorted word list holds `word`.
pub(crate) fn listed(list: Set, word: &str) -> bool {
    list.contains(word)
}

/// The value a sorted `(word, value)` table gives `word`.
pub(crate) fn lookup(table: Map, word: &str) -> Option<&'static str> {
    table.get(word)
}

pub(crate) fn is_han(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{f900}'..='\u{faff}')
}

pub(crate) fn is_katakana(c: char) -> bool {
    matches!(c, '\u{30a0}'..='\u{30ff}' | '\u{31f0}'..='\u{31ff}')
}

pub(crate) fn is_hiragana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{309f}')
}

pub(crate) fn is_hangul(c: char) -> bool {
    matches!(c, '\u{ac00}'..='\u{d7af}')
}

pub(crate) fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{04ff}')
}

pub(crate) fn is_cjk(c: char) -> bool {
    is_han(c) || is_katakana(c) || is_hiragana(c) || is_hangul(c)
}

/// Combining marks inside a word (accents written apart, Devanagari vowel signs, Thai tone
/// marks, ZWJ): part of the word, never a separator.
fn is_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036f}' | '\u{0900}'..='\u{0dff}' | '\u{0e00}'..='\u{0eff}' | '\u{200d}')
}

/// `c` folded onto `out`: full-width ASCII to ASCII, lowercase, Latin accents dropped, `ß` →
/// `ss`, `ё` → `е`.
pub(crate) fn push_folded(out: &mut String, c: char) {
    let c = match c {
        '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
        _ => c,
    };
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    for lower in c.to_lowercase() {
        match lower {
            'ß' => out.push_str("ss"),
            'ё' => out.push('е'),
            _ => out.push(strip_accent(lower)),
        }
    }
}

/// A text folded as [`push_folded`] folds each character.
pub(crate) fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_folded(&mut out, c);
    }
    out
}

/// The base letter of a lowercase Latin letter with an accent (Latin-1 and Latin Extended-A).
fn strip_accent(c: char) -> char {
    match c {
        'à'..='å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => 'c',
        'ď' => 'd',
        'è'..='ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => 'e',
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => 'g',
        'ĥ' => 'h',
        'ì'..='ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' => 'i',
        'ĵ' => 'j',
        'ķ' => 'k',
        'ĺ' | 'ļ' | 'ľ' => 'l',
        'ñ' | 'ń' | 'ņ' | 'ň' => 'n',
        'ò'..='ö' | 'ō' | 'ŏ' | 'ő' => 'o',
        'ŕ' | 'ŗ' | 'ř' => 'r',
        'ś' | 'ŝ' | 'ş' | 'š' => 's',
        'ţ' | 'ť' => 't',
        'ù'..='ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => 'u',
        'ŵ' => 'w',
        'ý' | 'ÿ' | 'ŷ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        _ => c,
    }
}

/// What a piece of text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A word of letters and digits (folded).
    Word,
    /// An identifier: a path, a dotted or snake name, a `--flag` (folded, digits as `#`).
    Ident,
    Han,
    Katakana,
    Hiragana,
    Hangul,
}

/// One piece of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Piece {
    pub kind: Kind,
    pub text: String,
    /// Written like a name: an identifier, a capital letter inside the word or past the start
    /// of a sentence (`YAML`, `README`, `Python`), or a Latin word inside CJK or Cyrillic text.
    pub named: bool,
    /// Named only for its initial capital past the start of a sentence (`Python`; a German
    /// noun is written so).
    pub initial_only: bool,
    /// Written inside a code span (`` `api` ``): a name whatever its case, even a general
    /// acronym's.
    pub code: bool,
    /// The words inside an identifier or a camelCase name, folded (see [`identifier_parts`],
    /// [`camel_parts`]); empty for a plain word.
    pub parts: Vec<String>,
}

/// Brackets: a segment is cut at them (`config（eslint.config.js）`, `includes(:author)`).
fn is_bracket(c: char) -> bool {
    "()[]{}<>（）【】「」".contains(c)
}

/// Punctuation trimmed off both ends of a whitespace-separated segment.
fn is_edge_punct(c: char) -> bool {
    "()[]{}<>\"'`,;:!?。，？！、“”‘’«»（）".contains(c)
}

/// French elisions cut before an apostrophe (`l'application`, `d'état`, `qu'il`).
const ELISIONS: [&str; 9] = ["l", "d", "j", "qu", "n", "s", "c", "m", "t"];

/// Every piece of `text`, in order.
pub(crate) fn pieces(text: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut sentence_start = true;
    let foreign = text.chars().any(|c| is_cjk(c) || is_cyrillic(c));
    let mut in_code = false;
    for segment in text.split(|c: char| c.is_whitespace() || is_bracket(c)) {
        if segment.is_empty() {
            continue;
        }
        // A word inside a code span (`` `api` package ``) was written as a name, whatever its case.
        let spanned = in_code || segment.contains('`');
        in_code ^= segment.matches('`').count() % 2 == 1;
        let at_start = sentence_start;
        sentence_start = segment.ends_with(['.', '?', '!', ':', '。', '？', '！']);
        let core = segment.trim_matches(is_edge_punct);
        // A sentence's final `.` (`… to .gitignore.`, `invoice.ts.`) is not the identifier's.
        let core = core.trim_end_matches(is_cjk).trim_end_matches('.');
        if is_identifier(core) {
            identifier(core, &mut out);
            continue;
        }
        let first = out.len();
        words(segment, at_start, foreign, &mut out);
        if spanned {
            for piece in out[first..].iter_mut().filter(|p| p.kind == Kind::Word) {
                piece.named = true;
                piece.initial_only = false;
                piece.code = true;
            }
        }
    }
    out
}

/// An identifier: a `.` `/` `_` `@` between two word characters, a `--flag`, or a leading `.`
/// or `@` before a word character (`.env`, `@scope`).
fn is_identifier(core: &str) -> bool {
    let chars: Vec<char> = core.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let inner = chars
        .windows(3)
        .any(|w| word(w[0]) && matches!(w[1], '.' | '/' | '_' | '@') && word(w[2]));
    let leading = matches!(chars.as_slice(), ['.' | '@', c, ..] if word(*c));
    inner || core.starts_with("--") || leading
}

/// The pieces of an identifier: dropped when a bare version, the words of its name when a file
/// name with a known extension, else one token.
fn identifier(core: &str, out: &mut Vec<Piece>) {
    let ident = digits_as_hash(&fold(core.trim_start_matches('.')));
    if is_version(&ident) {
        return;
    }
    // A path keeps its numbers: `release/3.1` and `release/3.0` are two branches.
    let ident = if ident.contains('/') {
        fold(core.trim_start_matches('.'))
    } else {
        ident
    };
    let original = core.trim_start_matches('.');
    if let Some((name, ext)) = ident.split_once('.') {
        let simple = !ext.contains('.') && !ident.contains(['/', '@']);
        if simple && listed(lexicon::FILE_EXTENSIONS, ext) {
            // The original name cut the same way, for its camelCase parts (`UserProfile.tsx`).
            let original_name = original.split('.').next().unwrap_or("");
            let words = name.split(['-', '_']).zip(original_name.split(['-', '_']));
            for (word, original) in words.filter(|(w, _)| !w.is_empty()) {
                out.push(Piece {
                    kind: Kind::Word,
                    text: word.to_owned(),
                    named: true,
                    initial_only: false,
                    code: false,
                    parts: camel_parts(original),
                });
            }
            return;
        }
    }
    out.push(Piece {
        kind: Kind::Ident,
        parts: identifier_parts(&ident, original),
        text: ident,
        named: true,
        initial_only: false,
        code: false,
    });
}

/// The words inside an identifier (folded, digits as `#`; `original` as written): cut at
/// every character that is not a letter or a digit, a file extension ending a name left out
/// (`src/utils.ts`: `src`, `utils`; `.env.local` keeps `env`), and the parts of its camelCase
/// names (`UserCard`: `user`, `card`). None for a scoped package (`@types/express` is not
/// `express`).
fn identifier_parts(ident: &str, original: &str) -> Vec<String> {
    if ident.starts_with('@') && ident.contains('/') {
        return Vec::new();
    }
    let mut parts: Vec<String> = Vec::new();
    for component in ident.split('/') {
        let dotted: Vec<&str> = component.split('.').collect();
        for (n, piece) in dotted.iter().enumerate() {
            // The last piece after a name (a dotfile's name is none: `.env.yml` keeps `env`).
            let extension = n + 1 == dotted.len()
                && dotted[..n].iter().any(|p| !p.is_empty())
                && listed(lexicon::FILE_EXTENSIONS, piece);
            if extension {
                continue;
            }
            parts.extend(
                piece
                    .split(|c: char| !c.is_alphanumeric() && c != '#')
                    .filter(|p| !p.is_empty() && *p != ident)
                    .map(str::to_owned),
            );
        }
    }
    for word in original.split(|c: char| !c.is_alphanumeric()) {
        parts.extend(camel_parts(word));
    }
    parts
}

/// The parts of a camelCase name (cut before a capital that follows a lowercase letter or a
/// digit: `maximumPoolSize`, `BCryptPasswordEncoder`), folded, digits as `#`; none for a word
/// not so cut.
fn camel_parts(original: &str) -> Vec<String> {
    let cut_at =
        |(p, c): (char, char)| c.is_uppercase() && (p.is_lowercase() || p.is_ascii_digit());
    let mut pairs = original.chars().zip(original.chars().skip(1));
    if !pairs.any(cut_at) {
        return Vec::new();
    }
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut previous: Option<char> = None;
    for c in original.chars() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            previous = None;
            continue;
        }
        if previous.is_some_and(|p| cut_at((p, c))) && !current.is_empty() {
            parts.push(std::mem::take(&mut current));
        }
        push_folded(&mut current, c);
        previous = Some(c);
    }
    if !current.is_empty() {
        parts.push(current);
    }
    if parts.len() < 2 {
        parts.clear();
    }
    parts.iter().map(|p| digits_as_hash(p)).collect()
}

/// `v1.4.0`, `2.10`, `v3`, `1.0.0a` (digits already read as `#`).
fn is_version(ident: &str) -> bool {
    let rest = ident.strip_prefix('v').unwrap_or(ident);
    let rest = rest
        .strip_suffix(|c: char| c.is_ascii_lowercase())
        .unwrap_or(rest);
    !rest.is_empty() && rest.split('.').all(|part| part == "#")
}

/// A version written as one (`v4`, `5.0`, `v1.4.0`; digits already read as `#`), not a bare
/// number (`20`, which may count anything).
pub(crate) fn is_written_version(word: &str) -> bool {
    is_version(word) && (word.starts_with("v#") || word.contains('.'))
}

/// Every run of digits as one `#`.
pub(crate) fn digits_as_hash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_digit() || (c.is_numeric() && !c.is_ascii()) {
            if !out.ends_with('#') {
                out.push('#');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The kind of a character inside a word segment, `None` for a separator.
fn kind_of(c: char, previous: Option<Kind>) -> Option<Kind> {
    if is_han(c) {
        Some(Kind::Han)
    } else if is_katakana(c) || (c == 'ー' && previous == Some(Kind::Katakana)) {
        Some(Kind::Katakana)
    } else if is_hiragana(c) {
        Some(Kind::Hiragana)
    } else if is_hangul(c) {
        Some(Kind::Hangul)
    } else if c.is_alphanumeric() || is_mark(c) || is_full_width_alphanumeric(c) {
        Some(Kind::Word)
    } else {
        None
    }
}

/// A full-width digit or letter (`０`, `Ａ`, `ａ`; not `？` `：` `［`, which separate words).
fn is_full_width_alphanumeric(c: char) -> bool {
    matches!(c, '\u{ff10}'..='\u{ff19}' | '\u{ff21}'..='\u{ff3a}' | '\u{ff41}'..='\u{ff5a}')
}

/// The pieces of one whitespace-separated segment that is not an identifier.
fn words(segment: &str, at_start: bool, foreign: bool, out: &mut Vec<Piece>) {
    let mut current = String::new();
    let mut original = String::new();
    let mut kind: Option<Kind> = None;
    let mut flush = |current: &mut String, original: &mut String, kind: &mut Option<Kind>| {
        if let Some(k) = kind.take() {
            if !current.is_empty() {
                let (named, initial_only) = if k == Kind::Word {
                    written_as_name(original, at_start, foreign)
                } else {
                    (false, false)
                };
                let parts = if k == Kind::Word {
                    camel_parts(original)
                } else {
                    Vec::new()
                };
                out.push(Piece {
                    kind: k,
                    text: std::mem::take(current),
                    named,
                    initial_only,
                    code: false,
                    parts,
                });
            }
        }
        current.clear();
        original.clear();
    };
    for c in segment.chars() {
        if matches!(c, '\'' | '’' | '‘' | 'ʼ') && kind == Some(Kind::Word) {
            if ELISIONS.contains(&current.as_str()) {
                flush(&mut current, &mut original, &mut kind);
            }
            continue;
        }
        let Some(k) = kind_of(c, kind) else {
            flush(&mut current, &mut original, &mut kind);
            continue;
        };
        if kind != Some(k) {
            flush(&mut current, &mut original, &mut kind);
            kind = Some(k);
        }
        if k == Kind::Word {
            push_folded(&mut current, c);
        } else {
            current.push(c);
        }
        original.push(c);
    }
    flush(&mut current, &mut original, &mut kind);
}

/// Whether a word was written like a name (see [`Piece::named`]), and whether only for its
/// initial capital (see [`Piece::initial_only`]).
fn written_as_name(original: &str, at_start: bool, foreign: bool) -> (bool, bool) {
    if original.chars().any(is_cyrillic) {
        return (false, false);
    }
    let upper: Vec<usize> = original
        .chars()
        .enumerate()
        .filter(|(_, c)| c.is_uppercase())
        .map(|(i, _)| i)
        .collect();
    let capital = match upper.as_slice() {
        [] => false,
        [0] => !at_start,
        _ => true,
    };
    let latin_in_foreign = foreign && original.chars().all(|c| c.is_ascii_alphabetic());
    let initial_only = capital && upper.len() == 1 && !latin_in_foreign;
    (capital || latin_in_foreign, initial_only)
}

/// The sentences of a question text: cut after `?` `！` `。` `，` (and their ASCII forms), after
/// `.` or `;` followed by a space, and at line breaks. A `，` before a CJK `or` (`…，还是…？`)
/// joins the alternatives of one question.
pub(crate) fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = at + c.len_utf8();
        let cut = match c {
            '，' if starts_with_cjk_or(&text[end..]) => None,
            '?' | '？' | '。' | '!' | '！' | '，' => Some(end),
            '.' | ';' => chars.peek().filter(|(_, n)| n.is_whitespace()).map(|_| end),
            '\n' => Some(at),
            _ => None,
        };
        if let Some(cut) = cut {
            out.push(&text[start..cut]);
            while let Some((_, n)) = chars.peek() {
                if n.is_whitespace() {
                    chars.next();
                } else {
                    break;
                }
            }
            start = chars.peek().map_or(text.len(), |(i, _)| *i);
        }
    }
    out.push(&text[start..]);
    out.retain(|s| !s.trim().is_empty());
    out
}

/// Whether a text begins (past spaces) with a CJK `or` ([`lexicon::CJK_OR_WORDS`]).
fn starts_with_cjk_or(text: &str) -> bool {
    let text = text.trim_start();
    lexicon::CJK_OR_WORDS.iter().any(|o| text.starts_with(o))
}

/// The language of a question: Russian when any word is Cyrillic, else the Latin language whose
/// function words and negations occur most (English on a tie).
pub(crate) fn language(texts: &[&str]) -> Lang {
    let mut counts = [0usize; 5];
    for text in texts {
        for piece in pieces(text) {
            if piece.kind != Kind::Word {
                continue;
            }
            if piece.text.chars().any(is_cyrillic) {
                return Lang::Ru;
            }
            for (n, lang) in Lang::LATIN.iter().enumerate() {
                if listed(lang.stop_words(), &piece.text) || listed(lang.negations(), &piece.text) {
                    counts[n] += 1;
                }
            }
        }
    }
    let mut best = 0;
    for n in 1..counts.len() {
        if counts[n] > counts[best] {
            best = n;
        }
    }
    Lang::LATIN[best]
}

/// An ASCII word's light stem: common English (and Latin) inflections cut (`tests` → `test`,
/// `deploying` → `deploy`, `migration` → `migrat`, `dependencies` → `dependency`), a final `e`
/// and a German `-en` dropped. Other words come back unchanged.
pub(crate) fn stem_latin(word: &str) -> String {
    const SUFFIXES: [(&str, &str, usize); 17] = [
        ("ations", "at", 8),
        ("ation", "at", 7),
        ("ions", "", 7),
        ("ion", "", 6),
        ("ments", "", 8),
        ("ment", "", 7),
        ("ies", "y", 5),
        ("ings", "", 7),
        ("ing", "", 6),
        ("ers", "", 6),
        ("ied", "y", 5),
        ("ed", "", 5),
        ("ches", "ch", 5),
        ("shes", "sh", 5),
        ("xes", "x", 4),
        ("sses", "ss", 5),
        ("s", "", 4),
    ];
    if word.len() <= 3 || !word.is_ascii() {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    for (suffix, replacement, min_len) in SUFFIXES {
        if w.ends_with(suffix)
            && w.len() >= min_len
            && !(suffix == "s" && (w.ends_with("ss") || w.ends_with("us") || w.ends_with("is")))
        {
            w.truncate(w.len() - suffix.len());
            w.push_str(replacement);
            if matches!(suffix, "ing" | "ed" | "ings") {
                undouble(&mut w);
            }
            break;
        }
    }
    if w.ends_with('e') && w.len() >= 5 {
        w.pop();
    }
    if w.ends_with("en") && w.len() >= 7 {
        w.truncate(w.len() - 2);
        undouble(&mut w);
    }
    w
}

/// `committ` → `commit`, `runn` → `run` (not `ll`, `ss`, `zz`).
fn undouble(w: &mut String) {
    let b = w.as_bytes();
    if b.len() >= 4 && b[b.len() - 1] == b[b.len() - 2] && !b"lsz".contains(&b[b.len() - 1]) {
        w.pop();
    }
}

/// A Russian word without its case or verb ending (one of [`lexicon::RU_ENDINGS`], leaving at
/// least three letters).
pub(crate) fn stem_cyrillic(word: &str) -> &str {
    let len = word.chars().count();
    for ending in lexicon::RU_ENDINGS {
        if word.ends_with(ending) && len - ending.chars().count() >= 3 {
            return &word[..word.len() - ending.len()];
        }
    }
    word
}

/// A Russian verb of a borrowed root without its perfective `за-` (`закешировать` →
/// `кешировать`; see [`lexicon::RU_BORROWED_ROOTS`]); other words unchanged.
pub(crate) fn without_perfective_prefix(word: &str) -> &str {
    match word.strip_prefix("за") {
        Some(rest)
            if lexicon::RU_BORROWED_ROOTS
                .iter()
                .any(|r| rest.starts_with(r)) =>
        {
            rest
        }
        _ => word,
    }
}

/// The first `n` characters of `word`.
pub(crate) fn prefix(word: &str, n: usize) -> &str {
    word.char_indices()
        .nth(n)
        .map_or(word, |(at, _)| &word[..at])
}

/// A Korean word without its particle or ending (one of [`lexicon::KO_ENDINGS`]).
pub(crate) fn strip_korean_ending(word: &str) -> &str {
    let len = word.chars().count();
    for ending in lexicon::KO_ENDINGS {
        if word.ends_with(ending) && len > ending.chars().count() {
            return &word[..word.len() - ending.len()];
        }
    }
    word
}

/// Overlapping pairs of characters of a CJK run (a run of one character is itself).
pub(crate) fn bigrams(run: &str, out: &mut Vec<String>) {
    let chars: Vec<char> = run.chars().collect();
    if chars.len() == 1 {
        out.push(run.to_owned());
        return;
    }
    for pair in chars.windows(2) {
        out.push(pair.iter().collect());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_reads_case_accents_and_width_alike() {
        for (text, folded) in [
            ("PostgreSQL", "postgresql"),
            ("Désactiver", "desactiver"),
            ("Straße", "strasse"),
            ("ＤＢ", "db"),
            ("Ёлка", "елка"),
            ("Ação", "acao"),
        ] {
            assert_eq!(fold(text), folded, "{text}");
        }
    }

    #[test]
    fn pieces_cut_words_identifiers_and_cjk() {
        let texts: Vec<(Kind, String, bool)> =
            pieces("Add CHANGELOG.md to src/utils.ts, don't use v1.4.0 or with YAML?")
                .into_iter()
                .map(|p| (p.kind, p.text, p.named))
                .collect();
        let want: Vec<(Kind, String, bool)> = [
            (Kind::Word, "add", false),
            (Kind::Word, "changelog", true),
            (Kind::Word, "to", false),
            (Kind::Ident, "src/utils.ts", true),
            (Kind::Word, "dont", false),
            (Kind::Word, "use", false),
            (Kind::Word, "or", false),
            (Kind::Word, "with", false),
            (Kind::Word, "yaml", true),
        ]
        .into_iter()
        .map(|(k, t, n)| (k, t.to_owned(), n))
        .collect();
        assert_eq!(texts, want);
        let french: Vec<String> = pieces("l'application")
            .into_iter()
            .map(|p| p.text)
            .collect();
        assert_eq!(french, ["l", "application"]);
        // Inside CJK text a Latin word is a name.
        let mixed: Vec<(Kind, String, bool)> = pieces("用 Redis 还是 数据库")
            .into_iter()
            .map(|p| (p.kind, p.text, p.named))
            .collect();
        assert_eq!(mixed[1], (Kind::Word, "redis".to_owned(), true));
        assert_eq!(mixed[3], (Kind::Han, "数据库".to_owned(), false));
    }

    #[test]
    fn identifiers_end_at_a_final_dot_a_bracket_or_full_width_punctuation() {
        let texts = |text: &str| -> Vec<(Kind, String)> {
            pieces(text).into_iter().map(|p| (p.kind, p.text)).collect()
        };
        let ident = |t: &str| (Kind::Ident, t.to_owned());
        let word = |t: &str| (Kind::Word, t.to_owned());
        assert_eq!(
            texts("Add it to .env.local."),
            [word("add"), word("it"), word("to"), ident("env.local")]
        );
        assert_eq!(texts("v1.4.0."), []);
        assert_eq!(
            texts("旧的 config（eslint.config.js）"),
            [
                (Kind::Han, "旧的".to_owned()),
                word("config"),
                ident("eslint.config.js")
            ]
        );
        assert_eq!(
            texts("includes(:author)"),
            [word("includes"), word("author")]
        );
        assert_eq!(
            texts("用 Argon2？"),
            [(Kind::Han, "用".to_owned()), word("argon2")]
        );
        // Full-width letters and digits are still a word.
        assert_eq!(texts("ＤＢ２"), [word("db2")]);
    }

    #[test]
    fn identifiers_and_camel_case_names_keep_their_parts() {
        let parts = |text: &str| -> Vec<Vec<String>> {
            pieces(text).into_iter().map(|p| p.parts).collect()
        };
        assert_eq!(
            parts("src/billing/invoice.ts"),
            [["src", "billing", "invoice"]]
        );
        assert_eq!(parts("STRIPE_SECRET_KEY"), [["stripe", "secret", "key"]]);
        assert_eq!(parts("--amend"), [["amend"]]);
        assert_eq!(parts(".env.local"), [["env", "local"]]);
        assert_eq!(parts("deploy/.env.yml"), [["deploy", "env"]]);
        assert_eq!(parts("maximumPoolSize"), [["maximum", "pool", "size"]]);
        assert_eq!(
            parts("BCryptPasswordEncoder"),
            [["bcrypt", "password", "encoder"]]
        );
        assert_eq!(parts("UserCard.tsx"), [["user", "card"]]);
        assert_eq!(
            parts("src/UserCard.tsx"),
            [vec!["src", "usercard", "user", "card"]]
        );
        // A scoped package is one name; a plain or capitalised word has none.
        assert_eq!(parts("@types/express Python README"), [[""; 0]; 3]);
        // Only a German noun is named for its initial capital alone.
        let named: Vec<(bool, bool)> = pieces("Soll der Workflow laufen, ADR oder GitHub?")
            .into_iter()
            .map(|p| (p.named, p.initial_only))
            .collect();
        let want = [
            (false, false),
            (false, false),
            (true, true),
            (false, false),
            (true, false),
            (false, false),
            (true, false),
        ];
        assert_eq!(named, want);
    }

    #[test]
    fn sentences_split_the_asking_sentence_from_its_context() {
        assert_eq!(
            sentences("React 19.0 is out. Upgrade from v18.2?\nOk"),
            ["React 19.0 is out.", "Upgrade from v18.2?", "Ok"]
        );
        assert_eq!(
            sentences("构建已经就绪，要部署吗？"),
            ["构建已经就绪，", "要部署吗？"]
        );
        // A comma before a CJK `or` joins the alternatives.
        assert_eq!(
            sentences("要保留旧配置，还是改成新的？"),
            ["要保留旧配置，还是改成新的？"]
        );
    }

    #[test]
    fn a_borrowed_verb_loses_its_perfective_prefix_and_a_native_one_keeps_it() {
        assert_eq!(without_perfective_prefix("закешировать"), "кешировать");
        assert_eq!(without_perfective_prefix("задеплоить"), "деплоить");
        assert_eq!(without_perfective_prefix("записать"), "записать");
        assert_eq!(without_perfective_prefix("запустить"), "запустить");
    }

    #[test]
    fn stems_are_light() {
        for (word, stem) in [
            ("tests", "test"),
            ("deploying", "deploy"),
            ("committing", "commit"),
            ("dependencies", "dependency"),
            ("copied", "copy"),
            ("applied", "apply"),
            ("migration", "migrat"),
            ("migrate", "migrat"),
            ("staged", "stag"),
            ("unstaged", "unstag"),
            ("status", "status"),
            ("committen", "commit"),
        ] {
            assert_eq!(stem_latin(word), stem, "{word}");
        }
        assert_eq!(stem_cyrillic("базу"), "баз");
        assert_eq!(strip_korean_ending("파일을"), "파일");
    }

    #[test]
    fn the_language_is_guessed_from_function_words() {
        for (text, lang) in [
            ("Which database should we use?", Lang::En),
            (
                "Welche Datenbank sollen wir für das Projekt verwenden?",
                Lang::De,
            ),
            ("Quelle base de données devons-nous utiliser ?", Lang::Fr),
            ("¿Qué base de datos usamos para el proyecto?", Lang::Es),
            ("Qual banco de dados devemos usar neste projeto?", Lang::Pt),
            ("Какую базу данных использовать?", Lang::Ru),
            ("用哪个数据库？", Lang::En),
        ] {
            assert_eq!(language(&[text]), lang, "{text}");
        }
    }
}
