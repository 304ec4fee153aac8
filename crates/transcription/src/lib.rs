//! The transcription service owns transcription jobs, their files and attempts.
//!
//! It validates and records jobs, queues one work message per file, and is the only writer of
//! file state: workers claim, report and finish files through its gRPC API. It publishes the
//! `transcriptionProgress`, `transcriptionComplete` and `transcriptionError` events, hands
//! finished transcripts to the library's ingest queue, retries failures with back-off, opens
//! scheduled jobs when their overnight window starts, and gives files whose worker went silent
//! to another worker.

mod entity;
mod error;
mod grpc;
mod migration;
mod service;
mod window;

pub use error::TranscriptionError;
pub use service::{ScheduleWindow, TranscriptionConfig, Transcriptions, status};
pub use window::DailyWindow;

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::transcription::v1::transcription_service_server::TranscriptionServiceServer;
use sea_orm::DatabaseConnection;

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
        Ok(Self {
            service: Transcriptions::start(db, events, work, blobs, config).await?,
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
        match self
            .service
            .resend_recent_ingests(self.service.config().resend_ingests_within)
            .await
        {
            Ok(0) => {}
            Ok(sent) => tracing::info!(sent, "re-sent recently completed files to the library"),
            Err(error) => {
                tracing::error!(error = %error, "could not re-send completed files to the library")
            }
        }
        match self.service.resume_waiting_files().await {
            Ok(0) => {}
            Ok(resumed) => tracing::info!(
                resumed,
                "queued files that were waiting when the service stopped"
            ),
            Err(error) => tracing::error!(error = %error, "could not resume waiting files"),
        }
        let housekeeping = {
            let service = self.service.clone();
            tokio::spawn(async move {
                let mut ticks = tokio::time::interval(service.config().housekeeping_interval);
                ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    ticks.tick().await;
                    if let Err(error) = service.requeue_due_files().await {
                        tracing::warn!(error = %error, "transcription housekeeping failed");
                    }
                }
            })
        };
        let result = scribevault_proto::server::serve(
            listener,
            TranscriptionServiceServer::new(grpc::TranscriptionGrpc::new(self.service)),
            shutdown,
        )
        .await;
        housekeeping.abort();
        result
    }
}
