//! Bad requests get clear 4xx answers in the one error shape.

use serde_json::json;

use crate::helpers::TestApp;

#[tokio::test]
async fn malformed_json_wrong_content_type_unknown_route_and_oversized_body() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_MAX_JSON_BYTES", "1024")]).await;
    let (token, _) = app.sign_up("errors@example.com").await;

    let malformed = app
        .http
        .post(app.url("/api/auth/login"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), 400);
    let body: serde_json::Value = malformed.json().await.unwrap();
    assert_eq!(body["error"]["code"], "BAD_REQUEST");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Malformed JSON"),
        "{body}"
    );

    let wrong_type = app
        .http
        .post(app.url("/api/auth/login"))
        .header("content-type", "text/plain")
        .body("hello")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_type.status(), 415);
    let body: serde_json::Value = wrong_type.json().await.unwrap();
    assert_eq!(
        body["error"]["message"],
        "Content-Type must be application/json"
    );

    let missing_field = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": "x@example.com" }),
            None,
        )
        .await;
    assert_eq!(missing_field.0, 400, "{}", missing_field.1);

    let (status, body) = app.get("/api/no/such/route", Some(&token)).await;
    assert_eq!(status, 404);
    assert_eq!(
        body["error"]["message"],
        "No route for GET /api/no/such/route"
    );

    let big = json!({ "email": "x@example.com", "password": "p".repeat(4096) });
    let (status, body) = app.post_json("/api/auth/login", &big, None).await;
    assert_eq!(status, 413, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("larger than 1024 bytes")
    );
}

#[tokio::test]
async fn unknown_ids_and_bad_query_values_are_client_errors() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("ids@example.com").await;
    let (status, body) = app
        .get(
            "/api/library/transcripts/does-not-exist/content",
            Some(&token),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["message"], "transcript not found");
    let (status, body) = app
        .get("/api/library/transcripts?page=abc", Some(&token))
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["error"]["message"],
        "page must be a positive whole number"
    );
    let (status, _) = app
        .get("/api/library/transcripts?sortBy=password", Some(&token))
        .await;
    assert_eq!(status, 400);
}
