//! Local accounts and token checks at the gateway.

use base64::Engine as _;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;

use crate::helpers::TestApp;

const PROTECTED: &str = "/api/library/transcripts";

#[tokio::test]
async fn sign_up_then_log_in_then_call_an_authenticated_route() {
    let app = TestApp::spawn().await;
    let (_, user_id) = app.sign_up("ada@example.com").await;
    let (status, body) = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": "ADA@example.com", "password": "correct horse battery" }),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["id"], user_id.as_str());
    assert_eq!(body["data"]["user"]["email"], "ada@example.com");
    let token = body["data"]["token"].as_str().unwrap();
    let (status, body) = app.get(PROTECTED, Some(token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"], json!([]));
    assert_eq!(
        body["meta"],
        json!({ "page": 1, "limit": 20, "total": 0, "hasMore": false })
    );
}

#[tokio::test]
async fn sign_up_validates_and_refuses_duplicates() {
    let app = TestApp::spawn().await;
    app.sign_up("dup@example.com").await;
    let cases = [
        (
            json!({ "email": "DUP@example.com", "password": "another password" }),
            409,
            "Could not create an account with these details. If you already have one, sign in.",
        ),
        (
            json!({ "email": "short@example.com", "password": "1234567" }),
            400,
            "Password must be at least 8 characters",
        ),
        (
            json!({ "email": "not-an-email", "password": "long enough pw" }),
            400,
            "Please enter a valid email address",
        ),
        (
            json!({ "email": "a@b", "password": "long enough pw" }),
            400,
            "Please enter a valid email address",
        ),
    ];
    for (body, expected_status, message) in cases {
        let (status, answer) = app.post_json("/api/auth/signup", &body, None).await;
        assert_eq!(status, expected_status, "{body} -> {answer}");
        assert_eq!(answer["error"]["message"], message);
    }
}

#[tokio::test]
async fn wrong_password_and_unknown_email_get_the_same_401() {
    let app = TestApp::spawn().await;
    app.sign_up("known@example.com").await;
    let (wrong_status, wrong) = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": "known@example.com", "password": "wrong password" }),
            None,
        )
        .await;
    let (unknown_status, unknown) = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": "nobody@example.com", "password": "wrong password" }),
            None,
        )
        .await;
    assert_eq!((wrong_status, unknown_status), (401, 401));
    assert_eq!(wrong["error"]["message"], "Invalid email or password");
    assert_eq!(
        wrong["error"], unknown["error"],
        "the answers must not tell which accounts exist"
    );
}

#[tokio::test]
async fn login_attempts_are_rate_limited_per_account_and_client() {
    let app = TestApp::spawn_all_with(&[("SCRIBEVAULT_LOGIN_ATTEMPTS_PER_MINUTE", "3")]).await;
    app.sign_up("target@example.com").await;
    for _ in 0..3 {
        let (status, _) = app
            .post_json(
                "/api/auth/login",
                &json!({ "email": "target@example.com", "password": "guess guess" }),
                None,
            )
            .await;
        assert_eq!(status, 401);
    }
    let (status, body) = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": "target@example.com", "password": "correct horse battery" }),
            None,
        )
        .await;
    assert_eq!(
        status, 429,
        "even the right password waits once the limit is hit: {body}"
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Too many attempts")
    );
}

fn local_signing_key(app: &TestApp) -> Vec<u8> {
    std::fs::read(app.data_dir.path().join("auth/jwt-hs256.key"))
        .expect("the gateway keeps its key in the data dir")
}

/// The session id a locally issued token names.
fn session_of(token: &str) -> String {
    use base64::Engine as _;
    let payload = token.split('.').nth(1).unwrap();
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    claims["sid"].as_str().unwrap().to_owned()
}

fn claims(user_id: &str, session: &str, expires_in: i64) -> serde_json::Value {
    let now = chrono::Utc::now().timestamp();
    json!({ "sub": user_id, "sid": session, "email": "x@example.com", "iss": "scribevault-local", "aud": "scribevault", "iat": now, "exp": now + expires_in })
}

#[tokio::test]
async fn missing_expired_foreign_and_unsigned_tokens_get_401() {
    let app = TestApp::spawn().await;
    let (valid, user_id) = app.sign_up("tokens@example.com").await;
    let session = session_of(&valid);
    let key = local_signing_key(&app);
    let expired = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims(&user_id, &session, -3600),
        &EncodingKey::from_secret(&key),
    )
    .unwrap();
    let other_key = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims(&user_id, &session, 3600),
        &EncodingKey::from_secret(b"some other key of enough length!!"),
    )
    .unwrap();
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let unsigned = format!(
        "{}.{}.",
        engine.encode(br#"{"alg":"none","typ":"JWT"}"#),
        engine.encode(claims(&user_id, &session, 3600).to_string())
    );
    // The same claims signed with the real key are accepted: the rejections below are about
    // expiry, key and algorithm, nothing else.
    let fresh = jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims(&user_id, &session, 3600),
        &EncodingKey::from_secret(&key),
    )
    .unwrap();
    assert_eq!(app.get(PROTECTED, Some(&fresh)).await.0, 200);
    assert_eq!(app.get(PROTECTED, Some(&valid)).await.0, 200);

    let (status, body) = app.get(PROTECTED, None).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"]["message"], "Authentication required");
    for (name, token) in [
        ("expired", expired),
        ("another key", other_key),
        ("alg none", unsigned),
        ("garbage", "abc.def.ghi".to_owned()),
    ] {
        let (status, body) = app.get(PROTECTED, Some(&token)).await;
        assert_eq!(status, 401, "{name} token must be refused: {body}");
        assert_eq!(body["error"]["message"], "Invalid or expired token");
    }
}

#[tokio::test]
async fn config_json_tells_the_spa_the_auth_mode() {
    let app = TestApp::spawn().await;
    let (status, body) = app.get("/config.json", None).await;
    assert_eq!(status, 200);
    assert_eq!(body, json!({ "authMode": "local", "signup": "open" }));
}
