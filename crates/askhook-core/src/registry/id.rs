//! The registry id rule, shared with `build.rs` (which checks the embedded file with it).

/// A registry id: kebab-case, `[a-z0-9]+(-[a-z0-9]+)*`, at most 64 bytes.
pub fn is_kebab_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && !id.starts_with('-')
        && !id.ends_with('-')
        && !id.contains("--")
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}
