//! Webhooks end to end in this process: the real gateway (its REST API) and the real webhook
//! service (its outbox and its dispatcher) on one database and the in-process bus, a receiver on
//! a loopback port that records what arrives and answers what the test tells it, and the
//! official Standard Webhooks package in Python verifying the signatures.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use hmac::{Hmac, Mac as _};
use reqwest::Method;
use scribevault_bus::contract::{
    FileStatus, ItemChange, LibraryItemRef, LibraryUpdate, TranscriptionComplete,
    TranscriptionErrorEvent,
};
use scribevault_bus::{Event, EventBus, EventEnvelope, InProcessBus};
use scribevault_core::identity;
use scribevault_db::TestDatabase;
use scribevault_gateway::{Gateway, GatewayConfig, GatewayDependencies, ServiceAddresses};
use scribevault_webhooks::{WebhookConfig, WebhooksServer};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};

use crate::helpers::{Answer, answer, assert_error};

const PASSWORD: &str = "correct horse battery staple";

/// A webhook receiver on a loopback port.
#[derive(Clone, Default)]
struct Receiver {
    received: Arc<Mutex<Vec<Delivery>>>,
    /// Statuses answered in turn; 200 once they run out.
    statuses: Arc<Mutex<VecDeque<u16>>>,
}

#[derive(Debug, Clone)]
struct Delivery {
    headers: Vec<(String, String)>,
    body: String,
}

impl Delivery {
    fn header(&self, name: &str) -> &str {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map_or("", |(_, value)| value.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }
}

impl Receiver {
    /// Serves on a loopback port; answers its URL.
    async fn start(&self) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let this = self.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let this = this.clone();
                tokio::spawn(async move { this.serve(stream).await });
            }
        });
        format!("http://127.0.0.1:{port}/hook")
    }

    async fn serve(&self, stream: tokio::net::TcpStream) {
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).await.unwrap();
        let mut headers = Vec::new();
        loop {
            line.clear();
            reader.read_line(&mut line).await.unwrap();
            let trimmed = line.trim_end();
            if trimmed.is_empty() {
                break;
            }
            let (key, value) = trimmed.split_once(':').unwrap();
            headers.push((key.trim().to_lowercase(), value.trim().to_owned()));
        }
        let length: usize = headers
            .iter()
            .find(|(key, _)| key == "content-length")
            .map_or(0, |(_, value)| value.parse().unwrap());
        let mut body = vec![0; length];
        reader.read_exact(&mut body).await.unwrap();
        let status = self.statuses.lock().unwrap().pop_front().unwrap_or(200);
        self.received.lock().unwrap().push(Delivery {
            headers,
            body: String::from_utf8(body).unwrap(),
        });
        let text = format!("reply {status}");
        let reply = format!(
            "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
            text.len()
        );
        let _ = reader.get_mut().write_all(reply.as_bytes()).await;
    }

    fn received(&self) -> Vec<Delivery> {
        self.received.lock().unwrap().clone()
    }

    /// Waits until `count` deliveries arrived.
    async fn wait_for(&self, count: usize) -> Vec<Delivery> {
        for _ in 0..200 {
            if self.received().len() >= count {
                return self.received();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{count} deliveries expected, got {:?}", self.received());
    }
}

/// The gateway with the bus and database a test can reach.
struct WebhookApp {
    address: String,
    http: reqwest::Client,
    bus: Arc<InProcessBus>,
    /// Kept for as long as the gateway runs on it: dropping it deletes the database.
    _db: Arc<TestDatabase>,
    _data_dir: Arc<tempfile::TempDir>,
}

fn config(data_dir: &std::path::Path) -> GatewayConfig {
    let settings = scribevault_core::Settings::load_from(None, Vec::<(String, String)>::new())
        .expect("the default settings load");
    let mut config = GatewayConfig::try_from(&settings).expect("the default settings are valid");
    config.http_addr = "127.0.0.1:0".to_owned();
    config.admin_http_addr = "127.0.0.1:0".to_owned();
    config.data_dir = data_dir.to_owned();
    config.frontend_dir = data_dir.join("no-frontend");
    config.auth.argon2_concurrency = 1;
    config
}

/// Fast retries and polls, no limit on tests (the limit has a test of its own), any port (the
/// receivers here listen on loopback's free ports); private addresses as the test says.
fn webhook_config(allow_private: bool) -> WebhookConfig {
    let mut config = WebhookConfig::for_tests();
    config.policy.allow_private = allow_private;
    config
}

fn nowhere() -> String {
    "127.0.0.1:9".to_owned()
}

async fn spawn(allow_private: bool) -> WebhookApp {
    let data_dir = Arc::new(tempfile::tempdir().unwrap());
    spawn_replica(
        allow_private,
        Arc::new(InProcessBus::new(5)),
        Arc::new(TestDatabase::sqlite()),
        data_dir,
    )
    .await
}

/// A gateway on `db` and `bus`: two of these are two replicas of one instance.
async fn spawn_replica(
    allow_private: bool,
    bus: Arc<InProcessBus>,
    db: Arc<TestDatabase>,
    data_dir: Arc<tempfile::TempDir>,
) -> WebhookApp {
    let config = config(data_dir.path());
    spawn_configured(&config, webhook_config(allow_private), bus, db, data_dir).await
}

/// The webhook service on `db` and `bus`, on a loopback port; answers its address. It runs
/// until the test's runtime ends.
async fn spawn_webhooks(
    config: WebhookConfig,
    bus: Arc<InProcessBus>,
    db: &TestDatabase,
) -> String {
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    let server = WebhooksServer::build(connection, bus.clone(), bus, config)
        .await
        .expect("build the webhook service");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    tokio::spawn(server.run(listener, std::future::pending()));
    address
}

async fn spawn_configured(
    config: &GatewayConfig,
    webhooks: WebhookConfig,
    bus: Arc<InProcessBus>,
    db: Arc<TestDatabase>,
    data_dir: Arc<tempfile::TempDir>,
) -> WebhookApp {
    identity::install_process_service_key();
    let webhooks = spawn_webhooks(webhooks, bus.clone(), &db).await;
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    let services = ServiceAddresses {
        library: nowhere(),
        conversion: nowhere(),
        storage: nowhere(),
        discovery: nowhere(),
        transcription: nowhere(),
        webhooks,
    };
    let gateway = Gateway::build(
        config,
        GatewayDependencies {
            db: connection,
            services,
            readiness: Vec::new(),
            events: bus.clone(),
        },
    )
    .await
    .expect("build the gateway");
    let address = format!("http://127.0.0.1:{}", gateway.port());
    tokio::spawn(gateway.run());
    WebhookApp {
        address,
        http: reqwest::Client::new(),
        bus,
        _db: db,
        _data_dir: data_dir,
    }
}

impl WebhookApp {
    async fn send(&self, method: Method, path: &str, token: &str, body: Option<&Value>) -> Answer {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.address))
            .bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        answer(request).await
    }

    /// Signs up `email` as the instance's first account (its owner); answers (token, user id).
    async fn sign_up(&self, email: &str) -> (String, String) {
        self.sign_up_with(email, None).await
    }

    /// Signs up `email` as a further member, with an invitation `owner` made (sign-up is by
    /// invitation once the instance has its owner); answers (token, user id).
    async fn sign_up_invited(&self, owner: &str, email: &str) -> (String, String) {
        let invitation = self
            .send(
                Method::POST,
                "/api/admin/invitations",
                owner,
                Some(&json!({})),
            )
            .await;
        assert_eq!(invitation.status, 201, "{}", invitation.body);
        let url = invitation.body["data"]["url"].as_str().unwrap();
        let secret = url.split("invitation=").nth(1).unwrap().to_owned();
        self.sign_up_with(email, Some(&secret)).await
    }

    async fn sign_up_with(&self, email: &str, invitation: Option<&str>) -> (String, String) {
        let mut body = json!({ "email": email, "password": PASSWORD });
        if let Some(invitation) = invitation {
            body["invitation"] = json!(invitation);
        }
        let answer = answer(
            self.http
                .post(format!("{}/api/auth/signup", self.address))
                .json(&body),
        )
        .await;
        assert_eq!(answer.status, 201, "{}", answer.body);
        let data = &answer.body["data"];
        (
            data["token"].as_str().unwrap().to_owned(),
            data["user"]["id"].as_str().unwrap().to_owned(),
        )
    }

    async fn create(&self, token: &str, url: &str, events: &[&str]) -> Value {
        let answer = self
            .send(
                Method::POST,
                "/api/webhooks",
                token,
                Some(&json!({ "url": url, "events": events, "description": "test" })),
            )
            .await;
        assert_eq!(answer.status, 201, "{}", answer.body);
        answer.body["data"].clone()
    }

    async fn publish(&self, user: &str, event: &Event) -> EventEnvelope {
        let envelope = EventEnvelope::for_event(event, user, None);
        self.bus.publish(&envelope).await.unwrap();
        envelope
    }

    async fn attempts(&self, token: &str, id: &str) -> Vec<Value> {
        let answer = self
            .send(
                Method::GET,
                &format!("/api/webhooks/{id}/deliveries"),
                token,
                None,
            )
            .await;
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.body["data"]["attempts"].as_array().unwrap().clone()
    }
}

fn item_created(id: &str) -> Event {
    Event::LibraryUpdate(LibraryUpdate {
        change: ItemChange::Created,
        transcript: LibraryItemRef {
            id: id.to_owned(),
            title: "A talk".to_owned(),
        },
    })
}

/// Checks a delivery's Standard Webhooks signature the way the spec describes it.
fn assert_signed(delivery: &Delivery, secret: &str) {
    let key = base64::engine::general_purpose::STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    let signed = format!(
        "{}.{}.{}",
        delivery.header("webhook-id"),
        delivery.header("webhook-timestamp"),
        delivery.body
    );
    mac.update(signed.as_bytes());
    let expected = format!(
        "v1,{}",
        base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
    );
    assert_eq!(delivery.header("webhook-signature"), expected);
    let timestamp: i64 = delivery.header("webhook-timestamp").parse().unwrap();
    assert!((chrono::Utc::now().timestamp() - timestamp).abs() < 60);
    assert_eq!(delivery.header("content-type"), "application/json");
}

#[tokio::test]
async fn webhooks_are_made_listed_changed_and_deleted_by_their_owner_only() {
    let app = spawn(true).await;
    let (token, _) = app.sign_up("owner@example.com").await;
    let (other, _) = app.sign_up_invited(&token, "other@example.com").await;
    let receiver = Receiver::default();
    let url = receiver.start().await;

    let made = app
        .create(&token, &url, &["item.created", "transcription.failed"])
        .await;
    let id = made["id"].as_str().unwrap().to_owned();
    assert!(made["secret"].as_str().unwrap().starts_with("whsec_"));
    assert_eq!(
        made["events"],
        json!(["item.created", "transcription.failed"])
    );
    assert_eq!(made["enabled"], true);
    assert_eq!(made["url"], url);

    let listed = app.send(Method::GET, "/api/webhooks", &token, None).await;
    assert_eq!(listed.status, 200);
    let hooks = listed.body["data"]["webhooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1);
    assert!(hooks[0].get("secret").is_none(), "the secret is shown once");
    let theirs = app.send(Method::GET, "/api/webhooks", &other, None).await;
    assert_eq!(theirs.body["data"]["webhooks"], json!([]));

    let changed = app
        .send(
            Method::PATCH,
            &format!("/api/webhooks/{id}"),
            &token,
            Some(&json!({ "events": ["download.completed"], "enabled": false })),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(
        changed.body["data"]["events"],
        json!(["download.completed"])
    );
    assert_eq!(changed.body["data"]["enabled"], false);

    let rotated = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/rotate-secret"),
            &token,
            None,
        )
        .await;
    assert_eq!(rotated.status, 200);
    assert_ne!(rotated.body["data"]["secret"], made["secret"]);

    // Another member's id is as unknown as a made-up one.
    for (method, path, body) in [
        (
            Method::PATCH,
            format!("/api/webhooks/{id}"),
            Some(json!({ "enabled": true })),
        ),
        (Method::DELETE, format!("/api/webhooks/{id}"), None),
        (Method::GET, format!("/api/webhooks/{id}/deliveries"), None),
        (Method::POST, format!("/api/webhooks/{id}/test"), None),
        (
            Method::POST,
            format!("/api/webhooks/{id}/rotate-secret"),
            None,
        ),
    ] {
        let answer = app.send(method, &path, &other, body.as_ref()).await;
        assert_error(&answer, 404, "NOT_FOUND");
    }
    assert!(
        receiver.received().is_empty(),
        "another member's test reached nobody"
    );

    let deleted = app
        .send(Method::DELETE, &format!("/api/webhooks/{id}"), &token, None)
        .await;
    assert_eq!(deleted.status, 204);
    let again = app
        .send(Method::DELETE, &format!("/api/webhooks/{id}"), &token, None)
        .await;
    assert_error(&again, 404, "NOT_FOUND");
}

#[tokio::test]
async fn private_addresses_and_other_schemes_are_refused_by_default() {
    let app = spawn(false).await;
    let (token, _) = app.sign_up("strict@example.com").await;
    for (url, needle) in [
        ("http://127.0.0.1:8080/hook", "private"),
        ("http://localhost/hook", "private"),
        ("http://[::1]/hook", "private"),
        ("http://10.0.0.5/hook", "private"),
        ("http://192.168.1.10/hook", "private"),
        ("http://169.254.169.254/latest/meta-data/", "private"),
        ("http://[fd00::1]/hook", "private"),
        ("http://100.64.0.1/hook", "private"),
        ("ftp://example.com/hook", "http or https"),
        ("file:///etc/passwd", "http or https"),
        (
            "https://user:secret@example.com/hook",
            "user name or password",
        ),
        ("not a url", "valid"),
    ] {
        let answer = app
            .send(
                Method::POST,
                "/api/webhooks",
                &token,
                Some(&json!({ "url": url, "events": ["item.created"] })),
            )
            .await;
        let message = assert_error(&answer, 400, "BAD_REQUEST");
        assert!(message.contains(needle), "{url}: {message}");
    }
    let long = format!("https://example.com/{}", "a".repeat(2048));
    let answer = app
        .send(
            Method::POST,
            "/api/webhooks",
            &token,
            Some(&json!({ "url": long, "events": ["item.created"] })),
        )
        .await;
    assert_error(&answer, 400, "BAD_REQUEST");
    for events in [json!([]), json!(["webhook.test"]), json!(["item.exploded"])] {
        let answer = app
            .send(
                Method::POST,
                "/api/webhooks",
                &token,
                Some(&json!({ "url": "https://example.com/hook", "events": events })),
            )
            .await;
        assert_error(&answer, 400, "BAD_REQUEST");
    }
    let listed = app.send(Method::GET, "/api/webhooks", &token, None).await;
    assert_eq!(listed.body["data"]["webhooks"], json!([]));
}

mod delivery;

/// 'Send test' answers with the receiver's status and timing: unlimited, 20 webhooks would scan
/// the ports of any host from the instance's address (the review's G10). One test per webhook
/// every 10 seconds; another member's webhook is still theirs to test.
#[tokio::test]
async fn send_test_is_limited_to_one_per_webhook_every_ten_seconds() {
    let data_dir = Arc::new(tempfile::tempdir().unwrap());
    let config = config(data_dir.path());
    let app = spawn_configured(
        &config,
        WebhookConfig::new(true, true),
        Arc::new(InProcessBus::new(5)),
        Arc::new(TestDatabase::sqlite()),
        data_dir,
    )
    .await;
    let (token, _) = app.sign_up("prober@example.com").await;
    let first = app
        .create(&token, "http://127.0.0.1:9/a", &["sync.new_videos"])
        .await;
    let second = app
        .create(&token, "http://127.0.0.1:9/b", &["sync.new_videos"])
        .await;
    let test = |id: String| {
        let app = &app;
        let token = token.clone();
        async move {
            app.send(
                Method::POST,
                &format!("/api/webhooks/{id}/test"),
                &token,
                None,
            )
            .await
        }
    };
    let id = first["id"].as_str().unwrap().to_owned();
    assert_eq!(test(id.clone()).await.status, 200);
    let again = test(id.clone()).await;
    assert_eq!(again.status, 429, "{}", again.body);
    assert!(
        again.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("10 seconds"),
        "{}",
        again.body
    );
    let other = second["id"].as_str().unwrap().to_owned();
    assert_eq!(
        test(other).await.status,
        200,
        "each webhook has its own limit"
    );
}
