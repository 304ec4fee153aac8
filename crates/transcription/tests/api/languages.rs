//! Spoken languages: a job is transcribed in the language its request names, else in its
//! owner's default (handed over by the gateway when they save their settings), else `auto`;
//! the worker is told it with its claim; the transcript's language comes back with the
//! completion, is kept on the file and goes with the transcript to the Vault.

use tonic::Code;

use crate::helpers::{TestApp, as_user, file, spawn_app};
use scribevault_proto::transcription::v1 as pb;

const MODEL: &str = "tiny.en";

/// Starts `user`'s file `id` in `language` (`None`: the request names none).
async fn start_in(
    app: &mut TestApp,
    user: &str,
    id: &str,
    language: Option<&str>,
) -> Result<String, tonic::Status> {
    let path = format!("uploads/{id}.mp3");
    app.upload(user, &path).await;
    let request = pb::StartTranscriptionRequest {
        files: vec![file(id, &path)],
        model: MODEL.to_owned(),
        language: language.map(str::to_owned),
        ..Default::default()
    };
    app.client
        .start_transcription(as_user(user, request))
        .await
        .map(|answer| answer.into_inner().job_id)
}

async fn set_default(app: &mut TestApp, user: &str, language: &str) -> Result<(), tonic::Status> {
    app.client
        .set_transcription_preferences(as_user(
            user,
            pb::SetTranscriptionPreferencesRequest {
                language: language.to_owned(),
            },
        ))
        .await
        .map(|_| ())
}

/// The language the worker is told when it claims `user`'s file `id` of `job`.
async fn claimed_language(app: &mut TestApp, user: &str, job: &str, id: &str) -> String {
    let claim = app.claim(user, job, id).await;
    assert!(claim.claimed, "{claim:?}");
    claim.language
}

#[tokio::test]
async fn a_job_takes_its_requests_language_else_its_owners_default_else_auto() {
    let mut app = spawn_app().await;
    let job = start_in(&mut app, "alice", "a", None).await.unwrap();
    assert_eq!(claimed_language(&mut app, "alice", &job, "a").await, "auto");
    assert_eq!(app.job("alice", &job).await.unwrap().language, "auto");

    set_default(&mut app, "alice", "DE").await.unwrap();
    let german = start_in(&mut app, "alice", "b", None).await.unwrap();
    assert_eq!(app.job("alice", &german).await.unwrap().language, "de");
    // Another user's default is their own.
    let bobs = start_in(&mut app, "bob", "c", None).await.unwrap();
    assert_eq!(claimed_language(&mut app, "bob", &bobs, "c").await, "auto");
    // A request that names a language overrides the default.
    let spanish = start_in(&mut app, "alice", "d", Some("es")).await.unwrap();
    assert_eq!(
        claimed_language(&mut app, "alice", &spanish, "d").await,
        "es"
    );
    let detected = start_in(&mut app, "alice", "e", Some("auto"))
        .await
        .unwrap();
    assert_eq!(
        claimed_language(&mut app, "alice", &detected, "e").await,
        "auto"
    );
    // A job keeps the language it was started with when the default changes later.
    set_default(&mut app, "alice", "fr").await.unwrap();
    assert_eq!(
        claimed_language(&mut app, "alice", &german, "b").await,
        "de"
    );
}

#[tokio::test]
async fn an_unknown_language_is_refused_and_nothing_is_queued_or_stored() {
    let mut app = spawn_app().await;
    for language in ["german", "xx", "de-DE"] {
        let refused = start_in(&mut app, "alice", "a", Some(language))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{language}");
        assert!(
            refused.message().contains("Whisper language code"),
            "{refused:?}"
        );
        let refused = set_default(&mut app, "alice", language).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{language}");
    }
    assert!(
        !app.work_arrives_within(std::time::Duration::from_millis(200))
            .await
    );
    let job = start_in(&mut app, "alice", "a", None).await.unwrap();
    assert_eq!(app.job("alice", &job).await.unwrap().language, "auto");
}

#[tokio::test]
async fn the_transcripts_language_is_kept_on_the_file_and_handed_to_the_vault() {
    let mut app = spawn_app().await;
    let job = start_in(&mut app, "alice", "a", None).await.unwrap();
    let silent = start_in(&mut app, "alice", "b", None).await.unwrap();
    for (job, id, language) in [(&job, "a", Some("de")), (&silent, "b", None)] {
        let claim = app.claim("alice", job, id).await;
        app.client
            .complete_transcription_file(as_user(
                "alice",
                pb::CompleteTranscriptionFileRequest {
                    job_id: job.clone(),
                    file_id: id.to_owned(),
                    claim_token: claim.claim_token,
                    transcript_path: format!("transcripts/{job}/{id}.txt"),
                    markdown_path: format!("transcripts/{job}/{id}.md"),
                    segments_path: format!("transcripts/{job}/{id}.segments.json"),
                    vault_content: "Guten Morgen".to_owned(),
                    language: language.map(str::to_owned),
                    ..Default::default()
                },
            ))
            .await
            .unwrap();
        let ingest = app.next_ingest().await;
        assert_eq!(ingest.language.as_deref(), language, "{id}");
        let file = app.file_state("alice", job, id).await;
        assert_eq!(file.language.as_deref(), language, "{id}");
    }
}

#[tokio::test]
async fn deleting_an_account_deletes_its_default_language() {
    let mut app = spawn_app().await;
    set_default(&mut app, "alice", "de").await.unwrap();
    let deleted = app
        .client
        .delete_user_data(as_user("alice", pb::DeleteUserDataRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        deleted.rows_deleted, 1,
        "the default was the account's one row"
    );
    let job = start_in(&mut app, "alice", "a", None).await.unwrap();
    assert_eq!(app.job("alice", &job).await.unwrap().language, "auto");
}
