//! Exports through the real server: each format's content, the zip, and the signed link
//! (expiry, tampering, deleted items).

use std::io::Read as _;
use std::time::Duration;

use scribevault_library::LibraryConfig;
use scribevault_proto::library::v1 as pb;
use scribevault_test_support::grpc::as_service;
use tonic::Code;

use crate::helpers::{TestApp, as_user, ingest_request, spawn_app, spawn_app_with};

const ALICE: &str = "alice";
const BOB: &str = "bob";

/// The link's id, expiry and signature.
pub(crate) fn link_parts(url: &str) -> pb::DownloadExportRequest {
    let (path, query) = url.split_once('?').expect("a query");
    let id = path
        .strip_prefix("/api/library/exports/")
        .expect("the export path")
        .to_owned();
    let mut request = pb::DownloadExportRequest {
        id,
        ..pb::DownloadExportRequest::default()
    };
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "expires" => request.expires = value.parse().unwrap(),
            "signature" => request.signature = value.into_owned(),
            other => panic!("unexpected key {other}"),
        }
    }
    request
}

/// Follows a link: (filename, content type, bytes).
async fn download(app: &TestApp, url: &str) -> Result<(String, String, Vec<u8>), tonic::Status> {
    let mut stream = app
        .client
        .clone()
        .download_export(as_service("gateway", link_parts(url)))
        .await?
        .into_inner();
    let mut header = None;
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.message().await? {
        match chunk.part.unwrap() {
            pb::export_chunk::Part::Header(h) => header = Some(h),
            pb::export_chunk::Part::Data(data) => bytes.extend_from_slice(&data),
        }
    }
    let header = header.expect("a header first");
    Ok((header.filename, header.content_type, bytes))
}

async fn audio_item(app: &TestApp) -> String {
    app.put_blob(
        ALICE,
        "transcripts/j/f.segments.json",
        br#"[{"startMs":0,"endMs":2500,"text":" Hello <there>."},{"startMs":2500,"endMs":61000,"text":" Second & last."}]"#,
    )
    .await;
    let mut request = ingest_request("t:1", "Talk: soil & roots", "Hello <there>. Second & last.");
    request.segments_path = Some("transcripts/j/f.segments.json".into());
    let id = app.ingest_item(ALICE, request).await;
    app.tag(ALICE, &id, &["soil", "talks \"live\""]).await;
    app.rate(ALICE, &id, 4).await.unwrap();
    id
}

async fn export(
    app: &TestApp,
    user: &str,
    id: &str,
    format: &str,
) -> Result<pb::ExportTranscriptResponse, tonic::Status> {
    app.client
        .clone()
        .export_transcript(as_user(
            user,
            pb::ExportTranscriptRequest {
                id: id.to_owned(),
                format: format.to_owned(),
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn each_format_holds_what_it_promises() {
    let app = spawn_app().await;
    let id = audio_item(&app).await;

    let markdown = export(&app, ALICE, &id, "markdown").await.unwrap();
    assert_eq!(markdown.filename, "Talk soil roots.md");
    let (name, content_type, bytes) = download(&app, &markdown.download_url).await.unwrap();
    assert_eq!(name, "Talk soil roots.md");
    assert!(content_type.starts_with("text/markdown"));
    let text = String::from_utf8(bytes).unwrap();
    let (front, body) = text
        .strip_prefix("---\n")
        .unwrap()
        .split_once("---\n\n")
        .unwrap();
    assert!(front.contains("title: \"Talk: soil & roots\"\n"), "{front}");
    assert!(front.contains("source_type: \"AUDIO\"\n"), "{front}");
    assert!(
        front.contains("tags: [\"soil\", \"talks \\\"live\\\"\"]\n"),
        "{front}"
    );
    assert!(front.contains("rating: 4\n"), "{front}");
    assert!(front.contains("created: 20"), "{front}");
    assert_eq!(body, "Hello <there>. Second & last.\n");

    let (_, _, txt) = download(
        &app,
        &export(&app, ALICE, &id, "txt").await.unwrap().download_url,
    )
    .await
    .unwrap();
    assert_eq!(txt, b"Hello <there>. Second & last.\n");

    let (_, _, json) = download(
        &app,
        &export(&app, ALICE, &id, "json").await.unwrap().download_url,
    )
    .await
    .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["title"], "Talk: soil & roots");
    assert_eq!(json["rating"], 4);
    assert_eq!(json["segments"][1]["start"], 2.5);
    assert_eq!(json["content"], "Hello <there>. Second & last.");

    let (_, _, srt) = download(
        &app,
        &export(&app, ALICE, &id, "srt").await.unwrap().download_url,
    )
    .await
    .unwrap();
    assert_eq!(
        String::from_utf8(srt).unwrap(),
        "1\n00:00:00,000 --> 00:00:02,500\nHello <there>.\n\n2\n00:00:02,500 --> 00:01:01,000\nSecond & last.\n\n"
    );
    let (_, _, vtt) = download(
        &app,
        &export(&app, ALICE, &id, "vtt").await.unwrap().download_url,
    )
    .await
    .unwrap();
    assert_eq!(
        String::from_utf8(vtt).unwrap(),
        "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHello &lt;there&gt;.\n\n00:00:02.500 --> 00:01:01.000\nSecond &amp; last.\n\n"
    );

    // Subtitles need segments; an unknown format is refused by name.
    let plain = app
        .ingest_item(ALICE, ingest_request("t:2", "Plain", "no segments"))
        .await;
    let refused = export(&app, ALICE, &plain, "srt").await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    let refused = export(&app, ALICE, &plain, "docx").await.unwrap_err();
    assert!(refused.message().contains("docx"));
    // Another user's item is not found.
    assert_eq!(
        export(&app, BOB, &id, "txt").await.unwrap_err().code(),
        Code::NotFound
    );
    // Exporting sets lastExported.
    let item = app
        .all_items(ALICE)
        .await
        .into_iter()
        .find(|i| i.id == id)
        .unwrap();
    assert!(item.last_exported.is_some());
}

#[tokio::test]
async fn a_bulk_export_is_one_zip_with_unique_safe_names() {
    let app = spawn_app().await;
    let a = app
        .ingest_item(ALICE, ingest_request("1", "Same title", "first"))
        .await;
    let b = app
        .ingest_item(ALICE, ingest_request("2", "Same title", "second"))
        .await;
    let c = app
        .ingest_item(ALICE, ingest_request("3", "../../evil", "third"))
        .await;
    let bob = app
        .ingest_item(BOB, ingest_request("4", "Bob's", "bob"))
        .await;
    let bulk = |user: &'static str, ids: Vec<String>| {
        let mut client = app.client.clone();
        async move {
            client
                .export_transcripts_bulk(as_user(
                    user,
                    pb::ExportTranscriptsBulkRequest {
                        ids,
                        format: "markdown".into(),
                    },
                ))
                .await
                .map(tonic::Response::into_inner)
        }
    };
    let export = bulk(ALICE, vec![a.clone(), b.clone(), c.clone()])
        .await
        .unwrap();
    assert!(export.filename.ends_with(".zip"));
    let (_, content_type, bytes) = download(&app, &export.download_url).await.unwrap();
    assert_eq!(content_type, "application/zip");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut names: Vec<String> = archive
        .file_names()
        .map(|name| name.unwrap().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["Same title (2).md", "Same title.md", "evil.md"]);
    let mut second = String::new();
    archive
        .by_name("Same title (2).md")
        .unwrap()
        .read_to_string(&mut second)
        .unwrap();
    assert!(second.ends_with("second\n"));
    // Another user's id in the selection: not found, nothing exported.
    let refused = bulk(ALICE, vec![a.clone(), bob]).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound);
    assert_eq!(
        bulk(ALICE, vec![]).await.unwrap_err().code(),
        Code::InvalidArgument
    );

    // A deleted item leaves the export; when none is left the link answers not found.
    app.delete(ALICE, &a).await.unwrap();
    let (_, _, bytes) = download(&app, &export.download_url).await.unwrap();
    assert_eq!(
        zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .unwrap()
            .len(),
        2
    );
    let single = export_single(&app, &c).await;
    app.delete(ALICE, &c).await.unwrap();
    assert_eq!(
        download(&app, &single).await.unwrap_err().code(),
        Code::NotFound
    );
}

async fn export_single(app: &TestApp, id: &str) -> String {
    export(app, ALICE, id, "txt").await.unwrap().download_url
}

#[tokio::test]
async fn links_refuse_tampering_and_expire() {
    let app = spawn_app_with(LibraryConfig {
        export_link_ttl: Duration::from_secs(3),
        ..LibraryConfig::for_tests()
    })
    .await;
    let id = app
        .ingest_item(ALICE, ingest_request("1", "Doc", "text"))
        .await;
    let url = export_single(&app, &id).await;
    assert!(download(&app, &url).await.is_ok());
    let mut tampered = link_parts(&url);
    tampered.expires += 3600;
    let refused = app
        .client
        .clone()
        .download_export(as_service("gateway", tampered))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    let mut tampered = link_parts(&url);
    tampered.id = uuid::Uuid::new_v4().to_string();
    let refused = app
        .client
        .clone()
        .download_export(as_service("gateway", tampered))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
    // Links are checked in whole seconds: past the TTL plus one second, it has expired.
    tokio::time::sleep(Duration::from_millis(4100)).await;
    let expired = download(&app, &url).await.unwrap_err();
    assert_eq!(expired.code(), Code::PermissionDenied);
    assert!(
        expired.message().contains("expired"),
        "{}",
        expired.message()
    );
}
