//! trust integration tests.
