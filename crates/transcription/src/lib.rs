//! The transcription service owns transcription jobs, their files and attempts.
//!
//! It validates and records jobs, queues one work message per file, and is the only writer of
//! file state: workers claim, report and finish files through its gRPC API. It publishes the
//! `transcriptionProgress`, `transcriptionComplete` and `transcriptionError` events, orders
//! workers to stop cancelled files, hands finished transcripts to the library's ingest queue,
//! retries failures with back-off, opens scheduled jobs when their overnight window starts, and
//! gives files whose worker went silent to another worker. It must not transcribe (workers do)
//! nor write Vault items (the library does).

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

pub use config::TranscriptionConfig;
pub use error::TranscriptionError;
pub use startup::TranscriptionServer;
