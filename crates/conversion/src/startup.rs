//! Building and running the conversion target.

use scribevault_proto::conversion::v1::conversion_service_server::ConversionServiceServer;

use crate::config::ConversionConfig;
use crate::grpc::ConversionGrpc;

/// The conversion target.
pub struct ConversionServer {
    _config: ConversionConfig,
}

impl ConversionServer {
    /// The target with its settings. (Building becomes fallible, and migrates the service's
    /// tables, once it has some.)
    #[must_use]
    pub fn build(config: ConversionConfig) -> Self {
        Self { _config: config }
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
        scribevault_proto::server::serve(
            listener,
            ConversionServiceServer::new(ConversionGrpc),
            shutdown,
        )
        .await
    }
}
