//! From a field's text to tokens: the classifier's only view of the words.
//!
//! A field is cut into pieces at spaces and punctuation (a clause boundary is kept where a
//! sentence or clause ends: `.` `?` `!` `;` `,` newlines, parentheses, `&&`, and their CJK
//! forms; a comma inside an aside in parentheses ends none), then each piece becomes tokens:
//! - a run of Han/Kana or Hangul is segmented by longest match against the lexicons' words
//!   (a character no word starts with becomes a token of its own);
//! - a run of another script the classifier has no lexicon for becomes one `Foreign` token;
//! - anything else is read as a command-line or prose word: `-rf` and `--force` are flags,
//!   `0.0.0.0/0` and `777` numbers, `src/a.rs` and URLs paths, `deleteUser`, `drop_table` and
//!   `user.delete()` identifiers (never read as actions), `force-push` two words joined.
//!
//! Invisible characters (zero-width, bidi controls, soft hyphens, variation selectors) are
//! dropped, fullwidth forms read as ASCII, every dash as `-` (an em dash as `--`, as macOS
//! autocorrects it). A word that mixes Latin with Cyrillic or Greek letters has its look-alike
//! letters read as Latin (`dеlеtе` with Cyrillic `е`); a real Cyrillic or Greek word is kept.

use super::fold::{apostrophe_bounds, fold_char_into, fold_key};
use super::lexicon;

/// The script of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Script {
    Latin,
    Cyrillic,
    Greek,
    /// Han or Kana.
    Cjk,
    Hangul,
    /// A script with no lexicon (Arabic, Hebrew, Devanagari, Thai …), by name.
    Other(&'static str),
    /// Digits and symbols only.
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A prose word (letters, maybe digits).
    Word,
    /// A code identifier: `camelCase`, `snake_case`, a call or method.
    Ident,
    /// `-rf`, `--force`, `-Recurse`.
    Flag,
    /// Digits, versions, addresses: `777`, `0.0.0.0/0`.
    Number,
    /// A file path or URL.
    Path,
    /// `*`, `|`, a lone `--` and the like: the key says which.
    Symbol,
    /// A segment of a Han/Kana or Hangul run.
    Segment,
    /// A run of a script without a lexicon.
    Foreign,
}

// The flags are independent facts about one token, read by different rules.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone)]
pub struct Token {
    /// The folded text the lexicons are matched against.
    pub key: String,
    pub kind: Kind,
    pub script: Script,
    pub field: u16,
    /// Clause number inside the field (assigned by [`assign_clauses`]).
    pub clause: u16,
    /// Sentence number inside the field: a new one after `.` `?` `!` (and their CJK forms), a
    /// prose colon or a newline.
    pub sentence: u16,
    /// A `?` (or `？`) follows it: its sentence asks.
    pub asks: bool,
    /// A clause boundary comes right before this token.
    pub boundary: bool,
    /// That boundary is only a list separator (a comma, `、`): it ends the clause only when a
    /// new action follows (see [`assign_clauses`]).
    pub soft: bool,
    /// Byte range in the field's text (for showing evidence).
    pub start: u32,
    pub end: u32,
    /// Dashes before a flag.
    pub dashes: u8,
    /// A short flag's capitals, a bit per letter (`-D` is 1, `-rF` is 2): `git branch -D` is
    /// not `-d`.
    pub caps: u8,
    /// `+`, `:`, `$`, `.` or `~` written right before the word, else 0.
    pub prefix: u8,
    /// Joined to the previous token by a hyphen (`force-push`).
    pub joined: bool,
    /// Inside backticks or a fenced code block.
    pub in_code: bool,
    /// Inside a fenced code block: quoted output or a script, not the question's prose.
    pub fenced: bool,
    /// An identifier written in capitals (`SENDGRID_API_KEY`): a constant or an environment
    /// variable, named for what it holds.
    pub constant: bool,
    /// An identifier written as a call: `deleteAll()`, `db.drop()`.
    pub call: bool,
    /// The short quotation (`« … »`, `“ … ”`, `" … "`) the token stands in, numbered from 1
    /// within its field; 0 outside any.
    pub quote: u16,
    /// Inside an aside in parentheses (`write up the checklist (TestFlight, halting a
    /// rollout)`).
    pub aside: bool,
}

/// What a field's text is made of, for the language detector.
#[derive(Debug, Clone, Default)]
pub struct Letters {
    pub latin: u32,
    pub cyrillic: u32,
    pub greek: u32,
    pub cjk: u32,
    pub kana: u32,
    pub hangul: u32,
    pub other: u32,
    pub other_script: Option<&'static str>,
    /// Characters inside fenced code blocks.
    pub fenced_code: u32,
    /// Letters with marks that tell one Latin-script language from another (`ñ`, `ł`, `ő` …).
    pub marked: Vec<char>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Letter(Script),
    Kana,
    Digit,
    Mark,
    Space,
    Newline,
    Other,
}

fn script_name(u: u32) -> &'static str {
    match u {
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => "hebrew",
        0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            "arabic"
        }
        0x0900..=0x097F => "devanagari",
        0x0980..=0x09FF => "bengali",
        0x0A00..=0x0DFF => "indic",
        0x0E00..=0x0E7F => "thai",
        0x0E80..=0x0EFF => "lao",
        0x0530..=0x058F => "armenian",
        0x10A0..=0x10FF => "georgian",
        0x1200..=0x139F => "ethiopic",
        0x1780..=0x17FF => "khmer",
        0x1000..=0x109F => "myanmar",
        _ => "other",
    }
}

fn class(c: char) -> Class {
    let u = c as u32;
    if c.is_ascii() {
        return match c {
            'a'..='z' | 'A'..='Z' => Class::Letter(Script::Latin),
            '0'..='9' => Class::Digit,
            '\n' => Class::Newline,
            ' ' | '\t' | '\r' => Class::Space,
            _ => Class::Other,
        };
    }
    match u {
        // `・` separates the items of a Japanese list (`返金・解約`): punctuation, not kana.
        0x30FB => return Class::Other,
        0x3040..=0x309F | 0x30A0..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => {
            return Class::Kana
        }
        0x3005
        | 0x3007
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3134F => return Class::Letter(Script::Cjk),
        0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xD7B0..=0xD7FF => {
            return Class::Letter(Script::Hangul)
        }
        0x3000..=0x303F | 0xFF00..=0xFF65 => return Class::Other,
        _ => {}
    }
    match u {
        0x00C0..=0x024F if u != 0xD7 && u != 0xF7 => Class::Letter(Script::Latin),
        0x0250..=0x02AF | 0x1E00..=0x1EFF | 0x2C60..=0x2C7F | 0xA720..=0xA7FF | 0x1D00..=0x1D7F => {
            Class::Letter(Script::Latin)
        }
        0x1D400..=0x1D6A3 | 0x24B6..=0x24E9 | 0xFB00..=0xFB06 | 0x2100..=0x214F
            if c.is_alphabetic() =>
        {
            Class::Letter(Script::Latin)
        }
        0x1D7CE..=0x1D7FF => Class::Digit,
        0x0400..=0x052F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => {
            if unicode_normalization::char::is_combining_mark(c) {
                Class::Mark
            } else {
                Class::Letter(Script::Cyrillic)
            }
        }
        0x0370..=0x03FF | 0x1F00..=0x1FFF if c.is_alphabetic() => Class::Letter(Script::Greek),
        0x3040..=0x309F | 0x30A0..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Class::Kana,
        0x3005
        | 0x3007
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x3134F => Class::Letter(Script::Cjk),
        0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xD7B0..=0xD7FF => {
            Class::Letter(Script::Hangul)
        }
        0x2028 | 0x2029 | 0x0085 => Class::Newline,
        _ if c.is_whitespace() => Class::Space,
        _ if unicode_normalization::char::is_combining_mark(c) => Class::Mark,
        _ if c.is_numeric() => Class::Digit,
        _ if c.is_alphabetic() => Class::Letter(Script::Other(script_name(u))),
        _ => Class::Other,
    }
}

/// Characters that are dropped as if never written.
fn is_invisible(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF9..=0xFFFB | 0xE0000..=0xE007F | 0xE0100..=0xE01EF)
}

/// The characters of a field after the character-level fold: (byte offset, char).
fn prepare(text: &str) -> Vec<(u32, char)> {
    let mut out = Vec::with_capacity(text.len());
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut skip_to = 0;
    for (k, &(at, c)) in chars.iter().enumerate() {
        if k < skip_to {
            continue;
        }
        let at = at as u32;
        if is_invisible(c) {
            continue;
        }
        let next = chars.get(k + 1).map_or(' ', |&(_, n)| n);
        // Markdown escapes (`\-\-force`) and emphasis inside a word (`de**le**te`). A word
        // that starts with two backslashes and a name is a network share
        // (`\\fileserver\finance`), kept whole.
        let unc = c == '\\'
            && next == '\\'
            && out
                .last()
                .is_none_or(|&(_, p): &(u32, char)| !p.is_alphanumeric() && p != '\\')
            && chars.get(k + 2).is_some_and(|&(_, n)| n.is_alphanumeric());
        if c == '\\' && next.is_ascii_punctuation() && !unc {
            continue;
        }
        if c == '*'
            && out
                .last()
                .is_some_and(|&(_, p): &(u32, char)| p.is_alphanumeric())
        {
            let after = chars[k..].iter().map(|&(_, n)| n).find(|&n| n != '*');
            if after.is_some_and(char::is_alphanumeric) {
                continue;
            }
        }
        // HTML tags: `<b>`, `</code>`.
        if c == '<' {
            let tag: String = chars[k + 1..].iter().take(12).map(|&(_, n)| n).collect();
            let name = tag.trim_start_matches('/');
            if let Some(close) = name.find('>') {
                if close > 0 && name[..close].chars().all(|n| n.is_ascii_alphanumeric()) {
                    skip_to = k + 2 + close + usize::from(tag.starts_with('/'));
                    continue;
                }
            }
        }
        let u = c as u32;
        let mapped = match u {
            0xFF01..=0xFF5E => char::from_u32(u - 0xFEE0).unwrap_or(' '),
            0x3000 | 0x00A0 | 0x2000..=0x200A | 0x202F | 0x205F => ' ',
            0x2010..=0x2013 | 0x2212 | 0xFE63 => '-',
            // A spaced em dash joins two clauses (`not on prod — locally`): a lone `-`, a break.
            0x2014 | 0x2015
                if next.is_whitespace() && out.last().is_none_or(|&(_, p)| p == ' ') =>
            {
                '-'
            }
            0x2014 | 0x2015 => {
                out.push((at, '-'));
                '-'
            }
            0x2018 | 0x2019 | 0x201A | 0x201B | 0x2032 => '\'',
            0x201C | 0x201D | 0x201E | 0x00AB | 0x00BB => '"',
            _ => c,
        };
        out.push((at, mapped));
    }
    out
}

/// Look-alike letters of Cyrillic and Greek, as the Latin letter they pass for.
fn latin_look_alike(c: char) -> Option<char> {
    Some(match c {
        'а' | 'А' | 'α' | 'Α' => 'a',
        'в' | 'В' | 'β' | 'Β' | 'ь' => 'b',
        'с' | 'С' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'Е' | 'ё' | 'Ё' | 'ε' | 'Ε' => 'e',
        'һ' | 'Һ' | 'н' | 'Н' | 'Η' => 'h',
        'і' | 'І' | 'ι' | 'Ι' | 'ӏ' | 'Ӏ' => 'i',
        'ј' | 'Ј' => 'j',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'м' | 'М' | 'Μ' => 'm',
        'п' | 'η' | 'Ν' => 'n',
        'о' | 'О' | 'ο' | 'Ο' | 'σ' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'ԛ' => 'q',
        'г' | 'Г' => 'r',
        'ѕ' | 'Ѕ' => 's',
        'т' | 'Т' | 'τ' | 'Τ' => 't',
        'υ' | 'ц' => 'u',
        'ν' => 'v',
        'ԝ' | 'ш' | 'ω' => 'w',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'у' | 'У' | 'γ' | 'Υ' => 'y',
        'ζ' | 'Ζ' => 'z',
        _ => return None,
    })
}

/// Tokenize one field, appending to `out`, and count its letters into `letters`.
pub fn tokenize(text: &str, field: u16, out: &mut Vec<Token>, letters: &mut Letters) {
    let chars = prepare(text);
    let quotes = quote_spans(&chars);
    out.reserve(text.len() / 4);
    let mut t = Tokenizer {
        chars: &chars,
        quotes: &quotes,
        text_len: text.len() as u32,
        field,
        out,
        letters,
        boundary: true,
        soft: false,
        in_code: false,
        fenced: false,
        sentence: 0,
        sentence_ends: false,
        sign: None,
        aside: false,
    };
    t.run();
}

/// Nouns after which a hyphenated name with a number (`dev-ext-04`) names an account.
const ACCOUNT_NOUNS: [&str; 12] = [
    "account",
    "user",
    "username",
    "login",
    "member",
    "contractor",
    "mailbox",
    "cuenta",
    "compte",
    "conta",
    "konto",
    "benutzer",
];

// A tokenizer's state is a handful of independent switches.
#[allow(clippy::struct_excessive_bools)]
struct Tokenizer<'a> {
    chars: &'a [(u32, char)],
    /// For each char, its quotation ([`quote_spans`]).
    quotes: &'a [u16],
    text_len: u32,
    field: u16,
    out: &'a mut Vec<Token>,
    letters: &'a mut Letters,
    boundary: bool,
    /// The pending boundary is only a list separator.
    soft: bool,
    in_code: bool,
    fenced: bool,
    /// The sentence of the next token, and whether one ended before it.
    sentence: u16,
    sentence_ends: bool,
    /// A currency sign written alone before an amount (`R$ 300`, `€ 150`): the next number's.
    sign: Option<&'static str>,
    /// Inside an aside in parentheses, whose commas list names and end no clause:
    /// `connectors (Lightspeed, Square, Toast) still call /v1`.
    aside: bool,
}

/// For each char, the short quotation it stands in (numbered from 1), 0 outside any: `« »`,
/// `„ “`, `“ ”`, `" "`, `‹ ›`, `‘ ’`, `' '`, closed on the same line within 60 characters (a
/// quoted label or phrase, not a quoted paragraph). A single quote opens only after a space or
/// an opening bracket and before a letter, and closes only after a letter and before a space or
/// punctuation, so an apostrophe (`don't`, `users'`) is never one.
fn quote_spans(chars: &[(u32, char)]) -> Vec<u16> {
    let mut out = vec![0u16; chars.len()];
    let mut n = 0u16;
    let at = |i: usize| chars.get(i).map(|&(_, c)| c);
    let single = |c: char| matches!(c, '\'' | '‘' | '’');
    let opens_single = |i: usize| {
        let before = if i == 0 { None } else { at(i - 1) };
        before.is_none_or(|b| b.is_whitespace() || matches!(b, '(' | '[' | '{' | ':'))
            && (at(i + 1).is_some_and(char::is_alphanumeric)
                // A quoted code comment: `'// TODO: …'`, `'# FIXME …'`.
                || matches!((at(i + 1), at(i + 2)), (Some('/'), Some('/')) | (Some('#'), Some(' '))))
    };
    let closes_single = |i: usize| {
        i > 0
            && at(i - 1).is_some_and(|b| !b.is_whitespace())
            && at(i + 1).is_none_or(|a| !a.is_alphanumeric())
    };
    // The opener's index and the closer it waits for.
    let mut open: Option<(usize, char)> = None;
    for (i, &(_, c)) in chars.iter().enumerate() {
        if c == '\n' {
            open = None;
            continue;
        }
        match open {
            Some((from, close))
                if (c == close && (!single(c) || closes_single(i)))
                    || (close == '“' && c == '”')
                    || (close == '’' && c == '\'' && closes_single(i)) =>
            {
                if i - from <= 60 {
                    n = n.saturating_add(1);
                    for q in &mut out[from + 1..i] {
                        *q = n;
                    }
                }
                open = None;
            }
            Some(_) => {}
            None => {
                let close = match c {
                    '«' => '»',
                    '„' => '“',
                    '“' => '”',
                    '"' => '"',
                    '‹' => '›',
                    '「' => '」',
                    '『' => '』',
                    '‘' if opens_single(i) => '’',
                    '\'' if opens_single(i) => '\'',
                    _ => continue,
                };
                open = Some((i, close));
            }
        }
    }
    out
}

/// Commas that separate the items of a list as well as clauses (`，` `、` `､`), and the
/// Japanese middle dot (`返金・解約`).
fn is_list_separator(c: char) -> bool {
    matches!(c, '、' | '，' | '､' | '﹐' | '﹑' | '・' | '･')
}

/// Punctuation that ends a clause wherever it stands.
fn is_hard_boundary(c: char) -> bool {
    matches!(
        c,
        '!' | '?'
            | ';'
            | '。'
            | '！'
            | '？'
            | '；'
            | '：'
            | '（'
            | '）'
            | '【'
            | '】'
            | '…'
            | '¿'
            | '¡'
            | '•'
            | '·'
            | '→'
            | '⇒'
    )
}

impl Tokenizer<'_> {
    fn offset(&self, i: usize) -> u32 {
        self.chars.get(i).map_or(self.text_len, |&(at, _)| at)
    }

    fn run(&mut self) {
        let n = self.chars.len();
        let mut i = 0;
        while i < n {
            let c = self.chars[i].1;
            if c == '`' {
                let mut run = 0;
                while i + run < n && self.chars[i + run].1 == '`' {
                    run += 1;
                }
                if run >= 3 {
                    self.fenced = !self.fenced;
                    self.hard_break();
                } else if !self.in_code && !self.fenced {
                    if let Some(end) = self
                        .quoted_comment(i + run)
                        .or_else(|| self.quoted_test_name(i, i + run))
                    {
                        // Text a question quotes as a comment, or as a test's name, is not
                        // something it will do.
                        self.hard_break();
                        i = end;
                        continue;
                    }
                    self.in_code = true;
                } else {
                    self.in_code = !self.in_code;
                }
                i += run;
                continue;
            }
            if let Some(end) = self.quoted_comment_quote(i) {
                // A quotation the question calls a comment (`the comment '// TODO: wipe
                // prod'`, `「本番DB削除」というコメント`) is that comment's text, not an order.
                self.hard_break();
                i = end;
                continue;
            }
            match class(c) {
                Class::Newline => {
                    self.hard_break();
                    self.sentence_ends = true;
                    i += 1;
                }
                Class::Space => {
                    i += 1;
                }
                Class::Letter(Script::Cjk | Script::Hangul) | Class::Kana => {
                    i = self.east_asian_run(i);
                }
                Class::Letter(Script::Other(name)) => {
                    i = self.foreign_run(i, name);
                }
                _ if is_list_separator(c) => {
                    self.soft_break();
                    i += 1;
                }
                _ if is_hard_boundary(c) => {
                    self.hard_break();
                    self.sentence_ends |= matches!(c, '!' | '?' | '。' | '！' | '？');
                    if matches!(c, '?' | '？') {
                        let field = self.field;
                        if let Some(last) = self.out.last_mut().filter(|t| t.field == field) {
                            last.asks = true;
                        }
                    }
                    i += 1;
                }
                _ => {
                    i = self.chunk(i);
                }
            }
        }
    }

    /// A code span opening at `from` that holds a code comment and is named as one
    /// (`` the `# WARNING: wipes prod` comment ``, or "comment" earlier in its sentence): where
    /// reading should go on (past the closing backtick). A comment span the text does not call
    /// a comment is read as code (`# rm -rf /` may be a root prompt).
    fn quoted_comment(&self, from: usize) -> Option<usize> {
        let n = self.chars.len();
        let close = (from..n).find(|&j| self.chars[j].1 == '`')?;
        self.named_comment(from, close, false).then_some(close + 1)
    }

    /// A code span opening at `from` (its backtick at `tick`) that holds a test's name written
    /// as words (`` the test `sends SMS to all customers` ``, `` the `revokes all tokens` test
    /// ``): where reading should go on (past the closing backtick). A span with a flag, a path
    /// or an operator in it (`npm test -- --grep delete`) is a command, and stays one.
    fn quoted_test_name(&self, tick: usize, from: usize) -> Option<usize> {
        const TEST: &[&str] = &[
            "test",
            "tests",
            "spec",
            "specs",
            "teste",
            "testes",
            "тест",
            "теста",
        ];
        let n = self.chars.len();
        let close = (from..n).find(|&j| self.chars[j].1 == '`')?;
        let inside = &self.chars[from..close];
        let words = inside
            .split(|&(_, c)| c == ' ')
            .filter(|w| !w.is_empty())
            .count();
        let plain = inside
            .iter()
            .all(|&(_, c)| c.is_alphanumeric() || matches!(c, ' ' | '\'' | ','));
        if words < 3 || !plain {
            return None;
        }
        let word_at = |range: &mut dyn Iterator<Item = usize>| -> String {
            let letters: String = range
                .skip_while(|&i| self.chars[i].1 == ' ')
                .map(|i| self.chars[i].1)
                .take_while(|c| c.is_alphabetic())
                .collect();
            fold_key(&letters)
        };
        let before: String = word_at(&mut (0..tick).rev()).chars().rev().collect();
        let after = word_at(&mut (close + 1..n));
        (TEST.contains(&before.as_str()) || TEST.contains(&after.as_str())).then_some(close + 1)
    }

    /// A short quotation opening at `at` (`'// TODO: …'`, `「…」`) that holds a code comment
    /// and is named as one: where reading should go on (past its closer). Japanese and Chinese
    /// brackets need no comment marker inside when a comment word follows them closely
    /// (`「本番DB削除」っていうTODOコメント`).
    fn quoted_comment_quote(&self, at: usize) -> Option<usize> {
        let q = *self.quotes.get(at + 1)?;
        if q == 0 || self.quotes[at] == q || self.in_code || self.fenced {
            return None;
        }
        let close = (at + 1..self.chars.len()).find(|&j| self.quotes[j] != q)?;
        let bracket = matches!(self.chars[at].1, '「' | '『');
        self.named_comment(at + 1, close, bracket)
            .then_some(close + 1)
    }

    /// The text between `from` and `close` is a code comment (it opens with a comment marker,
    /// `TODO` or `FIXME`; or, with `unmarked`, a comment word follows within a few characters)
    /// and the sentence calls it a comment.
    fn named_comment(&self, from: usize, close: usize, unmarked: bool) -> bool {
        const COMMENT: &[&str] = &[
            "comment",
            "kommentar",
            "commentaire",
            "comentario",
            "comentário",
            "коммент",
            "注释",
            "注釋",
            "コメント",
            "주석",
        ];
        let n = self.chars.len();
        let inside: String = self.chars[from..close].iter().map(|&(_, c)| c).collect();
        let inside = inside.trim_start();
        let marked = ["# ", "#!", "// ", "/*", "<!--", "-- "]
            .iter()
            .any(|marker| inside.starts_with(marker))
            || ["todo", "fixme"]
                .iter()
                .any(|w| fold_key(inside.get(..w.len()).unwrap_or("")) == *w);
        if !marked && self.commented_out_before(from) {
            return true;
        }
        if !marked && !unmarked {
            return false;
        }
        if !marked {
            let after: String = self.chars[(close + 1).min(n)..]
                .iter()
                .map(|&(_, c)| c)
                .take(20)
                .take_while(|c| {
                    !matches!(c, '.' | '?' | '!' | '\n' | '。' | '？' | '！' | '，' | '、')
                })
                .collect();
            return COMMENT.iter().any(|c| after.contains(c));
        }
        let mut at = close + 1;
        while at < n && matches!(class(self.chars[at].1), Class::Space) {
            at += 1;
        }
        let word: String = self.chars[at..]
            .iter()
            .map(|&(_, c)| c)
            .take_while(|c| c.is_alphabetic())
            .collect();
        let word = fold_key(&word);
        // Named as a comment right after the span, or earlier in its sentence ("the comment
        // above it still says `// TODO: …`").
        let sentence_start = self.chars[..from.saturating_sub(1)]
            .iter()
            .rposition(|&(_, c)| matches!(c, '.' | '?' | '!' | '\n' | '。' | '？' | '！'))
            .map_or(0, |i| i + 1);
        let before: String = self.chars[sentence_start..from.saturating_sub(1)]
            .iter()
            .map(|&(_, c)| c)
            .collect();
        let before = fold_key(&before);
        COMMENT.iter().any(|c| {
            let c = fold_key(c);
            word.starts_with(&c) || before.contains(&c)
        })
    }

    /// The words right before a quotation opening at `from` call it commented out (`the old
    /// commented-out `DROP TABLE users;` line`, `auskommentierte`, `注释掉的`), and its sentence
    /// does not ask to bring it back (`uncomment`): a line nobody runs.
    fn commented_out_before(&self, from: usize) -> bool {
        // Folded, words spaced: a word starts after a space (`commente` is French `commenté`,
        // never English `commented`).
        const COMMENTED_OUT: &[&str] = &[
            " commented out ",
            " auskommentiert",
            " commente ",
            " commentee",
            " commentes ",
            " comentad",
            " закомментир",
            "注释掉",
            "コメントアウト",
            "주석 처리",
        ];
        const UNCOMMENT: &[&str] = &[
            " uncomment",
            " un comment",
            " einkommentier",
            " decommente",
            " descoment",
            " раскомментир",
            "取消注释",
            "コメントを外",
            "주석 해제",
        ];
        let opener = from.saturating_sub(1);
        let is_end = |c: char| matches!(c, '.' | '?' | '!' | '\n' | '。' | '？' | '！');
        let sentence_start = self.chars[..opener]
            .iter()
            .rposition(|&(_, c)| is_end(c))
            .map_or(0, |i| i + 1);
        let sentence_end = (from..self.chars.len())
            .find(|&i| is_end(self.chars[i].1))
            .unwrap_or(self.chars.len());
        let near = opener.saturating_sub(30).max(sentence_start);
        let spaced = |range: std::ops::Range<usize>| {
            let text: String = self.chars[range]
                .iter()
                .map(|&(_, c)| if c.is_alphanumeric() { c } else { ' ' })
                .collect();
            format!(" {} ", fold_key(&text))
        };
        let before = spaced(near..opener);
        let sentence = spaced(sentence_start..sentence_end);
        COMMENTED_OUT.iter().any(|w| before.contains(w))
            && !UNCOMMENT.iter().any(|w| sentence.contains(w))
    }

    fn push(&mut self, key: String, kind: Kind, script: Script, from: usize, to: usize) -> usize {
        // `4 200 valideurs`, `12 000 клиентов`: thousands grouped by a space are one number.
        if kind == Kind::Number && key.len() == 3 && key.bytes().all(|b| b.is_ascii_digit()) {
            let (start, end, field) = (self.offset(from), self.offset(to), self.field);
            let grouped = |t: &Token| {
                t.kind == Kind::Number
                    && t.field == field
                    && (t.end + 1..=t.end + 3).contains(&start)
                    && t.key.bytes().all(|b| b.is_ascii_digit())
                    && (1..=3).contains(&t.key.len())
            };
            if !self.boundary && !self.sentence_ends && self.sign.is_none() {
                if let Some(last) = self.out.last_mut().filter(|t| grouped(t)) {
                    last.key.push_str(&key);
                    last.end = end;
                    return self.out.len() - 1;
                }
            }
        }
        let key = match self.sign.take() {
            Some(sign) if kind == Kind::Number && key.starts_with(|c: char| c.is_ascii_digit()) => {
                format!("{sign}{key}")
            }
            _ => key,
        };
        let code = self.in_code || self.fenced;
        if self.fenced {
            self.letters.fenced_code += (to - from) as u32;
        }
        if std::mem::take(&mut self.sentence_ends) && !self.out.is_empty() {
            self.sentence = self.sentence.saturating_add(1);
        }
        self.out.push(Token {
            key,
            kind,
            script,
            field: self.field,
            clause: 0,
            sentence: self.sentence,
            asks: false,
            soft: std::mem::take(&mut self.soft) && self.boundary,
            boundary: std::mem::take(&mut self.boundary),
            start: self.offset(from),
            end: self.offset(to),
            dashes: 0,
            caps: 0,
            prefix: 0,
            joined: false,
            in_code: code,
            fenced: self.fenced,
            constant: false,
            call: false,
            quote: self.quotes.get(from).copied().unwrap_or(0),
            aside: self.aside,
        });
        self.out.len() - 1
    }

    /// A run of Han/Kana or Hangul: segmented by longest match.
    fn east_asian_run(&mut self, from: usize) -> usize {
        let n = self.chars.len();
        let mut to = from;
        let hangul = class(self.chars[from].1) == Class::Letter(Script::Hangul);
        while to < n {
            let k = class(self.chars[to].1);
            let same = match k {
                Class::Letter(Script::Hangul) => hangul,
                Class::Letter(Script::Cjk) | Class::Kana => !hangul,
                Class::Mark => true,
                _ => false,
            };
            if !same {
                break;
            }
            match k {
                Class::Kana => self.letters.kana += 1,
                Class::Letter(Script::Hangul) => self.letters.hangul += 1,
                Class::Letter(_) => self.letters.cjk += 1,
                _ => {}
            }
            to += 1;
        }
        let script = if hangul { Script::Hangul } else { Script::Cjk };
        let folded: Vec<String> = self.chars[from..to]
            .iter()
            .map(|&(_, c)| {
                let mut s = String::new();
                fold_char_into(c, &mut s);
                s
            })
            .collect();
        let mut at = 0;
        while at < folded.len() {
            let len = lexicon::longest_segment(&folded[at..]).unwrap_or(1);
            let key: String = folded[at..at + len].concat();
            self.push(key, Kind::Segment, script, from + at, from + at + len);
            at += len;
        }
        to
    }

    fn foreign_run(&mut self, from: usize, name: &'static str) -> usize {
        let n = self.chars.len();
        let mut to = from;
        while to < n
            && matches!(
                class(self.chars[to].1),
                Class::Letter(Script::Other(_)) | Class::Mark
            )
        {
            if matches!(class(self.chars[to].1), Class::Letter(_)) {
                self.letters.other += 1;
            }
            to += 1;
        }
        self.letters.other_script.get_or_insert(name);
        let key: String = self.chars[from..to].iter().map(|&(_, c)| c).collect();
        self.push(key, Kind::Foreign, Script::Other(name), from, to);
        to
    }

    /// A whitespace-delimited chunk of Latin/Cyrillic/Greek text, digits and symbols.
    fn chunk(&mut self, from: usize) -> usize {
        let n = self.chars.len();
        let mut to = from;
        while to < n {
            let c = self.chars[to].1;
            match class(c) {
                Class::Space | Class::Newline => break,
                Class::Letter(Script::Cjk | Script::Hangul | Script::Other(_)) | Class::Kana => {
                    break
                }
                _ if c == '`' || is_hard_boundary(c) => break,
                _ => to += 1,
            }
        }
        // A lone `.` (`git checkout -- .`) and a quoted star (`"*"`) are words of their own.
        let raw = &self.chars[from..to];
        let is_quote = |c: char| matches!(c, '"' | '\'' | ',' | '}' | '{' | ':');
        let bare_star = raw
            .iter()
            .filter(|&&(_, c)| !is_quote(c))
            .map(|&(_, c)| c)
            .eq(std::iter::once('*'));
        let dot = raw.len() == 1 && raw[0].1 == '.';
        // A path stands apart: `git add .`, not the end of `… \`--dry-run\`.` or `…없습니다.`.
        let spaced = from > 0 && self.chars[from - 1].1 == ' ';
        let lone_dot = dot
            && !self.out.is_empty()
            && (spaced && self.chars.get(to).is_some_and(|&(_, c)| c == ' ')
                || self
                    .out
                    .last()
                    .is_some_and(|t| t.kind == Kind::Symbol && t.key == "--"));
        if bare_star || lone_dot {
            let key = if bare_star { "*" } else { "." };
            self.push(key.into(), Kind::Symbol, Script::None, from, to);
            return to;
        }
        // An abbreviation's dot ends nothing: `(ca. 4 % der DAU)`, `e.g. the logs`.
        if is_abbreviation(&self.chars[from..to]) {
            self.piece(from, to - 1);
            return to;
        }
        if raw.first().is_some_and(|&(_, c)| c == '(') && !raw.iter().any(|&(_, c)| c == ')') {
            self.aside = true;
        }
        let closes_aside = raw.iter().any(|&(_, c)| c == ')');
        // Trailing sentence punctuation ends a clause: `data.` `it,` `now:`.
        let mut end = to;
        let mut ends_clause = false;
        let mut ends_sentence = false;
        while end > from
            && matches!(
                self.chars[end - 1].1,
                '.' | ',' | ':' | '"' | '\'' | '*' | '_' | '}' | '{' | ')' | ']'
            )
            && !(self.chars[end - 1].1 == ')' && end - from >= 2 && self.chars[end - 2].1 == '(')
        {
            let colon = self.chars[end - 1].1 == ':' && self.colon_ends_clause(from, end, to);
            let aside_comma = self.chars[end - 1].1 == ',' && self.aside && !closes_aside;
            if matches!(self.chars[end - 1].1, '.' | ',') && !aside_comma || colon {
                ends_clause = true;
                ends_sentence |= self.chars[end - 1].1 != ',';
            }
            if self.chars[end - 1].1 == '*' && end - 1 == from {
                break;
            }
            end -= 1;
        }
        if end > from {
            self.piece(from, end);
        }
        if closes_aside {
            self.aside = false;
        }
        if ends_sentence {
            self.hard_break();
            self.sentence_ends = true;
        } else if ends_clause {
            self.soft_break();
        }
        to
    }

    /// Whether the colon at `end - 1` of the word `from..to` ends a clause: it does in prose
    /// (`Note: this deletes …`), not in code (`a: *`), nor after a quoted key written outside
    /// backticks (`"Principal": "*"`), nor in a security rule written out in prose (`allow
    /// read, write: if true`).
    fn colon_ends_clause(&self, from: usize, end: usize, to: usize) -> bool {
        let json_key = end >= from + 2 && self.chars[end - 2].1 == '"';
        let rule_condition = end == to
            && self.next_word_is(to, "if")
            && ["read", "write", "create", "update", "delete", "get", "list"]
                .iter()
                .any(|w| {
                    self.chars[from..end - 1]
                        .iter()
                        .map(|&(_, c)| c)
                        .eq(w.chars())
                });
        !self.in_code && !self.fenced && !json_key && !rule_condition
    }

    /// Whether the next word after `at` (past spaces) is `word`, written in lowercase.
    fn next_word_is(&self, at: usize, word: &str) -> bool {
        let rest = self.chars[at..].iter().map(|&(_, c)| c);
        let mut rest = rest.skip_while(|c| *c == ' ');
        word.chars().all(|w| rest.next() == Some(w))
            && rest.next().is_none_or(|c| !c.is_alphanumeric())
    }

    /// A boundary that ends the clause whatever follows.
    fn hard_break(&mut self) {
        self.boundary = true;
        self.soft = false;
        self.aside = false;
    }

    /// A list separator: a boundary unless a harder one is already pending.
    fn soft_break(&mut self) {
        if !self.boundary {
            self.soft = true;
        }
        self.boundary = true;
    }

    /// One piece: flag, symbol, number, path, or words.
    fn piece(&mut self, mut from: usize, to: usize) {
        // Markup and quotes around words: **bold**, "quoted", 'quoted'. A path's dunder folder
        // or file is its name (`__snapshots__/flags.test.ts.snap`, `__init__.py`).
        while from < to
            && matches!(
                self.chars[from].1,
                '"' | '\'' | '*' | '_' | '{' | '}' | '<' | '>' | '(' | '['
            )
            && !(self.chars[from].1 == '*' && to - from == 1)
            && !(self.chars[from].1 == '_' && self.is_dunder_path(from, to))
        {
            from += 1;
        }
        if from >= to {
            return;
        }
        // Most pieces are a plain word: no symbol to read.
        if self.chars[from..to]
            .iter()
            .all(|&(_, c)| matches!(class(c), Class::Letter(_) | Class::Mark) || c == '\'')
        {
            self.word(from, to, false);
            return;
        }
        let s: String = self.chars[from..to].iter().map(|&(_, c)| c).collect();
        if self.symbol(&s, from, to) {
            return;
        }
        if s.starts_with('-') {
            return self.flag(from, to);
        }
        if !self.literal(&s, from, to) {
            self.words(from, to);
        }
    }

    /// Symbols and separators: `&&`, `*`, `|`, a lone `--`, a dash between words, `$(`.
    /// Whether the piece was one.
    fn symbol(&mut self, s: &str, from: usize, to: usize) -> bool {
        let key = match s {
            "&&" | "||" | ";" | "=>" | "->" | "-->" | "-" | "—" => {
                self.hard_break();
                return true;
            }
            "$" | "€" | "£" | "¥" | "₹" | "₽" | "₩" | "R$" | "r$" | "US$" | "C$" | "A$"
                if !self.amount_before() =>
            {
                self.sign = Some(if s.ends_with('$') {
                    "$"
                } else {
                    currency_sign(s)
                });
                return true;
            }
            "$" | "€" | "£" | "¥" | "₹" | "₽" | "₩" if self.amount_before() => {
                // `150 €`, `300 ₽`: an amount written with its sign after a space is `€150`.
                let end = self.offset(to);
                let last = self.out.last_mut().expect("an amount is before");
                last.key = format!("{s}{}", last.key);
                last.end = end;
                return true;
            }
            "*" | "\"*\"" | "'*'" => "*",
            "|" => "|",
            "--" => "--",
            _ if s.starts_with("$(") => {
                // Command substitution runs whatever is inside.
                self.push("$(".into(), Kind::Symbol, Script::None, from, from + 2);
                self.piece(from + 2, to);
                return true;
            }
            _ => return false,
        };
        self.push(key.into(), Kind::Symbol, Script::None, from, to);
        true
    }

    /// Whether the last token is a bare number (`150`, `1.200,50`) in the same clause, so a
    /// currency sign after it makes it an amount.
    fn amount_before(&self) -> bool {
        !self.boundary
            && self.out.last().is_some_and(|t| {
                t.kind == Kind::Number
                    && t.field == self.field
                    && t.key.starts_with(|c: char| c.is_ascii_digit())
                    && t.key
                        .chars()
                        .all(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
            })
    }

    /// Flags: `-rf`, `--force`, `-Recurse`, `--dry-run=true`.
    fn flag(&mut self, from: usize, to: usize) {
        let mut dashes = 0;
        let mut at = from;
        while at < to && self.chars[at].1 == '-' {
            dashes += 1;
            at += 1;
        }
        if at < to && matches!(class(self.chars[at].1), Class::Letter(_)) {
            let mut end = at;
            while end < to && self.chars[end].1 != '=' {
                end += 1;
            }
            let name: String = self.chars[at..end]
                .iter()
                .map(|&(_, c)| latin_look_alike(c).unwrap_or(c))
                .collect();
            let i = self.push(fold_key(&name), Kind::Flag, Script::Latin, from, end);
            self.out[i].dashes = dashes.min(2);
            self.out[i].caps = self.chars[at..end]
                .iter()
                .take(8)
                .enumerate()
                .filter(|(_, &(_, c))| c.is_ascii_uppercase())
                .fold(0, |caps, (n, _)| caps | 1 << n);
            // `--ip=0.0.0.0` says what `--ip 0.0.0.0` says: the value is read after the flag.
            if end + 1 < to {
                self.piece(end + 1, to);
            }
        } else if dashes >= 2 && at >= to {
            self.push("--".into(), Kind::Symbol, Script::None, from, to);
        } else {
            self.piece(at, to);
        }
    }

    /// Whether the piece `from..to` stands alone, a space on each side, between a word of
    /// letters (not a word naming a place: `under`, `in` …) and another word of letters.
    fn separates_words(&self, from: usize, to: usize) -> bool {
        const PLACE_WORDS: [&str; 16] = [
            "under", "in", "at", "from", "of", "to", "on", "into", "inside", "within", "below",
            "unter", "dans", "sous", "em", "в",
        ];
        let is_space = |i: usize| self.chars.get(i).is_some_and(|&(_, c)| c == ' ');
        if from == 0 || !is_space(from - 1) || !is_space(to) {
            return false;
        }
        let mut start = from - 1;
        while start > 0 && self.chars[start - 1].1.is_alphabetic() {
            start -= 1;
        }
        // A flag (`-rf /`) is not a word.
        if start > 0 && self.chars[start - 1].1 == '-' {
            return false;
        }
        let before: String = self.chars[start..from - 1]
            .iter()
            .map(|&(_, c)| c)
            .collect();
        let after_letter = self
            .chars
            .get(to + 1)
            .is_some_and(|&(_, c)| c.is_alphabetic());
        !before.is_empty() && after_letter && !PLACE_WORDS.contains(&before.to_lowercase().as_str())
    }

    /// `__snapshots__/x.snap`, `__init__.py`: a piece that starts with a dunder name and goes on
    /// as a path or a file name.
    fn is_dunder_path(&self, from: usize, to: usize) -> bool {
        let piece = &self.chars[from..to];
        let underscores = piece.iter().take_while(|&&(_, c)| c == '_').count();
        underscores == 2
            && piece[2..]
                .windows(3)
                .any(|w| w[0].1 == '_' && w[1].1 == '_' && matches!(w[2].1, '/' | '.'))
    }

    /// Versions, paths and URLs, numbers, amounts of money, dotfiles. Whether the piece was one.
    fn literal(&mut self, s: &str, from: usize, to: usize) -> bool {
        let first = self.chars[from].1;
        // `let`/`const`, `npm`/`pnpm`: a slash between two code spans separates them; it is
        // not the root directory.
        let tick = |i: usize| self.chars.get(i).is_some_and(|&(_, c)| c == '`');
        if s == "/" && !self.in_code && from > 0 && tick(from - 1) && tick(to) {
            return true;
        }
        // `dbt deps / dbt compile`, `SSR / SSG`: a slash standing alone between two words of
        // prose separates them. After a flag, a number or `under` it is the root (`rm -rf /`,
        // `chmod -R 777 /`, `everything under /`).
        if s == "/" && !self.in_code && self.separates_words(from, to) {
            return true;
        }
        let (key, kind) = if matches!(first, 'v' | 'V')
            && s.len() > 1
            && is_number_like(&s[1..])
            && s[1..].contains('.')
        {
            (fold_key(s), Kind::Number)
        } else if s == "/"
            || s.contains("://")
            || (s.contains('/') || s.contains('\\'))
                && s.chars()
                    .any(|c| c.is_alphanumeric() || c == '~' || c == '*')
                && !is_number_like(s)
        {
            (fold_key(s), Kind::Path)
        } else if is_number_like(s) {
            (fold_key(s), Kind::Number)
        } else if let Some(amount) = money(s) {
            (amount, Kind::Number)
        } else if first == '.'
            && s.len() > 1
            && s[1..]
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            // Dotfiles and dot-folders: `.env`, `.next`, `.git`. `.env.production` and
            // `.env.local` are dotenv files like `.env` (its templates, `.env.example`, hold
            // no secrets).
            let key = fold_key(s);
            if dotenv_variant(&key[1..]) {
                (".env".to_owned(), Kind::Path)
            } else {
                (key, Kind::Path)
            }
        } else {
            return false;
        };
        self.push(key, kind, Script::None, from, to);
        true
    }

    /// Words, maybe prefixed (`+main`, `:old`, `$HOME`), dotted (`notes.txt`, `user.delete()`)
    /// or joined by hyphens (`force-push`).
    fn words(&mut self, mut from: usize, to: usize) {
        let first = self.chars[from].1;
        let prefix = match first {
            '+' | ':' | '$' | '.' | '~' | '@' | '#' if to - from > 1 => {
                from += 1;
                first as u8
            }
            _ => 0,
        };
        // A handle (`@lucia-dev`) names one person, and so does a hyphenated name with a
        // number right after an account noun (`account dev-ext-04`): its parts are no places
        // or actions. A server's name (`prod-db-2`) keeps its place.
        let hyphenated_name = self.chars[from..to].iter().any(|&(_, c)| c == '-')
            && self.chars[from..to]
                .iter()
                .all(|&(_, c)| c.is_alphanumeric() || matches!(c, '-' | '_'));
        let after_account_noun = || {
            self.chars[from..to]
                .iter()
                .any(|&(_, c)| c.is_ascii_digit())
                && self
                    .out
                    .last()
                    .is_some_and(|t| ACCOUNT_NOUNS.contains(&t.key.as_str()))
        };
        if hyphenated_name && (prefix == b'@' || after_account_noun()) {
            let key = fold_key(
                &self.chars[from..to]
                    .iter()
                    .map(|&(_, c)| c)
                    .collect::<String>(),
            );
            let i = self.push(key, Kind::Ident, Script::Latin, from, to);
            self.out[i].prefix = prefix;
            return;
        }
        let call = self.chars[from..to]
            .windows(2)
            .any(|w| w[1].1 == '(' && (w[0].1.is_alphanumeric() || w[0].1 == '_'));
        if self.chars[from..to]
            .iter()
            .any(|&(_, c)| c == '.' || c == ':')
        {
            let key = fold_key(
                &self.chars[from..to]
                    .iter()
                    .map(|&(_, c)| c)
                    .collect::<String>(),
            );
            let kind = if call || !looks_like_file(&key) {
                Kind::Ident
            } else {
                Kind::Path
            };
            let i = self.push(key, kind, Script::Latin, from, to);
            self.out[i].prefix = prefix;
            self.out[i].call = call;
            return;
        }
        let mut start = from;
        let mut joined = false;
        let mut first_word = true;
        for at in from..=to {
            let boundary_char = at == to || {
                let c = self.chars[at].1;
                !(matches!(class(c), Class::Letter(_) | Class::Digit | Class::Mark)
                    || c == '_'
                    || c == '\'')
            };
            if !boundary_char {
                continue;
            }
            if at > start {
                if let Some(i) = self.word(start, at, call) {
                    self.out[i].joined = joined;
                    if first_word {
                        self.out[i].prefix = prefix;
                    }
                    first_word = false;
                }
            }
            joined = at < to && self.chars[at].1 == '-';
            start = at + 1;
        }
    }

    /// One word (letters, digits, `_`, inner apostrophes) from `from` to `to`.
    fn word(&mut self, from: usize, to: usize, call: bool) -> Option<usize> {
        let (trim_from, trim_to) = apostrophe_bounds(to - from, |i| self.chars[from + i].1);
        let (from, to) = (from + trim_from, from + trim_to);
        let word: &[(u32, char)] = &self.chars[from..to];
        if word.iter().all(|&(_, c)| c == '\'' || c == '_') {
            return None;
        }
        let (mut latin, mut cyrillic, mut greek, mut digits) = (0, 0, 0, 0);
        for &(_, c) in word {
            match class(c) {
                Class::Letter(Script::Latin) => latin += 1,
                Class::Letter(Script::Cyrillic) => cyrillic += 1,
                Class::Letter(Script::Greek) => greek += 1,
                Class::Digit => digits += 1,
                _ => {}
            }
            if !c.is_ascii() && lexicon::is_marked_letter(c) {
                self.letters.marked.push(c);
            }
        }
        let mixed = latin > 0 && (cyrillic > 0 || greek > 0);
        let script = if mixed || (latin >= cyrillic && latin >= greek && latin > 0) {
            Script::Latin
        } else if cyrillic >= greek && cyrillic > 0 {
            Script::Cyrillic
        } else if greek > 0 {
            Script::Greek
        } else {
            Script::None
        };
        match script {
            Script::Latin => self.letters.latin += latin + cyrillic + greek,
            Script::Cyrillic => self.letters.cyrillic += cyrillic,
            Script::Greek => self.letters.greek += greek,
            _ => {}
        }
        let mut key = String::with_capacity(word.len());
        for &(_, c) in word {
            let c = if mixed {
                latin_look_alike(c).unwrap_or(c)
            } else {
                c
            };
            fold_char_into(c, &mut key);
        }
        // An identifier names more than an action: `deleteUser` is a name, `delEte` or
        // `DecommissION` an action written oddly. Identifiers are written in Latin letters: a
        // Cyrillic `табЛицу` is a word in odd case. A word three quarters made of an action
        // stem is that action (`umsTelLen` is `umstell*`), not a name built on it; so is one
        // three quarters made of any word or stem of a term, or that stem and a short ending
        // (`logGen`: `logg*` + `en`).
        let camel = script == Script::Latin
            && is_camel_case(word.iter().map(|&(_, c)| c))
            && camel_parts_known(word)
            && !lexicon::is_exact_word(&key)
            && !mostly_a_known_stem(&key);
        let snake = word.iter().any(|&(_, c)| c == '_');
        let kind = if camel || snake || call {
            Kind::Ident
        } else if script == Script::None && digits > 0 {
            Kind::Number
        } else {
            Kind::Word
        };
        let i = self.push(key, kind, script, from, to);
        self.out[i].call = call && kind == Kind::Ident;
        self.out[i].constant = snake && !word.iter().any(|&(_, c)| c.is_lowercase());
        Some(i)
    }
}

/// The static form of a one-character currency sign.
fn currency_sign(s: &str) -> &'static str {
    ["€", "£", "¥", "₹", "₽", "₩"]
        .into_iter()
        .find(|&c| c == s)
        .unwrap_or("$")
}

/// `$20`, `€5`, `5€`, `£1.2k` as `$20` …: the currency sign first, then the digits.
fn money(s: &str) -> Option<String> {
    let signs = ['$', '€', '£', '¥', '₹', '₽', '₩'];
    let (sign, rest) = match s.chars().next() {
        Some(c) if signs.contains(&c) => (c, &s[c.len_utf8()..]),
        _ => match s.chars().last() {
            Some(c) if signs.contains(&c) => (c, &s[..s.len() - c.len_utf8()]),
            _ => return None,
        },
    };
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
        .collect();
    digits.chars().next().filter(char::is_ascii_digit)?;
    Some(format!("{sign}{digits}"))
}

/// An identifier is made of words: `deleteUser` has a part the lexicons know; `upgRaden` (a
/// word in odd case) has none.
/// Whether `key` is an action stem or a lexicon word or stem with little after it: three
/// quarters of its letters, or all but an inflection's three (`loggen`, `umstellen`), so a
/// word typed in odd case is read as that word. `deleteuser` (`delet` + `euser`) is not.
fn mostly_a_known_stem(key: &str) -> bool {
    let stem = lexicon::action_stem_len(key).max(lexicon::word_stem_len(key));
    stem > 0 && (stem * 4 >= key.len() * 3 || key.len() - stem <= 3)
}

fn camel_parts_known(word: &[(u32, char)]) -> bool {
    let mut part = String::new();
    let mut known = false;
    for (i, &(_, c)) in word.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            known |= lexicon::is_exact_word(&part);
            part.clear();
        }
        part.extend(c.to_lowercase());
    }
    known || lexicon::is_exact_word(&part)
}

/// `deleteUser`, `DropTable`, `purgeCache`, `deletedAt`… but not `DrOpPiNg`, `dRoP` or
/// `getHTTP`: two parts or more, each of three letters or more (the last may be one of the
/// two-letter suffixes names end with: `At`, `Id`, `By`), every part after the first a capital
/// followed by lowercase letters only.
fn is_camel_case(word: impl Iterator<Item = char>) -> bool {
    // (letters, lowercase after the first, the part's text while it is short)
    let mut parts: Vec<(usize, bool, String)> = vec![(0, true, String::new())];
    for c in word {
        if !c.is_alphabetic() {
            return false;
        }
        let last = parts.len() - 1;
        if c.is_uppercase() && parts[last].0 > 0 {
            parts.push((1, true, c.to_string()));
        } else {
            parts[last].0 += 1;
            if parts[last].0 > 1 && c.is_uppercase() {
                parts[last].1 = false;
            }
            if parts[last].0 <= 2 {
                parts[last].2.push(c);
            }
        }
    }
    let n = parts.len();
    n >= 2
        && parts.iter().enumerate().all(|(i, (len, lower, text))| {
            *lower && (*len >= 3 || i == n - 1 && matches!(text.as_str(), "At" | "Id" | "By"))
        })
}

/// `env.production`, `env.staging` (after the dot): a real dotenv file, not a template, and not
/// a developer's own local one (`env.local`, `env.development`: the `local` place, where setting
/// a variable is local work; committing, pushing or pasting one is `expose-secret` by its name).
fn dotenv_variant(key: &str) -> bool {
    key.strip_prefix("env.").is_some_and(|rest| {
        !rest.is_empty()
            && !rest.contains(['.', '/'])
            && !matches!(
                rest,
                "example"
                    | "sample"
                    | "template"
                    | "dist"
                    | "defaults"
                    | "local"
                    | "development"
                    | "dev"
                    | "test"
            )
    })
}

fn is_number_like(s: &str) -> bool {
    let mut digits = 0;
    for c in s.chars() {
        match c {
            '0'..='9' => digits += 1,
            '.' | '/' | ':' | '%' | '$' | '+' | ',' | 'x' | 'k' | 'm' | 'g' | 'b' => {}
            _ => return false,
        }
    }
    digits > 0 || s == "::/0"
}

fn looks_like_file(key: &str) -> bool {
    let Some((stem, ext)) = key.rsplit_once('.') else {
        return false;
    };
    (stem.is_empty() || !stem.ends_with('.'))
        && (1..=6).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        && !ext.chars().all(|c| c.is_ascii_digit())
}

/// Number the clauses of every field: a new clause at each boundary and at each `break` word.
/// What a lexicon word does to the clause it stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    None,
    /// `then`, `afterwards`: a new clause.
    Hard,
    /// `and`, `as well as`: a new clause only when a new action follows.
    Join,
}

pub fn assign_clauses(tokens: &mut [Token], breaks: &[Break], actions: &[bool]) {
    let is_break =
        |i: usize, t: &Token| t.boundary || breaks.get(i).is_some_and(|b| *b != Break::None);
    let mut clause = 0u16;
    let mut field = u16::MAX;
    for i in 0..tokens.len() {
        let t = &tokens[i];
        if t.field != field {
            field = t.field;
            clause = 0;
        } else if is_break(i, t) {
            let hard = breaks.get(i) == Some(&Break::Hard) || (t.boundary && !t.soft);
            // A list separator or `and` ends the clause only when a new action follows before
            // the next boundary: `delete the cache, the logs and the users table` is one.
            let acts = || {
                (i..tokens.len())
                    .take_while(|&j| {
                        j == i || (tokens[j].field == field && !is_break(j, &tokens[j]))
                    })
                    .any(|j| actions.get(j).copied().unwrap_or(false))
            };
            if hard || acts() {
                clause = clause.saturating_add(1);
            }
        }
        tokens[i].clause = clause;
    }
}

/// A word written as a common abbreviation with its dot (`ca.`, `z.B.`, `e.g.`, `p.ej.`), whose
/// dot ends neither a clause nor a sentence. (`etc.` and `usw.` often end one: not listed.)
fn is_abbreviation(raw: &[(u32, char)]) -> bool {
    const ABBREVIATIONS: [&str; 19] = [
        "approx", "aprox", "bzw", "ca", "cf", "d.h", "e.g", "env", "evtl", "ggf", "i.e", "incl",
        "inkl", "p.ej", "p.ex", "u.a", "vs", "z.b", "z.t",
    ];
    let Some((&(_, '.'), word)) = raw.split_last() else {
        return false;
    };
    let word: String = word.iter().flat_map(|&(_, c)| c.to_lowercase()).collect();
    ABBREVIATIONS.contains(&word.trim_start_matches(['(', '[', '"', '\'']))
}
