//! The one integration test binary: every test runs the real `askhook` binary in its own temp
//! HOME, `ASKHOOK_HOME` and `CLAUDE_CONFIG_DIR`, with a scrubbed environment.

mod harness;

mod hook;
