//! Who gets in: the instance's owner, invitations, admin routes, sessions that end, the access
//! matrix walked from the gateway's own route table, security headers and the admin listener,
//! and gRPC calls that must carry the gateway's signed identity. One module per concern; the
//! sign-up and log-in steps they share are here.

mod accounts;
mod listeners;
mod matrix;
mod refresh;
mod sessions;
mod sign_up;

use serde_json::{Value, json};

use crate::helpers::TestApp;

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

/// A sign-in as a browser holds it: the access token the SPA keeps in memory, and the refresh
/// cookie only the browser sees.
#[derive(Debug, Clone)]
struct BrowserSession {
    token: String,
    refresh: String,
}

/// The `scribevault_refresh` cookie a response sets: its value ("" when it is removed) and the
/// whole header, for its attributes.
fn refresh_cookie_of(headers: &reqwest::header::HeaderMap) -> Option<(String, String)> {
    headers
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("scribevault_refresh="))
        .map(|header| {
            let value = header["scribevault_refresh=".len()..]
                .split(';')
                .next()
                .unwrap_or_default()
                .trim_matches('"')
                .to_owned();
            (value, header.to_owned())
        })
}

/// Sends `request`; answers the status, the body and the refresh cookie the answer set.
async fn post_for_cookie(
    request: reqwest::RequestBuilder,
) -> (u16, Value, Option<(String, String)>) {
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let cookie = refresh_cookie_of(response.headers());
    (status, response.json().await.unwrap_or(Value::Null), cookie)
}

/// Signs in like the SPA does.
async fn browser_sign_in(app: &TestApp, email: &str, password: &str) -> BrowserSession {
    let request = app
        .http
        .post(app.url("/api/auth/login"))
        .json(&json!({ "email": email, "password": password }));
    let (status, body, cookie) = post_for_cookie(request).await;
    assert_eq!(status, 200, "{body}");
    BrowserSession {
        token: token_of(&body),
        refresh: cookie.expect("sign-in sets the refresh cookie").0,
    }
}

/// `POST /api/auth/refresh` with a refresh cookie (and, to prove it is ignored, perhaps a
/// bearer); on 200 the renewed session.
async fn refresh_with(
    app: &TestApp,
    cookie: Option<&str>,
    bearer: Option<&str>,
) -> (u16, Value, Option<BrowserSession>) {
    let mut request = app.http.post(app.url("/api/auth/refresh"));
    if let Some(cookie) = cookie {
        request = request.header(
            reqwest::header::COOKIE,
            format!("scribevault_refresh={cookie}"),
        );
    }
    if let Some(bearer) = bearer {
        request = request.bearer_auth(bearer);
    }
    let (status, body, set) = post_for_cookie(request).await;
    let renewed = (status == 200).then(|| BrowserSession {
        token: token_of(&body),
        refresh: set.expect("a renewal sets a new refresh cookie").0,
    });
    (status, body, renewed)
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
