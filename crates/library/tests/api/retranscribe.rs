//! Items made from YouTube's captions (the transcript's source, the segments in the message)
//! and their transcript replaced by Whisper's: the item keeps its id, its text, segments and
//! source change, and the Whisper run it waits for is shown until then.

use scribevault_bus::contract::{ItemChange, TranscriptSegment, TranscriptSource, TranscriptWord};
use scribevault_proto::library::v1 as pb;
use tonic::Code;

use crate::helpers::{
    TestApp, as_user, ingest_message, next_library_update, spawn_app, spawn_app_on_postgres,
};

fn word(start_ms: i64, end_ms: i64, text: &str) -> TranscriptWord {
    TranscriptWord {
        start_ms,
        end_ms,
        text: text.to_owned(),
        probability: 1.0,
    }
}

/// A captions item of alice's, as discovery hands it over.
async fn captions_item(app: &TestApp) -> pb::Transcript {
    let mut events = app.subscribe().await;
    let mut message = ingest_message("alice", "captions:vid1", "A talk", "today we talk");
    message.transcript_source = Some(TranscriptSource::CaptionsAuto);
    message.audio_path = Some("uploads/vid1.mp3".into());
    message.segments = vec![TranscriptSegment {
        start_ms: 40,
        end_ms: 1680,
        text: "today we talk".into(),
        words: vec![
            word(40, 280, "today"),
            word(280, 440, "we"),
            word(440, 1680, "talk"),
        ],
    }];
    app.enqueue(&message).await;
    let update = next_library_update(&mut events, "alice").await;
    assert_eq!(update.change, ItemChange::Created);
    app.all_items("alice").await.remove(0)
}

async fn segments(
    app: &TestApp,
    user: &str,
    id: &str,
) -> Result<Vec<pb::TimedSegment>, tonic::Status> {
    app.client
        .clone()
        .get_transcript_segments(as_user(
            user,
            pb::GetTranscriptSegmentsRequest { id: id.into() },
        ))
        .await
        .map(|answer| answer.into_inner().segments)
}

async fn set_whisper_job(
    app: &TestApp,
    user: &str,
    id: &str,
    job: &str,
) -> Result<pb::Transcript, tonic::Status> {
    app.client
        .clone()
        .set_whisper_job(as_user(
            user,
            pb::SetWhisperJobRequest {
                id: id.into(),
                job_id: job.into(),
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn a_captions_item_keeps_its_source_and_the_segments_with_word_times_of_its_message() {
    let app = spawn_app().await;
    let item = captions_item(&app).await;
    assert_eq!(
        item.transcript_source,
        Some(pb::TranscriptSource::CaptionsAuto.into())
    );
    assert_eq!(item.whisper_job_id, None);
    let segments = segments(&app, "alice", &item.id).await.unwrap();
    assert_eq!(segments.len(), 1);
    let words: Vec<(i64, &str)> = segments[0]
        .words
        .iter()
        .map(|word| (word.start_ms, word.text.as_str()))
        .collect();
    assert_eq!(words, [(40, "today"), (280, "we"), (440, "talk")]);
    // An audio item whose producer names no source is Whisper's.
    let mut events = app.subscribe().await;
    app.enqueue(&ingest_message(
        "alice",
        "transcription:f1",
        "Whispered",
        "text",
    ))
    .await;
    next_library_update(&mut events, "alice").await;
    let whispered = app
        .all_items("alice")
        .await
        .into_iter()
        .find(|item| item.title == "Whispered")
        .unwrap();
    assert_eq!(
        whispered.transcript_source,
        Some(pb::TranscriptSource::Whisper.into())
    );
}

#[tokio::test]
async fn whispers_transcript_replaces_the_captions_and_no_second_item_is_made() {
    replaces_the_captions(&spawn_app().await).await;
}

#[tokio::test]
async fn whispers_transcript_replaces_the_captions_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("replaces_the_captions_on_postgresql").await else {
        return;
    };
    replaces_the_captions(&app).await;
}

async fn replaces_the_captions(app: &TestApp) {
    let item = captions_item(app).await;
    let waiting = set_whisper_job(app, "alice", &item.id, "job-9")
        .await
        .unwrap();
    assert_eq!(waiting.whisper_job_id.as_deref(), Some("job-9"));
    assert_eq!(
        set_whisper_job(app, "bob", &item.id, "job-9")
            .await
            .unwrap_err()
            .code(),
        Code::NotFound,
        "another user's item is not found"
    );

    let mut events = app.subscribe().await;
    let mut replacement =
        ingest_message("alice", "transcription:row-7", "A talk", "Today, we talk.");
    replacement.transcript_source = Some(TranscriptSource::Whisper);
    replacement.replaces_item = Some(item.id.clone());
    replacement.segments = vec![TranscriptSegment {
        start_ms: 0,
        end_ms: 1700,
        text: " Today, we talk.".into(),
        words: Vec::new(),
    }];
    app.enqueue(&replacement).await;
    // Redelivered: the same replacement again, still one item.
    app.enqueue(&replacement).await;
    let update = next_library_update(&mut events, "alice").await;
    assert_eq!(update.change, ItemChange::Updated);
    assert_eq!(update.transcript.id, item.id);
    next_library_update(&mut events, "alice").await;

    let items = app.all_items("alice").await;
    assert_eq!(items.len(), 1, "{items:?}");
    let replaced = &items[0];
    assert_eq!(replaced.id, item.id);
    assert_eq!(
        replaced.transcript_source,
        Some(pb::TranscriptSource::Whisper.into())
    );
    assert_eq!(replaced.whisper_job_id, None, "it waits for nothing now");
    assert_eq!(replaced.source_ref, "captions:vid1");
    assert_eq!(
        app.content("alice", &item.id).await.unwrap(),
        "Today, we talk."
    );
    let segments = segments(app, "alice", &item.id).await.unwrap();
    assert_eq!(segments.len(), 1);
    assert_eq!(segments[0].text, " Today, we talk.");
    // A run recorded after its transcript landed leaves the item waiting for nothing.
    let late = set_whisper_job(app, "alice", &item.id, "job-9")
        .await
        .unwrap();
    assert_eq!(late.whisper_job_id, None);
}

#[tokio::test]
async fn a_replacement_for_an_item_that_is_gone_is_dropped_not_made_an_item() {
    let app = spawn_app().await;
    let mut events = app.subscribe().await;
    let mut orphan = ingest_message("alice", "transcription:row-8", "Gone", "text");
    orphan.replaces_item = Some("no-such-item".into());
    app.enqueue(&orphan).await;
    // One ingest at a time, in queue order: once the marker is in, the orphan was handled.
    app.enqueue(&ingest_message(
        "alice",
        "transcription:marker",
        "Marker",
        "m",
    ))
    .await;
    let update = next_library_update(&mut events, "alice").await;
    assert_eq!(update.transcript.title, "Marker");
    let items = app.all_items("alice").await;
    assert_eq!(items.len(), 1, "only the marker: {items:?}");
}
