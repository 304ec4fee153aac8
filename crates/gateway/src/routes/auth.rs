//! `/api/auth/*`: local sign-up, sign-in and sessions (local mode only; 404 in OIDC mode).

use actix_web::cookie::{Cookie, SameSite, time};
use actix_web::{HttpRequest, HttpResponse, ResponseError as _, web};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::auth::client_address::TrustedProxies;
use crate::auth::limiter::client_key;
use crate::auth::local::{IssuedToken, LocalAccounts, RefreshCredential, SignedIn, WithRefresh};
use crate::auth::{AuthError, InteractiveCaller};
use crate::context::Context;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::table::{Access, RouteList};

#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    email: String,
    password: String,
    /// The authenticator code, for an account with a second factor.
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct Code {
    code: String,
}

#[derive(Deserialize, ToSchema)]
pub struct PasswordAndCode {
    password: String,
    /// A current authenticator code, or a recovery code.
    code: String,
}

/// Setting up a second factor: the password, and while one is active a current code of it (or
/// a recovery code), so a session alone cannot replace it.
#[derive(Deserialize, ToSchema)]
pub struct TwoFactorSetup {
    password: String,
    #[serde(default)]
    code: Option<String>,
}

/// The factor turned on, and its recovery codes, shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorEnabledView {
    two_factor_enabled: bool,
    recovery_codes: Vec<String>,
}

/// A new authenticator secret, shown once for the app to scan.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorSetupView {
    secret: String,
    otpauth_url: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TwoFactorView {
    two_factor_enabled: bool,
}

#[derive(Deserialize, ToSchema)]
pub struct SignUp {
    email: String,
    password: String,
    /// The secret of an invitation link (`/sign-up?invitation=…`).
    #[serde(default)]
    invitation: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    current_password: String,
    new_password: String,
}

/// An open invitation, as the sign-up screen checks it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenInvitationView {
    expires_at: chrono::DateTime<chrono::Utc>,
}

fn accounts(context: &Context) -> Result<&LocalAccounts, ApiError> {
    context
        .access
        .local
        .as_deref()
        .ok_or_else(|| AuthError::LocalAccountsDisabled.into())
}

/// The key limits count by: the client address, through trusted proxies only.
fn client(request: &HttpRequest, proxies: &TrustedProxies) -> String {
    proxies
        .client_of(request)
        .map(client_key)
        .unwrap_or_default()
}

/// The cookie that carries a session's refresh credential. Only the refresh route ever sees it;
/// script cannot read it, and another site cannot make the browser send it.
const REFRESH_COOKIE: &str = "scribevault_refresh";
const REFRESH_PATH: &str = "/api/auth/refresh";

/// Whether the browser reached us over TLS, so the cookie may only travel that way too.
fn served_over_tls(request: &HttpRequest, context: &Context) -> bool {
    context
        .access
        .proxies
        .public_origin(request, context.feeds.public_url.as_ref())
        .is_ok_and(|origin| origin.scheme() == "https")
}

fn refresh_cookie(
    request: &HttpRequest,
    context: &Context,
    credential: Option<&RefreshCredential>,
) -> Cookie<'static> {
    let (value, max_age) = match credential {
        Some(credential) => (
            credential.value.clone(),
            (credential.expires_at - chrono::Utc::now())
                .num_seconds()
                .max(0),
        ),
        // Removal: the same name and path, already expired.
        None => (String::new(), 0),
    };
    Cookie::build(REFRESH_COOKIE, value)
        .path(REFRESH_PATH)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(served_over_tls(request, context))
        .max_age(time::Duration::seconds(max_age))
        .finish()
}

/// `response` with the refresh cookie set to `credential`, or removed.
fn with_refresh_cookie(
    mut response: HttpResponse,
    request: &HttpRequest,
    context: &Context,
    credential: Option<&RefreshCredential>,
) -> Result<HttpResponse, ApiError> {
    response
        .add_cookie(&refresh_cookie(request, context, credential))
        .map_err(crate::auth::internal)?;
    Ok(response)
}

/// Creates a local account: 201 with a token; 403 without a needed invitation or when closed;
/// 409 when it cannot be created; 400 for bad input; 429 when rate-limited.
#[utoipa::path(post, path = "/api/auth/signup", tag = "auth", request_body = SignUp, responses(
    (status = 201, body = Envelope<SignedIn>),
    (status = 403, description = "Sign-up is closed, or needs a valid invitation", body = crate::routes::openapi::ErrorBody),
    (status = 409, description = "The account cannot be created", body = crate::routes::openapi::ErrorBody),
    (status = 429, description = "Too many attempts from this address", body = crate::routes::openapi::ErrorBody),
))]
pub async fn sign_up(
    request: HttpRequest,
    context: Context,
    body: web::Json<SignUp>,
) -> Result<HttpResponse, ApiError> {
    let WithRefresh { body, refresh } = accounts(&context)?
        .sign_up(
            &body.email,
            &body.password,
            body.invitation.as_deref(),
            &client(&request, &context.access.proxies),
        )
        .await?;
    with_refresh_cookie(created(body), &request, &context, Some(&refresh))
}

/// Signs in: 200 with a token, 401 for unknown email or wrong password, 403 for a disabled
/// account, 429 when rate-limited.
#[utoipa::path(post, path = "/api/auth/login", tag = "auth", request_body = Credentials, responses(
    (status = 200, body = Envelope<SignedIn>),
    (status = 401, description = "Unknown email, wrong password or a missing or wrong code", body = crate::routes::openapi::ErrorBody),
    (status = 403, description = "The account is disabled", body = crate::routes::openapi::ErrorBody),
    (status = 429, description = "Too many attempts", body = crate::routes::openapi::ErrorBody),
))]
pub async fn log_in(
    request: HttpRequest,
    context: Context,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    let WithRefresh { body, refresh } = accounts(&context)?
        .log_in(
            &body.email,
            &body.password,
            body.code.as_deref(),
            &client(&request, &context.access.proxies),
        )
        .await?;
    with_refresh_cookie(data(body), &request, &context, Some(&refresh))
}

/// A new short-lived token for the session whose refresh cookie comes with the request, and a
/// new cookie in place of the one spent: the SPA renews before expiry, after a sleep and on
/// start. No access token is taken here, expired or not.
#[utoipa::path(post, path = "/api/auth/refresh", tag = "auth",
    params(("scribevault_refresh" = String, Cookie, description = "The session's refresh credential, set by sign-in (httpOnly)")),
    responses(
        (status = 200, body = Envelope<IssuedToken>),
        (status = 401, description = "No cookie, a spent one (which ends its session), or the session has ended", body = crate::routes::openapi::ErrorBody),
        (status = 409, description = "The cookie was swapped a moment ago by another request of this browser (a second tab); ask again, the browser now sends the new one", body = crate::routes::openapi::ErrorBody),
    ))]
pub async fn refresh(request: HttpRequest, context: Context) -> Result<HttpResponse, ApiError> {
    let accounts = accounts(&context)?;
    let renewed = match request.cookie(REFRESH_COOKIE) {
        Some(cookie) if !cookie.value().is_empty() => accounts.refresh(cookie.value()).await,
        _ => Err(AuthError::MissingToken),
    };
    match renewed {
        Ok(WithRefresh { body, refresh }) => {
            with_refresh_cookie(data(body), &request, &context, Some(&refresh))
        }
        // The browser holds the newer cookie already: leave it.
        Err(AuthError::RenewedElsewhere) => {
            Ok(ApiError::from(AuthError::RenewedElsewhere).error_response())
        }
        // A refused cookie is of no further use: the browser drops it.
        Err(error) => with_refresh_cookie(
            ApiError::from(error).error_response(),
            &request,
            &context,
            None,
        ),
    }
}

/// Ends the caller's session: 204.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth", responses((status = 204, description = "Signed out")))]
pub async fn log_out(
    InteractiveCaller(caller): InteractiveCaller,
    request: HttpRequest,
    context: Context,
) -> Result<HttpResponse, ApiError> {
    accounts(&context)?.log_out(&caller).await?;
    with_refresh_cookie(HttpResponse::NoContent().finish(), &request, &context, None)
}

/// Ends every session of the caller: 204.
#[utoipa::path(post, path = "/api/auth/logout-all", tag = "auth", responses((status = 204, description = "Every session ended")))]
pub async fn log_out_everywhere(
    InteractiveCaller(caller): InteractiveCaller,
    request: HttpRequest,
    context: Context,
) -> Result<HttpResponse, ApiError> {
    accounts(&context)?
        .end_sessions(caller.user.as_str())
        .await?;
    with_refresh_cookie(HttpResponse::NoContent().finish(), &request, &context, None)
}

/// Changes the caller's password; every session ends, and the caller gets a new one: 200 with
/// its token (and its refresh cookie).
#[utoipa::path(post, path = "/api/auth/password", tag = "auth", request_body = PasswordChange, responses(
    (status = 200, body = Envelope<IssuedToken>),
    (status = 400, description = "The current password is wrong, or the new one is not good enough", body = crate::routes::openapi::ErrorBody),
    (status = 429, description = "Too many wrong passwords for this account", body = crate::routes::openapi::ErrorBody),
))]
pub async fn change_password(
    InteractiveCaller(caller): InteractiveCaller,
    request: HttpRequest,
    context: Context,
    body: web::Json<PasswordChange>,
) -> Result<HttpResponse, ApiError> {
    let WithRefresh { body, refresh } = accounts(&context)?
        .change_password(&caller, &body.current_password, &body.new_password)
        .await?;
    with_refresh_cookie(data(body), &request, &context, Some(&refresh))
}

/// Whether an invitation link still works: 200, or 404 when unknown, used or expired.
#[utoipa::path(get, path = "/api/auth/invitations/{secret}", tag = "auth",
    params(("secret" = String, Path, description = "The secret of the invitation link")),
    responses((status = 200, body = Envelope<OpenInvitationView>)))]
pub async fn invitation(
    context: Context,
    secret: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    accounts(&context)?;
    let open = context
        .access
        .invitations
        .find_open(&secret, chrono::Utc::now())
        .await
        .map_err(crate::auth::internal)?
        .ok_or_else(|| ApiError::not_found("This invitation has expired or was already used"))?;
    Ok(data(OpenInvitationView {
        expires_at: open.expires_at,
    }))
}

/// A new authenticator secret, active once confirmed. Needs the password, and while a factor is
/// active a current code of it or a recovery code.
#[utoipa::path(post, path = "/api/auth/2fa/setup", tag = "auth", request_body = TwoFactorSetup, responses(
    (status = 200, body = Envelope<TwoFactorSetupView>),
    (status = 400, description = "The password is wrong, or a current code is missing or wrong", body = crate::routes::openapi::ErrorBody),
    (status = 429, description = "Too many wrong passwords for this account", body = crate::routes::openapi::ErrorBody),
))]
pub async fn begin_two_factor(
    InteractiveCaller(caller): InteractiveCaller,
    context: Context,
    body: web::Json<TwoFactorSetup>,
) -> Result<HttpResponse, ApiError> {
    let new = accounts(&context)?
        .begin_two_factor(&caller, &body.password, body.code.as_deref())
        .await?;
    Ok(data(TwoFactorSetupView {
        secret: new.secret,
        otpauth_url: new.otpauth_url,
    }))
}

/// Turns the second factor on (or replaces it) with a code of the new secret; answers ten
/// recovery codes, shown this once (earlier ones stop working).
#[utoipa::path(post, path = "/api/auth/2fa/enable", tag = "auth", request_body = Code, responses(
    (status = 200, body = Envelope<TwoFactorEnabledView>),
    (status = 400, description = "The code is wrong", body = crate::routes::openapi::ErrorBody),
))]
pub async fn enable_two_factor(
    InteractiveCaller(caller): InteractiveCaller,
    context: Context,
    body: web::Json<Code>,
) -> Result<HttpResponse, ApiError> {
    let recovery_codes = accounts(&context)?
        .confirm_two_factor(&caller, &body.code)
        .await?;
    Ok(data(TwoFactorEnabledView {
        two_factor_enabled: true,
        recovery_codes,
    }))
}

/// Turns the second factor off (needs the password and a current code or a recovery code).
#[utoipa::path(post, path = "/api/auth/2fa/disable", tag = "auth", request_body = PasswordAndCode, responses(
    (status = 200, body = Envelope<TwoFactorView>),
    (status = 400, description = "The password or code is wrong (not 401: the caller's session is fine, and a 401 would sign the SPA out)", body = crate::routes::openapi::ErrorBody),
))]
pub async fn disable_two_factor(
    InteractiveCaller(caller): InteractiveCaller,
    context: Context,
    body: web::Json<PasswordAndCode>,
) -> Result<HttpResponse, ApiError> {
    accounts(&context)?
        .remove_two_factor(&caller, &body.password, &body.code)
        .await?;
    Ok(data(TwoFactorView {
        two_factor_enabled: false,
    }))
}

#[derive(OpenApi)]
#[openapi(paths(
    sign_up,
    log_in,
    invitation,
    refresh,
    log_out,
    log_out_everywhere,
    change_password,
    begin_two_factor,
    enable_two_factor,
    disable_two_factor
))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::{Public, SignedIn};
    RouteList::default()
        .add::<__path_sign_up>(Public, || web::to(sign_up))
        .add::<__path_log_in>(Public, || web::to(log_in))
        .add::<__path_invitation>(Public, || web::to(invitation))
        // Public: the refresh cookie, not an access token, says whose session it is.
        .add::<__path_refresh>(Public, || web::to(refresh))
        .add::<__path_log_out>(SignedIn, || web::to(log_out))
        .add::<__path_log_out_everywhere>(SignedIn, || web::to(log_out_everywhere))
        .add::<__path_change_password>(SignedIn, || web::to(change_password))
        .add::<__path_begin_two_factor>(SignedIn, || web::to(begin_two_factor))
        .add::<__path_enable_two_factor>(SignedIn, || web::to(enable_two_factor))
        .add::<__path_disable_two_factor>(SignedIn, || web::to(disable_two_factor))
}
