//! `library_items.review`: what the transcription worker's quality guard left to check on an
//! audio item ('Needs review'), as the contract's JSON (`{"ranges":[{startMs, endMs,
//! reason}]}`); NULL when nothing was, so the Vault's `needsReview` filter is a NULL test.
//! Items from before were never checked and stay NULL.

use sea_orm_migration::prelude::*;

pub struct ItemReview;

impl MigrationName for ItemReview {
    fn name(&self) -> &str {
        "m20261126_200003_library_item_review"
    }
}

#[derive(DeriveIden)]
enum LibraryItems {
    Table,
    Review,
}

#[async_trait::async_trait]
impl MigrationTrait for ItemReview {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .add_column(ColumnDef::new(LibraryItems::Review).text().null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .drop_column(LibraryItems::Review)
                    .to_owned(),
            )
            .await
    }
}
