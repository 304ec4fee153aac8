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
        manager.create_table(jobs_table()).await?;
        manager.create_table(files_table()).await?;
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

fn jobs_table() -> TableCreateStatement {
    use TranscriptionJobs as Jobs;
    Table::create()
        .table(Jobs::Table)
        .if_not_exists()
        .col(string(Jobs::Id).primary_key())
        .col(string(Jobs::UserId))
        .col(string(Jobs::Model))
        .col(string(Jobs::OutputFormat))
        .col(optional_string(Jobs::WindowStart))
        .col(optional_string(Jobs::WindowEnd))
        .col(string(Jobs::Timezone))
        .col(timestamp(Jobs::CreatedAt))
        .to_owned()
}

fn files_table() -> TableCreateStatement {
    use TranscriptionFiles as Files;
    Table::create()
        .table(Files::Table)
        .if_not_exists()
        .col(string(Files::Id).primary_key())
        .col(string(Files::JobId))
        .col(string(Files::FileId))
        .col(string(Files::UserId))
        .col(string(Files::YoutubeVideoId))
        .col(string(Files::Title))
        .col(string(Files::Mp3Path))
        .col(string(Files::Status))
        .col(integer(Files::Progress))
        .col(ColumnDef::new(Files::ErrorMessage).text().null())
        .col(integer(Files::RetryCount))
        .col(integer(Files::MaxRetries))
        .col(optional_timestamp(Files::LastFailedAt))
        .col(optional_timestamp(Files::NextAttemptAt))
        .col(optional_string(Files::TranscriptPath))
        .col(optional_string(Files::MarkdownPath))
        .col(optional_string(Files::SegmentsPath))
        .col(ColumnDef::new(Files::ProcessingTimeMs).big_integer().null())
        .col(integer(Files::ClaimToken))
        .col(optional_timestamp(Files::HeartbeatAt))
        .col(timestamp(Files::CreatedAt))
        .col(timestamp(Files::UpdatedAt))
        .to_owned()
}

fn string(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).string().not_null().to_owned()
}

fn optional_string(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).string().null().to_owned()
}

fn integer(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).integer().not_null().to_owned()
}

fn timestamp(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

fn optional_timestamp(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .null()
        .to_owned()
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
