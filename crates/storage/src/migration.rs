//! Schema of the storage service, applied at start.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_storage").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(CreateStorageTables),
            Box::new(CreateStoragePolicies),
        ]
    }
}

#[derive(DeriveMigrationName)]
struct CreateStorageTables;

#[derive(DeriveIden)]
enum StoredAudio {
    Table,
    Id,
    UserId,
    ContentSha256,
    Path,
    Size,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Mp3Uploads {
    Table,
    Id,
    UserId,
    VideoId,
    Manual,
    Title,
    ChannelTitle,
    DurationSeconds,
    PublishedAt,
    Path,
    Size,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateStorageTables {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(StoredAudio::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(StoredAudio::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(StoredAudio::UserId).string().not_null())
                    .col(
                        ColumnDef::new(StoredAudio::ContentSha256)
                            .string()
                            .not_null(),
                    )
                    .col(ColumnDef::new(StoredAudio::Path).string().not_null())
                    .col(ColumnDef::new(StoredAudio::Size).big_integer().not_null())
                    .col(
                        ColumnDef::new(StoredAudio::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("stored_audio_user_hash_unique")
                    .table(StoredAudio::Table)
                    .col(StoredAudio::UserId)
                    .col(StoredAudio::ContentSha256)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Mp3Uploads::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(Mp3Uploads::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(Mp3Uploads::UserId).string().not_null())
                    .col(ColumnDef::new(Mp3Uploads::VideoId).string().not_null())
                    .col(ColumnDef::new(Mp3Uploads::Manual).boolean().not_null())
                    .col(ColumnDef::new(Mp3Uploads::Title).string().not_null())
                    .col(ColumnDef::new(Mp3Uploads::ChannelTitle).string().not_null())
                    .col(ColumnDef::new(Mp3Uploads::DurationSeconds).double().null())
                    .col(ColumnDef::new(Mp3Uploads::PublishedAt).string().not_null())
                    .col(ColumnDef::new(Mp3Uploads::Path).string().not_null())
                    .col(ColumnDef::new(Mp3Uploads::Size).big_integer().not_null())
                    .col(
                        ColumnDef::new(Mp3Uploads::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("mp3_uploads_user_video")
                    .table(Mp3Uploads::Table)
                    .col(Mp3Uploads::UserId)
                    .col(Mp3Uploads::VideoId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}

struct CreateStoragePolicies;

/// Named by hand: the derive names a migration after its file, which the first one took.
impl MigrationName for CreateStoragePolicies {
    fn name(&self) -> &str {
        "m20261124_000002_storage_policies"
    }
}

#[derive(DeriveIden)]
enum StoragePolicies {
    Table,
    UserId,
    MaxBytes,
    CleanupAfterDays,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateStoragePolicies {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(StoragePolicies::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(StoragePolicies::UserId)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(StoragePolicies::MaxBytes)
                            .big_integer()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(StoragePolicies::CleanupAfterDays)
                            .integer()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(StoragePolicies::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }
}
