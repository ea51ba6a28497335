//! query integration tests.
