//! Building and running the transcription target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::transcription::v1::transcription_service_server::TranscriptionServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::TranscriptionConfig;
use crate::error::TranscriptionError;
use crate::grpc::TranscriptionGrpc;
use crate::jobs::housekeeping;
use crate::service::Transcriptions;
use crate::store::TranscriptionStore;

/// The transcription target.
pub struct TranscriptionServer {
    service: Transcriptions,
}

impl TranscriptionServer {
    /// Migrates the tables.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn build(
        db: DatabaseConnection,
        events: Arc<dyn EventBus>,
        work: Arc<dyn WorkQueue>,
        blobs: Arc<dyn BlobStore>,
        config: TranscriptionConfig,
    ) -> Result<Self, TranscriptionError> {
        let store = TranscriptionStore::open(db).await?;
        Ok(Self {
            service: Transcriptions::new(store, events, work, blobs, config),
        })
    }

    /// Resumes waiting files, runs housekeeping and serves gRPC until `shutdown`.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        housekeeping::recover_at_start(&self.service).await;
        let sweeps = tokio::spawn(housekeeping::run(self.service.clone()));
        let result = scribevault_proto::server::serve(
            listener,
            TranscriptionServiceServer::new(TranscriptionGrpc::new(self.service)),
            shutdown,
        )
        .await;
        sweeps.abort();
        result
    }
}
