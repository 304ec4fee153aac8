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

/// The signed-in callers of the matrix besides the owner (the first account, so the admin).
struct Callers {
    member: String,
    other: String,
    disabled: String,
}

/// Signs up the owner, two members and a fourth account the owner disables.
async fn sign_up_callers(app: &TestApp) -> Callers {
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
    Callers {
        member,
        other,
        disabled,
    }
}

/// The member's own resources, which another member's token must not find.
struct MembersOwn {
    item: String,
    section: String,
    template: String,
    token: String,
    feed: String,
    webhook: String,
}

/// Makes a resource of `member`'s by POSTing `body` to `path`; returns the id at `id_at` (a JSON
/// pointer) in the answer.
async fn create(app: &TestApp, member: &str, path: &str, body: &Value, id_at: &str) -> String {
    let (_, made) = app.post_json(path, body, Some(member)).await;
    made.pointer(id_at)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path}: {made}"))
        .to_owned()
}

async fn make_members_own(app: &TestApp, member: &str) -> MembersOwn {
    MembersOwn {
        item: create(
            app,
            member,
            "/api/vault/save",
            &json!({"files": [{"title": "Mine", "content": "private words", "path": "converted/transcripts/mine.md"}]}),
            "/data/0/id",
        )
        .await,
        section: create(
            app,
            member,
            "/api/library/syllabus-sections",
            &json!({ "title": "Mine" }),
            "/data/id",
        )
        .await,
        template: create(
            app,
            member,
            "/api/convert/templates",
            &json!({"name": "Mine", "body": "{{content}}"}),
            "/data/id",
        )
        .await,
        token: create(app, member, "/api/tokens", &json!({ "name": "Mine" }), "/data/id").await,
        feed: create(app, member, "/api/feeds", &json!({ "scope": "vault" }), "/data/id").await,
        webhook: create(
            app,
            member,
            "/api/webhooks",
            &json!({ "url": "http://127.0.0.1:9/hook", "events": ["item.created"] }),
            "/data/id",
        )
        .await,
    }
}

impl MembersOwn {
    /// The member's resource the route `path` takes the id of, if it is one of these.
    fn id_for(&self, path: &str) -> Option<&String> {
        [
            ("/api/library/transcripts/", &self.item),
            ("/api/library/syllabus-sections/", &self.section),
            ("/api/convert/templates/", &self.template),
            ("/api/tokens/", &self.token),
            ("/api/feeds/", &self.feed),
            ("/api/webhooks/", &self.webhook),
        ]
        .into_iter()
        .find(|(prefix, _)| path.starts_with(prefix))
        .map(|(_, id)| id)
    }
}

/// Strangers, disabled accounts and (on admin routes) members get what `access` says.
async fn assert_the_route_refuses_whom_it_must(
    app: &TestApp,
    (method, path, access): (&impl std::fmt::Display, &str, Access),
    callers: &Callers,
) {
    let target = concrete(path, &uuid::Uuid::new_v4().to_string());
    let (anonymous, body) = call(app, method, (path, &target), None).await;
    match access {
        // Public routes answer strangers (refresh and sign-in check their own credentials).
        Access::Public => assert!(anonymous < 500, "{method} {path}: {anonymous} {body}"),
        Access::SignedIn | Access::Admin => {
            assert_eq!(anonymous, 401, "{method} {path} without a token: {body}");
            assert_eq!(body["error"]["code"], "UNAUTHENTICATED", "{method} {path}");
            let (status, body) = call(app, method, (path, &target), Some(&callers.disabled)).await;
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
    if access == Access::Admin {
        let (status, body) = call(app, method, (path, &target), Some(&callers.member)).await;
        assert_eq!(status, 403, "{method} {path} for a member: {body}");
        assert_eq!(body["error"]["code"], "FORBIDDEN");
    }
}

/// A route with an id answers another member's id as not found, or is listed as checked
/// elsewhere; true when it was checked here.
async fn assert_another_members_id_is_not_found(
    app: &TestApp,
    (method, path): (&impl std::fmt::Display, &str),
    own: &MembersOwn,
    other: &str,
) -> bool {
    if let Some(id) = own.id_for(path) {
        let (status, body) = call(app, method, (path, &concrete(path, id)), Some(other)).await;
        assert_eq!(
            status, 404,
            "{method} {path} with another member's id: {body}"
        );
        return true;
    }
    assert!(
        IDS_CHECKED_ELSEWHERE.contains(&path),
        "{method} {path} takes an id: check another member's id against it here or list it"
    );
    false
}

/// The member's own things are still theirs.
async fn assert_the_members_own_are_intact(app: &TestApp, member: &str, own: &MembersOwn) {
    let (status, _) = app
        .get(
            &format!("/api/library/transcripts/{}", own.item),
            Some(member),
        )
        .await;
    assert_eq!(status, 200);
    let (status, body) = app
        .get(
            &format!("/api/webhooks/{}/deliveries", own.webhook),
            Some(member),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"]["attempts"],
        json!([]),
        "no other member's 'Send test' reached the member's webhook"
    );
}

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
    let callers = sign_up_callers(&app).await;
    let own = make_members_own(&app, &callers.member).await;

    let table = route_table();
    assert!(table.len() > 70, "the whole table: {}", table.len());
    let mut checked_with_real_ids = 0;
    for (method, path, access) in &table {
        assert_the_route_refuses_whom_it_must(&app, (method, path.as_str(), *access), &callers)
            .await;
        if !path.contains('{') || *access == Access::Admin {
            continue;
        }
        if assert_another_members_id_is_not_found(
            &app,
            (method, path.as_str()),
            &own,
            &callers.other,
        )
        .await
        {
            checked_with_real_ids += 1;
        }
    }
    assert!(checked_with_real_ids >= 17, "{checked_with_real_ids}");
    assert_the_members_own_are_intact(&app, &callers.member, &own).await;
}
