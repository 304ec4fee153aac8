//! Who may sign up: the first account owns the instance, the next need a single-use invitation
//! (or none come in when sign-up is closed), and sign-up never confirms which emails have
//! accounts.

use reqwest::Method;

use super::{execute_sql, invitation_secret, sign_up_with, token_of};
use crate::helpers::TestApp;

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
