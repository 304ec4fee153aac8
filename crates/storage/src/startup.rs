//! Building and running the storage target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_proto::storage::v1::storage_service_server::StorageServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::StorageConfig;
use crate::error::StorageError;
use crate::grpc::StorageGrpc;
use crate::service::Storage;
use crate::store::StorageStore;

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
        config: StorageConfig,
    ) -> Result<Self, StorageError> {
        let store = StorageStore::open(db).await?;
        Ok(Self {
            storage: Storage::new(store, blobs, config.max_upload_bytes),
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
        let service = StorageServiceServer::new(StorageGrpc::new(self.storage))
            .max_decoding_message_size(scribevault_proto::storage::MAX_MESSAGE_BYTES);
        scribevault_proto::server::serve(listener, service, shutdown).await
    }
}
