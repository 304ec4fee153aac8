//! A gRPC service under test, running in the test's own process: bound to a port the operating
//! system picks, reached through one channel, stopped when the test ends.

use std::future::Future;
use std::time::Duration;

use scribevault_core::UserId;
use scribevault_proto::client::SignedChannel;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::transport::Channel;

/// What a service's `run` returns.
pub type RunResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// A server started with [`InProcessServer::start`]. Dropping it asks the server to stop.
pub struct InProcessServer {
    /// A lazily connected channel to the server that signs each call for its method, as the
    /// gateway's and the services' clients do.
    pub channel: SignedChannel,
    /// The same channel unsigned, for the services' own peer clients (which sign themselves)
    /// and for tests that put an assertion on a call by hand.
    pub raw_channel: Channel,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<RunResult>>,
}

impl InProcessServer {
    /// Binds `127.0.0.1:0` and spawns `run(listener, shutdown)`, the same `run` the binary calls.
    ///
    /// # Panics
    /// If no loopback port can be bound.
    pub async fn start<Run, Running>(run: Run) -> Self
    where
        Run: FnOnce(tokio::net::TcpListener, oneshot::Receiver<()>) -> Running,
        Running: Future<Output = RunResult> + Send + 'static,
    {
        scribevault_core::identity::install_process_service_key();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port");
        let addr = listener.local_addr().expect("local address").to_string();
        let (shutdown, stop) = oneshot::channel();
        let task = tokio::spawn(run(listener, stop));
        let raw_channel = scribevault_proto::server::connect_lazy(&addr).expect("a valid address");
        Self {
            channel: scribevault_proto::client::signed(raw_channel.clone()),
            raw_channel,
            shutdown: Some(shutdown),
            task: Some(task),
        }
    }

    /// Asks the server to stop and returns what its `run` returned.
    ///
    /// # Panics
    /// If the server does not stop within 20 s or its task panicked.
    pub async fn stop(mut self) -> RunResult {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        let task = self.task.take().expect("the server runs");
        tokio::time::timeout(Duration::from_secs(20), task)
            .await
            .expect("the server stops within 20 s")
            .expect("the server task did not panic")
    }
}

impl Drop for InProcessServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

/// A shutdown future for a service's `run`: resolves when the test stops the server.
pub async fn stopped(stop: oneshot::Receiver<()>) {
    let _ = stop.await;
}

/// `message` as `user` sends it through the gateway (the caller travels in metadata).
///
/// # Panics
/// If `user` cannot travel in metadata.
pub fn as_user<T>(user: &str, message: T) -> tonic::Request<T> {
    scribevault_core::identity::install_process_service_key();
    let mut request = tonic::Request::new(message);
    UserId::new(user)
        .attach_to(&mut request)
        .expect("a valid user id");
    request
}

/// `message` as one of the instance's services sends it on nobody's behalf (the gateway
/// serving a signed export link).
///
/// # Panics
/// Never for names we use.
pub fn as_service<T>(name: &str, message: T) -> tonic::Request<T> {
    scribevault_core::identity::install_process_service_key();
    let mut request = tonic::Request::new(message);
    scribevault_core::identity::attach_service(name, &mut request).expect("a service key");
    request
}
