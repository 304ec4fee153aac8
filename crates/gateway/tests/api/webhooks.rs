//! Webhooks end to end in this process: the real gateway (its REST API, its outbox and its
//! dispatcher) on the in-process bus, a receiver on a loopback port that records what arrives
//! and answers what the test tells it, and the official Standard Webhooks package in Python
//! verifying the signatures.

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

fn config(data_dir: &std::path::Path, allow_private: bool) -> GatewayConfig {
    let settings = scribevault_core::Settings::load_from(None, Vec::<(String, String)>::new())
        .expect("the default settings load");
    let mut config = GatewayConfig::try_from(&settings).expect("the default settings are valid");
    config.http_addr = "127.0.0.1:0".to_owned();
    config.admin_http_addr = "127.0.0.1:0".to_owned();
    config.data_dir = data_dir.to_owned();
    config.frontend_dir = data_dir.join("no-frontend");
    config.auth.argon2_concurrency = 1;
    config.webhooks.policy.allow_private = allow_private;
    config.webhooks.retry_delays = vec![Duration::from_millis(300); 4];
    config.webhooks.poll_interval = Duration::from_millis(100);
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
    identity::install_process_service_key();
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    let services = ServiceAddresses {
        library: nowhere(),
        conversion: nowhere(),
        storage: nowhere(),
        discovery: nowhere(),
        transcription: nowhere(),
    };
    let gateway = Gateway::build(
        &config(data_dir.path(), allow_private),
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

#[tokio::test]
async fn an_event_is_delivered_signed_retried_after_a_500_and_logged() {
    let app = spawn(true).await;
    let (token, user) = app.sign_up("events@example.com").await;
    let receiver = Receiver::default();
    receiver.statuses.lock().unwrap().push_back(500);
    let url = receiver.start().await;
    let made = app.create(&token, &url, &["item.created"]).await;
    let (id, secret) = (
        made["id"].as_str().unwrap(),
        made["secret"].as_str().unwrap(),
    );

    // Not subscribed to, or not a creation: nothing goes out.
    app.publish(
        &user,
        &Event::TranscriptionComplete(TranscriptionComplete {
            file_id: "f".into(),
            job_id: "j".into(),
            transcript_path: "t".into(),
            markdown_path: "m".into(),
            processing_time: 1,
        }),
    )
    .await;
    app.publish(
        &user,
        &Event::LibraryUpdate(LibraryUpdate {
            change: ItemChange::Updated,
            transcript: LibraryItemRef {
                id: "x".into(),
                title: "x".into(),
            },
        }),
    )
    .await;
    let envelope = app.publish(&user, &item_created("item-1")).await;

    let deliveries = receiver.wait_for(2).await;
    for delivery in &deliveries {
        assert_signed(delivery, secret);
        let body = delivery.json();
        assert_eq!(body["type"], "item.created");
        assert_eq!(
            body["data"],
            json!({ "type": "created", "transcript": { "id": "item-1", "title": "A talk" } })
        );
        assert_eq!(
            chrono::DateTime::parse_from_rfc3339(body["timestamp"].as_str().unwrap()).unwrap(),
            envelope.occurred_at
        );
    }
    assert_eq!(
        deliveries[0].header("webhook-id"),
        deliveries[1].header("webhook-id"),
        "a retry is the same message"
    );
    assert!(deliveries[0].header("webhook-id").starts_with("msg_"));

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.received().len(), 2, "delivered once it succeeded");
    let attempts = app.attempts(&token, id).await;
    assert_eq!(attempts.len(), 2, "{attempts:?}");
    let (last, first) = (&attempts[0], &attempts[1]);
    assert_eq!(first["attempt"], 1);
    assert_eq!(first["statusCode"], 500);
    assert_eq!(first["succeeded"], false);
    assert_eq!(first["responseExcerpt"], "reply 500");
    assert!(first["nextAttemptAt"].is_string());
    assert_eq!(first["event"], "item.created");
    assert_eq!(last["attempt"], 2);
    assert_eq!(last["statusCode"], 200);
    assert_eq!(last["succeeded"], true);
    assert!(last["nextAttemptAt"].is_null());
    assert!(last["durationMs"].is_u64());

    let listed = app.send(Method::GET, "/api/webhooks", &token, None).await;
    assert_eq!(
        listed.body["data"]["webhooks"][0]["lastAttempt"]["statusCode"],
        200
    );
}

#[tokio::test]
async fn a_delivery_is_given_up_after_five_attempts_and_a_410_switches_the_webhook_off() {
    let app = spawn(true).await;
    let (token, user) = app.sign_up("failing@example.com").await;
    let receiver = Receiver::default();
    receiver.statuses.lock().unwrap().extend([503; 10]);
    let url = receiver.start().await;
    let made = app.create(&token, &url, &["transcription.failed"]).await;
    let id = made["id"].as_str().unwrap();
    let failed = |status| {
        Event::TranscriptionError(TranscriptionErrorEvent {
            file_id: "f".into(),
            job_id: "j".into(),
            error_message: Some("bad audio".into()),
            error: Some("bad audio".into()),
            status,
            retry_count: 3,
            max_retries: 3,
            last_failed_at: None,
        })
    };
    app.publish(&user, &failed(FileStatus::Error)).await;
    app.publish(&user, &failed(FileStatus::Failed)).await;
    receiver.wait_for(5).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(receiver.received().len(), 5, "five attempts, then no more");
    assert!(
        receiver
            .received()
            .iter()
            .all(|delivery| delivery.json()["type"] == "transcription.failed")
    );
    let attempts = app.attempts(&token, id).await;
    assert_eq!(attempts.len(), 5);
    assert!(
        attempts[0]["nextAttemptAt"].is_null(),
        "the last is not retried"
    );

    receiver.statuses.lock().unwrap().clear();
    receiver.statuses.lock().unwrap().push_back(410);
    let test = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(test.status, 200, "{}", test.body);
    assert_eq!(test.body["data"]["statusCode"], 410);
    let listed = app.send(Method::GET, "/api/webhooks", &token, None).await;
    let hook = &listed.body["data"]["webhooks"][0];
    assert_eq!(hook["enabled"], false);
    assert!(hook["disabledReason"].as_str().unwrap().contains("410"));
}

#[tokio::test]
async fn send_test_delivers_a_signed_test_event_and_answers_the_result() {
    let app = spawn(true).await;
    let (token, _) = app.sign_up("tester@example.com").await;
    let receiver = Receiver::default();
    let url = receiver.start().await;
    let made = app.create(&token, &url, &["sync.new_videos"]).await;
    let id = made["id"].as_str().unwrap();
    let answer = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    let attempt = &answer.body["data"];
    assert_eq!(attempt["statusCode"], 200);
    assert_eq!(attempt["succeeded"], true);
    assert_eq!(attempt["event"], "webhook.test");
    let delivery = &receiver.received()[0];
    assert_signed(delivery, made["secret"].as_str().unwrap());
    assert_eq!(delivery.json()["type"], "webhook.test");
    assert_eq!(delivery.json()["data"]["webhookId"], id);
    assert_eq!(app.attempts(&token, id).await.len(), 1);

    // A receiver that is not there: the call succeeds and says why the attempt did not.
    let dead = app
        .send(
            Method::PATCH,
            &format!("/api/webhooks/{id}"),
            &token,
            Some(&json!({ "url": "http://127.0.0.1:9/hook" })),
        )
        .await;
    assert_eq!(dead.status, 200);
    let answer = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(answer.status, 200);
    assert!(answer.body["data"]["statusCode"].is_null());
    assert!(answer.body["data"]["error"].is_string());
}

#[tokio::test]
async fn two_replicas_seeing_one_event_deliver_it_once() {
    two_replicas_deliver_each_event_once(TestDatabase::sqlite()).await;
}

/// The same on PostgreSQL, the database replicas share in production: the outbox's
/// `ON CONFLICT DO NOTHING`, the conditional claim and the log's trimming there.
#[tokio::test]
async fn two_replicas_on_postgres_deliver_each_event_once_and_retry() {
    let test_name = "two_replicas_on_postgres_deliver_each_event_once_and_retry";
    let Some(admin) = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    ) else {
        return;
    };
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a test database");
    two_replicas_deliver_each_event_once(db).await;
}

async fn two_replicas_deliver_each_event_once(db: TestDatabase) {
    let bus = Arc::new(InProcessBus::new(5));
    let db = Arc::new(db);
    let data_dir = Arc::new(tempfile::tempdir().unwrap());
    let one = spawn_replica(true, bus.clone(), db.clone(), data_dir.clone()).await;
    let two = spawn_replica(true, bus, db, data_dir).await;
    let (token, user) = one.sign_up("replicas@example.com").await;
    let receiver = Receiver::default();
    // The first attempt fails: its retry is claimed and settled once too.
    receiver.statuses.lock().unwrap().push_back(500);
    let url = receiver.start().await;
    let made = two.create(&token, &url, &["item.created"]).await;
    for index in 0..5 {
        one.publish(&user, &item_created(&format!("item-{index}")))
            .await;
    }
    receiver.wait_for(6).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let attempts = one.attempts(&token, made["id"].as_str().unwrap()).await;
    assert_eq!(attempts.len(), 6, "{attempts:?}");
    let ids: std::collections::BTreeSet<String> = receiver
        .received()
        .iter()
        .map(|delivery| {
            delivery.json()["data"]["transcript"]["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        receiver.received().len(),
        6,
        "each event once, and one retry"
    );
    assert_eq!(ids.len(), 5);
}

#[tokio::test]
async fn the_official_standard_webhooks_package_verifies_every_delivery() {
    let test_name = "the_official_standard_webhooks_package_verifies_every_delivery";
    let found = std::process::Command::new("python3")
        .args(["-c", "import standardwebhooks"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !scribevault_test_support::required_tool(
        found,
        "python standardwebhooks (`scripts/install-test-tools.sh`)",
        test_name,
    ) {
        return;
    }
    let app = spawn(true).await;
    let (token, user) = app.sign_up("python@example.com").await;
    // The receiver needs the secret before it listens: make the webhook at a placeholder URL
    // first, then point it at the receiver.
    let made = app
        .create(&token, "http://127.0.0.1:9/placeholder", &["item.created"])
        .await;
    let (id, secret) = (
        made["id"].as_str().unwrap(),
        made["secret"].as_str().unwrap(),
    );
    let script = scribevault_test_support::workspace_root()
        .join("crates/gateway/tests/support/webhook_receiver.py");
    let mut child = tokio::process::Command::new("python3")
        .arg(script)
        .arg(secret)
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next_line = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
            .await
            .expect("the receiver prints in time")
            .unwrap()
            .expect("a line");
        serde_json::from_str(&line).unwrap()
    };
    let port = next_line().await["port"].as_u64().unwrap();
    let changed = app
        .send(
            Method::PATCH,
            &format!("/api/webhooks/{id}"),
            &token,
            Some(&json!({ "url": format!("http://127.0.0.1:{port}/hook") })),
        )
        .await;
    assert_eq!(changed.status, 200);

    let test = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(test.body["data"]["statusCode"], 200, "{}", test.body);
    let line = next_line().await;
    assert_eq!(line["verified"], true, "{line}");
    assert_eq!(line["type"], "webhook.test");

    app.publish(&user, &item_created("python-item")).await;
    let line = next_line().await;
    assert_eq!(line["verified"], true, "{line}");
    assert_eq!(line["type"], "item.created");
    assert_eq!(line["data"]["transcript"]["id"], "python-item");

    // A rotated secret: the receiver still holds the old one, so it must refuse.
    let rotated = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/rotate-secret"),
            &token,
            None,
        )
        .await;
    assert_eq!(rotated.status, 200);
    let test = app
        .send(
            Method::POST,
            &format!("/api/webhooks/{id}/test"),
            &token,
            None,
        )
        .await;
    assert_eq!(test.body["data"]["statusCode"], 401);
    let line = next_line().await;
    assert_eq!(line["verified"], false, "{line}");
    child.kill().await.ok();
}
