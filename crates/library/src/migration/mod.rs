//! Schema of the library service, applied at start.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

mod audio_path;
mod item_column;
mod language;
mod meaning;
mod review;
mod search_newest_first;
mod sort_indexes;
mod transcript_source;
mod vault;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_library").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(CreateLibraryItems),
            Box::new(vault::FullVault),
            Box::new(sort_indexes::SortIndexes),
            Box::new(search_newest_first::SearchNewestFirst),
            Box::new(audio_path::AudioPath),
            Box::new(transcript_source::TranscriptSource),
            Box::new(language::ITEM_LANGUAGE),
            Box::new(review::ITEM_REVIEW),
            Box::new(meaning::Meaning),
        ]
    }
}

#[derive(DeriveMigrationName)]
struct CreateLibraryItems;

#[derive(DeriveIden)]
enum LibraryItems {
    Table,
    Id,
    UserId,
    SourceRef,
    Title,
    Author,
    Content,
    SourceType,
    Rating,
    IsStarred,
    Tags,
    GwthLevel,
    DurationSeconds,
    CreatedAt,
    LastExported,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateLibraryItems {
    /// In one transaction on every backend: SQLite runs migrations statement by statement on
    /// whichever pooled connection is free, so a connection could cache the new table without
    /// its unique index, and then refuse `insert_once`'s `ON CONFLICT (user_id, source_ref)`
    /// ("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint") until it
    /// happened to reread the schema.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LibraryItems::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(LibraryItems::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(LibraryItems::UserId).string().not_null())
                    .col(ColumnDef::new(LibraryItems::SourceRef).string().not_null())
                    .col(ColumnDef::new(LibraryItems::Title).string().not_null())
                    .col(ColumnDef::new(LibraryItems::Author).string().not_null())
                    .col(ColumnDef::new(LibraryItems::Content).text().not_null())
                    .col(ColumnDef::new(LibraryItems::SourceType).string().not_null())
                    .col(ColumnDef::new(LibraryItems::Rating).integer().null())
                    .col(ColumnDef::new(LibraryItems::IsStarred).boolean().not_null())
                    .col(ColumnDef::new(LibraryItems::Tags).text().not_null())
                    .col(ColumnDef::new(LibraryItems::GwthLevel).integer().null())
                    .col(
                        ColumnDef::new(LibraryItems::DurationSeconds)
                            .double()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(LibraryItems::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(LibraryItems::LastExported)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("library_items_user_source_unique")
                    .table(LibraryItems::Table)
                    .col(LibraryItems::UserId)
                    .col(LibraryItems::SourceRef)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("library_items_user_created")
                    .table(LibraryItems::Table)
                    .col(LibraryItems::UserId)
                    .col(LibraryItems::CreatedAt)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}
