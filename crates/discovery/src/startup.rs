//! Building and running the discovery target.

use std::sync::Arc;

use scribevault_bus::{EventBus, WorkQueue};
use scribevault_proto::discovery::v1::discovery_service_server::DiscoveryServiceServer;
use sea_orm::DatabaseConnection;
use tokio_util::sync::CancellationToken;

use crate::config::DiscoveryConfig;
use crate::error::DiscoveryError;
use crate::grpc::DiscoveryGrpc;
use crate::jobs;
use crate::peers::{AudioArchive, TranscriptionIntake};
use crate::service::{CatalogPolicy, Discovery, DownloadSetup};
use crate::store::DiscoveryStore;
use crate::youtube::{KeyRing, YouTubeClient};
use crate::ytdlp::YtDlp;

/// What discovery needs besides its database and settings.
pub struct DiscoveryDependencies {
    pub events: Arc<dyn EventBus>,
    pub work: Arc<dyn WorkQueue>,
    /// Where downloaded MP3s go (storage).
    pub archive: Arc<dyn AudioArchive>,
    /// Where they are queued for transcription when a job asks.
    pub intake: Arc<dyn TranscriptionIntake>,
}

/// The discovery target.
pub struct DiscoveryServer {
    discovery: Discovery,
    download_concurrency: usize,
    scheduler_interval: std::time::Duration,
}

impl DiscoveryServer {
    /// Migrates the service's tables and builds the YouTube client.
    ///
    /// # Errors
    /// Migration failure, or no HTTP client could be built.
    pub async fn build(
        db: DatabaseConnection,
        dependencies: DiscoveryDependencies,
        config: DiscoveryConfig,
    ) -> Result<Self, DiscoveryError> {
        let policy = CatalogPolicy {
            cache_for: config.youtube_cache_for,
            daily_quota_per_key: config.youtube_daily_quota,
            keys: config.youtube_api_keys.len(),
            units_per_user_per_day: config.youtube_units_per_user_per_day,
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
        let ytdlp = Arc::new(YtDlp::new(config.ytdlp));
        let downloads = DownloadSetup {
            work: dependencies.work,
            fetcher: ytdlp.clone(),
            captions: ytdlp,
            archive: dependencies.archive,
            intake: dependencies.intake,
            work_root: config.download_dir,
            stale_after: config.download_stale_after,
            default_model: config.default_model,
            max_active_per_user: config.max_active_download_jobs_per_user,
        };
        Ok(Self {
            discovery: Discovery::new(
                store,
                Arc::new(youtube),
                dependencies.events,
                policy,
                downloads,
            )
            .await?,
            download_concurrency: config.download_concurrency,
            scheduler_interval: config.scheduler_interval,
        })
    }

    /// Serves gRPC on `listener`, consumes the download queue and runs the scheduler, until
    /// `shutdown` resolves. Running downloads are stopped (yt-dlp killed) on the way out.
    ///
    /// # Errors
    /// The gRPC transport fails.
    pub async fn run(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send,
    ) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let stopping = CancellationToken::new();
        let downloads = tokio::spawn(jobs::download::consume(
            self.discovery.clone(),
            self.download_concurrency,
            stopping.clone(),
        ));
        let scheduler = tokio::spawn(jobs::scheduler::run(
            self.discovery.clone(),
            self.scheduler_interval,
            stopping.clone(),
        ));
        let result = scribevault_proto::server::serve(
            listener,
            DiscoveryServiceServer::new(DiscoveryGrpc::new(self.discovery)),
            shutdown,
        )
        .await;
        stopping.cancel();
        // The consumer drops its running jobs, which kills their yt-dlp process groups.
        let _ = downloads.await;
        let _ = scheduler.await;
        result
    }
}
