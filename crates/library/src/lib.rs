//! The library service owns the Vault: every transcript, PDF conversion and saved document a user
//! keeps, with ratings, tags and exports.
//!
//! It never reads another service's tables: completed transcriptions reach it as work messages
//! on the `library.ingest` queue (or the `IngestTranscript` RPC), and ingesting is idempotent on
//! (user, source), so a redelivered message never makes a second Vault item.

mod config;
mod domain;
mod entity;
mod error;
mod grpc;
mod jobs;
mod migration;
mod service;
mod startup;
mod store;

pub use config::LibraryConfig;
pub use error::LibraryError;
pub use startup::LibraryServer;
