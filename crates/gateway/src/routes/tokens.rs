//! `/api/tokens`: personal API tokens (Settings → Account). Made, listed and revoked by their
//! member when signed in interactively; a call made with an API token cannot manage tokens, so a
//! leaked one cannot mint itself a successor.

use actix_web::{HttpResponse, web};
use chrono::{DateTime, Utc};
use scribevault_core::ErrorCode;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::auth::api_tokens::{ApiToken, MAX_TOKENS_PER_USER, NewToken};
use crate::auth::{InteractiveCaller, Revoked};
use crate::context::Context;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// Longest token name, in characters.
const MAX_NAME_CHARS: usize = 100;

/// A token as Settings lists it: never its secret.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiTokenView {
    id: String,
    name: String,
    created_at: DateTime<Utc>,
    /// Absent: the token does not expire.
    expires_at: Option<DateTime<Utc>>,
    /// Recorded to the minute.
    last_used_at: Option<DateTime<Utc>>,
    /// Whether `/v1/audio/transcriptions` calls made with it are also kept in the Vault.
    save_to_vault: bool,
    /// Past its expiry: refused, kept in the list until revoked so its owner sees why.
    expired: bool,
}

impl ApiTokenView {
    fn new(token: ApiToken, now: DateTime<Utc>) -> Self {
        Self {
            expired: !token.is_live(now),
            id: token.id,
            name: token.name,
            created_at: token.created_at,
            expires_at: token.expires_at,
            last_used_at: token.last_used_at,
            save_to_vault: token.save_to_vault,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ApiTokensView {
    tokens: Vec<ApiTokenView>,
}

/// A new token with its secret, shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewApiTokenView {
    id: String,
    /// `svt_…`: send as `Authorization: Bearer <token>`. Not retrievable later.
    token: String,
    #[serde(flatten)]
    details: ApiTokenView,
}

/// What a token is made with.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewApiTokenRequest {
    /// What the token is for ("Open WebUI", "backup script"), 1–100 characters.
    name: String,
    /// When it stops working (RFC 3339, in the future); absent or null: never.
    #[serde(default)]
    expires_at: Option<DateTime<Utc>>,
    /// Default true.
    #[serde(default)]
    save_to_vault: Option<bool>,
}

/// A change to a token (its name or whether its transcriptions go to the Vault).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApiTokenChange {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    save_to_vault: Option<bool>,
}

fn checked_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(format!(
            "name must be 1 to {MAX_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "name must not contain control characters",
        ));
    }
    Ok(name.to_owned())
}

/// Makes a personal API token; its secret is in this answer only.
///
/// # Errors
/// A bad name or an expiry in the past (400), too many tokens (409), a call made with an API
/// token (403).
#[utoipa::path(post, path = "/api/tokens", tag = "tokens", request_body = NewApiTokenRequest,
    responses(
        (status = 201, body = Envelope<NewApiTokenView>),
        (status = 403, description = "Called with an API token", body = ErrorBody),
        (status = 409, description = "Too many tokens", body = ErrorBody)))]
pub async fn create_token(
    caller: InteractiveCaller,
    context: Context,
    body: web::Json<NewApiTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let name = checked_name(&body.name)?;
    let now = Utc::now();
    if body.expires_at.is_some_and(|expires_at| expires_at <= now) {
        return Err(ApiError::bad_request("expiresAt must be in the future"));
    }
    let user = caller.0.user.as_str();
    if context.access.tokens.list(user).await?.len() >= MAX_TOKENS_PER_USER {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            format!(
                "You have {MAX_TOKENS_PER_USER} tokens, the most one account may hold; revoke one first"
            ),
        ));
    }
    let new = NewToken {
        name,
        expires_at: body.expires_at,
        save_to_vault: body.save_to_vault.unwrap_or(true),
    };
    let (token, secret) = context.access.tokens.create(user, new, now).await?;
    tracing::info!(user = %user, token = %token.id, "API token created");
    Ok(created(NewApiTokenView {
        id: token.id.clone(),
        token: secret,
        details: ApiTokenView::new(token, now),
    }))
}

/// The caller's tokens, newest first (never their secrets).
///
/// # Errors
/// A call made with an API token (403).
#[utoipa::path(get, path = "/api/tokens", tag = "tokens",
    responses(
        (status = 200, body = Envelope<ApiTokensView>),
        (status = 403, description = "Called with an API token", body = ErrorBody)))]
pub async fn list_tokens(
    caller: InteractiveCaller,
    context: Context,
) -> Result<HttpResponse, ApiError> {
    let now = Utc::now();
    let tokens = context
        .access
        .tokens
        .list(caller.0.user.as_str())
        .await?
        .into_iter()
        .map(|token| ApiTokenView::new(token, now))
        .collect();
    Ok(data(ApiTokensView { tokens }))
}

/// Renames a token or changes whether its transcriptions are kept in the Vault.
///
/// # Errors
/// Unknown id or another member's (404), a bad name (400), a call made with an API token (403).
#[utoipa::path(patch, path = "/api/tokens/{id}", tag = "tokens", params(("id" = String, Path)),
    request_body = ApiTokenChange,
    responses(
        (status = 200, body = Envelope<ApiTokenView>),
        (status = 403, description = "Called with an API token", body = ErrorBody)))]
pub async fn update_token(
    caller: InteractiveCaller,
    context: Context,
    id: web::Path<String>,
    body: web::Json<ApiTokenChange>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let name = body.name.as_deref().map(checked_name).transpose()?;
    let user = caller.0.user.as_str();
    let token = context
        .access
        .tokens
        .update(user, &id, name, body.save_to_vault)
        .await?
        .ok_or_else(|| ApiError::not_found("No such token"))?;
    Ok(data(ApiTokenView::new(token, Utc::now())))
}

/// Revokes a token at once: its next call is refused and sockets opened with it close.
///
/// # Errors
/// Unknown id or another member's (404), a call made with an API token (403).
#[utoipa::path(delete, path = "/api/tokens/{id}", tag = "tokens", params(("id" = String, Path)),
    responses(
        (status = 204, description = "Revoked"),
        (status = 403, description = "Called with an API token", body = ErrorBody)))]
pub async fn delete_token(
    caller: InteractiveCaller,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = caller.0.user.as_str();
    if !context.access.tokens.delete(user, &id).await? {
        return Err(ApiError::not_found("No such token"));
    }
    context
        .access
        .revocations
        .announce(Revoked::ApiToken(id.into_inner()));
    tracing::info!(user = %user, "API token revoked");
    Ok(HttpResponse::NoContent().finish())
}

#[derive(OpenApi)]
#[openapi(paths(create_token, list_tokens, update_token, delete_token))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_create_token>(SignedIn, || web::to(create_token))
        .add::<__path_list_tokens>(SignedIn, || web::to(list_tokens))
        .add::<__path_update_token>(SignedIn, || web::to(update_token))
        .add::<__path_delete_token>(SignedIn, || web::to(delete_token))
}
