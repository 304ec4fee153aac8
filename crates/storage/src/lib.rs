//! The storage service owns blobs, the per-video MP3 registry and manual uploads.
//!
//! Uploads stream through it into the blob store: they are checked for being MP3 by content
//! (an optional ID3v2 tag, then MPEG audio frames that really decode), hashed and size-limited
//! as they pass, never held whole in memory. The same audio uploaded twice by one user is stored
//! once. Paths handed to clients are opaque and scoped to their owner
//! (see [`scribevault_blob::owned_key`]).

mod entity;
mod error;
mod grpc;
mod migration;
mod mp3_check;
mod service;

pub use error::StorageError;
pub use mp3_check::{Mp3Verdict, check_mp3_prefix};
pub use service::{Mp3Upload, Storage, StoredMp3};

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_proto::storage::v1::storage_service_server::StorageServiceServer;
use sea_orm::DatabaseConnection;

/// The storage target.
pub struct StorageServer {
    storage: Storage,
}

impl StorageServer {
    /// Migrates the storage tables.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn build(
        db: DatabaseConnection,
        blobs: Arc<dyn BlobStore>,
        max_upload_bytes: u64,
    ) -> Result<Self, StorageError> {
        Ok(Self {
            storage: Storage::start(db, blobs, max_upload_bytes).await?,
        })
    }

    /// Serves gRPC on `listener` until `shutdown` resolves.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let service = StorageServiceServer::new(grpc::StorageGrpc::new(self.storage))
            .max_decoding_message_size(8 * 1024 * 1024);
        scribevault_proto::server::serve(listener, service, shutdown).await
    }
}
