//! Starting and scheduling jobs: what is refused, what is written, what is queued.

use std::time::Duration;

use scribevault_proto::transcription::v1 as pb;

use crate::helpers::{MODEL, StatusName as _, as_user, config, file, spawn_app, spawn_app_with};

#[tokio::test]
async fn a_started_job_queues_one_message_per_file_and_lists_them_pending() {
    let mut app = spawn_app().await;
    let started = app.start("alice", &["a", "b"]).await;
    let statuses: Vec<String> = started.files.iter().map(|f| f.status_name()).collect();
    assert_eq!(statuses, ["pending", "pending"]);
    let mut queued = [app.next_work().await, app.next_work().await];
    queued.sort_by(|x, y| x.file_id.cmp(&y.file_id));
    assert_eq!(
        queued
            .iter()
            .map(|work| (
                work.user_id.as_str(),
                work.job_id.as_str(),
                work.file_id.as_str()
            ))
            .collect::<Vec<_>>(),
        [
            ("alice", started.job_id.as_str(), "a"),
            ("alice", started.job_id.as_str(), "b")
        ]
    );
    let job = app.job("alice", &started.job_id).await.unwrap();
    assert_eq!(
        (job.status_name().as_str(), job.model.as_str()),
        ("active", MODEL)
    );
}

#[tokio::test]
async fn bad_requests_are_refused_and_nothing_is_queued() {
    let mut app = spawn_app().await;
    app.upload("alice", "uploads/a.mp3").await;
    let start = |files: Vec<pb::FileToTranscribe>, model: &str, format: &str| {
        as_user(
            "alice",
            pb::StartTranscriptionRequest {
                files,
                model: model.to_owned(),
                output_format: format.to_owned(),
                skip_vault: false,
                language: None,
            },
        )
    };
    let cases = [
        (
            start(vec![], MODEL, ""),
            tonic::Code::InvalidArgument,
            "No files to transcribe",
        ),
        (
            start(vec![file("a", "uploads/a.mp3")], "large-v9", ""),
            tonic::Code::InvalidArgument,
            "Model 'large-v9' is not available. Available models: tiny.en.",
        ),
        (
            start(vec![file("a", "uploads/a.mp3")], MODEL, "pdf"),
            tonic::Code::InvalidArgument,
            "outputFormat must be markdown or txt",
        ),
        (
            start(vec![file("a", "../bob/uploads/a.mp3")], MODEL, ""),
            tonic::Code::InvalidArgument,
            "Invalid mp3Path",
        ),
        (
            start(vec![file("a", "uploads/missing.mp3")], MODEL, ""),
            tonic::Code::NotFound,
            "MP3 not found: uploads/missing.mp3",
        ),
        (
            start(
                vec![file("a", "uploads/a.mp3"), file("a", "uploads/a.mp3")],
                MODEL,
                "",
            ),
            tonic::Code::InvalidArgument,
            "File id a appears twice",
        ),
        (
            start(
                (0..101)
                    .map(|n| file(&format!("f{n}"), "uploads/a.mp3"))
                    .collect(),
                MODEL,
                "",
            ),
            tonic::Code::InvalidArgument,
            "At most 100 files per job",
        ),
    ];
    for (request, code, message) in cases {
        let status = app.client.start_transcription(request).await.unwrap_err();
        assert_eq!(status.code(), code, "{}", status.message());
        assert!(
            status.message().contains(message),
            "{:?} should contain {message:?}",
            status.message()
        );
    }
    // Another user's upload is not the caller's, even by the right name.
    app.upload("bob", "uploads/b.mp3").await;
    let status = app
        .client
        .start_transcription(start(vec![file("b", "uploads/b.mp3")], MODEL, ""))
        .await
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::NotFound);
    assert!(!app.work_arrives_within(Duration::from_millis(300)).await);
}

#[tokio::test]
async fn another_users_job_and_files_are_not_found() {
    let mut app = spawn_app().await;
    let started = app.start("alice", &["a"]).await;
    assert_eq!(
        app.job("bob", &started.job_id).await.unwrap_err().code(),
        tonic::Code::NotFound
    );
    assert_eq!(
        app.cancel("bob", &started.job_id, "a")
            .await
            .unwrap_err()
            .code(),
        tonic::Code::NotFound
    );
    let claim = app
        .client
        .claim_transcription_file(as_user(
            "bob",
            pb::ClaimTranscriptionFileRequest {
                job_id: started.job_id.clone(),
                file_id: "a".into(),
                take_turns: true,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(claim.code(), tonic::Code::NotFound);
    assert_eq!(
        app.file_state("alice", &started.job_id, "a")
            .await
            .status_name(),
        "pending"
    );
}

/// A request to transcribe the uploads named `ids` now.
fn start_request(user: &str, ids: &[&str]) -> tonic::Request<pb::StartTranscriptionRequest> {
    let files = ids
        .iter()
        .map(|id| file(id, &format!("uploads/{id}.mp3")))
        .collect();
    as_user(
        user,
        pb::StartTranscriptionRequest {
            files,
            model: MODEL.to_owned(),
            output_format: String::new(),
            skip_vault: false,
            language: None,
        },
    )
}

#[tokio::test]
async fn a_request_that_would_pass_the_cap_on_waiting_files_is_refused_as_a_whole() {
    let mut app = spawn_app_with(scribevault_transcription::TranscriptionConfig {
        max_waiting_files_per_user: 3,
        ..config()
    })
    .await;
    app.start("alice", &["a", "b"]).await;
    let start = start_request;
    for id in ["c", "d", "e"] {
        app.upload("alice", &format!("uploads/{id}.mp3")).await;
        app.upload("bob", &format!("uploads/{id}.mp3")).await;
    }
    let refused = app
        .client
        .start_transcription(start("alice", &["c", "d"]))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
    assert_eq!(
        refused.message(),
        "You have 2 files waiting for transcription; at most 3 may wait. Wait for some to finish or cancel them."
    );
    let schedule = as_user(
        "alice",
        pb::ScheduleTranscriptionRequest {
            files: vec![file("c", "uploads/c.mp3"), file("d", "uploads/d.mp3")],
            model: MODEL.to_owned(),
            output_format: String::new(),
            start_time: String::new(),
            end_time: String::new(),
            timezone: String::new(),
            language: None,
        },
    );
    let refused = app
        .client
        .schedule_transcription(schedule)
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::ResourceExhausted);

    // Up to the cap is accepted; bob's files do not count against alice's.
    app.client
        .start_transcription(start("bob", &["c", "d", "e"]))
        .await
        .expect("bob is under his own cap");
    app.client
        .start_transcription(start("alice", &["c"]))
        .await
        .expect("alice reaches her cap exactly");
    let refused = app
        .client
        .start_transcription(start("alice", &["e"]))
        .await
        .unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (
            tonic::Code::ResourceExhausted,
            "You have 3 files waiting for transcription; at most 3 may wait. Wait for some to finish or cancel them."
        )
    );
    // Only what was accepted was queued: a, b, bob's three and alice's c.
    for _ in 0..6 {
        app.next_work().await;
    }
    assert!(
        !app.work_arrives_within(Duration::from_millis(300)).await,
        "a refused request queues nothing"
    );
}
