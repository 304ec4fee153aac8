//! `library_items.audio_path`: the recording an audio item was transcribed from, for the player.

use sea_orm::ConnectionTrait as _;
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct AudioPath;

#[derive(DeriveIden)]
enum LibraryItems {
    Table,
    AudioPath,
}

/// Fills the path of items ingested before it was recorded from transcription's own rows,
/// when they live in the same database (one `scribevault all`, or services sharing one URL):
/// the item's `source_ref` is `transcription:<file row id>`. Items whose file row is gone, or
/// a library in a database of its own, keep no path and have no player.
const FILL_FROM_TRANSCRIPTION_FILES: &str = "UPDATE library_items SET audio_path = (\
    SELECT f.mp3_path FROM transcription_files f \
    WHERE f.user_id = library_items.user_id \
    AND 'transcription:' || f.id = library_items.source_ref) \
    WHERE source_type = 'AUDIO' AND audio_path IS NULL AND source_ref LIKE 'transcription:%'";

#[async_trait::async_trait]
impl MigrationTrait for AudioPath {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .add_column(ColumnDef::new(LibraryItems::AudioPath).string().null())
                    .to_owned(),
            )
            .await?;
        if manager.has_table("transcription_files").await? {
            manager
                .get_connection()
                .execute_unprepared(FILL_FROM_TRANSCRIPTION_FILES)
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .drop_column(LibraryItems::AudioPath)
                    .to_owned(),
            )
            .await
    }
}
