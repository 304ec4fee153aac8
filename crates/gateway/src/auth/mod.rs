//! Authentication at the edge: a middleware that refuses every `/api` request without a valid
//! token (except `/api/auth/*`), and the [`AuthenticatedUser`] extractor handlers use to learn
//! who is calling. Tokens are verified by a [`TokenVerifier`]: local accounts or an OIDC issuer.

mod account_store;
pub mod local;
pub mod oidc;

use std::future::{Ready, ready};
use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage as _, HttpRequest, web};
use scribevault_core::{ErrorCode, UserId};

use crate::error::ApiError;

/// Why authentication failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// No bearer token was sent.
    #[error("Authentication required")]
    MissingToken,
    /// The token is malformed, expired, of the wrong algorithm, issuer or audience, or signed
    /// by another key. Callers learn nothing more specific.
    #[error("Invalid or expired token")]
    InvalidToken(String),
    /// Email is not a plausible address.
    #[error("Please enter a valid email address")]
    InvalidEmail,
    /// Password under 8 characters.
    #[error("Password must be at least 8 characters")]
    PasswordTooShort,
    /// An account with this email exists.
    #[error("An account with this email already exists")]
    EmailTaken,
    /// Unknown email or wrong password: one message for both, so accounts cannot be probed.
    #[error("Invalid email or password")]
    InvalidCredentials,
    /// Too many attempts for this email or client.
    #[error("Too many login attempts. Please try again in a minute.")]
    RateLimited,
    /// Local accounts are not enabled (OIDC mode).
    #[error("Local accounts are disabled; sign in through the identity provider")]
    LocalAccountsDisabled,
    /// The identity provider's keys cannot be fetched.
    #[error("identity provider unavailable: {0}")]
    ProviderUnavailable(String),
    /// Unexpected failure (database, hashing).
    #[error("authentication failure: {0}")]
    Internal(String),
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        let code = match &error {
            AuthError::MissingToken
            | AuthError::InvalidToken(_)
            | AuthError::InvalidCredentials => ErrorCode::Unauthenticated,
            AuthError::InvalidEmail | AuthError::PasswordTooShort => ErrorCode::BadRequest,
            AuthError::EmailTaken => ErrorCode::Conflict,
            AuthError::RateLimited => ErrorCode::TooManyRequests,
            AuthError::LocalAccountsDisabled => ErrorCode::NotFound,
            AuthError::ProviderUnavailable(_) => ErrorCode::Unavailable,
            AuthError::Internal(detail) => return ApiError::internal(detail),
        };
        if let AuthError::InvalidToken(reason) = &error {
            tracing::debug!(reason = %reason, "token rejected");
        }
        if let AuthError::ProviderUnavailable(reason) = &error {
            tracing::error!(reason = %reason, "cannot verify tokens");
        }
        ApiError::new(code, error.to_string())
    }
}

/// Verifies bearer tokens.
#[async_trait::async_trait]
pub trait TokenVerifier: Send + Sync {
    /// The user a valid token belongs to.
    async fn verify(&self, token: &str) -> Result<UserId, AuthError>;
}

/// The verifier in use, shared by the middleware and the realtime socket.
pub type SharedVerifier = Arc<dyn TokenVerifier>;

/// The bearer token of a request, if any.
fn bearer_token(request: &HttpRequest) -> Option<&str> {
    let value = request
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|token| !token.is_empty())
}

/// Lets through `/api/auth/*`, the signed export links (`/api/library/exports/*`, whose
/// signature the library checks: a browser download carries no bearer header) and non-API
/// paths; every other `/api` request needs a valid token.
pub async fn require_authentication(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let path = request.path();
    let protected = (path == "/api" || path.starts_with("/api/"))
        && !path.starts_with("/api/auth/")
        && !path.starts_with("/api/library/exports/");
    if protected {
        let verifier = request
            .app_data::<web::Data<SharedVerifier>>()
            .cloned()
            .ok_or_else(|| ApiError::internal("no token verifier configured"))?;
        let token = bearer_token(request.request())
            .ok_or(AuthError::MissingToken)
            .map_err(ApiError::from)?;
        let user = verifier.verify(token).await.map_err(ApiError::from)?;
        request.extensions_mut().insert(user);
    }
    next.call(request).await
}

/// The verified caller of a protected route.
pub struct AuthenticatedUser(pub UserId);

impl FromRequest for AuthenticatedUser {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(
            request
                .extensions()
                .get::<UserId>()
                .cloned()
                .map(AuthenticatedUser)
                .ok_or_else(|| AuthError::MissingToken.into()),
        )
    }
}
