//! Channel searches: every URL form, the limits, the cache, refreshes and what each costs.

use scribevault_core::ErrorCode;
use scribevault_test_support::youtube::{
    FakeChannel, FakePlaylist, FakeVideo, FakeYouTube, channel_id, video_id,
};
use tonic::Code;

use crate::helpers::{KEY, spawn_app, spawn_app_with};

fn add_channel(app: &crate::helpers::TestApp, seed: u32, title: &str, videos: usize) -> String {
    let id = channel_id(seed);
    app.youtube.add_channel(
        FakeChannel::generated(&id, title, videos).with_handle(&title.replace(' ', "")),
    );
    id
}

#[tokio::test]
async fn every_url_form_names_the_channel() {
    let app = spawn_app().await;
    let id = channel_id(7);
    app.youtube.add_channel(
        FakeChannel::generated(&id, "Deep Dives", 12)
            .with_handle("@DeepDives")
            .with_username("deepdiveslegacy")
            .with_custom_name("DeepDivesCustom"),
    );
    let channel_video = app
        .search(&format!("https://www.youtube.com/channel/{id}"), 100, false)
        .await
        .unwrap()
        .videos[0]
        .youtube_video_id
        .clone();
    let playlist = "PLdeepdives000000000000000000000001";
    app.youtube
        .add_playlist(FakePlaylist::new(playlist, &id, "Best of", Vec::new()));
    for url in [
        "https://www.youtube.com/@DeepDives".to_owned(),
        "  https://www.youtube.com/@deepdives/videos  ".to_owned(),
        "https://youtube.com/@DeepDives/featured?si=tracking".to_owned(),
        "https://m.youtube.com/@DeepDives".to_owned(),
        "@DeepDives".to_owned(),
        format!("https://www.youtube.com/channel/{id}/videos?view=0"),
        "https://www.youtube.com/user/deepdiveslegacy".to_owned(),
        "https://www.youtube.com/c/DeepDivesCustom".to_owned(),
        format!("https://www.youtube.com/watch?v={channel_video}&t=30s"),
        format!("https://youtu.be/{channel_video}?si=x"),
        format!("https://www.youtube.com/playlist?list={playlist}"),
    ] {
        let found = app
            .search(&url, 100, false)
            .await
            .unwrap_or_else(|status| panic!("{url}: {status:?}"));
        let channel = found.channel.unwrap();
        assert_eq!(
            (channel.id.as_str(), channel.title.as_str()),
            (id.as_str(), "Deep Dives"),
            "{url}"
        );
        assert_eq!(found.videos.len(), 12, "{url}");
    }
    // Only the legacy /c/ name needed a search, and it was paid for once.
    let searches: Vec<_> = app
        .youtube
        .calls()
        .into_iter()
        .filter(|call| call.endpoint == "search")
        .collect();
    assert_eq!(searches.len(), 1, "{searches:?}");
    assert_eq!(searches[0].units, 100);
    let unknown_video = app
        .search(&format!("https://youtu.be/{}", video_id(0)), 100, false)
        .await
        .unwrap_err();
    assert_eq!(unknown_video.code(), Code::NotFound);
}

#[tokio::test]
async fn videos_come_newest_first_with_their_fields() {
    let app = spawn_app().await;
    add_channel(&app, 3, "Field Notes", 30);
    let found = app.search("@FieldNotes", 100, false).await.unwrap();
    let channel = found.channel.unwrap();
    assert_eq!(channel.video_count, 30);
    assert!(channel.thumbnail_url.starts_with("http"), "{channel:?}");
    assert!(channel.subscriber_count.is_some());
    assert_eq!(found.videos.len(), 30);
    assert_eq!(found.new_count, 30, "a first search finds every video new");
    let newest = &found.videos[0];
    assert_eq!(newest.title, "Field Notes episode 30");
    assert_eq!(newest.channel_title, "Field Notes");
    assert_eq!(newest.published_at, "2026-11-01T12:00:00+00:00");
    assert_eq!(
        newest.url,
        format!(
            "https://www.youtube.com/watch?v={}",
            newest.youtube_video_id
        )
    );
    assert!(
        found
            .videos
            .windows(2)
            .all(|pair| pair[0].published_at >= pair[1].published_at)
    );
    assert!(
        found
            .videos
            .iter()
            .all(|video| video.duration_seconds > 0.0)
    );
    assert_eq!(found.videos[29].title, "Field Notes episode 1");
}

#[tokio::test]
async fn limits_return_exactly_that_many_or_all() {
    let app = spawn_app().await;
    add_channel(&app, 11, "Big Channel", 620);
    for (limit, expected) in [(0, 100), (100, 100), (200, 200), (500, 500), (-1, 620)] {
        let found = app
            .search("@BigChannel", limit, true)
            .await
            .unwrap_or_else(|status| panic!("limit {limit}: {status:?}"));
        assert_eq!(found.videos.len(), expected, "limit {limit}");
    }
    for bad in [50, 1000, -5] {
        let refused = app.search("@BigChannel", bad, false).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "limit {bad}");
    }
}

#[tokio::test]
async fn private_deleted_upcoming_and_live_entries_are_left_out_without_shortening_a_page() {
    let app = spawn_app().await;
    let id = channel_id(21);
    let mut channel = FakeChannel::generated(&id, "Mixed", 110).with_handle("@Mixed");
    channel.videos[2] = FakeVideo::private(&video_id(9_001));
    channel.videos[5] = FakeVideo::deleted(&video_id(9_002));
    channel.videos.insert(
        0,
        FakeVideo::upcoming(&video_id(9_003), "Premiere soon", "2026-11-30T18:00:00Z"),
    );
    channel.videos.insert(
        1,
        FakeVideo::live(&video_id(9_004), "Live now", "2026-11-23T10:00:00Z"),
    );
    app.youtube.add_channel(channel);
    let found = app.search("@Mixed", 100, false).await.unwrap();
    assert_eq!(found.videos.len(), 100, "still exactly 100");
    let ids: Vec<&str> = found
        .videos
        .iter()
        .map(|video| video.youtube_video_id.as_str())
        .collect();
    for left_out in [9_001, 9_002, 9_003, 9_004] {
        assert!(!ids.contains(&video_id(left_out).as_str()), "{left_out}");
    }
    let everything = app.search("@Mixed", -1, false).await.unwrap();
    assert_eq!(
        everything.videos.len(),
        108,
        "110 uploads, 2 private or deleted"
    );
}

#[tokio::test]
async fn an_all_scan_of_5000_videos_costs_at_most_201_units_and_a_repeat_costs_nothing() {
    let app = spawn_app().await;
    add_channel(&app, 31, "Archive", 5_000);
    let found = app
        .search("https://www.youtube.com/@Archive", -1, false)
        .await
        .unwrap();
    assert_eq!(found.videos.len(), 5_000);
    assert_eq!(found.new_count, 5_000);
    let units = app.units_spent_since_reset();
    assert!(units <= 201, "an All scan cost {units} units");
    assert!(
        app.youtube
            .calls()
            .iter()
            .all(|call| call.endpoint != "search"),
        "never search.list"
    );

    for limit in [-1, 100, 500] {
        let again = app
            .search("https://www.youtube.com/@Archive/videos", limit, false)
            .await
            .unwrap();
        assert_eq!(
            again.videos.len(),
            if limit == -1 { 5_000 } else { limit as usize }
        );
        assert_eq!(again.new_count, 0);
    }
    assert_eq!(
        app.units_spent_since_reset(),
        0,
        "within the freshness window: no API call"
    );
}

#[tokio::test]
async fn a_refresh_reads_only_the_new_uploads() {
    let app = spawn_app().await;
    let id = add_channel(&app, 41, "Weekly", 300);
    app.search("@Weekly", -1, false).await.unwrap();
    app.youtube.reset_calls();
    app.youtube.publish(
        &id,
        (1..=3)
            .rev()
            .map(|n| {
                FakeVideo::public(
                    &video_id(70_000 + n),
                    &format!("Brand new {n}"),
                    &format!("2026-11-2{n}T09:00:00Z"),
                    "PT12M",
                )
            })
            .collect(),
    );
    let refreshed = app.search("@Weekly", 100, true).await.unwrap();
    assert_eq!(refreshed.new_count, 3);
    assert_eq!(refreshed.videos.len(), 100);
    assert_eq!(refreshed.videos[0].title, "Brand new 3");
    assert_eq!(refreshed.videos[2].title, "Brand new 1");
    let units = app.units_spent_since_reset();
    assert!(
        units <= 5,
        "a refresh finding 3 new videos cost {units} units"
    );

    let all = app.search("@Weekly", -1, false).await.unwrap();
    assert_eq!(all.videos.len(), 303, "the cache holds old and new");
    assert_eq!(app.units_spent_since_reset(), 0);
    let nothing_new = app.search("@Weekly", 100, true).await.unwrap();
    assert_eq!(nothing_new.new_count, 0);
}

#[tokio::test]
async fn a_stale_cache_is_read_again() {
    let youtube = FakeYouTube::start().await;
    let app = spawn_app_with(
        youtube,
        &[
            ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
            ("SCRIBEVAULT_YOUTUBE_CACHE_SECONDS", "0"),
        ],
    )
    .await;
    add_channel(&app, 51, "Stale", 10);
    app.search("@Stale", 100, false).await.unwrap();
    app.youtube.reset_calls();
    app.search("@Stale", 100, false).await.unwrap();
    assert!(
        app.units_spent_since_reset() > 0,
        "no freshness window: the API is asked"
    );
}

#[tokio::test]
async fn bad_urls_and_unknown_channels_get_the_specs_messages() {
    let app = spawn_app().await;
    for blank in ["", "   "] {
        let refused = app.search(blank, 100, false).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert_eq!(refused.message(), "Please enter a YouTube channel URL");
    }
    for foreign in [
        "https://vimeo.com/channels/staffpicks",
        "hello world",
        "https://www.youtube.com/results?search_query=x",
    ] {
        let refused = app.search(foreign, 100, false).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{foreign}");
        assert_eq!(
            refused.message(),
            "Please enter a valid YouTube channel URL"
        );
    }
    let unknown = app.search("@nobody-here", 100, false).await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
    assert_eq!(unknown.message(), "Channel not found");
    assert_eq!(
        app.youtube.calls().len(),
        1,
        "bad URLs cost nothing; the unknown handle 1 call"
    );
}

#[tokio::test]
async fn a_spent_quota_says_which_and_when_it_resets_and_the_next_key_takes_over() {
    let youtube = FakeYouTube::start().await;
    youtube.set_daily_quota("key-a", 3);
    let app = spawn_app_with(youtube, &[("SCRIBEVAULT_YOUTUBE_API_KEY", "key-a, key-b")]).await;
    add_channel(&app, 61, "Rotated", 200);
    let found = app.search("@Rotated", 200, false).await.unwrap();
    assert_eq!(
        found.videos.len(),
        200,
        "key-b finished what key-a could not"
    );
    assert!(app.youtube.quota_used("key-b") > 0);
    let before = app
        .youtube
        .calls()
        .iter()
        .filter(|c| c.key.as_deref() == Some("key-a"))
        .count();
    app.search("@Rotated", -1, true).await.unwrap();
    let after = app
        .youtube
        .calls()
        .iter()
        .filter(|c| c.key.as_deref() == Some("key-a"))
        .count();
    assert_eq!(before, after, "a parked key is not tried again today");

    let youtube = FakeYouTube::start().await;
    youtube.set_daily_quota(KEY, 2);
    let app = spawn_app_with(youtube, &[("SCRIBEVAULT_YOUTUBE_API_KEY", KEY)]).await;
    add_channel(&app, 62, "Spent", 200);
    let refused = app.search("@Spent", 200, false).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(ErrorCode::of_status(&refused).http_status(), 429);
    for needle in ["quota", "10000 units per key", "midnight Pacific", "UTC"] {
        assert!(
            refused.message().contains(needle),
            "{needle}: {}",
            refused.message()
        );
    }
}

#[tokio::test]
async fn a_user_who_spent_their_daily_units_is_refused_and_others_are_not() {
    let youtube = FakeYouTube::start().await;
    let app = spawn_app_with(
        youtube,
        &[
            ("SCRIBEVAULT_YOUTUBE_API_KEY", KEY),
            ("SCRIBEVAULT_YOUTUBE_UNITS_PER_USER_PER_DAY", "5"),
        ],
    )
    .await;
    add_channel(&app, 81, "Bigger", 300);
    add_channel(&app, 82, "Other", 10);
    // All of a 300-video channel: 1 lookup + 6 pages + 6 descriptions = 13 units. The budget
    // is checked before a use case, so this one runs and ends past it.
    let all = app.search("@Bigger", -1, false).await.unwrap();
    assert_eq!(all.videos.len(), 300);
    let units_before = app.youtube.calls().len();
    let refused = app.search("@Other", 100, false).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(ErrorCode::of_status(&refused).http_status(), 429);
    for needle in [
        "5 YouTube API units",
        "midnight Pacific",
        "Cached channels still answer",
    ] {
        assert!(
            refused.message().contains(needle),
            "{needle}: {}",
            refused.message()
        );
    }
    assert_eq!(
        app.youtube.calls().len(),
        units_before,
        "a refused user costs the keys nothing"
    );
    // Cached answers cost no units and still come.
    assert_eq!(
        app.search("@Bigger", 100, false)
            .await
            .unwrap()
            .videos
            .len(),
        100
    );
    // Another user has their own units.
    let bob = app
        .client
        .clone()
        .get_channel_videos(crate::helpers::as_user(
            "bob",
            scribevault_proto::discovery::v1::GetChannelVideosRequest {
                channel_url: "@Other".to_owned(),
                limit: 100,
                refresh: false,
            },
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(bob.videos.len(), 10);
}

#[tokio::test]
async fn a_refused_or_missing_key_names_the_setting() {
    let youtube = FakeYouTube::start().await;
    youtube.invalidate_key("revoked");
    let app = spawn_app_with(youtube, &[("SCRIBEVAULT_YOUTUBE_API_KEY", "revoked")]).await;
    add_channel(&app, 71, "Anyone", 5);
    let refused = app.search("@Anyone", 100, false).await.unwrap_err();
    assert_eq!(
        ErrorCode::of_status(&refused),
        ErrorCode::BadGateway,
        "{refused:?}"
    );
    assert_eq!(ErrorCode::of_status(&refused).http_status(), 502);
    assert!(
        refused.message().contains("SCRIBEVAULT_YOUTUBE_API_KEY"),
        "{}",
        refused.message()
    );
    assert!(
        !refused.message().contains("revoked"),
        "the key itself is never shown"
    );

    let app = spawn_app_with(FakeYouTube::start().await, &[]).await;
    let refused = app.search("@Anyone", 100, false).await.unwrap_err();
    assert_eq!(
        ErrorCode::of_status(&refused),
        ErrorCode::NotConfigured,
        "{refused:?}"
    );
    assert_eq!(ErrorCode::of_status(&refused).http_status(), 503);
    assert!(
        refused
            .message()
            .contains("set SCRIBEVAULT_YOUTUBE_API_KEY"),
        "{}",
        refused.message()
    );
    assert!(
        app.youtube.calls().is_empty(),
        "nothing is sent without a key"
    );
}
