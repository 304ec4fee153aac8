//! `spawn_app()`: the real gateway in this process (its actix server on a loopback port, its
//! SQLite database in a temp dir, the in-process bus), in front of fake library, conversion and
//! storage services. The fakes record what reaches them, with the caller their identity
//! check verified, and answer what a test tells them to.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use reqwest::Method;
use scribevault_bus::InProcessBus;
use scribevault_core::identity;
use scribevault_db::TestDatabase;
use scribevault_gateway::{Gateway, GatewayConfig, GatewayDependencies, ServiceAddresses};
use scribevault_proto::conversion::v1::conversion_service_server::ConversionServiceServer;
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::library::v1::library_service_server::LibraryServiceServer;
use scribevault_proto::storage::v1::storage_service_server::StorageServiceServer;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::Request;
use tonic::codegen::http;
use tonic::server::NamedService;
use tonic::service::interceptor::InterceptedService;

mod fakes;

use fakes::lock;
pub use fakes::*;

/// The password every test account signs up with (strong enough for zxcvbn).
const PASSWORD: &str = "correct horse battery staple";

/// Every call that arrived at any fake, before its identity was checked: what a route that
/// must not reach a service is tested against.
#[derive(Default)]
pub struct Arrivals(Mutex<Vec<Arrival>>);

/// A call as it arrived at a fake's port.
#[derive(Debug, Clone)]
pub struct Arrival {
    pub service: &'static str,
    /// Whether it carried an identity assertion at all.
    pub with_identity: bool,
}

impl Arrivals {
    pub fn all(&self) -> Vec<Arrival> {
        lock(&self.0).clone()
    }
}

/// A fake serving on a loopback port; dropping it stops the server.
pub struct FakeServer {
    /// `127.0.0.1:<port>`.
    pub address: String,
    _stop: oneshot::Sender<()>,
}

/// Serves `service` on a loopback port the way every service is served: each call's identity
/// assertion is checked ([`identity::verify_incoming`]) before the fake sees it, and every
/// call is logged in `arrivals` first, so a call sent without an identity is seen too.
async fn serve_fake<S>(service: S, arrivals: Arc<Arrivals>) -> FakeServer
where
    S: tonic::codegen::Service<
            http::Request<tonic::body::Body>,
            Response = http::Response<tonic::body::Body>,
            Error = Infallible,
        > + NamedService
        + Clone
        + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a loopback port");
    let address = listener.local_addr().expect("local address").to_string();
    let interceptor = move |request: Request<()>| {
        lock(&arrivals.0).push(Arrival {
            service: S::NAME,
            with_identity: request
                .metadata()
                .contains_key(identity::IDENTITY_METADATA_KEY),
        });
        identity::verify_incoming(request)
    };
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(scribevault_proto::server::WithCalledMethod(
                InterceptedService::new(service, interceptor),
            ))
            .serve_with_incoming_shutdown(TcpListenerStream::new(listener), async {
                let _ = stopped.await;
            }),
    );
    FakeServer {
        address,
        _stop: stop,
    }
}

/// An address where nothing listens: the services no test here calls. The port stays bound
/// (without listening) for the rest of the test process, so a connection is refused at once
/// and no other test or process can take the port in the meantime.
fn closed_address() -> String {
    static HELD: Mutex<Vec<tokio::net::TcpSocket>> = Mutex::new(Vec::new());
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .bind("127.0.0.1:0".parse().expect("an address"))
        .expect("bind a loopback port");
    let address = socket.local_addr().expect("local address").to_string();
    lock(&HELD).push(socket);
    address
}

/// The gateway in this process, its fakes, and an HTTP client.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    pub http: reqwest::Client,
    pub library: Arc<FakeLibrary>,
    pub conversion: Arc<FakeConversion>,
    pub storage: Arc<FakeStorage>,
    pub arrivals: Arc<Arrivals>,
    _servers: Vec<FakeServer>,
    _data_dir: tempfile::TempDir,
    db: TestDatabase,
}

/// The gateway's configuration for a test: the settings' defaults, local accounts, both
/// listeners on loopback port 0, and its files in `data_dir`.
fn config(data_dir: &std::path::Path) -> GatewayConfig {
    let settings = scribevault_core::Settings::load_from(None, Vec::<(String, String)>::new())
        .expect("the default settings load");
    let mut config = GatewayConfig::try_from(&settings).expect("the default settings are valid");
    config.http_addr = "127.0.0.1:0".to_owned();
    config.admin_http_addr = "127.0.0.1:0".to_owned();
    config.data_dir = data_dir.to_owned();
    // No SPA build: unknown paths get the fallback page.
    config.frontend_dir = data_dir.join("no-frontend");
    config.auth.argon2_concurrency = 1;
    config
}

/// The real gateway on a loopback port, with a fresh SQLite database and fake services.
pub async fn spawn_app() -> TestApp {
    // The gateway signs with this process's key and the fakes verify with it.
    identity::install_process_service_key();
    let arrivals = Arc::new(Arrivals::default());
    let library = Arc::new(FakeLibrary::default());
    let conversion = Arc::new(FakeConversion::default());
    let storage = Arc::new(FakeStorage::default());
    let servers = vec![
        serve_fake(
            LibraryServiceServer::from_arc(library.clone()),
            arrivals.clone(),
        )
        .await,
        serve_fake(
            ConversionServiceServer::from_arc(conversion.clone()),
            arrivals.clone(),
        )
        .await,
        serve_fake(
            StorageServiceServer::from_arc(storage.clone()),
            arrivals.clone(),
        )
        .await,
    ];
    let services = ServiceAddresses {
        library: servers[0].address.clone(),
        conversion: servers[1].address.clone(),
        storage: servers[2].address.clone(),
        discovery: closed_address(),
        transcription: closed_address(),
        webhooks: closed_address(),
    };
    let db = TestDatabase::sqlite();
    let connection = scribevault_db::connect(&db.url)
        .await
        .expect("open the test database");
    let data_dir = tempfile::tempdir().expect("a data dir");
    let gateway = Gateway::build(
        &config(data_dir.path()),
        GatewayDependencies {
            db: connection,
            services,
            readiness: Vec::new(),
            events: Arc::new(InProcessBus::new(5)),
        },
    )
    .await
    .expect("build the gateway");
    let address = format!("http://127.0.0.1:{}", gateway.port());
    tokio::spawn(gateway.run());
    TestApp {
        address,
        http: reqwest::Client::new(),
        library,
        conversion,
        storage,
        arrivals,
        _servers: servers,
        _data_dir: data_dir,
        db,
    }
}

/// A response as a test reads it.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    /// The JSON body, or `Null` when there is none.
    pub body: Value,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// The gateway's own database, for tests that check what is (not) stored.
    pub fn database_url(&self) -> &str {
        &self.db.url
    }

    /// Signs up the instance's first account (its owner); answers (token, user id).
    pub async fn sign_up_owner(&self) -> (String, String) {
        let answer = self
            .send(
                Method::POST,
                "/api/auth/signup",
                None,
                Some(&json!({ "email": "owner@example.com", "password": PASSWORD })),
            )
            .await;
        assert_eq!(answer.status, 201, "sign-up failed: {}", answer.body);
        let data = &answer.body["data"];
        assert_eq!(
            data["user"]["isAdmin"], true,
            "the first account owns the instance"
        );
        (
            data["token"].as_str().expect("a token").to_owned(),
            data["user"]["id"].as_str().expect("a user id").to_owned(),
        )
    }

    /// The bearer token of the instance's owner.
    pub async fn token(&self) -> String {
        self.sign_up_owner().await.0
    }

    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Answer {
        let mut request = self.http.request(method, self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        answer(request).await
    }

    pub async fn get(&self, path: &str, token: &str) -> Answer {
        self.send(Method::GET, path, Some(token), None).await
    }

    pub async fn put(&self, path: &str, token: &str, body: &Value) -> Answer {
        self.send(Method::PUT, path, Some(token), Some(body)).await
    }

    pub async fn post(&self, path: &str, token: &str, body: &Value) -> Answer {
        self.send(Method::POST, path, Some(token), Some(body)).await
    }

    /// A `multipart/form-data` POST.
    pub async fn post_form(
        &self,
        path: &str,
        token: &str,
        form: reqwest::multipart::Form,
    ) -> Answer {
        answer(
            self.http
                .post(self.url(path))
                .bearer_auth(token)
                .multipart(form),
        )
        .await
    }
}

pub async fn answer(request: reqwest::RequestBuilder) -> Answer {
    let response = request.send().await.expect("the gateway answers");
    let status = response.status().as_u16();
    let bytes = response.bytes().await.expect("a body");
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            panic!(
                "a JSON body, got {status}: {}",
                String::from_utf8_lossy(&bytes)
            )
        })
    };
    Answer { status, body }
}

/// The error shape every failure answers: `{"error": {"message", "code"}}` and nothing else.
/// Answers the message.
pub fn assert_error(answer: &Answer, status: u16, code: &str) -> String {
    assert_eq!(answer.status, status, "{}", answer.body);
    let object = answer.body.as_object().expect("a JSON object");
    assert_eq!(
        object.keys().collect::<Vec<_>>(),
        ["error"],
        "{}",
        answer.body
    );
    let error = answer.body["error"].as_object().expect("an error object");
    let mut keys: Vec<_> = error.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["code", "message"], "{}", answer.body);
    assert_eq!(error["code"], code, "{}", answer.body);
    error["message"].as_str().expect("a message").to_owned()
}

/// The keys of a JSON object, sorted.
pub fn keys(value: &Value) -> Vec<String> {
    let mut keys: Vec<String> = value
        .as_object()
        .unwrap_or_else(|| panic!("an object, got {value}"))
        .keys()
        .cloned()
        .collect();
    keys.sort_unstable();
    keys
}

/// A library item as the fake answers it.
pub fn transcript(id: &str) -> library_pb::Transcript {
    library_pb::Transcript {
        id: id.to_owned(),
        title: format!("Title of {id}"),
        author: "Ada".to_owned(),
        created_at: "2026-11-01T10:00:00Z".to_owned(),
        last_exported: None,
        is_starred: true,
        gwth_level: Some(3),
        source_type: library_pb::SourceType::Audio.into(),
        rating: Some(4),
        tags: vec!["a".to_owned(), "b".to_owned()],
        duration_seconds: Some(12.5),
        source_ref: format!("uploads/{id}.mp3"),
        section_id: None,
        file_name: Some(format!("{id}.mp3")),
        source_url: None,
        highlights: vec!["the <mark>word</mark> said".to_owned()],
        matches: vec![library_pb::SegmentMatch {
            start: 1.0,
            end: 2.5,
            text: "the word said".to_owned(),
        }],
        language: Some("de".to_owned()),
        transcript_source: Some(library_pb::TranscriptSource::CaptionsAuto.into()),
        whisper_job_id: Some("job-9".to_owned()),
        review: None,
        found_by: library_pb::FoundBy::Meaning.into(),
    }
}
