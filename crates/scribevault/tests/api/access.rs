//! Who gets in: the instance's owner, invitations, admin routes, sessions that end, the access
//! matrix walked from the gateway's own route table, security headers and the admin listener,
//! and gRPC calls that must carry the gateway's signed identity.

use std::time::Duration;

use reqwest::Method;
use scribevault_gateway::{Access, route_table};
use serde_json::{Value, json};

use crate::helpers::{SocketClient, TEST_SERVICE_KEY, TestApp, signed_as};

const PASSWORD: &str = "correct horse battery";

async fn sign_up_with(app: &TestApp, email: &str, invitation: Option<&str>) -> (u16, Value) {
    let mut body = json!({ "email": email, "password": PASSWORD });
    if let Some(invitation) = invitation {
        body["invitation"] = invitation.into();
    }
    app.post_json("/api/auth/signup", &body, None).await
}

async fn log_in(app: &TestApp, email: &str, password: &str) -> (u16, Value) {
    app.post_json(
        "/api/auth/login",
        &json!({ "email": email, "password": password }),
        None,
    )
    .await
}

fn token_of(body: &Value) -> String {
    body["data"]["token"].as_str().unwrap().to_owned()
}

async fn invitation_secret(app: &TestApp, admin: &str, hours: u64) -> String {
    let (status, created) = app
        .post_json(
            "/api/admin/invitations",
            &json!({ "expiresInHours": hours }),
            Some(admin),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let url = created["data"]["url"].as_str().unwrap();
    assert!(
        url.starts_with(&app.base),
        "the link opens where the admin is: {url}"
    );
    url.split_once("/sign-up?invitation=").unwrap().1.to_owned()
}

/// Runs `sql` on the `all` process's SQLite database (to move time forward for a row).
async fn execute_sql(app: &TestApp, sql: &str) {
    use sea_orm::ConnectionTrait as _;
    let url = format!(
        "sqlite://{}?mode=rw",
        app.data_dir.path().join("scribevault.db").display()
    );
    let db = sea_orm::Database::connect(url).await.unwrap();
    db.execute_unprepared(sql).await.unwrap();
}

#[tokio::test]
async fn the_first_account_owns_the_instance_and_the_next_needs_a_single_use_invitation() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_SIGNUP", "invite")]).await;
    let (_, config) = app.get("/config.json", None).await;
    assert_eq!(
        config["signup"], "open",
        "a fresh instance lets its owner sign up"
    );

    let (status, owner) = sign_up_with(&app, "owner@example.org", None).await;
    assert_eq!(status, 201, "{owner}");
    let (_, config) = app.get("/config.json", None).await;
    assert_eq!(config["signup"], "invite");
    assert_eq!(owner["data"]["user"]["isAdmin"], true);
    let owner_token = token_of(&owner);

    let (status, refused) = sign_up_with(&app, "stranger@example.org", None).await;
    assert_eq!(status, 403, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("invitation"),
        "says how to get in: {message}"
    );
    let (status, _) = sign_up_with(&app, "stranger@example.org", Some("made-up")).await;
    assert_eq!(status, 403);

    let secret = invitation_secret(&app, &owner_token, 24).await;
    let (status, check) = app
        .get(&format!("/api/auth/invitations/{secret}"), None)
        .await;
    assert_eq!(status, 200, "{check}");
    let (status, invited) = sign_up_with(&app, "guest@example.org", Some(&secret)).await;
    assert_eq!(status, 201, "{invited}");
    assert_eq!(invited["data"]["user"]["isAdmin"], false);
    let (status, _) = sign_up_with(&app, "second@example.org", Some(&secret)).await;
    assert_eq!(status, 403, "an invitation works once");
    let (status, _) = app
        .get(&format!("/api/auth/invitations/{secret}"), None)
        .await;
    assert_eq!(status, 404);

    let (_, listed) = app.get("/api/admin/invitations", Some(&owner_token)).await;
    let used = &listed["data"]["invitations"][0];
    assert_eq!(used["usedBy"], "guest@example.org");
    assert!(used.get("secret").is_none() && used.get("url").is_none());

    // An expired invitation, and a revoked one, let nobody in.
    let expiring = invitation_secret(&app, &owner_token, 1).await;
    execute_sql(
        &app,
        "UPDATE invitations SET expires_at = '2020-01-01T00:00:00+00:00' WHERE used_at IS NULL",
    )
    .await;
    let (status, _) = sign_up_with(&app, "late@example.org", Some(&expiring)).await;
    assert_eq!(status, 403, "an expired invitation is refused");
    let revoked = invitation_secret(&app, &owner_token, 24).await;
    let (_, listed) = app.get("/api/admin/invitations", Some(&owner_token)).await;
    let id = listed["data"]["invitations"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _) = app
        .send(
            Method::DELETE,
            &format!("/api/admin/invitations/{id}"),
            Some(&owner_token),
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (status, _) = sign_up_with(&app, "revoked@example.org", Some(&revoked)).await;
    assert_eq!(status, 403, "a revoked invitation is refused");
}

#[tokio::test]
async fn closed_sign_up_lets_only_the_first_account_in() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_SIGNUP", "closed")]).await;
    let (status, _) = sign_up_with(&app, "owner@example.org", None).await;
    assert_eq!(status, 201);
    let (status, body) = sign_up_with(&app, "other@example.org", None).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("closed")
    );
}

#[tokio::test]
async fn sign_up_does_not_confirm_which_emails_have_accounts() {
    let app = TestApp::spawn().await;
    app.sign_up("taken@example.org").await;
    let (status, body) = sign_up_with(&app, "TAKEN@example.org", None).await;
    assert_eq!(status, 409);
    let message = body["error"]["message"].as_str().unwrap();
    assert!(!message.contains("exists"), "{message}");
}

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
];

#[tokio::test]
async fn every_route_of_the_table_answers_strangers_members_and_disabled_accounts_as_its_access_says()
 {
    let app = TestApp::spawn().await;
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
    assert!(checked_with_real_ids >= 12, "{checked_with_real_ids}");
    // The member's own things are still theirs.
    let (status, _) = app
        .get(&format!("/api/library/transcripts/{item}"), Some(&member))
        .await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_disabled_account_stops_at_once_and_an_admin_cannot_lock_themself_out() {
    let app = TestApp::spawn().await;
    let (owner, owner_id) = app.sign_up("owner@example.org").await;
    let (member, member_id) = app.sign_up("member@example.org").await;
    let mut socket = SocketClient::connect(&app.base, &member_id, &member).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let (status, _) = app.get("/api/admin/users", Some(&member)).await;
    assert_eq!(status, 403);

    let disable = |disabled: bool| json!({ "disabled": disabled });
    let (status, user) = app
        .send(
            Method::PATCH,
            &format!("/api/admin/users/{member_id}"),
            Some(&owner),
            Some(&disable(true)),
        )
        .await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["data"]["disabled"], true);
    let (status, body) = app.get("/api/library/transcripts", Some(&member)).await;
    assert_eq!(
        status, 401,
        "the disabled account's token stops at once: {body}"
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("disabled")
    );
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "disconnect")
        .await;
    let (status, _) = log_in(&app, "member@example.org", PASSWORD).await;
    assert_eq!(status, 403);

    app.send(
        Method::PATCH,
        &format!("/api/admin/users/{member_id}"),
        Some(&owner),
        Some(&disable(false)),
    )
    .await;
    let (status, _) = log_in(&app, "member@example.org", PASSWORD).await;
    assert_eq!(status, 200, "enabled again");

    for change in [json!({ "disabled": true }), json!({ "isAdmin": false })] {
        let (status, body) = app
            .send(
                Method::PATCH,
                &format!("/api/admin/users/{owner_id}"),
                Some(&owner),
                Some(&change),
            )
            .await;
        assert_eq!(status, 400, "{change}: {body}");
    }
    let (status, _) = app
        .send(
            Method::DELETE,
            &format!("/api/admin/users/{owner_id}"),
            Some(&owner),
            None,
        )
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn the_admins_storage_cap_bounds_what_a_member_may_choose() {
    let app = TestApp::spawn().await;
    let (owner, _) = app.sign_up("owner@example.org").await;
    let (member, member_id) = app.sign_up("member@example.org").await;
    let (status, user) = app
        .send(
            Method::PATCH,
            &format!("/api/admin/users/{member_id}"),
            Some(&owner),
            Some(&json!({ "storageCapGB": 5 })),
        )
        .await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["data"]["storageCapGB"], 5);
    let set = |gb: u32| json!({ "storage": { "maxStorageGB": gb } });
    let (status, body) = app
        .send(
            Method::PATCH,
            "/api/user/settings",
            Some(&member),
            Some(&set(1000)),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 5")
    );
    let (status, _) = app
        .send(
            Method::PATCH,
            "/api/user/settings",
            Some(&member),
            Some(&set(4)),
        )
        .await;
    assert_eq!(status, 200);
    let (_, users) = app.get("/api/admin/users", Some(&owner)).await;
    let listed = users["data"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|user| user["id"] == member_id.as_str())
        .unwrap()
        .clone();
    for field in [
        "email",
        "createdAt",
        "lastSignInAt",
        "storageUsedBytes",
        "vaultItems",
        "jobsWaiting",
    ] {
        assert!(listed.get(field).is_some(), "{field} in {listed}");
    }
    let (status, _) = app
        .send(
            Method::PATCH,
            &format!("/api/admin/users/{member_id}"),
            Some(&owner),
            Some(&json!({ "storageCapGB": 0 })),
        )
        .await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn deleting_an_account_removes_everything_it_owns_and_nothing_of_anyone_else() {
    let app = TestApp::spawn().await;
    let (owner, _) = app.sign_up("owner@example.org").await;
    let mut members = Vec::new();
    for email in ["leaving@example.org", "staying@example.org"] {
        let (token, id) = app.sign_up(email).await;
        let (status, _) = app
            .post_json(
                "/api/vault/save",
                &json!({"files": [{"title": format!("Notes of {email}"), "content": "words", "path": "converted/transcripts/n.md"}]}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 200);
        let (status, _) = app
            .post_json(
                "/api/convert/templates",
                &json!({"name": "T", "body": "{{content}}"}),
                Some(&token),
            )
            .await;
        assert_eq!(status, 201);
        let (status, uploaded) = app
            .upload(
                &token,
                &crate::helpers::audio("sample-02-subscribe.mp3"),
                None,
            )
            .await;
        assert_eq!(status, 200, "{uploaded}");
        members.push((token, id));
    }
    let (leaving, leaving_id) = members[0].clone();
    let (staying, staying_id) = members[1].clone();
    let blobs_of = |id: &str| {
        walk(app.data_dir.path())
            .into_iter()
            .filter(|path| path.to_string_lossy().contains(id))
            .count()
    };
    assert!(blobs_of(&leaving_id) > 0 && blobs_of(&staying_id) > 0);

    let (status, body) = app
        .send(
            Method::DELETE,
            &format!("/api/admin/users/{leaving_id}"),
            Some(&owner),
            None,
        )
        .await;
    assert_eq!(status, 204, "{body}");

    let left: Vec<_> = walk(app.data_dir.path())
        .into_iter()
        .filter(|path| path.to_string_lossy().contains(&leaving_id))
        .collect();
    assert!(
        left.is_empty(),
        "no file of the deleted account is left: {left:?}"
    );
    assert!(blobs_of(&staying_id) > 0);
    let (status, _) = app.get("/api/library/transcripts", Some(&leaving)).await;
    assert!(status == 401 || status == 403, "{status}");
    let (status, _) = log_in(&app, "leaving@example.org", PASSWORD).await;
    assert_eq!(status, 401);
    // What the services hold for the deleted user, asked directly.
    let mut library =
        scribevault_proto::library::v1::library_service_client::LibraryServiceClient::connect(
            format!("http://{}", app.library_grpc),
        )
        .await
        .unwrap();
    let mut request =
        tonic::Request::new(scribevault_proto::library::v1::ListTranscriptsRequest::default());
    signed_as(&leaving_id, &mut request);
    let left = library
        .list_transcripts(request)
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        left.meta.unwrap().total,
        0,
        "no Vault item of the deleted account"
    );

    let (_, items) = app.get("/api/library/transcripts", Some(&staying)).await;
    assert_eq!(items["meta"]["total"], 1);
    let (_, templates) = app.get("/api/convert/templates", Some(&staying)).await;
    assert!(
        templates["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "T")
    );
    let (_, uploads) = app
        .get("/api/video-mp3/manual-uploads", Some(&staying))
        .await;
    assert_eq!(
        uploads["data"]["videos"].as_array().map_or(0, Vec::len),
        1,
        "{uploads}"
    );
    let (_, users) = app.get("/api/admin/users", Some(&owner)).await;
    let emails: Vec<&str> = users["data"]["users"]
        .as_array()
        .unwrap()
        .iter()
        .map(|user| user["email"].as_str().unwrap())
        .collect();
    assert_eq!(emails, ["owner@example.org", "staying@example.org"]);
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(walk(&path));
        }
        found.push(path);
    }
    found
}

#[tokio::test]
async fn sessions_end_by_sign_out_sign_out_everywhere_and_a_password_change() {
    let app = TestApp::spawn().await;
    app.sign_up("ada@example.org").await;
    let session = |_: ()| async {
        let (status, body) = log_in(&app, "ada@example.org", PASSWORD).await;
        assert_eq!(status, 200, "{body}");
        token_of(&body)
    };
    let protected = "/api/library/transcripts";

    // Renewal gives a new token for the same session.
    let laptop = session(()).await;
    let (status, renewed) = app
        .post_json("/api/auth/refresh", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 200, "{renewed}");
    let renewed = token_of(&renewed);
    assert_eq!(app.get(protected, Some(&renewed)).await.0, 200);

    // Sign out ends this session only.
    let phone = session(()).await;
    let (status, _) = app
        .post_json("/api/auth/logout", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.get(protected, Some(&laptop)).await.0, 401);
    assert_eq!(app.get(protected, Some(&renewed)).await.0, 401);
    let (status, _) = app
        .post_json("/api/auth/refresh", &json!({}), Some(&laptop))
        .await;
    assert_eq!(status, 401, "an ended session cannot be renewed");
    let (status, _) = app.post_json("/api/auth/refresh", &json!({}), None).await;
    assert_eq!(status, 401);
    assert_eq!(app.get(protected, Some(&phone)).await.0, 200);

    // A password change ends every other session, keeps this one.
    let tablet = session(()).await;
    let (status, body) = app
        .post_json(
            "/api/auth/password",
            &json!({ "currentPassword": "not it at all", "newPassword": "a new password" }),
            Some(&tablet),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .post_json(
            "/api/auth/password",
            &json!({ "currentPassword": PASSWORD, "newPassword": "a new password" }),
            Some(&tablet),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(app.get(protected, Some(&phone)).await.0, 401);
    assert_eq!(app.get(protected, Some(&tablet)).await.0, 200);
    assert_eq!(log_in(&app, "ada@example.org", PASSWORD).await.0, 401);
    let (status, desk) = log_in(&app, "ada@example.org", "a new password").await;
    assert_eq!(status, 200);

    // Sign out everywhere ends all of them.
    let (status, _) = app
        .post_json("/api/auth/logout-all", &json!({}), Some(&tablet))
        .await;
    assert_eq!(status, 204);
    assert_eq!(app.get(protected, Some(&tablet)).await.0, 401);
    assert_eq!(app.get(protected, Some(&token_of(&desk))).await.0, 401);
}

#[tokio::test]
async fn an_open_socket_closes_when_its_session_ends() {
    let app = TestApp::spawn().await;
    let (token, user) = app.sign_up("ada@example.org").await;
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let (status, _) = app
        .post_json("/api/auth/logout", &json!({}), Some(&token))
        .await;
    assert_eq!(status, 204);
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "disconnect")
        .await;
    // The client reconnects on its own, with the ended token: refused.
    socket
        .wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "connect_error"
        })
        .await;
}

#[tokio::test]
async fn an_open_socket_closes_when_its_token_expires_and_a_renewed_token_reconnects() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_TOKEN_TTL_SECONDS", "5")]).await;
    let (token, user) = app.sign_up("ada@example.org").await;
    let mut socket = SocketClient::connect(&app.base, &user, &token).await;
    socket
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
    let closed = socket
        .wait_for(Duration::from_secs(15), |line| line["kind"] == "disconnect")
        .await;
    assert_eq!(closed["reason"], "transport close", "{closed}");
    // The same, expired token is refused on the client's own reconnect...
    socket
        .wait_for(Duration::from_secs(15), |line| {
            line["kind"] == "connect_error"
        })
        .await;
    // ...while the session it belongs to renews it, and the renewed token connects.
    let (status, renewed) = app
        .post_json("/api/auth/refresh", &json!({}), Some(&token))
        .await;
    assert_eq!(
        status, 200,
        "an expired token of a live session renews: {renewed}"
    );
    let mut again = SocketClient::connect(&app.base, &user, &token_of(&renewed)).await;
    again
        .wait_for(Duration::from_secs(10), |line| line["kind"] == "connect")
        .await;
}

#[tokio::test]
async fn an_attacker_behind_the_same_proxy_cannot_lock_the_owner_out() {
    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_LOGIN_ATTEMPTS_PER_MINUTE", "3"),
        ("SCRIBEVAULT_TRUSTED_PROXIES", "127.0.0.1/32"),
    ])
    .await;
    app.sign_up("owner@example.org").await;
    let attempt = |from: &'static str, password: &'static str| {
        let request = app
            .http
            .post(app.url("/api/auth/login"))
            .header("X-Forwarded-For", from)
            .json(&json!({ "email": "owner@example.org", "password": password }));
        async move { request.send().await.unwrap().status().as_u16() }
    };
    for _ in 0..3 {
        assert_eq!(attempt("203.0.113.66", "guess guess").await, 401);
    }
    assert_eq!(
        attempt("203.0.113.66", PASSWORD).await,
        429,
        "the guessing pair waits, even with the right password"
    );
    assert_eq!(
        attempt("198.51.100.7", PASSWORD).await,
        200,
        "the owner, from their own address, signs in"
    );
    // A forged X-Forwarded-For from an untrusted peer is not believed: without the trusted
    // proxy the peer (127.0.0.1) is the client, so the limit follows it, not the header.
    let direct = TestApp::spawn_all_with(&[("SCRIBEVAULT_LOGIN_ATTEMPTS_PER_MINUTE", "3")]).await;
    direct.sign_up("owner@example.org").await;
    for forged in ["10.0.0.1", "10.0.0.2", "10.0.0.3"] {
        let status = direct
            .http
            .post(direct.url("/api/auth/login"))
            .header("X-Forwarded-For", forged)
            .json(&json!({ "email": "owner@example.org", "password": "guess guess" }))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16();
        assert_eq!(status, 401);
    }
    let status = direct
        .http
        .post(direct.url("/api/auth/login"))
        .header("X-Forwarded-For", "10.0.0.4")
        .json(&json!({ "email": "owner@example.org", "password": PASSWORD }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16();
    assert_eq!(
        status, 429,
        "rotating a forged header does not reset the count"
    );
}

#[tokio::test]
async fn every_answer_carries_the_security_headers_and_metrics_live_on_the_admin_port() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_TRUSTED_PROXIES", "127.0.0.1")]).await;
    for path in ["/", "/vault", "/api/library/transcripts", "/config.json"] {
        let response = app.http.get(app.url(path)).send().await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("img-src 'self' data: blob:"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        assert!(
            headers.get("strict-transport-security").is_none(),
            "{path}: plain HTTP"
        );
    }
    let over_tls = app
        .http
        .get(app.url("/healthz"))
        .header("X-Forwarded-Proto", "https")
        .send()
        .await
        .unwrap();
    assert!(over_tls.headers().contains_key("strict-transport-security"));

    // The auth check is routing, not a prefix match on the raw path.
    let (status, body) = app.get("/%61pi/library/transcripts", None).await;
    assert!(body.get("data").is_none(), "{status} {body}");

    let public_metrics = app.http.get(app.url("/metrics")).send().await.unwrap();
    assert!(
        !public_metrics
            .text()
            .await
            .unwrap()
            .contains("scribevault_http_requests")
    );
    let (_, ready) = app.get("/readyz?verbose", None).await;
    assert!(
        ready.get("downstream").is_none(),
        "verbose readiness is not public: {ready}"
    );
    let admin = app.admin_base();
    let metrics = app
        .http
        .get(format!("{admin}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("scribevault_http_requests"), "{metrics}");
    let verbose: Value = app
        .http
        .get(format!("{admin}/readyz?verbose"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        verbose["downstream"]
            .as_array()
            .is_some_and(|d| d.len() == 5),
        "{verbose}"
    );
}

#[tokio::test]
async fn a_grpc_call_needs_an_identity_the_gateway_signed() {
    use scribevault_core::UserId;
    use scribevault_core::identity::{IDENTITY_METADATA_KEY, ServiceKey};
    use scribevault_proto::library::v1 as pb;

    let app = TestApp::spawn().await;
    let (_, victim) = app.sign_up("victim@example.org").await;
    app.ingest(&victim, "secret:1", "Secret", "the victim's words")
        .await;
    let mut client = pb::library_service_client::LibraryServiceClient::connect(format!(
        "http://{}",
        app.library_grpc
    ))
    .await
    .unwrap();
    let list = || tonic::Request::new(pb::ListTranscriptsRequest::default());

    let mut forged = list();
    forged
        .metadata_mut()
        .insert("x-scribevault-user-id", victim.parse().unwrap());
    let status = client.list_transcripts(forged).await.unwrap_err();
    assert_eq!(
        status.code(),
        tonic::Code::Unauthenticated,
        "a bare user id"
    );

    let mut wrong_key = list();
    ServiceKey::random().attach_user(&mut wrong_key, &UserId::new(victim.clone()));
    let status = client.list_transcripts(wrong_key).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::Unauthenticated, "another key");

    let key = ServiceKey::new(TEST_SERVICE_KEY).unwrap();
    let mut expired = list();
    let old = key.assert_user(
        &UserId::new(victim.clone()),
        std::time::SystemTime::now() - Duration::from_secs(120),
    );
    expired
        .metadata_mut()
        .insert(IDENTITY_METADATA_KEY, old.parse().unwrap());
    let status = client.list_transcripts(expired).await.unwrap_err();
    assert_eq!(
        status.code(),
        tonic::Code::Unauthenticated,
        "an expired assertion"
    );

    let mut signed = list();
    signed_as(&victim, &mut signed);
    let answer = client.list_transcripts(signed).await.unwrap().into_inner();
    assert_eq!(
        answer.meta.unwrap().total,
        1,
        "the same call, signed, is served"
    );
}
