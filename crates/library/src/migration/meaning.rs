//! Search by meaning (docs/adr/0026-meaning-search.md): `library_chunks` holds each item cut by
//! time (`domain::chunks`), and `library_item_vectors` records which items have their vectors,
//! made by which model, so the back-fill finds what is left and a new model re-embeds.
//!
//! The vectors themselves live where the database's vector extension keeps them: a `vec0`
//! table (sqlite-vec) or a `vector(384)` column (pgvector). Those are made when the store
//! opens, not here, because a database without the extension must still migrate and keep its
//! keyword search (`store/vectors.rs`).

use sea_orm_migration::prelude::*;

pub struct Meaning;

impl MigrationName for Meaning {
    fn name(&self) -> &'static str {
        "m20261202_000001_library_meaning"
    }
}

#[derive(DeriveIden)]
enum LibraryChunks {
    Table,
    Id,
    ItemSeq,
    UserId,
    Position,
    StartMs,
    EndMs,
    Text,
}

#[derive(DeriveIden)]
enum LibraryItemVectors {
    Table,
    ItemSeq,
    UserId,
    Model,
    EmbeddedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for Meaning {
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LibraryChunks::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(LibraryChunks::Id)
                            .big_integer()
                            .not_null()
                            .auto_increment()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(LibraryChunks::ItemSeq)
                            .big_integer()
                            .not_null(),
                    )
                    .col(ColumnDef::new(LibraryChunks::UserId).string().not_null())
                    .col(ColumnDef::new(LibraryChunks::Position).integer().not_null())
                    .col(ColumnDef::new(LibraryChunks::StartMs).big_integer().null())
                    .col(ColumnDef::new(LibraryChunks::EndMs).big_integer().null())
                    .col(ColumnDef::new(LibraryChunks::Text).text().not_null())
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("library_chunks_item")
                    .table(LibraryChunks::Table)
                    .col(LibraryChunks::ItemSeq)
                    .col(LibraryChunks::Position)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LibraryItemVectors::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(LibraryItemVectors::ItemSeq)
                            .big_integer()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(LibraryItemVectors::UserId)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LibraryItemVectors::Model)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LibraryItemVectors::EmbeddedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("library_item_vectors_user")
                    .table(LibraryItemVectors::Table)
                    .col(LibraryItemVectors::UserId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}
