//! `GET /config.json`: what the SPA needs to know before anyone signs in, so one build of the
//! SPA runs against any deployment.

use actix_web::{HttpResponse, web};
use scribevault_core::{AuthMode, Settings};
use serde::Serialize;

use crate::auth::local::SignUpPolicy;
use crate::auth::members::Members;
use crate::error::ApiError;

/// The public client configuration; never contains a secret.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "authMode", rename_all = "camelCase")]
pub enum ClientConfig {
    #[serde(rename = "local")]
    Local {
        /// `open`, `invite` or `closed`; `open` while the instance has no account yet, since
        /// the first sign-up is always allowed (it makes the owner).
        signup: &'static str,
    },
    #[serde(rename = "oidc", rename_all = "camelCase")]
    Oidc {
        /// What auth0-spa-js takes as `domain`: the bare host for `https://host/` (Auth0's
        /// form), else the issuer's origin with its scheme and port, which it uses as given.
        domain: String,
        issuer: String,
        client_id: String,
        audience: String,
    },
}

impl ClientConfig {
    /// Derived from the settings.
    #[must_use]
    pub fn from_settings(
        settings: &Settings,
        mode: AuthMode,
        sign_up: Option<SignUpPolicy>,
    ) -> Self {
        match mode {
            AuthMode::Local => Self::Local {
                signup: sign_up.unwrap_or(SignUpPolicy::Invite).as_str(),
            },
            AuthMode::Oidc => {
                let issuer = settings.oidc_issuer.clone().unwrap_or_default();
                Self::Oidc {
                    domain: spa_domain(&issuer),
                    issuer,
                    client_id: settings.oidc_client_id.clone().unwrap_or_default(),
                    audience: settings.oidc_audience.clone().unwrap_or_default(),
                }
            }
        }
    }
}

fn spa_domain(issuer: &str) -> String {
    let Ok(url) = url::Url::parse(issuer) else {
        return String::new();
    };
    let host = url.host_str().unwrap_or_default();
    if url.scheme() == "https" && url.port().is_none() {
        host.to_owned()
    } else {
        url.origin().ascii_serialization()
    }
}

/// Answers the client configuration.
///
/// # Errors
/// The members cannot be read (local mode).
pub async fn client_config(
    config: web::Data<ClientConfig>,
    members: web::Data<Members>,
) -> Result<HttpResponse, ApiError> {
    let mut config = config.get_ref().clone();
    if let ClientConfig::Local { signup } = &mut config
        && members.is_empty().await?
    {
        *signup = SignUpPolicy::Open.as_str();
    }
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-cache"))
        .json(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spa_gets_a_domain_auth0_spa_js_can_reach() {
        assert_eq!(
            spa_domain("https://tenant.eu.auth0.com/"),
            "tenant.eu.auth0.com"
        );
        assert_eq!(
            spa_domain("http://127.0.0.1:4000/"),
            "http://127.0.0.1:4000"
        );
        assert_eq!(
            spa_domain("https://id.example:8443/"),
            "https://id.example:8443"
        );
    }
}
