//! Builds and runs the library target.

use std::sync::Arc;

use scribevault_blob::BlobStore;
use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::library::v1::library_service_server::LibraryServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::LibraryConfig;
use crate::error::LibraryError;
use crate::grpc::LibraryGrpc;
use crate::jobs::embed::{run_backfill, run_embed_consumer};
use crate::jobs::ingest::run_ingest_consumer;
use crate::service::Library;
use crate::store::LibraryStore;

/// What the library talks to besides its database.
pub struct LibraryDependencies {
    /// `library.ingest` is consumed from here.
    pub work: Arc<dyn WorkQueue>,
    /// `libraryUpdate` and `statsUpdate` go out here.
    pub events: Arc<dyn EventBus>,
    /// Transcript segments and saved files are read from here.
    pub blobs: Arc<dyn BlobStore>,
}

/// The library target: its gRPC API and its ingest consumer.
pub struct LibraryServer {
    library: Library,
    work: Arc<dyn WorkQueue>,
    config: LibraryConfig,
}

impl LibraryServer {
    /// Migrates the library's tables.
    ///
    /// # Errors
    /// Migration failure.
    pub async fn build(
        db: DatabaseConnection,
        dependencies: LibraryDependencies,
        config: LibraryConfig,
    ) -> Result<Self, LibraryError> {
        let store = LibraryStore::open(db).await?;
        let mut library = Library::new(store, dependencies.blobs, dependencies.events, &config);
        if let Some(embedding) = &config.embedding {
            match scribevault_embed::Embedder::load(&embedding.model, embedding.threads) {
                Ok(embedder) => {
                    library = library.with_embedder(Arc::new(embedder), dependencies.work.clone());
                }
                Err(error) => {
                    tracing::warn!(error = %error, "search finds words only");
                }
            }
        }
        if library.searches_by_meaning() {
            tracing::info!(
                model = scribevault_embed::MODEL_NAME,
                "search by meaning is on"
            );
        }
        Ok(Self {
            library,
            work: dependencies.work,
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
            self.work.clone(),
            self.config.ingest_concurrency,
            async move {
                let _ = consumer_stopped.await;
            },
        ));
        let (stop_meaning, meaning_stopped) = tokio::sync::watch::channel(false);
        // The embedder is loaded only from a configured model, so meaning implies a config.
        let embedding = self
            .config
            .embedding
            .clone()
            .filter(|_| self.library.searches_by_meaning());
        let meaning = embedding.map(|embedding| {
            let stopped = |mut receiver: tokio::sync::watch::Receiver<bool>| async move {
                let _ = receiver.wait_for(|stop| *stop).await;
            };
            (
                tokio::spawn(run_embed_consumer(
                    self.library.clone(),
                    self.work.clone(),
                    stopped(meaning_stopped.clone()),
                )),
                tokio::spawn(run_backfill(
                    self.library.clone(),
                    embedding.backfill_pause,
                    embedding.backfill_idle,
                    stopped(meaning_stopped),
                )),
            )
        });
        let grpc = LibraryServiceServer::new(LibraryGrpc::new(self.library))
            .max_decoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES)
            .max_encoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES);
        let result = scribevault_proto::server::serve(listener, grpc, shutdown).await;
        let _ = stop_consumer.send(());
        let _ = stop_meaning.send(true);
        if let Some((consumer, backfill)) = meaning {
            let _ = consumer.await;
            let _ = backfill.await;
        }
        if let Err(error) = consumer.await {
            tracing::error!(error = %error, "the ingest consumer panicked");
        }
        result
    }
}
