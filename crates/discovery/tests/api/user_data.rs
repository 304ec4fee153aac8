//! Deleting everything discovery keeps of one user (`DeleteUserData`, called by the gateway on
//! behalf of an account an administrator deletes). A running download of theirs stopping is
//! tested with the real yt-dlp in `downloads.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use scribevault_db::TestDatabase;
use scribevault_proto::discovery::v1 as pb;
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use scribevault_test_support::{POSTGRES_URL_ENV, real_server};
use tonic::Code;

use crate::helpers::{KEY, TestApp, as_user, spawn_app_on};

/// The YouTube cache and quota ledger: public data and per-key figures, nobody's.
const SHARED_TABLES: [&str; 4] = [
    "youtube_channel_aliases",
    "youtube_channels",
    "youtube_quota_spend",
    "youtube_videos",
];

/// What a user was given, to find again (or not) after a deletion.
struct Owned {
    source: pb::Source,
    job: pb::DownloadJob,
    schedule: pb::Schedule,
}

/// A source of `handle`'s channel with its videos, a download job of two of them, a schedule
/// and sync preferences: a row in every table keyed by the user.
async fn fill(app: &TestApp, user: &str, handle: &str) -> Owned {
    let mut client = app.client.clone();
    let source = client
        .create_source(as_user(
            user,
            pb::CreateSourceRequest {
                url: format!("https://www.youtube.com/@{handle}"),
                reuse_existing: false,
            },
        ))
        .await
        .expect("CreateSource")
        .into_inner();
    let videos = client
        .list_source_videos(as_user(
            user,
            pb::ListSourceVideosRequest {
                source_id: source.id.clone(),
                page_token: String::new(),
            },
        ))
        .await
        .expect("ListSourceVideos")
        .into_inner()
        .videos;
    let job = client
        .create_download_job(as_user(
            user,
            pb::CreateDownloadJobRequest {
                source_id: source.id.clone(),
                video_ids: videos
                    .iter()
                    .take(2)
                    .map(|video| video.youtube_video_id.clone())
                    .collect(),
                transcribe: false,
                model: String::new(),
                output_format: String::new(),
                use_captions: None,
            },
        ))
        .await
        .expect("CreateDownloadJob")
        .into_inner();
    let schedule = client
        .create_schedule(as_user(
            user,
            pb::CreateScheduleRequest {
                source_id: source.id.clone(),
                frequency: "DAILY".to_owned(),
                time_of_day: "03:00".to_owned(),
                timezone: "Europe/Paris".to_owned(),
                use_captions: None,
            },
        ))
        .await
        .expect("CreateSchedule")
        .into_inner();
    client
        .set_sync_preferences(as_user(
            user,
            pb::SetSyncPreferencesRequest {
                auto_download: true,
                use_captions: true,
            },
        ))
        .await
        .expect("SetSyncPreferences");
    Owned {
        source,
        job,
        schedule,
    }
}

async fn delete_user_data(app: &TestApp, user: &str) -> pb::DeleteUserDataResponse {
    app.client
        .clone()
        .delete_user_data(as_user(user, pb::DeleteUserDataRequest {}))
        .await
        .expect("DeleteUserData")
        .into_inner()
}

async fn sources(app: &TestApp, user: &str) -> Vec<pb::Source> {
    app.client
        .clone()
        .list_sources(as_user(user, pb::ListSourcesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .sources
}

async fn schedules(app: &TestApp, user: &str) -> Vec<pb::Schedule> {
    app.client
        .clone()
        .list_schedules(as_user(user, pb::ListSchedulesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .schedules
}

async fn jobs(app: &TestApp, user: &str) -> Vec<pb::DownloadJob> {
    app.client
        .clone()
        .list_download_jobs(as_user(user, pb::ListDownloadJobsRequest {}))
        .await
        .unwrap()
        .into_inner()
        .jobs
}

/// The tables' counts: the user-keyed ones, and the shared ones apart.
async fn counts(app: &TestApp) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let (shared, owned) = app
        .db
        .table_counts()
        .await
        .unwrap()
        .into_iter()
        .partition(|(table, _)| SHARED_TABLES.contains(&table.as_str()));
    (owned, shared)
}

/// Discovery on `db` with two channels in the fake; yt-dlp is not run (every download fails at
/// once, which leaves the job's rows as they are).
async fn app_on(db: TestDatabase) -> TestApp {
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(FakeChannel::generated(&channel_id(31), "Bobs", 4).with_handle("bobs"));
    youtube.add_channel(FakeChannel::generated(&channel_id(32), "Alices", 5).with_handle("alices"));
    spawn_app_on(
        youtube,
        &[
            ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
            ("SCRIBEVAULT_YTDLP_PATH", "/nonexistent/yt-dlp"),
        ],
        Arc::new(db),
    )
    .await
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite() {
    deletion_removes_the_caller_only(app_on(TestDatabase::sqlite()).await).await;
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_postgresql() {
    let Some(admin) = real_server(POSTGRES_URL_ENV, "discovery_delete_user_data_on_postgresql")
    else {
        return;
    };
    let db = TestDatabase::postgres(&admin).await.unwrap();
    deletion_removes_the_caller_only(app_on(db).await).await;
}

async fn deletion_removes_the_caller_only(app: TestApp) {
    let bob = fill(&app, "bob", "bobs").await;
    let (only_bob, _) = counts(&app).await;

    // Alice follows her own channel and Bob's: his source is his, the cache is shared.
    let alice = fill(&app, "alice", "alices").await;
    fill_second_source(&app).await;
    let (with_alice, shared_before) = counts(&app).await;
    // Every table keyed by a user holds some of Alice's rows, so the comparison below
    // covers every one of them.
    for (table, count) in &with_alice {
        assert!(
            *count > only_bob[table],
            "{table} holds none of alice's rows: the test would not see them kept"
        );
    }
    let alice_rows: i64 = with_alice
        .iter()
        .map(|(table, count)| count - only_bob[table])
        .sum();

    let deleted = delete_user_data(&app, "alice").await;
    assert_eq!(deleted.rows_deleted, u64::try_from(alice_rows).unwrap());
    assert_eq!(deleted.blobs_deleted, 0, "discovery keeps no objects");

    // Every user-keyed table is back to Bob's rows alone; the shared cache is untouched.
    let (after, shared_after) = counts(&app).await;
    assert_eq!(after, only_bob);
    assert_eq!(shared_after, shared_before);

    // Alice finds nothing.
    assert!(sources(&app, "alice").await.is_empty());
    assert!(schedules(&app, "alice").await.is_empty());
    assert!(jobs(&app, "alice").await.is_empty());
    let cancel = app
        .client
        .clone()
        .cancel_download_job(as_user(
            "alice",
            pb::DownloadJobRef {
                id: alice.job.id.clone(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(cancel.code(), Code::NotFound);
    let run = app
        .client
        .clone()
        .run_schedule(as_user(
            "alice",
            pb::ScheduleRef {
                id: alice.schedule.id.clone(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(run.code(), Code::NotFound);
    let page = app
        .client
        .clone()
        .list_source_videos(as_user(
            "alice",
            pb::ListSourceVideosRequest {
                source_id: alice.source.id.clone(),
                page_token: String::new(),
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(page.code(), Code::NotFound);

    // Bob keeps everything.
    let bob_sources = sources(&app, "bob").await;
    assert_eq!(bob_sources.len(), 1);
    assert_eq!(bob_sources[0].id, bob.source.id);
    assert_eq!(schedules(&app, "bob").await[0].id, bob.schedule.id);
    assert_eq!(jobs(&app, "bob").await[0].id, bob.job.id);

    // A second call finds nothing and succeeds.
    let again = delete_user_data(&app, "alice").await;
    assert_eq!((again.rows_deleted, again.blobs_deleted), (0, 0));
    assert_eq!(counts(&app).await, (only_bob, shared_before));
}

/// Alice also follows Bob's channel.
async fn fill_second_source(app: &TestApp) {
    app.client
        .clone()
        .create_source(as_user(
            "alice",
            pb::CreateSourceRequest {
                url: "https://www.youtube.com/@bobs".to_owned(),
                reuse_existing: false,
            },
        ))
        .await
        .expect("CreateSource");
}
