//! What the instance's owner can do from the command line (`scribevault admin …`) when the
//! web interface is out of reach: locked out, no admin left, a forgotten password.

use chrono::Utc;
use rand::RngCore as _;
use sea_orm::DatabaseConnection;
use sea_orm_migration::MigratorTrait as _;

use crate::auth::invitations::Invitations;
use crate::auth::local::normalise_email;
use crate::auth::members::{Member, MemberChange, Members};
use crate::auth::password::hash_password;
use crate::auth::sessions::Sessions;
use crate::auth::two_factor::TwoFactor;
use crate::migration::Migrator;

/// Why an operator command failed; one printable line.
#[derive(Debug, thiserror::Error)]
pub enum OperatorError {
    #[error("no account with the email {0}")]
    UnknownEmail(String),
    #[error("{0} is not a valid email address")]
    InvalidEmail(String),
    #[error("database: {0}")]
    Database(#[from] sea_orm::DbErr),
    #[error("{0}")]
    Member(#[from] crate::auth::members::MemberChangeError),
    #[error("{0}")]
    Other(String),
}

/// The owner's tools, on the gateway's database.
pub struct Operator {
    members: Members,
    invitations: Invitations,
    sessions: Sessions,
    two_factor: TwoFactor,
    db: DatabaseConnection,
}

impl Operator {
    /// Migrates the gateway's tables (a first run may come before the server ever started).
    ///
    /// # Errors
    /// The migration fails.
    pub async fn open(db: DatabaseConnection) -> Result<Self, OperatorError> {
        Migrator::up(&db, None).await?;
        Ok(Self {
            members: Members::new(db.clone()),
            invitations: Invitations::new(db.clone()),
            sessions: Sessions::new(db.clone()),
            two_factor: TwoFactor::new(db.clone()),
            db,
        })
    }

    /// Every member, oldest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn members(&self) -> Result<Vec<Member>, OperatorError> {
        Ok(self.members.list().await?)
    }

    /// The member with `email` (compared as sign-in compares it).
    ///
    /// # Errors
    /// Not an email, no such member, or database failure.
    pub async fn member_by_email(&self, email: &str) -> Result<Member, OperatorError> {
        let email =
            normalise_email(email).map_err(|_| OperatorError::InvalidEmail(email.to_owned()))?;
        self.members
            .list()
            .await?
            .into_iter()
            .find(|member| member.email == email)
            .ok_or(OperatorError::UnknownEmail(email))
    }

    /// Makes the member with `email` an admin (and enables them).
    ///
    /// # Errors
    /// No such member, or database failure.
    pub async fn make_admin(&self, email: &str) -> Result<Member, OperatorError> {
        let member = self.member_by_email(email).await?;
        self.members
            .change(
                &member.user_id,
                &MemberChange {
                    is_admin: Some(true),
                    disabled: Some(false),
                    storage_cap_gb: None,
                },
            )
            .await?
            .ok_or(OperatorError::UnknownEmail(member.email))
    }

    /// Gives the local account with `email` a new random password, which is returned, turns
    /// its second factor off (a lost phone is the usual reason to be locked out) and ends
    /// every session of it.
    ///
    /// # Errors
    /// No such account, or database failure.
    pub async fn reset_password(&self, email: &str) -> Result<String, OperatorError> {
        let member = self.member_by_email(email).await?;
        let accounts = crate::auth::account_store_for_operator(self.db.clone());
        if accounts.by_id(&member.user_id).await?.is_none() {
            return Err(OperatorError::Other(format!(
                "{} has no local password (an OIDC member)",
                member.email
            )));
        }
        let mut bytes = [0_u8; 12];
        rand::thread_rng().fill_bytes(&mut bytes);
        let password: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let hash = hash_password(&password).map_err(|e| OperatorError::Other(e.to_string()))?;
        accounts.set_password_hash(&member.user_id, hash).await?;
        self.two_factor.remove(&member.user_id).await?;
        crate::auth::recovery_codes::RecoveryCodes::new(self.db.clone())
            .remove(&member.user_id)
            .await?;
        self.sessions
            .end_all(&member.user_id, None, Utc::now())
            .await?;
        Ok(password)
    }

    /// A single-use invitation valid for `hours`; returns the secret for the link.
    ///
    /// # Errors
    /// Database failure.
    pub async fn invite(
        &self,
        hours: u64,
    ) -> Result<(String, chrono::DateTime<Utc>), OperatorError> {
        let now = Utc::now();
        let expires_at = now + chrono::Duration::hours(i64::try_from(hours).unwrap_or(72));
        let (_, secret) = self
            .invitations
            .create("command line", now, expires_at)
            .await?;
        Ok((secret, expires_at))
    }
}
