//! Personal API tokens (`/api/tokens`): made, listed and revoked by their member; a token acts
//! as its member on the REST API and downstream, is never an admin, cannot manage the account's
//! access, is stored hashed, and stops working when revoked or expired.

use reqwest::Method;
use sea_orm::ConnectionTrait as _;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_error, keys, spawn_app};

/// Makes a token with `body`; answers the whole `data` object.
async fn create(app: &TestApp, session: &str, body: &Value) -> Value {
    let answer = app.post("/api/tokens", session, body).await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    answer.body["data"].clone()
}

/// A second member, signed up with an invitation the owner made; answers their session token.
async fn second_member(app: &TestApp, owner: &str) -> String {
    let invitation = app.post("/api/admin/invitations", owner, &json!({})).await;
    assert_eq!(invitation.status, 201, "{}", invitation.body);
    let url = invitation.body["data"]["url"].as_str().unwrap().to_owned();
    let secret = url.split("invitation=").nth(1).unwrap().to_owned();
    let answer = app
        .send(
            Method::POST,
            "/api/auth/signup",
            None,
            Some(&json!({
                "email": "second@example.com",
                "password": "another correct horse battery",
                "invitation": secret,
            })),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    answer.body["data"]["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_token_is_shown_once_listed_without_its_secret_and_acts_as_its_member() {
    let app = spawn_app().await;
    let (session, user_id) = app.sign_up_owner().await;

    let made = create(&app, &session, &json!({ "name": "backup script" })).await;
    let secret = made["token"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("svt_"), "{secret}");
    assert!(secret.len() > 40, "256 random bits, got {secret}");
    assert_eq!(made["name"], "backup script");
    assert_eq!(made["saveToVault"], true);
    assert_eq!(made["expiresAt"], Value::Null);

    let listed = app.get("/api/tokens", &session).await;
    assert_eq!(listed.status, 200, "{}", listed.body);
    let tokens = listed.body["data"]["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 1);
    assert_eq!(
        keys(&tokens[0]),
        [
            "createdAt",
            "expired",
            "expiresAt",
            "id",
            "lastUsedAt",
            "name",
            "saveToVault"
        ]
    );
    assert_eq!(tokens[0]["id"], made["id"]);
    assert_eq!(tokens[0]["lastUsedAt"], Value::Null);
    assert!(!listed.body.to_string().contains(&secret));

    // The token is its member, downstream too.
    let account = app.get("/api/account", &secret).await;
    assert_eq!(account.status, 200, "{}", account.body);
    assert_eq!(account.body["data"]["id"], user_id.as_str());
    let items = app.get("/api/library/transcripts", &secret).await;
    assert_eq!(items.status, 200, "{}", items.body);
    let reached = app.library.list_transcripts.received();
    assert_eq!(
        reached.last().unwrap().caller.as_deref(),
        Some(user_id.as_str())
    );

    let listed = app.get("/api/tokens", &session).await;
    assert_ne!(listed.body["data"]["tokens"][0]["lastUsedAt"], Value::Null);
}

#[tokio::test]
async fn a_token_of_an_admin_is_not_an_admin_and_cannot_manage_the_account() {
    let app = spawn_app().await;
    let session = app.token().await;
    let secret = create(&app, &session, &json!({ "name": "cli" })).await["token"]
        .as_str()
        .unwrap()
        .to_owned();

    let account = app.get("/api/account", &secret).await;
    assert_eq!(account.body["data"]["isAdmin"], false);
    assert_error(
        &app.get("/api/admin/users", &secret).await,
        403,
        "FORBIDDEN",
    );
    // No token minted by a token, no list of the others, no password or second-factor change.
    assert_error(
        &app.post("/api/tokens", &secret, &json!({ "name": "successor" }))
            .await,
        403,
        "FORBIDDEN",
    );
    assert_error(&app.get("/api/tokens", &secret).await, 403, "FORBIDDEN");
    assert_error(
        &app.post(
            "/api/auth/password",
            &secret,
            &json!({ "currentPassword": "x", "newPassword": "y" }),
        )
        .await,
        403,
        "FORBIDDEN",
    );
    assert_error(
        &app.post("/api/auth/logout-all", &secret, &json!({})).await,
        403,
        "FORBIDDEN",
    );
    // The session itself still can.
    assert_eq!(app.get("/api/tokens", &session).await.status, 200);
}

#[tokio::test]
async fn a_revoked_token_is_refused_and_another_members_token_is_not_found() {
    let app = spawn_app().await;
    let owner = app.token().await;
    let made = create(&app, &owner, &json!({ "name": "open webui" })).await;
    let id = made["id"].as_str().unwrap();
    let secret = made["token"].as_str().unwrap();
    let second = second_member(&app, &owner).await;

    // Another member's token: 404 whatever they try, and it keeps working.
    let path = format!("/api/tokens/{id}");
    assert_error(
        &app.send(Method::DELETE, &path, Some(&second), None).await,
        404,
        "NOT_FOUND",
    );
    assert_error(
        &app.send(
            Method::PATCH,
            &path,
            Some(&second),
            Some(&json!({ "name": "mine" })),
        )
        .await,
        404,
        "NOT_FOUND",
    );
    let theirs = app.get("/api/tokens", &second).await;
    assert_eq!(theirs.body["data"]["tokens"], json!([]));
    assert_eq!(app.get("/api/account", secret).await.status, 200);

    let revoked = app.send(Method::DELETE, &path, Some(&owner), None).await;
    assert_eq!(revoked.status, 204, "{}", revoked.body);
    assert_error(
        &app.get("/api/account", secret).await,
        401,
        "UNAUTHENTICATED",
    );
    assert_error(
        &app.send(Method::DELETE, &path, Some(&owner), None).await,
        404,
        "NOT_FOUND",
    );
    // A made-up token of the right shape is refused the same way.
    let forged = format!("svt_{}", "A".repeat(43));
    assert_error(
        &app.get("/api/account", &forged).await,
        401,
        "UNAUTHENTICATED",
    );
}

#[tokio::test]
async fn an_expired_token_is_refused_and_listed_as_expired() {
    let app = spawn_app().await;
    let session = app.token().await;
    let soon = chrono::Utc::now() + chrono::Duration::milliseconds(1500);
    let made = create(
        &app,
        &session,
        &json!({ "name": "short", "expiresAt": soon.to_rfc3339() }),
    )
    .await;
    let secret = made["token"].as_str().unwrap();
    assert_eq!(made["expired"], false);
    assert_eq!(app.get("/api/account", secret).await.status, 200);

    tokio::time::sleep(std::time::Duration::from_millis(1700)).await;
    assert_error(
        &app.get("/api/account", secret).await,
        401,
        "UNAUTHENTICATED",
    );
    let listed = app.get("/api/tokens", &session).await;
    assert_eq!(listed.body["data"]["tokens"][0]["expired"], true);
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_clear_message() {
    let app = spawn_app().await;
    let session = app.token().await;
    for (body, why) in [
        (json!({ "name": "" }), "empty name"),
        (json!({ "name": "   " }), "blank name"),
        (json!({ "name": "x".repeat(101) }), "name too long"),
        (json!({ "name": "a\u{0007}b" }), "control character"),
        (
            json!({ "name": "ok", "expiresAt": "2001-01-01T00:00:00Z" }),
            "past expiry",
        ),
        (
            json!({ "name": "ok", "expiresAt": "tomorrow" }),
            "not a date",
        ),
        (json!({ "name": "ok", "admin": true }), "unknown field"),
        (json!({ "expiresAt": null }), "no name"),
    ] {
        let answer = app.post("/api/tokens", &session, &body).await;
        assert_eq!(answer.status, 400, "{why}: {}", answer.body);
        assert_eq!(answer.body["error"]["code"], "BAD_REQUEST", "{why}");
    }
    assert_eq!(
        app.get("/api/tokens", &session).await.body["data"]["tokens"],
        json!([])
    );
}

#[tokio::test]
async fn a_token_can_be_renamed_and_told_not_to_keep_transcriptions() {
    let app = spawn_app().await;
    let session = app.token().await;
    let made = create(
        &app,
        &session,
        &json!({ "name": "llama-swap", "saveToVault": false }),
    )
    .await;
    assert_eq!(made["saveToVault"], false);
    let path = format!("/api/tokens/{}", made["id"].as_str().unwrap());
    let changed = app
        .send(
            Method::PATCH,
            &path,
            Some(&session),
            Some(&json!({ "name": "Open WebUI", "saveToVault": true })),
        )
        .await;
    assert_eq!(changed.status, 200, "{}", changed.body);
    assert_eq!(changed.body["data"]["name"], "Open WebUI");
    assert_eq!(changed.body["data"]["saveToVault"], true);
    // The secret still works after the change.
    let secret = made["token"].as_str().unwrap();
    assert_eq!(app.get("/api/account", secret).await.status, 200);
}

#[tokio::test]
async fn only_a_hash_of_the_token_is_stored() {
    let app = spawn_app().await;
    let session = app.token().await;
    let secret = create(&app, &session, &json!({ "name": "dump me" })).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let db = scribevault_db::connect(app.database_url()).await.unwrap();
    let rows = db
        .query_all_raw(sea_orm::Statement::from_string(
            db.get_database_backend(),
            "SELECT * FROM api_tokens",
        ))
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    let dump = format!("{rows:?}");
    let random_part = secret.trim_start_matches("svt_");
    assert!(!dump.contains(random_part), "the secret is stored: {dump}");
}
