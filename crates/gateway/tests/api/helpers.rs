//! `spawn_app()`: the real gateway in this process (its actix server on a loopback port, its
//! SQLite database in a temp dir, the in-process bus), in front of fake library, conversion and
//! storage services. The fakes record what reaches them, with the caller their identity
//! check verified, and answer what a test tells them to.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};

use reqwest::Method;
use scribevault_bus::InProcessBus;
use scribevault_core::identity;
use scribevault_db::TestDatabase;
use scribevault_gateway::{Gateway, GatewayConfig, GatewayDependencies, ServiceAddresses};
use scribevault_proto::conversion::v1 as conversion_pb;
use scribevault_proto::conversion::v1::conversion_service_server::{
    ConversionService, ConversionServiceServer,
};
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::library::v1::library_service_server::{
    LibraryService, LibraryServiceServer,
};
use scribevault_proto::storage::v1 as storage_pb;
use scribevault_proto::storage::v1::storage_service_server::{
    StorageService, StorageServiceServer,
};
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::codegen::http;
use tonic::server::NamedService;
use tonic::service::interceptor::InterceptedService;
use tonic::{Request, Response, Status};

/// The password every test account signs up with (strong enough for zxcvbn).
const PASSWORD: &str = "correct horse battery staple";

/// One call that reached a fake: the message, and the user the identity check verified.
#[derive(Debug, Clone)]
pub struct Received<T> {
    /// The verified caller (`None` when the call named no user).
    pub caller: Option<String>,
    pub message: T,
}

/// One RPC of a fake: what it received, and what it answers. Unless told otherwise it answers
/// the response message's default.
pub struct Rpc<Req, Resp> {
    received: Mutex<Vec<Received<Req>>>,
    /// Answered once each, in order, before `answer`.
    queued: Mutex<VecDeque<Result<Resp, Status>>>,
    answer: Mutex<Option<Result<Resp, Status>>>,
}

impl<Req, Resp> Default for Rpc<Req, Resp> {
    fn default() -> Self {
        Self {
            received: Mutex::new(Vec::new()),
            queued: Mutex::new(VecDeque::new()),
            answer: Mutex::new(None),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<Req: Clone, Resp: Clone + Default> Rpc<Req, Resp> {
    /// Every later call answers `answer`.
    pub fn answers(&self, answer: Result<Resp, Status>) {
        *lock(&self.answer) = Some(answer);
    }

    /// The next call (after those queued before) answers `answer`.
    pub fn then_answers(&self, answer: Result<Resp, Status>) {
        lock(&self.queued).push_back(answer);
    }

    /// What reached this RPC, in order.
    pub fn received(&self) -> Vec<Received<Req>> {
        lock(&self.received).clone()
    }

    /// The messages alone.
    pub fn messages(&self) -> Vec<Req> {
        self.received()
            .into_iter()
            .map(|received| received.message)
            .collect()
    }

    fn answer<T>(&self, request: &Request<T>, message: Req) -> Result<Response<Resp>, Status> {
        let caller = identity::caller(request)
            .ok()
            .map(|user| user.as_str().to_owned());
        lock(&self.received).push(Received { caller, message });
        let queued = lock(&self.queued).pop_front();
        queued
            .or_else(|| lock(&self.answer).clone())
            .unwrap_or_else(|| Ok(Resp::default()))
            .map(Response::new)
    }

    async fn unary(&self, request: Request<Req>) -> Result<Response<Resp>, Status> {
        let message = request.get_ref().clone();
        self.answer(&request, message)
    }
}

/// What a fake answers for an RPC these tests do not use.
fn unfaked() -> Status {
    Status::unimplemented("not faked by the gateway's tests")
}

/// The stream type of a server-streaming RPC no test uses.
type UnfakedStream<T> =
    std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<T, Status>> + Send + 'static>>;

/// The library service as the gateway's tests need it.
#[derive(Default)]
pub struct FakeLibrary {
    pub list_transcripts:
        Rpc<library_pb::ListTranscriptsRequest, library_pb::ListTranscriptsResponse>,
    pub get_transcript: Rpc<library_pb::GetTranscriptRequest, library_pb::Transcript>,
    pub get_library_stats:
        Rpc<library_pb::GetLibraryStatsRequest, library_pb::GetLibraryStatsResponse>,
    pub update_transcript_metadata:
        Rpc<library_pb::UpdateTranscriptMetadataRequest, library_pb::Transcript>,
}

#[tonic::async_trait]
impl LibraryService for FakeLibrary {
    async fn list_transcripts(
        &self,
        request: Request<library_pb::ListTranscriptsRequest>,
    ) -> Result<Response<library_pb::ListTranscriptsResponse>, Status> {
        self.list_transcripts.unary(request).await
    }

    async fn get_transcript(
        &self,
        request: Request<library_pb::GetTranscriptRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        self.get_transcript.unary(request).await
    }

    async fn get_library_stats(
        &self,
        request: Request<library_pb::GetLibraryStatsRequest>,
    ) -> Result<Response<library_pb::GetLibraryStatsResponse>, Status> {
        self.get_library_stats.unary(request).await
    }

    async fn update_transcript_metadata(
        &self,
        request: Request<library_pb::UpdateTranscriptMetadataRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        self.update_transcript_metadata.unary(request).await
    }
    type DownloadExportStream = UnfakedStream<library_pb::ExportChunk>;

    async fn get_transcript_content(
        &self,
        _request: Request<library_pb::GetTranscriptContentRequest>,
    ) -> Result<Response<library_pb::GetTranscriptContentResponse>, Status> {
        Err(unfaked())
    }

    async fn update_transcript_rating(
        &self,
        _request: Request<library_pb::UpdateTranscriptRatingRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        Err(unfaked())
    }

    async fn update_transcript_content(
        &self,
        _request: Request<library_pb::UpdateTranscriptContentRequest>,
    ) -> Result<Response<library_pb::Transcript>, Status> {
        Err(unfaked())
    }

    async fn delete_transcript(
        &self,
        _request: Request<library_pb::DeleteTranscriptRequest>,
    ) -> Result<Response<library_pb::DeleteTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn export_transcript(
        &self,
        _request: Request<library_pb::ExportTranscriptRequest>,
    ) -> Result<Response<library_pb::ExportTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn export_transcripts_bulk(
        &self,
        _request: Request<library_pb::ExportTranscriptsBulkRequest>,
    ) -> Result<Response<library_pb::ExportTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn process_transcripts_batch(
        &self,
        _request: Request<library_pb::ProcessTranscriptsBatchRequest>,
    ) -> Result<Response<library_pb::ProcessTranscriptsBatchResponse>, Status> {
        Err(unfaked())
    }

    async fn get_transcript_suggestions(
        &self,
        _request: Request<library_pb::GetTranscriptSuggestionsRequest>,
    ) -> Result<Response<library_pb::GetTranscriptSuggestionsResponse>, Status> {
        Err(unfaked())
    }

    async fn init_tags(
        &self,
        _request: Request<library_pb::InitTagsRequest>,
    ) -> Result<Response<library_pb::InitTagsResponse>, Status> {
        Err(unfaked())
    }

    async fn init_gwth_tags(
        &self,
        _request: Request<library_pb::InitTagsRequest>,
    ) -> Result<Response<library_pb::InitTagsResponse>, Status> {
        Err(unfaked())
    }

    async fn list_tags(
        &self,
        _request: Request<library_pb::ListTagsRequest>,
    ) -> Result<Response<library_pb::ListTagsResponse>, Status> {
        Err(unfaked())
    }

    async fn list_syllabus_sections(
        &self,
        _request: Request<library_pb::ListSyllabusSectionsRequest>,
    ) -> Result<Response<library_pb::ListSyllabusSectionsResponse>, Status> {
        Err(unfaked())
    }

    async fn create_syllabus_section(
        &self,
        _request: Request<library_pb::CreateSyllabusSectionRequest>,
    ) -> Result<Response<library_pb::SyllabusSection>, Status> {
        Err(unfaked())
    }

    async fn update_syllabus_section(
        &self,
        _request: Request<library_pb::UpdateSyllabusSectionRequest>,
    ) -> Result<Response<library_pb::SyllabusSection>, Status> {
        Err(unfaked())
    }

    async fn reorder_syllabus_sections(
        &self,
        _request: Request<library_pb::ReorderSyllabusSectionsRequest>,
    ) -> Result<Response<library_pb::ListSyllabusSectionsResponse>, Status> {
        Err(unfaked())
    }

    async fn delete_syllabus_section(
        &self,
        _request: Request<library_pb::DeleteSyllabusSectionRequest>,
    ) -> Result<Response<library_pb::DeleteSyllabusSectionResponse>, Status> {
        Err(unfaked())
    }

    async fn download_export(
        &self,
        _request: Request<library_pb::DownloadExportRequest>,
    ) -> Result<Response<Self::DownloadExportStream>, Status> {
        Err(unfaked())
    }

    async fn save_to_vault(
        &self,
        _request: Request<library_pb::SaveToVaultRequest>,
    ) -> Result<Response<library_pb::SaveToVaultResponse>, Status> {
        Err(unfaked())
    }

    async fn ingest_transcript(
        &self,
        _request: Request<library_pb::IngestTranscriptRequest>,
    ) -> Result<Response<library_pb::IngestTranscriptResponse>, Status> {
        Err(unfaked())
    }

    async fn delete_user_data(
        &self,
        _request: Request<library_pb::DeleteUserDataRequest>,
    ) -> Result<Response<library_pb::DeleteUserDataResponse>, Status> {
        Err(unfaked())
    }

    async fn get_transcript_audio(
        &self,
        _request: Request<library_pb::GetTranscriptAudioRequest>,
    ) -> Result<Response<library_pb::GetTranscriptAudioResponse>, Status> {
        Err(unfaked())
    }

    async fn create_audio_link(
        &self,
        _request: Request<library_pb::CreateAudioLinkRequest>,
    ) -> Result<Response<library_pb::CreateAudioLinkResponse>, Status> {
        Err(unfaked())
    }

    async fn open_audio_link(
        &self,
        _request: Request<library_pb::OpenAudioLinkRequest>,
    ) -> Result<Response<library_pb::OpenAudioLinkResponse>, Status> {
        Err(unfaked())
    }

    async fn get_transcript_segments(
        &self,
        _request: Request<library_pb::GetTranscriptSegmentsRequest>,
    ) -> Result<Response<library_pb::GetTranscriptSegmentsResponse>, Status> {
        Err(unfaked())
    }
}

/// The conversion service as the gateway's tests need it.
#[derive(Default)]
pub struct FakeConversion {
    pub create_template: Rpc<conversion_pb::TemplateInput, conversion_pb::Template>,
    pub delete_template:
        Rpc<conversion_pb::DeleteTemplateRequest, conversion_pb::DeleteTemplateResponse>,
    /// Each call's whole stream: the header, then the chunks.
    pub convert_pdf_to_markdown:
        Rpc<Vec<conversion_pb::ConvertPdfToMarkdownRequest>, conversion_pb::PdfConversion>,
}

#[tonic::async_trait]
impl ConversionService for FakeConversion {
    async fn create_template(
        &self,
        request: Request<conversion_pb::TemplateInput>,
    ) -> Result<Response<conversion_pb::Template>, Status> {
        self.create_template.unary(request).await
    }

    async fn delete_template(
        &self,
        request: Request<conversion_pb::DeleteTemplateRequest>,
    ) -> Result<Response<conversion_pb::DeleteTemplateResponse>, Status> {
        self.delete_template.unary(request).await
    }

    async fn convert_pdf_to_markdown(
        &self,
        mut request: Request<tonic::Streaming<conversion_pb::ConvertPdfToMarkdownRequest>>,
    ) -> Result<Response<conversion_pb::PdfConversion>, Status> {
        let mut messages = Vec::new();
        while let Some(message) = request.get_mut().message().await? {
            messages.push(message);
        }
        self.convert_pdf_to_markdown.answer(&request, messages)
    }
    async fn convert_transcripts_to_markdown(
        &self,
        _request: Request<conversion_pb::ConvertTranscriptsToMarkdownRequest>,
    ) -> Result<Response<conversion_pb::ConvertTranscriptsToMarkdownResponse>, Status> {
        Err(unfaked())
    }

    async fn reprocess_transcript(
        &self,
        _request: Request<conversion_pb::ReprocessTranscriptRequest>,
    ) -> Result<Response<conversion_pb::PdfConversion>, Status> {
        Err(unfaked())
    }

    async fn list_templates(
        &self,
        _request: Request<conversion_pb::ListTemplatesRequest>,
    ) -> Result<Response<conversion_pb::ListTemplatesResponse>, Status> {
        Err(unfaked())
    }

    async fn update_template(
        &self,
        _request: Request<conversion_pb::UpdateTemplateRequest>,
    ) -> Result<Response<conversion_pb::Template>, Status> {
        Err(unfaked())
    }

    async fn delete_user_data(
        &self,
        _request: Request<conversion_pb::DeleteUserDataRequest>,
    ) -> Result<Response<conversion_pb::DeleteUserDataResponse>, Status> {
        Err(unfaked())
    }
}

/// Storage as the PDF routes need it: the quota check before an upload.
#[derive(Default)]
pub struct FakeStorage {
    pub check_storage_room:
        Rpc<storage_pb::CheckStorageRoomRequest, storage_pb::CheckStorageRoomResponse>,
}

#[tonic::async_trait]
impl StorageService for FakeStorage {
    async fn check_storage_room(
        &self,
        request: Request<storage_pb::CheckStorageRoomRequest>,
    ) -> Result<Response<storage_pb::CheckStorageRoomResponse>, Status> {
        self.check_storage_room.unary(request).await
    }
    type DownloadBlobStream = UnfakedStream<storage_pb::DownloadBlobResponse>;

    async fn upload_mp3(
        &self,
        _request: Request<tonic::Streaming<storage_pb::UploadMp3Request>>,
    ) -> Result<Response<storage_pb::UploadMp3Response>, Status> {
        Err(unfaked())
    }

    async fn get_mp3_status(
        &self,
        _request: Request<storage_pb::GetMp3StatusRequest>,
    ) -> Result<Response<storage_pb::GetMp3StatusResponse>, Status> {
        Err(unfaked())
    }

    async fn list_manual_uploads(
        &self,
        _request: Request<storage_pb::ListManualUploadsRequest>,
    ) -> Result<Response<storage_pb::ListManualUploadsResponse>, Status> {
        Err(unfaked())
    }

    async fn download_blob(
        &self,
        _request: Request<storage_pb::DownloadBlobRequest>,
    ) -> Result<Response<Self::DownloadBlobStream>, Status> {
        Err(unfaked())
    }

    async fn stat_blob(
        &self,
        _request: Request<storage_pb::StatBlobRequest>,
    ) -> Result<Response<storage_pb::StatBlobResponse>, Status> {
        Err(unfaked())
    }

    async fn set_storage_policy(
        &self,
        _request: Request<storage_pb::SetStoragePolicyRequest>,
    ) -> Result<Response<storage_pb::SetStoragePolicyResponse>, Status> {
        Err(unfaked())
    }

    async fn get_storage_usage(
        &self,
        _request: Request<storage_pb::GetStorageUsageRequest>,
    ) -> Result<Response<storage_pb::GetStorageUsageResponse>, Status> {
        Err(unfaked())
    }

    async fn delete_user_data(
        &self,
        _request: Request<storage_pb::DeleteUserDataRequest>,
    ) -> Result<Response<storage_pb::DeleteUserDataResponse>, Status> {
        Err(unfaked())
    }
}

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
            .add_service(InterceptedService::new(service, interceptor))
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
    }
}
