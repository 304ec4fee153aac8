//! Blobs, the per-video MP3 registry and manual uploads.
//!
//! Only the target's skeleton exists so far: the gRPC server with health and reflection, whose
//! RPCs all answer `UNIMPLEMENTED` until this service's issue lands. It owns no tables yet.

use scribevault_proto::storage::v1::storage_service_server::{
    StorageService, StorageServiceServer,
};

/// The storage target.
#[derive(Debug, Default, Clone, Copy)]
pub struct StorageServer;

struct UnimplementedStorageService;

#[tonic::async_trait]
impl StorageService for UnimplementedStorageService {}

impl StorageServer {
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
            StorageServiceServer::new(UnimplementedStorageService),
            shutdown,
        )
        .await
    }
}
