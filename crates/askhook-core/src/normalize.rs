//! Text folding for the one-way-door classifier: an NFKC-ish fold, so that look-alike spellings
//! of a destructive command read the same as the plain one. Which character reads as which is
//! data (`data/look-alikes.txt`, a sorted table built by `build.rs`); this file holds the
//! families that map by arithmetic.
//!
//! [`fold_into`] appends a folded copy of its input where:
//! - zero-width, bidi-control, soft-hyphen, variation-selector and tag characters are removed;
//! - combining marks are removed and common accented Latin letters lose their accent;
//! - fullwidth forms, mathematical alphanumerics, circled and small-capital letters, letterlike
//!   symbols and ligatures become plain ASCII;
//! - Cyrillic and Greek letters that look like Latin ones become those Latin letters;
//! - every Unicode dash becomes `-` (an em dash becomes `--`, as macOS autocorrects `--` into it),
//!   every Unicode space becomes ` `, curly quotes become straight ones;
//! - inline markup (`` ` ``, `*`, `~`, `\`) is removed, so `` `rm -rf` `` and `de**le**te`
//!   read as `rm -rf` and `delete`;
//! - everything is lowercased.
//!
//! It is a fold for matching, never for display: the folded text is not shown to anyone except
//! by `askhook classify`, to explain a verdict. It is allocation-free beyond the output buffer
//! and runs in well under a microsecond per hundred bytes.

/// Append the folded form of `text` to `out`.
pub fn fold_into(text: &str, out: &mut String) {
    out.reserve(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            match c {
                '`' | '*' | '~' | '\\' => {}
                _ => out.push(c.to_ascii_lowercase()),
            }
            continue;
        }
        fold_char(c, out);
    }
}

/// The folded form of `text`.
pub fn fold(text: &str) -> String {
    let mut out = String::new();
    fold_into(text, &mut out);
    out
}

/// Fold one non-ASCII character: invisible ones and combining marks go, families laid out in
/// Unicode order (fullwidth, mathematical, circled, squared letters) map by arithmetic, and the
/// rest come from the look-alike table (`data/look-alikes.txt`, sorted by `build.rs`).
fn fold_char(c: char, out: &mut String) {
    let u = c as u32;
    // Invisible: zero-width, bidi controls, soft hyphen, joiners, variation selectors, tags.
    if matches!(u,
        0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
        | 0xFEFF | 0xFFA0 | 0xFFF9..=0xFFFB | 0x1D173..=0x1D17A | 0xE0000..=0xE007F
        | 0xE0100..=0xE01EF)
    {
        return;
    }
    // Combining marks (accents written as separate code points).
    if matches!(u, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
    {
        return;
    }
    // Fullwidth ASCII.
    if (0xFF01..=0xFF5E).contains(&u) {
        let ascii = char::from_u32(u - 0xFEE0).unwrap_or(' ');
        return fold_into(ascii.encode_utf8(&mut [0; 4]), out);
    }
    // Mathematical alphanumeric symbols: 𝐝𝐞𝐥𝐞𝐭𝐞, 𝘥𝘦𝘭𝘦𝘵𝘦, 𝚍𝚎𝚕𝚎𝚝𝚎 …
    if (0x1D400..=0x1D6A3).contains(&u) {
        let i = ((u - 0x1D400) % 52) as u8;
        out.push(if i < 26 { b'a' + i } else { b'a' + i - 26 } as char);
        return;
    }
    if (0x1D7CE..=0x1D7FF).contains(&u) {
        out.push((b'0' + ((u - 0x1D7CE) % 10) as u8) as char);
        return;
    }
    // Circled and parenthesised letters: ⓓⓔⓛⓔⓣⓔ, ⒟.
    if (0x24B6..=0x24CF).contains(&u) {
        out.push((b'a' + (u - 0x24B6) as u8) as char);
        return;
    }
    if (0x24D0..=0x24E9).contains(&u) {
        out.push((b'a' + (u - 0x24D0) as u8) as char);
        return;
    }
    if (0x249C..=0x24B5).contains(&u) {
        out.push((b'a' + (u - 0x249C) as u8) as char);
        return;
    }
    // Regional indicators and squared letters: 🇩🇪, 🄳.
    if (0x1F1E6..=0x1F1FF).contains(&u) {
        out.push((b'a' + (u - 0x1F1E6) as u8) as char);
        return;
    }
    if (0x1F130..=0x1F149).contains(&u) || (0x1F170..=0x1F189).contains(&u) {
        let base = if u >= 0x1F170 { 0x1F170 } else { 0x1F130 };
        out.push((b'a' + (u - base) as u8) as char);
        return;
    }
    match LOOK_ALIKES.binary_search_by_key(&c, |(k, _)| *k) {
        Ok(at) => out.push_str(LOOK_ALIKES[at].1),
        Err(_) => out.extend(c.to_lowercase()),
    }
}

include!(concat!(env!("OUT_DIR"), "/look_alikes.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    const CASES: &[(&str, &str, &str)] = &[
        (
            "plain ascii is lowercased",
            "Force-Push NOW",
            "force-push now",
        ),
        ("zero-width space inside a word", "de\u{200B}lete", "delete"),
        ("zero-width joiner and BOM", "\u{FEFF}dro\u{200D}p", "drop"),
        ("bidi override", "\u{202E}rm\u{202C} -rf", "rm -rf"),
        ("soft hyphen", "de\u{00AD}lete", "delete"),
        ("fullwidth letters and dashes", "ｒｍ　－ｒｆ", "rm -rf"),
        ("cyrillic look-alikes", "dеlеtе", "delete"),
        ("cyrillic capitals", "DЕLЕТЕ", "delete"),
        ("greek look-alikes", "fοrce-push", "force-push"),
        ("ligature", "ﬁles", "files"),
        ("math bold", "𝐝𝐞𝐥𝐞𝐭𝐞", "delete"),
        ("math monospace", "𝚛𝚖 -𝚛𝚏", "rm -rf"),
        ("circled letters", "ⓓⓡⓞⓟ", "drop"),
        ("small capitals", "ᴅᴇʟᴇᴛᴇ", "delete"),
        ("combining accent", "de\u{0301}lete", "delete"),
        ("precomposed accent", "délète", "delete"),
        ("em dash reads as two dashes", "push —force", "push --force"),
        ("en dash reads as one", "rm –rf", "rm -rf"),
        (
            "backticks and emphasis",
            "`git push --force` **now**",
            "git push --force now",
        ),
        ("emphasis inside a word", "de**le**te", "delete"),
        ("escaped dashes", "push \\-\\-force", "push --force"),
        ("non-breaking space", "rm\u{00A0}-rf", "rm -rf"),
        ("variation selector", "drop\u{FE0F}", "drop"),
        ("tag characters", "wi\u{E0041}pe", "wipe"),
        ("kelvin sign", "\u{212A}ubectl", "kubectl"),
    ];

    #[test]
    fn folds_look_alikes_to_plain_text() {
        for (name, input, want) in CASES {
            assert_eq!(fold(input), *want, "{name}");
        }
    }

    #[test]
    fn other_scripts_pass_through_lowercased() {
        assert_eq!(fold("Löschen"), "loschen");
        assert_eq!(fold("削除しますか"), "削除しますか");
    }
}
