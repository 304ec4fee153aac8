//! `POST /api/auth/signup` and `POST /api/auth/login` (local mode only).

use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::auth::AuthError;
use crate::auth::local::{AccountView, LocalAccounts};
use crate::error::ApiError;

/// Present only in local mode.
pub type LocalAccountsData = web::Data<Option<Arc<LocalAccounts>>>;

#[derive(Deserialize)]
pub struct Credentials {
    email: String,
    password: String,
}

fn session(token: String, user: AccountView) -> serde_json::Value {
    serde_json::json!({ "data": { "token": token, "user": user } })
}

fn accounts(data: &LocalAccountsData) -> Result<&LocalAccounts, ApiError> {
    data.as_ref()
        .as_ref()
        .map(AsRef::as_ref)
        .ok_or_else(|| AuthError::LocalAccountsDisabled.into())
}

/// Creates a local account: 201 with a token, 409 for a taken email, 400 for bad input.
pub async fn sign_up(
    data: LocalAccountsData,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let (token, user) = accounts(&data)?
        .sign_up(&body.email, &body.password)
        .await?;
    Ok(HttpResponse::Created().json(session(token, user)))
}

/// Signs in: 200 with a token, 401 for unknown email or wrong password, 429 when rate-limited.
pub async fn log_in(
    request: HttpRequest,
    data: LocalAccountsData,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    // The socket peer, not X-Forwarded-For: a header is the client's to forge.
    let client = request
        .peer_addr()
        .map(|addr| addr.ip().to_string())
        .unwrap_or_default();
    let (token, user) = accounts(&data)?
        .log_in(&body.email, &body.password, &client)
        .await?;
    Ok(HttpResponse::Ok().json(session(token, user)))
}
