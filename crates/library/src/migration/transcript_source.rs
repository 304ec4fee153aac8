//! `library_items.transcript_source` and `whisper_job_id`: where an audio item's transcript
//! came from (Whisper, or YouTube's captions), and the Whisper run that will replace a
//! captions transcript while it runs.

use sea_orm::ConnectionTrait as _;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct TranscriptSource;

#[derive(DeriveIden)]
enum LibraryItems {
    Table,
    TranscriptSource,
    WhisperJobId,
}

/// Every audio item made before captions were used was transcribed by Whisper.
const EARLIER_AUDIO_IS_WHISPER: &str = "UPDATE library_items SET transcript_source = 'whisper' \
    WHERE source_type = 'AUDIO' AND transcript_source IS NULL";

#[async_trait::async_trait]
impl MigrationTrait for TranscriptSource {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        for column in [LibraryItems::TranscriptSource, LibraryItems::WhisperJobId] {
            manager
                .alter_table(
                    Table::alter()
                        .table(LibraryItems::Table)
                        .add_column(ColumnDef::new(column).string().null())
                        .to_owned(),
                )
                .await?;
        }
        manager
            .get_connection()
            .execute_unprepared(EARLIER_AUDIO_IS_WHISPER)
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for column in [LibraryItems::WhisperJobId, LibraryItems::TranscriptSource] {
            manager
                .alter_table(
                    Table::alter()
                        .table(LibraryItems::Table)
                        .drop_column(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }
}
