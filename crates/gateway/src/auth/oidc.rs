//! Access tokens of an external OIDC issuer (Auth0 or any other), verified against the issuer's
//! JWKS.
//!
//! Only RS256 is accepted; issuer, audience and expiry (30 s leeway) are checked. The key set is
//! cached; a token whose `kid` is unknown triggers a refetch (keys rotate), but at most once a
//! minute (`SCRIBEVAULT_OIDC_JWKS_REFETCH_SECONDS`), so a flood of forged `kid`s cannot turn us into a traffic amplifier.

use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use scribevault_core::UserId;
use serde::Deserialize;
use tokio::sync::{Mutex, RwLock};

use super::{AuthError, TokenVerifier};

#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
}

#[derive(Debug, Deserialize)]
struct Discovery {
    jwks_uri: String,
}

/// Verifies RS256 access tokens of one issuer and audience.
pub struct OidcVerifier {
    issuer: String,
    audience: String,
    http: reqwest::Client,
    keys: RwLock<Option<JwkSet>>,
    last_fetch: Mutex<Option<Instant>>,
    min_refetch_interval: Duration,
}

impl OidcVerifier {
    /// A verifier for `issuer` (as it appears in `iss`) and `audience`. Keys are fetched on
    /// first use and refetched at most once per `min_refetch_interval`.
    #[must_use]
    pub fn new(issuer: &str, audience: &str, min_refetch_interval: Duration) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Self {
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            http,
            keys: RwLock::new(None),
            last_fetch: Mutex::new(None),
            min_refetch_interval,
        }
    }

    async fn jwks_uri(&self) -> Result<String, AuthError> {
        let base = self.issuer.trim_end_matches('/');
        let discovery_url = format!("{base}/.well-known/openid-configuration");
        match self.http.get(&discovery_url).send().await {
            Ok(response) if response.status().is_success() => {
                let discovery: Discovery = response
                    .json()
                    .await
                    .map_err(|e| AuthError::ProviderUnavailable(e.to_string()))?;
                Ok(discovery.jwks_uri)
            }
            // Auth0 and most issuers also publish the key set at this well-known path.
            _ => Ok(format!("{base}/.well-known/jwks.json")),
        }
    }

    /// Fetches the key set unless one was fetched less than a minute ago.
    async fn refresh_keys(&self) -> Result<(), AuthError> {
        let mut last_fetch = self.last_fetch.lock().await;
        if last_fetch.is_some_and(|at| at.elapsed() < self.min_refetch_interval) {
            return Ok(());
        }
        *last_fetch = Some(Instant::now());
        let uri = self.jwks_uri().await?;
        let response = self
            .http
            .get(&uri)
            .send()
            .await
            .map_err(|e| AuthError::ProviderUnavailable(e.to_string()))?;
        if !response.status().is_success() {
            return Err(AuthError::ProviderUnavailable(format!(
                "{uri} answered {}",
                response.status()
            )));
        }
        let keys: JwkSet = response
            .json()
            .await
            .map_err(|e| AuthError::ProviderUnavailable(e.to_string()))?;
        *self.keys.write().await = Some(keys);
        Ok(())
    }

    async fn key_for(&self, kid: &str) -> Result<DecodingKey, AuthError> {
        for attempt in 0..2 {
            if let Some(keys) = self.keys.read().await.as_ref()
                && let Some(jwk) = keys.find(kid)
            {
                return DecodingKey::from_jwk(jwk)
                    .map_err(|e| AuthError::InvalidToken(e.to_string()));
            }
            if attempt == 0 {
                self.refresh_keys().await?;
            }
        }
        Err(AuthError::InvalidToken(format!("unknown key id {kid}")))
    }
}

#[async_trait::async_trait]
impl TokenVerifier for OidcVerifier {
    async fn verify(&self, token: &str) -> Result<UserId, AuthError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| AuthError::InvalidToken(e.to_string()))?;
        if header.alg != Algorithm::RS256 {
            return Err(AuthError::InvalidToken(format!(
                "algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let kid = header
            .kid
            .ok_or_else(|| AuthError::InvalidToken("token has no kid".into()))?;
        let key = self.key_for(&kid).await?;
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 30;
        let data = jsonwebtoken::decode::<Claims>(token, &key, &validation)
            .map_err(|e| AuthError::InvalidToken(e.to_string()))?;
        Ok(UserId::new(data.claims.sub))
    }
}
