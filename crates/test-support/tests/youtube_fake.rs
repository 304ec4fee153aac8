//! The YouTube Data API fake, driven over HTTP as a client would.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use scribevault_test_support::youtube::{
    DEMO_PLAYLIST_ID, FakeChannel, FakePlaylist, FakeVideo, FakeYouTube, Visibility, channel_id,
    video_id,
};
use serde_json::{Value, json};

const KEY: &str = "test-key";

/// GETs `{base}/{path_and_query}` and returns the status and the JSON body.
async fn get(youtube: &FakeYouTube, path_and_query: &str) -> (u16, Value) {
    let url = format!("{}/{path_and_query}", youtube.base_url());
    let response = reqwest::get(&url).await.expect("the fake answers");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, body)
}

/// GETs with `key=KEY` appended.
async fn call(youtube: &FakeYouTube, path_and_query: &str) -> (u16, Value) {
    let separator = if path_and_query.contains('?') {
        '&'
    } else {
        '?'
    };
    get(youtube, &format!("{path_and_query}{separator}key={KEY}")).await
}

fn reason(body: &Value) -> &str {
    body["error"]["errors"][0]["reason"]
        .as_str()
        .unwrap_or_default()
}

async fn with_demo() -> FakeYouTube {
    let youtube = FakeYouTube::start().await;
    youtube.seed_demo();
    youtube
}

#[tokio::test]
async fn channels_list_has_the_documented_shape() {
    let youtube = FakeYouTube::start().await;
    let id = channel_id(7);
    youtube.add_channel(
        FakeChannel::generated(&id, "Seven Seas", 3)
            .with_handle("@SevenSeas")
            .with_subscribers(1_234_567, false),
    );

    let (status, body) = call(
        &youtube,
        &format!("channels?part=snippet,contentDetails,statistics&id={id}"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["kind"], "youtube#channelListResponse");
    assert_eq!(body["etag"].as_str().map(str::len), Some(27));
    assert_eq!(body["pageInfo"]["totalResults"], 1);
    let item = &body["items"][0];
    assert_eq!(item["kind"], "youtube#channel");
    assert_eq!(item["id"], id.as_str());
    assert_eq!(item["etag"].as_str().map(str::len), Some(27));
    assert_eq!(item["snippet"]["title"], "Seven Seas");
    assert_eq!(item["snippet"]["customUrl"], "@sevenseas");
    assert!(item["snippet"]["publishedAt"].as_str().is_some());
    assert!(item["snippet"]["description"].as_str().is_some());
    for size in ["default", "medium", "high"] {
        let thumbnail = &item["snippet"]["thumbnails"][size];
        assert!(thumbnail["url"].as_str().is_some(), "{size}");
        assert!(thumbnail["width"].as_u64().is_some(), "{size}");
        assert!(thumbnail["height"].as_u64().is_some(), "{size}");
    }
    assert_eq!(
        item["contentDetails"]["relatedPlaylists"]["uploads"],
        format!("UU{}", &id[2..])
    );
    let statistics = &item["statistics"];
    assert_eq!(
        statistics["subscriberCount"], "1230000",
        "three significant figures"
    );
    assert_eq!(statistics["hiddenSubscriberCount"], false);
    assert_eq!(statistics["videoCount"], "3");
    assert!(statistics["viewCount"].is_string());

    // Only the requested parts.
    let (_, body) = call(&youtube, &format!("channels?part=id&id={id}")).await;
    let item = body["items"][0].as_object().expect("an item");
    let mut keys: Vec<&str> = item.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["etag", "id", "kind"]);
}

#[tokio::test]
async fn channels_resolve_by_handle_and_username_but_not_custom_name() {
    let youtube = FakeYouTube::start().await;
    let id = channel_id(8);
    youtube.add_channel(
        FakeChannel::new(&id, "Handled")
            .with_handle("@Handled.Channel")
            .with_username("OldName")
            .with_custom_name("LegacyCustom")
            .with_subscribers(500, true),
    );
    for query in [
        "forHandle=@handled.channel",
        "forHandle=Handled.Channel",
        "forHandle=%40HANDLED.CHANNEL",
        "forUsername=oldname",
    ] {
        let (status, body) = call(&youtube, &format!("channels?part=statistics&{query}")).await;
        assert_eq!(status, 200, "{query}");
        assert_eq!(body["items"][0]["id"], id.as_str(), "{query}");
        let statistics = &body["items"][0]["statistics"];
        assert_eq!(statistics["hiddenSubscriberCount"], true);
        assert!(statistics.get("subscriberCount").is_none(), "hidden count");
    }
    for query in [
        "forHandle=LegacyCustom",
        "forUsername=LegacyCustom",
        "forHandle=nobody",
        "id=UCxxxxxxxxxxxxxxxxxxxxxx",
    ] {
        let (status, body) = call(&youtube, &format!("channels?part=snippet&{query}")).await;
        assert_eq!(status, 200, "{query}");
        assert!(body.get("items").is_none(), "{query}: no items key: {body}");
        assert_eq!(body["pageInfo"]["totalResults"], 0);
        assert_eq!(body["kind"], "youtube#channelListResponse");
    }
}

#[tokio::test]
async fn channels_reject_bad_filters_and_parts() {
    let youtube = FakeYouTube::start().await;
    let (status, body) = call(&youtube, "channels?part=snippet").await;
    assert_eq!((status, reason(&body)), (400, "missingRequiredParameter"));
    let (status, body) = call(&youtube, "channels?part=snippet&id=UCa&forHandle=b").await;
    assert_eq!((status, reason(&body)), (400, "incompatibleParameters"));
    let (status, body) = call(&youtube, "channels?part=snippet&mine=true").await;
    assert_eq!((status, reason(&body)), (401, "authorizationRequired"));
    let (status, body) = call(&youtube, "channels?id=UCa").await;
    assert_eq!((status, reason(&body)), (400, "required"));
    let (status, body) = call(&youtube, "channels?part=snippet,nonsense&id=UCa").await;
    assert_eq!((status, reason(&body)), (400, "unknownPart"));
    assert_eq!(body["error"]["code"], 400);
    // Every one of them was charged.
    assert_eq!(youtube.units_spent(), 5);
}

#[tokio::test]
async fn uploads_page_newest_first_at_fifty_per_page() {
    let youtube = with_demo().await;
    let uploads = format!("UU{}", &channel_id(1)[2..]);
    let mut token: Option<String> = None;
    let mut pages = Vec::new();
    let mut seen = Vec::new();
    loop {
        let mut query = format!(
            "playlistItems?part=snippet,contentDetails,status&playlistId={uploads}&maxResults=50"
        );
        if let Some(token) = &token {
            query.push_str(&format!("&pageToken={token}"));
        }
        let (status, body) = call(&youtube, &query).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["kind"], "youtube#playlistItemListResponse");
        assert_eq!(body["pageInfo"]["totalResults"], 120);
        assert_eq!(body["pageInfo"]["resultsPerPage"], 50);
        assert_eq!(body.get("prevPageToken").is_some(), !pages.is_empty());
        let items = body["items"].as_array().expect("items");
        pages.push(items.len());
        for item in items {
            assert_eq!(item["kind"], "youtube#playlistItem");
            assert_eq!(item["snippet"]["position"], seen.len());
            assert_eq!(item["snippet"]["playlistId"], uploads.as_str());
            assert_eq!(item["snippet"]["channelId"], channel_id(1).as_str());
            assert_eq!(item["status"]["privacyStatus"], "public");
            let video = item["contentDetails"]["videoId"].as_str().expect("videoId");
            assert_eq!(item["snippet"]["resourceId"]["videoId"], video);
            assert!(item["contentDetails"]["videoPublishedAt"].is_string());
            seen.push((
                video.to_string(),
                item["snippet"]["title"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                item["contentDetails"]["videoPublishedAt"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            ));
        }
        match body.get("nextPageToken").and_then(Value::as_str) {
            Some(next) => {
                assert!(next.parse::<u64>().is_err(), "tokens are opaque: {next}");
                token = Some(next.to_string());
            }
            None => break,
        }
    }
    assert_eq!(pages, [50, 50, 20]);
    assert_eq!(seen[0].1, "Scribevault Demo episode 120");
    assert_eq!(seen[0].2, "2026-11-01T12:00:00Z");
    assert_eq!(seen[1].2, "2026-10-31T12:00:00Z");
    assert_eq!(seen[119].1, "Scribevault Demo episode 1");
    let unique: HashSet<&String> = seen.iter().map(|(id, _, _)| id).collect();
    assert_eq!(unique.len(), 120);
    // Default page size is 5.
    let (_, body) = call(
        &youtube,
        &format!("playlistItems?part=id&playlistId={uploads}"),
    )
    .await;
    assert_eq!(body["items"].as_array().map(Vec::len), Some(5));
    assert_eq!(body["pageInfo"]["resultsPerPage"], 5);
}

/// The playlist lists private and deleted entries as YouTube does: placeholders without a
/// publication time or an owner.
fn assert_private_and_deleted_entries_are_placeholders(body: &serde_json::Value, owner: &str) {
    let items = body["items"].as_array().expect("items");
    assert_eq!(items.len(), 4);
    let private = &items[1];
    assert_eq!(private["snippet"]["title"], "Private video");
    assert_eq!(private["snippet"]["description"], "This video is private.");
    assert_eq!(private["snippet"]["thumbnails"], json!({}));
    assert_eq!(private["status"]["privacyStatus"], "private");
    assert_eq!(private["contentDetails"]["videoId"], video_id(3).as_str());
    assert!(private["contentDetails"].get("videoPublishedAt").is_none());
    assert!(private["snippet"].get("videoOwnerChannelId").is_none());
    let deleted = &items[2];
    assert_eq!(deleted["snippet"]["title"], "Deleted video");
    assert_eq!(
        deleted["snippet"]["description"],
        "This video is unavailable."
    );
    assert_eq!(
        deleted["status"]["privacyStatus"],
        "privacyStatusUnspecified"
    );
    assert!(deleted["contentDetails"].get("videoPublishedAt").is_none());
    assert_eq!(items[0]["snippet"]["videoOwnerChannelId"], owner);
}

/// `videos.list` describes the public and the upcoming video, in YouTube's shapes.
fn assert_served_videos_are_described(body: &serde_json::Value, owner: &str) {
    let kept = &body["items"][0];
    assert_eq!(kept["kind"], "youtube#video");
    assert_eq!(kept["snippet"]["channelId"], owner);
    assert_eq!(kept["snippet"]["channelTitle"], "Owner");
    assert_eq!(kept["snippet"]["publishedAt"], "2026-10-01T10:00:00Z");
    assert_eq!(kept["snippet"]["liveBroadcastContent"], "none");
    assert_eq!(kept["contentDetails"]["duration"], "PT4M5S");
    assert_eq!(kept["status"]["privacyStatus"], "public");
    for count in ["viewCount", "likeCount", "favoriteCount", "commentCount"] {
        assert!(kept["statistics"][count].is_string(), "{count} is a string");
    }
    assert!(kept.get("liveStreamingDetails").is_none());
    let soon = &body["items"][1];
    assert_eq!(soon["contentDetails"]["duration"], "P0D");
    assert_eq!(soon["snippet"]["liveBroadcastContent"], "upcoming");
    assert_eq!(
        soon["liveStreamingDetails"]["scheduledStartTime"],
        "2026-12-01T18:00:00Z"
    );
}

#[tokio::test]
async fn private_and_deleted_entries_are_listed_but_not_served_by_videos_list() {
    let youtube = FakeYouTube::start().await;
    let owner = channel_id(2);
    let public = FakeVideo::public(&video_id(1), "Kept", "2026-10-01T10:00:00Z", "PT4M5S");
    let upcoming = FakeVideo::upcoming(&video_id(2), "Soon", "2026-12-01T18:00:00Z");
    youtube.add_channel(FakeChannel::new(&owner, "Owner"));
    youtube.add_playlist(FakePlaylist::new(
        "PLmixed0000000000000000000000001",
        &owner,
        "Mixed",
        vec![
            public.clone(),
            FakeVideo::private(&video_id(3)),
            FakeVideo::deleted(&video_id(4)),
            upcoming.clone(),
        ],
    ));
    let (status, body) = call(
        &youtube,
        "playlistItems?part=snippet,contentDetails,status&playlistId=PLmixed0000000000000000000000001&maxResults=50",
    )
    .await;
    assert_eq!(status, 200);
    assert_private_and_deleted_entries_are_placeholders(&body, &owner);

    let ids: Vec<String> = (1..=4).map(video_id).collect();
    let (status, body) = call(
        &youtube,
        &format!(
            "videos?part=snippet,contentDetails,statistics,status,liveStreamingDetails&id={}",
            ids.join(",")
        ),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["kind"], "youtube#videoListResponse");
    let served: Vec<&str> = body["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["id"].as_str())
        .collect();
    assert_eq!(served, [public.id.as_str(), upcoming.id.as_str()]);
    assert_eq!(body["pageInfo"]["totalResults"], 2);

    assert_served_videos_are_described(&body, &owner);

    // Nothing matched: 200 with an empty list.
    let (status, body) = call(&youtube, &format!("videos?part=snippet&id={}", video_id(3))).await;
    assert_eq!(status, 200);
    assert_eq!(body["items"], json!([]));

    // A video made private later disappears from videos.list too.
    youtube.set_visibility(&public.id, Visibility::Private);
    let (_, body) = call(&youtube, &format!("videos?part=id&id={}", public.id)).await;
    assert_eq!(body["items"], json!([]));
}

#[tokio::test]
async fn videos_list_takes_at_most_fifty_ids() {
    let youtube = with_demo().await;
    let ids: Vec<String> = (0..51).map(video_id).collect();
    let (status, body) = call(&youtube, &format!("videos?part=id&id={}", ids.join(","))).await;
    assert_eq!(status, 400);
    assert_eq!(reason(&body), "invalidFilters");
    let (status, _) = call(
        &youtube,
        &format!("videos?part=id&id={}", ids[..50].join(",")),
    )
    .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn playlist_errors_use_the_google_envelope() {
    let youtube = with_demo().await;
    let (status, body) = call(&youtube, "playlistItems?part=snippet&playlistId=PLnothing").await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["code"], 404);
    assert_eq!(reason(&body), "playlistNotFound");
    assert_eq!(body["error"]["errors"][0]["domain"], "youtube.playlistItem");

    for token in ["50", "nonsense", "CAUQAA"] {
        let (status, body) = call(
            &youtube,
            &format!("playlistItems?part=id&playlistId={DEMO_PLAYLIST_ID}&pageToken={token}"),
        )
        .await;
        assert_eq!(
            (status, reason(&body)),
            (400, "invalidPageToken"),
            "{token}"
        );
    }
    let (status, body) = call(
        &youtube,
        &format!("playlistItems?part=id&playlistId={DEMO_PLAYLIST_ID}&maxResults=51"),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "invalidParameter"));

    // A channel that has uploaded nothing has no uploads playlist.
    let empty = channel_id(99);
    youtube.add_channel(FakeChannel::new(&empty, "Empty"));
    let (status, body) = call(
        &youtube,
        &format!("playlistItems?part=id&playlistId=UU{}", &empty[2..]),
    )
    .await;
    assert_eq!((status, reason(&body)), (404, "playlistNotFound"));
}

#[tokio::test]
async fn playlists_list_describes_explicit_and_uploads_playlists() {
    let youtube = with_demo().await;
    let (status, body) = call(
        &youtube,
        &format!("playlists?part=snippet,contentDetails&id={DEMO_PLAYLIST_ID}"),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["kind"], "youtube#playlistListResponse");
    let item = &body["items"][0];
    assert_eq!(item["kind"], "youtube#playlist");
    assert_eq!(item["id"], DEMO_PLAYLIST_ID);
    assert_eq!(item["snippet"]["channelId"], channel_id(1).as_str());
    assert_eq!(item["snippet"]["title"], "Demo playlist");
    assert_eq!(item["snippet"]["channelTitle"], "Scribevault Demo");
    assert!(item["snippet"]["thumbnails"]["high"]["url"].is_string());
    assert_eq!(item["contentDetails"]["itemCount"], 30);

    let (status, body) = call(&youtube, "playlists?part=snippet&id=PLnothing").await;
    assert_eq!(status, 200);
    assert!(body.get("items").is_none(), "{body}");
    assert_eq!(body["pageInfo"]["totalResults"], 0);

    // Every demo playlist entry is also one of the channel's uploads, served by videos.list.
    let (_, body) = call(
        &youtube,
        &format!("playlistItems?part=contentDetails&playlistId={DEMO_PLAYLIST_ID}&maxResults=50"),
    )
    .await;
    let ids: Vec<&str> = body["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["contentDetails"]["videoId"].as_str())
        .collect();
    assert_eq!(ids.len(), 30);
    let (_, videos) = call(
        &youtube,
        &format!("videos?part=snippet&id={}", ids.join(",")),
    )
    .await;
    assert_eq!(videos["items"].as_array().map(Vec::len), Some(30));
    assert_eq!(
        videos["items"][0]["snippet"]["channelId"],
        channel_id(1).as_str()
    );
}

#[tokio::test]
async fn search_finds_channels_and_costs_a_hundred_units() {
    let youtube = with_demo().await;
    youtube.add_channel(
        FakeChannel::new(&channel_id(3), "Another One").with_custom_name("DemoLegacy"),
    );
    let (status, body) = call(
        &youtube,
        "search?part=snippet&type=channel&q=DEMO&maxResults=10",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["kind"], "youtube#searchListResponse");
    let items = body["items"].as_array().expect("items");
    assert_eq!(items.len(), 2, "by title and by custom name: {body}");
    assert_eq!(items[0]["kind"], "youtube#searchResult");
    assert_eq!(items[0]["id"]["kind"], "youtube#channel");
    assert_eq!(items[0]["id"]["channelId"], channel_id(1).as_str());
    assert_eq!(items[0]["snippet"]["title"], "Scribevault Demo");
    assert_eq!(items[1]["id"]["channelId"], channel_id(3).as_str());

    let (_, body) = call(&youtube, "search?part=snippet&type=channel&q=zzz").await;
    assert_eq!(body["items"], json!([]));

    let calls = youtube.calls();
    assert_eq!(calls.len(), 2);
    assert!(
        calls
            .iter()
            .all(|c| c.endpoint == "search" && c.units == 100)
    );
    assert_eq!(youtube.units_spent(), 200);
    assert_eq!(youtube.quota_used(KEY), 200);
}

#[tokio::test]
async fn calls_are_recorded_with_their_cost_and_status() {
    let youtube = with_demo().await;
    call(&youtube, &format!("channels?part=id&id={}", channel_id(1))).await;
    call(&youtube, "playlistItems?part=id&playlistId=PLnothing").await;
    get(&youtube, "videos?part=id&id=abc").await;
    get(&youtube, "videos?part=id&id=abc&key=").await;
    call(&youtube, "nonsense").await;

    let calls = youtube.calls();
    let summary: Vec<(&str, u64, u16)> = calls
        .iter()
        .map(|c| (c.endpoint.as_str(), c.units, c.status))
        .collect();
    assert_eq!(
        summary,
        [
            ("channels", 1, 200),
            ("playlistItems", 1, 404),
            ("videos", 0, 403),
            ("videos", 0, 400),
            ("nonsense", 0, 404),
        ]
    );
    assert_eq!(calls[0].key.as_deref(), Some(KEY));
    assert_eq!(calls[2].key, None);
    assert!(
        calls[0]
            .query
            .contains(&("part".to_string(), "id".to_string()))
    );
    assert_eq!(youtube.units_spent(), 2);
    youtube.reset_calls();
    assert!(youtube.calls().is_empty());
    assert_eq!(youtube.units_spent(), 0);
}

#[tokio::test]
async fn a_key_over_its_daily_quota_gets_quota_exceeded() {
    let youtube = with_demo().await;
    youtube.set_daily_quota(KEY, 102);
    let channel = format!("channels?part=id&id={}", channel_id(1));
    assert_eq!(call(&youtube, &channel).await.0, 200);
    assert_eq!(
        call(&youtube, "search?part=snippet&type=channel&q=demo")
            .await
            .0,
        200
    );
    assert_eq!(call(&youtube, &channel).await.0, 200);
    let (status, body) = call(&youtube, &channel).await;
    assert_eq!(status, 403);
    let message = "The request cannot be completed because you have exceeded your \
                   <a href=\"/youtube/v3/getting-started#quota\">quota</a>.";
    assert_eq!(
        body,
        json!({ "error": { "code": 403, "message": message, "errors": [
            { "message": message, "domain": "youtube.quota", "reason": "quotaExceeded" }
        ] } })
    );
    assert_eq!(youtube.quota_used(KEY), 102);
    assert_eq!(youtube.calls().last().map(|c| c.units), Some(0));

    // Other keys have their own quota; a new day refills this one.
    let (status, _) = get(&youtube, &format!("{channel}&key=other")).await;
    assert_eq!(status, 200);
    youtube.new_day();
    assert_eq!(call(&youtube, &channel).await.0, 200);

    // A search that would overdraw is refused even when single units remain.
    youtube.set_daily_quota("small", 150);
    let search = "search?part=snippet&type=channel&q=demo&key=small";
    assert_eq!(get(&youtube, search).await.0, 200);
    let (status, body) = get(&youtube, search).await;
    assert_eq!((status, reason(&body)), (403, "quotaExceeded"));
}

#[tokio::test]
async fn bad_and_missing_keys_get_googles_envelopes() {
    let youtube = with_demo().await;
    youtube.invalidate_key("revoked");
    let (status, body) = get(&youtube, "channels?part=id&forHandle=x&key=revoked").await;
    assert_eq!(status, 400);
    let message = "API key not valid. Please pass a valid API key.";
    assert_eq!(body["error"]["code"], 400);
    assert_eq!(body["error"]["message"], message);
    assert_eq!(
        body["error"]["errors"],
        json!([{ "message": message, "domain": "global", "reason": "badRequest" }])
    );
    assert_eq!(body["error"]["status"], "INVALID_ARGUMENT");
    assert_eq!(
        body["error"]["details"][0],
        json!({
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "API_KEY_INVALID",
            "domain": "googleapis.com",
            "metadata": { "service": "youtube.googleapis.com" }
        })
    );

    let (status, body) = get(&youtube, "channels?part=id&forHandle=x").await;
    assert_eq!(status, 403);
    assert_eq!(reason(&body), "forbidden");
    assert_eq!(body["error"]["status"], "PERMISSION_DENIED");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Method doesn't allow unregistered callers"))
    );
    assert_eq!(youtube.units_spent(), 0);

    let (status, _) = call(&youtube, "comments?part=id").await;
    assert_eq!(status, 404);
    let (status, _) = get(&youtube, "../elsewhere").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn latency_does_not_serialise_concurrent_requests() {
    let youtube = with_demo().await;
    let latency = Duration::from_millis(200);
    youtube.set_latency(latency);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let youtube = youtube.clone();
        tasks.spawn(async move {
            call(&youtube, &format!("channels?part=id&id={}", channel_id(1)))
                .await
                .0
        });
    }
    while let Some(status) = tasks.join_next().await {
        assert_eq!(status.expect("the request task"), 200);
    }
    let elapsed = started.elapsed();
    assert!(elapsed >= latency, "latency applied: {elapsed:?}");
    assert!(elapsed < latency * 5, "10 requests took {elapsed:?}");
    assert_eq!(youtube.calls().len(), 10);
}

#[tokio::test]
async fn publishing_puts_new_uploads_first() {
    let youtube = FakeYouTube::start().await;
    let id = channel_id(4);
    youtube.add_channel(FakeChannel::generated(&id, "Growing", 2));
    let fresh = FakeVideo::public(&video_id(500), "Fresh", "2026-11-02T08:00:00Z", "PT45S");
    youtube.publish(&id, vec![fresh.clone()]);
    let (_, body) = call(
        &youtube,
        &format!(
            "playlistItems?part=snippet,contentDetails&playlistId=UU{}",
            &id[2..]
        ),
    )
    .await;
    assert_eq!(body["pageInfo"]["totalResults"], 3);
    assert_eq!(
        body["items"][0]["contentDetails"]["videoId"],
        fresh.id.as_str()
    );
    assert_eq!(body["items"][1]["snippet"]["title"], "Growing episode 2");
    let (_, body) = call(&youtube, &format!("videos?part=snippet&id={}", fresh.id)).await;
    assert_eq!(body["items"][0]["snippet"]["channelId"], id.as_str());
}

#[test]
fn generated_channels_are_deterministic_and_distinct() {
    let one = FakeChannel::generated(&channel_id(1), "One", 60);
    let again = FakeChannel::generated(&channel_id(1), "One", 60);
    let two = FakeChannel::generated(&channel_id(2), "Two", 60);
    let ids: Vec<&String> = one.videos.iter().map(|v| &v.id).collect();
    assert_eq!(ids, again.videos.iter().map(|v| &v.id).collect::<Vec<_>>());
    let all: HashSet<&String> = one
        .videos
        .iter()
        .chain(&two.videos)
        .map(|v| &v.id)
        .collect();
    assert_eq!(all.len(), 120, "unique across channels");
    for video in one.videos.iter().chain(&two.videos) {
        assert_eq!(video.id.len(), 11);
        assert!(!video.id.starts_with('-'));
        assert!(
            video
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
    }
    assert_eq!(one.videos[0].title, "One episode 60");
    assert_eq!(one.videos[59].title, "One episode 1");
    assert_eq!(one.videos[0].published_at, "2026-11-01T12:00:00Z");
    assert_eq!(one.videos[59].published_at, "2026-09-03T12:00:00Z");
    let durations: Vec<&str> = one.videos.iter().map(|v| v.duration.as_str()).collect();
    assert!(durations.iter().any(|d| d.contains('H')), "some ≥ 1 h");
    assert!(
        durations
            .iter()
            .any(|d| d.starts_with("PT") && !d.contains('H') && !d.contains('M')),
        "some < 1 min"
    );
    let channel = channel_id(12_345);
    assert_eq!(channel.len(), 24);
    assert!(channel.starts_with("UC"));
}
