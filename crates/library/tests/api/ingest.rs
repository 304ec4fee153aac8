//! Becoming a Vault item: through the `library.ingest` queue and through the RPC, once.

use scribevault_bus::contract::ItemChange;
use scribevault_proto::library::v1 as pb;
use tonic::Code;

use crate::helpers::{
    TestApp, ingest_message, ingest_request, next_library_update, spawn_app, spawn_app_on_postgres,
};

#[tokio::test]
async fn an_ingest_message_becomes_an_item_and_a_library_update_for_its_owner() {
    let app = spawn_app().await;
    let mut events = app.subscribe().await;

    app.enqueue(&ingest_message(
        "alice",
        "transcription:file-1",
        "  Welcome talk ",
        "Hello and welcome.",
    ))
    .await;

    let update = next_library_update(&mut events, "alice").await;
    assert_eq!(update.change, ItemChange::Created);
    assert_eq!(update.transcript.title, "Welcome talk");

    let items = app.all_items("alice").await;
    assert_eq!(items.len(), 1, "{items:?}");
    let item = &items[0];
    assert_eq!(
        item.id, update.transcript.id,
        "the event names the new item"
    );
    assert_eq!(item.title, "Welcome talk");
    assert_eq!(item.source_ref, "transcription:file-1");
    assert_eq!(item.source_type(), pb::SourceType::Audio);
    assert_eq!(item.duration_seconds, Some(12.5));
    assert_eq!(item.rating, None);
    assert_eq!(
        app.content("alice", &item.id).await.unwrap(),
        "Hello and welcome."
    );
    assert!(
        app.all_items("bob").await.is_empty(),
        "the item is alice's alone"
    );
}

#[tokio::test]
async fn the_same_message_twice_makes_one_item_and_one_event() {
    let app = spawn_app().await;
    let mut events = app.subscribe().await;
    let message = ingest_message("alice", "transcription:file-1", "Once", "text");

    app.enqueue(&message).await;
    app.enqueue(&message).await;
    // One ingest at a time, in queue order: once the marker's event is out, both copies have
    // been handled, and every event they caused has been published before it.
    app.enqueue(&ingest_message(
        "alice",
        "transcription:marker",
        "Marker",
        "marker",
    ))
    .await;

    let mut updates = Vec::new();
    loop {
        let update = next_library_update(&mut events, "alice").await;
        if update.transcript.title == "Marker" {
            break;
        }
        updates.push(update);
    }
    assert_eq!(updates.len(), 1, "one event for the duplicate: {updates:?}");
    assert_eq!(updates[0].transcript.title, "Once");

    let items = app.all_items("alice").await;
    let once: Vec<_> = items
        .iter()
        .filter(|item| item.source_ref == "transcription:file-1")
        .collect();
    assert_eq!(once.len(), 1, "one item for the duplicate: {items:?}");
    assert_eq!(once[0].id, updates[0].transcript.id);
    assert_eq!(items.len(), 2, "{items:?}");
}

#[tokio::test]
async fn the_same_source_for_two_users_makes_an_item_for_each() {
    let app = spawn_app().await;
    let mut events = app.subscribe().await;

    app.enqueue(&ingest_message("alice", "shared:1", "Alice's", "a"))
        .await;
    app.enqueue(&ingest_message("bob", "shared:1", "Bob's", "b"))
        .await;

    // One ingest at a time, in queue order: alice's event comes before bob's.
    let alices = next_library_update(&mut events, "alice").await;
    let bobs = next_library_update(&mut events, "bob").await;
    assert_ne!(alices.transcript.id, bobs.transcript.id);

    let alice_items = app.all_items("alice").await;
    let bob_items = app.all_items("bob").await;
    assert_eq!(alice_items.len(), 1, "{alice_items:?}");
    assert_eq!(bob_items.len(), 1, "{bob_items:?}");
    assert_eq!(alice_items[0].title, "Alice's");
    assert_eq!(bob_items[0].title, "Bob's");
    assert_eq!(bob_items[0].id, bobs.transcript.id);
}

#[tokio::test]
async fn the_ingest_rpc_is_idempotent_on_its_source() {
    let app = spawn_app().await;

    let first = app
        .ingest(
            "alice",
            ingest_request("transcription:file-9", "First title", "first"),
        )
        .await
        .unwrap();
    let again = app
        .ingest(
            "alice",
            ingest_request("transcription:file-9", "Other title", "other"),
        )
        .await
        .unwrap();

    assert!(first.created);
    assert!(!again.created, "the second call finds the first item");
    let first = first.transcript.unwrap();
    let again = again.transcript.unwrap();
    assert_eq!(again.id, first.id);
    assert_eq!(again.title, "First title", "the existing item is unchanged");
    assert_eq!(app.content("alice", &first.id).await.unwrap(), "first");
    assert_eq!(app.all_items("alice").await.len(), 1);
}

#[tokio::test]
async fn the_ingest_rpc_fills_defaults_and_refuses_what_it_cannot_key() {
    let app = spawn_app().await;

    // A source type is required: an unspecified one, or one this build does not know, is the
    // caller's mistake and never becomes a guess.
    for unknown in [pb::SourceType::Unspecified as i32, 99] {
        let mut request = ingest_request("pdf:6", "No kind", "text");
        request.source_type = unknown;
        let refused = app.ingest("alice", request).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    }

    let mut request = ingest_request("pdf:7", "   ", "text");
    request.source_type = pb::SourceType::Pdf.into();
    request.created_at = Some("2023-03-04T05:06:07Z".to_owned());
    let item = app
        .ingest("alice", request)
        .await
        .unwrap()
        .transcript
        .unwrap();
    assert_eq!(item.title, "Untitled");
    assert_eq!(item.source_type(), pb::SourceType::Pdf);
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(&item.created_at).unwrap(),
        chrono::DateTime::parse_from_rfc3339("2023-03-04T05:06:07Z").unwrap()
    );

    let refused = app
        .ingest("alice", ingest_request("", "No source", "text"))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");

    let mut request = ingest_request("pdf:8", "Bad time", "text");
    request.created_at = Some("yesterday".to_owned());
    let refused = app.ingest("alice", request).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");

    assert_eq!(app.all_items("alice").await.len(), 1);
}

#[tokio::test]
async fn the_server_stops_with_its_consumer_when_asked() {
    let app = spawn_app().await;
    app.stop().await.expect("the server stops cleanly");
}

/// Producers and edits at once on SQLite: every write waits its turn instead of failing with
/// "database is locked".
#[tokio::test]
async fn concurrent_ingests_and_edits_all_land() {
    let app = crate::helpers::spawn_app().await;
    let first = app
        .ingest_item(
            "alice",
            crate::helpers::ingest_request("seed", "Seed", "seed text"),
        )
        .await;
    let mut tasks = Vec::new();
    for producer in 0..4 {
        let client = app.client.clone();
        let first = first.clone();
        tasks.push(tokio::spawn(async move {
            for index in 0..15 {
                let mut client = client.clone();
                client
                    .ingest_transcript(crate::helpers::as_user(
                        "alice",
                        crate::helpers::ingest_request(
                            &format!("p{producer}-{index}"),
                            "Concurrent",
                            &"words of a transcript ".repeat(200),
                        ),
                    ))
                    .await
                    .unwrap();
                client
                    .update_transcript_metadata(crate::helpers::as_user(
                        "alice",
                        scribevault_proto::library::v1::UpdateTranscriptMetadataRequest {
                            id: first.clone(),
                            replace_tags: true,
                            tags: vec![format!("tag-{producer}-{index}")],
                            ..Default::default()
                        },
                    ))
                    .await
                    .unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(app.stats("alice").await.total_transcripts, 61);
}

/// Items keep the language their transcript is in: from the queue (the transcription
/// service's hand-off) and from the RPC; none when the producer did not know it.
async fn items_keep_their_transcripts_language(app: TestApp) {
    let mut events = app.subscribe().await;
    let mut german = ingest_message("alice", "transcription:de", "Wetter", "Guten Morgen.");
    german.language = Some("de".to_owned());
    app.enqueue(&german).await;
    next_library_update(&mut events, "alice").await;
    app.enqueue(&ingest_message("alice", "transcription:x", "Unknown", "…"))
        .await;
    next_library_update(&mut events, "alice").await;
    let mut spanish = ingest_request("transcription:es", "Tiempo", "Buenos días.");
    spanish.language = Some("es".to_owned());
    app.ingest("alice", spanish).await.unwrap();

    let mut languages: Vec<(String, Option<String>)> = app
        .all_items("alice")
        .await
        .into_iter()
        .map(|item| (item.title, item.language))
        .collect();
    languages.sort();
    assert_eq!(
        languages,
        [
            ("Tiempo".to_owned(), Some("es".to_owned())),
            ("Unknown".to_owned(), None),
            ("Wetter".to_owned(), Some("de".to_owned())),
        ]
    );
}

#[tokio::test]
async fn items_keep_their_transcripts_language_on_sqlite() {
    items_keep_their_transcripts_language(spawn_app().await).await;
}

#[tokio::test]
async fn items_keep_their_transcripts_language_on_postgresql() {
    let Some(app) =
        spawn_app_on_postgres("items_keep_their_transcripts_language_on_postgresql").await
    else {
        return;
    };
    items_keep_their_transcripts_language(app).await;
}
