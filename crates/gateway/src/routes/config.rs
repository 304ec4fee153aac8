//! `GET /config.json`: what the SPA needs to know before anyone signs in, so one build of the
//! SPA runs against any deployment.

use actix_web::{HttpResponse, web};
use scribevault_core::AuthMode;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::auth::local::SignUpPolicy;
use crate::config::AuthConfig;
use crate::context::Context;
use crate::error::ApiError;
use crate::routes::table::{Access, RouteList};

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

/// What the SPA needs before anyone signs in: the auth mode and, for OIDC, the issuer to sign
/// in with. Never contains a secret.
///
/// # Errors
/// The members cannot be read (local mode).
#[utoipa::path(get, path = "/config.json", tag = "meta", responses((status = 200, body = ClientConfig)))]
pub async fn client_config(context: Context) -> Result<HttpResponse, ApiError> {
    let mut config = context.client_config.clone();
    if let ClientConfig::Local { signup } = &mut config
        && context.access.members.is_empty().await?
    {
        *signup = SignUpPolicy::Open.as_str();
    }
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-cache"))
        .json(config))
}

#[derive(OpenApi)]
#[openapi(paths(client_config))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_client_config>(Access::Public, || web::to(client_config))
        .answered_from_memory()
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
