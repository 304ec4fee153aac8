//! Exports of listed videos, and the quota ledger that survives a restart.

use scribevault_proto::discovery::v1 as pb;
use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use tonic::Code;

use crate::helpers::{as_user, spawn_app, spawn_app_on, spawn_app_with};

#[tokio::test]
async fn an_export_writes_the_listed_videos_as_csv() {
    let app = spawn_app().await;
    app.youtube.add_channel(
        FakeChannel::generated(&channel_id(201), "=Formula, \"Inc\"", 5).with_handle("@Formula"),
    );
    let found = app.search("@Formula", 100, false).await.unwrap();
    let ids: Vec<String> = found
        .videos
        .iter()
        .map(|video| video.youtube_video_id.clone())
        .collect();
    let export = |kind: &str, ids: Vec<String>| {
        let mut client = app.client.clone();
        let kind = kind.to_owned();
        async move {
            client
                .export_videos(as_user(
                    "alice",
                    pb::ExportVideosRequest {
                        video_ids: ids,
                        export_type: kind,
                    },
                ))
                .await
                .map(tonic::Response::into_inner)
        }
    };
    let urls = export("urls", ids[..2].to_vec()).await.unwrap();
    assert!(urls.filename.starts_with("youtube-video-urls-") && urls.filename.ends_with(".csv"));
    assert_eq!(
        String::from_utf8(urls.csv.to_vec()).unwrap(),
        format!(
            "https://www.youtube.com/watch?v={}\r\nhttps://www.youtube.com/watch?v={}\r\n",
            ids[0], ids[1]
        )
    );
    let all = export("all", ids.clone()).await.unwrap();
    let mut reader = csv::Reader::from_reader(all.csv.as_ref());
    assert_eq!(
        reader.headers().unwrap(),
        vec![
            "youtubeVideoId",
            "title",
            "channelTitle",
            "duration",
            "publishedAt",
            "url"
        ]
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(
        &rows[0][1], "'=Formula, \"Inc\" episode 5",
        "a formula is shown, not run"
    );
    assert_eq!(&rows[0][2], "'=Formula, \"Inc\"");

    let nothing = export("urls", Vec::new()).await.unwrap_err();
    assert_eq!(
        (nothing.code(), nothing.message()),
        (Code::InvalidArgument, "No videos to export")
    );
    let bad_kind = export("xlsx", ids.clone()).await.unwrap_err();
    assert_eq!(bad_kind.code(), Code::InvalidArgument);
    let bad_id = export("all", vec!["../../etc/passwd".to_owned()])
        .await
        .unwrap_err();
    assert_eq!(bad_id.code(), Code::InvalidArgument);
}

#[tokio::test]
async fn the_quota_ledger_counts_what_youtube_charged_and_survives_a_restart() {
    let youtube = FakeYouTube::start().await;
    youtube.set_daily_quota("spent-key", 2);
    youtube.add_channel(
        FakeChannel::generated(&channel_id(202), "Ledger", 240).with_handle("@Ledger"),
    );
    let env = [
        ("SCRIBEVAULT_YOUTUBE_API_KEY", "spent-key,fresh-key"),
        ("SCRIBEVAULT_YOUTUBE_DAILY_QUOTA", "5000"),
    ];
    let app = spawn_app_with(youtube.clone(), &env).await;
    app.search("@Ledger", -1, false).await.unwrap();
    let charged = youtube.units_spent();
    let usage = app
        .client
        .clone()
        .get_quota_usage(as_user("alice", pb::GetQuotaUsageRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        usage.used, charged,
        "the ledger matches what YouTube charged"
    );
    assert_eq!(usage.limit, 10_000, "5000 per key, two keys");
    let resets_at = chrono::DateTime::parse_from_rfc3339(&usage.resets_at)
        .unwrap()
        .with_timezone(&chrono::Utc);
    assert!(resets_at > chrono::Utc::now());
    // 25 h: the day clocks fall back has one more hour.
    assert!(resets_at - chrono::Utc::now() <= chrono::Duration::hours(25));

    let db = app.db.clone();
    app.stop().await.unwrap();
    youtube.reset_calls();
    let restarted = spawn_app_on(youtube.clone(), &env, db).await;
    let usage = restarted
        .client
        .clone()
        .get_quota_usage(as_user("alice", pb::GetQuotaUsageRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(usage.used, charged, "persisted");
    restarted.search("@Ledger", 100, true).await.unwrap();
    assert!(
        youtube
            .calls()
            .iter()
            .all(|call| call.key.as_deref() == Some("fresh-key")),
        "the key parked before the restart stays parked: {:?}",
        youtube
            .calls()
            .iter()
            .map(|call| call.key.clone())
            .collect::<Vec<_>>()
    );
}
