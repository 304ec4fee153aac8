//! Transcripts → markdown: paragraphs from the worker's segments, the template rules, the
//! result stored, and each transcript scoped to its owner on its own.

use scribevault_proto::conversion::v1 as pb;
use tonic::Code;

use crate::helpers::{TestApp, as_user, spawn_app};

fn transcript(id: &str, title: &str, path: &str) -> pb::TranscriptToConvert {
    pb::TranscriptToConvert {
        id: id.to_owned(),
        title: title.to_owned(),
        transcript_path: path.to_owned(),
    }
}

/// A transcript as the worker stores it: `.txt` plus `.segments.json` (camelCase).
async fn store_transcript(app: &TestApp, user: &str, base: &str) {
    let first =
        "Composting starts with a balance of green and brown material in the heap. ".repeat(3);
    let segments = serde_json::json!([
        {"startMs": 0, "endMs": 4000, "text": first.trim()},
        {"startMs": 4100, "endMs": 8000, "text": "Turn it every few weeks."},
        {"startMs": 12000, "endMs": 15000, "text": "Now, about watering tomatoes in summer."}
    ]);
    let text = format!(
        "{} Turn it every few weeks. Now, about watering tomatoes in summer.",
        first.trim()
    );
    app.put_file(user, &format!("{base}.txt"), text).await;
    app.put_file(user, &format!("{base}.segments.json"), segments.to_string())
        .await;
}

async fn convert(
    app: &TestApp,
    user: &str,
    transcripts: Vec<pb::TranscriptToConvert>,
    template: Option<&str>,
) -> Result<pb::ConvertTranscriptsToMarkdownResponse, tonic::Status> {
    app.client
        .clone()
        .convert_transcripts_to_markdown(as_user(
            user,
            pb::ConvertTranscriptsToMarkdownRequest {
                transcripts,
                template: template.map(str::to_owned),
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn the_default_template_gives_a_heading_a_source_line_and_paragraphs() {
    let app = spawn_app().await;
    store_transcript(&app, "alice", "transcripts/t1").await;
    let answer = convert(
        &app,
        "alice",
        vec![transcript("f1", "Compost talk", "transcripts/t1.txt")],
        None,
    )
    .await
    .unwrap();
    assert!(answer.failed.is_empty(), "{:?}", answer.failed);
    assert!(answer.unknown_placeholders.is_empty());
    let result = &answer.results[0];
    assert_eq!(result.id, "f1");
    assert_eq!(result.markdown_path, "converted/transcripts/t1.md");
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert!(
        result.content.starts_with(&format!(
            "# Compost talk\n\n*Source: Audio transcript · {today}*\n\n"
        )),
        "{}",
        result.content
    );
    // The pause before "Now, about watering" starts a paragraph.
    let body = result.content.split_once("*\n\n").unwrap().1;
    let paragraphs: Vec<&str> = body.trim().split("\n\n").collect();
    assert_eq!(paragraphs.len(), 2, "{body}");
    assert!(paragraphs[0].ends_with("Turn it every few weeks."));
    assert_eq!(paragraphs[1], "Now, about watering tomatoes in summer.");
    // The result is stored where it says.
    let stored = app
        .file("alice", "converted/transcripts/t1.md")
        .await
        .unwrap();
    assert_eq!(String::from_utf8(stored).unwrap(), result.content);
}

#[tokio::test]
async fn a_custom_template_fills_every_placeholder_and_reports_unknown_ones() {
    let app = spawn_app().await;
    store_transcript(&app, "alice", "transcripts/t1").await;
    let answer = convert(
        &app,
        "alice",
        vec![transcript("f1", "Compost talk", "transcripts/t1.txt")],
        Some("---\ntitle: {{ title }}\nauthor: {{author}}\n---\nFrom {{source}} on {{date}}\n\n{{content}}"),
    )
    .await
    .unwrap();
    assert_eq!(answer.unknown_placeholders, vec!["author".to_owned()]);
    let content = &answer.results[0].content;
    assert!(
        content.starts_with(
            "---\ntitle: Compost talk\nauthor: {{author}}\n---\nFrom Audio transcript on 20"
        ),
        "{content}"
    );
    assert!(content.contains("Turn it every few weeks."));
}

#[tokio::test]
async fn a_transcript_without_segments_is_split_at_its_sentences() {
    let app = spawn_app().await;
    app.put_file(
        "alice",
        "transcripts/plain.txt",
        "A sentence of the talk. ".repeat(80),
    )
    .await;
    let answer = convert(
        &app,
        "alice",
        vec![transcript("p", "Plain", "transcripts/plain.txt")],
        Some("{{content}}"),
    )
    .await
    .unwrap();
    let content = &answer.results[0].content;
    assert!(content.split("\n\n").count() >= 3, "{content}");
    assert_eq!(content.matches("A sentence of the talk.").count(), 80);
}

#[tokio::test]
async fn other_users_paths_and_traversals_fail_alone_and_the_rest_converts() {
    let app = spawn_app().await;
    store_transcript(&app, "alice", "transcripts/mine").await;
    store_transcript(&app, "bob", "transcripts/bobs").await;
    let answer = convert(
        &app,
        "alice",
        vec![
            transcript("bob", "Bob's", "transcripts/bobs.txt"),
            transcript("up", "Escape", "transcripts/../../bob/transcripts/bobs.txt"),
            transcript("abs", "Absolute", "/etc/passwd"),
            transcript("upload", "An MP3", "uploads/x.mp3"),
            transcript("ok", "Mine", "transcripts/mine.txt"),
        ],
        None,
    )
    .await
    .unwrap();
    assert_eq!(answer.results.len(), 1);
    assert_eq!(answer.results[0].id, "ok");
    let failed: Vec<(&str, &str)> = answer
        .failed
        .iter()
        .map(|failure| (failure.id.as_str(), failure.message.as_str()))
        .collect();
    assert_eq!(
        failed,
        [
            ("bob", "Transcript not found"),
            ("up", "Not a transcript path"),
            ("abs", "Not a transcript path"),
            ("upload", "Not a transcript path"),
        ]
    );
    // Nothing was written for Bob's transcript under Alice or Bob.
    assert!(
        app.file("alice", "converted/transcripts/bobs.md")
            .await
            .is_none()
    );
    assert!(
        app.file("bob", "converted/transcripts/bobs.md")
            .await
            .is_none()
    );
}

#[tokio::test]
async fn an_empty_or_oversized_batch_is_refused() {
    let app = spawn_app().await;
    let empty = convert(&app, "alice", Vec::new(), None).await.unwrap_err();
    assert_eq!(empty.code(), Code::InvalidArgument);
    let many = (0..101)
        .map(|i| transcript(&i.to_string(), "t", "transcripts/t.txt"))
        .collect();
    let too_many = convert(&app, "alice", many, None).await.unwrap_err();
    assert_eq!(too_many.code(), Code::InvalidArgument);
    assert!(too_many.message().contains("100"));
}

/// F3 on the transcript path: the template sent with a batch is checked in the service like a
/// saved one (it could be as large as the gateway's 1 MB body).
#[tokio::test]
async fn a_batch_template_over_its_limits_is_refused() {
    let app = spawn_app().await;
    store_transcript(&app, "alice", "transcripts/t1").await;
    let batch = || vec![transcript("f1", "Compost talk", "transcripts/t1.txt")];
    let refused = convert(&app, "alice", batch(), Some(&"{{content}}".repeat(90_000)))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    assert_eq!(
        refused.message(),
        "Template must be at most 64 KB (65536 bytes)"
    );
    let refused = convert(&app, "alice", batch(), Some("{{content}}\n{{ content }}"))
        .await
        .unwrap_err();
    assert_eq!(
        refused.message(),
        "{{content}} may appear at most once in a template"
    );
    assert!(
        app.file("alice", "converted/transcripts/t1.md")
            .await
            .is_none()
    );

    // A title so long that eight copies pass the rendered-size cap fails that transcript alone.
    let long_title = "t".repeat(20 * 1024);
    let answer = convert(
        &app,
        "alice",
        vec![
            transcript("f1", &long_title, "transcripts/t1.txt"),
            transcript("f2", "Short", "transcripts/t1.txt"),
        ],
        Some(&format!("{}{{{{content}}}}", "{{title}}".repeat(8))),
    )
    .await
    .unwrap();
    assert_eq!(answer.failed.len(), 1);
    assert_eq!(answer.failed[0].id, "f1");
    assert!(
        answer.failed[0]
            .message
            .starts_with("The converted document would be larger than"),
        "{:?}",
        answer.failed
    );
    assert_eq!(answer.results.len(), 1);
}
