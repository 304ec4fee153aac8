//! The `podcast_feeds` table. A feed's URL carries 256 random bits; only their SHA-256 is
//! stored (a slow hash defends guessable secrets; these are not), like API tokens and
//! invitations.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, QueryOrder as _, Set,
};

use super::FeedScope;
use crate::auth::secret::{random_secret as new_secret, secret_hash};
use crate::entity::podcast_feed::{self, Entity as FeedRow};

/// How long after a fetch the next one is recorded: podcast apps poll, and a poll need not
/// write to the database every time.
const LAST_FETCHED_RESOLUTION: Duration = Duration::minutes(1);

/// A feed as its owner sees it (never its secret after it was made).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    pub id: String,
    pub user_id: String,
    pub scope: FeedScope,
    pub created_at: DateTime<Utc>,
    pub last_fetched_at: Option<DateTime<Utc>>,
}

/// The gateway's podcast feeds.
#[derive(Clone)]
pub struct FeedStore {
    db: DatabaseConnection,
}

fn feed(row: podcast_feed::Model) -> Option<Feed> {
    let scope = FeedScope::from_stored(&row.scope, row.scope_id)?;
    Some(Feed {
        id: row.id,
        user_id: row.user_id,
        scope,
        created_at: row.created_at,
        last_fetched_at: row.last_fetched_at,
    })
}

fn readable(row: podcast_feed::Model) -> Result<Feed, DbErr> {
    let id = row.id.clone();
    feed(row).ok_or_else(|| DbErr::Custom(format!("podcast feed {id} has an unknown scope")))
}

impl FeedStore {
    #[must_use]
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Makes a feed for `user_id`; returns it and the secret for its URL (shown in the URL,
    /// never stored).
    pub async fn create(
        &self,
        user_id: &str,
        scope: FeedScope,
        now: DateTime<Utc>,
    ) -> Result<(Feed, String), DbErr> {
        let secret = new_secret();
        let (kind, scope_id) = scope.to_stored();
        let row = podcast_feed::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id.to_owned()),
            scope: Set(kind.to_owned()),
            scope_id: Set(scope_id),
            secret_hash: Set(secret_hash(&secret)),
            created_at: Set(now),
            last_fetched_at: Set(None),
        }
        .insert(&self.db)
        .await?;
        Ok((readable(row)?, secret))
    }

    /// The member's feeds, newest first.
    pub async fn list(&self, user_id: &str) -> Result<Vec<Feed>, DbErr> {
        FeedRow::find()
            .filter(podcast_feed::Column::UserId.eq(user_id))
            .order_by_desc(podcast_feed::Column::CreatedAt)
            .all(&self.db)
            .await?
            .into_iter()
            .map(readable)
            .collect()
    }

    /// The feed whose URL carries `secret`.
    pub async fn find(&self, secret: &str) -> Result<Option<Feed>, DbErr> {
        FeedRow::find()
            .filter(podcast_feed::Column::SecretHash.eq(secret_hash(secret)))
            .one(&self.db)
            .await?
            .map(readable)
            .transpose()
    }

    /// Gives one of the member's feeds a new secret, so the old URL stops working at once;
    /// `None` when they have no feed with this id.
    pub async fn rotate(&self, user_id: &str, id: &str) -> Result<Option<(Feed, String)>, DbErr> {
        let Some(row) = FeedRow::find_by_id(id.to_owned())
            .filter(podcast_feed::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
        else {
            return Ok(None);
        };
        let secret = new_secret();
        let mut row: podcast_feed::ActiveModel = row.into();
        row.secret_hash = Set(secret_hash(&secret));
        let row = row.update(&self.db).await?;
        Ok(Some((readable(row)?, secret)))
    }

    /// Records a fetch of the feed's XML, unless one was recorded within the last minute.
    pub async fn touch(&self, feed: &Feed, now: DateTime<Utc>) -> Result<(), DbErr> {
        if feed
            .last_fetched_at
            .is_some_and(|last| now - last < LAST_FETCHED_RESOLUTION)
        {
            return Ok(());
        }
        FeedRow::update_many()
            .col_expr(podcast_feed::Column::LastFetchedAt, Expr::value(now))
            .filter(podcast_feed::Column::Id.eq(feed.id.as_str()))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Revokes one of the member's feeds; false when they have none with this id.
    pub async fn delete(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        Ok(FeedRow::delete_many()
            .filter(podcast_feed::Column::Id.eq(id))
            .filter(podcast_feed::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?
            .rows_affected
            > 0)
    }

    /// Forgets every feed of a deleted account.
    pub async fn delete_all(&self, user_id: &str) -> Result<(), DbErr> {
        FeedRow::delete_many()
            .filter(podcast_feed::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
