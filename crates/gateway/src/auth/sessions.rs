//! Every query of `auth_sessions`: local sign-ins that access tokens name, so that signing
//! out, signing out everywhere, a password change or a disabled account end them at once; and
//! their refresh secrets, swapped on every use so a copied one works once at most.

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
    /// The absolute end; `None` for sessions from before refresh secrets, which cannot renew.
    pub ends_by: Option<DateTime<Utc>>,
}

impl Session {
    /// Whether tokens naming this session are accepted at `now`.
    #[must_use]
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        self.ended_at.is_none() && self.expires_at > now && self.ends_by.is_none_or(|end| end > now)
    }
}

/// How long after a swap the secret it replaced counts as a sibling tab's race rather than a
/// copy. Such a request mints nothing (it is answered 409, and its browser asks again with the
/// new cookie), so the window gives a thief nothing; past it, the old secret ends the session.
pub const RENEWAL_RACE: chrono::Duration = chrono::Duration::seconds(10);

/// What presenting a refresh secret came to.
#[derive(Debug)]
pub enum Rotation {
    /// The secret was the current one: it is spent, and the new one stands.
    Rotated(Session),
    /// The secret was spent by a request of this session a moment ago (another tab of the
    /// same browser, whose cookie jar has the new one now): nothing minted, nothing ended.
    Superseded,
    /// The secret was spent already: someone else holds a copy. The session is ended.
    Reused { user_id: String },
    /// Unknown, or the session has ended or passed its end.
    Refused,
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

    /// A new session whose browser holds the secret `refresh_hash` was made of.
    pub async fn start(
        &self,
        user_id: &str,
        now: DateTime<Utc>,
        lifetime: SessionLifetime,
        refresh_hash: String,
    ) -> Result<Session, DbErr> {
        let ends_by = now + lifetime.absolute;
        let row = auth_session::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id.to_owned()),
            created_at: Set(now),
            expires_at: Set((now + lifetime.idle).min(ends_by)),
            ended_at: Set(None),
            refresh_hash: Set(Some(refresh_hash)),
            previous_refresh_hash: Set(None),
            ends_by: Set(Some(ends_by)),
            rotated_at: Set(None),
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

    /// Spends the refresh secret whose hash is `presented` and stores `next` in its place, if it
    /// is the session's current one and the session lives; the idle end moves out by
    /// `lifetime.idle`, never past the absolute end. A spent secret ends the session.
    pub async fn rotate(
        &self,
        id: &str,
        presented: &str,
        next: String,
        now: DateTime<Utc>,
        idle: chrono::Duration,
    ) -> Result<Rotation, DbErr> {
        let Some(row) = SessionRow::find_by_id(id.to_owned()).one(&self.db).await? else {
            return Ok(Rotation::Refused);
        };
        let current = session(row.clone());
        if !current.is_live(now) {
            return Ok(Rotation::Refused);
        }
        let Some(ends_by) = current.ends_by else {
            return Ok(Rotation::Refused);
        };
        if row.refresh_hash.as_deref() == Some(presented) {
            let expires_at = (now + idle).min(ends_by);
            // Compare-and-swap on the current hash: of two requests with one secret, one wins
            // and the other finds it spent.
            let updated = SessionRow::update_many()
                .col_expr(auth_session::Column::RefreshHash, Expr::value(next))
                .col_expr(
                    auth_session::Column::PreviousRefreshHash,
                    Expr::value(presented.to_owned()),
                )
                .col_expr(auth_session::Column::ExpiresAt, Expr::value(expires_at))
                .col_expr(auth_session::Column::RotatedAt, Expr::value(now))
                .filter(auth_session::Column::Id.eq(id))
                .filter(auth_session::Column::RefreshHash.eq(presented))
                .filter(auth_session::Column::EndedAt.is_null())
                .exec(&self.db)
                .await?;
            if updated.rows_affected == 1 {
                return Ok(Rotation::Rotated(Session {
                    expires_at,
                    ..current
                }));
            }
            // Another request swapped it between the read and the update: the same race as
            // two tabs, answered the same way.
            return Ok(Rotation::Superseded);
        }
        if row.previous_refresh_hash.as_deref() != Some(presented) {
            return Ok(Rotation::Refused);
        }
        if row
            .rotated_at
            .is_some_and(|rotated| now - rotated <= RENEWAL_RACE)
        {
            return Ok(Rotation::Superseded);
        }
        self.end(id, now).await?;
        Ok(Rotation::Reused {
            user_id: current.user_id,
        })
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
        ends_by: row.ends_by,
    }
}

/// How long a session may last.
#[derive(Debug, Clone, Copy)]
pub struct SessionLifetime {
    /// Without a renewal for this long, it ends.
    pub idle: chrono::Duration,
    /// It ends this long after sign-in, renewed or not.
    pub absolute: chrono::Duration,
}
