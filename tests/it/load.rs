//! load integration tests.
