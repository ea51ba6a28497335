//! A small unified line diff for `install --dry-run` / `uninstall --dry-run` (settings files are
//! small: a longest-common-subsequence table over lines is plenty, no crate needed).

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// Above this many table cells the diff falls back to "replace everything" (still correct).
const MAX_CELLS: usize = 16_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Keep,
    Del,
    Add,
}

/// The edit script from `a` to `b`: each op with its line indices in `a` and `b`.
fn script(a: &[&str], b: &[&str]) -> Vec<(Op, usize, usize)> {
    let (n, m) = (a.len(), b.len());
    if n.saturating_mul(m) > MAX_CELLS {
        let mut out: Vec<_> = (0..n).map(|i| (Op::Del, i, 0)).collect();
        out.extend((0..m).map(|j| (Op::Add, n, j)));
        return out;
    }
    // lcs[i][j] = LCS length of a[i..] and b[j..].
    let width = m + 1;
    let mut lcs = vec![0u32; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i * width + j] = if a[i] == b[j] {
                lcs[(i + 1) * width + j + 1] + 1
            } else {
                lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n + m);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push((Op::Keep, i, j));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
            out.push((Op::Del, i, j));
            i += 1;
        } else {
            out.push((Op::Add, i, j));
            j += 1;
        }
    }
    out
}

/// A unified diff (`---`/`+++` headers, `@@` hunks, 3 lines of context). Empty when equal.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    if old == new {
        return String::new();
    }
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let ops = script(&a, &b);
    let mut out = format!("--- {old_name}\n+++ {new_name}\n");
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != Op::Keep).collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let hunk = &ops[start..end];
        let a_start = hunk[0].1;
        let b_start = hunk[0].2;
        let a_len = hunk.iter().filter(|o| o.0 != Op::Add).count();
        let b_len = hunk.iter().filter(|o| o.0 != Op::Del).count();
        let pos = |s: usize, len: usize| if len == 0 { s } else { s + 1 };
        out.push_str(&format!(
            "@@ -{},{a_len} +{},{b_len} @@\n",
            pos(a_start, a_len),
            pos(b_start, b_len)
        ));
        for (op, i, j) in hunk {
            match op {
                Op::Keep => out.push_str(&format!(" {}\n", a[*i])),
                Op::Del => out.push_str(&format!("-{}\n", a[*i])),
                Op::Add => out.push_str(&format!("+{}\n", b[*j])),
            }
        }
    }
    if old.ends_with('\n') != new.ends_with('\n') && !old.is_empty() && !new.is_empty() {
        out.push_str("\\ No newline at end of file (changed)\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("a\nb\n", "a\nb\n", "x", "y"), "");
    }

    #[test]
    fn one_hunk_with_context() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let new = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
        let d = unified(old, new, "a", "b");
        assert_eq!(
            d,
            "--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn distant_changes_make_two_hunks_and_new_files_diff_from_nothing() {
        let old: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let new = old.replace("2\n", "two\n").replace("19\n", "nineteen\n");
        let d = unified(&old, &new, "a", "b");
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        let d = unified("", "{\n}\n", "/dev/null", "b");
        assert!(d.contains("@@ -0,0 +1,2 @@\n+{\n+}\n"), "{d}");
    }

    #[test]
    fn applying_the_script_gives_the_new_text() {
        let a = ["x", "a", "b", "c", "y"];
        let b = ["a", "q", "c", "y", "z"];
        let rebuilt: Vec<&str> = script(&a, &b)
            .into_iter()
            .filter(|o| o.0 != Op::Del)
            .map(|(op, i, j)| if op == Op::Keep { a[i] } else { b[j] })
            .collect();
        assert_eq!(rebuilt, b);
    }
}
