//! Starting the webhook service in-process, as `crates/scribevault/src/targets.rs` starts it,
//! and a receiver that records what arrives.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use scribevault_bus::contract::{ItemChange, LibraryItemRef, LibraryUpdate};
use scribevault_bus::{Event, EventBus, EventEnvelope, InProcessBus};
use scribevault_db::TestDatabase;
use scribevault_proto::client::SignedChannel;
use scribevault_proto::webhooks::v1 as pb;
use scribevault_proto::webhooks::v1::webhooks_service_client::WebhooksServiceClient;
use scribevault_test_support::grpc::{InProcessServer, stopped};
use scribevault_webhooks::{WebhookConfig, WebhooksServer};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tonic::transport::Channel;

pub use scribevault_test_support::grpc::as_user;

/// The webhook service running in this process.
pub struct TestApp {
    pub client: WebhooksServiceClient<SignedChannel>,
    pub channel: SignedChannel,
    pub bus: InProcessBus,
    pub db: TestDatabase,
    server: InProcessServer,
}

/// The service on SQLite with the test config.
pub async fn spawn_app() -> TestApp {
    spawn_app_on(TestDatabase::sqlite()).await
}

/// The service on a fresh PostgreSQL database, or `None` (after a loud message) when no server
/// is configured outside CI.
pub async fn spawn_app_on_postgres(test_name: &str) -> Option<TestApp> {
    let admin = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    )?;
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a PostgreSQL test database");
    Some(spawn_app_on(db).await)
}

pub async fn spawn_app_on(db: TestDatabase) -> TestApp {
    spawn_app_with(db, InProcessBus::new(5)).await
}

/// The service on `db` and `bus`: the same two again are the service restarted.
pub async fn spawn_app_with(db: TestDatabase, bus: InProcessBus) -> TestApp {
    let connection = scribevault_db::connect(&db.url).await.expect("connect");
    let server = WebhooksServer::build(
        connection,
        Arc::new(bus.clone()),
        Arc::new(bus.clone()),
        WebhookConfig::for_tests(),
    )
    .await
    .expect("build the webhook service");
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    TestApp {
        client: WebhooksServiceClient::new(server.channel.clone()),
        channel: server.channel.clone(),
        bus,
        db,
        server,
    }
}

impl TestApp {
    /// A webhook of `user` calling `url` for `item.created`.
    pub async fn create(&self, user: &str, url: &str) -> pb::CreatedWebhook {
        self.client
            .clone()
            .create_webhook(as_user(
                user,
                pb::CreateWebhookRequest {
                    url: url.to_owned(),
                    events: vec!["item.created".to_owned()],
                    description: format!("{user}'s"),
                },
            ))
            .await
            .expect("CreateWebhook")
            .into_inner()
    }

    pub async fn list(&self, user: &str) -> Vec<pb::Webhook> {
        self.client
            .clone()
            .list_webhooks(as_user(user, pb::ListWebhooksRequest {}))
            .await
            .expect("ListWebhooks")
            .into_inner()
            .webhooks
    }

    pub async fn attempts(&self, user: &str, id: &str) -> Vec<pb::Attempt> {
        self.client
            .clone()
            .list_attempts(as_user(user, pb::ListAttemptsRequest { id: id.to_owned() }))
            .await
            .expect("ListAttempts")
            .into_inner()
            .attempts
    }

    /// Publishes a new Vault item `item` of `user`, as the library does.
    pub async fn item_created(&self, user: &str, item: &str) {
        publish_item_created(&self.bus, user, item).await;
    }

    /// The server's channel without the signing interceptor, for calls that carry an assertion
    /// put on by hand.
    pub fn raw_channel(&self) -> Channel {
        self.server.raw_channel.clone()
    }

    pub async fn stop(self) -> scribevault_test_support::grpc::RunResult {
        self.server.stop().await
    }

    /// Stops the server; answers its database and bus, to start it again on.
    pub async fn stopped(self) -> (TestDatabase, InProcessBus) {
        let Self {
            db, bus, server, ..
        } = self;
        server.stop().await.expect("the server stops cleanly");
        (db, bus)
    }
}

/// Publishes a new Vault item `item` of `user` on `bus`, as the library does.
pub async fn publish_item_created(bus: &InProcessBus, user: &str, item: &str) {
    let event = Event::LibraryUpdate(LibraryUpdate {
        change: ItemChange::Created,
        transcript: LibraryItemRef {
            id: item.to_owned(),
            title: "A talk".to_owned(),
        },
    });
    bus.publish(&EventEnvelope::for_event(&event, user, None))
        .await
        .unwrap();
}

/// A receiver on a loopback port that answers 200 and keeps the bodies it got.
#[derive(Clone, Default)]
pub struct Receiver {
    bodies: Arc<Mutex<Vec<String>>>,
}

impl Receiver {
    /// Serves; answers its URL.
    pub async fn start(&self) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let bodies = self.bodies.clone();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let bodies = bodies.clone();
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0; 4096];
                    // One request per connection: read until the body the head announces is in.
                    while let Ok(read) = stream.read(&mut buffer).await {
                        if read == 0 {
                            break;
                        }
                        request.extend_from_slice(&buffer[..read]);
                        if complete(&request) {
                            break;
                        }
                    }
                    let text = String::from_utf8_lossy(&request).into_owned();
                    if let Some((_, body)) = text.split_once("\r\n\r\n") {
                        bodies.lock().unwrap().push(body.to_owned());
                    }
                    let _ = stream
                        .write_all(
                            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                        )
                        .await;
                });
            }
        });
        format!("http://127.0.0.1:{port}/hook")
    }

    pub fn bodies(&self) -> Vec<serde_json::Value> {
        self.bodies
            .lock()
            .unwrap()
            .iter()
            .map(|body| serde_json::from_str(body).unwrap())
            .collect()
    }

    /// Waits until `count` bodies arrived; answers them.
    pub async fn wait_for(&self, count: usize) -> Vec<serde_json::Value> {
        for _ in 0..200 {
            if self.bodies.lock().unwrap().len() >= count {
                return self.bodies();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{count} deliveries expected, got {:?}", self.bodies());
    }
}

fn complete(request: &[u8]) -> bool {
    let text = String::from_utf8_lossy(request);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    let length = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    body.len() >= length
}
