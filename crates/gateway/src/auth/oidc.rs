//! Access tokens of an external OIDC issuer (Auth0 or any other), verified against the issuer's
//! JWKS, and the instance's owner model on top: which users of the issuer may come in
//! (`SCRIBEVAULT_OIDC_ALLOWED_EMAILS`, `_ALLOWED_DOMAINS`, `_REQUIRED_CLAIM`), who is admin
//! (`SCRIBEVAULT_ADMIN_EMAILS`), and which tokens are not a user of our SPA at all: another
//! client's (`azp`/`client_id` not ours) and machine tokens (`client_credentials`).
//!
//! Only RS256 is accepted; issuer, audience and expiry (30 s leeway) are checked. The key set is
//! cached; a token whose `kid` is unknown triggers a refetch (keys rotate), but at most once a
//! minute (`SCRIBEVAULT_OIDC_JWKS_REFETCH_SECONDS`), so a flood of forged `kid`s cannot turn us into a traffic amplifier.

use std::time::{Duration, Instant};

use chrono::Utc;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use scribevault_core::UserId;
use serde::Deserialize;
use serde_json::{Map, Value};
use tokio::sync::{Mutex, RwLock};

use super::allow_list::EmailAllowList;
use super::members::Members;
use super::{AuthError, Caller, TokenVerifier, internal};

#[derive(Debug, Deserialize)]
struct Discovery {
    jwks_uri: String,
    #[serde(default)]
    userinfo_endpoint: Option<String>,
}

/// Who of the issuer's users may use the instance, and who is admin.
#[derive(Debug, Clone, Default)]
pub struct OidcPolicy {
    /// Our SPA's client id: a token issued to another client is refused.
    pub client_id: Option<String>,
    pub allowed_emails: Vec<String>,
    pub allowed_domains: Vec<String>,
    /// `(claim, value)`: the claim must equal the value or be an array holding it.
    pub required_claim: Option<(String, String)>,
    pub admin_emails: Vec<String>,
}

impl OidcPolicy {
    /// Whether a token with these claims and this (verified) email may come in.
    fn admits(&self, claims: &Map<String, Value>, email: &str) -> Result<(), AuthError> {
        let listed = self.email_allow_list().lists(email);
        let claimed =
            self.required_claim
                .as_ref()
                .is_none_or(|(name, value)| match claims.get(name) {
                    Some(Value::String(actual)) => actual == value,
                    Some(Value::Array(values)) => values.iter().any(|v| v.as_str() == Some(value)),
                    _ => false,
                });
        if listed && claimed {
            Ok(())
        } else {
            Err(AuthError::NotAllowed(email.to_owned()))
        }
    }

    /// The email half of the policy, which API tokens and feeds are checked against too.
    #[must_use]
    pub fn email_allow_list(&self) -> EmailAllowList {
        EmailAllowList {
            emails: self.allowed_emails.clone(),
            domains: self.allowed_domains.clone(),
        }
    }

    /// Refuses tokens that are not a person signed in through our SPA.
    fn check_client(&self, claims: &Map<String, Value>) -> Result<(), AuthError> {
        // Auth0 marks client_credentials tokens with `gty`; other issuers give them no email
        // (checked later) and a subject that is the client itself.
        if claims.get("gty").and_then(Value::as_str) == Some("client-credentials") {
            return Err(AuthError::InvalidToken("machine token".into()));
        }
        let client = claims
            .get("azp")
            .or_else(|| claims.get("client_id"))
            .and_then(Value::as_str);
        if let (Some(sub), Some(client)) = (claims.get("sub").and_then(Value::as_str), client)
            && (sub == client || sub == format!("{client}@clients"))
        {
            return Err(AuthError::InvalidToken("machine token".into()));
        }
        match (&self.client_id, client) {
            (Some(ours), Some(theirs)) if ours != theirs => Err(AuthError::InvalidToken(format!(
                "token of another client ({theirs})"
            ))),
            (Some(_), None) => Err(AuthError::InvalidToken("token names no client".into())),
            _ => Ok(()),
        }
    }
}

/// Verifies RS256 access tokens of one issuer and audience.
pub struct OidcVerifier {
    issuer: String,
    audience: String,
    policy: OidcPolicy,
    members: Members,
    /// Emails learnt from the userinfo endpoint, by `sub` (Auth0 access tokens carry none
    /// unless an Action adds it).
    emails: moka::future::Cache<String, String>,
    http: reqwest::Client,
    keys: RwLock<Option<JwkSet>>,
    last_fetch: Mutex<Option<Instant>>,
    min_refetch_interval: Duration,
}

impl OidcVerifier {
    /// A verifier for `issuer` (as it appears in `iss`) and `audience`. Keys are fetched on
    /// first use and refetched at most once per `min_refetch_interval`.
    #[must_use]
    pub fn new(
        issuer: &str,
        audience: &str,
        min_refetch_interval: Duration,
        policy: OidcPolicy,
        members: Members,
    ) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap_or_default();
        Self {
            issuer: issuer.to_owned(),
            audience: audience.to_owned(),
            policy,
            members,
            emails: moka::future::Cache::builder()
                .max_capacity(10_000)
                .time_to_live(Duration::from_secs(600))
                .build(),
            http,
            keys: RwLock::new(None),
            last_fetch: Mutex::new(None),
            min_refetch_interval,
        }
    }

    async fn discovery(&self) -> Result<Discovery, AuthError> {
        let base = self.issuer.trim_end_matches('/');
        let discovery_url = format!("{base}/.well-known/openid-configuration");
        match self.http.get(&discovery_url).send().await {
            Ok(response) if response.status().is_success() => response
                .json()
                .await
                .map_err(|e| AuthError::ProviderUnavailable(e.to_string())),
            // Auth0 and most issuers also publish the key set at this well-known path.
            _ => Ok(Discovery {
                jwks_uri: format!("{base}/.well-known/jwks.json"),
                userinfo_endpoint: Some(format!("{base}/userinfo")),
            }),
        }
    }

    async fn jwks_uri(&self) -> Result<String, AuthError> {
        Ok(self.discovery().await?.jwks_uri)
    }

    /// The verified email of the token's user: from the token, else from userinfo.
    async fn email_of(
        &self,
        claims: &Map<String, Value>,
        token: &str,
    ) -> Result<String, AuthError> {
        let sub = claims
            .get("sub")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(email) = email_claim(claims) {
            return Ok(email);
        }
        if let Some(email) = self.emails.get(sub).await {
            return Ok(email);
        }
        let endpoint = self
            .discovery()
            .await?
            .userinfo_endpoint
            .ok_or_else(|| AuthError::InvalidToken("token carries no email".into()))?;
        let response = self
            .http
            .get(&endpoint)
            .bearer_auth(token)
            .send()
            .await
            .map_err(|e| AuthError::ProviderUnavailable(e.to_string()))?;
        if !response.status().is_success() {
            return Err(AuthError::InvalidToken(format!(
                "userinfo answered {}",
                response.status()
            )));
        }
        let info: Map<String, Value> = response
            .json()
            .await
            .map_err(|e| AuthError::ProviderUnavailable(e.to_string()))?;
        if info.get("sub").and_then(Value::as_str) != Some(sub) {
            return Err(AuthError::InvalidToken(
                "userinfo of another subject".into(),
            ));
        }
        let email = email_claim(&info)
            .ok_or_else(|| AuthError::InvalidToken("no email for user".into()))?;
        self.emails.insert(sub.to_owned(), email.clone()).await;
        Ok(email)
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

/// The email the claims vouch for: `email`, lower-cased, when `email_verified` beside it is
/// `true`. Nothing else counts: an email a stranger typed at the issuer's sign-up (no flag, or
/// a namespaced claim an Action copied without its flag) would otherwise pass the allow-list and
/// `SCRIBEVAULT_ADMIN_EMAILS`. A token without a verified email is looked up at the userinfo
/// endpoint, whose answer is judged the same way.
fn email_claim(claims: &Map<String, Value>) -> Option<String> {
    if claims.get("email_verified") != Some(&Value::Bool(true)) {
        return None;
    }
    claims
        .get("email")
        .and_then(Value::as_str)
        .map(|email| email.trim().to_lowercase())
        .filter(|email| email.contains('@'))
}

#[async_trait::async_trait]
impl TokenVerifier for OidcVerifier {
    async fn verify(&self, token: &str) -> Result<Caller, AuthError> {
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
        let claims = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| AuthError::InvalidToken(e.to_string()))?
            .claims;
        self.policy.check_client(&claims)?;
        let sub = claims
            .get("sub")
            .and_then(Value::as_str)
            .filter(|sub| !sub.is_empty())
            .ok_or_else(|| AuthError::InvalidToken("no subject".into()))?
            .to_owned();
        let email = self.email_of(&claims, token).await?;
        self.policy.admits(&claims, &email)?;
        let configured_admin = self.policy.admin_emails.contains(&email);
        let member = self
            .members
            .upsert_seen(&sub, &email, configured_admin, Utc::now())
            .await
            .map_err(internal)?;
        if member.disabled {
            return Err(AuthError::AccountDisabledToken);
        }
        Ok(Caller {
            user: UserId::new(sub),
            email,
            is_admin: member.is_admin,
            session: None,
            api_token: None,
            expires_at: claims
                .get("exp")
                .and_then(Value::as_i64)
                .unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn claims(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    fn policy() -> OidcPolicy {
        OidcPolicy {
            client_id: Some("spa".into()),
            allowed_emails: vec!["ada@example.org".into()],
            allowed_domains: vec!["team.example".into()],
            required_claim: None,
            admin_emails: vec![],
        }
    }

    #[test]
    fn only_listed_emails_and_domains_come_in() {
        let policy = policy();
        let any = claims(json!({}));
        assert!(policy.admits(&any, "ada@example.org").is_ok());
        assert!(policy.admits(&any, "bob@team.example").is_ok());
        assert!(policy.admits(&any, "mallory@example.org").is_err());
        assert!(policy.admits(&any, "mallory@evilteam.example").is_err());
        assert!(OidcPolicy::default().admits(&any, "anyone@x.org").is_ok());
    }

    #[test]
    fn a_required_claim_is_a_string_or_in_an_array() {
        let policy = OidcPolicy {
            required_claim: Some(("roles".into(), "member".into())),
            ..OidcPolicy::default()
        };
        assert!(
            policy
                .admits(&claims(json!({"roles": ["x", "member"]})), "a@b.c")
                .is_ok()
        );
        assert!(
            policy
                .admits(&claims(json!({"roles": "member"})), "a@b.c")
                .is_ok()
        );
        assert!(
            policy
                .admits(&claims(json!({"roles": ["x"]})), "a@b.c")
                .is_err()
        );
        assert!(policy.admits(&claims(json!({})), "a@b.c").is_err());
    }

    #[test]
    fn other_clients_and_machine_tokens_are_refused() {
        let policy = policy();
        assert!(
            policy
                .check_client(&claims(json!({"sub": "u1", "azp": "spa"})))
                .is_ok()
        );
        assert!(
            policy
                .check_client(&claims(json!({"sub": "u1", "azp": "other"})))
                .is_err()
        );
        assert!(policy.check_client(&claims(json!({"sub": "u1"}))).is_err());
        assert!(
            policy
                .check_client(&claims(
                    json!({"sub": "spa@clients", "azp": "spa", "gty": "client-credentials"})
                ))
                .is_err()
        );
        assert!(
            policy
                .check_client(&claims(json!({"sub": "spa", "client_id": "spa"})))
                .is_err()
        );
    }

    #[test]
    fn only_a_verified_email_counts() {
        assert_eq!(
            email_claim(&claims(
                json!({"email": "Ada@Example.org", "email_verified": true})
            )),
            Some("ada@example.org".into())
        );
        // No flag, a false one, a flag that is not a boolean, a namespaced claim: none count.
        for unverified in [
            json!({"email": "ada@example.org"}),
            json!({"email": "ada@example.org", "email_verified": false}),
            json!({"email": "ada@example.org", "email_verified": "true"}),
            json!({"https://scribevault/email": "ada@example.org"}),
            json!({"https://scribevault/email": "ada@example.org", "email_verified": true}),
        ] {
            assert_eq!(
                email_claim(&claims(unverified.clone())),
                None,
                "{unverified}"
            );
        }
    }
}
