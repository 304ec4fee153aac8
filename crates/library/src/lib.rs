//! The library service owns the Vault: every transcript, PDF conversion and saved document a user
//! keeps, with ratings, tags, syllabus sections, exports and the full-text index.
//!
//! It never reads another service's tables: completed transcriptions reach it as work messages
//! on the `library.ingest` queue (or the `IngestTranscript` RPC), and ingesting is idempotent on
//! (user, source), so a redelivered message never makes a second Vault item. It reads the blob
//! store only under the caller's own prefix (segments, files saved to the Vault).

mod config;
mod domain;
mod entity;
mod error;
mod export;
mod grpc;
mod jobs;
mod migration;
mod search;
mod service;
mod startup;
mod store;

pub use config::{EmbeddingConfig, LibraryConfig};
pub use error::LibraryError;
pub use export::folder::{
    FolderExportError, FolderExportSummary, MANIFEST_FILE as FOLDER_EXPORT_MANIFEST,
    NoteFrontMatter,
};
pub use service::folder_export::{FolderExportOptions, FolderExporter};
pub use startup::{LibraryDependencies, LibraryServer};
