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
        vec![
            Box::new(CreateDiscoveryTables),
            Box::new(CreateDownloadAndScheduleTables),
            Box::new(CreateSyncPreferences),
            Box::new(CreateUserQuotaSpend),
            Box::new(UseCaptions),
        ]
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
        create_channel_tables(manager).await?;
        create_video_table(manager).await?;
        create_source_tables(manager).await?;
        create_quota_table(manager).await?;
        Ok(())
    }
}

/// YouTube channels and the aliases they were found under.
async fn create_channel_tables(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
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
    Ok(())
}

/// Videos as listed, with the index their listing reads.
async fn create_video_table(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
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
    Ok(())
}

/// Sources the users follow and the videos each lists.
async fn create_source_tables(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
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
    Ok(())
}

/// The quota ledger: units spent per key and day.
async fn create_quota_table(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
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

struct CreateDownloadAndScheduleTables;

/// Named by hand: the derive names a migration after its file, which the first one took.
impl MigrationName for CreateDownloadAndScheduleTables {
    fn name(&self) -> &str {
        "m20261123_000002_download_jobs_and_schedules"
    }
}

#[derive(DeriveIden)]
enum DownloadJobs {
    Table,
    Id,
    UserId,
    SourceId,
    SourceTitle,
    Status,
    TotalVideos,
    ProcessedVideos,
    FailedVideos,
    ErrorMessage,
    Transcribe,
    Model,
    OutputFormat,
    ClaimToken,
    HeartbeatAt,
    CurrentVideoId,
    CurrentVideoTitle,
    CurrentPercent,
    SupersededBy,
    StartedAt,
    CompletedAt,
    CreatedAt,
}

#[derive(DeriveIden)]
enum DownloadJobVideos {
    Table,
    JobId,
    Position,
    VideoId,
    Title,
    Outcome,
    Reason,
    Mp3Path,
}

#[derive(DeriveIden)]
enum Schedules {
    Table,
    Id,
    UserId,
    SourceId,
    Frequency,
    TimeOfDay,
    Timezone,
    AnchoredAt,
    IsActive,
    NextRunAt,
    LastRunAt,
    CreatedAt,
}

fn count(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).integer().not_null().to_owned()
}

fn optional_text(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).string().null().to_owned()
}

fn optional_moment(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .null()
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for CreateDownloadAndScheduleTables {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_download_job_tables(manager).await?;
        create_schedule_table(manager).await?;
        Ok(())
    }
}

/// Download jobs, with the indexes their lists and claims read, and the videos of each.
async fn create_download_job_tables(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(DownloadJobs::Table)
                .if_not_exists()
                .col(text(DownloadJobs::Id).primary_key())
                .col(text(DownloadJobs::UserId))
                .col(text(DownloadJobs::SourceId))
                .col(text(DownloadJobs::SourceTitle))
                .col(text(DownloadJobs::Status))
                .col(count(DownloadJobs::TotalVideos))
                .col(count(DownloadJobs::ProcessedVideos))
                .col(count(DownloadJobs::FailedVideos))
                .col(ColumnDef::new(DownloadJobs::ErrorMessage).text().null())
                .col(
                    ColumnDef::new(DownloadJobs::Transcribe)
                        .boolean()
                        .not_null(),
                )
                .col(text(DownloadJobs::Model))
                .col(text(DownloadJobs::OutputFormat))
                .col(optional_text(DownloadJobs::ClaimToken))
                .col(optional_moment(DownloadJobs::HeartbeatAt))
                .col(optional_text(DownloadJobs::CurrentVideoId))
                .col(optional_text(DownloadJobs::CurrentVideoTitle))
                .col(count(DownloadJobs::CurrentPercent))
                .col(optional_text(DownloadJobs::SupersededBy))
                .col(optional_moment(DownloadJobs::StartedAt))
                .col(optional_moment(DownloadJobs::CompletedAt))
                .col(moment(DownloadJobs::CreatedAt))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("download_jobs_user_created")
                .table(DownloadJobs::Table)
                .col(DownloadJobs::UserId)
                .col(DownloadJobs::CreatedAt)
                .if_not_exists()
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("download_jobs_status")
                .table(DownloadJobs::Table)
                .col(DownloadJobs::Status)
                .if_not_exists()
                .to_owned(),
        )
        .await?;
    manager
        .create_table(
            Table::create()
                .table(DownloadJobVideos::Table)
                .if_not_exists()
                .col(text(DownloadJobVideos::JobId))
                .col(count(DownloadJobVideos::Position))
                .col(text(DownloadJobVideos::VideoId))
                .col(text(DownloadJobVideos::Title))
                .col(text(DownloadJobVideos::Outcome))
                .col(ColumnDef::new(DownloadJobVideos::Reason).text().null())
                .col(optional_text(DownloadJobVideos::Mp3Path))
                .primary_key(
                    Index::create()
                        .col(DownloadJobVideos::JobId)
                        .col(DownloadJobVideos::Position),
                )
                .to_owned(),
        )
        .await?;
    Ok(())
}

/// Scheduled syncs, with the indexes their runs and lists read.
async fn create_schedule_table(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Schedules::Table)
                .if_not_exists()
                .col(text(Schedules::Id).primary_key())
                .col(text(Schedules::UserId))
                .col(text(Schedules::SourceId))
                .col(text(Schedules::Frequency))
                .col(text(Schedules::TimeOfDay))
                .col(text(Schedules::Timezone))
                .col(moment(Schedules::AnchoredAt))
                .col(ColumnDef::new(Schedules::IsActive).boolean().not_null())
                .col(optional_moment(Schedules::NextRunAt))
                .col(optional_moment(Schedules::LastRunAt))
                .col(moment(Schedules::CreatedAt))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("schedules_due")
                .table(Schedules::Table)
                .col(Schedules::IsActive)
                .col(Schedules::NextRunAt)
                .if_not_exists()
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("schedules_user")
                .table(Schedules::Table)
                .col(Schedules::UserId)
                .if_not_exists()
                .to_owned(),
        )
        .await?;
    Ok(())
}

struct CreateSyncPreferences;

impl MigrationName for CreateSyncPreferences {
    fn name(&self) -> &str {
        "m20261124_000003_sync_preferences"
    }
}

#[derive(DeriveIden)]
enum SyncPreferences {
    Table,
    UserId,
    AutoDownload,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateSyncPreferences {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SyncPreferences::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(SyncPreferences::UserId)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(SyncPreferences::AutoDownload)
                            .boolean()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(SyncPreferences::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }
}

struct CreateUserQuotaSpend;

impl MigrationName for CreateUserQuotaSpend {
    fn name(&self) -> &str {
        "m20261126_000004_create_user_quota_spend"
    }
}

#[derive(DeriveIden)]
enum YoutubeUserSpend {
    Table,
    UserId,
    Day,
    Units,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateUserQuotaSpend {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(YoutubeUserSpend::Table)
                    .if_not_exists()
                    .col(ColumnDef::new(YoutubeUserSpend::UserId).string().not_null())
                    .col(ColumnDef::new(YoutubeUserSpend::Day).string().not_null())
                    .col(
                        ColumnDef::new(YoutubeUserSpend::Units)
                            .big_integer()
                            .not_null(),
                    )
                    .primary_key(
                        Index::create()
                            .col(YoutubeUserSpend::UserId)
                            .col(YoutubeUserSpend::Day),
                    )
                    .to_owned(),
            )
            .await
    }
}

/// 'Use YouTube captions when available': per download job, per schedule, and the user's
/// default (handed over with the sync preferences). Off where nobody chose it.
struct UseCaptions;

impl MigrationName for UseCaptions {
    fn name(&self) -> &str {
        "m20261126_100002_use_captions"
    }
}

#[derive(DeriveIden)]
enum UseCaptionsColumn {
    UseCaptions,
}

#[async_trait::async_trait]
impl MigrationTrait for UseCaptions {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let tables: [sea_orm::DynIden; 3] = [
            Alias::new("download_jobs").into_iden(),
            Alias::new("schedules").into_iden(),
            Alias::new("sync_preferences").into_iden(),
        ];
        for table in tables {
            manager
                .alter_table(
                    Table::alter()
                        .table(table)
                        .add_column(
                            ColumnDef::new(UseCaptionsColumn::UseCaptions)
                                .boolean()
                                .not_null()
                                .default(false),
                        )
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
