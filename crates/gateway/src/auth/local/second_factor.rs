//! The second factor of local accounts, and the re-authentication that guards it and the
//! password. A session alone (an unlocked laptop, a copied token) must not be able to take the
//! account: setting up or replacing the factor, turning it off and changing the password all
//! ask for the password, and, while a factor is active, a code of it. Wrong passwords given
//! here count in the sign-in limiter, per account, so a session cannot guess them either.

use chrono::Utc;

use super::super::account_store::Account;
use super::super::limiter::Verdict;
use super::super::two_factor::{CodeCheck, NewSecret};
use super::{LocalAccounts, MAX_PASSWORD_BYTES};
use crate::auth::{AuthError, Caller, internal};

/// The limiter's client key for re-authentication: the count is the account's, from wherever
/// its sessions are.
const REAUTHENTICATION: &str = "re-authentication";

/// How a second factor was satisfied at sign-in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecondFactor {
    /// The account has none.
    NotSet,
    /// An authenticator code.
    Code,
    /// A recovery code, with this many left.
    RecoveryCode { left: u64 },
}

impl LocalAccounts {
    /// Whether `user` signs in with an authenticator code.
    ///
    /// # Errors
    /// Database failure.
    pub async fn two_factor_enabled(&self, user: &str) -> Result<bool, AuthError> {
        self.two_factor.is_enabled(user).await.map_err(internal)
    }

    /// The caller's account, once `password` is its password. Counted per account.
    pub(super) async fn reauthenticate(
        &self,
        caller: &Caller,
        password: &str,
    ) -> Result<Account, AuthError> {
        let account = self
            .accounts
            .by_id(caller.user.as_str())
            .await
            .map_err(internal)?
            .ok_or_else(|| AuthError::InvalidToken("account gone".into()))?;
        if let Verdict::Blocked(wait) = self
            .limiter
            .reserve(&account.email, REAUTHENTICATION)
            .await
            .map_err(internal)?
        {
            return Err(AuthError::RateLimited(wait.as_secs()));
        }
        if password.len() > MAX_PASSWORD_BYTES
            || !self
                .hashing
                .verify(password, &account.password_hash)
                .await?
        {
            return Err(AuthError::WrongCurrentPassword);
        }
        self.limiter
            .record_success(&account.email, REAUTHENTICATION)
            .await
            .map_err(internal)?;
        Ok(account)
    }

    /// A new authenticator secret for the caller, active once confirmed with a code of it. Needs
    /// the password, and a current code when a factor is already active.
    ///
    /// # Errors
    /// Wrong password (counted), a current code missing or wrong, database failure.
    pub async fn begin_two_factor(
        &self,
        caller: &Caller,
        password: &str,
        current_code: Option<&str>,
    ) -> Result<NewSecret, AuthError> {
        let account = self.reauthenticate(caller, password).await?;
        if self
            .two_factor
            .is_enabled(&account.id)
            .await
            .map_err(internal)?
        {
            let code = current_code
                .filter(|code| !code.trim().is_empty())
                .ok_or(AuthError::CurrentCodeRequired)?;
            // A member who lost the app signs in with a recovery code and sets up a new one
            // with another.
            if !self.confirms_the_factor(&account, code).await? {
                return Err(AuthError::WrongCurrentCode);
            }
        }
        self.two_factor
            .begin(&account.id, &account.email)
            .await
            .map_err(internal)
    }

    /// Turns the second factor on (or replaces it) with a code made from the pending secret;
    /// answers the new recovery codes, shown this once.
    ///
    /// # Errors
    /// The code is wrong (or nothing is pending).
    pub async fn confirm_two_factor(
        &self,
        caller: &Caller,
        code: &str,
    ) -> Result<Vec<String>, AuthError> {
        let user = caller.user.as_str();
        match self
            .two_factor
            .confirm(user, &caller.email, code)
            .await
            .map_err(internal)?
        {
            CodeCheck::Accepted => {}
            CodeCheck::Wrong | CodeCheck::Replayed => return Err(AuthError::WrongSetupCode),
        }
        tracing::info!(user, "a second factor was turned on or replaced");
        self.recovery_codes.replace(user).await.map_err(internal)
    }

    /// Turns the second factor off: the password and a current code (or a recovery code), so
    /// a stolen session alone cannot.
    ///
    /// # Errors
    /// Wrong password (counted) or code.
    pub async fn remove_two_factor(
        &self,
        caller: &Caller,
        password: &str,
        code: &str,
    ) -> Result<(), AuthError> {
        let account = self.reauthenticate(caller, password).await?;
        if !self.confirms_the_factor(&account, code).await? {
            return Err(AuthError::WrongSetupCode);
        }
        self.two_factor
            .remove(&account.id)
            .await
            .map_err(internal)?;
        self.recovery_codes
            .remove(&account.id)
            .await
            .map_err(internal)?;
        tracing::info!(user = account.id, "a second factor was turned off");
        Ok(())
    }

    /// Whether `code` confirms a change to the account's factor: a current code of it (not used
    /// up), or one of its recovery codes (used up).
    async fn confirms_the_factor(&self, account: &Account, code: &str) -> Result<bool, AuthError> {
        if self
            .two_factor
            .is_current(&account.id, &account.email, code)
            .await
            .map_err(internal)?
        {
            return Ok(true);
        }
        Ok(self
            .recovery_codes
            .redeem(&account.id, code, Utc::now())
            .await
            .map_err(internal)?
            .is_some())
    }

    /// For an account with a second factor, a code must be given and right: an authenticator
    /// code or one of its recovery codes. Asked only after the right password, so the question
    /// does not tell a stranger which accounts exist or use a second factor.
    pub(super) async fn check_second_factor(
        &self,
        account: &Account,
        code: Option<&str>,
    ) -> Result<SecondFactor, AuthError> {
        if !self
            .two_factor
            .is_enabled(&account.id)
            .await
            .map_err(internal)?
        {
            return Ok(SecondFactor::NotSet);
        }
        let code = code
            .filter(|code| !code.trim().is_empty())
            .ok_or(AuthError::CodeRequired)?;
        if let Some(left) = self
            .recovery_codes
            .redeem(&account.id, code, Utc::now())
            .await
            .map_err(internal)?
        {
            tracing::info!(user = account.id, left, "signed in with a recovery code");
            return Ok(SecondFactor::RecoveryCode { left });
        }
        let checked = self
            .two_factor
            .check(&account.id, &account.email, code)
            .await
            .map_err(internal)?;
        if checked != CodeCheck::Accepted {
            return Err(AuthError::WrongCode);
        }
        Ok(SecondFactor::Code)
    }
}
