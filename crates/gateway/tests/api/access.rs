//! Every route but the public ones needs the caller's token, and what reaches a service carries
//! the caller's signed identity.

use reqwest::Method;
use reqwest::multipart::{Form, Part};
use scribevault_gateway::{Access, route_table};
use serde_json::json;

use crate::helpers::{assert_error, spawn_app, transcript};

/// `/api/a/{id}/b` → `/api/a/x/b`.
fn concrete(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                "x"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_signed_in_route_answers_401_without_a_token_and_calls_no_service() {
    let app = spawn_app().await;
    let guarded: Vec<_> = route_table()
        .into_iter()
        .filter(|(_, _, access)| *access != Access::Public)
        .collect();
    assert!(guarded.len() > 50, "the table lists the API: {guarded:?}");

    for (method, path, _) in &guarded {
        let path = concrete(path);
        let method = Method::from_bytes(method.as_str().as_bytes()).unwrap();
        let answer = app
            .send(method.clone(), &path, None, Some(&json!({})))
            .await;
        if method == Method::HEAD {
            // A HEAD answer has the GET's status and headers, and no body to read.
            assert_eq!(answer.status, 401, "HEAD {path} without a token");
        } else {
            assert_error(&answer, 401, "UNAUTHENTICATED");
        }
        let forged = app
            .send(method.clone(), &path, Some("not.a.token"), None)
            .await;
        assert_eq!(forged.status, 401, "{method} {path} with a forged token");
    }

    assert!(
        app.arrivals.all().is_empty(),
        "no call reached a service: {:?}",
        app.arrivals.all()
    );
}

#[tokio::test]
async fn the_services_see_the_signed_in_caller() {
    let app = spawn_app().await;
    let (token, user_id) = app.sign_up_owner().await;
    app.library
        .update_transcript_metadata
        .answers(Ok(transcript("t1")));

    let listed = app.get("/api/library/transcripts", &token).await;
    let edited = app
        .put(
            "/api/library/transcripts/t1/metadata",
            &token,
            &json!({ "isStarred": false }),
        )
        .await;
    let stats = app.get("/api/library/stats", &token).await;
    let created = app
        .post(
            "/api/convert/templates",
            &token,
            &json!({ "name": "n", "body": "{{content}}" }),
        )
        .await;
    let converted = app
        .post_form(
            "/api/convert/pdf",
            &token,
            Form::new().part(
                "pdf",
                Part::bytes(b"%PDF-1.7".to_vec()).file_name("a.pdf".to_owned()),
            ),
        )
        .await;

    for answer in [&listed, &edited, &stats, &converted] {
        assert_eq!(answer.status, 200, "{}", answer.body);
    }
    assert_eq!(created.status, 201, "{}", created.body);
    let me = Some(user_id);
    let callers = [
        app.library.list_transcripts.received()[0].caller.clone(),
        app.library.update_transcript_metadata.received()[0]
            .caller
            .clone(),
        app.library.get_library_stats.received()[0].caller.clone(),
        app.conversion.create_template.received()[0].caller.clone(),
        app.storage.check_storage_room.received()[0].caller.clone(),
        app.conversion.convert_pdf_to_markdown.received()[0]
            .caller
            .clone(),
    ];
    for caller in callers {
        assert_eq!(caller, me);
    }
    let arrivals = app.arrivals.all();
    assert!(arrivals.iter().all(|arrival| arrival.with_identity));
    let mut services: Vec<_> = arrivals.iter().map(|arrival| arrival.service).collect();
    services.sort_unstable();
    assert_eq!(
        services,
        [
            "scribevault.conversion.v1.ConversionService",
            "scribevault.conversion.v1.ConversionService",
            "scribevault.library.v1.LibraryService",
            "scribevault.library.v1.LibraryService",
            "scribevault.library.v1.LibraryService",
            "scribevault.storage.v1.StorageService",
        ]
    );
}
