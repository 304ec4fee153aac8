//! Schedules: validation with the spec's messages, next runs in the schedule's zone, "sync
//! now" adding only new videos, the scheduler running a due schedule once (also with two
//! replicas on PostgreSQL), and every call scoped to the owner.

use scribevault_bus::contract::SourceChange;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Timelike as _, Utc};
use chrono_tz::Tz;
use scribevault_bus::contract::Event;
use scribevault_db::TestDatabase;
use scribevault_proto::discovery::v1 as pb;
use scribevault_test_support::youtube::{
    FakeChannel, FakeVideo, FakeYouTube, channel_id, video_id,
};
use scribevault_test_support::{POSTGRES_URL_ENV, real_server};
use sea_orm::ConnectionTrait as _;
use tonic::Code;

use crate::helpers::{KEY, TestApp, as_user, spawn_app_on, spawn_app_with};

const CHANNEL: &str = "https://www.youtube.com/@synced";

fn youtube_with_channel(youtube: &FakeYouTube) {
    youtube.add_channel(FakeChannel::generated(&channel_id(11), "Synced", 5).with_handle("synced"));
}

async fn app_with(env: &[(&str, &str)]) -> TestApp {
    let youtube = FakeYouTube::start().await;
    youtube_with_channel(&youtube);
    let mut all = vec![("SCRIBEVAULT_YOUTUBE_API_KEY", KEY)];
    all.extend_from_slice(env);
    spawn_app_with(youtube, &all).await
}

async fn source(app: &TestApp, user: &str) -> pb::Source {
    app.client
        .clone()
        .create_source(as_user(
            user,
            pb::CreateSourceRequest {
                url: CHANNEL.to_owned(),
                reuse_existing: false,
            },
        ))
        .await
        .unwrap()
        .into_inner()
}

async fn create(
    app: &TestApp,
    user: &str,
    source_id: &str,
    frequency: &str,
    time: &str,
    zone: &str,
) -> Result<pb::Schedule, tonic::Status> {
    app.client
        .clone()
        .create_schedule(as_user(
            user,
            pb::CreateScheduleRequest {
                source_id: source_id.to_owned(),
                frequency: frequency.to_owned(),
                time_of_day: time.to_owned(),
                timezone: zone.to_owned(),
                use_captions: None,
            },
        ))
        .await
        .map(tonic::Response::into_inner)
}

fn at(value: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(value)
        .unwrap()
        .with_timezone(&Utc)
}

fn publish_two(app: &TestApp) -> Vec<String> {
    let ids = vec![video_id(9001), video_id(9002)];
    app.youtube.publish(
        &channel_id(11),
        vec![
            FakeVideo::public(&ids[1], "Brand new 2", "2026-11-20T10:00:00Z", "PT5M"),
            FakeVideo::public(&ids[0], "Brand new 1", "2026-11-19T10:00:00Z", "PT4M"),
        ],
    );
    ids
}

async fn source_video_ids(app: &TestApp, source_id: &str) -> Vec<String> {
    app.client
        .clone()
        .list_source_videos(as_user(
            "alice",
            pb::ListSourceVideosRequest {
                source_id: source_id.to_owned(),
                page_token: String::new(),
            },
        ))
        .await
        .unwrap()
        .into_inner()
        .videos
        .into_iter()
        .map(|video| video.youtube_video_id)
        .collect()
}

#[tokio::test]
async fn the_form_rules_are_checked_on_the_server_with_the_spec_messages() {
    let app = app_with(&[]).await;
    let source = source(&app, "alice").await;
    let message = |result: Result<pb::Schedule, tonic::Status>| {
        let status = result.unwrap_err();
        (status.code(), status.message().to_owned())
    };
    assert_eq!(
        message(create(&app, "alice", "", "DAILY", "09:00", "UTC").await),
        (Code::InvalidArgument, "Source is required".into())
    );
    for bad in ["24:00", "9:5", "09:60", "nine", ""] {
        assert_eq!(
            message(create(&app, "alice", &source.id, "DAILY", bad, "UTC").await),
            (Code::InvalidArgument, "Invalid time format".into()),
            "{bad:?}"
        );
    }
    assert_eq!(
        message(create(&app, "alice", &source.id, "HOURLY", "09:00", "UTC").await),
        (
            Code::InvalidArgument,
            "Frequency must be DAILY, WEEKLY or MONTHLY".into()
        )
    );
    assert_eq!(
        message(create(&app, "alice", &source.id, "DAILY", "09:00", "Mars/Olympus").await),
        (
            Code::InvalidArgument,
            "Unknown time zone \"Mars/Olympus\"".into()
        )
    );
    assert_eq!(
        message(create(&app, "alice", "no-such-source", "DAILY", "09:00", "UTC").await).0,
        Code::NotFound
    );
    let utc = create(&app, "alice", &source.id, "DAILY", "09:00", "")
        .await
        .unwrap();
    assert_eq!(utc.timezone, "UTC", "no zone means UTC");
}

#[tokio::test]
async fn each_frequency_runs_next_at_its_wall_time_in_its_zone() {
    let app = app_with(&[]).await;
    let source = source(&app, "alice").await;
    let now = Utc::now();
    for (frequency, zone, time) in [
        ("DAILY", "Europe/Berlin", "09:00"),
        ("WEEKLY", "America/New_York", "18:30"),
        ("MONTHLY", "Asia/Kolkata", "07:45"),
    ] {
        let schedule = create(&app, "alice", &source.id, frequency, time, zone)
            .await
            .unwrap();
        assert!(schedule.is_active);
        assert_eq!(schedule.time_of_day, time);
        let source_view = schedule.source.clone().unwrap();
        assert_eq!(
            (source_view.r#type.as_str(), source_view.title.as_str()),
            ("CHANNEL", "Synced")
        );
        let next = at(schedule.next_run_at.as_deref().unwrap());
        let tz: Tz = zone.parse().unwrap();
        let local = next.with_timezone(&tz);
        assert_eq!(
            format!("{:02}:{:02}", local.hour(), local.minute()),
            time,
            "{frequency} in {zone}"
        );
        assert!(next > now, "{frequency}: the next run is ahead");
        let horizon = match frequency {
            "DAILY" => chrono::Duration::hours(25),
            "WEEKLY" => chrono::Duration::days(7) + chrono::Duration::hours(1),
            _ => chrono::Duration::days(31) + chrono::Duration::hours(1),
        };
        assert!(
            next - now <= horizon,
            "{frequency}: within one period ({next})"
        );
        if frequency == "WEEKLY" {
            use chrono::Datelike as _;
            assert_eq!(
                local.weekday(),
                now.with_timezone(&tz).weekday(),
                "the weekday it was created on"
            );
        }
    }
}

#[tokio::test]
async fn disabling_clears_the_next_run_and_enabling_or_editing_sets_it_again() {
    let app = app_with(&[]).await;
    let source = source(&app, "alice").await;
    let schedule = create(&app, "alice", &source.id, "DAILY", "09:00", "UTC")
        .await
        .unwrap();
    let patch = |changes: pb::UpdateScheduleRequest| {
        let client = app.client.clone();
        async move {
            client
                .clone()
                .update_schedule(as_user("alice", changes))
                .await
                .map(tonic::Response::into_inner)
        }
    };
    let off = patch(pb::UpdateScheduleRequest {
        id: schedule.id.clone(),
        is_active: Some(false),
        ..Default::default()
    })
    .await
    .unwrap();
    assert!(!off.is_active);
    assert_eq!(off.next_run_at, None);
    let on = patch(pb::UpdateScheduleRequest {
        id: schedule.id.clone(),
        is_active: Some(true),
        ..Default::default()
    })
    .await
    .unwrap();
    assert!(on.is_active && on.next_run_at.is_some());
    let edited = patch(pb::UpdateScheduleRequest {
        id: schedule.id.clone(),
        time_of_day: Some("21:15".into()),
        timezone: Some("Europe/Berlin".into()),
        ..Default::default()
    })
    .await
    .unwrap();
    assert_eq!(
        (
            edited.time_of_day.as_str(),
            edited.timezone.as_str(),
            edited.frequency.as_str()
        ),
        ("21:15", "Europe/Berlin", "DAILY")
    );
    let local =
        at(edited.next_run_at.as_deref().unwrap()).with_timezone(&chrono_tz::Europe::Berlin);
    assert_eq!((local.hour(), local.minute()), (21, 15));
    let bad = patch(pb::UpdateScheduleRequest {
        id: schedule.id.clone(),
        time_of_day: Some("25:00".into()),
        ..Default::default()
    })
    .await
    .unwrap_err();
    assert_eq!(bad.message(), "Invalid time format");
    let listed = app
        .client
        .clone()
        .list_schedules(as_user("alice", pb::ListSchedulesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .schedules;
    assert_eq!(listed.len(), 1);
    assert_eq!(
        listed[0].time_of_day, "21:15",
        "a refused edit changed nothing"
    );
}

#[tokio::test]
async fn sync_now_adds_the_two_new_videos_sets_last_run_and_tells_the_owner() {
    let app = app_with(&[]).await;
    let source = source(&app, "alice").await;
    let schedule = create(&app, "alice", &source.id, "DAILY", "09:00", "UTC")
        .await
        .unwrap();
    assert_eq!(schedule.last_run_at, None);
    let before = source_video_ids(&app, &source.id).await;
    assert_eq!(before.len(), 5);
    let new = publish_two(&app);
    let mut events = app.events().await;
    app.youtube.reset_calls();
    let ran = app
        .client
        .clone()
        .run_schedule(as_user(
            "alice",
            pb::ScheduleRef {
                id: schedule.id.clone(),
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(ran.new_videos, 2);
    let after = ran.schedule.unwrap();
    assert!(after.last_run_at.is_some());
    assert_eq!(
        after.next_run_at, schedule.next_run_at,
        "sync now leaves the next run alone"
    );
    assert!(
        app.youtube.units_spent() <= 3,
        "an incremental read: {} units",
        app.youtube.units_spent()
    );
    let ids = source_video_ids(&app, &source.id).await;
    assert_eq!(ids.len(), 7);
    assert_eq!(&ids[..2], [new[1].clone(), new[0].clone()], "newest first");
    assert_eq!(&ids[2..], before.as_slice());
    let mut notified = None;
    let deadline = Instant::now() + Duration::from_secs(5);
    while notified.is_none() && Instant::now() < deadline {
        let envelope = tokio::time::timeout(Duration::from_secs(5), events.next())
            .await
            .unwrap()
            .unwrap();
        if let Some(Event::Notification(notification)) = envelope.event() {
            assert_eq!(envelope.user_id, "alice");
            notified = Some(notification.message);
        }
    }
    assert_eq!(notified.as_deref(), Some("2 new videos in Synced"));
    let again = app
        .client
        .clone()
        .run_schedule(as_user(
            "alice",
            pb::ScheduleRef {
                id: schedule.id.clone(),
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.new_videos, 0, "nothing new the second time");
    // The new videos can be downloaded from the source.
    let listed = app
        .client
        .clone()
        .list_schedules(as_user("alice", pb::ListSchedulesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .schedules;
    assert!(listed[0].last_run_at.is_some());
}

/// Makes the schedule due `ago` in the past, as if the service had been down.
async fn make_due(db: &TestDatabase, schedule_id: &str, ago: chrono::Duration) {
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    let due = Utc::now() - ago;
    let statement = sea_orm::Statement::from_sql_and_values(
        connection.get_database_backend(),
        match connection.get_database_backend() {
            sea_orm::DatabaseBackend::Postgres => {
                "UPDATE schedules SET next_run_at = $1 WHERE id = $2"
            }
            _ => "UPDATE schedules SET next_run_at = ? WHERE id = ?",
        },
        [due.into(), schedule_id.into()],
    );
    connection.execute_raw(statement).await.unwrap();
}

async fn wait_for_last_run(app: &TestApp, limit: Duration) -> pb::Schedule {
    wait_for_new_last_run(app, None, limit).await
}

/// Polls until the schedule's `lastRunAt` is set and differs from `previous` (a new run).
async fn wait_for_new_last_run(
    app: &TestApp,
    previous: Option<&str>,
    limit: Duration,
) -> pb::Schedule {
    let deadline = Instant::now() + limit;
    loop {
        let listed = app
            .client
            .clone()
            .list_schedules(as_user("alice", pb::ListSchedulesRequest {}))
            .await
            .unwrap()
            .into_inner()
            .schedules;
        if listed[0].last_run_at.is_some() && listed[0].last_run_at.as_deref() != previous {
            return listed[0].clone();
        }
        assert!(
            Instant::now() < deadline,
            "the scheduler did not run the due schedule"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_schedule_missed_for_days_runs_once_and_moves_to_its_next_time() {
    let app = app_with(&[("SCRIBEVAULT_SCHEDULER_INTERVAL_MS", "200")]).await;
    let source = source(&app, "alice").await;
    let schedule = create(&app, "alice", &source.id, "DAILY", "09:00", "UTC")
        .await
        .unwrap();
    publish_two(&app);
    let mut events = app.events().await;
    make_due(&app.db, &schedule.id, chrono::Duration::days(10)).await;
    let ran = wait_for_last_run(&app, Duration::from_secs(10)).await;
    let next = at(ran.next_run_at.as_deref().unwrap());
    assert!(
        next > Utc::now(),
        "the next run is in the future, not a missed slot"
    );
    assert_eq!((next.hour(), next.minute()), (9, 0));
    // Two more sweeps: nothing more runs.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut notifications = 0;
    while let Ok(Some(envelope)) =
        tokio::time::timeout(Duration::from_millis(200), events.next()).await
    {
        if matches!(envelope.event(), Some(Event::Notification(_))) {
            notifications += 1;
        }
    }
    assert_eq!(notifications, 1, "one run, not one per missed day");
}

#[tokio::test]
async fn two_scheduler_replicas_on_postgresql_run_a_due_schedule_once() {
    let Some(admin) = real_server(POSTGRES_URL_ENV, "two_scheduler_replicas") else {
        return;
    };
    let db = Arc::new(TestDatabase::postgres(&admin).await.unwrap());
    let youtube = FakeYouTube::start().await;
    youtube_with_channel(&youtube);
    let env = [
        ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
        ("SCRIBEVAULT_SCHEDULER_INTERVAL_MS", "100"),
    ];
    let first = spawn_app_on(youtube.clone(), &env, db.clone()).await;
    let second = spawn_app_on(youtube.clone(), &env, db.clone()).await;
    let source = source(&first, "alice").await;
    let schedule = create(
        &first,
        "alice",
        &source.id,
        "WEEKLY",
        "09:00",
        "Europe/Berlin",
    )
    .await
    .unwrap();
    publish_two(&first);
    let mut first_events = first.events().await;
    let mut second_events = second.events().await;
    // Each run reads the uploads once (7 videos: one page), so the fake's playlistItems calls
    // count the runs of both replicas together, whether or not they found anything new.
    youtube.reset_calls();
    let mut last_run: Option<String> = None;
    for _ in 0..3 {
        make_due(&db, &schedule.id, chrono::Duration::minutes(1)).await;
        let ran = wait_for_new_last_run(&first, last_run.as_deref(), Duration::from_secs(10)).await;
        last_run = ran.last_run_at;
        // Five sweeps of each replica pass; a second claim of the same slot would run now.
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let reads = youtube
        .calls()
        .iter()
        .filter(|call| call.endpoint == "playlistItems")
        .count();
    assert_eq!(reads, 3, "three due slots, three runs across both replicas");
    let mut runs = 0;
    for events in [&mut first_events, &mut second_events] {
        while let Ok(Some(envelope)) =
            tokio::time::timeout(Duration::from_millis(300), events.next()).await
        {
            if let Some(Event::SourceUpdate(update)) = envelope.event()
                && update.change == SourceChange::Updated
            {
                runs += 1;
            }
        }
    }
    assert_eq!(
        runs, 1,
        "the two new videos were announced once, by one replica"
    );
    let listed = first
        .client
        .clone()
        .list_schedules(as_user("alice", pb::ListSchedulesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .schedules;
    assert!(at(listed[0].next_run_at.as_deref().unwrap()) > Utc::now());
}

#[tokio::test]
async fn reusing_a_source_answers_the_existing_one_with_its_new_videos() {
    let app = app_with(&[]).await;
    let first = source(&app, "alice").await;
    let new = publish_two(&app);
    let reused = app
        .client
        .clone()
        .create_source(as_user(
            "alice",
            pb::CreateSourceRequest {
                url: CHANNEL.to_owned(),
                reuse_existing: true,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reused.id, first.id);
    let ids = source_video_ids(&app, &first.id).await;
    assert!(new.iter().all(|id| ids.contains(id)), "synced on reuse");
    let refused = app
        .client
        .clone()
        .create_source(as_user(
            "alice",
            pb::CreateSourceRequest {
                url: CHANNEL.to_owned(),
                reuse_existing: false,
            },
        ))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::AlreadyExists);
}

async fn schedules_of(app: &TestApp, user: &str) -> Vec<pb::Schedule> {
    app.client
        .clone()
        .list_schedules(as_user(user, pb::ListSchedulesRequest {}))
        .await
        .unwrap()
        .into_inner()
        .schedules
}

#[tokio::test]
async fn another_user_gets_not_found_for_every_schedule_call() {
    let app = app_with(&[]).await;
    let source = source(&app, "alice").await;
    let schedule = create(&app, "alice", &source.id, "DAILY", "09:00", "UTC")
        .await
        .unwrap();
    assert!(schedules_of(&app, "bob").await.is_empty());
    let id = || pb::ScheduleRef {
        id: schedule.id.clone(),
    };
    let update = app
        .client
        .clone()
        .update_schedule(as_user(
            "bob",
            pb::UpdateScheduleRequest {
                id: schedule.id.clone(),
                is_active: Some(false),
                ..Default::default()
            },
        ))
        .await
        .unwrap_err();
    let delete = app
        .client
        .clone()
        .delete_schedule(as_user("bob", id()))
        .await
        .unwrap_err();
    let run = app
        .client
        .clone()
        .run_schedule(as_user("bob", id()))
        .await
        .unwrap_err();
    for status in [update, delete, run] {
        assert_eq!(
            (status.code(), status.message()),
            (Code::NotFound, "Schedule not found")
        );
    }
    assert_eq!(
        create(&app, "bob", &source.id, "DAILY", "09:00", "UTC")
            .await
            .unwrap_err()
            .code(),
        Code::NotFound,
        "bob cannot schedule alice's source"
    );
    let still = schedules_of(&app, "alice").await;
    assert!(still[0].is_active, "bob's calls changed nothing");
    // Deleting the source deletes its schedules.
    app.client
        .clone()
        .delete_source(as_user(
            "alice",
            pb::SourceRef {
                id: source.id.clone(),
            },
        ))
        .await
        .unwrap();
    assert!(schedules_of(&app, "alice").await.is_empty());
}
