//! The full Vault (issue 9): an integer key for the search index, tags and sections as rows,
//! segments, exports, and the full-text index of each backend.
//!
//! SQLite cannot add an `INTEGER PRIMARY KEY` to a table, so `library_items` is rebuilt: the new
//! table is created, the rows are copied, the old one is dropped and the new one renamed. The
//! text column goes last, so the columns lists and stats read sit before it in each record.

use sea_orm::{ConnectionTrait as _, DatabaseBackend};
use sea_orm_migration::prelude::*;

pub struct FullVault;

impl MigrationName for FullVault {
    fn name(&self) -> &'static str {
        "m20261123_000002_full_vault"
    }
}

#[derive(DeriveIden)]
enum LibraryItemsNext {
    Table,
    Seq,
    Id,
    UserId,
    SourceRef,
    Title,
    Author,
    SourceType,
    Rating,
    IsStarred,
    GwthLevel,
    DurationSeconds,
    CreatedAt,
    UpdatedAt,
    LastExported,
    SectionId,
    FileName,
    SourceUrl,
    TagsText,
    ContentBytes,
    Keywords,
    SuggestedTags,
    SuggestedRating,
    ProcessedAt,
    Content,
}

#[derive(DeriveIden)]
enum LibraryTags {
    Table,
    Id,
    UserId,
    Name,
    NameKey,
    CreatedAt,
}

#[derive(DeriveIden)]
enum LibraryItemTags {
    Table,
    ItemSeq,
    TagId,
}

#[derive(DeriveIden)]
enum LibrarySections {
    Table,
    Id,
    UserId,
    Title,
    Description,
    Position,
    CreatedAt,
}

#[derive(DeriveIden)]
enum LibrarySegments {
    Table,
    ItemSeq,
    Segments,
}

#[derive(DeriveIden)]
enum LibraryExports {
    Table,
    Id,
    UserId,
    Format,
    Bundle,
    Filename,
    CreatedAt,
    ExpiresAt,
}

#[derive(DeriveIden)]
enum LibraryExportItems {
    Table,
    ExportId,
    ItemSeq,
    Position,
}

/// Columns copied from the first schema, in both tables' spelling.
const COPIED: &str = "id, user_id, source_ref, title, author, source_type, rating, is_starred, \
                      gwth_level, duration_seconds, created_at, last_exported, content";

/// SQLite's index: FTS5 over the items as external content, kept in step by triggers, so an
/// insert, edit or delete of an item changes the index in the same transaction (notes §2).
/// The update trigger fires only when an indexed column changes: a rating does not re-index.
const SQLITE_FTS: [&str; 5] = [
    "CREATE VIRTUAL TABLE library_fts USING fts5(title, tags_text, content, \
     content='library_items', content_rowid='seq', \
     tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER library_fts_insert AFTER INSERT ON library_items BEGIN \
     INSERT INTO library_fts(rowid, title, tags_text, content) \
     VALUES (new.seq, new.title, new.tags_text, new.content); END",
    "CREATE TRIGGER library_fts_delete AFTER DELETE ON library_items BEGIN \
     INSERT INTO library_fts(library_fts, rowid, title, tags_text, content) \
     VALUES ('delete', old.seq, old.title, old.tags_text, old.content); END",
    "CREATE TRIGGER library_fts_update AFTER UPDATE OF title, tags_text, content \
     ON library_items BEGIN \
     INSERT INTO library_fts(library_fts, rowid, title, tags_text, content) \
     VALUES ('delete', old.seq, old.title, old.tags_text, old.content); \
     INSERT INTO library_fts(rowid, title, tags_text, content) \
     VALUES (new.seq, new.title, new.tags_text, new.content); END",
    "INSERT INTO library_fts(library_fts) VALUES ('rebuild')",
];

/// PostgreSQL's index: a generated, weighted `tsvector` (title A, tags B, text C) with a GIN
/// index. The regconfig is named, or the column is refused as not immutable; the text is cut
/// at 400,000 characters, below the 1 MB a `tsvector` may hold.
const POSTGRES_FTS: [&str; 2] = [
    "ALTER TABLE library_items ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (\
     setweight(to_tsvector('english', coalesce(title, '')), 'A') || \
     setweight(to_tsvector('english', coalesce(tags_text, '')), 'B') || \
     setweight(to_tsvector('english', left(coalesce(content, ''), 400000)), 'C')) STORED",
    "CREATE INDEX library_items_search ON library_items USING GIN (search_tsv)",
];

fn items_table() -> TableCreateStatement {
    use LibraryItemsNext as T;
    Table::create()
        .table(T::Table)
        .col(
            ColumnDef::new(T::Seq)
                .big_integer()
                .not_null()
                .auto_increment()
                .primary_key(),
        )
        .col(ColumnDef::new(T::Id).string().not_null().unique_key())
        .col(ColumnDef::new(T::UserId).string().not_null())
        .col(ColumnDef::new(T::SourceRef).string().not_null())
        .col(ColumnDef::new(T::Title).string().not_null())
        .col(ColumnDef::new(T::Author).string().not_null())
        .col(ColumnDef::new(T::SourceType).string().not_null())
        .col(ColumnDef::new(T::Rating).integer().null())
        .col(ColumnDef::new(T::IsStarred).boolean().not_null())
        .col(ColumnDef::new(T::GwthLevel).integer().null())
        .col(ColumnDef::new(T::DurationSeconds).double().null())
        .col(
            ColumnDef::new(T::CreatedAt)
                .timestamp_with_time_zone()
                .not_null(),
        )
        .col(
            ColumnDef::new(T::UpdatedAt)
                .timestamp_with_time_zone()
                .not_null(),
        )
        .col(
            ColumnDef::new(T::LastExported)
                .timestamp_with_time_zone()
                .null(),
        )
        .col(ColumnDef::new(T::SectionId).string().null())
        .col(ColumnDef::new(T::FileName).string().null())
        .col(ColumnDef::new(T::SourceUrl).string().null())
        .col(ColumnDef::new(T::TagsText).text().not_null().default(""))
        .col(
            ColumnDef::new(T::ContentBytes)
                .big_integer()
                .not_null()
                .default(0),
        )
        .col(ColumnDef::new(T::Keywords).text().null())
        .col(ColumnDef::new(T::SuggestedTags).text().null())
        .col(ColumnDef::new(T::SuggestedRating).integer().null())
        .col(
            ColumnDef::new(T::ProcessedAt)
                .timestamp_with_time_zone()
                .null(),
        )
        .col(ColumnDef::new(T::Content).text().not_null())
        .to_owned()
}

fn index(name: &str, table: impl IntoIden, columns: &[&'static str]) -> IndexCreateStatement {
    let mut index = Index::create();
    index.name(name).table(table);
    for column in columns {
        index.col(Alias::new(*column));
    }
    index.to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for FullVault {
    /// One transaction, for the reason the first migration gives; a half-rebuilt item table
    /// would also lose the Vault.
    fn use_transaction(&self) -> Option<bool> {
        Some(true)
    }

    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        rebuild_items(manager).await?;
        create_tags(manager).await?;
        create_sections(manager).await?;
        create_segments(manager).await?;
        create_exports(manager).await?;
        create_full_text_index(manager).await
    }
}

/// SQLite cannot add the integer key to a table in place, so the items move to a new one.
async fn rebuild_items(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let backend = manager.get_database_backend();
    let db = manager.get_connection();
    manager.create_table(items_table()).await?;
    let content_bytes = match backend {
        DatabaseBackend::Postgres => "OCTET_LENGTH(content)",
        _ => "LENGTH(CAST(content AS BLOB))",
    };
    db.execute_unprepared(&format!(
        "INSERT INTO library_items_next ({COPIED}, updated_at, tags_text, content_bytes) \
         SELECT {COPIED}, created_at, '', {content_bytes} FROM library_items ORDER BY created_at"
    ))
    .await?;
    db.execute_unprepared("DROP TABLE library_items").await?;
    db.execute_unprepared("ALTER TABLE library_items_next RENAME TO library_items")
        .await?;
    let items = Alias::new("library_items");
    let mut unique = index(
        "library_items_user_source_unique",
        items.clone(),
        &["user_id", "source_ref"],
    );
    manager.create_index(unique.unique().to_owned()).await?;
    for (name, columns) in [
        ("library_items_user_created", &["user_id", "created_at"][..]),
        ("library_items_user_title", &["user_id", "title"][..]),
        (
            "library_items_user_exported",
            &["user_id", "last_exported"][..],
        ),
        ("library_items_user_rating", &["user_id", "rating"][..]),
        ("library_items_user_file", &["user_id", "file_name"][..]),
        (
            "library_items_user_processed",
            &["user_id", "processed_at"][..],
        ),
        // Covers the stats and the filtered counts, so neither reads a row.
        (
            "library_items_user_figures",
            &[
                "user_id",
                "source_type",
                "gwth_level",
                "rating",
                "is_starred",
                "last_exported",
                "created_at",
                "duration_seconds",
                "content_bytes",
                "section_id",
            ][..],
        ),
    ] {
        manager
            .create_index(index(name, items.clone(), columns))
            .await?;
    }
    Ok(())
}

async fn create_tags(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(LibraryTags::Table)
                .col(
                    ColumnDef::new(LibraryTags::Id)
                        .string()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(LibraryTags::UserId).string().not_null())
                .col(ColumnDef::new(LibraryTags::Name).string().not_null())
                .col(ColumnDef::new(LibraryTags::NameKey).string().not_null())
                .col(
                    ColumnDef::new(LibraryTags::CreatedAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .to_owned(),
        )
        .await?;
    let mut unique = index(
        "library_tags_user_key_unique",
        LibraryTags::Table,
        &["user_id", "name_key"],
    );
    manager.create_index(unique.unique().to_owned()).await?;
    manager
        .create_table(
            Table::create()
                .table(LibraryItemTags::Table)
                .col(
                    ColumnDef::new(LibraryItemTags::ItemSeq)
                        .big_integer()
                        .not_null(),
                )
                .col(ColumnDef::new(LibraryItemTags::TagId).string().not_null())
                .primary_key(
                    Index::create()
                        .col(LibraryItemTags::ItemSeq)
                        .col(LibraryItemTags::TagId),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(index(
            "library_item_tags_tag",
            LibraryItemTags::Table,
            &["tag_id", "item_seq"],
        ))
        .await?;
    Ok(())
}

async fn create_sections(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(LibrarySections::Table)
                .col(
                    ColumnDef::new(LibrarySections::Id)
                        .string()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(LibrarySections::UserId).string().not_null())
                .col(ColumnDef::new(LibrarySections::Title).string().not_null())
                .col(
                    ColumnDef::new(LibrarySections::Description)
                        .text()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(LibrarySections::Position)
                        .integer()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(LibrarySections::CreatedAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(index(
            "library_sections_user_position",
            LibrarySections::Table,
            &["user_id", "position"],
        ))
        .await?;
    Ok(())
}

async fn create_segments(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(LibrarySegments::Table)
                .col(
                    ColumnDef::new(LibrarySegments::ItemSeq)
                        .big_integer()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(LibrarySegments::Segments).text().not_null())
                .to_owned(),
        )
        .await?;
    Ok(())
}

async fn create_exports(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(LibraryExports::Table)
                .col(
                    ColumnDef::new(LibraryExports::Id)
                        .string()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(LibraryExports::UserId).string().not_null())
                .col(ColumnDef::new(LibraryExports::Format).string().not_null())
                .col(ColumnDef::new(LibraryExports::Bundle).boolean().not_null())
                .col(ColumnDef::new(LibraryExports::Filename).string().not_null())
                .col(
                    ColumnDef::new(LibraryExports::CreatedAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(LibraryExports::ExpiresAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(index(
            "library_exports_user_expires",
            LibraryExports::Table,
            &["user_id", "expires_at"],
        ))
        .await?;
    manager
        .create_table(
            Table::create()
                .table(LibraryExportItems::Table)
                .col(
                    ColumnDef::new(LibraryExportItems::ExportId)
                        .string()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(LibraryExportItems::ItemSeq)
                        .big_integer()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(LibraryExportItems::Position)
                        .integer()
                        .not_null(),
                )
                .primary_key(
                    Index::create()
                        .col(LibraryExportItems::ExportId)
                        .col(LibraryExportItems::ItemSeq),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(index(
            "library_export_items_item",
            LibraryExportItems::Table,
            &["item_seq"],
        ))
        .await?;
    Ok(())
}

async fn create_full_text_index(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    let backend = manager.get_database_backend();
    let db = manager.get_connection();
    let statements: &[&str] = match backend {
        DatabaseBackend::Postgres => &POSTGRES_FTS,
        _ => &SQLITE_FTS,
    };
    for statement in statements {
        db.execute_unprepared(statement).await?;
    }
    Ok(())
}
