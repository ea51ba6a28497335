//! Hook integration tests.
