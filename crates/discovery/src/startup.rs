//! Building and running the discovery target.

use std::sync::Arc;

use scribevault_bus::EventBus;
use scribevault_proto::discovery::v1::discovery_service_server::DiscoveryServiceServer;
use sea_orm::DatabaseConnection;

use crate::config::DiscoveryConfig;
use crate::error::DiscoveryError;
use crate::grpc::DiscoveryGrpc;
use crate::service::{CatalogPolicy, Discovery};
use crate::store::DiscoveryStore;
use crate::youtube::{KeyRing, YouTubeClient};

/// The discovery target.
pub struct DiscoveryServer {
    discovery: Discovery,
}

impl DiscoveryServer {
    /// Migrates the service's tables and builds the YouTube client.
    ///
    /// # Errors
    /// Migration failure, or no HTTP client could be built.
    pub async fn build(
        db: DatabaseConnection,
        events: Arc<dyn EventBus>,
        config: DiscoveryConfig,
    ) -> Result<Self, DiscoveryError> {
        let policy = CatalogPolicy {
            cache_for: config.youtube_cache_for,
            daily_quota_per_key: config.youtube_daily_quota,
            keys: config.youtube_api_keys.len(),
        };
        if config.youtube_api_keys.is_empty() {
            tracing::warn!(
                "no SCRIBEVAULT_YOUTUBE_API_KEY: channel searches and sources answer 503 until one is set"
            );
        }
        let youtube = YouTubeClient::new(
            &config.youtube_api_base,
            KeyRing::new(config.youtube_api_keys),
        )
        .map_err(|error| DiscoveryError::Upstream(format!("HTTP client: {error}")))?;
        let store = DiscoveryStore::open(db).await?;
        Ok(Self {
            discovery: Discovery::new(store, Arc::new(youtube), events, policy).await?,
        })
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
            DiscoveryServiceServer::new(DiscoveryGrpc::new(self.discovery)),
            shutdown,
        )
        .await
    }
}
