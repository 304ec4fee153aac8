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

    /// The account with this id.
    pub async fn by_id(&self, id: &str) -> Result<Option<Account>, DbErr> {
        Ok(UserAccount::find_by_id(id.to_owned())
            .one(&self.db)
            .await?
            .map(account))
    }

    /// Replaces an account's password hash.
    pub async fn set_password_hash(&self, id: &str, password_hash: String) -> Result<(), DbErr> {
        UserAccount::update_many()
            .col_expr(
                user_account::Column::PasswordHash,
                sea_orm::sea_query::Expr::value(password_hash),
            )
            .filter(user_account::Column::Id.eq(id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Removes an account's credentials.
    pub async fn delete(&self, id: &str) -> Result<(), DbErr> {
        UserAccount::delete_by_id(id.to_owned())
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Adds an account.
    pub async fn insert(
        &self,
        id: String,
        email: String,
        password_hash: String,
        created_at: DateTime<Utc>,
    ) -> Result<Account, InsertAccountError> {
        let row = user_account::ActiveModel {
            id: Set(id),
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
