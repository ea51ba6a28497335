//! Text written to slip past a reader of words: digits for letters (`dr0p`, `w1pe`,
//! `trunc4te`) and words spelled out letter by letter (`d r o p`, `d.r.o.p`, `d-e-l-e-t-e`).
//! The classifier reads such a question a second time, respelled; a respelling can only make a
//! verdict stricter, never lift one.

use super::Role;

/// Respelled copies of the fields (1 read as `l`, then as `i`), none when nothing needs it.
pub fn variants(fields: &[(Role, &str)]) -> Vec<Vec<(Role, String)>> {
    let mut out: Vec<Vec<(Role, String)>> = Vec::new();
    // Cheap test first: a digit next to a letter, or a lone letter before a space, dot or dash.
    let suspicious = fields.iter().any(|(_, t)| {
        let b = t.as_bytes();
        b.windows(2).any(|w| {
            (w[0].is_ascii_digit() && w[1].is_ascii_alphabetic())
                || (w[0].is_ascii_alphabetic() && w[1].is_ascii_digit())
        }) || (0..b.len().saturating_sub(2)).any(|i| {
            let lone = |k: usize| {
                b[k].is_ascii_alphabetic()
                    && (k == 0 || !b[k - 1].is_ascii_alphanumeric())
                    && b.get(k + 1).is_none_or(|c| !c.is_ascii_alphanumeric())
            };
            lone(i) && matches!(b[i + 1], b' ' | b'.' | b'-') && lone(i + 2)
        })
    });
    if !suspicious {
        return out;
    }
    for one in ['l', 'i'] {
        let mut changed = false;
        let respelled: Vec<(Role, String)> = fields
            .iter()
            .map(|(role, text)| {
                let joined = join_spelled_out(text);
                let unleet = unleet(joined.as_deref().unwrap_or(text), one);
                changed |= joined.is_some() || unleet.is_some();
                (
                    *role,
                    unleet.or(joined).unwrap_or_else(|| (*text).to_owned()),
                )
            })
            .collect();
        if changed && out.last() != Some(&respelled) {
            out.push(respelled);
        }
    }
    out
}

/// Digits (and `@`, `$`) read as the letters they stand for, inside words that mix them with
/// letters. `None` when there is no such word.
fn unleet(text: &str, one: char) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !(chars[i].is_alphanumeric() || matches!(chars[i], '@' | '$')) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '@' | '$')) {
            i += 1;
        }
        let word = &chars[start..i];
        let letters = word.iter().filter(|c| c.is_alphabetic()).count();
        let digits = word.len() - letters;
        if letters >= 2 && digits >= 1 && digits * 2 <= word.len() {
            let before = out.len();
            out.extend(word.iter().map(|&c| match c {
                '0' => 'o',
                '1' => one,
                '3' => 'e',
                '4' | '@' => 'a',
                '5' | '$' => 's',
                '7' => 't',
                '8' => 'b',
                c => c,
            }));
            changed |= out[before..].chars().ne(word.iter().copied());
        } else {
            out.extend(word);
        }
    }
    changed.then_some(out)
}

/// Runs of single letters separated by one space, dot or hyphen (`d r o p`) joined into a
/// word. `None` when there is no such run of two letters or more.
fn join_spelled_out(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let is_single = |i: usize| {
        chars[i].is_alphabetic()
            && (i == 0 || !chars[i - 1].is_alphanumeric())
            && chars.get(i + 1).is_none_or(|c| !c.is_alphanumeric())
    };
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut i = 0;
    while i < chars.len() {
        if is_single(i) {
            // Collect letter (sep letter)*.
            let mut j = i;
            let mut letters = vec![chars[i]];
            while j + 2 < chars.len() && matches!(chars[j + 1], ' ' | '.' | '-') && is_single(j + 2)
            {
                letters.push(chars[j + 2]);
                j += 2;
            }
            // Two letters are initials (`r.m.`, `e.g.`) unless a flag follows (`r m -rf`).
            let flag_follows = chars.get(j + 1) == Some(&' ') && chars.get(j + 2) == Some(&'-');
            if letters.len() >= 3 || letters.len() == 2 && flag_follows && chars[i + 1] == ' ' {
                changed = true;
                out.extend(letters);
                i = j + 1;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn respellings() {
        assert_eq!(
            super::unleet("dr0p the 0rders", 'l').as_deref(),
            Some("drop the orders")
        );
        assert_eq!(super::unleet("w1pe", 'i').as_deref(), Some("wipe"));
        assert_eq!(super::unleet("use s3 and ec2", 'l'), None);
        assert_eq!(super::unleet("plain words", 'l'), None);
        assert_eq!(
            super::join_spelled_out("d r o p table").as_deref(),
            Some("drop table")
        );
        assert_eq!(
            super::join_spelled_out("d.r.o.p it").as_deref(),
            Some("drop it")
        );
        assert_eq!(
            super::join_spelled_out("d-e-l-e-t-e the branch").as_deref(),
            Some("delete the branch")
        );
        assert_eq!(
            super::join_spelled_out("r m -rf build").as_deref(),
            Some("rm -rf build")
        );
        assert_eq!(super::join_spelled_out("a plan"), None);
        assert_eq!(
            super::join_spelled_out("ask r.m. the owner, e.g. by mail"),
            None
        );
    }
}
