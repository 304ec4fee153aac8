//! Schema of the webhook service, applied at start.
//!
//! The tables were the gateway's until webhooks became a service of their own (ADR 0025). The
//! migration keeps its name and creates them only where they are missing, so an instance that
//! has them already keeps its rows; the gateway's migrator keeps a no-op of the same name for
//! the record it already holds.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_webhooks").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![Box::new(CreateWebhooks)]
    }
}

/// The name the gateway's migrator recorded it under, kept so both records name one change.
pub const CREATE_WEBHOOKS: &str = "m20261127_000006_webhooks";

struct CreateWebhooks;

impl MigrationName for CreateWebhooks {
    fn name(&self) -> &str {
        CREATE_WEBHOOKS
    }
}

#[derive(DeriveIden)]
enum Webhooks {
    Table,
    Id,
    UserId,
    Url,
    Description,
    Events,
    Secret,
    Enabled,
    DisabledReason,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum WebhookDeliveries {
    Table,
    Id,
    WebhookId,
    UserId,
    EventId,
    EventType,
    Payload,
    Status,
    Attempts,
    NextAttemptAt,
    ClaimToken,
    ClaimedUntil,
    CreatedAt,
}

#[derive(DeriveIden)]
enum WebhookAttempts {
    Table,
    Id,
    WebhookId,
    DeliveryId,
    EventType,
    Attempt,
    AttemptedAt,
    StatusCode,
    DurationMs,
    ResponseExcerpt,
    Error,
    Succeeded,
    NextAttemptAt,
}

fn text(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column).string().not_null().to_owned()
}

fn moment(column: impl IntoIden) -> ColumnDef {
    ColumnDef::new(column)
        .timestamp_with_time_zone()
        .not_null()
        .to_owned()
}

#[async_trait::async_trait]
impl MigrationTrait for CreateWebhooks {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_webhooks(manager).await?;
        create_deliveries(manager).await?;
        create_attempts(manager).await
    }
}

async fn create_webhooks(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Webhooks::Table)
                .if_not_exists()
                .col(text(Webhooks::Id).primary_key())
                .col(text(Webhooks::UserId))
                .col(ColumnDef::new(Webhooks::Url).text().not_null())
                .col(ColumnDef::new(Webhooks::Description).text().not_null())
                .col(text(Webhooks::Events))
                .col(text(Webhooks::Secret))
                .col(ColumnDef::new(Webhooks::Enabled).boolean().not_null())
                .col(ColumnDef::new(Webhooks::DisabledReason).text().null())
                .col(moment(Webhooks::CreatedAt))
                .col(moment(Webhooks::UpdatedAt))
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_webhooks_user")
                .table(Webhooks::Table)
                .col(Webhooks::UserId)
                .if_not_exists()
                .to_owned(),
        )
        .await
}

async fn create_deliveries(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(WebhookDeliveries::Table)
                .if_not_exists()
                .col(text(WebhookDeliveries::Id).primary_key())
                .col(text(WebhookDeliveries::WebhookId))
                .col(text(WebhookDeliveries::UserId))
                .col(text(WebhookDeliveries::EventId))
                .col(text(WebhookDeliveries::EventType))
                .col(ColumnDef::new(WebhookDeliveries::Payload).text().not_null())
                .col(text(WebhookDeliveries::Status))
                .col(
                    ColumnDef::new(WebhookDeliveries::Attempts)
                        .integer()
                        .not_null(),
                )
                .col(moment(WebhookDeliveries::NextAttemptAt))
                .col(
                    ColumnDef::new(WebhookDeliveries::ClaimToken)
                        .string()
                        .null(),
                )
                .col(
                    ColumnDef::new(WebhookDeliveries::ClaimedUntil)
                        .timestamp_with_time_zone()
                        .null(),
                )
                .col(moment(WebhookDeliveries::CreatedAt))
                .to_owned(),
        )
        .await?;
    // One delivery per event and webhook, whichever replica records it first.
    manager
        .create_index(
            Index::create()
                .name("idx_webhook_deliveries_event")
                .table(WebhookDeliveries::Table)
                .col(WebhookDeliveries::WebhookId)
                .col(WebhookDeliveries::EventId)
                .unique()
                .if_not_exists()
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_webhook_deliveries_due")
                .table(WebhookDeliveries::Table)
                .col(WebhookDeliveries::Status)
                .col(WebhookDeliveries::NextAttemptAt)
                .if_not_exists()
                .to_owned(),
        )
        .await
}

async fn create_attempts(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(WebhookAttempts::Table)
                .if_not_exists()
                .col(text(WebhookAttempts::Id).primary_key())
                .col(text(WebhookAttempts::WebhookId))
                .col(text(WebhookAttempts::DeliveryId))
                .col(text(WebhookAttempts::EventType))
                .col(
                    ColumnDef::new(WebhookAttempts::Attempt)
                        .integer()
                        .not_null(),
                )
                .col(moment(WebhookAttempts::AttemptedAt))
                .col(ColumnDef::new(WebhookAttempts::StatusCode).integer().null())
                .col(
                    ColumnDef::new(WebhookAttempts::DurationMs)
                        .big_integer()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(WebhookAttempts::ResponseExcerpt)
                        .text()
                        .null(),
                )
                .col(ColumnDef::new(WebhookAttempts::Error).text().null())
                .col(
                    ColumnDef::new(WebhookAttempts::Succeeded)
                        .boolean()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(WebhookAttempts::NextAttemptAt)
                        .timestamp_with_time_zone()
                        .null(),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("idx_webhook_attempts_webhook")
                .table(WebhookAttempts::Table)
                .col(WebhookAttempts::WebhookId)
                .col(WebhookAttempts::AttemptedAt)
                .if_not_exists()
                .to_owned(),
        )
        .await
}
