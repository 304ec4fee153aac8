//! Schema of the conversion service, applied at start.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_conversion").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateTemplates)]
    }
}

#[derive(DeriveMigrationName)]
struct CreateTemplates;

#[derive(DeriveIden)]
enum ConversionTemplates {
    Table,
    Id,
    UserId,
    Name,
    NameKey,
    Body,
    CreatedAt,
    UpdatedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateTemplates {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ConversionTemplates::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(ConversionTemplates::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(
                        ColumnDef::new(ConversionTemplates::UserId)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ConversionTemplates::Name)
                            .string()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ConversionTemplates::NameKey)
                            .string()
                            .not_null(),
                    )
                    .col(ColumnDef::new(ConversionTemplates::Body).text().not_null())
                    .col(
                        ColumnDef::new(ConversionTemplates::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ConversionTemplates::UpdatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("conversion_templates_user_name_unique")
                    .table(ConversionTemplates::Table)
                    .col(ConversionTemplates::UserId)
                    .col(ConversionTemplates::NameKey)
                    .unique()
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ConversionTemplates::Table).to_owned())
            .await
    }
}
