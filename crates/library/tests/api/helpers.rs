//! Starting the library service in-process and talking to it like the gateway and the
//! transcription service do.

use std::sync::Arc;
use std::time::Duration;

use scribevault_blob::{BlobStore, LocalBlobStore};
use scribevault_bus::contract::{Event, LibraryIngest, LibraryUpdate, SourceType};
use scribevault_bus::{EventBus as _, EventSubscription, InProcessBus};
use scribevault_db::TestDatabase;
use scribevault_library::{LibraryConfig, LibraryDependencies, LibraryServer};
use scribevault_proto::client::SignedChannel;
use scribevault_proto::library::v1 as pb;
use scribevault_proto::library::v1::library_service_client::LibraryServiceClient;
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};

/// The longest a test waits for something the service does in the background.
pub const WAIT: Duration = Duration::from_secs(20);

/// Deliveries before the in-process bus dead-letters a message (the settings' default).
const MAX_DELIVERIES: u32 = 5;

/// The library service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: LibraryServiceClient<SignedChannel>,
    /// The bus the service consumes `library.ingest` from and publishes events on.
    pub bus: InProcessBus,
    /// The blob store the service reads segments and saved files from.
    pub blobs: Arc<dyn BlobStore>,
    _blob_dir: tempfile::TempDir,
    /// The database the service runs on.
    pub db: TestDatabase,
    server: InProcessServer,
}

/// The library with one ingest at a time (the settings' default).
pub async fn spawn_app() -> TestApp {
    spawn_app_with(LibraryConfig::for_tests()).await
}

/// The library with `config` on SQLite.
pub async fn spawn_app_with(config: LibraryConfig) -> TestApp {
    spawn_app_on(TestDatabase::sqlite(), config).await
}

/// The library on a fresh PostgreSQL database, or `None` (after a loud message) when no server
/// is configured outside CI.
pub async fn spawn_app_on_postgres(test_name: &str) -> Option<TestApp> {
    spawn_app_on_postgres_with(test_name, LibraryConfig::for_tests()).await
}

/// As [`spawn_app_on_postgres`], with `config`.
pub async fn spawn_app_on_postgres_with(test_name: &str, config: LibraryConfig) -> Option<TestApp> {
    let admin = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    )?;
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a PostgreSQL test database");
    Some(spawn_app_on(db, config).await)
}

/// The test config with search by meaning on the real model, or `None` (after a loud
/// message) outside CI when the model is not installed.
pub fn config_with_meaning(test_name: &str) -> Option<LibraryConfig> {
    let model = scribevault_test_support::embedding_model(test_name)?;
    Some(LibraryConfig {
        embedding: Some(scribevault_library::EmbeddingConfig::for_tests(model)),
        ..LibraryConfig::for_tests()
    })
}

/// Waits until `count` items have their vectors.
///
/// # Panics
/// When they do not within a minute.
pub async fn embedded(app: &TestApp, count: i64) {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let counts = app.db.table_counts().await.expect("table counts");
        if counts.get("library_item_vectors").copied().unwrap_or(0) >= count {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{count} items were not embedded in time: {counts:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The library over `db` with `config`, started the way `crates/scribevault/src/targets.rs`
/// starts it.
pub async fn spawn_app_on(db: TestDatabase, config: LibraryConfig) -> TestApp {
    let connection = scribevault_db::connect(&db.url)
        .await
        .expect("open the test database");
    let bus = InProcessBus::new(MAX_DELIVERIES);
    let blob_dir = tempfile::tempdir().expect("a blob dir");
    let blobs: Arc<dyn BlobStore> =
        Arc::new(LocalBlobStore::new(blob_dir.path().join("blobs")).expect("a blob store"));
    let server = LibraryServer::build(
        connection,
        LibraryDependencies {
            work: Arc::new(bus.clone()),
            events: Arc::new(bus.clone()),
            blobs: blobs.clone(),
        },
        config,
    )
    .await
    .expect("build the library server");
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    let channel = server.channel.clone();
    TestApp {
        client: LibraryServiceClient::new(channel),
        bus,
        blobs,
        _blob_dir: blob_dir,
        db,
        server,
    }
}

pub use scribevault_test_support::grpc::as_user;

/// A sort key by its REST name; "" is none given, any other name a value no build knows.
fn sort_key(name: &str) -> i32 {
    match name {
        "" => pb::SortKey::Unspecified,
        "createdAt" => pb::SortKey::CreatedAt,
        "title" => pb::SortKey::Title,
        "rating" => pb::SortKey::Rating,
        "lastExported" => pb::SortKey::LastExported,
        "relevance" => pb::SortKey::Relevance,
        _ => return i32::MAX,
    }
    .into()
}

/// A sort order by its REST name, as [`sort_key`].
fn sort_order_of(name: &str) -> i32 {
    match name {
        "" => pb::SortOrder::Unspecified,
        "asc" => pb::SortOrder::Ascending,
        "desc" => pb::SortOrder::Descending,
        _ => return i32::MAX,
    }
    .into()
}

/// The typed request for a client's query keys: the gateway's reading of the query string,
/// for well-formed values (the gateway's own tests cover malformed ones).
pub fn list_request(pairs: &[(&str, &str)]) -> pb::ListTranscriptsRequest {
    let mut request = pb::ListTranscriptsRequest::default();
    let mut filter = pb::ItemFilter::default();
    let number = |value: &str| value.parse::<i32>().expect("a whole number");
    let day = |value: &str| format!("{value}T00:00:00Z");
    for (key, value) in pairs {
        let value = *value;
        match *key {
            "page" => request.page = Some(value.parse().expect("a page number")),
            "limit" => request.limit = Some(value.parse().expect("a page size")),
            "sortBy" => request.sort_by = sort_key(value),
            "sortOrder" => request.sort_order = sort_order_of(value),
            "q" => request.search = Some(value.to_owned()),
            "searchMode" => {
                request.search_mode = match value {
                    "keyword" => pb::SearchMode::Keyword,
                    "semantic" => pb::SearchMode::Semantic,
                    "hybrid" => pb::SearchMode::Hybrid,
                    _ => panic!("no search mode {value}"),
                }
                .into();
            }
            "tags" => filter.tags.push(value.to_owned()),
            "sourceType" => filter.source_types.push(
                pb::SourceType::from_str_name(&format!("SOURCE_TYPE_{value}"))
                    .expect("a source type")
                    .into(),
            ),
            "isStarred" => filter.is_starred = Some(value == "true"),
            "rating" => filter.ratings.push(number(value)),
            "minRating" => filter.min_rating = Some(number(value)),
            "gwthLevel" => filter.gwth_levels.push(number(value)),
            "exported" => filter.exported = Some(value == "true"),
            "createdAfter" => filter.created_after = Some(day(value)),
            "createdBefore" => filter.created_before = Some(day(value)),
            "sectionId" if value == "none" => {
                filter.section = Some(pb::item_filter::Section::InNoSection(pb::InNoSection {}));
            }
            "sectionId" => {
                filter.section = Some(pb::item_filter::Section::SectionId(value.to_owned()));
            }
            "path" => filter.file_name = Some(value.to_owned()),
            "needsReview" => filter.needs_review = Some(value == "true"),
            other => panic!("no such list key {other:?}"),
        }
    }
    request.filter = Some(filter);
    request
}

/// An ingest message as the transcription service sends it.
pub fn ingest_message(user: &str, source_ref: &str, title: &str, content: &str) -> LibraryIngest {
    LibraryIngest {
        user_id: user.to_owned(),
        source_ref: source_ref.to_owned(),
        title: title.to_owned(),
        source_type: SourceType::Audio,
        content: content.to_owned(),
        duration_seconds: Some(12.5),
        file_name: None,
        segments_path: None,
        audio_path: None,
        transcript_source: None,
        segments: Vec::new(),
        replaces_item: None,
        language: None,
        review: None,
        traceparent: None,
    }
}

/// An `IngestTranscript` request.
pub fn ingest_request(source_ref: &str, title: &str, content: &str) -> pb::IngestTranscriptRequest {
    pb::IngestTranscriptRequest {
        source_ref: source_ref.to_owned(),
        title: title.to_owned(),
        source_type: pb::SourceType::Audio.into(),
        content: content.to_owned(),
        duration_seconds: None,
        created_at: None,
        file_name: None,
        segments_path: None,
        audio_path: None,
        ..Default::default()
    }
}

/// The next `libraryUpdate` event for `user`, skipping everything else.
///
/// # Panics
/// When none arrives within [`WAIT`].
pub async fn next_library_update(
    subscription: &mut EventSubscription,
    user: &str,
) -> LibraryUpdate {
    tokio::time::timeout(WAIT, async {
        loop {
            let envelope = subscription.next().await.expect("the bus is open");
            if envelope.user_id != user {
                continue;
            }
            if let Some(Event::LibraryUpdate(update)) = envelope.event() {
                assert_eq!(envelope.event_type, "libraryUpdate");
                return update;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no libraryUpdate for {user} within {WAIT:?}"))
}

impl TestApp {
    /// A subscription to user events, from now on.
    pub async fn subscribe(&self) -> EventSubscription {
        self.bus.subscribe().await.expect("subscribe to the bus")
    }

    /// Puts `message` on the `library.ingest` queue.
    pub async fn enqueue(&self, message: &LibraryIngest) {
        scribevault_bus::enqueue_work(&self.bus, message)
            .await
            .expect("enqueue a library.ingest message");
    }

    pub async fn ingest(
        &self,
        user: &str,
        request: pb::IngestTranscriptRequest,
    ) -> Result<pb::IngestTranscriptResponse, tonic::Status> {
        self.client
            .clone()
            .ingest_transcript(as_user(user, request))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Ingests through the RPC and returns the item's id.
    pub async fn ingest_item(&self, user: &str, request: pb::IngestTranscriptRequest) -> String {
        self.ingest(user, request)
            .await
            .expect("IngestTranscript")
            .transcript
            .expect("the ingested item")
            .id
    }

    pub async fn list(
        &self,
        user: &str,
        page: u32,
        limit: u32,
        sort_by: &str,
        sort_order: &str,
    ) -> Result<pb::ListTranscriptsResponse, tonic::Status> {
        self.client
            .clone()
            .list_transcripts(as_user(
                user,
                pb::ListTranscriptsRequest {
                    page: (page != 0).then_some(page),
                    limit: (limit != 0).then_some(limit),
                    sort_by: sort_key(sort_by),
                    sort_order: sort_order_of(sort_order),
                    ..pb::ListTranscriptsRequest::default()
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// A list with the client's query keys, typed as the gateway types them.
    pub async fn query(
        &self,
        user: &str,
        pairs: &[(&str, &str)],
    ) -> Result<pb::ListTranscriptsResponse, tonic::Status> {
        self.client
            .clone()
            .list_transcripts(as_user(user, list_request(pairs)))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Titles listed for `pairs`, in order.
    pub async fn titles(&self, user: &str, pairs: &[(&str, &str)]) -> Vec<String> {
        self.query(user, pairs)
            .await
            .expect("ListTranscripts")
            .transcripts
            .into_iter()
            .map(|item| item.title)
            .collect()
    }

    /// Sorted titles listed for `pairs`: the hit set, whatever the rank.
    pub async fn hit_set(&self, user: &str, pairs: &[(&str, &str)]) -> Vec<String> {
        let mut titles = self.titles(user, pairs).await;
        titles.sort();
        titles
    }

    /// Applies `PUT …/metadata`.
    pub async fn metadata(
        &self,
        user: &str,
        request: pb::UpdateTranscriptMetadataRequest,
    ) -> Result<pb::Transcript, tonic::Status> {
        self.client
            .clone()
            .update_transcript_metadata(as_user(user, request))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Replaces the tags of an item.
    pub async fn tag(&self, user: &str, id: &str, tags: &[&str]) -> pb::Transcript {
        self.metadata(
            user,
            pb::UpdateTranscriptMetadataRequest {
                id: id.to_owned(),
                replace_tags: true,
                tags: tags.iter().map(|tag| (*tag).to_owned()).collect(),
                ..pb::UpdateTranscriptMetadataRequest::default()
            },
        )
        .await
        .expect("UpdateTranscriptMetadata")
    }

    /// Stores `bytes` at the client path `path` of `user`.
    pub async fn put_blob(&self, user: &str, path: &str, bytes: &[u8]) {
        let key = scribevault_blob::owned_key(user, path).expect("a client path");
        self.blobs
            .put(&key, scribevault_blob::body_from_bytes(bytes.to_vec()))
            .await
            .expect("store a blob");
    }

    /// Every item of `user`, newest first.
    pub async fn all_items(&self, user: &str) -> Vec<pb::Transcript> {
        self.list(user, 1, 100, "", "")
            .await
            .expect("ListTranscripts")
            .transcripts
    }

    pub async fn content(&self, user: &str, id: &str) -> Result<String, tonic::Status> {
        self.client
            .clone()
            .get_transcript_content(as_user(
                user,
                pb::GetTranscriptContentRequest { id: id.to_owned() },
            ))
            .await
            .map(|response| response.into_inner().content)
    }

    pub async fn rate(
        &self,
        user: &str,
        id: &str,
        rating: i32,
    ) -> Result<pb::Transcript, tonic::Status> {
        self.client
            .clone()
            .update_transcript_rating(as_user(
                user,
                pb::UpdateTranscriptRatingRequest {
                    id: id.to_owned(),
                    rating,
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn update_content(
        &self,
        user: &str,
        id: &str,
        content: &str,
    ) -> Result<pb::Transcript, tonic::Status> {
        self.client
            .clone()
            .update_transcript_content(as_user(
                user,
                pb::UpdateTranscriptContentRequest {
                    id: id.to_owned(),
                    content: content.to_owned(),
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn delete(&self, user: &str, id: &str) -> Result<(), tonic::Status> {
        self.client
            .clone()
            .delete_transcript(as_user(
                user,
                pb::DeleteTranscriptRequest { id: id.to_owned() },
            ))
            .await
            .map(|_| ())
    }

    pub async fn stats(&self, user: &str) -> pb::GetLibraryStatsResponse {
        self.client
            .clone()
            .get_library_stats(as_user(user, pb::GetLibraryStatsRequest {}))
            .await
            .expect("GetLibraryStats")
            .into_inner()
    }

    /// Asks the server (gRPC and ingest consumer) to stop and returns what its `run` returned.
    pub async fn stop(self) -> RunResult {
        self.server.stop().await
    }
}
