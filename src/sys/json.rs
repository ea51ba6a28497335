//! JSON as the CLI prints it: `serde_json` with every [`ui::is_hidden`] character (C0 and C1
//! controls, DEL, bidi overrides and isolates, zero-width and other invisible characters)
//! written as a `\uXXXX` escape. The output stays valid JSON that parses back to exactly the
//! recorded text (a script reading `log --json` gets the same strings), while a terminal that
//! shows it, or a tool that echoes it, never receives the raw character: U+009B alone starts
//! an escape sequence on many terminals, and U+202E reverses what follows.
//!
//! [`Escaping`] is the formatter; the installer uses it too, to keep a settings file written
//! with `\u` escapes pure ASCII.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use super::ui;

/// A `serde_json` formatter that writes the characters `escape` picks as `\uXXXX` (UTF-16
/// units) and leaves the layout to `inner`. `escape` is only asked about DEL and non-ASCII
/// characters (`serde_json` escapes the other controls itself), so ASCII text, nearly all of
/// it, is written with one scan and no call.
pub struct Escaping<F> {
    pub inner: F,
    pub escape: fn(char) -> bool,
}

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {$(
        fn $name<W: ?Sized + io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
            self.inner.$name(w $(, $arg)*)
        }
    )*};
}

impl<F: Formatter> Formatter for Escaping<F> {
    delegate!(
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        begin_object_value(),
        end_object_value(),
    );

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let Some(first) = fragment.bytes().position(|b| b >= 0x7f) else {
            return w.write_all(fragment.as_bytes());
        };
        let mut clean = 0;
        for (at, c) in fragment[first..].char_indices() {
            let at = first + at;
            if (c.is_ascii() && c != '\u{7f}') || !(self.escape)(c) {
                continue;
            }
            w.write_all(&fragment.as_bytes()[clean..at])?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(w, "\\u{unit:04x}")?;
            }
            clean = at + c.len_utf8();
        }
        w.write_all(&fragment.as_bytes()[clean..])
    }
}

/// Write `value` as compact JSON, hidden characters escaped.
pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(out: W, value: &T) -> io::Result<()> {
    let formatter = Escaping {
        inner: CompactFormatter,
        escape: ui::is_hidden,
    };
    value
        .serialize(&mut serde_json::Serializer::with_formatter(out, formatter))
        .map_err(io::Error::other)
}

/// `value` as compact JSON, hidden characters escaped.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(256);
    // Writing to a Vec fails only if a Serialize impl does, which ours never do.
    let _ = to_writer(&mut out, value);
    String::from_utf8(out).unwrap_or_default()
}

/// `value` as indented JSON (two spaces), hidden characters escaped.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::with_capacity(1024);
    let formatter = Escaping {
        inner: PrettyFormatter::new(),
        escape: ui::is_hidden,
    };
    let _ = value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out, formatter,
    ));
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_parse_back() {
        for (name, text, escaped) in [
            ("c1 csi", "a\u{9b}31m", r"a\u009b31m"),
            ("escape", "a\u{1b}[2J", r"a\u001b[2J"),
            ("del", "a\u{7f}", r"a\u007f"),
            ("right-to-left override", "x\u{202E}y", r"x\u202ey"),
            ("zero-width joiner", "r\u{200D}m", r"r\u200dm"),
            ("tag character", "t\u{E0041}", r"t\udb40\udc41"),
            ("plain and wide text", "Deploy 日本 🚀?", "Deploy 日本 🚀?"),
        ] {
            let json = to_string(&text);
            assert_eq!(json, format!("\"{escaped}\""), "{name}");
            let back: String = serde_json::from_str(&json).unwrap();
            assert_eq!(back, text, "{name}: round trip");
            let pretty = to_string_pretty(&vec![text]);
            assert!(
                !pretty.chars().any(|c| c != '\n' && ui::is_hidden(c)),
                "{name}"
            );
            assert_eq!(
                serde_json::from_str::<Vec<String>>(&pretty).unwrap(),
                [text]
            );
        }
    }
}
