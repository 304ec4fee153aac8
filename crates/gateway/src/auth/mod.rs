//! Authentication at the edge. Routes declare their access level in the route table
//! (`routes::table`): public, signed in, or admin. The signed-in ones are wrapped with
//! [`require_authentication`], which verifies the bearer token with a [`TokenVerifier`] (local
//! accounts or an OIDC issuer) and checks the member is not disabled; admin routes also with
//! [`require_admin`]. Handlers learn the caller from [`AuthenticatedUser`] or [`AdminUser`].

pub mod allow_list;
pub mod api_tokens;
pub mod client_address;
pub mod invitations;
pub mod limiter;
pub mod local;
pub mod members;
pub mod oidc;
pub mod password;
pub mod recovery_codes;
pub mod secret;
pub mod sessions;
pub mod two_factor;

mod account_store;

use std::future::{Ready, ready};
use std::sync::Arc;

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{FromRequest, HttpMessage as _, HttpRequest, web};
use scribevault_core::{ErrorCode, UserId};
use tokio::sync::broadcast;

use crate::error::ApiError;

/// Why authentication failed.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// No bearer token was sent.
    #[error("Authentication required")]
    MissingToken,
    /// The token is malformed, expired, of the wrong algorithm, issuer, audience or client,
    /// signed by another key, or its session has ended. Callers learn nothing more specific.
    #[error("Invalid or expired token")]
    InvalidToken(String),
    /// Email is not a plausible address.
    #[error("Please enter a valid email address")]
    InvalidEmail,
    /// Password under 8 characters.
    #[error("Password must be at least 8 characters")]
    PasswordTooShort,
    /// A password a guesser would find early: common, a dictionary word, a keyboard walk, the
    /// email itself (zxcvbn's score under 2); the message carries zxcvbn's advice.
    #[error("This password is too easy to guess.{0} Try a few unrelated words.")]
    PasswordTooWeak(String),
    /// Password over 1,024 bytes (argon2 would hash a megabyte as readily).
    #[error("Password must be at most 1024 characters")]
    PasswordTooLong,
    /// The sign-up cannot create this account (the email is taken). Worded so that it does not
    /// confirm which emails have accounts.
    #[error("Could not create an account with these details. If you already have one, sign in.")]
    EmailTaken,
    /// Unknown email or wrong password: one message for both, so accounts cannot be probed.
    #[error("Invalid email or password")]
    InvalidCredentials,
    /// The account signs in with an authenticator code and none was sent.
    #[error("Enter the 6-digit code from your authenticator app")]
    CodeRequired,
    /// The authenticator code is wrong or was already used.
    #[error(
        "That code is not right. Check that your authenticator app's clock is correct, or wait for the next code."
    )]
    WrongCode,
    /// Setting up or turning off the second factor: the code shown is wrong.
    #[error(
        "That code is not right. Scan the QR code again, or check your authenticator app's clock."
    )]
    WrongSetupCode,
    /// Replacing an active second factor: no code of it was given.
    #[error("Enter a code from the authenticator app you use now, or one of your recovery codes")]
    CurrentCodeRequired,
    /// Replacing an active second factor: the code is not one of it now.
    #[error("That code is not from the authenticator app you use now")]
    WrongCurrentCode,
    /// The current password given to change it is wrong.
    #[error("The current password is not correct")]
    WrongCurrentPassword,
    /// Too many attempts for this account from this client, or from this client.
    #[error("Too many attempts. Please try again in {0} seconds.")]
    RateLimited(u64),
    /// Sign-up needs an invitation this request did not carry (or whose link expired or was
    /// used).
    #[error(
        "Sign-up on this instance needs an invitation. Ask its owner for an invitation link; an invitation works once and expires."
    )]
    InvitationRequired,
    /// Sign-up is closed.
    #[error("Sign-up is closed on this instance. Ask its owner to create your account.")]
    SignUpClosed,
    /// The member was disabled by an admin (at sign-in: the password was right).
    #[error("This account is disabled. Ask the instance's owner to enable it.")]
    AccountDisabled,
    /// A token of a disabled member: 401, so the SPA signs out at once, with the reason.
    #[error("This account is disabled. Ask the instance's owner to enable it.")]
    AccountDisabledToken,
    /// The refresh cookie presented was swapped a moment ago by another request of the same
    /// browser (two tabs at once): the browser holds the new one now, so asking again works.
    /// Nothing is minted and the session goes on.
    #[error("This session was renewed a moment ago by another tab; try again")]
    RenewedElsewhere,
    /// OIDC: the token is valid but its user is not on the instance's allow-list.
    #[error("{0} is not allowed on this instance. Ask its owner to add you.")]
    NotAllowed(String),
    /// A route that manages the account's own access, called with an API token.
    #[error("API tokens cannot do this; sign in to Scribevault to manage your account")]
    InteractiveOnly,
    /// An admin route called by a member who is not an admin.
    #[error("Only an admin of this instance can do this")]
    AdminOnly,
    /// Local accounts are not enabled (OIDC mode).
    #[error("Local accounts are disabled; sign in through the identity provider")]
    LocalAccountsDisabled,
    /// Every password-hashing permit stayed busy for longer than a sign-in should wait.
    #[error("The server is busy. Please try again in a moment.")]
    Busy,
    /// The identity provider's keys cannot be fetched.
    #[error("identity provider unavailable: {0}")]
    ProviderUnavailable(String),
    /// Unexpected failure (database, hashing, cache).
    #[error("authentication failure: {0}")]
    Internal(String),
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        let code = match &error {
            AuthError::MissingToken
            | AuthError::InvalidToken(_)
            | AuthError::AccountDisabledToken
            | AuthError::CodeRequired
            | AuthError::WrongCode
            | AuthError::InvalidCredentials => ErrorCode::Unauthenticated,
            AuthError::InvalidEmail
            | AuthError::PasswordTooShort
            | AuthError::PasswordTooLong
            | AuthError::PasswordTooWeak(_)
            | AuthError::WrongSetupCode
            | AuthError::CurrentCodeRequired
            | AuthError::WrongCurrentCode
            | AuthError::WrongCurrentPassword => ErrorCode::BadRequest,
            AuthError::EmailTaken | AuthError::RenewedElsewhere => ErrorCode::Conflict,
            AuthError::RateLimited(_) => ErrorCode::TooManyRequests,
            AuthError::InvitationRequired
            | AuthError::SignUpClosed
            | AuthError::AccountDisabled
            | AuthError::NotAllowed(_)
            | AuthError::AdminOnly
            | AuthError::InteractiveOnly => ErrorCode::Forbidden,
            AuthError::LocalAccountsDisabled => ErrorCode::NotFound,
            AuthError::Busy | AuthError::ProviderUnavailable(_) => ErrorCode::Unavailable,
            AuthError::Internal(detail) => return ApiError::internal(detail),
        };
        if let AuthError::InvalidToken(reason) = &error {
            tracing::debug!(reason = %reason, "token rejected");
        }
        if let AuthError::ProviderUnavailable(reason) = &error {
            tracing::error!(reason = %reason, "cannot verify tokens");
        }
        let mut api_error = ApiError::new(code, error.to_string());
        if matches!(error, AuthError::CodeRequired | AuthError::WrongCode) {
            // The sign-in screen asks for the code on this, not on the message.
            api_error.details = Some(serde_json::Map::from_iter([(
                "totpRequired".to_owned(),
                serde_json::Value::Bool(true),
            )]));
        }
        api_error
    }
}

/// The credentials table, for the operator's password reset.
pub(crate) fn account_store_for_operator(
    db: sea_orm::DatabaseConnection,
) -> account_store::AccountStore {
    account_store::AccountStore::new(db)
}

pub(crate) fn internal(error: impl std::fmt::Display) -> AuthError {
    AuthError::Internal(error.to_string())
}

/// A verified caller: who, whether an admin, and until when the token holds.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: UserId,
    pub email: String,
    pub is_admin: bool,
    /// The local session the token belongs to (none for OIDC and API tokens).
    pub session: Option<String>,
    /// The personal API token the call came with (`svt_…`), by id.
    pub api_token: Option<String>,
    /// Unix seconds after which the token is refused.
    pub expires_at: i64,
}

/// Verifies bearer tokens.
#[async_trait::async_trait]
pub trait TokenVerifier: Send + Sync {
    /// The member a valid token belongs to, if the member may use the instance now.
    async fn verify(&self, token: &str) -> Result<Caller, AuthError>;
}

/// The verifier in use, shared by the middleware and the realtime socket.
pub type SharedVerifier = Arc<dyn TokenVerifier>;

/// What ended: one session, or every session of a user (sign-out everywhere, password
/// change, disabled or deleted account).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revoked {
    Session(String),
    User(String),
    ApiToken(String),
}

/// Tells this replica's open sockets that a session or user ended, so they close at once
/// (sockets on other replicas find out when they re-check their token).
#[derive(Clone)]
pub struct Revocations(broadcast::Sender<Revoked>);

impl Default for Revocations {
    fn default() -> Self {
        Self(broadcast::channel(256).0)
    }
}

impl Revocations {
    pub fn announce(&self, revoked: Revoked) {
        // No open socket: nobody to tell.
        let _ = self.0.send(revoked);
    }

    #[must_use]
    pub fn subscribe(&self) -> broadcast::Receiver<Revoked> {
        self.0.subscribe()
    }
}

impl Revoked {
    /// Whether the socket of `caller` must re-check its token.
    #[must_use]
    pub fn concerns(&self, caller: &Caller) -> bool {
        match self {
            Self::Session(session) => caller.session.as_deref() == Some(session.as_str()),
            Self::User(user) => caller.user.as_str() == user,
            Self::ApiToken(token) => caller.api_token.as_deref() == Some(token.as_str()),
        }
    }
}

/// The bearer token of a request, if any.
pub(crate) fn bearer_token(request: &HttpRequest) -> Option<&str> {
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

/// Wraps every signed-in route: a valid token of a member who may use the instance, or 401/403.
/// A refusal is answered as a response, not raised as a middleware error, so the outer
/// middleware (security headers, metrics) see it like any other answer.
pub async fn require_authentication(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let Some(verifier) = request.app_data::<web::Data<dyn TokenVerifier>>().cloned() else {
        return Ok(refuse(
            request,
            ApiError::internal("no token verifier configured"),
        ));
    };
    let Some(token) = bearer_token(request.request()).map(str::to_owned) else {
        return Ok(refuse(request, AuthError::MissingToken.into()));
    };
    match verifier.verify(&token).await {
        Ok(caller) => {
            request.extensions_mut().insert(caller);
            Ok(next.call(request).await?.map_into_left_body())
        }
        Err(error) => Ok(refuse(request, error.into())),
    }
}

/// Wraps every admin route (inside [`require_authentication`]): 403 for other members.
pub async fn require_admin(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let is_admin = request
        .extensions()
        .get::<Caller>()
        .is_some_and(|caller| caller.is_admin);
    if !is_admin {
        return Ok(refuse(request, AuthError::AdminOnly.into()));
    }
    Ok(next.call(request).await?.map_into_left_body())
}

fn refuse<B>(request: ServiceRequest, error: ApiError) -> ServiceResponse<EitherBody<B>> {
    request.error_response(error).map_into_right_body()
}

/// The verified caller of a signed-in route.
pub struct AuthenticatedUser(pub UserId);

fn caller_of(request: &HttpRequest) -> Result<Caller, ApiError> {
    request
        .extensions()
        .get::<Caller>()
        .cloned()
        .ok_or_else(|| AuthError::MissingToken.into())
}

impl FromRequest for AuthenticatedUser {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(caller_of(request).map(|caller| Self(caller.user)))
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(caller_of(request))
    }
}

/// The verified caller of a route that manages the account's own access (API tokens, password,
/// second factor, sessions): signed in interactively, not with an API token, so a leaked token
/// can neither mint a successor nor lock its owner out.
pub struct InteractiveCaller(pub Caller);

impl FromRequest for InteractiveCaller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(caller_of(request).and_then(|caller| {
            if caller.api_token.is_some() {
                Err(AuthError::InteractiveOnly.into())
            } else {
                Ok(Self(caller))
            }
        }))
    }
}

/// The verified caller of an admin route.
pub struct AdminUser(pub Caller);

impl FromRequest for AdminUser {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(request: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        ready(caller_of(request).and_then(|caller| {
            if caller.is_admin {
                Ok(Self(caller))
            } else {
                Err(AuthError::AdminOnly.into())
            }
        }))
    }
}
