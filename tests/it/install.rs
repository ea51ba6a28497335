//! install integration tests.
