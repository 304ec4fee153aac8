//! Built-in accounts: argon2id password hashes in the gateway's database, sessions that access
//! tokens name, and short-lived HS256 access tokens signed with `SCRIBEVAULT_JWT_KEY` or a key
//! generated once in the data dir (replicas must then share it).
//!
//! A token is checked against its session and its member on every request, so signing out, a
//! password change or an admin disabling the account ends it at once, not when it expires.
//!
//! Only a session's refresh secret mints access tokens, never an access token (finding G2): the
//! secret lives in an httpOnly cookie script cannot read, is swapped on every use, and a spent one
//! presented again ends the session, so a copy works once at most and is noticed.

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use scribevault_core::UserId;
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

mod second_factor;

use super::account_store::{AccountStore, InsertAccountError};
use super::invitations::Invitations;
use super::limiter::{LoginLimiter, Verdict};
use super::members::{Member, Members};
use super::password::PasswordHashing;
use super::recovery_codes::RecoveryCodes;
use super::secret::{random_secret, secret_hash};
use super::sessions::{Rotation, SessionLifetime, Sessions};
use super::two_factor::TwoFactor;
use super::{AuthError, Caller, Revocations, Revoked, TokenVerifier, internal};

const ISSUER: &str = "scribevault-local";
const AUDIENCE: &str = "scribevault";
const MIN_PASSWORD_CHARS: usize = 8;
const MAX_PASSWORD_BYTES: usize = 1024;
/// How much of a password zxcvbn judges.
const MAX_JUDGED_CHARS: usize = 64;

/// Who may create a local account (`SCRIBEVAULT_SIGNUP`). The first account of an instance
/// is always allowed: it becomes the admin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignUpPolicy {
    Open,
    Invite,
    Closed,
}

impl SignUpPolicy {
    /// From the validated setting.
    #[must_use]
    pub fn from_setting(value: &str) -> Self {
        match value {
            "open" => Self::Open,
            "closed" => Self::Closed,
            _ => Self::Invite,
        }
    }

    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Invite => "invite",
            Self::Closed => "closed",
        }
    }
}

/// Claims of a locally issued access token.
#[derive(Debug, Serialize, Deserialize)]
struct Claims {
    sub: String,
    /// The session the token belongs to.
    sid: String,
    email: String,
    iss: String,
    aud: String,
    iat: i64,
    exp: i64,
}

/// The account a sign-in answers with (`/api/account` has the fuller view).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedInAccount {
    pub id: String,
    pub email: String,
    pub is_admin: bool,
}

/// A fresh access token.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IssuedToken {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// What a sign-in or sign-up answers.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignedIn {
    pub token: String,
    pub expires_at: DateTime<Utc>,
    pub user: SignedInAccount,
    /// Signed in with a recovery code: how many are left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_codes_left: Option<u64>,
    /// The second factor changed since the member last signed in: when. The SPA tells them, so
    /// a change they did not make does not go unseen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_factor_changed_at: Option<DateTime<Utc>>,
}

/// The secret that renews a session, `<session id>.<secret>`, for the browser to keep in a
/// cookie until `expires_at` (the session's absolute end).
#[derive(Debug, Clone)]
pub struct RefreshCredential {
    pub value: String,
    pub expires_at: DateTime<Utc>,
}

/// An answer that also hands the browser a (new) refresh credential.
#[derive(Debug, Clone)]
pub struct WithRefresh<T> {
    pub body: T,
    pub refresh: RefreshCredential,
}

/// What the local accounts need besides the database.
pub struct LocalAccountsConfig {
    pub jwt_key: Option<Vec<u8>>,
    pub token_ttl: Duration,
    /// Idle lifetime of a session.
    pub session_ttl: Duration,
    /// Absolute lifetime of a session.
    pub session_lifetime: Duration,
    pub sign_up: SignUpPolicy,
}

/// Local sign-up, sign-in, sessions and token verification.
pub struct LocalAccounts {
    accounts: AccountStore,
    members: Members,
    sessions: Sessions,
    invitations: Invitations,
    two_factor: TwoFactor,
    recovery_codes: RecoveryCodes,
    hashing: PasswordHashing,
    limiter: LoginLimiter,
    revocations: Revocations,
    encoding_key: EncodingKey,
    decoding_key: DecodingKey,
    token_ttl: Duration,
    session_lifetime: SessionLifetime,
    sign_up: SignUpPolicy,
    /// Verified against when the email is unknown, so both failures take the same time.
    dummy_hash: String,
}

/// What [`LocalAccounts`] shares with the rest of the gateway.
pub struct LocalAccountsParts {
    pub hashing: PasswordHashing,
    pub limiter: LoginLimiter,
    pub revocations: Revocations,
}

impl LocalAccounts {
    /// Loads (or creates) the signing key.
    ///
    /// # Errors
    /// The key file cannot be read or written.
    pub fn new(
        db: &DatabaseConnection,
        data_dir: &Path,
        config: LocalAccountsConfig,
        parts: LocalAccountsParts,
    ) -> Result<Self, AuthError> {
        let key = match config.jwt_key {
            Some(key) => key,
            None => scribevault_core::key_file::load_or_create(
                &data_dir.join("auth").join("jwt-hs256.key"),
            )
            .map_err(AuthError::Internal)?,
        };
        Ok(Self {
            accounts: AccountStore::new(db.clone()),
            members: Members::new(db.clone()),
            sessions: Sessions::new(db.clone()),
            invitations: Invitations::new(db.clone()),
            two_factor: TwoFactor::new(db.clone()),
            recovery_codes: RecoveryCodes::new(db.clone()),
            hashing: parts.hashing,
            limiter: parts.limiter,
            revocations: parts.revocations,
            encoding_key: EncodingKey::from_secret(&key),
            decoding_key: DecodingKey::from_secret(&key),
            token_ttl: config.token_ttl,
            session_lifetime: SessionLifetime {
                idle: chrono::Duration::from_std(config.session_ttl).map_err(internal)?,
                absolute: chrono::Duration::from_std(config.session_lifetime).map_err(internal)?,
            },
            sign_up: config.sign_up,
            dummy_hash: super::password::hash_password("not-a-real-password")?,
        })
    }

    #[must_use]
    pub fn sign_up_policy(&self) -> SignUpPolicy {
        self.sign_up
    }

    /// Creates an account and signs it in. The first account of the instance needs nothing
    /// and becomes its admin; after that the policy decides.
    ///
    /// # Errors
    /// Rate limit, invitation required or sign-up closed, invalid email or password, taken
    /// email.
    pub async fn sign_up(
        &self,
        email: &str,
        password: &str,
        invitation: Option<&str>,
        client: &str,
    ) -> Result<WithRefresh<SignedIn>, AuthError> {
        if let Verdict::Blocked(wait) =
            self.limiter.check_sign_up(client).await.map_err(internal)?
        {
            return Err(AuthError::RateLimited(wait.as_secs()));
        }
        let now = Utc::now();
        let first = self.members.is_empty().await.map_err(internal)?;
        let invitation = if first {
            None
        } else {
            match self.sign_up {
                SignUpPolicy::Open => None,
                SignUpPolicy::Closed => return Err(AuthError::SignUpClosed),
                SignUpPolicy::Invite => {
                    let secret = invitation.ok_or(AuthError::InvitationRequired)?;
                    Some(
                        self.invitations
                            .find_open(secret, now)
                            .await
                            .map_err(internal)?
                            .ok_or(AuthError::InvitationRequired)?,
                    )
                }
            }
        };
        let email = normalise_email(email)?;
        check_password(password, &email)?;
        if self
            .accounts
            .by_email(&email)
            .await
            .map_err(internal)?
            .is_some()
        {
            return Err(AuthError::EmailTaken);
        }
        let password_hash = self.hashing.hash(password).await?;
        let user_id = uuid::Uuid::new_v4().to_string();
        match self
            .accounts
            .insert(user_id.clone(), email.clone(), password_hash, now)
            .await
        {
            Ok(_) => {}
            // Two sign-ups racing for one email: the unique index decides.
            Err(InsertAccountError::EmailTaken) => return Err(AuthError::EmailTaken),
            Err(InsertAccountError::Database(error)) => return Err(internal(error)),
        }
        if let Some(invitation) = invitation
            && !self
                .invitations
                .consume(&invitation.id, &user_id, now)
                .await
                .map_err(internal)?
        {
            // Another sign-up used the link first.
            self.accounts.delete(&user_id).await.map_err(internal)?;
            return Err(AuthError::InvitationRequired);
        }
        let member = self
            .members
            .insert(&user_id, &email, now)
            .await
            .map_err(internal)?;
        self.start_session(&member, now).await
    }

    /// Checks the password (and the authenticator code, for an account that has one) and signs
    /// in. Limited per (account, client) pair; a wrong code counts like a wrong password.
    ///
    /// # Errors
    /// Rate limit, unknown email or wrong password (one message for both), a code needed or
    /// wrong, disabled account.
    pub async fn log_in(
        &self,
        email: &str,
        password: &str,
        code: Option<&str>,
        client: &str,
    ) -> Result<WithRefresh<SignedIn>, AuthError> {
        let email = normalise_email(email).map_err(|_| AuthError::InvalidCredentials)?;
        // Reserved before the hash, forgiven only by the right password and code.
        if let Verdict::Blocked(wait) = self
            .limiter
            .reserve(&email, client)
            .await
            .map_err(internal)?
        {
            return Err(AuthError::RateLimited(wait.as_secs()));
        }
        if password.len() > MAX_PASSWORD_BYTES {
            return Err(AuthError::InvalidCredentials);
        }
        let account = self.accounts.by_email(&email).await.map_err(internal)?;
        let stored_hash = account
            .as_ref()
            .map_or(self.dummy_hash.as_str(), |account| {
                account.password_hash.as_str()
            });
        let matches = self.hashing.verify(password, stored_hash).await?;
        let Some(account) = account.filter(|_| matches) else {
            return Err(AuthError::InvalidCredentials);
        };
        let factor = self.check_second_factor(&account, code).await?;
        self.limiter
            .record_success(&email, client)
            .await
            .map_err(internal)?;
        let now = Utc::now();
        let member = match self.members.get(&account.id).await.map_err(internal)? {
            Some(member) => member,
            // An account whose member row is missing (made by hand): it joins now.
            None => self
                .members
                .insert(&account.id, &account.email, now)
                .await
                .map_err(internal)?,
        };
        if member.disabled {
            return Err(AuthError::AccountDisabled);
        }
        let changed_at = self
            .two_factor
            .changed_at(&member.user_id)
            .await
            .map_err(internal)?;
        self.members
            .record_sign_in(&member.user_id, now)
            .await
            .map_err(internal)?;
        let mut signed_in = self.start_session(&member, now).await?;
        if let second_factor::SecondFactor::RecoveryCode { left } = factor {
            signed_in.body.recovery_codes_left = Some(left);
        }
        signed_in.body.second_factor_changed_at = changed_at.filter(|changed| {
            member
                .last_sign_in_at
                .is_none_or(|previous| previous < *changed)
        });
        Ok(signed_in)
    }

    async fn start_session(
        &self,
        member: &Member,
        now: DateTime<Utc>,
    ) -> Result<WithRefresh<SignedIn>, AuthError> {
        let WithRefresh { body, refresh } = self.open_session(member, now).await?;
        Ok(WithRefresh {
            body: SignedIn {
                token: body.token,
                expires_at: body.expires_at,
                user: SignedInAccount {
                    id: member.user_id.clone(),
                    email: member.email.clone(),
                    is_admin: member.is_admin,
                },
                recovery_codes_left: None,
                second_factor_changed_at: None,
            },
            refresh,
        })
    }

    /// A new session, its first access token and its first refresh secret.
    async fn open_session(
        &self,
        member: &Member,
        now: DateTime<Utc>,
    ) -> Result<WithRefresh<IssuedToken>, AuthError> {
        let secret = random_secret();
        let session = self
            .sessions
            .start(
                &member.user_id,
                now,
                self.session_lifetime,
                secret_hash(&secret),
            )
            .await
            .map_err(internal)?;
        let issued = self.issue(&member.user_id, &member.email, &session.id, now)?;
        Ok(WithRefresh {
            body: issued,
            refresh: RefreshCredential {
                value: format!("{}.{secret}", session.id),
                expires_at: session.ends_by.unwrap_or(session.expires_at),
            },
        })
    }

    /// Spends a refresh credential for a new access token and a new credential; the session's
    /// idle end moves out, its absolute end stays. A credential already spent ends its session
    /// (its owner and whoever copied it both hold one; neither can tell which is which).
    ///
    /// # Errors
    /// Not a credential of ours, the session has ended or was just ended by a reuse, the
    /// account is disabled.
    pub async fn refresh(&self, credential: &str) -> Result<WithRefresh<IssuedToken>, AuthError> {
        let (session_id, secret) = credential
            .split_once('.')
            .ok_or_else(|| AuthError::InvalidToken("not a refresh credential".into()))?;
        let next = random_secret();
        let now = Utc::now();
        let rotation = self
            .sessions
            .rotate(
                session_id,
                &secret_hash(secret),
                secret_hash(&next),
                now,
                self.session_lifetime.idle,
            )
            .await
            .map_err(internal)?;
        let session = match rotation {
            Rotation::Rotated(session) => session,
            Rotation::Reused { user_id } => {
                tracing::warn!(
                    user = %user_id,
                    "a spent refresh credential came back: its session is ended"
                );
                self.revocations
                    .announce(Revoked::Session(session_id.to_owned()));
                return Err(AuthError::InvalidToken(
                    "refresh credential reused; session ended".into(),
                ));
            }
            Rotation::Superseded => return Err(AuthError::RenewedElsewhere),
            Rotation::Refused => return Err(AuthError::InvalidToken("session ended".into())),
        };
        let member = self.enabled_member(&session.user_id).await?;
        Ok(WithRefresh {
            body: self.issue(&member.user_id, &member.email, &session.id, now)?,
            refresh: RefreshCredential {
                value: format!("{}.{next}", session.id),
                expires_at: session.ends_by.unwrap_or(session.expires_at),
            },
        })
    }

    /// Ends the caller's session.
    ///
    /// # Errors
    /// Database failure.
    pub async fn log_out(&self, caller: &Caller) -> Result<(), AuthError> {
        if let Some(session) = &caller.session {
            self.sessions
                .end(session, Utc::now())
                .await
                .map_err(internal)?;
            self.revocations.announce(Revoked::Session(session.clone()));
        }
        Ok(())
    }

    /// Ends every session of `user` (sign out everywhere, a disabled account).
    ///
    /// # Errors
    /// Database failure.
    pub async fn end_sessions(&self, user: &str) -> Result<(), AuthError> {
        let now = Utc::now();
        self.sessions
            .end_all(user, None, now)
            .await
            .map_err(internal)?;
        // The player and export links made until now stop with them.
        self.members
            .record_sessions_ended(user, now)
            .await
            .map_err(internal)?;
        // Sockets re-verify their token on this, and close.
        self.revocations.announce(Revoked::User(user.to_owned()));
        Ok(())
    }

    /// Changes the caller's password. Every session ends, the caller's too, and the caller gets
    /// a new one: whoever copied a token or refresh secret of the old one is out with it.
    ///
    /// # Errors
    /// Wrong current password, bad new password.
    pub async fn change_password(
        &self,
        caller: &Caller,
        current: &str,
        new: &str,
    ) -> Result<WithRefresh<IssuedToken>, AuthError> {
        let account = self.reauthenticate(caller, current).await?;
        check_password(new, &account.email)?;
        let hash = self.hashing.hash(new).await?;
        self.accounts
            .set_password_hash(&account.id, hash)
            .await
            .map_err(internal)?;
        self.end_sessions(&account.id).await?;
        let member = self.enabled_member(&account.id).await?;
        self.open_session(&member, Utc::now()).await
    }

    /// Sets a new password for `email` and ends every session (the owner locked out, from the
    /// command line).
    ///
    /// # Errors
    /// No such account, or database failure.
    pub async fn reset_password(&self, email: &str, password: &str) -> Result<(), AuthError> {
        let email = normalise_email(email)?;
        check_password(password, &email)?;
        let account = self
            .accounts
            .by_email(&email)
            .await
            .map_err(internal)?
            .ok_or(AuthError::InvalidCredentials)?;
        let hash = self.hashing.hash(password).await?;
        self.accounts
            .set_password_hash(&account.id, hash)
            .await
            .map_err(internal)?;
        self.end_sessions(&account.id).await
    }

    /// Removes the credentials and sessions of a deleted member.
    ///
    /// # Errors
    /// Database failure.
    pub async fn forget(&self, user: &str) -> Result<(), AuthError> {
        self.accounts.delete(user).await.map_err(internal)?;
        self.sessions.delete_all(user).await.map_err(internal)?;
        self.two_factor.remove(user).await.map_err(internal)?;
        self.recovery_codes.remove(user).await.map_err(internal)?;
        self.revocations.announce(Revoked::User(user.to_owned()));
        Ok(())
    }

    fn issue(
        &self,
        user: &str,
        email: &str,
        session: &str,
        now: DateTime<Utc>,
    ) -> Result<IssuedToken, AuthError> {
        let ttl = chrono::Duration::from_std(self.token_ttl).map_err(internal)?;
        let expires_at = now + ttl;
        let claims = Claims {
            sub: user.to_owned(),
            sid: session.to_owned(),
            email: email.to_owned(),
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
            iat: now.timestamp(),
            exp: expires_at.timestamp(),
        };
        let token =
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding_key)
                .map_err(internal)?;
        Ok(IssuedToken { token, expires_at })
    }
}

impl LocalAccounts {
    /// The claims of an unexpired token we signed.
    fn decode(&self, token: &str) -> Result<Claims, AuthError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.leeway = 5;
        jsonwebtoken::decode::<Claims>(token, &self.decoding_key, &validation)
            .map(|data| data.claims)
            .map_err(|e| AuthError::InvalidToken(e.to_string()))
    }

    /// The member `user_id` names, if they may come in (a disabled one is told so).
    async fn enabled_member(&self, user_id: &str) -> Result<Member, AuthError> {
        let member = self
            .members
            .get(user_id)
            .await
            .map_err(internal)?
            .ok_or_else(|| AuthError::InvalidToken("no such member".into()))?;
        if member.disabled {
            return Err(AuthError::AccountDisabledToken);
        }
        Ok(member)
    }

    /// The caller a token's claims name, if the member may come in and the session lives.
    async fn caller_of(&self, claims: Claims) -> Result<Caller, AuthError> {
        // The member first: a disabled account is told so, not just signed out.
        let member = self.enabled_member(&claims.sub).await?;
        let session = self
            .sessions
            .get(&claims.sid)
            .await
            .map_err(internal)?
            .filter(|session| session.user_id == claims.sub && session.is_live(Utc::now()))
            .ok_or_else(|| AuthError::InvalidToken("session ended".into()))?;
        Ok(Caller {
            user: UserId::new(member.user_id),
            email: member.email,
            is_admin: member.is_admin,
            session: Some(session.id),
            api_token: None,
            expires_at: claims.exp,
        })
    }
}

#[async_trait::async_trait]
impl TokenVerifier for LocalAccounts {
    async fn verify(&self, token: &str) -> Result<Caller, AuthError> {
        let claims = self.decode(token)?;
        self.caller_of(claims).await
    }
}

/// Length bounds, then guessability (zxcvbn, the estimator password managers use), with the
/// account's email as a word a guesser would try first.
fn check_password(password: &str, email: &str) -> Result<(), AuthError> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(AuthError::PasswordTooShort);
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(AuthError::PasswordTooLong);
    }
    let local_part = email.split('@').next().unwrap_or_default();
    // zxcvbn's matching grows faster than linearly with length and runs on the request's
    // thread: a 1 KiB password would hold it for seconds. A prefix that is hard to guess makes
    // the whole hard to guess, so only the first characters are judged.
    let judged: String = password.chars().take(MAX_JUDGED_CHARS).collect();
    let estimate = zxcvbn::zxcvbn(&judged, &[email, local_part]);
    if estimate.score() < zxcvbn::Score::Two {
        let warning = estimate
            .feedback()
            .and_then(zxcvbn::feedback::Feedback::warning)
            .map(|warning| format!(" {warning}"))
            .unwrap_or_default();
        return Err(AuthError::PasswordTooWeak(warning));
    }
    Ok(())
}

/// Lower-cases and checks the shape `local@domain.tld`, with no spaces.
///
/// # Errors
/// Not a plausible address.
pub fn normalise_email(email: &str) -> Result<String, AuthError> {
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
    fn passwords_have_a_floor_a_ceiling_and_must_not_be_guessable() {
        let email = "ada.lovelace@example.org";
        assert!(matches!(
            check_password("short", email),
            Err(AuthError::PasswordTooShort)
        ));
        assert!(check_password("correct horse battery", email).is_ok());
        assert!(matches!(
            check_password(&"x".repeat(1025), email),
            Err(AuthError::PasswordTooLong)
        ));
        for guessable in ["password123", "qwertyuiop", "12345678", "ada.lovelace1"] {
            let refused = check_password(guessable, email);
            assert!(
                matches!(refused, Err(AuthError::PasswordTooWeak(_))),
                "{guessable}: {refused:?}"
            );
        }
        let message = check_password("password123", email)
            .unwrap_err()
            .to_string();
        assert!(message.contains("very common password"), "{message}");
    }
}
