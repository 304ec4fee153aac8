//! Schema of the transcription service, applied at start.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

mod audio_length;
mod languages;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_transcription").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(CreateTranscriptionTables),
            Box::new(CountTakeBacks),
            Box::new(SkipVault),
            Box::new(FileReplacesItem),
            Box::new(audio_length::FileAudioSeconds),
            Box::new(languages::TranscriptionLanguages),
        ]
    }
}

#[derive(DeriveMigrationName)]
struct CreateTranscriptionTables;

#[derive(DeriveIden)]
enum TranscriptionJobs {
    Table,
    Id,
    UserId,
    Model,
    OutputFormat,
    WindowStart,
    WindowEnd,
    Timezone,
    CreatedAt,
}

#[derive(DeriveIden)]
enum TranscriptionFiles {
    Table,
    Id,
    JobId,
    FileId,
    UserId,
    YoutubeVideoId,
    Title,
    Mp3Path,
    Status,
    Progress,
    ErrorMessage,
    RetryCount,
    MaxRetries,
    LastFailedAt,
    NextAttemptAt,
    TranscriptPath,
    MarkdownPath,
    SegmentsPath,
    ProcessingTimeMs,
    ClaimToken,
    HeartbeatAt,
    TakeBackCount,
    SkipVault,
    ReplacesItem,
    CreatedAt,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateTranscriptionTables {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(TranscriptionJobs::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(TranscriptionJobs::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionJobs::UserId)
                            .string()
                            .not_null(),
                    )
                    .col(ColumnDef::new(TranscriptionJobs::Model).string().not_null())
                    .col(
                        ColumnDef::new(TranscriptionJobs::OutputFormat)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionJobs::WindowStart)
                            .string()
                            .null(),
                    )
                    .col(ColumnDef::new(TranscriptionJobs::WindowEnd).string().null())
                    .col(
                        ColumnDef::new(TranscriptionJobs::Timezone)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionJobs::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(TranscriptionFiles::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(TranscriptionFiles::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::JobId)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::FileId)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::UserId)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::YoutubeVideoId)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::Title)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::Mp3Path)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::Status)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::Progress)
                            .integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::ErrorMessage)
                            .text()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::RetryCount)
                            .integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::MaxRetries)
                            .integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::LastFailedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::NextAttemptAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::TranscriptPath)
                            .string()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::MarkdownPath)
                            .string()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::SegmentsPath)
                            .string()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::ProcessingTimeMs)
                            .big_integer()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::ClaimToken)
                            .integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::HeartbeatAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionFiles::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("transcription_files_job_file_unique")
                    .table(TranscriptionFiles::Table)
                    .col(TranscriptionFiles::JobId)
                    .col(TranscriptionFiles::FileId)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("transcription_files_status")
                    .table(TranscriptionFiles::Table)
                    .col(TranscriptionFiles::Status)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}

/// Counts how often a file was taken back from a worker that went silent, so that a file that
/// kills every worker that claims it (out of memory, a crash) fails for good after a few
/// instead of crash-looping the workers forever (security review F4). Existing rows start at 0.
struct CountTakeBacks;

// Named by hand: the derive names a migration after its module, which the first one has taken.
impl MigrationName for CountTakeBacks {
    fn name(&self) -> &str {
        "m20261126_000002_transcription_take_back_count"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for CountTakeBacks {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per ALTER TABLE: SQLite adds no more at once.
        manager
            .alter_table(
                Table::alter()
                    .table(TranscriptionFiles::Table)
                    .add_column(
                        ColumnDef::new(TranscriptionFiles::TakeBackCount)
                            .integer()
                            .not_null()
                            .default(0),
                    )
                    .to_owned(),
            )
            .await
    }
}

struct SkipVault;

impl MigrationName for SkipVault {
    fn name(&self) -> &str {
        "m20261126_000003_transcription_skip_vault"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for SkipVault {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(TranscriptionFiles::Table)
                    .add_column(
                        ColumnDef::new(TranscriptionFiles::SkipVault)
                            .boolean()
                            .not_null()
                            .default(false),
                    )
                    .to_owned(),
            )
            .await
    }
}

/// A file transcribed to replace a Vault item's transcript names the item.
struct FileReplacesItem;

impl MigrationName for FileReplacesItem {
    fn name(&self) -> &str {
        "m20261126_100001_transcription_file_replaces_item"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for FileReplacesItem {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(TranscriptionFiles::Table)
                    .add_column(
                        ColumnDef::new(TranscriptionFiles::ReplacesItem)
                            .string()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }
}
