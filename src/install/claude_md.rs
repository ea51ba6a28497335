//! askhook's block in the user's `CLAUDE.md` (`$CLAUDE_CONFIG_DIR/CLAUDE.md`, else
//! `~/.claude/CLAUDE.md`), opt-in with `askhook install --claude-md`: a few lines asking the
//! agent to end a recurring question with a stable `<askhook-qid:ID>` marker, the one identity
//! that survives any rewording. `askhook uninstall` removes exactly that block, between its
//! two marker comments, and nothing else; `doctor` says whether it is there.
//!
//! The edit is pure ([`with_block`], [`without_block`]); the file is backed up before each
//! change and written atomically, like the settings file.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::sys::fsutil;

/// The first line of the block.
pub const BEGIN: &str =
    "<!-- askhook:begin (added by `askhook install --claude-md`; `askhook uninstall` removes it) -->";
/// The last line of the block.
pub const END: &str = "<!-- askhook:end -->";

/// What the block asks of the agent.
pub const BODY: &str = "\
## Questions you may ask again (askhook)

When you ask the user a question with AskUserQuestion that could come up again in another
session (a recurring choice: a tool, a style, a routine step; not a one-off), end the question
text with a stable marker `<askhook-qid:ID>`, where ID is a short kebab-case name for the
decision: `<askhook-qid:test-runner>`, `<askhook-qid:commit-message-style>`. Use the same ID every
time you ask that decision, however you word it, and another ID for another decision
(`unit-test-runner` and `e2e-test-runner` are two). Mark the option you recommend with
`(Recommended)`. The user's hook, askhook, remembers their answers by that ID.";

/// The user's `CLAUDE.md`.
pub fn path(claude_config_dir: &Path) -> PathBuf {
    claude_config_dir.join("CLAUDE.md")
}

/// The byte range of the block (its two marker lines included), if the text has it.
fn span(text: &str) -> Option<(usize, usize)> {
    let start = text.find(BEGIN)?;
    let end = text[start..].find(END)? + start + END.len();
    Some((start, end))
}

/// Whether `text` holds askhook's block.
pub fn has_block(text: &str) -> bool {
    span(text).is_some()
}

/// `text` with askhook's block, current: appended after a blank line, or the old one replaced.
pub fn with_block(text: &str) -> String {
    let block = format!("{BEGIN}\n{BODY}\n{END}");
    if let Some((start, end)) = span(text) {
        return format!("{}{block}{}", &text[..start], &text[end..]);
    }
    let mut out = text.trim_end_matches('\n').to_owned();
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(&block);
    out.push('\n');
    out
}

/// `text` without askhook's block (and the blank line put before it); `None` when absent.
pub fn without_block(text: &str) -> Option<String> {
    let (start, end) = span(text)?;
    let before = text[..start].trim_end_matches('\n');
    let after = text[end..].trim_start_matches('\n');
    Some(match (before.is_empty(), after.is_empty()) {
        (true, _) => after.to_owned(),
        (false, true) => format!("{before}\n"),
        (false, false) => format!("{before}\n\n{after}"),
    })
}

/// One change to the file: what it was and what it becomes (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub path: PathBuf,
    pub old: Option<String>,
    pub new: Option<String>,
}

impl Edit {
    pub fn changes(&self) -> bool {
        self.old != self.new
    }

    /// A unified diff of the change (for `--dry-run`).
    pub fn diff(&self) -> String {
        let name = self.path.display().to_string();
        super::diff::unified(
            self.old.as_deref().unwrap_or(""),
            self.new.as_deref().unwrap_or(""),
            &name,
            &name,
        )
    }

    /// Write it: the old file backed up under `backup_dir` (askhook's data folder, like the
    /// settings backups), the new one written atomically. Returns the backup.
    pub fn apply(&self, backup_dir: &Path) -> Result<Option<PathBuf>> {
        let Some(new) = self.new.as_deref().filter(|_| self.changes()) else {
            return Ok(None);
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        }
        let backup = match &self.old {
            Some(old) => Some(super::backup(backup_dir, &self.path, old.as_bytes())?),
            None => None,
        };
        fsutil::atomic_write(&self.path, new.as_bytes()).map_err(|e| Error::io(&self.path, e))?;
        Ok(backup)
    }
}

fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// The edit that adds (or refreshes) the block.
pub fn add(path: &Path) -> Result<Edit> {
    let old = read(path)?;
    let new = Some(with_block(old.as_deref().unwrap_or("")));
    Ok(Edit {
        path: path.to_path_buf(),
        old,
        new,
    })
}

/// The edit that removes the block (no change when it is not there).
pub fn remove(path: &Path) -> Result<Edit> {
    let old = read(path)?;
    let new = match old.as_deref().map(without_block) {
        Some(Some(text)) => Some(text),
        _ => old.clone(),
    };
    Ok(Edit {
        path: path.to_path_buf(),
        old,
        new,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_twice_is_once_and_removing_gives_the_file_back() {
        for original in ["", "# My rules\n\nBe brief.\n", "no newline at the end"] {
            let added = with_block(original);
            assert!(has_block(&added), "{original:?}");
            assert_eq!(with_block(&added), added, "idempotent: {original:?}");
            let removed = without_block(&added).unwrap();
            let want = if original.is_empty() || original.ends_with('\n') {
                original.to_owned()
            } else {
                format!("{original}\n")
            };
            assert_eq!(removed, want, "{original:?}");
            assert_eq!(without_block(&removed), None);
        }
    }

    #[test]
    fn only_the_block_is_removed_and_an_old_block_is_refreshed() {
        let text = format!("before\n\n{BEGIN}\nold words\n{END}\n\nafter\n");
        let refreshed = with_block(&text);
        assert!(refreshed.starts_with("before\n\n") && refreshed.ends_with("\n\nafter\n"));
        assert!(refreshed.contains("askhook-qid:test-runner") && !refreshed.contains("old words"));
        assert_eq!(without_block(&text).unwrap(), "before\n\nafter\n");
    }
}
