//! What the owner has beyond the web interface: `scribevault admin` on the command line, and
//! login limits that hold across gateway replicas through Redis.

use serde_json::{Value, json};

use crate::helpers::{TEST_SERVICE_KEY, TestApp};

/// Runs `scribevault admin <args>` on `app`'s data dir; returns stdout, failing on a non-zero
/// exit.
async fn admin(app: &TestApp, args: &[&str]) -> String {
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
        .arg("admin")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SCRIBEVAULT_DATA_DIR", app.data_dir.path())
        .env("SCRIBEVAULT_SERVICE_KEY", TEST_SERVICE_KEY)
        .output()
        .await
        .unwrap();
    assert!(
        output.status.success(),
        "scribevault admin {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

async fn log_in(app: &TestApp, email: &str, password: &str) -> (u16, Value) {
    app.post_json(
        "/api/auth/login",
        &json!({ "email": email, "password": password }),
        None,
    )
    .await
}

#[tokio::test]
async fn a_locked_out_owner_gets_back_in_from_the_command_line() {
    let app = TestApp::spawn().await;
    app.sign_up("owner@example.org").await;
    let (member, _) = app.sign_up("member@example.org").await;

    let listed = admin(&app, &["list-users"]).await;
    let owner_line = listed
        .lines()
        .find(|line| line.contains("owner@example.org"))
        .unwrap();
    assert!(owner_line.contains("admin"), "{listed}");
    let member_line = listed
        .lines()
        .find(|line| line.contains("member@example.org"))
        .unwrap();
    assert!(member_line.contains("member"), "{listed}");

    let made = admin(&app, &["make-admin", "member@example.org"]).await;
    assert!(
        made.contains("member@example.org is now an admin"),
        "{made}"
    );
    assert_eq!(app.get("/api/admin/users", Some(&member)).await.0, 200);

    let reset = admin(&app, &["reset-password", "owner@example.org"]).await;
    let password = reset
        .lines()
        .find_map(|line| line.strip_prefix("New password for owner@example.org: "))
        .unwrap_or_else(|| panic!("{reset}"))
        .to_owned();
    assert_eq!(
        log_in(&app, "owner@example.org", "correct horse battery")
            .await
            .0,
        401
    );
    assert_eq!(log_in(&app, "owner@example.org", &password).await.0, 200);

    // In invite mode a link printed on the command line lets one person in.
    let invite = TestApp::spawn_all_with(&[("SCRIBEVAULT_SIGNUP", "invite")]).await;
    invite.sign_up("owner@example.org").await;
    let printed = admin(
        &invite,
        &["invite", "--hours", "2", "--base-url", &invite.base],
    )
    .await;
    let link = printed.lines().next().unwrap();
    let secret = link
        .strip_prefix(&format!("{}/sign-up?invitation=", invite.base))
        .unwrap_or_else(|| panic!("{printed}"));
    let (status, body) = invite
        .post_json(
            "/api/auth/signup",
            &json!({ "email": "guest@example.org", "password": "correct horse battery", "invitation": secret }),
            None,
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let failed = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
        .args(["admin", "make-admin", "nobody@example.org"])
        .env("SCRIBEVAULT_DATA_DIR", invite.data_dir.path())
        .output()
        .await
        .unwrap();
    assert!(!failed.status.success());
    assert!(String::from_utf8_lossy(&failed.stderr).contains("no account with the email"));
}

/// The code an authenticator app shows for `secret` (base32) at `unix` seconds.
fn code_at(secret: &str, unix: u64) -> String {
    totp_rs::Builder::new()
        .with_secret(totp_rs::Secret::try_from_base32(secret).unwrap())
        .build()
        .unwrap()
        .generate(unix)
        .to_string()
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn log_in_with_code(app: &TestApp, code: Option<&str>) -> (u16, Value) {
    let mut body = json!({ "email": "ada@example.org", "password": "correct horse battery" });
    if let Some(code) = code {
        body["code"] = code.into();
    }
    app.post_json("/api/auth/login", &body, None).await
}

/// A session alone does not set up a factor: the password is asked. Returns the new secret,
/// after checking the `otpauth://` URL an authenticator app scans.
async fn set_up_a_factor_with_the_password(app: &TestApp, token: &str) -> String {
    let (status, refused) = app
        .post_json(
            "/api/auth/2fa/setup",
            &json!({ "password": "not it" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    let (status, setup) = app
        .post_json(
            "/api/auth/2fa/setup",
            &json!({ "password": "correct horse battery" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{setup}");
    let secret = setup["data"]["secret"].as_str().unwrap().to_owned();
    let url = setup["data"]["otpauthUrl"].as_str().unwrap();
    assert!(
        url.starts_with("otpauth://totp/Scribevault:ada%40example.org?"),
        "{url}"
    );
    secret
}

/// Until confirmed, nothing changes; a wrong code does not turn it on, a current one does and
/// hands out ten recovery codes.
async fn assert_a_current_code_confirms_the_factor(app: &TestApp, token: &str, secret: &str) {
    assert_eq!(log_in_with_code(app, None).await.0, 200);
    let (status, _) = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": "000000" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 400, "a wrong code does not turn it on");
    let (status, body) = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": code_at(secret, now()) }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["twoFactorEnabled"], true);
    assert_eq!(body["data"]["recoveryCodes"].as_array().unwrap().len(), 10);
}

/// Sign-in asks for the code, refuses a wrong one, takes each code once, and never asks a
/// caller with a wrong password.
async fn assert_sign_in_takes_each_code_once(app: &TestApp, secret: &str) {
    let (status, asked) = log_in_with_code(app, None).await;
    assert_eq!(status, 401, "{asked}");
    assert_eq!(asked["error"]["totpRequired"], true);
    let (status, wrong) = log_in_with_code(app, Some("123456")).await;
    assert_eq!(
        (status, &wrong["error"]["totpRequired"]),
        (401, &json!(true)),
        "{wrong}"
    );
    // A code of the next step (the confirming one is used up), then the same again: once only.
    let next = code_at(secret, now() + 30);
    let (status, body) = log_in_with_code(app, Some(&next)).await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = log_in_with_code(app, Some(&next)).await;
    assert_eq!(status, 401, "a code works once");
    // A wrong password never reaches the question.
    let (status, body) = app
        .post_json(
            "/api/auth/login",
            &json!({ "email": "ada@example.org", "password": "not the password" }),
            None,
        )
        .await;
    assert_eq!(status, 401);
    assert!(body["error"].get("totpRequired").is_none(), "{body}");
}

/// Turning it off needs the password and a current code.
async fn assert_turning_off_needs_a_current_code(app: &TestApp, token: &str, secret: &str) {
    let (status, _) = app
        .post_json(
            "/api/auth/2fa/disable",
            &json!({ "password": "correct horse battery", "code": "000000" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 400);
    let (status, body) = app
        .post_json(
            "/api/auth/2fa/disable",
            &json!({ "password": "correct horse battery", "code": code_at(secret, now()) }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(log_in_with_code(app, None).await.0, 200);
}

/// The owner who lost the phone: the command line's password reset turns the code off.
async fn assert_a_command_line_reset_turns_the_code_off(app: &TestApp, token: &str) {
    let (_, setup) = app
        .post_json(
            "/api/auth/2fa/setup",
            &json!({ "password": "correct horse battery" }),
            Some(token),
        )
        .await;
    let secret = setup["data"]["secret"].as_str().unwrap().to_owned();
    app.post_json(
        "/api/auth/2fa/enable",
        &json!({ "code": code_at(&secret, now()) }),
        Some(token),
    )
    .await;
    assert_eq!(log_in_with_code(app, None).await.0, 401);
    let reset = admin(app, &["reset-password", "ada@example.org"]).await;
    let password = reset
        .lines()
        .find_map(|line| line.strip_prefix("New password for ada@example.org: "))
        .unwrap()
        .to_owned();
    let (status, body) = log_in(app, "ada@example.org", &password).await;
    assert_eq!(status, 200, "no code asked after the reset: {body}");
}

#[tokio::test]
async fn an_authenticator_code_guards_sign_in_once_turned_on() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("ada@example.org").await;
    let (_, account) = app.get("/api/account", Some(&token)).await;
    assert_eq!(account["data"]["twoFactorEnabled"], false);

    let secret = set_up_a_factor_with_the_password(&app, &token).await;
    assert_a_current_code_confirms_the_factor(&app, &token, &secret).await;
    assert_sign_in_takes_each_code_once(&app, &secret).await;
    assert_turning_off_needs_a_current_code(&app, &token, &secret).await;
    assert_a_command_line_reset_turns_the_code_off(&app, &token).await;
}

/// Turns a second factor on for ada (signed in with `token`); answers its secret and its
/// recovery codes.
async fn turn_on_second_factor(app: &TestApp, token: &str) -> (String, Vec<String>) {
    let (status, setup) = app
        .post_json(
            "/api/auth/2fa/setup",
            &json!({ "password": "correct horse battery" }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{setup}");
    let secret = setup["data"]["secret"].as_str().unwrap().to_owned();
    let (status, enabled) = app
        .post_json(
            "/api/auth/2fa/enable",
            &json!({ "code": code_at(&secret, now()) }),
            Some(token),
        )
        .await;
    assert_eq!(status, 200, "{enabled}");
    let codes = enabled["data"]["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|code| code.as_str().unwrap().to_owned())
        .collect();
    (secret, codes)
}

/// The review's G1: a session alone (an unlocked laptop, a copied token) could replace the
/// owner's second factor and lock them out. Now replacing it needs the password and a code of
/// the factor in use; the owner's own app keeps working until they replace it themselves.
#[tokio::test]
async fn a_session_alone_cannot_replace_an_active_second_factor() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("ada@example.org").await;
    let (secret, _) = turn_on_second_factor(&app, &token).await;
    for (body, why) in [
        (json!({}), "no password"),
        (json!({ "password": "a guess at it" }), "a wrong password"),
        (
            json!({ "password": "correct horse battery" }),
            "no current code",
        ),
        (
            json!({ "password": "correct horse battery", "code": "000000" }),
            "a wrong current code",
        ),
    ] {
        let (status, answer) = app
            .post_json("/api/auth/2fa/setup", &body, Some(&token))
            .await;
        assert!(
            status == 400,
            "{why}: a session alone must not replace the factor, got {status} {answer}"
        );
    }
    // The owner's app still signs in: nothing was replaced.
    let (status, body) = log_in_with_code(&app, Some(&code_at(&secret, now() + 30))).await;
    assert_eq!(status, 200, "{body}");
    // With the password and a current code, the owner replaces it.
    let (status, setup) = app
        .post_json(
            "/api/auth/2fa/setup",
            &json!({ "password": "correct horse battery", "code": code_at(&secret, now()) }),
            Some(&token),
        )
        .await;
    assert_eq!(status, 200, "{setup}");
}

/// Recovery codes: ten, shown once, each signs in once and the answer says how many are left;
/// the first sign-in after the factor changed is told when it changed.
#[tokio::test]
async fn recovery_codes_sign_in_once_and_the_change_is_told_at_the_next_sign_in() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("ada@example.org").await;
    let (_, codes) = turn_on_second_factor(&app, &token).await;
    assert_eq!(codes.len(), 10);
    let unique: std::collections::HashSet<&String> = codes.iter().collect();
    assert_eq!(unique.len(), 10);

    let (status, body) = log_in_with_code(&app, Some(&codes[3].to_uppercase())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["recoveryCodesLeft"], 9, "{body}");
    assert!(
        body["data"]["secondFactorChangedAt"].is_string(),
        "the first sign-in after the change is told: {body}"
    );
    let (status, _) = log_in_with_code(&app, Some(&codes[3])).await;
    assert_eq!(status, 401, "a recovery code works once");
    let (status, body) = log_in_with_code(&app, Some(&codes[4])).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["recoveryCodesLeft"], 8, "{body}");
    assert!(
        body["data"].get("secondFactorChangedAt").is_none(),
        "told once: {body}"
    );
}

/// The review's G1 and G9: a session could guess the password on the routes that check it
/// without limit. Wrong current passwords count like wrong sign-ins, per account.
#[tokio::test]
async fn thirty_wrong_current_passwords_meet_a_429() {
    let app = TestApp::spawn().await;
    let (token, _) = app.sign_up("ada@example.org").await;
    let mut statuses = Vec::new();
    for guess in 0..30 {
        let (status, _) = app
            .post_json(
                "/api/auth/password",
                &json!({ "currentPassword": format!("guess number {guess}"), "newPassword": "violet harbor compass 917" }),
                Some(&token),
            )
            .await;
        statuses.push(status);
    }
    assert!(
        statuses[..10].iter().all(|status| *status == 400),
        "{statuses:?}"
    );
    assert!(
        statuses[10..].iter().all(|status| *status == 429),
        "{statuses:?}"
    );
    // The 2FA routes count on the same account.
    let (status, _) = app
        .post_json(
            "/api/auth/2fa/setup",
            &json!({ "password": "correct horse battery" }),
            Some(&token),
        )
        .await;
    assert_eq!(
        status, 429,
        "the account is blocked for a while, on every route that checks"
    );
}

#[tokio::test]
async fn guessable_passwords_are_refused_with_advice() {
    let app = TestApp::spawn().await;
    let (status, body) = app
        .post_json(
            "/api/auth/signup",
            &json!({ "email": "ada@example.org", "password": "password123" }),
            None,
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("too easy to guess"),
        "{body}"
    );
}

#[tokio::test]
async fn gateway_replicas_share_the_login_limit_through_redis() {
    let Some(redis) = scribevault_test_support::real_server(
        scribevault_test_support::REDIS_URL_ENV,
        "login limit shared through Redis",
    ) else {
        return;
    };
    let settings = [
        ("SCRIBEVAULT_REDIS_URL", redis.as_str()),
        ("SCRIBEVAULT_LOGIN_ATTEMPTS_PER_MINUTE", "3"),
    ];
    let first = TestApp::spawn_all_with(&settings).await;
    let second = TestApp::spawn_all_with(&settings).await;
    // A fresh email: Redis outlives test runs.
    let email = format!("{}@example.org", uuid::Uuid::new_v4().simple());
    first.sign_up(&email).await;
    second.sign_up(&email).await;
    for _ in 0..3 {
        assert_eq!(log_in(&first, &email, "guess guess").await.0, 401);
    }
    let (status, body) = log_in(&second, &email, "correct horse battery").await;
    assert_eq!(
        status, 429,
        "the other replica counts the same failures: {body}"
    );
}
