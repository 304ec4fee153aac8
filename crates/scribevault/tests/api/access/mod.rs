//! Who gets in: the instance's owner, invitations, admin routes, sessions that end, the access
//! matrix walked from the gateway's own route table, security headers and the admin listener,
//! and gRPC calls that must carry the gateway's signed identity. One module per concern; the
//! sign-up and log-in steps they share are here.

mod accounts;
mod listeners;
mod matrix;
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
