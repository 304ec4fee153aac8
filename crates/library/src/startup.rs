//! Builds and runs the library target.

use std::sync::Arc;

use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::library::v1::library_service_server::LibraryServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::LibraryConfig;
use crate::error::LibraryError;
use crate::grpc::LibraryGrpc;
use crate::jobs::ingest::run_ingest_consumer;
use crate::service::Library;
use crate::store::LibraryStore;

/// The library target: its gRPC API and its ingest consumer.
pub struct LibraryServer {
    library: Library,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
    config: LibraryConfig,
}

impl LibraryServer {
    /// Migrates the library's tables.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn build(
        db: DatabaseConnection,
        work: Arc<dyn WorkQueue>,
        events: Arc<dyn EventBus>,
        config: LibraryConfig,
    ) -> Result<Self, LibraryError> {
        Ok(Self {
            library: Library::new(LibraryStore::open(db).await?),
            work,
            events,
            config,
        })
    }

    /// Serves gRPC on `listener` and consumes the ingest queue until `shutdown` resolves.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let (stop_consumer, consumer_stopped) = tokio::sync::oneshot::channel::<()>();
        let consumer = tokio::spawn(run_ingest_consumer(
            self.library.clone(),
            self.work,
            self.events,
            self.config.ingest_concurrency,
            async move {
                let _ = consumer_stopped.await;
            },
        ));
        let grpc = LibraryServiceServer::new(LibraryGrpc::new(self.library));
        let result = scribevault_proto::server::serve(listener, grpc, shutdown).await;
        let _ = stop_consumer.send(());
        if let Err(error) = consumer.await {
            tracing::error!(error = %error, "the ingest consumer panicked");
        }
        result
    }
}
