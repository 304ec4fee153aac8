//! `/api/auth/*`: local sign-up, sign-in and sessions (local mode only; 404 in OIDC mode).

use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use serde::{Deserialize, Serialize};

use crate::auth::client_address::TrustedProxies;
use crate::auth::invitations::Invitations;
use crate::auth::limiter::client_key;
use crate::auth::local::LocalAccounts;
use crate::auth::{AuthError, Caller, bearer_token};
use crate::error::{ApiError, created, data};

/// Present only in local mode.
pub type LocalAccountsData = web::Data<Option<Arc<LocalAccounts>>>;

#[derive(Deserialize)]
pub struct Credentials {
    email: String,
    password: String,
    /// The authenticator code, for an account with a second factor.
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize)]
pub struct Code {
    code: String,
}

#[derive(Deserialize)]
pub struct PasswordAndCode {
    password: String,
    code: String,
}

/// A new authenticator secret, shown once for the app to scan.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorSetupView {
    secret: String,
    otpauth_url: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorView {
    two_factor_enabled: bool,
}

#[derive(Deserialize)]
pub struct SignUp {
    email: String,
    password: String,
    /// The secret of an invitation link (`/sign-up?invitation=…`).
    #[serde(default)]
    invitation: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    current_password: String,
    new_password: String,
}

/// An open invitation, as the sign-up screen checks it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvitationView {
    expires_at: chrono::DateTime<chrono::Utc>,
}

fn accounts(data: &LocalAccountsData) -> Result<&LocalAccounts, ApiError> {
    data.as_ref()
        .as_ref()
        .map(AsRef::as_ref)
        .ok_or_else(|| AuthError::LocalAccountsDisabled.into())
}

/// The key limits count by: the client address, through trusted proxies only.
fn client(request: &HttpRequest, proxies: &TrustedProxies) -> String {
    proxies
        .client_of(request)
        .map(client_key)
        .unwrap_or_default()
}

/// Creates a local account: 201 with a token; 403 without a needed invitation or when closed;
/// 409 when it cannot be created; 400 for bad input; 429 when rate-limited.
pub async fn sign_up(
    request: HttpRequest,
    local: LocalAccountsData,
    proxies: web::Data<TrustedProxies>,
    body: web::Json<SignUp>,
) -> Result<HttpResponse, ApiError> {
    let signed_in = accounts(&local)?
        .sign_up(
            &body.email,
            &body.password,
            body.invitation.as_deref(),
            &client(&request, &proxies),
        )
        .await?;
    Ok(created(signed_in))
}

/// Signs in: 200 with a token, 401 for unknown email or wrong password, 403 for a disabled
/// account, 429 when rate-limited.
pub async fn log_in(
    request: HttpRequest,
    local: LocalAccountsData,
    proxies: web::Data<TrustedProxies>,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let signed_in = accounts(&local)?
        .log_in(
            &body.email,
            &body.password,
            body.code.as_deref(),
            &client(&request, &proxies),
        )
        .await?;
    Ok(data(signed_in))
}

/// A new short-lived token for the session of the bearer token, which may have expired (the
/// session decides): the SPA renews before expiry, and after a sleep.
pub async fn refresh(
    request: HttpRequest,
    local: LocalAccountsData,
) -> Result<HttpResponse, ApiError> {
    let token = bearer_token(&request).ok_or(AuthError::MissingToken)?;
    Ok(data(accounts(&local)?.refresh(token).await?))
}

/// Ends the caller's session: 204.
pub async fn log_out(caller: Caller, local: LocalAccountsData) -> Result<HttpResponse, ApiError> {
    accounts(&local)?.log_out(&caller).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Ends every session of the caller: 204.
pub async fn log_out_everywhere(
    caller: Caller,
    local: LocalAccountsData,
) -> Result<HttpResponse, ApiError> {
    accounts(&local)?
        .end_sessions(caller.user.as_str(), None)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Changes the caller's password; every other session ends. 200 with a fresh token.
pub async fn change_password(
    caller: Caller,
    local: LocalAccountsData,
    body: web::Json<PasswordChange>,
) -> Result<HttpResponse, ApiError> {
    let issued = accounts(&local)?
        .change_password(&caller, &body.current_password, &body.new_password)
        .await?;
    Ok(data(issued))
}

/// Whether an invitation link still works: 200, or 404 when unknown, used or expired.
pub async fn invitation(
    local: LocalAccountsData,
    invitations: web::Data<Invitations>,
    secret: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    accounts(&local)?;
    let open = invitations
        .find_open(&secret, chrono::Utc::now())
        .await
        .map_err(crate::auth::internal)?
        .ok_or_else(|| ApiError::not_found("This invitation has expired or was already used"))?;
    Ok(data(InvitationView {
        expires_at: open.expires_at,
    }))
}

/// `POST /api/auth/2fa/setup`: a new authenticator secret, active once confirmed.
pub async fn begin_two_factor(
    caller: Caller,
    local: LocalAccountsData,
) -> Result<HttpResponse, ApiError> {
    let new = accounts(&local)?.begin_two_factor(&caller).await?;
    Ok(data(TwoFactorSetupView {
        secret: new.secret,
        otpauth_url: new.otpauth_url,
    }))
}

/// `POST /api/auth/2fa/enable {code}`: turns the second factor on.
pub async fn enable_two_factor(
    caller: Caller,
    local: LocalAccountsData,
    body: web::Json<Code>,
) -> Result<HttpResponse, ApiError> {
    accounts(&local)?
        .confirm_two_factor(&caller, &body.code)
        .await?;
    Ok(data(TwoFactorView {
        two_factor_enabled: true,
    }))
}

/// `POST /api/auth/2fa/disable {password, code}`: turns it off.
pub async fn disable_two_factor(
    caller: Caller,
    local: LocalAccountsData,
    body: web::Json<PasswordAndCode>,
) -> Result<HttpResponse, ApiError> {
    accounts(&local)?
        .remove_two_factor(&caller, &body.password, &body.code)
        .await?;
    Ok(data(TwoFactorView {
        two_factor_enabled: false,
    }))
}
