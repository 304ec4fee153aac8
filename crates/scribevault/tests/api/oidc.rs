//! OIDC mode: RS256 access tokens verified against a local JWKS server with keys the test makes.

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::helpers::TestApp;

const AUDIENCE: &str = "https://api.scribevault.test";

fn rsa_private_key_pem(dir: &std::path::Path, name: &str) -> Vec<u8> {
    let file = dir.join(name);
    let status = std::process::Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
        ])
        .arg(&file)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("openssl is installed");
    assert!(status.success());
    std::fs::read(file).unwrap()
}

fn token(
    key: &EncodingKey,
    algorithm: Algorithm,
    kid: Option<&str>,
    issuer: &str,
    audience: &str,
    expires_in: i64,
) -> String {
    let mut header = Header::new(algorithm);
    header.kid = kid.map(str::to_owned);
    let now = chrono::Utc::now().timestamp();
    let claims = json!({ "sub": "auth0|alice", "azp": "spa-client-id", "email": "alice@example.org", "email_verified": true, "iss": issuer, "aud": audience, "iat": now, "exp": now + expires_in });
    jsonwebtoken::encode(&header, &claims, key).unwrap()
}

/// A local issuer: its discovery document and JWKS on a mock server, and its signing key.
struct FakeIssuer {
    provider: MockServer,
    issuer: String,
    signing: EncodingKey,
    keys_dir: tempfile::TempDir,
}

/// The public half of `key`, published under `kid`.
fn jwk_of(key: &EncodingKey, kid: &str) -> Jwk {
    let mut jwk = Jwk::from_encoding_key(key, Algorithm::RS256).unwrap();
    jwk.common.key_id = Some(kid.into());
    jwk
}

/// Serves `issuer`'s discovery document and a JWKS of just `jwk` on `provider`.
async fn publish_issuer_keys(provider: &MockServer, issuer: &str, jwk: Jwk) {
    Mock::given(method("GET"))
        .and(path("/.well-known/openid-configuration"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({ "issuer": issuer, "jwks_uri": format!("{}/keys", provider.uri()) }),
        ))
        .mount(provider)
        .await;
    Mock::given(method("GET"))
        .and(path("/keys"))
        .respond_with(ResponseTemplate::new(200).set_body_json(JwkSet { keys: vec![jwk] }))
        .mount(provider)
        .await;
}

async fn fake_issuer() -> FakeIssuer {
    let keys_dir = tempfile::tempdir().unwrap();
    let signing =
        EncodingKey::from_rsa_pem(&rsa_private_key_pem(keys_dir.path(), "issuer.pem")).unwrap();
    let provider = MockServer::start().await;
    let issuer = format!("{}/", provider.uri());
    publish_issuer_keys(&provider, &issuer, jwk_of(&signing, "kid-1")).await;
    FakeIssuer {
        provider,
        issuer,
        signing,
        keys_dir,
    }
}

/// How often the provider has been asked for its key set so far.
async fn key_fetches(provider: &MockServer) -> usize {
    provider
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|request| request.url.path() == "/keys")
        .count()
}

/// `/config.json` hands the SPA what it needs to sign in with the issuer.
async fn assert_config_announces_the_issuer(app: &TestApp, issuer: &str) {
    let (_, config) = app.get("/config.json", None).await;
    assert_eq!(config["authMode"], "oidc");
    assert_eq!(
        config["domain"],
        issuer.trim_end_matches('/'),
        "an http issuer with a port is handed over whole"
    );
    assert_eq!(config["clientId"], "spa-client-id");
    assert_eq!(config["audience"], AUDIENCE);
}

/// A token signed with a shared secret, under the issuer's key id (algorithm confusion).
fn hs256_token(issuer: &str) -> String {
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("kid-1".into());
    jsonwebtoken::encode(&header, &json!({ "sub": "auth0|alice", "iss": issuer, "aud": AUDIENCE, "exp": chrono::Utc::now().timestamp() + 600 }), &EncodingKey::from_secret(b"guessable")).unwrap()
}

/// `valid`'s claims under an `alg: none` header, with no signature.
fn unsigned_token(valid: &str) -> String {
    use base64::Engine as _;
    let (_, rest) = valid.split_once('.').unwrap();
    let payload = rest.split('.').next().unwrap();
    format!(
        "{}.{payload}.",
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(br#"{"alg":"none","typ":"JWT","kid":"kid-1"}"#)
    )
}

/// Every way a token can be wrong, by name: each must get a 401.
fn refused_tokens(
    signing: &EncodingKey,
    attacker: &EncodingKey,
    issuer: &str,
    valid: &str,
) -> Vec<(&'static str, String)> {
    let rs256 = |key, kid, issuer, audience, expires_in| {
        token(key, Algorithm::RS256, kid, issuer, audience, expires_in)
    };
    vec![
        (
            "another issuer",
            rs256(
                signing,
                Some("kid-1"),
                "https://evil.example/",
                AUDIENCE,
                600,
            ),
        ),
        (
            "another audience",
            rs256(signing, Some("kid-1"), issuer, "https://other.api", 600),
        ),
        (
            "expired",
            rs256(signing, Some("kid-1"), issuer, AUDIENCE, -600),
        ),
        (
            "signed by another key",
            rs256(attacker, Some("kid-1"), issuer, AUDIENCE, 600),
        ),
        ("HS256", hs256_token(issuer)),
        ("alg none", unsigned_token(valid)),
        ("no kid", rs256(signing, None, issuer, AUDIENCE, 600)),
    ]
}

/// Unknown key ids do not turn into a flood of fetches: within the refetch interval the key
/// set is fetched once, however many arrive.
async fn assert_unknown_kids_fetch_keys_once(
    app: &TestApp,
    provider: &MockServer,
    attacker: &EncodingKey,
    issuer: &str,
) {
    for _ in 0..5 {
        let unknown = token(
            attacker,
            Algorithm::RS256,
            Some("kid-unknown"),
            issuer,
            AUDIENCE,
            600,
        );
        assert_eq!(app.get(PROTECTED, Some(&unknown)).await.0, 401);
    }
    assert_eq!(
        key_fetches(provider).await,
        1,
        "only the first use fetched keys"
    );
}

/// The issuer rotates its keys: after the interval a token with the new kid triggers one
/// refetch and is accepted.
async fn assert_a_rotated_key_is_accepted_after_one_refetch(
    app: &TestApp,
    provider: &MockServer,
    keys_dir: &std::path::Path,
    issuer: &str,
) {
    let rotated = EncodingKey::from_rsa_pem(&rsa_private_key_pem(keys_dir, "rotated.pem")).unwrap();
    provider.reset().await;
    publish_issuer_keys(provider, issuer, jwk_of(&rotated, "kid-2")).await;
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let after_rotation = token(
        &rotated,
        Algorithm::RS256,
        Some("kid-2"),
        issuer,
        AUDIENCE,
        600,
    );
    let (status, body) = app.get(PROTECTED, Some(&after_rotation)).await;
    assert_eq!(status, 200, "rotated key accepted after a refetch: {body}");
    assert_eq!(
        key_fetches(provider).await,
        1,
        "exactly one refetch since the rotation"
    );
}

/// An endpoint that needs a signed-in caller.
const PROTECTED: &str = "/api/library/transcripts";

#[tokio::test]
async fn rs256_tokens_of_the_issuer_are_accepted_and_everything_else_refused() {
    let FakeIssuer {
        provider,
        issuer,
        signing,
        keys_dir,
    } = fake_issuer().await;
    let attacker =
        EncodingKey::from_rsa_pem(&rsa_private_key_pem(keys_dir.path(), "attacker.pem")).unwrap();

    let app = TestApp::spawn_all_with(&[
        ("SCRIBEVAULT_AUTH", "oidc"),
        ("SCRIBEVAULT_OIDC_ISSUER", &issuer),
        ("SCRIBEVAULT_OIDC_AUDIENCE", AUDIENCE),
        ("SCRIBEVAULT_OIDC_CLIENT_ID", "spa-client-id"),
        ("SCRIBEVAULT_OIDC_JWKS_REFETCH_SECONDS", "2"),
    ])
    .await;
    assert_config_announces_the_issuer(&app, &issuer).await;

    let valid = token(
        &signing,
        Algorithm::RS256,
        Some("kid-1"),
        &issuer,
        AUDIENCE,
        600,
    );
    let (status, body) = app.get(PROTECTED, Some(&valid)).await;
    assert_eq!(status, 200, "{body}");
    for (name, token) in refused_tokens(&signing, &attacker, &issuer, &valid) {
        let (status, body) = app.get(PROTECTED, Some(&token)).await;
        assert_eq!(status, 401, "{name} must be refused: {body}");
    }

    assert_unknown_kids_fetch_keys_once(&app, &provider, &attacker, &issuer).await;
    assert_a_rotated_key_is_accepted_after_one_refetch(&app, &provider, keys_dir.path(), &issuer)
        .await;

    let (status, body) = app
        .post_json(
            "/api/auth/signup",
            &json!({ "email": "x@example.com", "password": "long enough" }),
            None,
        )
        .await;
    assert_eq!(status, 404, "no local accounts in OIDC mode: {body}");
}

/// The review's G5: in OIDC mode, API tokens and feed links outlived the allow-list they were
/// made under. A member taken off it loses both at their next request.
#[tokio::test]
async fn a_member_taken_off_the_allow_list_loses_their_api_tokens_and_feeds() {
    let issuer = fake_issuer().await;
    let settings = |allowed: &'static str| {
        [
            ("SCRIBEVAULT_AUTH", "oidc"),
            ("SCRIBEVAULT_OIDC_ISSUER", issuer.issuer.as_str()),
            ("SCRIBEVAULT_OIDC_AUDIENCE", AUDIENCE),
            ("SCRIBEVAULT_OIDC_ALLOWED_EMAILS", allowed),
        ]
    };
    let app = TestApp::spawn_all_with(&settings("alice@example.org")).await;
    let signed_in = token(
        &issuer.signing,
        Algorithm::RS256,
        Some("kid-1"),
        &issuer.issuer,
        AUDIENCE,
        600,
    );
    let (status, made) = app
        .post_json(
            "/api/tokens",
            &json!({ "name": "script" }),
            Some(&signed_in),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let api_token = made["data"]["token"].as_str().unwrap().to_owned();
    let (status, feed) = app
        .post_json("/api/feeds", &json!({ "scope": "vault" }), Some(&signed_in))
        .await;
    assert_eq!(status, 201, "{feed}");
    let feed_path = url::Url::parse(feed["data"]["url"].as_str().unwrap())
        .unwrap()
        .path()
        .to_owned();
    assert_eq!(
        app.get("/api/library/transcripts", Some(&api_token))
            .await
            .0,
        200
    );
    assert_eq!(app.get(&feed_path, None).await.0, 200);

    // The operator takes alice off the list.
    let app = app.restart_with(&settings("bob@example.org")).await;
    let (status, body) = app.get("/api/library/transcripts", Some(&api_token)).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(app.get(&feed_path, None).await.0, 404);

    // And back on: what was revoked stays revoked.
    let app = app.restart_with(&settings("alice@example.org")).await;
    assert_eq!(
        app.get("/api/library/transcripts", Some(&api_token))
            .await
            .0,
        401
    );
    assert_eq!(app.get(&feed_path, None).await.0, 404);
    assert_eq!(
        app.get("/api/library/transcripts", Some(&signed_in))
            .await
            .0,
        200
    );
}
