//! Every query of `auth_sessions`: local sign-ins that access tokens name, so that signing
//! out, signing out everywhere, a password change or a disabled account end them at once.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, Set,
};

use crate::entity::auth_session::{self, Entity as SessionRow};

/// A sign-in.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub user_id: String,
    pub expires_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
}

impl Session {
    /// Whether tokens naming this session are accepted at `now`.
    #[must_use]
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.ended_at.is_none() && self.expires_at > now
    }
}

/// The `auth_sessions` table.
#[derive(Clone)]
pub struct Sessions {
    db: DatabaseConnection,
}

impl Sessions {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    pub async fn start(
        &self,
        user_id: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<Session, DbErr> {
        let row = auth_session::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id.to_owned()),
            created_at: Set(now),
            expires_at: Set(expires_at),
            ended_at: Set(None),
        }
        .insert(&self.db)
        .await?;
        Ok(session(row))
    }

    pub async fn get(&self, id: &str) -> Result<Option<Session>, DbErr> {
        Ok(SessionRow::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(session))
    }

    /// Pushes a live session's end out to `expires_at`; false when it has ended.
    pub async fn renew(
        &self,
        id: &str,
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<bool, DbErr> {
        let updated = SessionRow::update_many()
            .col_expr(auth_session::Column::ExpiresAt, Expr::value(expires_at))
            .filter(auth_session::Column::Id.eq(id))
            .filter(auth_session::Column::EndedAt.is_null())
            .filter(auth_session::Column::ExpiresAt.gt(now))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected == 1)
    }

    pub async fn end(&self, id: &str, now: DateTime<Utc>) -> Result<(), DbErr> {
        SessionRow::update_many()
            .col_expr(auth_session::Column::EndedAt, Expr::value(now))
            .filter(auth_session::Column::Id.eq(id))
            .filter(auth_session::Column::EndedAt.is_null())
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Ends every session of `user_id` but `except`.
    pub async fn end_all(
        &self,
        user_id: &str,
        except: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<(), DbErr> {
        let mut update = SessionRow::update_many()
            .col_expr(auth_session::Column::EndedAt, Expr::value(now))
            .filter(auth_session::Column::UserId.eq(user_id))
            .filter(auth_session::Column::EndedAt.is_null());
        if let Some(except) = except {
            update = update.filter(auth_session::Column::Id.ne(except));
        }
        update.exec(&self.db).await?;
        Ok(())
    }

    /// Forgets every session of a deleted account.
    pub async fn delete_all(&self, user_id: &str) -> Result<(), DbErr> {
        SessionRow::delete_many()
            .filter(auth_session::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}

fn session(row: auth_session::Model) -> Session {
    Session {
        id: row.id,
        user_id: row.user_id,
        expires_at: row.expires_at,
        ended_at: row.ended_at,
    }
}
