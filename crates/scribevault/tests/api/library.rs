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

/// Every call user B tries on user A's item `id`: (method, path, body).
fn attempts_on(id: &str) -> [(Method, String, Option<serde_json::Value>); 9] {
    [
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
        (Method::GET, format!("/api/library/transcripts/{id}"), None),
        (
            Method::PUT,
            format!("/api/library/transcripts/{id}/metadata"),
            Some(json!({ "isStarred": true, "tags": ["mine"] })),
        ),
        (
            Method::GET,
            format!("/api/library/transcripts/{id}/suggestions"),
            None,
        ),
        (
            Method::POST,
            format!("/api/library/transcripts/{id}/export"),
            Some(json!({ "format": "txt" })),
        ),
        (
            Method::POST,
            "/api/library/export/bulk".to_owned(),
            Some(json!({ "ids": [id], "format": "markdown" })),
        ),
        (
            Method::DELETE,
            format!("/api/library/transcripts/{id}"),
            None,
        ),
    ]
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

    for (method, path, body) in attempts_on(&id) {
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

/// Bad query keys and values answer 400 naming what is wrong; a phrase search finds the item
/// with its words highlighted.
async fn assert_queries_are_checked_and_phrases_found(app: &TestApp, token: &str, id: &str) {
    for (query, named) in [
        ("colour=red", "colour"),
        ("limit=500", "limit"),
        ("rating=7", "rating"),
        ("isStarred=yes", "isStarred"),
        ("createdAfter=someday", "createdAfter"),
        ("sortBy=relevance", "relevance"),
    ] {
        let (status, answer) = app
            .get(&format!("/api/library/transcripts?{query}"), Some(token))
            .await;
        assert_eq!(status, 400, "{query}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(named),
            "{query}: {answer}"
        );
    }
    let (status, answer) = app
        .get("/api/library/transcripts?q=%22cover%20crops", Some(token))
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"][0]["id"], id);
    let highlights = answer["data"][0]["highlights"].as_array().unwrap();
    assert!(
        highlights
            .iter()
            .any(|h| h.as_str().unwrap().contains("<mark>")),
        "{answer}"
    );
}

/// Bad metadata bodies answer 400 naming the field; a good one is saved (the GWTH level
/// becomes a tag).
async fn assert_metadata_is_checked_and_saved(app: &TestApp, token: &str, id: &str) {
    let path = format!("/api/library/transcripts/{id}/metadata");
    for (body, named) in [
        (json!({ "rating": 9 }), "rating"),
        (json!({ "gwthLevel": 0 }), "gwthLevel"),
        (json!({ "colour": "red" }), "colour"),
        (json!({ "title": "" }), "title"),
    ] {
        let (status, answer) = app.send(Method::PUT, &path, Some(token), Some(&body)).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().contains(named),
            "{answer}"
        );
    }
    let (status, item) = app
        .send(
            Method::PUT,
            &path,
            Some(token),
            Some(&json!({ "isStarred": true, "gwthLevel": 2, "tags": ["soil"], "rating": null })),
        )
        .await;
    assert_eq!(status, 200, "{item}");
    assert_eq!(item["data"]["isStarred"], true);
    assert_eq!(item["data"]["tags"], json!(["gwth-2", "soil"]));
}

/// Exports the item as markdown and downloads the link with no bearer header (the signature
/// is enough); returns the link.
async fn export_and_download_without_a_bearer(app: &TestApp, token: &str, id: &str) -> String {
    let (status, export) = app
        .post_json(
            &format!("/api/library/transcripts/{id}/export"),
            &json!({ "format": "markdown" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{export}");
    let url = export["data"]["downloadUrl"].as_str().unwrap().to_owned();
    assert_eq!(export["data"]["filename"], "Soil notes.md");
    let response = app.http.get(app.url(&url)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(disposition.starts_with("attachment"), "{disposition}");
    assert!(disposition.contains("Soil notes.md"), "{disposition}");
    let body = response.text().await.unwrap();
    assert!(body.starts_with("---\ntitle: \"Soil: notes\"\n"), "{body}");
    assert!(body.ends_with("Cover crops protect the soil.\n"), "{body}");
    url
}

/// The status of a plain GET of `path`, with no bearer header.
async fn plain_get_status(app: &TestApp, path: &str) -> u16 {
    app.http
        .get(app.url(path))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// The Vault's REST edge: bad query keys and bodies answer 400 naming what is wrong, and an
/// export link downloads without a bearer header, refuses a changed signature, and is gone with
/// its item.
#[tokio::test]
async fn vault_queries_are_checked_and_export_links_work_in_a_plain_browser_download() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("carol@example.com").await;
    let id = app
        .ingest(
            &user,
            "carol-1",
            "Soil: notes",
            "Cover crops protect the soil.",
        )
        .await;
    assert_queries_are_checked_and_phrases_found(&app, &token, &id).await;
    assert_metadata_is_checked_and_saved(&app, &token, &id).await;

    let url = export_and_download_without_a_bearer(&app, &token, &id).await;
    // A changed signature or expiry is refused.
    let tampered = url.replace("expires=", "expires=1");
    assert_eq!(plain_get_status(&app, &tampered).await, 403);
    assert_eq!(plain_get_status(&app, &format!("{url}x")).await, 403);
    assert_eq!(
        plain_get_status(&app, "/api/library/exports/abc").await,
        400,
        "a link without its signature is malformed"
    );

    let (_, stats) = app.get("/api/library/stats", Some(&token)).await;
    assert_eq!(stats["data"]["export"]["totalExported"], 1);
    assert_eq!(stats["data"]["distributions"]["gwthLevel"]["2"], 1);

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
        plain_get_status(&app, &url).await,
        404,
        "the export went with its item"
    );
}
