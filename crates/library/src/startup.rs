//! Builds and runs the library target.

use std::sync::Arc;

use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::library::v1::library_service_server::LibraryServiceServer;
use sea_orm::DatabaseConnection;

use crate::error::LibraryError;
use crate::grpc::LibraryGrpc;
use crate::ingest_consumer::run_ingest_consumer;
use crate::service::Library;

/// The library target: its gRPC API and its ingest consumer.
pub struct LibraryServer {
    library: Library,
    work: Arc<dyn WorkQueue>,
    events: Arc<dyn EventBus>,
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
    ) -> Result<Self, LibraryError> {
        Ok(Self {
            library: Library::start(db).await?,
            work,
            events,
        })
    }

    /// The domain service, for in-process callers such as tests.
    #[must_use]
    pub fn library(&self) -> &Library {
        &self.library
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
        let consumer = tokio::spawn(run_ingest_consumer(
            self.library.clone(),
            self.work,
            self.events,
        ));
        let grpc = LibraryServiceServer::new(LibraryGrpc::new(self.library));
        let result = scribevault_proto::server::serve(listener, grpc, shutdown).await;
        consumer.abort();
        result
    }
}
