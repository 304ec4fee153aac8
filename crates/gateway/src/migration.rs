//! Schema of the gateway (local accounts, members, sessions, invitations, second factors and
//! their recovery codes, API tokens, podcast feeds, settings), applied at start. The webhook
//! tables moved to the webhook service (ADR 0025), which migrates them itself.
#![allow(elided_lifetimes_in_paths)] // async-trait expands sea-orm-migration's trait methods with hidden lifetimes

use sea_orm_migration::prelude::*;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migration_table_name() -> sea_orm::DynIden {
        Alias::new("seaql_migrations_gateway").into_iden()
    }

    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(CreateUserAccounts),
            Box::new(CreateUserSettings),
            Box::new(CreateOwnership),
            Box::new(CreateTwoFactor),
            Box::new(CreateApiTokens),
            Box::new(CreatePodcastFeeds),
            Box::new(WebhooksMoved),
            Box::new(CreateRecoveryCodes),
            Box::new(AddRefreshCredentials),
        ]
    }
}

/// Where the gateway once created the webhook tables. An instance that ran it has its record in
/// `seaql_migrations_gateway`, and a migrator refuses to start when a recorded migration is
/// missing: so the name stays, and creates nothing. The webhook service's migrator, under the
/// same name, creates the tables where they are missing (`crates/webhooks/src/migration.rs`).
struct WebhooksMoved;

impl MigrationName for WebhooksMoved {
    fn name(&self) -> &str {
        "m20261127_000006_webhooks"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for WebhooksMoved {
    async fn up(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        Ok(())
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

/// Members (role, status, storage cap), local sessions and invitations. Existing local accounts
/// become members; the oldest is the instance's admin, as it would have been had it signed up
/// after this migration.
struct CreateOwnership;

impl MigrationName for CreateOwnership {
    fn name(&self) -> &str {
        "m20261126_000003_ownership"
    }
}

#[derive(DeriveIden)]
enum Members {
    Table,
    UserId,
    Email,
    IsAdmin,
    Disabled,
    CreatedAt,
    LastSignInAt,
    StorageCapGb,
    SessionsEndedAt,
}

#[derive(DeriveIden)]
enum AuthSessions {
    Table,
    Id,
    UserId,
    CreatedAt,
    ExpiresAt,
    EndedAt,
    RefreshHash,
    PreviousRefreshHash,
    EndsBy,
    RotatedAt,
}

#[derive(DeriveIden)]
enum Invitations {
    Table,
    Id,
    SecretHash,
    CreatedBy,
    CreatedAt,
    ExpiresAt,
    UsedAt,
    UsedBy,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateOwnership {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        create_members(manager).await?;
        create_sessions(manager).await?;
        create_invitations(manager).await?;
        make_existing_accounts_members(manager).await
    }
}

/// Who may use the instance, and who administers it.
async fn create_members(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Members::Table)
                .if_not_exists()
                .col(
                    ColumnDef::new(Members::UserId)
                        .string()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(Members::Email).string().not_null())
                .col(
                    ColumnDef::new(Members::IsAdmin)
                        .boolean()
                        .not_null()
                        .default(false),
                )
                .col(
                    ColumnDef::new(Members::Disabled)
                        .boolean()
                        .not_null()
                        .default(false),
                )
                .col(
                    ColumnDef::new(Members::CreatedAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(Members::LastSignInAt)
                        .timestamp_with_time_zone()
                        .null(),
                )
                .col(ColumnDef::new(Members::StorageCapGb).integer().null())
                .to_owned(),
        )
        .await
}

/// Local sign-in sessions, which a token names and a sign-out ends.
async fn create_sessions(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(AuthSessions::Table)
                .if_not_exists()
                .col(
                    ColumnDef::new(AuthSessions::Id)
                        .string()
                        .not_null()
                        .primary_key(),
                )
                .col(ColumnDef::new(AuthSessions::UserId).string().not_null())
                .col(
                    ColumnDef::new(AuthSessions::CreatedAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(AuthSessions::ExpiresAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(AuthSessions::EndedAt)
                        .timestamp_with_time_zone()
                        .null(),
                )
                .to_owned(),
        )
        .await?;
    manager
        .create_index(
            Index::create()
                .name("auth_sessions_user")
                .table(AuthSessions::Table)
                .col(AuthSessions::UserId)
                .if_not_exists()
                .to_owned(),
        )
        .await
}

/// Single-use sign-up links, kept hashed.
async fn create_invitations(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    manager
        .create_table(
            Table::create()
                .table(Invitations::Table)
                .if_not_exists()
                .col(
                    ColumnDef::new(Invitations::Id)
                        .string()
                        .not_null()
                        .primary_key(),
                )
                .col(
                    ColumnDef::new(Invitations::SecretHash)
                        .string()
                        .not_null()
                        .unique_key(),
                )
                .col(ColumnDef::new(Invitations::CreatedBy).string().not_null())
                .col(
                    ColumnDef::new(Invitations::CreatedAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(Invitations::ExpiresAt)
                        .timestamp_with_time_zone()
                        .not_null(),
                )
                .col(
                    ColumnDef::new(Invitations::UsedAt)
                        .timestamp_with_time_zone()
                        .null(),
                )
                .col(ColumnDef::new(Invitations::UsedBy).string().null())
                .to_owned(),
        )
        .await
}

/// Accounts made before owners existed become members, the oldest the admin.
async fn make_existing_accounts_members(manager: &SchemaManager<'_>) -> Result<(), DbErr> {
    // Accounts made before owners existed: all members, the oldest the admin.
    let backfill = Query::insert()
        .into_table(Members::Table)
        .columns([
            Members::UserId,
            Members::Email,
            Members::IsAdmin,
            Members::Disabled,
            Members::CreatedAt,
        ])
        .select_from(
            Query::select()
                .column(UserAccounts::Id)
                .column(UserAccounts::Email)
                .expr(Expr::val(false))
                .expr(Expr::val(false))
                .column(UserAccounts::CreatedAt)
                .from(UserAccounts::Table)
                .to_owned(),
        )
        .map_err(|e| DbErr::Custom(e.to_string()))?
        .to_owned();
    manager.exec_stmt(backfill).await?;
    let oldest = Query::select()
        .column(UserAccounts::Id)
        .from(UserAccounts::Table)
        .order_by(UserAccounts::CreatedAt, Order::Asc)
        .limit(1)
        .to_owned();
    let promote = Query::update()
        .table(Members::Table)
        .value(Members::IsAdmin, true)
        .and_where(Expr::col(Members::UserId).in_subquery(oldest))
        .to_owned();
    manager.exec_stmt(promote).await
}

/// Authenticator-app second factors of local accounts.
struct CreateTwoFactor;

impl MigrationName for CreateTwoFactor {
    fn name(&self) -> &str {
        "m20261126_000004_two_factor"
    }
}

#[derive(DeriveIden)]
enum TwoFactor {
    Table,
    UserId,
    Secret,
    PendingSecret,
    LastStep,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateTwoFactor {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(TwoFactor::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(TwoFactor::UserId)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(TwoFactor::Secret).string().null())
                    .col(ColumnDef::new(TwoFactor::PendingSecret).string().null())
                    .col(ColumnDef::new(TwoFactor::LastStep).big_integer().null())
                    .to_owned(),
            )
            .await
    }
}

struct CreateApiTokens;

impl MigrationName for CreateApiTokens {
    fn name(&self) -> &str {
        "m20261126_000005_api_tokens"
    }
}

#[derive(DeriveIden)]
enum ApiTokens {
    Table,
    Id,
    UserId,
    Name,
    SecretHash,
    CreatedAt,
    ExpiresAt,
    LastUsedAt,
    SaveToVault,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateApiTokens {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ApiTokens::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(ApiTokens::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(ApiTokens::UserId).string().not_null())
                    .col(ColumnDef::new(ApiTokens::Name).string().not_null())
                    .col(
                        ColumnDef::new(ApiTokens::SecretHash)
                            .string()
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(ApiTokens::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(ApiTokens::ExpiresAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(ApiTokens::LastUsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .col(
                        ColumnDef::new(ApiTokens::SaveToVault)
                            .boolean()
                            .not_null()
                            .default(true),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_api_tokens_user")
                    .table(ApiTokens::Table)
                    .col(ApiTokens::UserId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}

struct CreatePodcastFeeds;

impl MigrationName for CreatePodcastFeeds {
    fn name(&self) -> &str {
        "m20261126_000006_podcast_feeds"
    }
}

#[derive(DeriveIden)]
enum PodcastFeeds {
    Table,
    Id,
    UserId,
    Scope,
    ScopeId,
    SecretHash,
    CreatedAt,
    LastFetchedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreatePodcastFeeds {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(PodcastFeeds::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(PodcastFeeds::Id)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(PodcastFeeds::UserId).string().not_null())
                    .col(ColumnDef::new(PodcastFeeds::Scope).string().not_null())
                    .col(ColumnDef::new(PodcastFeeds::ScopeId).string().null())
                    .col(
                        ColumnDef::new(PodcastFeeds::SecretHash)
                            .string()
                            .not_null()
                            .unique_key(),
                    )
                    .col(
                        ColumnDef::new(PodcastFeeds::CreatedAt)
                            .timestamp_with_time_zone()
                            .not_null(),
                    )
                    .col(
                        ColumnDef::new(PodcastFeeds::LastFetchedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_podcast_feeds_user")
                    .table(PodcastFeeds::Table)
                    .col(PodcastFeeds::UserId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }
}

/// Recovery codes of the second factor, and when the factor last changed (for the notice a
/// member sees at their next sign-in).
struct CreateRecoveryCodes;

impl MigrationName for CreateRecoveryCodes {
    fn name(&self) -> &str {
        "m20261202_000008_recovery_codes"
    }
}

#[derive(DeriveIden)]
enum RecoveryCodes {
    #[sea_orm(iden = "two_factor_recovery_codes")]
    Table,
    CodeHash,
    UserId,
    UsedAt,
}

#[derive(DeriveIden)]
enum TwoFactorChanged {
    #[sea_orm(iden = "two_factor")]
    Table,
    ChangedAt,
}

#[async_trait::async_trait]
impl MigrationTrait for CreateRecoveryCodes {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(RecoveryCodes::Table)
                    .if_not_exists()
                    .col(
                        ColumnDef::new(RecoveryCodes::CodeHash)
                            .string()
                            .not_null()
                            .primary_key(),
                    )
                    .col(ColumnDef::new(RecoveryCodes::UserId).string().not_null())
                    .col(
                        ColumnDef::new(RecoveryCodes::UsedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_two_factor_recovery_codes_user")
                    .table(RecoveryCodes::Table)
                    .col(RecoveryCodes::UserId)
                    .if_not_exists()
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(TwoFactorChanged::Table)
                    .add_column(
                        ColumnDef::new(TwoFactorChanged::ChangedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }
}

/// Bounds on what a session leaves (findings G2 and G13): the hash of a session's current
/// refresh secret, the one it replaced (presented again, it ends the session), and the absolute
/// end no renewal moves; and on the member, when every session last ended, which ends the
/// audio and export links made before. Sessions from before have no refresh secret: their
/// members sign in once more.
struct AddRefreshCredentials;

impl MigrationName for AddRefreshCredentials {
    fn name(&self) -> &str {
        "m20261202_000009_session_bounds"
    }
}

#[async_trait::async_trait]
impl MigrationTrait for AddRefreshCredentials {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        // One column per statement: SQLite alters one at a time.
        for column in [
            ColumnDef::new(AuthSessions::RefreshHash)
                .string()
                .null()
                .to_owned(),
            ColumnDef::new(AuthSessions::PreviousRefreshHash)
                .string()
                .null()
                .to_owned(),
            ColumnDef::new(AuthSessions::EndsBy)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
            ColumnDef::new(AuthSessions::RotatedAt)
                .timestamp_with_time_zone()
                .null()
                .to_owned(),
        ] {
            manager
                .alter_table(
                    Table::alter()
                        .table(AuthSessions::Table)
                        .add_column(column)
                        .to_owned(),
                )
                .await?;
        }
        manager
            .alter_table(
                Table::alter()
                    .table(Members::Table)
                    .add_column(
                        ColumnDef::new(Members::SessionsEndedAt)
                            .timestamp_with_time_zone()
                            .null(),
                    )
                    .to_owned(),
            )
            .await
    }
}
