//! Built-in accounts: argon2id password hashes in the gateway's database, and HS256 JWTs signed
//! with a key generated once and kept in the data dir (every replica sharing the data dir, or
//! the same key file, accepts every other's tokens).

use std::num::NonZeroU32;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher as _, PasswordVerifier as _, SaltString};
use chrono::Utc;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use scribevault_core::UserId;
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

use super::account_store::{Account, AccountStore, InsertAccountError};
use super::{AuthError, TokenVerifier};

const ISSUER: &str = "scribevault-local";
const AUDIENCE: &str = "scribevault";
const MIN_PASSWORD_CHARS: usize = 8;

/// Claims of a locally issued token.
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    email: String,
    iss: String,
    aud: String,
    iat: i64,
    exp: i64,
}

/// A signed-in account as the SPA sees it.
#[derive(Debug, Clone, Serialize)]
pub struct AccountView {
    pub id: String,
    pub email: String,
}

/// Local sign-up, login and token verification.
pub struct LocalAccounts {
    accounts: AccountStore,
    encoding_key: EncodingKey,
    decoding_key: DecodingKey,
    token_ttl: Duration,
    attempts_by_email: Arc<DefaultKeyedRateLimiter<String>>,
    attempts_by_client: Arc<DefaultKeyedRateLimiter<String>>,
    /// Verified against when the email is unknown, so both failures take the same time.
    dummy_hash: String,
}

impl LocalAccounts {
    /// Loads (or creates) the signing key under `data_dir`.
    ///
    /// # Errors
    /// The key file cannot be read or written.
    pub fn new(
        db: DatabaseConnection,
        data_dir: &Path,
        token_ttl: Duration,
        attempts_per_minute: u32,
    ) -> Result<Self, AuthError> {
        let key = load_or_create_key(&data_dir.join("auth").join("jwt-hs256.key"))?;
        let quota = Quota::per_minute(
            NonZeroU32::new(attempts_per_minute.max(1)).unwrap_or(NonZeroU32::MIN),
        );
        let dummy_hash = hash_password("not-a-real-password")?;
        Ok(Self {
            accounts: AccountStore::new(db),
            encoding_key: EncodingKey::from_secret(&key),
            decoding_key: DecodingKey::from_secret(&key),
            token_ttl,
            attempts_by_email: Arc::new(RateLimiter::keyed(quota)),
            attempts_by_client: Arc::new(RateLimiter::keyed(quota)),
            dummy_hash,
        })
    }

    /// Creates an account and signs it in.
    ///
    /// # Errors
    /// Invalid email, short password, duplicate email.
    pub async fn sign_up(
        &self,
        email: &str,
        password: &str,
    ) -> Result<(String, AccountView), AuthError> {
        let email = normalise_email(email)?;
        if password.chars().count() < MIN_PASSWORD_CHARS {
            return Err(AuthError::PasswordTooShort);
        }
        if self
            .accounts
            .by_email(&email)
            .await
            .map_err(internal)?
            .is_some()
        {
            return Err(AuthError::EmailTaken);
        }
        let password = password.to_owned();
        let password_hash = tokio::task::spawn_blocking(move || hash_password(&password))
            .await
            .map_err(internal)??;
        let account = match self.accounts.insert(email, password_hash, Utc::now()).await {
            Ok(account) => account,
            // Two sign-ups racing for one email: the unique index decides.
            Err(InsertAccountError::EmailTaken) => return Err(AuthError::EmailTaken),
            Err(InsertAccountError::Database(error)) => return Err(internal(error)),
        };
        self.issue(&account)
    }

    /// Checks the password and signs in. Rate-limited per email and per client address.
    ///
    /// # Errors
    /// Rate limit, unknown email or wrong password (one message for both).
    pub async fn log_in(
        &self,
        email: &str,
        password: &str,
        client: &str,
    ) -> Result<(String, AccountView), AuthError> {
        let email = normalise_email(email).map_err(|_| AuthError::InvalidCredentials)?;
        let email_ok = self.attempts_by_email.check_key(&email).is_ok();
        let client_ok = self
            .attempts_by_client
            .check_key(&client.to_owned())
            .is_ok();
        if !email_ok || !client_ok {
            return Err(AuthError::RateLimited);
        }
        let account = self.accounts.by_email(&email).await.map_err(internal)?;
        let stored_hash = account.as_ref().map_or_else(
            || self.dummy_hash.clone(),
            |account| account.password_hash.clone(),
        );
        let password = password.to_owned();
        let matches = tokio::task::spawn_blocking(move || verify_password(&password, &stored_hash))
            .await
            .map_err(internal)?;
        match account {
            Some(account) if matches => self.issue(&account),
            _ => Err(AuthError::InvalidCredentials),
        }
    }

    fn issue(&self, account: &Account) -> Result<(String, AccountView), AuthError> {
        let now = Utc::now().timestamp();
        let claims = Claims {
            sub: account.id.clone(),
            email: account.email.clone(),
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
            iat: now,
            exp: now + i64::try_from(self.token_ttl.as_secs()).unwrap_or(i64::MAX / 2),
        };
        let token =
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding_key)
                .map_err(internal)?;
        Ok((
            token,
            AccountView {
                id: account.id.clone(),
                email: account.email.clone(),
            },
        ))
    }
}

#[async_trait::async_trait]
impl TokenVerifier for LocalAccounts {
    async fn verify(&self, token: &str) -> Result<UserId, AuthError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 30;
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding_key, &validation)
            .map_err(|e| AuthError::InvalidToken(e.to_string()))?;
        Ok(UserId::new(data.claims.sub))
    }
}

fn internal(error: impl std::fmt::Display) -> AuthError {
    AuthError::Internal(error.to_string())
}

fn hash_password(password: &str) -> Result<String, AuthError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(internal)
}

fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
}

/// Lower-cases and checks the shape `local@domain.tld`, with no spaces.
fn normalise_email(email: &str) -> Result<String, AuthError> {
    let email = email.trim().to_lowercase();
    let valid = email.len() <= 254
        && !email.chars().any(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.split('.').count() >= 2
                && domain.split('.').all(|label| !label.is_empty())
        });
    if valid {
        Ok(email)
    } else {
        Err(AuthError::InvalidEmail)
    }
}

fn load_or_create_key(path: &Path) -> Result<Vec<u8>, AuthError> {
    scribevault_core::key_file::load_or_create(path).map_err(AuthError::Internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_normalised_and_checked() {
        assert_eq!(
            normalise_email("  Ada@Example.COM ").unwrap(),
            "ada@example.com"
        );
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a da@example.com",
            "ada@@example.com",
            "ada@example..com",
        ] {
            assert!(normalise_email(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn password_hashes_verify_only_the_right_password() {
        let hash = hash_password("correct horse").unwrap();
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
    }
}
