//! `spawn_app()`: the worker in this process with the real transcription service it works for,
//! and what a test needs to drive both as the gateway would.

use std::sync::Arc;
use std::time::Duration;

use scribevault_blob::{BlobStore as _, LocalBlobStore, body_from_bytes, owned_key};
use scribevault_bus::contract::{Event, LibraryIngest};
use scribevault_bus::{
    EventBus as _, EventSubscription, InProcessBus, WorkConsumer, WorkItem, WorkQueue as _,
};
use scribevault_core::Settings;
use scribevault_db::TestDatabase;
use scribevault_proto::client::SignedChannel;
use scribevault_proto::transcription::v1 as pb;
use scribevault_proto::transcription::v1::transcription_service_client::TranscriptionServiceClient;
use scribevault_test_support::grpc::{InProcessServer, as_user, stopped};
use scribevault_transcription::{TranscriptionConfig, TranscriptionServer};
use scribevault_transcription_worker::{
    FakeWhisper, FileStateClient, TranscriptionWorker, WorkerConfig, WorkerDependencies,
};
use tokio::sync::oneshot;

/// How long a test waits for something that should happen within a second or two.
pub const WAIT: Duration = Duration::from_secs(15);

/// The owner of every file in these tests.
pub const USER: &str = "user-1";

/// The model jobs ask for (the fake has every model).
const MODEL: &str = "tiny.en";

/// How the worker under test is set up.
pub struct Setup {
    /// What whisper does.
    pub whisper: FakeWhisper,
    /// Longer audio is refused.
    pub max_audio_seconds: u64,
    /// Whether the worker hears the service's stop orders; without them a cancel reaches it
    /// only as the answer to its next report.
    pub stop_orders: bool,
}

impl Setup {
    /// A worker whose whisper behaves as `whisper`, otherwise as configured by default.
    pub fn with(whisper: FakeWhisper) -> Self {
        Self {
            whisper,
            max_audio_seconds: 3600,
            stop_orders: true,
        }
    }
}

pub struct TestApp {
    /// The transcription service, as the gateway calls it.
    pub service: TranscriptionServiceClient<SignedChannel>,
    /// The worker's whisper.
    pub whisper: FakeWhisper,
    /// The bus the service and the worker share.
    pub bus: InProcessBus,
    /// Where uploads and transcripts are.
    pub blobs: Arc<LocalBlobStore>,
    /// What the owner's sockets would receive.
    pub events: EventSubscription,
    /// The service's hand-offs to the library.
    pub ingests: WorkConsumer,
    _db: TestDatabase,
    _blob_dir: tempfile::TempDir,
    _server: InProcessServer,
    _worker: RunningWorker,
}

/// The worker's task; dropping it asks the worker to stop.
struct RunningWorker {
    _stop: oneshot::Sender<()>,
}

/// The service's settings with retries and sweeps quick enough for a test.
fn service_config() -> TranscriptionConfig {
    let settings = Settings::load_from(None, Vec::<(String, String)>::new()).unwrap();
    let mut config = TranscriptionConfig::try_from(&settings).unwrap();
    config.offered_models = Some(vec![MODEL.to_owned()]);
    config.default_model = MODEL.to_owned();
    config.retry_base_delay = Duration::from_millis(200);
    config.retry_max_delay = Duration::from_millis(200);
    config.housekeeping_interval = Duration::from_millis(100);
    config
}

fn worker_config(setup: &Setup) -> WorkerConfig {
    let settings =
        Settings::load_from(None, [("SCRIBEVAULT_VAD".to_owned(), "false".to_owned())]).unwrap();
    let mut config = WorkerConfig::try_from(&settings).unwrap();
    config.threads = 1;
    config.concurrency = 1;
    config.max_audio_seconds = setup.max_audio_seconds;
    config
}

/// The worker hearing "Welcome to the show." in every window, at once.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(Setup::with(FakeWhisper::saying("Welcome to the show."))).await
}

pub async fn spawn_app_with(setup: Setup) -> TestApp {
    let db = TestDatabase::sqlite();
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    let blob_dir = tempfile::tempdir().unwrap();
    let blobs = Arc::new(LocalBlobStore::new(blob_dir.path()).unwrap());
    let bus = InProcessBus::new(5);
    let events = bus.subscribe().await.unwrap();
    let ingests = bus.consume(LibraryIngest::QUEUE).await.unwrap();
    let service = TranscriptionServer::build(
        connection,
        Arc::new(bus.clone()),
        Arc::new(bus.clone()),
        blobs.clone(),
        service_config(),
    )
    .await
    .unwrap();
    let server =
        InProcessServer::start(|listener, stop| service.run(listener, stopped(stop))).await;
    // Without stop orders, the worker listens on a bus of its own that nobody publishes on.
    let orders = if setup.stop_orders {
        bus.clone()
    } else {
        InProcessBus::new(5)
    };
    let worker = TranscriptionWorker::build(
        worker_config(&setup),
        WorkerDependencies {
            work: Arc::new(bus.clone()),
            events: Arc::new(orders),
            blobs: blobs.clone(),
            file_state: Arc::new(FileStateClient::from_channel(server.raw_channel.clone())),
            whisper: Arc::new(setup.whisper.clone()),
        },
    );
    let (stop, stop_worker) = oneshot::channel();
    tokio::spawn(worker.run(stopped(stop_worker)));
    TestApp {
        service: TranscriptionServiceClient::new(server.channel.clone()),
        whisper: setup.whisper,
        bus,
        blobs,
        events,
        ingests,
        _db: db,
        _blob_dir: blob_dir,
        _server: server,
        _worker: RunningWorker { _stop: stop },
    }
}

/// The MP3 of the shared test audio `name`.
pub fn audio(name: &str) -> Vec<u8> {
    std::fs::read(
        scribevault_test_support::shared_dir()
            .join("audio")
            .join(name),
    )
    .unwrap()
}

impl TestApp {
    /// Uploads `mp3` as file `file_id` of a new job in `output_format`, as the gateway does;
    /// answers the job id.
    pub async fn start(&mut self, file_id: &str, mp3: Vec<u8>, output_format: &str) -> String {
        self.start_in(file_id, mp3, output_format, None).await
    }

    /// As [`Self::start`], in `language` (`None`: the owner's default).
    pub async fn start_in(
        &mut self,
        file_id: &str,
        mp3: Vec<u8>,
        output_format: &str,
        language: Option<&str>,
    ) -> String {
        let mp3_path = format!("uploads/{file_id}.mp3");
        self.blobs
            .put(&owned_key(USER, &mp3_path).unwrap(), body_from_bytes(mp3))
            .await
            .unwrap();
        self.service
            .start_transcription(as_user(
                USER,
                pb::StartTranscriptionRequest {
                    files: vec![pb::FileToTranscribe {
                        id: file_id.to_owned(),
                        mp3_path,
                        title: format!("Title of {file_id}"),
                        youtube_video_id: String::new(),
                        replaces_item: None,
                    }],
                    model: MODEL.to_owned(),
                    output_format: output_format.to_owned(),
                    skip_vault: false,
                    language: language.map(str::to_owned),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .job_id
    }

    /// The file as the service has it.
    pub async fn file(&mut self, job_id: &str, file_id: &str) -> pb::TranscriptionFile {
        self.service
            .get_transcription_job(as_user(
                USER,
                pb::GetTranscriptionJobRequest {
                    job_id: job_id.to_owned(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
            .files
            .into_iter()
            .find(|file| file.id == file_id)
            .unwrap()
    }

    /// The owner cancels the file.
    pub async fn cancel(&mut self, job_id: &str, file_id: &str) -> pb::TranscriptionFile {
        self.service
            .cancel_transcription_file(as_user(
                USER,
                pb::FileRef {
                    job_id: job_id.to_owned(),
                    file_id: file_id.to_owned(),
                },
            ))
            .await
            .unwrap()
            .into_inner()
    }

    /// The next transcription event the owner receives.
    pub async fn next_event(&mut self) -> Event {
        tokio::time::timeout(WAIT, async {
            loop {
                if let Some(event) = self.events.next().await.unwrap().event() {
                    return event;
                }
            }
        })
        .await
        .expect("an event")
    }

    /// Progress events until the file's next final word: its completion or its error.
    pub async fn progress_until_done(&mut self) -> (Vec<u32>, Event) {
        let mut progress = Vec::new();
        loop {
            match self.next_event().await {
                Event::TranscriptionProgress(event) => progress.push(event.progress),
                done @ (Event::TranscriptionComplete(_) | Event::TranscriptionError(_)) => {
                    return (progress, done);
                }
                _ => {}
            }
        }
    }

    /// The service's next hand-off to the library.
    pub async fn next_ingest(&mut self) -> LibraryIngest {
        let message = tokio::time::timeout(WAIT, self.ingests.next())
            .await
            .expect("a library hand-off")
            .unwrap();
        let ingest = serde_json::from_slice(&message.body).unwrap();
        message.ack().await.unwrap();
        ingest
    }

    /// Waits until the worker's whisper has been asked to do what `done` looks for.
    pub async fn whisper_until(
        &self,
        what: &str,
        done: impl Fn(&scribevault_transcription_worker::WhisperCalls) -> bool,
    ) {
        tokio::time::timeout(WAIT, async {
            while !done(&self.whisper.calls()) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("whisper {what}: {:?}", self.whisper.calls()));
    }
}

/// A file's status as REST spells it (`completed`, `failed`, …).
pub fn status_of(file: &pb::TranscriptionFile) -> String {
    file.status()
        .as_str_name()
        .trim_start_matches("FILE_STATUS_")
        .to_ascii_lowercase()
}
