//! A second factor for local accounts: time-based one-time codes from an authenticator app
//! (RFC 6238: SHA-1, 6 digits, 30 s steps, one step of clock skew either way, which is what
//! every authenticator app implements). A secret is handed out by set-up and becomes active
//! only once a code made from it is shown, so nobody is locked out by a mistyped QR scan.
//! A code is accepted once: the step it was made for is remembered.

use rand::RngCore as _;
use sea_orm::sea_query::{Expr, ExprTrait as _};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, Set,
};
use totp_rs::{Algorithm, Builder, Secret, Totp};

use crate::entity::two_factor::{self, Entity as TwoFactorRow};

const ISSUER: &str = "Scribevault";
const SECRET_BYTES: usize = 20;

/// A secret handed out by set-up.
#[derive(Debug, Clone)]
pub struct NewSecret {
    /// Base32, for typing into an app.
    pub secret: String,
    /// `otpauth://` URL, for a QR code.
    pub otpauth_url: String,
}

/// Whether a code is good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeCheck {
    Accepted,
    /// Not a code of this secret now (or malformed).
    Wrong,
    /// Right, but already used.
    Replayed,
}

/// The `two_factor` table and the codes.
#[derive(Clone)]
pub struct TwoFactor {
    db: DatabaseConnection,
}

fn totp(secret: &str, email: &str) -> Option<Totp> {
    let secret = Secret::try_from_base32(secret).ok()?;
    Builder::new()
        .with_algorithm(Algorithm::SHA1)
        .with_digits(6)
        .with_skew(1)
        .with_step_duration(30)
        .with_secret(secret)
        .with_account_name(email.replace(':', ""))
        .with_issuer(Some(ISSUER))
        .build()
        .ok()
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl TwoFactor {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    async fn row(&self, user: &str) -> Result<Option<two_factor::Model>, DbErr> {
        TwoFactorRow::find_by_id(user.to_owned())
            .one(&self.db)
            .await
    }

    /// Whether `user` signs in with a code.
    pub async fn is_enabled(&self, user: &str) -> Result<bool, DbErr> {
        Ok(self
            .row(user)
            .await?
            .is_some_and(|row| row.secret.is_some()))
    }

    /// A new pending secret for `user` (replacing any earlier pending one; an active one
    /// stays active until the new one is confirmed).
    pub async fn begin(&self, user: &str, email: &str) -> Result<NewSecret, DbErr> {
        let mut bytes = [0_u8; SECRET_BYTES];
        rand::thread_rng().fill_bytes(&mut bytes);
        let secret = Secret::from(bytes.to_vec()).to_base32();
        let otpauth_url = totp(&secret, email)
            .and_then(|totp| totp.to_url().ok())
            .ok_or_else(|| DbErr::Custom("cannot build the otpauth URL".into()))?;
        match self.row(user).await? {
            Some(row) => {
                let mut row: two_factor::ActiveModel = row.into();
                row.pending_secret = Set(Some(secret.clone()));
                row.update(&self.db).await?;
            }
            None => {
                two_factor::ActiveModel {
                    user_id: Set(user.to_owned()),
                    secret: Set(None),
                    pending_secret: Set(Some(secret.clone())),
                    last_step: Set(None),
                    changed_at: Set(None),
                }
                .insert(&self.db)
                .await?;
            }
        }
        Ok(NewSecret {
            secret,
            otpauth_url,
        })
    }

    /// Makes the pending secret active if `code` was made from it.
    pub async fn confirm(&self, user: &str, email: &str, code: &str) -> Result<CodeCheck, DbErr> {
        let Some(row) = self.row(user).await? else {
            return Ok(CodeCheck::Wrong);
        };
        let Some(pending) = row.pending_secret.clone() else {
            return Ok(CodeCheck::Wrong);
        };
        let Some(step) = totp(&pending, email).and_then(|totp| totp.check(code.trim(), unix_now()))
        else {
            return Ok(CodeCheck::Wrong);
        };
        let mut row: two_factor::ActiveModel = row.into();
        row.secret = Set(Some(pending));
        row.pending_secret = Set(None);
        row.last_step = Set(Some(i64::try_from(step).unwrap_or(i64::MAX)));
        row.changed_at = Set(Some(chrono::Utc::now()));
        row.update(&self.db).await?;
        Ok(CodeCheck::Accepted)
    }

    /// When `user`'s active secret last changed (turned on or replaced).
    pub async fn changed_at(
        &self,
        user: &str,
    ) -> Result<Option<chrono::DateTime<chrono::Utc>>, DbErr> {
        Ok(self
            .row(user)
            .await?
            .filter(|row| row.secret.is_some())
            .and_then(|row| row.changed_at))
    }

    /// Checks a code against the active secret; an accepted code's step is used up.
    pub async fn check(&self, user: &str, email: &str, code: &str) -> Result<CodeCheck, DbErr> {
        let Some(secret) = self.row(user).await?.and_then(|row| row.secret) else {
            return Ok(CodeCheck::Wrong);
        };
        let Some(step) = totp(&secret, email).and_then(|totp| totp.check(code.trim(), unix_now()))
        else {
            return Ok(CodeCheck::Wrong);
        };
        let step = i64::try_from(step).unwrap_or(i64::MAX);
        // One conditional update: of two sign-ins racing with one code, exactly one wins.
        let updated = TwoFactorRow::update_many()
            .col_expr(two_factor::Column::LastStep, Expr::value(step))
            .filter(two_factor::Column::UserId.eq(user))
            .filter(
                two_factor::Column::LastStep
                    .is_null()
                    .or(two_factor::Column::LastStep.lt(step)),
            )
            .exec(&self.db)
            .await?;
        Ok(if updated.rows_affected == 1 {
            CodeCheck::Accepted
        } else {
            CodeCheck::Replayed
        })
    }

    /// Whether `code` is a current code of the active secret, without using it up: for
    /// confirming a change the signed-in user makes (turning the factor off), not a sign-in.
    pub async fn is_current(&self, user: &str, email: &str, code: &str) -> Result<bool, DbErr> {
        Ok(self
            .row(user)
            .await?
            .and_then(|row| row.secret)
            .and_then(|secret| totp(&secret, email))
            .is_some_and(|totp| totp.check(code.trim(), unix_now()).is_some()))
    }

    /// Turns the second factor off (and forgets any pending secret).
    pub async fn remove(&self, user: &str) -> Result<(), DbErr> {
        TwoFactorRow::delete_by_id(user.to_owned())
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_follow_rfc_6238_with_one_step_of_skew() {
        // RFC 6238 appendix B's SHA-1 secret, as base32.
        let secret = Secret::from(b"12345678901234567890".to_vec()).to_base32();
        let totp = totp(&secret, "ada@example.org").unwrap();
        // 59 s: the RFC's 8-digit 94287082 ends in these 6 digits.
        assert_eq!(totp.check("287082", 59), Some(1));
        assert_eq!(
            totp.check("287082", 59 + 30),
            Some(1),
            "one step late is fine"
        );
        assert_eq!(
            totp.check("287082", 59 + 90),
            None,
            "three steps late is not"
        );
        assert_eq!(totp.check("000000", 59), None);
        let url = totp.to_url().unwrap();
        assert!(
            url.starts_with("otpauth://totp/Scribevault:ada%40example.org?"),
            "{url}"
        );
        assert!(url.contains("issuer=Scribevault"), "{url}");
    }
}
