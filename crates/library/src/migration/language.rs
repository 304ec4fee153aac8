//! `library_items.language`: the language an audio item's transcript is in (a Whisper code,
//! such as `de`), shown on the item. Items from before stay without one: their language was
//! never recorded.

use sea_orm_migration::prelude::*;

pub struct ItemLanguage;

impl MigrationName for ItemLanguage {
    fn name(&self) -> &str {
        "m20261126_200002_library_item_language"
    }
}

#[derive(DeriveIden)]
enum LibraryItems {
    Table,
    Language,
}

#[async_trait::async_trait]
impl MigrationTrait for ItemLanguage {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .add_column(ColumnDef::new(LibraryItems::Language).string().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .drop_column(LibraryItems::Language)
                    .to_owned(),
            )
            .await
    }
}
