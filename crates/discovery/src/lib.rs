//! Channel discovery, sources, schedules and download jobs.
//!
//! Only the target's skeleton exists so far: the gRPC server with health and reflection, whose
//! RPCs all answer `UNIMPLEMENTED` until this service's issue lands. It owns no tables yet.

use scribevault_proto::discovery::v1::discovery_service_server::{
    DiscoveryService, DiscoveryServiceServer,
};

/// The discovery target.
#[derive(Debug, Default, Clone, Copy)]
pub struct DiscoveryServer;

struct UnimplementedDiscoveryService;

#[tonic::async_trait]
impl DiscoveryService for UnimplementedDiscoveryService {}

impl DiscoveryServer {
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
            DiscoveryServiceServer::new(UnimplementedDiscoveryService),
            shutdown,
        )
        .await
    }
}
