//! Personal API tokens (`svt_…`): what scripts, Open WebUI or a podcast-less cron job use
//! instead of a password. A token acts as its member on the REST API with the same scoping,
//! but is never an admin and never reaches the account's own security (password, second
//! factor, other tokens): a leaked token can be revoked, and cannot lock its owner out.
//! Tokens are 256 random bits, so a plain SHA-256 is enough to store them (a slow hash defends
//! guessable secrets; these are not).

use super::secret::{random_secret, secret_hash};
use chrono::{DateTime, Duration, Utc};
use scribevault_core::UserId;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, QueryOrder as _, Set,
};

use super::allow_list::EmailAllowList;
use super::members::Members;
use super::{AuthError, Caller, SharedVerifier, TokenVerifier, internal};
use crate::entity::api_token::{self, Entity as TokenRow};

/// What every API token starts with, so the verifier knows it from a session token (a JWT) and
/// secret scanners (GitHub's, gitleaks) can be taught to find leaked ones.
pub const TOKEN_PREFIX: &str = "svt_";

/// Most tokens one member may hold: enough for every tool, few enough that a script stuck in
/// a loop creating them stops.
pub const MAX_TOKENS_PER_USER: usize = 50;

/// How long after a use the next one is recorded: a script calling every second would
/// otherwise write to the database on every request.
const LAST_USED_RESOLUTION: Duration = Duration::minutes(1);

/// When a token without an expiry counts as expiring for a socket opened with it: far enough
/// that no socket ends on it (revocation still ends it at once), near enough that the time
/// arithmetic the socket does with it stays small.
const NO_EXPIRY_HORIZON: Duration = Duration::days(365);

/// A token as its owner sees it after it was made (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: Option<DateTime<Utc>>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub save_to_vault: bool,
}

impl ApiToken {
    #[must_use]
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_none_or(|expires_at| expires_at > now)
    }
}

/// What a member asks for when making a token.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub name: String,
    pub expires_at: Option<DateTime<Utc>>,
    pub save_to_vault: bool,
}

/// The `api_tokens` table.
#[derive(Clone)]
pub struct ApiTokens {
    db: DatabaseConnection,
}

fn api_token(row: api_token::Model) -> ApiToken {
    ApiToken {
        id: row.id,
        user_id: row.user_id,
        name: row.name,
        created_at: row.created_at,
        expires_at: row.expires_at,
        last_used_at: row.last_used_at,
        save_to_vault: row.save_to_vault,
    }
}

impl ApiTokens {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Makes a token for `user_id`; returns it and the secret (shown once, never stored).
    pub async fn create(
        &self,
        user_id: &str,
        new: NewToken,
        now: DateTime<Utc>,
    ) -> Result<(ApiToken, String), DbErr> {
        let secret = format!("{TOKEN_PREFIX}{}", random_secret());
        let row = api_token::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id.to_owned()),
            name: Set(new.name),
            secret_hash: Set(secret_hash(&secret)),
            created_at: Set(now),
            expires_at: Set(new.expires_at),
            last_used_at: Set(None),
            save_to_vault: Set(new.save_to_vault),
        }
        .insert(&self.db)
        .await?;
        Ok((api_token(row), secret))
    }

    /// The member's tokens, newest first.
    pub async fn list(&self, user_id: &str) -> Result<Vec<ApiToken>, DbErr> {
        Ok(TokenRow::find()
            .filter(api_token::Column::UserId.eq(user_id))
            .order_by_desc(api_token::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(api_token)
            .collect())
    }

    /// One of the member's tokens (another member's id finds nothing).
    pub async fn get(&self, user_id: &str, id: &str) -> Result<Option<ApiToken>, DbErr> {
        Ok(TokenRow::find_by_id(id.to_owned())
            .filter(api_token::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
            .map(api_token))
    }

    /// The token with this secret, whether or not it has expired.
    pub async fn find(&self, secret: &str) -> Result<Option<ApiToken>, DbErr> {
        Ok(TokenRow::find()
            .filter(api_token::Column::SecretHash.eq(secret_hash(secret)))
            .one(&self.db)
            .await?
            .map(api_token))
    }

    /// Records a use, unless one was recorded within the last minute.
    pub async fn touch(&self, token: &ApiToken, now: DateTime<Utc>) -> Result<(), DbErr> {
        if token
            .last_used_at
            .is_some_and(|last| now - last < LAST_USED_RESOLUTION)
        {
            return Ok(());
        }
        TokenRow::update_many()
            .col_expr(api_token::Column::LastUsedAt, Expr::value(now))
            .filter(api_token::Column::Id.eq(token.id.as_str()))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Renames one of the member's tokens or changes where its transcriptions go; `None` when
    /// they have none with this id.
    pub async fn update(
        &self,
        user_id: &str,
        id: &str,
        name: Option<String>,
        save_to_vault: Option<bool>,
    ) -> Result<Option<ApiToken>, DbErr> {
        let Some(row) = TokenRow::find_by_id(id.to_owned())
            .filter(api_token::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
        else {
            return Ok(None);
        };
        let mut row: api_token::ActiveModel = row.into();
        if let Some(name) = name {
            row.name = Set(name);
        }
        if let Some(save_to_vault) = save_to_vault {
            row.save_to_vault = Set(save_to_vault);
        }
        Ok(Some(api_token(row.update(&self.db).await?)))
    }

    /// Revokes one of the member's tokens; false when they have none with this id.
    pub async fn delete(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        Ok(TokenRow::delete_many()
            .filter(api_token::Column::Id.eq(id))
            .filter(api_token::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?
            .rows_affected
            > 0)
    }

    /// Forgets every token of a deleted account.
    pub async fn delete_all(&self, user_id: &str) -> Result<(), DbErr> {
        TokenRow::delete_many()
            .filter(api_token::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

/// The instance's verifier with API tokens in front: an `svt_` token is looked up here, any
/// other goes to the verifier of the auth mode (local sessions or the OIDC issuer). Tokens work
/// in both modes, so an OIDC instance's scripts need no password either.
pub struct WithApiTokens {
    pub inner: SharedVerifier,
    pub tokens: ApiTokens,
    pub members: Members,
    /// OIDC mode's allow-lists: a member taken off them loses their tokens at the next use.
    pub allow_list: EmailAllowList,
}

#[async_trait::async_trait]
impl TokenVerifier for WithApiTokens {
    async fn verify(&self, token: &str) -> Result<Caller, AuthError> {
        if !token.starts_with(TOKEN_PREFIX) {
            return self.inner.verify(token).await;
        }
        let now = Utc::now();
        let found = self
            .tokens
            .find(token)
            .await
            .map_err(internal)?
            .filter(|found| found.is_live(now))
            .ok_or_else(|| {
                AuthError::InvalidToken("unknown, revoked or expired API token".into())
            })?;
        let member = self
            .members
            .get(&found.user_id)
            .await
            .map_err(internal)?
            .ok_or_else(|| AuthError::InvalidToken("no such member".into()))?;
        if member.disabled {
            return Err(AuthError::AccountDisabledToken);
        }
        if !self.allow_list.lists(&member.email) {
            tracing::warn!(user = %member.user_id, "a member off the allow-list used an API token: all of theirs are revoked");
            self.tokens
                .delete_all(&member.user_id)
                .await
                .map_err(internal)?;
            return Err(AuthError::NotAllowed(member.email));
        }
        if let Err(error) = self.tokens.touch(&found, now).await {
            // Losing a "last used" time is not worth refusing the call.
            tracing::warn!(%error, "could not record an API token's use");
        }
        Ok(Caller {
            user: UserId::new(member.user_id),
            email: member.email,
            is_admin: false,
            session: None,
            api_token: Some(found.id),
            expires_at: found
                .expires_at
                .unwrap_or(now + NO_EXPIRY_HORIZON)
                .timestamp(),
        })
    }
}
