//! Every query of `members`: who belongs to the instance, in both auth modes.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait as _, Query};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, ConnectionTrait as _, DatabaseConnection, DbBackend,
    DbErr, EntityTrait as _, PaginatorTrait as _, QueryFilter as _, QueryOrder as _,
    QuerySelect as _, Set, TransactionTrait as _,
};

use crate::entity::member::{self, Entity as MemberRow};

/// A member of the instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub user_id: String,
    pub email: String,
    pub is_admin: bool,
    pub disabled: bool,
    pub created_at: DateTime<Utc>,
    pub last_sign_in_at: Option<DateTime<Utc>>,
    pub storage_cap_gb: Option<u32>,
    pub sessions_ended_at: Option<DateTime<Utc>>,
}

/// Why an admin's change was not made.
#[derive(Debug, thiserror::Error)]
pub enum MemberChangeError {
    /// It would leave no enabled admin.
    #[error("The instance needs an admin: make another member an admin first")]
    LastAdmin,
    #[error(transparent)]
    Database(#[from] DbErr),
}

/// What an admin may change about a member.
#[derive(Debug, Clone, Default)]
pub struct MemberChange {
    pub is_admin: Option<bool>,
    pub disabled: Option<bool>,
    /// `Some(None)` removes the cap.
    pub storage_cap_gb: Option<Option<u32>>,
}

impl From<MemberChangeError> for crate::error::ApiError {
    fn from(error: MemberChangeError) -> Self {
        match error {
            MemberChangeError::LastAdmin => {
                Self::new(scribevault_core::ErrorCode::Conflict, error.to_string())
            }
            MemberChangeError::Database(error) => Self::internal(error),
        }
    }
}

fn member(row: member::Model) -> Member {
    Member {
        user_id: row.user_id,
        email: row.email,
        is_admin: row.is_admin,
        disabled: row.disabled,
        created_at: row.created_at,
        last_sign_in_at: row.last_sign_in_at,
        storage_cap_gb: row.storage_cap_gb.and_then(|gb| u32::try_from(gb).ok()),
        sessions_ended_at: row.sessions_ended_at,
    }
}

/// The `members` table.
#[derive(Clone)]
pub struct Members {
    db: DatabaseConnection,
}

impl Members {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    pub async fn get(&self, user_id: &str) -> Result<Option<Member>, DbErr> {
        Ok(MemberRow::find_by_id(user_id.to_owned())
            .one(&self.db)
            .await?
            .map(member))
    }

    /// Whether the instance has no member yet (the next sign-up becomes its admin).
    pub async fn is_empty(&self) -> Result<bool, DbErr> {
        Ok(MemberRow::find().count(&self.db).await? == 0)
    }

    /// Every member, oldest first.
    pub async fn list(&self) -> Result<Vec<Member>, DbErr> {
        Ok(MemberRow::find()
            .order_by_asc(member::Column::CreatedAt)
            .order_by_asc(member::Column::UserId)
            .all(&self.db)
            .await?
            .into_iter()
            .map(member)
            .collect())
    }

    /// Adds a member; then the oldest member is made admin if none is, so of two first
    /// sign-ups racing exactly one ends up owning the instance.
    pub async fn insert(
        &self,
        user_id: &str,
        email: &str,
        now: DateTime<Utc>,
    ) -> Result<Member, DbErr> {
        member::ActiveModel {
            user_id: Set(user_id.to_owned()),
            email: Set(email.to_owned()),
            is_admin: Set(false),
            disabled: Set(false),
            created_at: Set(now),
            last_sign_in_at: Set(Some(now)),
            storage_cap_gb: Set(None),
            sessions_ended_at: Set(None),
        }
        .insert(&self.db)
        .await?;
        self.promote_oldest_if_no_admin().await?;
        self.get(user_id)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound(user_id.to_owned()))
    }

    async fn promote_oldest_if_no_admin(&self) -> Result<(), DbErr> {
        let admins = MemberRow::find()
            .filter(member::Column::IsAdmin.eq(true))
            .count(&self.db)
            .await?;
        if admins > 0 {
            return Ok(());
        }
        let oldest = Query::select()
            .column(member::Column::UserId)
            .from(MemberRow)
            .order_by(member::Column::CreatedAt, sea_orm::Order::Asc)
            .order_by(member::Column::UserId, sea_orm::Order::Asc)
            .limit(1)
            .to_owned();
        let promote = Query::update()
            .table(MemberRow)
            .value(member::Column::IsAdmin, true)
            .and_where(Expr::col(member::Column::UserId).in_subquery(oldest))
            .to_owned();
        self.db.execute(&promote).await?;
        Ok(())
    }

    /// A member seen through an OIDC token: added on first sight, its email kept current, and
    /// made admin when the configuration names it (never demoted by it: an admin made in the
    /// Users tab stays one).
    pub async fn upsert_seen(
        &self,
        user_id: &str,
        email: &str,
        configured_admin: bool,
        now: DateTime<Utc>,
    ) -> Result<Member, DbErr> {
        match self.get(user_id).await? {
            None => {
                let row = member::ActiveModel {
                    user_id: Set(user_id.to_owned()),
                    email: Set(email.to_owned()),
                    is_admin: Set(configured_admin),
                    disabled: Set(false),
                    created_at: Set(now),
                    last_sign_in_at: Set(Some(now)),
                    storage_cap_gb: Set(None),
                    sessions_ended_at: Set(None),
                };
                match row.insert(&self.db).await {
                    Ok(row) => Ok(member(row)),
                    // Two first requests raced: the other inserted it.
                    Err(_) => self
                        .get(user_id)
                        .await?
                        .ok_or_else(|| DbErr::RecordNotFound(user_id.to_owned())),
                }
            }
            Some(existing)
                if existing.email != email || (configured_admin && !existing.is_admin) =>
            {
                let mut row: member::ActiveModel = MemberRow::find_by_id(user_id.to_owned())
                    .one(&self.db)
                    .await?
                    .ok_or_else(|| DbErr::RecordNotFound(user_id.to_owned()))?
                    .into();
                row.email = Set(email.to_owned());
                if configured_admin {
                    row.is_admin = Set(true);
                }
                Ok(member(row.update(&self.db).await?))
            }
            Some(existing) => Ok(existing),
        }
    }

    pub async fn record_sign_in(&self, user_id: &str, now: DateTime<Utc>) -> Result<(), DbErr> {
        MemberRow::update_many()
            .col_expr(member::Column::LastSignInAt, Expr::value(now))
            .filter(member::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Notes that every session of `user_id` ended at `now`.
    pub async fn record_sessions_ended(
        &self,
        user_id: &str,
        now: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        MemberRow::update_many()
            .col_expr(member::Column::SessionsEndedAt, Expr::value(now))
            .filter(member::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Whether a link `user_id` got at `issued_at` (Unix seconds) still works: the member is
    /// there and enabled, and has not ended every session since. Links carry whole seconds, so
    /// one made in the second of the sign-out counts as made before it.
    pub async fn link_still_works(&self, user_id: &str, issued_at: i64) -> Result<bool, DbErr> {
        Ok(self.get(user_id).await?.is_some_and(|member| {
            !member.disabled
                && member
                    .sessions_ended_at
                    .is_none_or(|ended| issued_at > ended.timestamp())
        }))
    }

    /// Applies an admin's change; `None` when there is no such member. A change that would
    /// leave the instance without an enabled admin is refused: the admins' rows are locked for
    /// it (`FOR UPDATE` on PostgreSQL; SQLite has one writer), so two admins demoting each
    /// other at once cannot both succeed.
    ///
    /// # Errors
    /// [`MemberChangeError::LastAdmin`], or the database fails.
    pub async fn change(
        &self,
        user_id: &str,
        change: &MemberChange,
    ) -> Result<Option<Member>, MemberChangeError> {
        let transaction = self.db.begin().await?;
        let mut admins = MemberRow::find()
            .filter(member::Column::IsAdmin.eq(true))
            .filter(member::Column::Disabled.eq(false));
        if transaction.get_database_backend() == DbBackend::Postgres {
            admins = admins.lock_exclusive();
        }
        let admins = admins.all(&transaction).await?;
        let Some(row) = MemberRow::find_by_id(user_id.to_owned())
            .one(&transaction)
            .await?
        else {
            return Ok(None);
        };
        let ends_an_admin = row.is_admin
            && !row.disabled
            && (change.is_admin == Some(false) || change.disabled == Some(true));
        if ends_an_admin && admins.iter().all(|admin| admin.user_id == user_id) {
            return Err(MemberChangeError::LastAdmin);
        }
        let mut row: member::ActiveModel = row.into();
        if let Some(is_admin) = change.is_admin {
            row.is_admin = Set(is_admin);
        }
        if let Some(disabled) = change.disabled {
            row.disabled = Set(disabled);
        }
        if let Some(cap) = change.storage_cap_gb {
            row.storage_cap_gb = Set(cap.and_then(|gb| i32::try_from(gb).ok()));
        }
        let changed = member(row.update(&transaction).await?);
        transaction.commit().await?;
        Ok(Some(changed))
    }

    /// Removes the member row (the caller removes the rest of the account).
    pub async fn delete(&self, user_id: &str) -> Result<bool, DbErr> {
        Ok(MemberRow::delete_by_id(user_id.to_owned())
            .exec(&self.db)
            .await?
            .rows_affected
            > 0)
    }
}
