//! Storage's background work.

pub mod cleanup;
