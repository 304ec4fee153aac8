//! `spawn_app()`: the transcription service in this process, and what a test needs to drive it
//! as the gateway and a worker would.

use std::sync::Arc;
use std::time::Duration;

use scribevault_blob::{BlobStore as _, LocalBlobStore, body_from_bytes, owned_key};
use scribevault_bus::contract::{LibraryIngest, TranscriptionWork};
use scribevault_bus::{
    EventBus as _, EventEnvelope, EventSubscription, InProcessBus, Topic, WorkConsumer, WorkItem,
    WorkQueue as _,
};
use scribevault_db::TestDatabase;
use scribevault_proto::client::SignedChannel;
use scribevault_proto::transcription::v1 as pb;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;
use scribevault_test_support::grpc::{InProcessServer, stopped};
use scribevault_transcription::{TranscriptionConfig, TranscriptionServer};

/// How long a test waits for something that should happen at once.
pub const WAIT: Duration = Duration::from_secs(10);

/// The model the tests' service offers.
pub const MODEL: &str = "tiny.en";

/// Settings that make the sweeps quick and offer one model without its file.
pub fn config() -> TranscriptionConfig {
    TranscriptionConfig {
        model_dir: std::env::temp_dir().join("no-models-here"),
        offered_models: Some(vec![MODEL.to_owned()]),
        max_retries: 3,
        retry_base_delay: Duration::from_secs(60),
        retry_max_delay: Duration::from_secs(300),
        default_model: MODEL.to_owned(),
        housekeeping_interval: Duration::from_millis(100),
        resend_ingests_within: Duration::from_secs(3600),
        stale_after: Duration::from_secs(60),
        max_take_backs: 3,
        max_waiting_files_per_user: 1000,
    }
}

pub struct TestApp {
    pub client: TranscriptionServiceClient<SignedChannel>,
    pub blobs: Arc<LocalBlobStore>,
    /// The service's work messages for workers.
    pub work: WorkConsumer,
    /// Its hand-offs to the library.
    pub ingests: WorkConsumer,
    /// What the owners' sockets would receive.
    pub events: EventSubscription,
    /// What the workers would receive.
    pub orders: EventSubscription,
    /// The service's database, deleted when the app is dropped.
    pub db: TestDatabase,
    _blob_dir: tempfile::TempDir,
    _server: InProcessServer,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(config()).await
}

pub async fn spawn_app_with(config: TranscriptionConfig) -> TestApp {
    spawn_app_on(TestDatabase::sqlite(), config).await
}

/// The service on a fresh PostgreSQL database, or `None` (after a loud message) when no
/// server is configured outside CI.
pub async fn spawn_app_on_postgres(test_name: &str) -> Option<TestApp> {
    let admin = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    )?;
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a PostgreSQL test database");
    Some(spawn_app_on(db, config()).await)
}

/// The service over `db` with `config`.
pub async fn spawn_app_on(db: TestDatabase, config: TranscriptionConfig) -> TestApp {
    let blob_dir = tempfile::tempdir().unwrap();
    let blobs = Arc::new(LocalBlobStore::new(blob_dir.path()).unwrap());
    spawn_over(db, blobs, blob_dir, config).await
}

impl TestApp {
    /// The service stopped and started again over the same database and blobs, as after a
    /// crash: what it does when it starts (queueing waiting files again, handing recent
    /// completions to the library again) happens again, on a new bus.
    pub async fn restarted(self) -> TestApp {
        let TestApp {
            db,
            blobs,
            _blob_dir,
            _server,
            ..
        } = self;
        drop(_server);
        spawn_over(db, blobs, _blob_dir, config()).await
    }
}

/// The service over `db` and `blobs` (kept in `blob_dir`) with `config`.
async fn spawn_over(
    db: TestDatabase,
    blobs: Arc<LocalBlobStore>,
    blob_dir: tempfile::TempDir,
    config: TranscriptionConfig,
) -> TestApp {
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    let bus = InProcessBus::new(5);
    let events = bus.subscribe().await.unwrap();
    let orders = bus.subscribe_on(Topic::WorkerControl).await.unwrap();
    let work = bus.consume(TranscriptionWork::QUEUE).await.unwrap();
    let ingests = bus.consume(LibraryIngest::QUEUE).await.unwrap();
    let server = TranscriptionServer::build(
        connection,
        Arc::new(bus.clone()),
        Arc::new(bus),
        blobs.clone(),
        config,
    )
    .await
    .unwrap();
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    TestApp {
        client: TranscriptionServiceClient::new(server.channel.clone()),
        blobs,
        work,
        ingests,
        events,
        orders,
        db,
        _blob_dir: blob_dir,
        _server: server,
    }
}

pub use scribevault_test_support::grpc::as_user;

/// A status as REST and the events spell it (`completed`, `active`), so assertions read like
/// the spec rather than like proto enum names.
pub trait StatusName {
    fn status_name(&self) -> String;
}

impl StatusName for pb::TranscriptionFile {
    fn status_name(&self) -> String {
        let name = self.status().as_str_name();
        name.trim_start_matches("FILE_STATUS_").to_ascii_lowercase()
    }
}

impl StatusName for pb::TranscriptionJob {
    fn status_name(&self) -> String {
        let name = self.status().as_str_name();
        name.trim_start_matches("JOB_STATUS_").to_ascii_lowercase()
    }
}

pub fn file(id: &str, mp3_path: &str) -> pb::FileToTranscribe {
    pb::FileToTranscribe {
        id: id.to_owned(),
        mp3_path: mp3_path.to_owned(),
        title: format!("Title of {id}"),
        youtube_video_id: String::new(),
        replaces_item: None,
    }
}

impl TestApp {
    /// Puts an upload of `user` where storage would have.
    pub async fn upload(&self, user: &str, path: &str) {
        self.blobs
            .put(
                &owned_key(user, path).unwrap(),
                body_from_bytes(&b"ID3 audio"[..]),
            )
            .await
            .unwrap();
    }

    /// Starts a job of `user` over uploads named after the file ids.
    pub async fn start(&mut self, user: &str, ids: &[&str]) -> pb::StartTranscriptionResponse {
        self.start_with(user, ids, false).await
    }

    /// Starts files whose transcripts are for the caller only (no Vault item).
    pub async fn start_skipping_vault(
        &mut self,
        user: &str,
        ids: &[&str],
    ) -> pb::StartTranscriptionResponse {
        self.start_with(user, ids, true).await
    }

    async fn start_with(
        &mut self,
        user: &str,
        ids: &[&str],
        skip_vault: bool,
    ) -> pb::StartTranscriptionResponse {
        let mut files = Vec::new();
        for id in ids {
            let path = format!("uploads/{id}.mp3");
            self.upload(user, &path).await;
            files.push(file(id, &path));
        }
        self.client
            .start_transcription(as_user(
                user,
                pb::StartTranscriptionRequest {
                    files,
                    model: MODEL.to_owned(),
                    output_format: "markdown".to_owned(),
                    skip_vault,
                    language: None,
                },
            ))
            .await
            .unwrap()
            .into_inner()
    }

    pub async fn job(
        &mut self,
        user: &str,
        job_id: &str,
    ) -> Result<pb::TranscriptionJob, tonic::Status> {
        self.client
            .get_transcription_job(as_user(
                user,
                pb::GetTranscriptionJobRequest {
                    job_id: job_id.to_owned(),
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn file_state(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
    ) -> pb::TranscriptionFile {
        self.job(user, job_id)
            .await
            .unwrap()
            .files
            .into_iter()
            .find(|file| file.id == file_id)
            .unwrap()
    }

    pub async fn claim(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
    ) -> pb::ClaimTranscriptionFileResponse {
        self.claim_taking_turns(user, job_id, file_id, false).await
    }

    /// A claim as the worker makes it: with `take_turns`, the service may hand over another
    /// user's file whose turn comes first.
    pub async fn claim_taking_turns(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
        take_turns: bool,
    ) -> pb::ClaimTranscriptionFileResponse {
        self.client
            .claim_transcription_file(as_user(
                user,
                pb::ClaimTranscriptionFileRequest {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                    take_turns,
                },
            ))
            .await
            .unwrap()
            .into_inner()
    }

    /// A worker's progress report; returns whether it is told to stop.
    pub async fn report(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
        token: u32,
        progress: u32,
    ) -> bool {
        self.client
            .report_transcription_progress(as_user(
                user,
                pb::ReportTranscriptionProgressRequest {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                    claim_token: token,
                    progress,
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .stop
    }

    pub async fn complete(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
        token: u32,
        content: &str,
    ) {
        self.client
            .complete_transcription_file(as_user(
                user,
                pb::CompleteTranscriptionFileRequest {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                    claim_token: token,
                    transcript_path: format!("transcripts/{job_id}/{file_id}.txt"),
                    markdown_path: format!("transcripts/{job_id}/{file_id}.md"),
                    segments_path: format!("transcripts/{job_id}/{file_id}.segments.json"),
                    processing_time_ms: 1234,
                    duration_seconds: 3.5,
                    vault_content: content.to_owned(),
                    ..Default::default()
                },
            ))
            .await
            .unwrap();
    }

    pub async fn fail(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
        token: u32,
        permanent: bool,
    ) {
        self.client
            .fail_transcription_file(as_user(
                user,
                pb::FailTranscriptionFileRequest {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                    claim_token: token,
                    error_message: "The MP3 could not be read".to_owned(),
                    permanent,
                },
            ))
            .await
            .unwrap();
    }

    pub async fn cancel(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
    ) -> Result<pb::TranscriptionFile, tonic::Status> {
        self.client
            .cancel_transcription_file(as_user(
                user,
                pb::FileRef {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn retry(
        &mut self,
        user: &str,
        job_id: &str,
        file_id: &str,
    ) -> Result<pb::TranscriptionFile, tonic::Status> {
        self.client
            .retry_transcription_file(as_user(
                user,
                pb::FileRef {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The next work message for workers.
    pub async fn next_work(&mut self) -> TranscriptionWork {
        let message = tokio::time::timeout(WAIT, self.work.next())
            .await
            .expect("a work message")
            .unwrap();
        let work = serde_json::from_slice(&message.body).unwrap();
        message.ack().await.unwrap();
        work
    }

    /// Whether a work message arrives within `within`.
    pub async fn work_arrives_within(&mut self, within: Duration) -> bool {
        match tokio::time::timeout(within, self.work.next()).await {
            Ok(Some(message)) => {
                message.ack().await.unwrap();
                true
            }
            _ => false,
        }
    }

    pub async fn next_ingest(&mut self) -> LibraryIngest {
        let message = tokio::time::timeout(WAIT, self.ingests.next())
            .await
            .expect("a library hand-off")
            .unwrap();
        let ingest = serde_json::from_slice(&message.body).unwrap();
        message.ack().await.unwrap();
        ingest
    }

    /// The next user event named `name` (others are skipped).
    pub async fn next_event(&mut self, name: &str) -> EventEnvelope {
        tokio::time::timeout(WAIT, async {
            loop {
                let event = self.events.next().await.unwrap();
                if event.event_type == name {
                    return event;
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("a {name} event"))
    }

    pub async fn next_order(&mut self) -> EventEnvelope {
        tokio::time::timeout(WAIT, self.orders.next())
            .await
            .expect("a worker order")
            .unwrap()
    }
}
