//! REST routes, one module per resource.

pub mod auth;
pub mod config;
pub mod conversion;
pub mod discovery;
pub mod downloads;
pub mod health;
pub mod library;
pub mod schedules;
pub mod sources;
pub mod spa;
pub mod transcription;
pub mod uploads;
pub mod user_settings;
