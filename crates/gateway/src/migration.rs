//! Schema of the gateway (local accounts), applied at start.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_gateway").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateUserAccounts), Box::new(CreateUserSettings)]
    }
}

#[derive(DeriveMigrationName)]
struct CreateUserAccounts;

#[derive(DeriveIden)]
enum UserAccounts {
    Table,
    Id,
    Email,
    PasswordHash,
    CreatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateUserAccounts {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(UserAccounts::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(UserAccounts::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(UserAccounts::Email)
                            .string()
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(UserAccounts::PasswordHash)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(UserAccounts::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }
}

struct CreateUserSettings;

/// Named by hand: the derive names a migration after its file, which the first one took.
impl MigrationName for CreateUserSettings {
    fn name(&self) -> &str {
        "m20261124_000002_user_settings"
    }
}

#[derive(DeriveIden)]
enum UserSettings {
    Table,
    UserId,
    Settings,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateUserSettings {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(UserSettings::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(UserSettings::UserId)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(UserSettings::Settings).json().not_null())
                    .col(
                        ColumnDef::new(UserSettings::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await
    }
}
