//! Starting the discovery service in-process.

use scribevault_core::{Settings, UserId};
use scribevault_discovery::{DiscoveryConfig, DiscoveryServer};
use scribevault_proto::discovery::v1::discovery_service_client::DiscoveryServiceClient;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

type RunResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// The discovery service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: DiscoveryServiceClient<Channel>,
    /// The channel the client uses, for other services on the same server (health).
    pub channel: Channel,
    shutdown: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<RunResult>>,
}

/// Discovery with the configuration the default settings give.
pub async fn spawn_app() -> TestApp {
    let settings = Settings::load_from(None, Vec::new()).expect("the default settings are valid");
    spawn_app_with(DiscoveryConfig::try_from(&settings).expect("a valid discovery config")).await
}

/// Discovery with `config`, started the way `crates/scribevault/src/targets.rs` starts it.
pub async fn spawn_app_with(config: DiscoveryConfig) -> TestApp {
    let server = DiscoveryServer::build(config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a loopback port");
    let addr = listener.local_addr().expect("local address").to_string();
    let (shutdown, stop) = oneshot::channel::<()>();
    let server = tokio::spawn(server.run(listener, async move {
        let _ = stop.await;
    }));
    let channel = scribevault_proto::server::connect_lazy(&addr).expect("a valid address");
    TestApp {
        client: DiscoveryServiceClient::new(channel.clone()),
        channel,
        shutdown: Some(shutdown),
        server: Some(server),
    }
}

/// `message` as sent by `user` through the gateway.
pub fn as_user<T>(user: &str, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    UserId::new(user)
        .attach_to(&mut request)
        .expect("a valid user id");
    request
}

impl TestApp {
    /// Asks the server to stop and returns what its `run` returned.
    pub async fn stop(mut self) -> RunResult {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        let server = self.server.take().expect("the server runs");
        tokio::time::timeout(std::time::Duration::from_secs(20), server)
            .await
            .expect("the server stops within 20 s")
            .expect("the server task did not panic")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}
