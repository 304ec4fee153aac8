//! Starting the conversion service in-process.

use scribevault_conversion::{ConversionConfig, ConversionServer};
use scribevault_core::Settings;
use scribevault_proto::conversion::v1::conversion_service_client::ConversionServiceClient;
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};
use tonic::transport::Channel;

/// The conversion service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: ConversionServiceClient<Channel>,
    /// The channel the client uses, for other services on the same server (health).
    pub channel: Channel,
    server: InProcessServer,
}

/// Conversion with the configuration the default settings give.
pub async fn spawn_app() -> TestApp {
    let settings = Settings::load_from(None, Vec::new()).expect("the default settings are valid");
    spawn_app_with(ConversionConfig::try_from(&settings).expect("a valid conversion config")).await
}

/// Conversion with `config`, started the way `crates/scribevault/src/targets.rs` starts it.
pub async fn spawn_app_with(config: ConversionConfig) -> TestApp {
    let server = ConversionServer::build(config);
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    let channel = server.channel.clone();
    TestApp {
        client: ConversionServiceClient::new(channel.clone()),
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
