//! The access matrix, walked from the gateway's own route table: every route answers strangers,
//! members, disabled accounts and admins as its access level says, and another user's ids as
//! not found.

use reqwest::Method;
use scribevault_gateway::{Access, route_table};
use serde_json::{Value, json};

use crate::helpers::TestApp;

/// A path of the table with every `{param}` filled.
fn concrete(path: &str, value: &str) -> String {
    path.split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                value.to_owned()
            } else {
                segment.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A body the route accepts, so that an ownership check is what answers, not validation.
fn valid_body(method: &str, path: &str) -> Value {
    match (method, path) {
        ("PATCH", "/api/library/transcripts/{id}") => json!({ "rating": 4 }),
        ("PUT", "/api/library/transcripts/{id}/metadata") => json!({ "title": "Taken" }),
        ("POST", "/api/library/transcripts/{id}/export") => json!({ "format": "md" }),
        ("PUT", "/api/library/transcripts/{id}/content") => json!({ "content": "Taken" }),
        ("PATCH", "/api/library/syllabus-sections/{id}") => json!({ "title": "Taken" }),
        ("PUT", "/api/convert/templates/{id}") => json!({ "name": "Taken", "body": "x" }),
        _ => json!({}),
    }
}

async fn call(
    app: &TestApp,
    method: &impl ToString,
    (pattern, path): (&str, &str),
    token: Option<&str>,
) -> (u16, Value) {
    let method = Method::from_bytes(method.to_string().as_bytes()).unwrap();
    if method == Method::HEAD {
        // A HEAD answer has no body: its status is checked, and the error body it would carry
        // is the GET's (the same handler and checks answer both).
        let (status, _) = app.send(Method::HEAD, path, token, None).await;
        let (_, body) = app.send(Method::GET, path, token, None).await;
        return (status, body);
    }
    let body = (method != Method::GET && method != Method::DELETE)
        .then(|| valid_body(method.as_str(), pattern));
    app.send(method, path, token, body.as_ref()).await
}

/// Routes with ids whose "another user's id" answer is checked elsewhere, with real
/// resources of another user (uploads, jobs, sources, downloads, schedules need the pipeline or
/// the YouTube fake): `isolation.rs`, `downloads.rs`, `discovery.rs`, `conversion.rs`.
const IDS_CHECKED_ELSEWHERE: &[&str] = &[
    "/socket.io/",
    "/api/auth/invitations/{secret}",
    "/api/library/exports/{id}",
    // Signed links: player.rs checks forged, expired and other items' links.
    "/api/library/audio/{id}",
    "/api/pdf-sources/reprocess-transcript/{id}",
    "/api/sources/{id}",
    "/api/sources/{id}/videos",
    "/api/downloads/{id}",
    "/api/downloads/{id}/retry",
    "/api/schedules/{id}",
    "/api/schedules/{id}/run",
    "/api/video-mp3/upload/{videoId}",
    "/api/transcription/history/{jobId}",
    "/api/transcription/jobs/{jobId}",
    // Feed secrets: feeds.rs checks revoked, rotated and other members' feeds.
    "/feeds/{secret}.xml",
    "/feeds/{secret}/items/{itemId}.{format}",
];

#[tokio::test]
async fn every_route_of_the_table_answers_strangers_members_and_disabled_accounts_as_its_access_says()
 {
    // The member's webhook calls a closed loopback port, which an instance allows only when
    // told to.
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_WEBHOOKS_ALLOW_PRIVATE", "true"),
        ("SCRIBEVAULT_WEBHOOKS_ALLOW_ANY_PORT", "true"),
    ])
    .await;
    let (owner, _) = app.sign_up("owner@example.org").await;
    let (member, _) = app.sign_up("member@example.org").await;
    let (other, _) = app.sign_up("other@example.org").await;
    let (disabled, disabled_id) = app.sign_up("disabled@example.org").await;
    let (status, body) = app
        .send(
            Method::PATCH,
            &format!("/api/admin/users/{disabled_id}"),
            Some(&owner),
            Some(&json!({ "disabled": true })),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // The member's own resources, which another member's token must not find.
    let (_, saved) = app
        .post_json(
            "/api/vault/save",
            &json!({"files": [{"title": "Mine", "content": "private words", "path": "converted/transcripts/mine.md"}]}),
            Some(&member),
        )
        .await;
    let item = saved["data"][0]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("saved: {saved}"))
        .to_owned();
    let (_, section) = app
        .post_json(
            "/api/library/syllabus-sections",
            &json!({ "title": "Mine" }),
            Some(&member),
        )
        .await;
    let section = section["data"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("section: {section}"))
        .to_owned();
    let (_, template) = app
        .post_json(
            "/api/convert/templates",
            &json!({"name": "Mine", "body": "{{content}}"}),
            Some(&member),
        )
        .await;
    let template = template["data"]["id"].as_str().unwrap().to_owned();
    let (_, token) = app
        .post_json("/api/tokens", &json!({ "name": "Mine" }), Some(&member))
        .await;
    let token = token["data"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("token: {token}"))
        .to_owned();
    let (_, feed) = app
        .post_json("/api/feeds", &json!({ "scope": "vault" }), Some(&member))
        .await;
    let feed = feed["data"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("feed: {feed}"))
        .to_owned();
    let (_, webhook) = app
        .post_json(
            "/api/webhooks",
            &json!({ "url": "http://127.0.0.1:9/hook", "events": ["item.created"] }),
            Some(&member),
        )
        .await;
    let webhook = webhook["data"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("webhook: {webhook}"))
        .to_owned();

    let table = route_table();
    assert!(table.len() > 70, "the whole table: {}", table.len());
    let mut checked_with_real_ids = 0;
    for (method, path, access) in &table {
        let target = concrete(path, &uuid::Uuid::new_v4().to_string());
        let (anonymous, body) = call(&app, method, (path, &target), None).await;
        match access {
            // Public routes answer strangers (refresh and sign-in check their own credentials).
            Access::Public => assert!(anonymous < 500, "{method} {path}: {anonymous} {body}"),
            Access::SignedIn | Access::Admin => {
                assert_eq!(anonymous, 401, "{method} {path} without a token: {body}");
                assert_eq!(body["error"]["code"], "UNAUTHENTICATED", "{method} {path}");
                let (status, body) = call(&app, method, (path, &target), Some(&disabled)).await;
                assert_eq!(
                    status, 401,
                    "{method} {path} with a disabled account: {body}"
                );
                assert!(
                    body["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("disabled"),
                    "{method} {path}: {body}"
                );
            }
        }
        if *access == Access::Admin {
            let (status, body) = call(&app, method, (path, &target), Some(&member)).await;
            assert_eq!(status, 403, "{method} {path} for a member: {body}");
            assert_eq!(body["error"]["code"], "FORBIDDEN");
        }
        if !path.contains('{') || *access == Access::Admin {
            continue;
        }
        let own = if path.starts_with("/api/library/transcripts/") {
            Some(&item)
        } else if path.starts_with("/api/library/syllabus-sections/") {
            Some(&section)
        } else if path.starts_with("/api/convert/templates/") {
            Some(&template)
        } else if path.starts_with("/api/tokens/") {
            Some(&token)
        } else if path.starts_with("/api/feeds/") {
            Some(&feed)
        } else if path.starts_with("/api/webhooks/") {
            Some(&webhook)
        } else {
            None
        };
        match own {
            Some(id) => {
                let (status, body) =
                    call(&app, method, (path, &concrete(path, id)), Some(&other)).await;
                assert_eq!(
                    status, 404,
                    "{method} {path} with another member's id: {body}"
                );
                checked_with_real_ids += 1;
            }
            None => assert!(
                IDS_CHECKED_ELSEWHERE.contains(&path.as_str()),
                "{method} {path} takes an id: check another member's id against it here or list it"
            ),
        }
    }
    assert!(checked_with_real_ids >= 17, "{checked_with_real_ids}");
    // The member's own things are still theirs.
    let (status, _) = app
        .get(&format!("/api/library/transcripts/{item}"), Some(&member))
        .await;
    assert_eq!(status, 200);
    let (status, body) = app
        .get(
            &format!("/api/webhooks/{webhook}/deliveries"),
            Some(&member),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["attempts"],
        json!([]),
        "no other member's 'Send test' reached the member's webhook"
    );
}
