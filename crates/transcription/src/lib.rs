//! Transcription jobs, files and attempts.
//!
//! Only the target's skeleton exists so far: the gRPC server with health and reflection, whose
//! RPCs all answer `UNIMPLEMENTED` until this service's issue lands. It owns no tables yet.

use scribevault_proto::transcription::v1::transcription_service_server::{
    TranscriptionService, TranscriptionServiceServer,
};

/// The transcription target.
#[derive(Debug, Default, Clone, Copy)]
pub struct TranscriptionServer;

struct UnimplementedTranscriptionService;

#[tonic::async_trait]
impl TranscriptionService for UnimplementedTranscriptionService {}

impl TranscriptionServer {
    /// Serves gRPC on `listener` until `shutdown` resolves.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        scribevault_proto::server::serve(
            listener,
            TranscriptionServiceServer::new(UnimplementedTranscriptionService),
            shutdown,
        )
        .await
    }
}
