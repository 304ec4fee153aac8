//! Building and running the discovery target.

use scribevault_proto::discovery::v1::discovery_service_server::DiscoveryServiceServer;

use crate::config::DiscoveryConfig;
use crate::grpc::DiscoveryGrpc;

/// The discovery target.
pub struct DiscoveryServer {
    _config: DiscoveryConfig,
}

impl DiscoveryServer {
    /// The target with its settings. (Building becomes fallible, and migrates the service's
    /// tables, once it has some.)
    #[must_use]
    pub fn build(config: DiscoveryConfig) -> Self {
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
            DiscoveryServiceServer::new(DiscoveryGrpc),
            shutdown,
        )
        .await
    }
}
