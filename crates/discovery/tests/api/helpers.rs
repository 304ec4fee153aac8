//! Starting the discovery service in-process.

use scribevault_core::Settings;
use scribevault_discovery::{DiscoveryConfig, DiscoveryServer};
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};
use tonic::transport::Channel;

/// The discovery service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: DiscoveryServiceClient<Channel>,
    /// The channel the client uses, for other services on the same server (health).
    pub channel: Channel,
    server: InProcessServer,
}

/// Discovery with the configuration the default settings give.
pub async fn spawn_app() -> TestApp {
    let settings = Settings::load_from(None, Vec::new()).expect("the default settings are valid");
    spawn_app_with(DiscoveryConfig::try_from(&settings).expect("a valid discovery config")).await
}

/// Discovery with `config`, started the way `crates/scribevault/src/targets.rs` starts it.
pub async fn spawn_app_with(config: DiscoveryConfig) -> TestApp {
    let server = DiscoveryServer::build(config);
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    let channel = server.channel.clone();
    TestApp {
        client: DiscoveryServiceClient::new(channel.clone()),
        channel,
        server,
    }
}

pub use scribevault_test_support::grpc::as_user;

impl TestApp {
    /// Asks the server to stop and returns what its `run` returned.
    pub async fn stop(self) -> RunResult {
        self.server.stop().await
    }
}
