//! Podcast feeds end to end on the real binary: a transcribed recording becomes an episode of a
//! private feed, which feedparser (PyPI, as podcast apps parse) reads and checks against Apple's
//! and the Podcasting 2.0 requirements, fetching the enclosure with HEAD and byte ranges and every
//! transcript; then the scoping: another member, a revoked feed, an item outside the scope.

use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::{TestApp, audio};
use crate::pipeline::spawn_pipeline_app;

/// Whether python3 with feedparser is installed (a failure under CI).
fn feedparser_installed(test_name: &str) -> bool {
    let found = std::process::Command::new("python3")
        .args(["-c", "import feedparser"])
        .output()
        .is_ok_and(|output| output.status.success());
    scribevault_test_support::required_tool(
        found,
        "python3 with feedparser (`scripts/install-test-tools.sh`)",
        test_name,
    )
}

/// Runs `feed_check.py` on a feed; returns what it found.
async fn feed_check(url: &str, episodes: usize) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/feed_check.py");
    let output = tokio::process::Command::new("python3")
        .args([script, url, &episodes.to_string()])
        .output()
        .await
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "feedparser's check failed: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("feed_check prints JSON")
}

async fn status_of(app: &TestApp, method: reqwest::Method, url: &str) -> u16 {
    app.http
        .request(method, url)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn transcribed_item(app: &TestApp, token: &str) -> String {
    let (status, body) = app
        .upload(
            token,
            &audio("sample-01-welcome.mp3"),
            Some("Welcome <&> episode"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, started) = app
        .post_json(
            "/api/transcription/start",
            &json!({
                "files": [{ "id": "file-0", "mp3Path": body["data"]["mp3Path"], "title": "Welcome <&> episode" }],
                "model": "small",
                "outputFormat": "markdown"
            }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    let vault = app
        .wait_for_vault_total(token, 1, Duration::from_secs(300))
        .await;
    vault["data"][0]["id"].as_str().unwrap().to_owned()
}

/// The caller's whole-Vault feed, as made.
struct VaultFeed {
    id: String,
    url: String,
    /// The enclosure URL of its one episode.
    enclosure: String,
}

/// The whole Vault as a feed: feedparser reads it, every rule holds.
async fn check_the_vault_feed_with_feedparser(app: &TestApp, token: &str, item: &str) -> VaultFeed {
    let (status, created) = app
        .post_json("/api/feeds", &json!({ "scope": "vault" }), Some(token))
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["data"]["id"].as_str().unwrap().to_owned();
    let url = created["data"]["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with(&app.base) && url.ends_with(".xml"), "{url}");
    let found = feed_check(&url, 1).await;
    assert_eq!(found["title"], "Vault");
    let episode = &found["episodes"][0];
    assert_eq!(episode["guid"], item, "the GUID is the item's id");
    assert_eq!(episode["title"], "Welcome <&> episode");
    assert!(episode["segments"].as_u64().unwrap() > 0);
    // The GUID does not change between fetches.
    assert_eq!(feed_check(&url, 1).await["episodes"][0]["guid"], item);
    let enclosure = episode["enclosure"].as_str().unwrap().to_owned();
    VaultFeed { id, url, enclosure }
}

/// The list names the feed (never its URL) and records the fetch.
async fn assert_the_list_names_the_feed_not_its_url(app: &TestApp, token: &str) {
    let (status, listed) = app.get("/api/feeds", Some(token)).await;
    assert_eq!(status, 200);
    let feeds = listed["data"]["feeds"].as_array().unwrap();
    assert_eq!(feeds.len(), 1);
    assert_eq!(feeds[0]["scope"], "vault");
    assert!(feeds[0].get("url").is_none(), "{listed}");
    assert!(feeds[0]["lastFetchedAt"].is_string(), "{listed}");
}

/// A tag feed: the item has no such tag, so its files are not reachable through it; once
/// tagged, it is in the tag feed.
async fn assert_a_tag_feed_holds_only_tagged_items(app: &TestApp, token: &str, item: &str) {
    let (status, tagged) = app
        .post_json(
            "/api/feeds",
            &json!({ "scope": "tag", "id": "interviews" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 201, "{tagged}");
    let tag_url = tagged["data"]["url"].as_str().unwrap();
    let tag_items = tag_url.trim_end_matches(".xml").to_owned() + "/items/";
    feed_check(tag_url, 0).await;
    for format in ["mp3", "srt", "vtt", "json"] {
        assert_eq!(
            status_of(
                app,
                reqwest::Method::GET,
                &format!("{tag_items}{item}.{format}")
            )
            .await,
            404,
            "{format} of an item outside the tag"
        );
    }
    let (status, body) = app
        .send(
            reqwest::Method::PUT,
            &format!("/api/library/transcripts/{item}/metadata"),
            Some(token),
            Some(&json!({ "tags": ["Interviews"] })),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    feed_check(tag_url, 1).await;
}

/// A source feed needs a source of the caller's.
async fn assert_a_source_feed_needs_a_source_of_the_callers(app: &TestApp, token: &str) {
    let (status, body) = app
        .post_json(
            "/api/feeds",
            &json!({ "scope": "source", "id": "no-such-source" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = app
        .post_json("/api/feeds", &json!({ "scope": "source" }), Some(token))
        .await;
    assert_eq!(status, 400, "{body}");
}

/// Another member sees none of it, and cannot revoke or rotate it; their own Vault feed has no
/// episodes, and their secret does not reach the item.
async fn assert_another_member_cannot_reach_the_feed(app: &TestApp, feed_id: &str, item: &str) {
    let (other, _) = app.sign_up("other@example.com").await;
    let (_, theirs) = app.get("/api/feeds", Some(&other)).await;
    assert_eq!(theirs["data"]["feeds"], json!([]));
    let (status, _) = app
        .send(
            reqwest::Method::DELETE,
            &format!("/api/feeds/{feed_id}"),
            Some(&other),
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = app
        .post_json(
            &format!("/api/feeds/{feed_id}/rotate"),
            &json!({}),
            Some(&other),
        )
        .await;
    assert_eq!(status, 404);
    let (_, own) = app
        .post_json("/api/feeds", &json!({ "scope": "vault" }), Some(&other))
        .await;
    let own_url = own["data"]["url"].as_str().unwrap();
    feed_check(own_url, 0).await;
    let own_items = own_url.trim_end_matches(".xml").to_owned() + "/items/";
    assert_eq!(
        status_of(app, reqwest::Method::GET, &format!("{own_items}{item}.mp3")).await,
        404
    );
}

/// Rotating ends the old URL at once; revoking ends the new one and its files.
async fn assert_rotating_and_revoking_end_the_urls(
    app: &TestApp,
    token: &str,
    feed: &VaultFeed,
    item: &str,
) {
    let (status, rotated) = app
        .post_json(
            &format!("/api/feeds/{}/rotate", feed.id),
            &json!({}),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{rotated}");
    let rotated_url = rotated["data"]["url"].as_str().unwrap().to_owned();
    assert_ne!(rotated_url, feed.url);
    assert_eq!(status_of(app, reqwest::Method::GET, &feed.url).await, 404);
    assert_eq!(
        status_of(app, reqwest::Method::GET, &feed.enclosure).await,
        404
    );
    assert_eq!(
        status_of(app, reqwest::Method::GET, &rotated_url).await,
        200
    );
    let (status, _) = app
        .send(
            reqwest::Method::DELETE,
            &format!("/api/feeds/{}", feed.id),
            Some(token),
            None,
        )
        .await;
    assert_eq!(status, 204);
    assert_eq!(
        status_of(app, reqwest::Method::GET, &rotated_url).await,
        404
    );
    assert_eq!(
        status_of(app, reqwest::Method::HEAD, &rotated_url).await,
        404
    );
    let rotated_enclosure =
        rotated_url.trim_end_matches(".xml").to_owned() + &format!("/items/{item}.mp3");
    assert_eq!(
        status_of(app, reqwest::Method::HEAD, &rotated_enclosure).await,
        404
    );
}

#[tokio::test]
async fn a_feed_passes_feedparser_and_apples_rules_and_stays_in_its_scope() {
    if !feedparser_installed("a_feed_passes_feedparser_and_apples_rules_and_stays_in_its_scope") {
        return;
    }
    let (app, _models) = spawn_pipeline_app(&[]).await;
    let (token, _) = app.sign_up("listener@example.com").await;
    let item = transcribed_item(&app, &token).await;

    let feed = check_the_vault_feed_with_feedparser(&app, &token, &item).await;
    assert_the_list_names_the_feed_not_its_url(&app, &token).await;
    assert_a_tag_feed_holds_only_tagged_items(&app, &token, &item).await;
    assert_a_source_feed_needs_a_source_of_the_callers(&app, &token).await;
    assert_another_member_cannot_reach_the_feed(&app, &feed.id, &item).await;
    assert_rotating_and_revoking_end_the_urls(&app, &token, &feed, &item).await;
}

/// The review's G5: a leaked API token (an assistant's, a script's) could mint a feed or a
/// webhook, and deleting the token kept them alive. Only a signed-in session makes, rotates or
/// redirects them now; a token is refused with 403 and nothing is made.
#[tokio::test]
async fn an_api_token_cannot_make_feeds_or_webhooks_that_would_outlive_it() {
    let app = TestApp::spawn().await;
    let (session, _) = app.sign_up("owner@example.com").await;
    let (status, made) = app
        .post_json("/api/tokens", &json!({ "name": "script" }), Some(&session))
        .await;
    assert_eq!(status, 201, "{made}");
    let token = made["data"]["token"].as_str().unwrap().to_owned();
    let (status, body) = app
        .post_json("/api/feeds", &json!({ "scope": "vault" }), Some(&token))
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": "https://example.com/hook", "events": ["item.created"] }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    let (_, feeds) = app.get("/api/feeds", Some(&session)).await;
    assert_eq!(
        feeds["data"]["feeds"].as_array().map(Vec::len),
        Some(0),
        "{feeds}"
    );
    let (_, hooks) = app.get("/api/webhooks", Some(&session)).await;
    assert_eq!(
        hooks["data"]["webhooks"].as_array().map(Vec::len),
        Some(0),
        "{hooks}"
    );
    // A session still can.
    let (status, body) = app
        .post_json("/api/feeds", &json!({ "scope": "vault" }), Some(&session))
        .await;
    assert_eq!(status, 201, "{body}");
}
