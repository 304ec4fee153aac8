//! Every query of the gateway's local accounts. Rows come out as [`Account`]s.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DatabaseConnection, DbErr, EntityTrait as _,
    QueryFilter as _, Set,
};

use crate::entity::user_account::{self, Entity as UserAccount};

/// A local account.
#[derive(Debug, Clone)]
pub struct Account {
    pub id: String,
    pub email: String,
    pub password_hash: String,
}

/// Why an account could not be added.
#[derive(Debug)]
pub enum InsertAccountError {
    /// Another account has the email (two sign-ups raced; the unique index decided).
    EmailTaken,
    Database(DbErr),
}

fn account(row: user_account::Model) -> Account {
    Account {
        id: row.id,
        email: row.email,
        password_hash: row.password_hash,
    }
}

/// The `user_accounts` table.
#[derive(Clone)]
pub struct AccountStore {
    db: DatabaseConnection,
}

impl AccountStore {
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// The account with this (normalised) email.
    pub async fn by_email(&self, email: &str) -> Result<Option<Account>, DbErr> {
        Ok(UserAccount::find()
            .filter(user_account::Column::Email.eq(email))
            .one(&self.db)
            .await?
            .map(account))
    }

    /// Adds an account.
    pub async fn insert(
        &self,
        email: String,
        password_hash: String,
        created_at: DateTime<Utc>,
    ) -> Result<Account, InsertAccountError> {
        let row = user_account::ActiveModel {
            id: Set(uuid::Uuid::new_v4().to_string()),
            email: Set(email),
            password_hash: Set(password_hash),
            created_at: Set(created_at),
        };
        match row.insert(&self.db).await {
            Ok(row) => Ok(account(row)),
            Err(error)
                if matches!(
                    error.sql_err(),
                    Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
                ) =>
            {
                Err(InsertAccountError::EmailTaken)
            }
            Err(error) => Err(InsertAccountError::Database(error)),
        }
    }
}
