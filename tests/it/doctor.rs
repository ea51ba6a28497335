//! doctor integration tests.
