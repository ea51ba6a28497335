//! What "the project" of a directory is: the nearest ancestor holding `.git` (a folder or a
//! worktree file), else the directory itself, canonicalised. The hook (from the payload's `cwd`)
//! and `askhook pref --project` both call [`project_root`], so their keys always agree.

use std::path::{Path, PathBuf};

/// The project root of `dir`.
pub fn project_root(dir: &Path) -> PathBuf {
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    canonical
        .ancestors()
        .find(|ancestor| ancestor.join(".git").exists())
        .map(Path::to_path_buf)
        .unwrap_or(canonical)
}

/// The short display name of a project path (its last component).
pub fn short_name(project: &str) -> &str {
    project
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(project)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_nearest_git_ancestor() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap().join("repo");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        assert_eq!(project_root(&root.join("src/deep")), root);
        assert_eq!(project_root(&root), root);
    }

    #[test]
    fn without_git_the_directory_itself() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().canonicalize().unwrap().join("plain");
        std::fs::create_dir_all(&dir).unwrap();
        // An ancestor of a temp dir may itself hold .git on some machines; only assert when not.
        if !dir.ancestors().any(|a| a.join(".git").exists()) {
            assert_eq!(project_root(&dir), dir);
        }
    }

    #[test]
    fn short_names() {
        assert_eq!(short_name("/home/u/proj"), "proj");
        assert_eq!(short_name("/home/u/proj/"), "proj");
        assert_eq!(short_name("proj"), "proj");
    }
}
