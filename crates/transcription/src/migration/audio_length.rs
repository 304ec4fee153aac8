//! How long each file's audio plays (issue 24 §3): the queue forecast multiplies it by the
//! machine's real-time factor. Read from the MP3's first frame at intake and replaced by the
//! length the worker decoded at completion; files from before have none, and the forecast
//! assumes the usual length for them.

use sea_orm_migration::prelude::*;

/// Adds `transcription_files.audio_seconds`.
pub struct FileAudioSeconds;

impl MigrationName for FileAudioSeconds {
    fn name(&self) -> &str {
        "m20261126_300001_transcription_file_audio_seconds"
    }
}

#[derive(DeriveIden)]
enum TranscriptionFiles {
    Table,
    AudioSeconds,
}

#[async_trait::async_trait]
impl MigrationTrait for FileAudioSeconds {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(TranscriptionFiles::Table)
                    .add_column(
                        ColumnDef::new(TranscriptionFiles::AudioSeconds)
                            .double()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }
}
