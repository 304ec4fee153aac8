//! A service's status as the REST caller sees it: the status code and
//! `{"error": {"message", "code"}}`, with internal detail kept out.

use reqwest::Method;
use serde_json::json;
use tonic::Status;

use crate::helpers::{assert_error, spawn_app};

/// What `ErrorCode::Unavailable` shows callers.
const UNAVAILABLE: &str = "A backend service is unavailable, please try again";

#[tokio::test]
async fn a_library_not_found_answers_404_with_its_message() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.library
        .get_transcript
        .answers(Err(Status::not_found("Transcript not found")));

    let answer = app.get("/api/library/transcripts/missing", &token).await;

    let message = assert_error(&answer, 404, "NOT_FOUND");
    assert_eq!(message, "Transcript not found");
    assert_eq!(
        app.library.get_transcript.messages()[0].id,
        "missing",
        "the path's id is what the library looked for"
    );
}

#[tokio::test]
async fn an_unavailable_library_answers_503_with_the_public_message_only() {
    let app = spawn_app().await;
    let token = app.token().await;
    let detail = "connection pool exhausted on library-db-7 (user=scribevault)";
    app.library
        .get_library_stats
        .answers(Err(Status::unavailable(detail)));

    let answer = app.get("/api/library/stats", &token).await;

    let message = assert_error(&answer, 503, "UNAVAILABLE");
    assert_eq!(message, UNAVAILABLE);
    assert!(!answer.body.to_string().contains("library-db-7"));
}

#[tokio::test]
async fn an_internal_failure_answers_500_without_its_detail() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.library
        .list_transcripts
        .answers(Err(Status::internal("panicked at store/listing.rs:42")));

    let answer = app.get("/api/library/transcripts", &token).await;

    let message = assert_error(&answer, 500, "INTERNAL");
    assert_eq!(message, "Internal server error");
    assert!(!answer.body.to_string().contains("listing.rs"));
}

#[tokio::test]
async fn a_refusal_of_the_library_keeps_its_status_and_message() {
    let app = spawn_app().await;
    let token = app.token().await;
    app.library
        .list_transcripts
        .answers(Err(Status::invalid_argument(
            "limit must be a whole number from 1 to 100",
        )));

    let answer = app.get("/api/library/transcripts?limit=500", &token).await;

    let message = assert_error(&answer, 400, "BAD_REQUEST");
    assert_eq!(message, "limit must be a whole number from 1 to 100");
}

#[tokio::test]
async fn a_service_that_is_down_answers_503() {
    let app = spawn_app().await;
    let token = app.token().await;

    // Transcription's address is a closed port.
    let answer = app.get("/api/transcription/models", &token).await;

    let message = assert_error(&answer, 503, "UNAVAILABLE");
    assert_eq!(message, UNAVAILABLE);
}

#[tokio::test]
async fn a_body_the_route_does_not_take_answers_400_before_any_call() {
    let app = spawn_app().await;
    let token = app.token().await;

    let unknown_field = app
        .put(
            "/api/library/transcripts/t1/metadata",
            &token,
            &json!({ "rating": 3, "colour": "red" }),
        )
        .await;
    let wrong_type = app
        .put(
            "/api/library/transcripts/t1/metadata",
            &token,
            &json!({ "rating": "five" }),
        )
        .await;
    let not_json = super::helpers::answer(
        app.http
            .request(Method::PUT, app.url("/api/library/transcripts/t1/metadata"))
            .bearer_auth(&token)
            .body("rating=3"),
    )
    .await;

    assert_error(&unknown_field, 400, "BAD_REQUEST");
    assert_error(&wrong_type, 400, "BAD_REQUEST");
    assert_error(&not_json, 415, "UNSUPPORTED_MEDIA_TYPE");
    assert!(app.arrivals.all().is_empty(), "{:?}", app.arrivals.all());
}

/// The fallback behind the route table reads the application context too: an unknown API
/// path is a JSON 404 in the error shape, and any other path is the SPA (or the how-to-build
/// page), never a 500 for want of app data.
#[tokio::test]
async fn unknown_paths_fall_back_to_a_json_404_or_the_spa() {
    let app = spawn_app().await;
    let token = app.token().await;

    let api = app.get("/api/no-such-thing", &token).await;
    assert_error(&api, 404, "NOT_FOUND");

    let page = reqwest::get(app.url("/vault")).await.expect("an answer");
    assert_eq!(page.status(), 200);
    let html = page.text().await.expect("a page");
    assert!(html.contains("<html"), "{html}");
}
