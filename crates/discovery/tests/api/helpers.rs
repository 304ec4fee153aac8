//! Starting the discovery service in-process against the YouTube fake.

use std::sync::{Arc, Mutex, PoisonError};

use scribevault_bus::contract::Event;
use scribevault_bus::{EventBus as _, EventSubscription, InProcessBus};
use scribevault_core::{Settings, UserId};
use scribevault_db::TestDatabase;
use scribevault_discovery::{
    DiscoveryConfig, DiscoveryDependencies, DiscoveryServer, PeerError, StorageClient,
    TranscriptionIntake, VideoAudio,
};
use scribevault_proto::client::SignedChannel;
use scribevault_proto::discovery::v1 as pb;
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use scribevault_proto::storage::v1::storage_service_client::StorageServiceClient;
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};
use scribevault_test_support::youtube::FakeYouTube;

pub use scribevault_test_support::grpc::as_user;

/// The key the tests configure unless they say otherwise.
pub const KEY: &str = "test-key-1";

/// The discovery service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: DiscoveryServiceClient<SignedChannel>,
    /// The channel the client uses, for other services on the same server (health).
    pub channel: SignedChannel,
    /// The YouTube fake the service talks to.
    pub youtube: FakeYouTube,
    /// The bus `sourceUpdate` goes out on.
    pub bus: InProcessBus,
    /// The database, so a second app can reopen it.
    pub db: Arc<TestDatabase>,
    /// The real storage service the downloads go to, in this process.
    pub storage: StorageServiceClient<SignedChannel>,
    /// What the service asked transcription to do.
    pub transcriptions: Arc<RecordedTranscriptions>,
    /// The data directory (storage's database and blobs, yt-dlp's scratch space), kept for
    /// the app's life.
    _data_dir: Arc<tempfile::TempDir>,
    server: InProcessServer,
    _storage_server: InProcessServer,
}

/// Transcription's part, played by the test: what discovery queued.
#[derive(Default)]
pub struct RecordedTranscriptions {
    pub queued: Mutex<Vec<(String, String, String, String)>>,
}

impl RecordedTranscriptions {
    /// (user, video id, mp3 path, model) of every request.
    pub fn queued(&self) -> Vec<(String, String, String, String)> {
        self.queued
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

#[async_trait::async_trait]
impl TranscriptionIntake for RecordedTranscriptions {
    async fn transcribe(
        &self,
        user: &UserId,
        video: &VideoAudio,
        mp3_path: &str,
        how: &scribevault_discovery::TranscribeAfter,
    ) -> Result<String, PeerError> {
        self.queued
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((
                user.as_str().to_owned(),
                video.video_id.clone(),
                mp3_path.to_owned(),
                how.model.clone(),
            ));
        Ok("transcription-job".to_owned())
    }
}

/// Settings with `env` over the defaults, pointed at `youtube`.
pub fn settings(youtube: &FakeYouTube, env: &[(&str, &str)]) -> Settings {
    let mut pairs = vec![(
        "SCRIBEVAULT_YOUTUBE_API_BASE".to_owned(),
        youtube.base_url(),
    )];
    pairs.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
    Settings::load_from(None, pairs).expect("valid settings")
}

/// Discovery with one key, against a fresh fake.
pub async fn spawn_app() -> TestApp {
    let youtube = FakeYouTube::start().await;
    spawn_app_with(youtube, &[("SCRIBEVAULT_YOUTUBE_API_KEY", KEY)]).await
}

/// Discovery with `env` over the default settings, against `youtube`, on a fresh database.
pub async fn spawn_app_with(youtube: FakeYouTube, env: &[(&str, &str)]) -> TestApp {
    spawn_app_on(youtube, env, Arc::new(TestDatabase::sqlite())).await
}

/// Discovery on the database `db` (a restart when another app used it before).
pub async fn spawn_app_on(
    youtube: FakeYouTube,
    env: &[(&str, &str)],
    db: Arc<TestDatabase>,
) -> TestApp {
    let data_dir = Arc::new(tempfile::tempdir().expect("a data directory"));
    let mut env: Vec<(&str, &str)> = env.to_vec();
    let data_path = data_dir.path().to_string_lossy().into_owned();
    env.push(("SCRIBEVAULT_DATA_DIR", &data_path));
    let config = DiscoveryConfig::try_from(&settings(&youtube, &env)).expect("valid config");
    let connection = scribevault_db::connect(&db.url)
        .await
        .expect("open the test database");
    // The real storage service, on its own database and blob directory.
    let storage_db = scribevault_db::connect(&format!(
        "sqlite://{}/storage.db?mode=rwc",
        data_dir.path().display()
    ))
    .await
    .expect("open storage's database");
    let blobs = scribevault_blob::LocalBlobStore::new(data_dir.path().join("blobs"))
        .expect("a blob directory");
    let storage_config = scribevault_storage::StorageConfig::try_from(&settings(&youtube, &env))
        .expect("storage config");
    let storage_server =
        scribevault_storage::StorageServer::build(storage_db, Arc::new(blobs), storage_config)
            .await
            .expect("build storage");
    let storage_server =
        InProcessServer::start(|listener, stop| storage_server.run(listener, stopped(stop))).await;
    let bus = InProcessBus::new(5);
    let transcriptions = Arc::new(RecordedTranscriptions::default());
    let server = DiscoveryServer::build(
        connection,
        DiscoveryDependencies {
            events: Arc::new(bus.clone()),
            work: Arc::new(bus.clone()),
            archive: Arc::new(StorageClient::from_channel(
                storage_server.raw_channel.clone(),
            )),
            intake: transcriptions.clone(),
        },
        config,
    )
    .await
    .expect("build the discovery server");
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    let channel = server.channel.clone();
    TestApp {
        client: DiscoveryServiceClient::new(channel.clone()),
        channel,
        youtube,
        bus,
        db,
        storage: StorageServiceClient::new(storage_server.channel.clone()),
        transcriptions,
        _data_dir: data_dir,
        server,
        _storage_server: storage_server,
    }
}

impl TestApp {
    /// Asks the server to stop and returns what its `run` returned.
    pub async fn stop(self) -> RunResult {
        self.server.stop().await
    }

    /// A channel search by `user`.
    pub async fn search(
        &self,
        url: &str,
        limit: i32,
        refresh: bool,
    ) -> Result<pb::GetChannelVideosResponse, tonic::Status> {
        self.client
            .clone()
            .get_channel_videos(as_user(
                "alice",
                pb::GetChannelVideosRequest {
                    channel_url: url.to_owned(),
                    limit,
                    refresh,
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Units the fake charged since the last reset, and resets.
    pub fn units_spent_since_reset(&self) -> u64 {
        let units = self.youtube.units_spent();
        self.youtube.reset_calls();
        units
    }

    /// A subscription to the user events on the bus.
    pub async fn events(&self) -> EventSubscription {
        self.bus.subscribe().await.expect("subscribe to events")
    }
}

/// The next event on `events` within 5 s.
pub async fn next_event(events: &mut EventSubscription) -> (String, Event) {
    let envelope = tokio::time::timeout(std::time::Duration::from_secs(5), events.next())
        .await
        .expect("an event within 5 s")
        .expect("the bus is open");
    let event = envelope.event().expect("a known event");
    (envelope.user_id.clone(), event)
}
