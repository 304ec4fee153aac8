//! Starting the discovery service in-process against the YouTube fake.

use std::sync::Arc;

use scribevault_bus::contract::Event;
use scribevault_bus::{EventBus as _, EventSubscription, InProcessBus};
use scribevault_core::Settings;
use scribevault_db::TestDatabase;
use scribevault_discovery::{DiscoveryConfig, DiscoveryServer};
use scribevault_proto::discovery::v1 as pb;
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};
use scribevault_test_support::youtube::FakeYouTube;
use tonic::transport::Channel;

pub use scribevault_test_support::grpc::as_user;

/// The key the tests configure unless they say otherwise.
pub const KEY: &str = "test-key-1";

/// The discovery service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: DiscoveryServiceClient<Channel>,
    /// The channel the client uses, for other services on the same server (health).
    pub channel: Channel,
    /// The YouTube fake the service talks to.
    pub youtube: FakeYouTube,
    /// The bus `sourceUpdate` goes out on.
    pub bus: InProcessBus,
    /// The database, so a second app can reopen it.
    pub db: Arc<TestDatabase>,
    server: InProcessServer,
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
    let config = DiscoveryConfig::try_from(&settings(&youtube, env)).expect("valid config");
    let connection = scribevault_db::connect(&db.url)
        .await
        .expect("open the test database");
    let bus = InProcessBus::new(5);
    let server = DiscoveryServer::build(connection, Arc::new(bus.clone()), config)
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
        server,
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
