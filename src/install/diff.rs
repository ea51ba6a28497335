//! The unified line diff `install --dry-run` / `uninstall --dry-run` print (`similar`'s
//! Myers diff: `---`/`+++` headers, `@@` hunks, 3 lines of context).

/// A unified diff of `old` to `new`. Empty when equal.
pub fn unified(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

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
        let old = (1..=20).fold(String::new(), |mut old, n| {
            let _ = writeln!(old, "{n}");
            old
        });
        let new = old.replace("2\n", "two\n").replace("19\n", "nineteen\n");
        let d = unified(&old, &new, "a", "b");
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        let d = unified("", "{\n}\n", "/dev/null", "b");
        assert!(d.contains("@@ -0,0 +1,2 @@\n+{\n+}\n"), "{d}");
    }
}
