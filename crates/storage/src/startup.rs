//! Building and running the storage target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_proto::storage::v1::storage_service_server::StorageServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::StorageConfig;
use crate::error::StorageError;
use crate::grpc::StorageGrpc;
use crate::jobs::cleanup::run_cleanup_sweeps;
use crate::service::Storage;
use crate::store::StorageStore;

/// The storage target.
pub struct StorageServer {
    storage: Storage,
    cleanup_interval: std::time::Duration,
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
            storage: Storage::new(store, blobs, config.max_upload_bytes)
                .with_max_audio_seconds(config.max_audio_seconds),
            cleanup_interval: config.cleanup_interval,
        })
    }

    /// The MP3 clean-up, to run at a chosen moment (tests give it an injected clock).
    #[must_use]
    pub fn cleanup(&self) -> CleanupSweep {
        CleanupSweep(self.storage.clone())
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
        let (stop_sweeps, sweeps_stopped) = tokio::sync::oneshot::channel::<()>();
        let sweeps = tokio::spawn(run_cleanup_sweeps(
            self.storage.clone(),
            self.cleanup_interval,
            async move {
                let _ = sweeps_stopped.await;
            },
        ));
        let service = StorageServiceServer::new(StorageGrpc::new(self.storage))
            .max_decoding_message_size(scribevault_proto::storage::MAX_MESSAGE_BYTES);
        let result = scribevault_proto::server::serve(listener, service, shutdown).await;
        let _ = stop_sweeps.send(());
        let _ = sweeps.await;
        result
    }
}

/// Storage's MP3 clean-up sweep.
#[derive(Clone)]
pub struct CleanupSweep(Storage);

impl CleanupSweep {
    /// Sweeps as if it were `now`; answers how many MP3s were removed.
    ///
    /// # Errors
    /// Database failure.
    pub async fn run_at(&self, now: chrono::DateTime<chrono::Utc>) -> Result<usize, StorageError> {
        self.0.sweep_old_mp3s(now).await
    }
}
