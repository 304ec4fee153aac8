//! `GET /config.json`: what the SPA needs to know before anyone signs in, so one build of the
//! SPA runs against any deployment.

use actix_web::{HttpResponse, web};
use scribevault_core::{AuthMode, Settings};

/// The public client configuration, computed once at start.
pub struct ClientConfig(pub serde_json::Value);

impl ClientConfig {
    /// Derived from the settings; never contains a secret.
    #[must_use]
    pub fn from_settings(settings: &Settings, mode: AuthMode) -> Self {
        let value = match mode {
            AuthMode::Local => serde_json::json!({ "authMode": "local" }),
            AuthMode::Oidc => {
                let issuer = settings.oidc_issuer.clone().unwrap_or_default();
                let domain = url::Url::parse(&issuer)
                    .ok()
                    .and_then(|url| url.host_str().map(str::to_owned))
                    .unwrap_or_default();
                serde_json::json!({
                    "authMode": "oidc",
                    "domain": domain,
                    "issuer": issuer,
                    "clientId": settings.oidc_client_id.clone().unwrap_or_default(),
                    "audience": settings.oidc_audience.clone().unwrap_or_default(),
                })
            }
        };
        Self(value)
    }
}

/// Answers the client configuration.
pub async fn client_config(config: web::Data<ClientConfig>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-cache"))
        .json(&config.0)
}
