//! Starting conversion in-process beside the library, as `crates/scribevault/src/targets.rs`
//! starts them, with one blob store shared by both.

use std::path::PathBuf;
use std::sync::Arc;

use scribevault_blob::{BlobStore, LocalBlobStore, body_from_bytes, owned_key};
use scribevault_bus::InProcessBus;
use scribevault_conversion::{
    ConversionConfig, ConversionDependencies, ConversionServer, LibraryClient,
};
use scribevault_db::TestDatabase;
use scribevault_library::{LibraryConfig, LibraryDependencies, LibraryServer};
use scribevault_proto::client::SignedChannel;
use scribevault_proto::conversion::v1 as pb;
use scribevault_proto::conversion::v1::conversion_service_client::ConversionServiceClient;
use scribevault_proto::library::v1::library_service_client::LibraryServiceClient;
use scribevault_test_support::grpc::{InProcessServer, RunResult, stopped};

pub use scribevault_test_support::grpc::as_user;

/// Conversion and the library running in this process.
pub struct TestApp {
    pub client: ConversionServiceClient<SignedChannel>,
    pub library: LibraryServiceClient<SignedChannel>,
    /// The channel of the conversion server (health).
    pub channel: SignedChannel,
    pub blobs: Arc<dyn BlobStore>,
    _blob_dir: tempfile::TempDir,
    /// Conversion's database.
    pub db: TestDatabase,
    _library_db: TestDatabase,
    server: InProcessServer,
    _library_server: InProcessServer,
}

/// Conversion with the test config.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(ConversionConfig::for_tests()).await
}

/// Conversion with `config` on SQLite.
pub async fn spawn_app_with(config: ConversionConfig) -> TestApp {
    spawn_app_on(TestDatabase::sqlite(), config).await
}

/// Conversion with the test config on a fresh PostgreSQL database (the library beside it on
/// SQLite), or `None` (after a loud message) when no server is configured outside CI.
pub async fn spawn_app_on_postgres(test_name: &str) -> Option<TestApp> {
    let admin = scribevault_test_support::real_server(
        scribevault_test_support::POSTGRES_URL_ENV,
        test_name,
    )?;
    let db = TestDatabase::postgres(&admin)
        .await
        .expect("create a PostgreSQL test database");
    Some(spawn_app_on(db, ConversionConfig::for_tests()).await)
}

/// Conversion over `conversion_db` with `config`.
pub async fn spawn_app_on(conversion_db: TestDatabase, config: ConversionConfig) -> TestApp {
    let blob_dir = tempfile::tempdir().expect("a blob dir");
    let blobs: Arc<dyn BlobStore> =
        Arc::new(LocalBlobStore::new(blob_dir.path().join("blobs")).expect("a blob store"));
    let bus = InProcessBus::new(5);
    let library_db = TestDatabase::sqlite();
    let library = LibraryServer::build(
        scribevault_db::connect(&library_db.url)
            .await
            .expect("library db"),
        LibraryDependencies {
            work: Arc::new(bus.clone()),
            events: Arc::new(bus.clone()),
            blobs: blobs.clone(),
        },
        LibraryConfig::for_tests(),
    )
    .await
    .expect("build the library");
    let library_server =
        InProcessServer::start(|listener, stop| library.run(listener, stopped(stop))).await;
    let server = ConversionServer::build(
        scribevault_db::connect(&conversion_db.url)
            .await
            .expect("conversion db"),
        ConversionDependencies {
            blobs: blobs.clone(),
            vault: Arc::new(LibraryClient::from_channel(
                library_server.raw_channel.clone(),
            )),
        },
        config,
    )
    .await
    .expect("build conversion");
    let server = InProcessServer::start(|listener, stop| server.run(listener, stopped(stop))).await;
    TestApp {
        client: ConversionServiceClient::new(server.channel.clone())
            .max_decoding_message_size(32 * 1024 * 1024),
        library: LibraryServiceClient::new(library_server.channel.clone())
            .max_decoding_message_size(32 * 1024 * 1024),
        channel: server.channel.clone(),
        blobs,
        _blob_dir: blob_dir,
        db: conversion_db,
        _library_db: library_db,
        server,
        _library_server: library_server,
    }
}

/// A fixture PDF of `crates/conversion/tests/fixtures/pdf`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = fixture_path(name);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pdf")
        .join(name)
}

/// Whether `command` runs (for tests that need poppler or tesseract).
pub fn has_command(command: &str) -> bool {
    std::process::Command::new(command)
        .arg("-v")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok()
}

impl TestApp {
    /// Stores `content` at `path` for `user`, as the transcription worker does.
    pub async fn put_file(&self, user: &str, path: &str, content: impl Into<Vec<u8>>) {
        let key = owned_key(user, path).unwrap();
        self.blobs
            .put(&key, body_from_bytes(content.into()))
            .await
            .unwrap();
    }

    /// The file at `path` of `user`, if any.
    pub async fn file(&self, user: &str, path: &str) -> Option<Vec<u8>> {
        let key = owned_key(user, path).unwrap();
        let body = self.blobs.get(&key).await.ok()?;
        Some(scribevault_blob::collect_body(body).await.unwrap())
    }

    /// Uploads `pdf` as `file_name` the way the gateway streams it.
    pub async fn convert_pdf(
        &self,
        user: &str,
        file_name: &str,
        template: Option<&str>,
        pdf: Vec<u8>,
    ) -> Result<pb::PdfConversion, tonic::Status> {
        let mut messages = vec![pb::ConvertPdfToMarkdownRequest {
            part: Some(pb::convert_pdf_to_markdown_request::Part::Header(
                pb::PdfHeader {
                    file_name: file_name.to_owned(),
                    template: template.map(str::to_owned),
                },
            )),
        }];
        for chunk in pdf.chunks(256 * 1024) {
            messages.push(pb::ConvertPdfToMarkdownRequest {
                part: Some(pb::convert_pdf_to_markdown_request::Part::Chunk(
                    bytes::Bytes::copy_from_slice(chunk),
                )),
            });
        }
        self.client
            .clone()
            .convert_pdf_to_markdown(as_user(user, futures::stream::iter(messages)))
            .await
            .map(tonic::Response::into_inner)
    }

    /// Asks the server to stop.
    pub async fn stop(self) -> RunResult {
        self.server.stop().await
    }
}

/// The error code name a status carries (`x-scribevault-error-code`).
pub fn error_code(status: &tonic::Status) -> String {
    status
        .metadata()
        .get("x-scribevault-error-code")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}
