//! What `/config.json` tells the SPA before anyone signs in, derived once from the auth
//! configuration (the route is `routes/config.rs`; the context holds the value).

use scribevault_core::AuthMode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::local::SignUpPolicy;
use crate::config::AuthConfig;

/// The public client configuration; never contains a secret.
#[derive(Debug, Clone, Serialize, ToSchema)]
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
    /// Derived from the gateway's auth configuration.
    #[must_use]
    pub fn new(auth: &AuthConfig, sign_up: Option<SignUpPolicy>) -> Self {
        match auth.mode {
            AuthMode::Local => Self::Local {
                signup: sign_up.unwrap_or(SignUpPolicy::Invite).as_str(),
            },
            AuthMode::Oidc => Self::Oidc {
                domain: spa_domain(&auth.oidc.issuer),
                issuer: auth.oidc.issuer.clone(),
                client_id: auth.oidc.client_id.clone().unwrap_or_default(),
                audience: auth.oidc.audience.clone(),
            },
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
