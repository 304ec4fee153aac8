//! Spoken languages (issue 24 §5): what each job is transcribed as, the language each completed
//! file's transcript is in, and each user's default, handed over by the gateway (ADR 0015).

use sea_orm_migration::prelude::*;

/// Adds `transcription_jobs.language`, `transcription_files.language` and the
/// `transcription_preferences` table. Jobs from before keep no language: their files are
/// decoded as the worker's own setting says, as they were when queued.
pub struct TranscriptionLanguages;

impl MigrationName for TranscriptionLanguages {
    fn name(&self) -> &str {
        "m20261126_200001_transcription_languages"
    }
}

#[derive(DeriveIden)]
enum TranscriptionJobs {
    Table,
    Language,
}

#[derive(DeriveIden)]
enum TranscriptionFiles {
    Table,
    Language,
}

#[derive(DeriveIden)]
enum TranscriptionPreferences {
    Table,
    UserId,
    Language,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for TranscriptionLanguages {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per ALTER TABLE: SQLite adds no more at once.
        manager
            .alter_table(
                Table::alter()
                    .table(TranscriptionJobs::Table)
                    .add_column(ColumnDef::new(TranscriptionJobs::Language).string().null())
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(TranscriptionFiles::Table)
                    .add_column(ColumnDef::new(TranscriptionFiles::Language).string().null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(TranscriptionPreferences::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(TranscriptionPreferences::UserId)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionPreferences::Language)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(TranscriptionPreferences::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }
}
