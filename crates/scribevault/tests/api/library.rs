//! The Vault through the gateway, and isolation between users.

use reqwest::Method;
use serde_json::json;

use crate::helpers::TestApp;

#[tokio::test]
async fn list_pages_newest_first_and_reads_content() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("reader@example.com").await;
    for n in 1..=3 {
        app.ingest(
            &user,
            &format!("file-{n}"),
            &format!("Talk {n}"),
            &format!("words of talk {n}"),
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let (status, page) = app
        .get("/api/library/transcripts?page=1&limit=2", Some(&token))
        .await;
    assert_eq!(status, 200);
    let titles: Vec<&str> = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Talk 3", "Talk 2"]);
    assert_eq!(
        page["meta"],
        json!({ "page": 1, "limit": 2, "total": 3, "hasMore": true })
    );
    assert_eq!(page["data"][0]["sourceType"], "AUDIO");
    assert_eq!(page["data"][0]["duration"], 12.5);
    let (_, last) = app
        .get("/api/library/transcripts?page=2&limit=2", Some(&token))
        .await;
    assert_eq!(last["data"].as_array().unwrap().len(), 1);
    assert_eq!(last["meta"]["hasMore"], false);

    let id = page["data"][0]["id"].as_str().unwrap();
    let (status, content) = app
        .get(
            &format!("/api/library/transcripts/{id}/content"),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(content, json!({ "data": { "content": "words of talk 3" } }));
}

#[tokio::test]
async fn ingesting_the_same_file_twice_makes_one_item() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("twice@example.com").await;
    let first = app.ingest(&user, "file-x", "Once", "text").await;
    let second = app.ingest(&user, "file-x", "Once", "text").await;
    assert_eq!(first, second);
    let (_, page) = app.get("/api/library/transcripts", Some(&token)).await;
    assert_eq!(page["meta"]["total"], 1);
}

#[tokio::test]
async fn rating_editing_and_deleting_work_for_the_owner() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("owner@example.com").await;
    let id = app.ingest(&user, "f1", "Mine", "original").await;
    let (status, rated) = app
        .send(
            Method::PATCH,
            &format!("/api/library/transcripts/{id}"),
            Some(&token),
            Some(&json!({ "rating": 4 })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(rated["data"]["rating"], 4);
    let (status, _) = app
        .send(
            Method::PATCH,
            &format!("/api/library/transcripts/{id}"),
            Some(&token),
            Some(&json!({ "rating": 9 })),
        )
        .await;
    assert_eq!(status, 400, "ratings are 1-5");
    let (status, _) = app
        .send(
            Method::PUT,
            &format!("/api/library/transcripts/{id}/content"),
            Some(&token),
            Some(&json!({ "content": "edited" })),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        app.get(
            &format!("/api/library/transcripts/{id}/content"),
            Some(&token)
        )
        .await
        .1["data"]["content"],
        "edited"
    );
    let (_, stats) = app.get("/api/library/stats", Some(&token)).await;
    assert_eq!(stats["data"]["totalTranscripts"], 1);
    assert_eq!(stats["data"]["thisMonth"], 1);
    assert_eq!(stats["data"]["avgRating"], 4.0);
    let (status, _) = app
        .send(
            Method::DELETE,
            &format!("/api/library/transcripts/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        app.get(
            &format!("/api/library/transcripts/{id}/content"),
            Some(&token)
        )
        .await
        .0,
        404
    );
}

/// User B gets 404 (never 403, never the data) for user A's items on every library endpoint,
/// and A's item is untouched afterwards.
#[tokio::test]
async fn another_users_items_are_not_found_on_every_endpoint() {
    let app = TestApp::spawn().await;
    let (token_a, user_a) = app.sign_up("alice@example.com").await;
    let (token_b, _) = app.sign_up("bob@example.com").await;
    let id = app
        .ingest(&user_a, "alice-file", "Alice's secret", "alice's words")
        .await;

    let attempts = [
        (
            Method::GET,
            format!("/api/library/transcripts/{id}/content"),
            None,
        ),
        (
            Method::PATCH,
            format!("/api/library/transcripts/{id}"),
            Some(json!({ "rating": 1 })),
        ),
        (
            Method::PUT,
            format!("/api/library/transcripts/{id}/content"),
            Some(json!({ "content": "defaced" })),
        ),
        (
            Method::DELETE,
            format!("/api/library/transcripts/{id}"),
            None,
        ),
    ];
    for (method, path, body) in attempts {
        let (status, answer) = app
            .send(method.clone(), &path, Some(&token_b), body.as_ref())
            .await;
        assert_eq!(status, 404, "{method} {path}: {answer}");
        assert!(
            !answer.to_string().contains("alice"),
            "nothing of A's item leaks: {answer}"
        );
    }
    let (_, listed) = app.get("/api/library/transcripts", Some(&token_b)).await;
    assert_eq!(listed["meta"]["total"], 0);
    let (_, stats) = app.get("/api/library/stats", Some(&token_b)).await;
    assert_eq!(stats["data"]["totalTranscripts"], 0);

    let (status, content) = app
        .get(
            &format!("/api/library/transcripts/{id}/content"),
            Some(&token_a),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        content["data"]["content"], "alice's words",
        "B changed nothing"
    );
    assert_eq!(
        app.get("/api/library/transcripts", Some(&token_a)).await.1["data"][0]["rating"],
        serde_json::Value::Null
    );
}
