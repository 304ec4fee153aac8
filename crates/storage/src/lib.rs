//! The storage service owns blobs, the per-video MP3 registry and manual uploads.
//!
//! Uploads stream through it into the blob store: they are checked for being MP3 by content
//! (an optional ID3v2 tag, then MPEG audio frames that really decode), hashed and size-limited
//! as they pass, never held whole in memory. The same audio uploaded twice by one user is stored
//! once. Paths handed to clients are opaque and scoped to their owner
//! (see [`scribevault_blob::owned_key`]). It must not interpret what it stores: transcripts and
//! Vault items belong to their services.

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

pub use config::StorageConfig;
pub use error::StorageError;
pub use startup::{CleanupSweep, StorageServer};
