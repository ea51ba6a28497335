//! The user registry file: reading it into the core [`Registry`] (the embedded registry merged
//! with the user's entries). The hook and the CLI both load it through [`load`].

use std::path::Path;

use askhook_core::registry::Registry;

/// The embedded registry plus `user_file` when it exists. An unreadable or unparsable user
/// file is an error (the caller decides to fall back to [`Registry::embedded`]).
pub fn load(user_file: &Path) -> Result<Registry, String> {
    // Never blocks (a FIFO is refused) and never slurps more than a registry can sensibly be.
    let text = match crate::sys::fsutil::read_regular(user_file, 16 << 20)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
    {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Registry::embedded()),
        Err(e) => return Err(format!("{}: {e}", user_file.display())),
    };
    Registry::with_user_text(&text)
        .map(|r| r.read_from(user_file))
        .map_err(|problem| format!("{}: {problem}", user_file.display()))
}
