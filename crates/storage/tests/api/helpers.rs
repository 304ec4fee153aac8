//! Starting the storage service in-process and talking to it like the gateway does.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use scribevault_blob::{BlobStore, LocalBlobStore};
use scribevault_db::TestDatabase;
use scribevault_proto::client::SignedChannel;
use scribevault_proto::storage::v1 as pb;
use scribevault_proto::storage::v1::storage_service_client::StorageServiceClient;
use scribevault_storage::{CleanupSweep, StorageConfig, StorageServer};
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};

/// Large enough for every fixture; tests of the limit pass their own config.
pub const DEFAULT_MAX_UPLOAD_BYTES: u64 = 50 * 1024 * 1024;

/// Chunk size of uploads unless a test chooses another (the gateway sends larger ones).
pub const CHUNK_BYTES: usize = 16 * 1024;

/// The storage service running in this process.
pub struct TestApp {
    /// A client as the gateway builds it.
    pub client: StorageServiceClient<SignedChannel>,
    /// Root of the local blob store.
    pub blob_dir: tempfile::TempDir,
    /// The service's database, deleted when the app is dropped.
    pub db: TestDatabase,
    /// The MP3 clean-up, to run with an injected clock.
    pub cleanup: CleanupSweep,
    server: InProcessServer,
}

/// Storage with the default test limit.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(StorageConfig {
        max_upload_bytes: DEFAULT_MAX_UPLOAD_BYTES,
        cleanup_interval: std::time::Duration::from_secs(86_400),
        max_audio_seconds: 12 * 3600,
    })
    .await
}

/// Storage with `config` on SQLite.
pub async fn spawn_app_with(config: StorageConfig) -> TestApp {
    spawn_app_on(TestDatabase::sqlite(), config).await
}

/// Storage with the default test limit on a fresh PostgreSQL database, or `None` (after a
/// loud message) when no server is configured outside CI.
pub async fn spawn_app_on_postgres(test_name: &str) -> Option<TestApp> {
    let admin = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    )?;
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a PostgreSQL test database");
    Some(
        spawn_app_on(
            db,
            StorageConfig {
                max_upload_bytes: DEFAULT_MAX_UPLOAD_BYTES,
                cleanup_interval: std::time::Duration::from_secs(86_400),
                max_audio_seconds: 12 * 3600,
            },
        )
        .await,
    )
}

/// Storage over `db` with `config`, started the way `crates/scribevault/src/targets.rs`
/// starts it.
pub async fn spawn_app_on(db: TestDatabase, config: StorageConfig) -> TestApp {
    let connection = scribevault_db::connect(&db.url)
        .await
        .expect("open the test database");
    let blob_dir = tempfile::tempdir().expect("create the blob directory");
    let blobs: Arc<dyn BlobStore> =
        Arc::new(LocalBlobStore::new(blob_dir.path()).expect("open the blob store"));
    let server = StorageServer::build(connection, blobs, config)
        .await
        .expect("build the storage server");
    let cleanup = server.cleanup();
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    let channel = server.channel.clone();
    let client = StorageServiceClient::new(channel)
        .max_decoding_message_size(scribevault_proto::storage::MAX_MESSAGE_BYTES);
    TestApp {
        client,
        blob_dir,
        db,
        cleanup,
        server,
    }
}

pub use scribevault_test_support::grpc::as_user;

/// A fixture from `shared/audio/`.
pub fn audio(name: &str) -> Vec<u8> {
    let path = scribevault_test_support::shared_dir()
        .join("audio")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// The SHA-256 `shared/audio/SHA256SUMS` gives for a fixture.
pub fn published_sha256(name: &str) -> String {
    let path = scribevault_test_support::shared_dir()
        .join("audio")
        .join("SHA256SUMS");
    std::fs::read_to_string(path)
        .expect("read SHA256SUMS")
        .lines()
        .find_map(|line| {
            let (sum, file) = line.split_once("  ")?;
            (file == name).then(|| sum.to_owned())
        })
        .unwrap_or_else(|| panic!("{name} is not in SHA256SUMS"))
}

/// Upload metadata for a YouTube video (`video_id` empty: a manual upload).
pub fn metadata(video_id: &str, title: &str) -> pb::Mp3Metadata {
    pb::Mp3Metadata {
        video_id: video_id.to_owned(),
        title: title.to_owned(),
        channel_title: "A channel".to_owned(),
        duration_seconds: Some(7.5),
        published_at: "2024-05-01T12:00:00Z".to_owned(),
        file_name: format!("{title}.mp3"),
    }
}

pub fn metadata_part(metadata: pb::Mp3Metadata) -> pb::UploadMp3Request {
    pb::UploadMp3Request {
        part: Some(pb::upload_mp3_request::Part::Metadata(metadata)),
    }
}

pub fn chunk_part(bytes: &[u8]) -> pb::UploadMp3Request {
    pb::UploadMp3Request {
        part: Some(pb::upload_mp3_request::Part::Chunk(Bytes::copy_from_slice(
            bytes,
        ))),
    }
}

/// The messages of an upload: metadata first, then the file in `chunk_bytes` pieces.
pub fn upload_parts(
    metadata: pb::Mp3Metadata,
    file: &[u8],
    chunk_bytes: usize,
) -> Vec<pb::UploadMp3Request> {
    std::iter::once(metadata_part(metadata))
        .chain(file.chunks(chunk_bytes).map(chunk_part))
        .collect()
}

impl TestApp {
    /// Streams `parts` as one `UploadMp3` call of `user`.
    pub async fn upload_parts(
        &self,
        user: &str,
        parts: Vec<pb::UploadMp3Request>,
    ) -> Result<pb::UploadMp3Response, tonic::Status> {
        self.client
            .clone()
            .upload_mp3(as_user(user, tokio_stream::iter(parts)))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Uploads `file` for `user` with `metadata`, in chunks of [`CHUNK_BYTES`].
    pub async fn upload(
        &self,
        user: &str,
        metadata: pb::Mp3Metadata,
        file: &[u8],
    ) -> Result<pb::UploadMp3Response, tonic::Status> {
        self.upload_parts(user, upload_parts(metadata, file, CHUNK_BYTES))
            .await
    }

    pub async fn mp3_status(
        &self,
        user: &str,
        video_ids: &[&str],
    ) -> std::collections::HashMap<String, pb::Mp3Status> {
        self.client
            .clone()
            .get_mp3_status(as_user(
                user,
                pb::GetMp3StatusRequest {
                    video_ids: video_ids.iter().map(|id| (*id).to_owned()).collect(),
                },
            ))
            .await
            .expect("GetMp3Status")
            .into_inner()
            .statuses
    }

    pub async fn manual_uploads(&self, user: &str) -> Vec<pb::ManualUpload> {
        self.client
            .clone()
            .list_manual_uploads(as_user(user, pb::ListManualUploadsRequest {}))
            .await
            .expect("ListManualUploads")
            .into_inner()
            .videos
    }

    /// The whole object at `path` as `user` downloads it.
    pub async fn download(&self, user: &str, path: &str) -> Result<Vec<u8>, tonic::Status> {
        self.download_range(user, path, None, None).await
    }

    /// `length` bytes (`None`: to the end) of the object at `path` from `offset`.
    pub async fn download_range(
        &self,
        user: &str,
        path: &str,
        offset: Option<u64>,
        length: Option<u64>,
    ) -> Result<Vec<u8>, tonic::Status> {
        let mut stream = self
            .client
            .clone()
            .download_blob(as_user(
                user,
                pb::DownloadBlobRequest {
                    path: path.to_owned(),
                    offset,
                    length,
                },
            ))
            .await?
            .into_inner();
        let mut body = Vec::new();
        while let Some(part) = stream.message().await? {
            body.extend_from_slice(&part.chunk);
        }
        Ok(body)
    }

    pub async fn stat(
        &self,
        user: &str,
        path: &str,
    ) -> Result<pb::StatBlobResponse, tonic::Status> {
        self.client
            .clone()
            .stat_blob(as_user(
                user,
                pb::StatBlobRequest {
                    path: path.to_owned(),
                },
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Every file in the blob directory, temporary ones included, relative to its root.
    pub fn blob_files(&self) -> Vec<PathBuf> {
        let mut files = Vec::new();
        collect_files(self.blob_dir.path(), self.blob_dir.path(), &mut files);
        files.sort();
        files
    }

    /// Where `user`'s client path lives on disk.
    pub fn blob_file_of(&self, user: &str, path: &str) -> PathBuf {
        self.blob_dir.path().join("users").join(user).join(path)
    }

    /// A channel to the server, for the other gRPC services it serves (health).
    pub fn channel(&self) -> SignedChannel {
        self.server.channel.clone()
    }

    /// Asks the server to stop and returns what its `run` returned.
    pub async fn stop(self) -> RunResult {
        self.server.stop().await
    }
}

fn collect_files(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read the blob directory") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_files(root, &path, files);
        } else {
            files.push(
                path.strip_prefix(root)
                    .expect("under the root")
                    .to_path_buf(),
            );
        }
    }
}
