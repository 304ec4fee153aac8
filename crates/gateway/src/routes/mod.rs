//! REST routes, one module per resource, and the table that registers them with their access
//! level.

pub mod account;
pub mod admin;
pub mod auth;
pub mod config;
pub mod conversion;
pub mod discovery;
pub mod downloads;
pub mod feeds;
pub mod health;
pub mod library;
pub mod openai;
pub mod openapi;
pub mod schedules;
pub mod sources;
pub mod spa;
pub mod table;
pub mod tokens;
pub mod transcription;
pub mod transcription_queue;
pub mod uploads;
pub mod user_settings;
pub mod webhooks;
