//! `scribevault_core::child_limits`, for the PDF fuzz target.

#[path = "../../../crates/core/src/child_limits.rs"]
pub mod child_limits;
