//! The application context the public port's handlers read (the realworld anchor's
//! `ApiContext`): a handler asks for `Context` and nothing it needs can be forgotten at
//! registration. It sits on top: the middleware and extractors below it (authentication,
//! metrics, security headers, the per-user clients, the Socket.IO endpoint) read narrow data of
//! their own, registered beside it in `startup.rs`, so the modules it holds do not import it.

use std::sync::Arc;

use actix_web::web;

use crate::auth::allow_list::EmailAllowList;
use crate::auth::api_tokens::ApiTokens;
use crate::auth::client_address::TrustedProxies;
use crate::auth::invitations::Invitations;
use crate::auth::local::LocalAccounts;
use crate::auth::members::Members;
use crate::auth::{Revocations, SharedVerifier};
use crate::client_config::ClientConfig;
use crate::clients::ServiceClients;
use crate::metrics::HttpMetrics;
use crate::readiness::ReadinessChecks;
pub use crate::realtime::RealtimeState;
use crate::security_headers::ContentSecurityPolicy;
use crate::user_settings::UserSettingsStore;

/// What the public port's handlers share. Cloned into each actix worker behind one `Arc`.
pub struct ApiContext {
    /// Clients of the downstream services; `for_user` gives ones that act for the caller.
    pub clients: ServiceClients,
    /// Who may come in, and how they sign in.
    pub access: AccessState,
    /// Per-user settings (the gateway's own table).
    pub settings: UserSettingsStore,
    /// The client configuration `/config.json` answers.
    pub client_config: ClientConfig,
    /// Where the built SPA is.
    pub frontend_dir: std::path::PathBuf,
    /// The Socket.IO endpoint's own state (registered beside the context, so the realtime
    /// code is tested without the rest of the gateway).
    pub realtime: web::Data<RealtimeState>,
    /// Checks `/readyz` runs, shared with the admin listener.
    pub readiness: Arc<ReadinessChecks>,
    /// Request counters, shared with the admin listener's `/metrics`.
    pub metrics: Arc<HttpMetrics>,
    /// The CSP every page is served with.
    pub csp: ContentSecurityPolicy,
    /// Sizes the routes refuse past.
    pub limits: Limits,
    /// The OpenAI-compatible routes' files in flight and how long a request waits.
    pub openai: crate::openai::OpenAiState,
    /// Private podcast feeds (`/api/feeds`, `/feeds/…`).
    pub feeds: crate::feeds::Feeds,
}

/// Accounts, members and what sign-in shares.
pub struct AccessState {
    pub verifier: SharedVerifier,
    /// Local accounts (`None` in OIDC mode).
    pub local: Option<Arc<LocalAccounts>>,
    pub members: Members,
    /// Personal API tokens (both auth modes).
    pub tokens: ApiTokens,
    pub invitations: Invitations,
    pub revocations: Revocations,
    /// OIDC mode's allow-lists by email, for what outlives a sign-in (tokens, feeds).
    pub allow_list: EmailAllowList,
    pub proxies: TrustedProxies,
    /// How long an invitation lasts unless the admin says otherwise.
    pub invitation_hours: u64,
}

/// Request sizes, from the settings.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest MP3 upload.
    pub upload_bytes: u64,
    /// Largest PDF to convert.
    pub pdf_bytes: u64,
}

/// What a handler takes to reach the context.
pub type Context = web::Data<ApiContext>;
