//! What an admin does to accounts: disabling one stops it at once (and an admin cannot lock
//! themself out), the storage cap bounds a member's quota, and deleting an account removes
//! everything it owns and nothing of anyone else's.

use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use super::{PASSWORD, log_in};
use crate::helpers::{SocketClient, TestApp, signed_as};

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
