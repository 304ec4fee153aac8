//! Single-use sign-up links that expire. The link carries a random secret; only its SHA-256 is
//! stored, so a database dump hands out no usable invitation.

use super::secret::{random_secret, secret_hash};
use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, QueryOrder as _, Set,
};

use crate::entity::invitation::{self, Entity as InvitationRow};

/// An invitation as an admin sees it (never its secret after it was made).
#[derive(Debug, Clone)]
pub struct Invitation {
    pub id: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
    /// The user id of the account made with it.
    pub used_by: Option<String>,
}

/// The `invitations` table.
#[derive(Clone)]
pub struct Invitations {
    db: DatabaseConnection,
}

fn invitation(row: invitation::Model) -> Invitation {
    Invitation {
        id: row.id,
        created_at: row.created_at,
        expires_at: row.expires_at,
        used_at: row.used_at,
        used_by: row.used_by,
    }
}

impl Invitations {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Makes an invitation; returns it and the secret for the link (shown once).
    pub async fn create(
        &self,
        created_by: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(Invitation, String), DbErr> {
        let secret = random_secret();
        let row = invitation::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            secret_hash: Set(secret_hash(&secret)),
            created_by: Set(created_by.to_owned()),
            created_at: Set(now),
            expires_at: Set(expires_at),
            used_at: Set(None),
            used_by: Set(None),
        }
        .insert(&self.db)
        .await?;
        Ok((invitation(row), secret))
    }

    /// The unused, unexpired invitation with this secret.
    pub async fn find_open(
        &self,
        secret: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Invitation>, DbErr> {
        Ok(InvitationRow::find()
            .filter(invitation::Column::SecretHash.eq(secret_hash(secret)))
            .filter(invitation::Column::UsedAt.is_null())
            .filter(invitation::Column::ExpiresAt.gt(now))
            .one(&self.db)
            .await?
            .map(invitation))
    }

    /// Marks an open invitation used by `user_id`; false when it was used (or expired) first,
    /// so of two sign-ups racing with one link exactly one gets it.
    pub async fn consume(
        &self,
        id: &str,
        user_id: &str,
        now: DateTime<Utc>,
    ) -> Result<bool, DbErr> {
        let updated = InvitationRow::update_many()
            .col_expr(invitation::Column::UsedAt, Expr::value(now))
            .col_expr(invitation::Column::UsedBy, Expr::value(user_id))
            .filter(invitation::Column::Id.eq(id))
            .filter(invitation::Column::UsedAt.is_null())
            .filter(invitation::Column::ExpiresAt.gt(now))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected == 1)
    }

    /// Every invitation, newest first.
    pub async fn list(&self) -> Result<Vec<Invitation>, DbErr> {
        Ok(InvitationRow::find()
            .order_by_desc(invitation::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(invitation)
            .collect())
    }

    /// Forgets `user` in the invitations: those they made go, and one they signed up with no
    /// longer names them (it stays in the list as used, by a deleted account).
    pub async fn forget_member(&self, user: &str) -> Result<(), DbErr> {
        InvitationRow::delete_many()
            .filter(invitation::Column::CreatedBy.eq(user))
            .exec(&self.db)
            .await?;
        InvitationRow::update_many()
            .col_expr(
                invitation::Column::UsedBy,
                Expr::value(Option::<String>::None),
            )
            .filter(invitation::Column::UsedBy.eq(user))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Revokes an invitation; false when there is none.
    pub async fn delete(&self, id: &str) -> Result<bool, DbErr> {
        Ok(InvitationRow::delete_by_id(id.to_owned())
            .exec(&self.db)
            .await?
            .rows_affected
            > 0)
    }
}
