//! REST routes, one module per resource.

pub mod auth;
pub mod config;
pub mod health;
pub mod library;
pub mod spa;
pub mod transcription;
pub mod uploads;
