//! Schema of the discovery service, applied at start.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_discovery").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateDiscoveryTables)]
    }
}

#[derive(DeriveMigrationName)]
struct CreateDiscoveryTables;

#[derive(DeriveIden)]
enum YoutubeChannels {
    Table,
    Id,
    Title,
    ThumbnailUrl,
    SubscriberCount,
    VideoCount,
    UploadsPlaylist,
    FetchedAt,
    Complete,
}

#[derive(DeriveIden)]
enum YoutubeChannelAliases {
    Table,
    Alias,
    ChannelId,
    ResolvedAt,
}

#[derive(DeriveIden)]
enum YoutubeVideos {
    Table,
    Id,
    ChannelId,
    Title,
    ChannelTitle,
    DurationSeconds,
    PublishedAt,
}

#[derive(DeriveIden)]
enum Sources {
    Table,
    Id,
    UserId,
    Kind,
    ListId,
    PlaylistId,
    Url,
    Title,
    ThumbnailUrl,
    CreatedAt,
}

#[derive(DeriveIden)]
enum SourceVideos {
    Table,
    SourceId,
    Position,
    VideoId,
}

#[derive(DeriveIden)]
enum YoutubeQuotaSpend {
    Table,
    KeyId,
    Day,
    Units,
    Exhausted,
}

fn text(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).string().not_null().to_owned()
}

fn moment(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for CreateDiscoveryTables {
    /// One transaction, so no pooled SQLite connection sees a table without its indexes (the
    /// library's migration explains the failure this avoids).
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(YoutubeChannels::Table)
                    .if_not_exists()
                    .col(text(YoutubeChannels::Id).primary_key())
                    .col(text(YoutubeChannels::Title))
                    .col(text(YoutubeChannels::ThumbnailUrl))
                    .col(
                        ColumnDef::new(YoutubeChannels::SubscriberCount)
                            .big_integer()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(YoutubeChannels::VideoCount)
                            .big_integer()
                            .not_null(),
                    )
                    .col(text(YoutubeChannels::UploadsPlaylist))
                    .col(moment(YoutubeChannels::FetchedAt))
                    .col(
                        ColumnDef::new(YoutubeChannels::Complete)
                            .boolean()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(YoutubeChannelAliases::Table)
                    .if_not_exists()
                    .col(text(YoutubeChannelAliases::Alias).primary_key())
                    .col(text(YoutubeChannelAliases::ChannelId))
                    .col(moment(YoutubeChannelAliases::ResolvedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(YoutubeVideos::Table)
                    .if_not_exists()
                    .col(text(YoutubeVideos::Id).primary_key())
                    .col(text(YoutubeVideos::ChannelId))
                    .col(text(YoutubeVideos::Title))
                    .col(text(YoutubeVideos::ChannelTitle))
                    .col(
                        ColumnDef::new(YoutubeVideos::DurationSeconds)
                            .big_integer()
                            .not_null(),
                    )
                    .col(moment(YoutubeVideos::PublishedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("youtube_videos_channel_published")
                    .table(YoutubeVideos::Table)
                    .col(YoutubeVideos::ChannelId)
                    .col(YoutubeVideos::PublishedAt)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Sources::Table)
                    .if_not_exists()
                    .col(text(Sources::Id).primary_key())
                    .col(text(Sources::UserId))
                    .col(text(Sources::Kind))
                    .col(text(Sources::ListId))
                    .col(text(Sources::PlaylistId))
                    .col(text(Sources::Url))
                    .col(text(Sources::Title))
                    .col(text(Sources::ThumbnailUrl))
                    .col(moment(Sources::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("sources_user_list_unique")
                    .table(Sources::Table)
                    .col(Sources::UserId)
                    .col(Sources::ListId)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(SourceVideos::Table)
                    .if_not_exists()
                    .col(text(SourceVideos::SourceId))
                    .col(ColumnDef::new(SourceVideos::Position).integer().not_null())
                    .col(text(SourceVideos::VideoId))
                    .primary_key(
                        Index::create()
                            .col(SourceVideos::SourceId)
                            .col(SourceVideos::Position),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(YoutubeQuotaSpend::Table)
                    .if_not_exists()
                    .col(text(YoutubeQuotaSpend::KeyId))
                    .col(text(YoutubeQuotaSpend::Day))
                    .col(
                        ColumnDef::new(YoutubeQuotaSpend::Units)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(YoutubeQuotaSpend::Exhausted)
                            .boolean()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(YoutubeQuotaSpend::KeyId)
                            .col(YoutubeQuotaSpend::Day),
                    )
                    .to_owned(),
            )
            .await?;
        Ok(())
    }
}
