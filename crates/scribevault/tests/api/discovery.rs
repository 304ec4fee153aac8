//! Discovery through the product's REST API: the gateway's routes, statuses and error texts,
//! CSV downloads, sources scoped to their owner and announced on their socket, with the real
//! binary talking to the YouTube fake (the real client, the fake's wire format).

use std::time::Duration;

use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
use serde_json::{Value, json};

use crate::helpers::{SocketClient, TestApp};

async fn app_with(youtube: &FakeYouTube, key: Option<&str>) -> TestApp {
    let base = youtube.base_url();
    let mut env = vec![("SCRIBEVAULT_YOUTUBE_API_BASE", base.as_str())];
    if let Some(key) = key {
        env.push(("SCRIBEVAULT_YOUTUBE_API_KEY", key));
    }
    TestApp::spawn_all_with(&env).await
}

async fn search(app: &TestApp, token: &str, url: &str, query: &str) -> (u16, Value) {
    app.post_json(
        &format!("/api/youtube-discovery/channel-videos{query}"),
        &json!({ "channelUrl": url }),
        Some(token),
    )
    .await
}

#[tokio::test]
async fn a_channel_search_answers_the_specs_shape() {
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(301), "Rest Shapes", 250).with_handle("@RestShapes"),
    );
    let app = app_with(&youtube, Some("rest-key")).await;
    let (token, _) = app.sign_up("shapes@example.com").await;

    let (status, body) = search(&app, &token, "https://www.youtube.com/@RestShapes", "").await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(
        data["videos"].as_array().unwrap().len(),
        100,
        "default limit 100"
    );
    assert_eq!(data["newCount"], 100);
    assert_eq!(data["channel"]["title"], "Rest Shapes");
    assert_eq!(data["channel"]["videoCount"], 250);
    assert!(data["channel"]["subscriberCount"].is_u64());
    assert!(
        data["channel"]["thumbnails"]["high"]["url"]
            .as_str()
            .unwrap()
            .starts_with("http")
    );
    let video = &data["videos"][0];
    for field in [
        "youtubeVideoId",
        "title",
        "channelTitle",
        "publishedAt",
        "url",
    ] {
        assert!(video[field].is_string(), "{field}: {video}");
    }
    assert!(video["duration"].as_f64().unwrap() > 0.0);

    let (status, body) = search(&app, &token, "@RestShapes", "?limit=-1&refresh=true").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["videos"].as_array().unwrap().len(), 250);
    assert_eq!(body["data"]["newCount"], 150);

    let (status, body) = app.get("/api/youtube-discovery/quota", Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["used"], youtube.units_spent());
    assert_eq!(body["data"]["limit"], 10_000);
    assert!(body["data"]["resetsAt"].is_string());
}

/// Empty, foreign and unknown channel URLs, bad limits, a malformed body and a missing token
/// each get their status and message.
async fn assert_bad_search_input_gets_clear_statuses(app: &TestApp, token: &str) {
    for (body, status, message) in [
        (
            json!({ "channelUrl": "   " }),
            400,
            "Please enter a YouTube channel URL",
        ),
        (json!({}), 400, "Please enter a YouTube channel URL"),
        (
            json!({ "channelUrl": "https://vimeo.com/x" }),
            400,
            "Please enter a valid YouTube channel URL",
        ),
        (
            json!({ "channelUrl": "@nobody-at-all" }),
            404,
            "Channel not found",
        ),
    ] {
        let (got, answer) = app
            .post_json("/api/youtube-discovery/channel-videos", &body, Some(token))
            .await;
        assert_eq!(
            (got, answer["error"]["message"].as_str()),
            (status, Some(message)),
            "{body}"
        );
    }
    let (status, _) = search(app, token, "@Errors", "?limit=abc").await;
    assert_eq!(status, 400);
    let (status, _) = search(app, token, "@Errors", "?limit=42").await;
    assert_eq!(status, 400);
    let malformed = app
        .http
        .post(app.url("/api/youtube-discovery/channel-videos"))
        .bearer_auth(token)
        .header("content-type", "application/json")
        .body("{\"channelUrl\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status().as_u16(), 400);
    let (status, _) = app
        .post_json(
            "/api/youtube-discovery/channel-videos",
            &json!({ "channelUrl": "@Errors" }),
            None,
        )
        .await;
    assert_eq!(status, 401);
}

/// A search the key's quota cannot pay for gets 429 with when it resets, and `/readyz` stays
/// up.
async fn assert_a_spent_quota_gets_429(app: &TestApp, token: &str) {
    let (status, body) = search(app, token, "@Errors", "?limit=200").await;
    assert_eq!(status, 429, "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("quota") && message.contains("midnight Pacific"),
        "{message}"
    );
    assert_eq!(
        app.get("/readyz", None).await.0,
        200,
        "an API failure is not unreadiness"
    );
}

/// A search by an instance with `key` (or none) gets `status` and a message containing
/// `names_the_key`, and `/readyz` stays up.
async fn assert_a_key_problem_is_named(
    youtube: &FakeYouTube,
    (key, email): (Option<&str>, &str),
    status: u16,
    names_the_key: &str,
) {
    let app = app_with(youtube, key).await;
    let (token, _) = app.sign_up(email).await;
    let (got, body) = search(&app, &token, "@Errors", "").await;
    assert_eq!(got, status, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains(names_the_key)
    );
    assert_eq!(app.get("/readyz", None).await.0, 200);
}

#[tokio::test]
async fn bad_input_and_api_failures_get_clear_statuses_and_readyz_stays_up() {
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(302), "Errors", 120).with_handle("@Errors"),
    );
    youtube.set_daily_quota("tiny-key", 2);
    let app = app_with(&youtube, Some("tiny-key")).await;
    let (token, _) = app.sign_up("errors@example.com").await;
    assert_bad_search_input_gets_clear_statuses(&app, &token).await;
    assert_a_spent_quota_gets_429(&app, &token).await;

    let bad_key = FakeYouTube::start().await;
    bad_key.invalidate_key("revoked-key");
    assert_a_key_problem_is_named(
        &bad_key,
        (Some("revoked-key"), "badkey@example.com"),
        502,
        "SCRIBEVAULT_YOUTUBE_API_KEY",
    )
    .await;
    assert_a_key_problem_is_named(
        &bad_key,
        (None, "nokey@example.com"),
        503,
        "set SCRIBEVAULT_YOUTUBE_API_KEY",
    )
    .await;
}

#[tokio::test]
async fn an_export_downloads_a_named_csv() {
    let youtube = FakeYouTube::start().await;
    youtube.add_channel(
        FakeChannel::generated(&channel_id(303), "Exports", 3).with_handle("@Exports"),
    );
    let app = app_with(&youtube, Some("export-key")).await;
    let (token, _) = app.sign_up("export@example.com").await;
    let (_, body) = search(&app, &token, "@Exports", "").await;
    let ids: Vec<Value> = body["data"]["videos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|video| video["youtubeVideoId"].clone())
        .collect();
    let response = app
        .http
        .post(app.url("/api/youtube-discovery/export"))
        .bearer_auth(&token)
        .json(&json!({ "videoIds": ids, "exportType": "all" }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"youtube-videos-")
            && disposition.ends_with(".csv\""),
        "{disposition}"
    );
    let text = response.text().await.unwrap();
    assert_eq!(text.lines().count(), 4, "header and three videos: {text}");
    assert!(text.starts_with("youtubeVideoId,title,channelTitle,duration,publishedAt,url\r\n"));

    let (status, body) = app
        .post_json(
            "/api/youtube-discovery/export",
            &json!({ "videoIds": [], "exportType": "urls" }),
            Some(&token),
        )
        .await;
    assert_eq!(
        (status, body["error"]["message"].as_str()),
        (400, Some("No videos to export"))
    );
}

/// Alice adds the demo channel: it is described, and announced as created on her socket;
/// returns its id.
async fn add_the_demo_channel(app: &TestApp, alice: &str, socket: &mut SocketClient) -> String {
    let (status, body) = app
        .post_json(
            "/api/sources",
            &json!({ "url": "https://www.youtube.com/@scribevault-demo" }),
            Some(alice),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let source = body["data"].clone();
    assert_eq!(source["type"], "CHANNEL");
    assert_eq!(source["title"], "Scribevault Demo");
    assert!(source["thumbnailUrl"].as_str().unwrap().starts_with("http"));
    let event = socket
        .wait_for(Duration::from_secs(10), |line| {
            line["name"] == "sourceUpdate"
        })
        .await;
    assert_eq!(event["data"]["type"], "created");
    assert_eq!(event["data"]["source"]["title"], "Scribevault Demo");
    source["id"].as_str().unwrap().to_owned()
}

/// The same channel again is a conflict; the list holds it once, for a caller with a token.
async fn assert_a_source_is_added_once(app: &TestApp, alice: &str) {
    let (status, _) = app
        .post_json(
            "/api/sources",
            &json!({ "url": "@scribevault-demo" }),
            Some(alice),
        )
        .await;
    assert_eq!(status, 409);
    let (status, body) = app.get("/api/sources", Some(alice)).await;
    assert_eq!((status, body["data"].as_array().unwrap().len()), (200, 1));
    assert_eq!(
        app.get("/api/sources", None).await.0,
        401,
        "sources need a token"
    );
}

/// The source's 120 videos come in pages of 50 by page token; a token that is not one is 400.
async fn assert_the_videos_page_by_token(app: &TestApp, alice: &str, id: &str) {
    let (status, first) = app
        .get(&format!("/api/sources/{id}/videos"), Some(alice))
        .await;
    assert_eq!(status, 200);
    assert_eq!(first["data"].as_array().unwrap().len(), 50);
    assert_eq!(first["meta"]["hasMore"], true);
    let token = first["meta"]["nextPageToken"].as_str().unwrap();
    let (_, second) = app
        .get(
            &format!("/api/sources/{id}/videos?pageToken={token}"),
            Some(alice),
        )
        .await;
    assert_eq!(second["data"].as_array().unwrap().len(), 50);
    let (_, third) = app
        .get(
            &format!(
                "/api/sources/{id}/videos?pageToken={}",
                second["meta"]["nextPageToken"].as_str().unwrap()
            ),
            Some(alice),
        )
        .await;
    assert_eq!(third["data"].as_array().unwrap().len(), 20);
    assert_eq!(
        third["meta"],
        json!({ "nextPageToken": null, "hasMore": false })
    );
    let (status, _) = app
        .get(
            &format!("/api/sources/{id}/videos?pageToken=%27%20OR%201%3D1"),
            Some(alice),
        )
        .await;
    assert_eq!(status, 400);
}

/// Bob can neither read, delete nor list Alice's source.
async fn assert_bob_gets_nothing_of_the_source(app: &TestApp, bob: &str, id: &str) {
    assert_eq!(
        app.get(&format!("/api/sources/{id}/videos"), Some(bob))
            .await
            .0,
        404
    );
    assert_eq!(
        app.send(
            reqwest::Method::DELETE,
            &format!("/api/sources/{id}"),
            Some(bob),
            None
        )
        .await
        .0,
        404
    );
    assert!(
        app.get("/api/sources", Some(bob)).await.1["data"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn sources_are_scoped_to_their_owner_and_announced_on_their_socket() {
    let youtube = FakeYouTube::start().await;
    youtube.seed_demo();
    let app = app_with(&youtube, Some("sources-key")).await;
    let (alice, alice_id) = app.sign_up("alice-sources@example.com").await;
    let (bob, _) = app.sign_up("bob-sources@example.com").await;
    let mut socket = SocketClient::connect(&app.base, &alice_id, &alice).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;

    let id = add_the_demo_channel(&app, &alice, &mut socket).await;
    assert_a_source_is_added_once(&app, &alice).await;
    assert_the_videos_page_by_token(&app, &alice, &id).await;
    assert_bob_gets_nothing_of_the_source(&app, &bob, &id).await;

    assert_eq!(
        app.send(
            reqwest::Method::DELETE,
            &format!("/api/sources/{id}"),
            Some(&alice),
            None
        )
        .await
        .0,
        204
    );
    let event = socket
        .wait_for(Duration::from_secs(10), |line| {
            line["name"] == "sourceUpdate" && line["data"]["type"] == "deleted"
        })
        .await;
    assert_eq!(event["data"]["source"]["title"], "Scribevault Demo");
    assert_eq!(
        app.get(&format!("/api/sources/{id}/videos"), Some(&alice))
            .await
            .0,
        404
    );
}
