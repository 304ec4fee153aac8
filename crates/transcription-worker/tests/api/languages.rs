//! The spoken language travels with the file: the worker decodes each file in the language
//! its claim names (the owner's choice), and the language whisper detected, or was told, goes
//! back with the completion to the file and to the Vault. `tests/engine.rs` and the binary's
//! `language` tests run the real detection.

use scribevault_bus::contract::Event;
use scribevault_transcription_worker::FakeWhisper;

use crate::helpers::{Setup, audio, spawn_app_with};

#[tokio::test]
async fn each_file_is_decoded_in_its_owners_language_and_reports_what_was_heard() {
    let whisper = FakeWhisper::saying("Guten Morgen.").detecting("de");
    let mut app = spawn_app_with(Setup::with(whisper)).await;
    let sample = audio("sample-01-welcome.mp3");

    // No language named and no default saved: detected.
    let detected = app.start_in("a", sample.clone(), "txt", None).await;
    let (_, done) = app.progress_until_done().await;
    assert!(matches!(done, Event::TranscriptionComplete(_)), "{done:?}");
    assert_eq!(app.next_ingest().await.language.as_deref(), Some("de"));
    assert_eq!(
        app.file(&detected, "a").await.language.as_deref(),
        Some("de")
    );

    // Named: decoded in that language, and that is the transcript's.
    let spanish = app.start_in("b", sample, "txt", Some("es")).await;
    let (_, done) = app.progress_until_done().await;
    assert!(matches!(done, Event::TranscriptionComplete(_)), "{done:?}");
    assert_eq!(app.next_ingest().await.language.as_deref(), Some("es"));
    assert_eq!(
        app.file(&spanish, "b").await.language.as_deref(),
        Some("es")
    );

    assert_eq!(app.whisper.languages_asked(), ["auto", "es"]);
}
