//! What the gateway reads from the settings, checked once at start-up (like every service's
//! `Config: TryFrom<&Settings>`), so the rest of the crate never touches `Settings`.

use std::path::PathBuf;
use std::time::Duration;

use scribevault_core::net::Cidr;
use scribevault_core::settings::list as settings_list;
use scribevault_core::{AuthMode, Settings};
use secrecy::{ExposeSecret as _, SecretString};

use crate::auth::local::SignUpPolicy;
use crate::auth::oidc::OidcPolicy;
use crate::startup_error::StartupError;

/// The gateway's configuration.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// `SCRIBEVAULT_HTTP_ADDR`: the public port.
    pub http_addr: String,
    /// `SCRIBEVAULT_ADMIN_HTTP_ADDR`: `/metrics` and detailed readiness (loopback, port 0, when unset).
    pub admin_http_addr: String,
    pub auth: AuthConfig,
    /// Where the built SPA is.
    pub frontend_dir: PathBuf,
    /// The gateway's own files (the local accounts' signing key when none is given).
    pub data_dir: PathBuf,
    /// `SCRIBEVAULT_REDIS_URL`: login limits shared by every replica; in-process when unset.
    pub redis_url: Option<SecretString>,
    pub limits: RequestLimits,
    /// `SCRIBEVAULT_PUBLIC_URL`: the base of podcast feeds' links.
    pub public_url: Option<url::Url>,
    /// The OpenAI-compatible endpoint's waits and bounds.
    pub openai: OpenAiConfig,
}

/// How `POST /v1/audio/transcriptions` is bounded: it takes a member's file of any container
/// and transcodes it here, so it waits, spools and decodes within these.
#[derive(Debug, Clone)]
pub struct OpenAiConfig {
    /// `SCRIBEVAULT_OPENAI_WAIT_SECONDS`: how long a request waits for its transcription.
    pub wait: Duration,
    /// `SCRIBEVAULT_OPENAI_TRANSCODES`: uploads spooled and transcoded at once.
    pub transcodes: usize,
    /// `SCRIBEVAULT_OPENAI_TRANSCODES_PER_USER`: the same for one member.
    pub transcodes_per_user: usize,
    /// `SCRIBEVAULT_MAX_AUDIO_SECONDS`: the transcoder stops just past it, and storage refuses
    /// what is longer.
    pub max_audio_seconds: u64,
}

/// Who gets in, and how.
#[derive(Debug, Clone)]
pub struct AuthConfig {
    pub mode: AuthMode,
    /// Signs local session tokens; generated into `data_dir` when unset.
    pub jwt_key: Option<SecretString>,
    pub token_ttl: Duration,
    pub session_ttl: Duration,
    pub session_lifetime: Duration,
    pub sign_up: SignUpPolicy,
    pub argon2_concurrency: usize,
    pub login_attempts_per_minute: u32,
    pub invitation_hours: u64,
    /// Addresses whose `X-Forwarded-*` headers are believed.
    pub trusted_proxies: Vec<Cidr>,
    pub oidc: OidcConfig,
}

/// The OIDC issuer (used in `oidc` mode only).
#[derive(Debug, Clone)]
pub struct OidcConfig {
    pub issuer: String,
    pub audience: String,
    pub client_id: Option<String>,
    pub jwks_refetch: Duration,
    pub policy: OidcPolicy,
}

/// Request sizes the routes refuse past.
#[derive(Debug, Clone, Copy)]
pub struct RequestLimits {
    pub upload_bytes: u64,
    pub pdf_bytes: u64,
    pub json_bytes: usize,
}

impl TryFrom<&Settings> for GatewayConfig {
    type Error = StartupError;

    fn try_from(settings: &Settings) -> Result<Self, StartupError> {
        let mode = settings.auth_mode().map_err(StartupError::Settings)?;
        Ok(Self {
            http_addr: settings.http_addr.clone(),
            admin_http_addr: settings
                .admin_http_addr
                .clone()
                .unwrap_or_else(|| "127.0.0.1:0".to_owned()),
            auth: AuthConfig {
                mode,
                jwt_key: settings
                    .jwt_key
                    .as_ref()
                    .map(|key| SecretString::from(key.expose_secret().to_owned())),
                token_ttl: Duration::from_secs(settings.token_ttl_seconds),
                session_ttl: Duration::from_secs(settings.session_ttl_seconds),
                session_lifetime: Duration::from_secs(settings.session_lifetime_seconds),
                sign_up: SignUpPolicy::from_setting(&settings.signup),
                argon2_concurrency: settings.argon2_concurrency,
                login_attempts_per_minute: settings.login_attempts_per_minute,
                invitation_hours: settings.invitation_hours,
                trusted_proxies: settings.trusted_proxy_ranges(),
                oidc: OidcConfig {
                    issuer: settings.oidc_issuer.clone().unwrap_or_default(),
                    audience: settings.oidc_audience.clone().unwrap_or_default(),
                    client_id: settings.oidc_client_id.clone(),
                    jwks_refetch: Duration::from_secs(settings.oidc_jwks_refetch_seconds),
                    policy: oidc_policy(settings),
                },
            },
            frontend_dir: settings.frontend_dir.clone(),
            data_dir: settings.data_dir.clone(),
            redis_url: settings.redis_url.clone().map(SecretString::from),
            limits: RequestLimits {
                upload_bytes: settings.max_upload_bytes,
                pdf_bytes: settings.max_pdf_bytes,
                json_bytes: settings.max_json_bytes,
            },
            public_url: settings.public_url.as_deref().map(public_url).transpose()?,
            openai: OpenAiConfig {
                wait: Duration::from_secs(settings.openai_wait_seconds),
                transcodes: settings.openai_transcodes,
                transcodes_per_user: settings.openai_transcodes_per_user,
                max_audio_seconds: settings.max_audio_seconds,
            },
        })
    }
}

/// `SCRIBEVAULT_PUBLIC_URL`: an absolute http(s) URL without query or fragment.
fn public_url(value: &str) -> Result<url::Url, StartupError> {
    let invalid = |reason: &str| {
        StartupError::Settings(scribevault_core::settings::SettingsError::invalid(
            "SCRIBEVAULT_PUBLIC_URL",
            reason,
        ))
    };
    let url = url::Url::parse(value.trim()).map_err(|error| invalid(&error.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(invalid(
            "expected an http or https URL, e.g. https://vault.example.com",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid("must have no query or fragment"));
    }
    Ok(url)
}

fn lower_list(value: Option<&str>) -> Vec<String> {
    value
        .map(|value| settings_list(value).map(str::to_lowercase).collect())
        .unwrap_or_default()
}

fn oidc_policy(settings: &Settings) -> OidcPolicy {
    OidcPolicy {
        client_id: settings.oidc_client_id.clone(),
        allowed_emails: lower_list(settings.oidc_allowed_emails.as_deref()),
        allowed_domains: lower_list(settings.oidc_allowed_domains.as_deref()),
        required_claim: settings.oidc_required_claim.as_deref().and_then(|claim| {
            claim
                .split_once('=')
                .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        }),
        admin_emails: lower_list(settings.admin_emails.as_deref()),
    }
}
