//! Conversion of transcripts and PDFs to markdown.
//!
//! Only the target's skeleton exists so far: the gRPC server with health and reflection, whose
//! RPCs all answer `UNIMPLEMENTED` until this service's issue lands. It owns no tables yet.

use scribevault_proto::conversion::v1::conversion_service_server::{
    ConversionService, ConversionServiceServer,
};

/// The conversion target.
#[derive(Debug, Default, Clone, Copy)]
pub struct ConversionServer;

struct UnimplementedConversionService;

#[tonic::async_trait]
impl ConversionService for UnimplementedConversionService {}

impl ConversionServer {
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
            ConversionServiceServer::new(UnimplementedConversionService),
            shutdown,
        )
        .await
    }
}
