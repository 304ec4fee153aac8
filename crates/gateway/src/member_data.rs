//! Where a member's data lives: one list, like the targets table and the route table, that
//! account deletion walks. Every service answers `DeleteUserData` for what it keeps (its own
//! tests hold it to that); the gateway's stores are named here with the tables they clear, and a
//! test fails when a gateway table that holds a member's id is on none of them.

use scribevault_core::UserId;
use scribevault_proto::{conversion, discovery, library, storage, transcription, webhooks};

use crate::clients::UserClients;
use crate::context::ApiContext;
use crate::error::ApiError;

/// One place that holds a member's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberData {
    Discovery,
    Transcription,
    Conversion,
    Storage,
    Library,
    Webhooks,
    Settings,
    ApiTokens,
    Feeds,
    Invitations,
    /// The password, sessions, second factor and recovery codes (local mode).
    LocalAccount,
    /// The member row itself: last, so a deletion that fails halfway can be retried.
    Member,
}

/// In the order the services feed each other, so nothing in flight recreates what an earlier
/// step cleared: discovery (downloads hand files to storage and transcription), transcription
/// (hands transcripts to the library), conversion, storage, the library, webhooks (whose
/// deliveries the others' events make); then the gateway's own stores, the member last.
pub const MEMBER_DATA: [MemberData; 12] = [
    MemberData::Discovery,
    MemberData::Transcription,
    MemberData::Conversion,
    MemberData::Storage,
    MemberData::Library,
    MemberData::Webhooks,
    MemberData::Settings,
    MemberData::ApiTokens,
    MemberData::Feeds,
    MemberData::Invitations,
    MemberData::LocalAccount,
    MemberData::Member,
];

impl MemberData {
    /// The gateway tables this place's deletion clears of the member (none for a service).
    #[must_use]
    pub fn gateway_tables(self) -> &'static [&'static str] {
        match self {
            Self::Discovery
            | Self::Transcription
            | Self::Conversion
            | Self::Storage
            | Self::Library
            | Self::Webhooks => &[],
            Self::Settings => &["user_settings"],
            Self::ApiTokens => &["api_tokens"],
            Self::Feeds => &["podcast_feeds"],
            Self::Invitations => &["invitations"],
            Self::LocalAccount => &[
                "user_accounts",
                "auth_sessions",
                "two_factor",
                "two_factor_recovery_codes",
            ],
            Self::Member => &["members"],
        }
    }

    /// Deletes what this place holds of `user`. A second call deletes nothing and succeeds.
    ///
    /// # Errors
    /// A service or the database fails; the deletion can be retried from the start.
    pub async fn delete(
        self,
        context: &ApiContext,
        services: &UserClients,
        user: &UserId,
    ) -> Result<(), ApiError> {
        let id = user.as_str();
        match self {
            Self::Discovery => {
                services
                    .discovery()
                    .delete_user_data(discovery::v1::DeleteUserDataRequest {})
                    .await?;
            }
            Self::Transcription => {
                services
                    .transcription()
                    .delete_user_data(transcription::v1::DeleteUserDataRequest {})
                    .await?;
            }
            Self::Conversion => {
                services
                    .conversion()
                    .delete_user_data(conversion::v1::DeleteUserDataRequest {})
                    .await?;
            }
            Self::Storage => {
                services
                    .storage()
                    .delete_user_data(storage::v1::DeleteUserDataRequest {})
                    .await?;
            }
            Self::Library => {
                services
                    .library()
                    .delete_user_data(library::v1::DeleteUserDataRequest {})
                    .await?;
            }
            Self::Webhooks => {
                services
                    .webhooks()
                    .delete_user_data(webhooks::v1::DeleteUserDataRequest {})
                    .await?;
            }
            Self::Settings => context.settings.delete(id).await?,
            Self::ApiTokens => context.access.tokens.delete_all(id).await?,
            Self::Feeds => context.feeds.store.delete_all(id).await?,
            Self::Invitations => context
                .access
                .invitations
                .forget_member(id)
                .await
                .map_err(crate::auth::internal)?,
            Self::LocalAccount => {
                if let Some(local) = &context.access.local {
                    local.forget(id).await?;
                }
            }
            Self::Member => {
                context.access.members.delete(id).await?;
            }
        }
        tracing::debug!(user = id, place = ?self, tables = ?self.gateway_tables(), "member data deleted");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use sea_orm::{ConnectionTrait as _, Database, DbBackend, Statement};
    use sea_orm_migration::MigratorTrait as _;

    use super::*;

    /// Columns that name a member.
    const MEMBER_COLUMNS: &[&str] = &["user_id", "created_by", "used_by"];

    /// Every gateway table that holds a member's id, as the migrations make them, must be
    /// cleared by a place on the list: a new store added without its deletion fails here.
    #[tokio::test]
    async fn every_gateway_table_that_names_a_member_is_on_the_list() {
        let db = Database::connect("sqlite::memory:").await.unwrap();
        crate::migration::Migrator::up(&db, None).await.unwrap();
        let tables = db
            .query_all_raw(Statement::from_string(
                DbBackend::Sqlite,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'seaql_%' AND name NOT LIKE 'sqlite_%'",
            ))
            .await
            .unwrap();
        let mut holding = BTreeSet::new();
        for row in tables {
            let table: String = row.try_get("", "name").unwrap();
            let columns = db
                .query_all_raw(Statement::from_string(
                    DbBackend::Sqlite,
                    format!("PRAGMA table_info(\"{table}\")"),
                ))
                .await
                .unwrap();
            let names_a_member = columns.iter().any(|column| {
                let name: String = column.try_get("", "name").unwrap();
                MEMBER_COLUMNS.contains(&name.as_str())
            });
            // user_accounts keys accounts by the member's id.
            if names_a_member || table == "user_accounts" {
                holding.insert(table);
            }
        }
        let listed: BTreeSet<String> = MEMBER_DATA
            .iter()
            .flat_map(|place| place.gateway_tables())
            .map(|table| (*table).to_owned())
            .collect();
        assert_eq!(
            holding, listed,
            "each gateway table with a member's id needs its deletion on MEMBER_DATA"
        );
        assert!(holding.len() >= 9, "{holding:?}");
    }
}
