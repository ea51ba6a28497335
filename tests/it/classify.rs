//! classify integration tests.
