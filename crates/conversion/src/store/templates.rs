//! The users' templates, one row each, unique by user and lowercased name.

use chrono::Utc;
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DbErr, EntityTrait as _, QueryFilter as _,
    QueryOrder as _, Set, SqlErr,
};

use super::ConversionStore;
use crate::domain::{Template, TemplateInput};
use crate::entity::template;

/// Why a template could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TemplateWriteError {
    /// The user already has a template of that name.
    #[error("duplicate name")]
    DuplicateName,
    #[error(transparent)]
    Database(#[from] DbErr),
}

fn from_row(row: template::Model) -> Template {
    Template {
        id: row.id,
        name: row.name,
        body: row.body,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

fn classify(error: DbErr) -> TemplateWriteError {
    if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) {
        TemplateWriteError::DuplicateName
    } else {
        TemplateWriteError::Database(error)
    }
}

impl ConversionStore {
    /// The user's templates, by name.
    ///
    /// # Errors
    /// Database failure.
    pub async fn templates(&self, user_id: &str) -> Result<Vec<Template>, DbErr> {
        Ok(template::Entity::find()
            .filter(template::Column::UserId.eq(user_id))
            .order_by_asc(template::Column::NameKey)
            .all(&self.db)
            .await?
            .into_iter()
            .map(from_row)
            .collect())
    }

    /// Adds a template.
    ///
    /// # Errors
    /// A duplicate name, or database failure.
    pub async fn insert_template(
        &self,
        user_id: &str,
        id: String,
        input: TemplateInput,
    ) -> Result<Template, TemplateWriteError> {
        let now = Utc::now();
        template::ActiveModel {
            id: Set(id),
            user_id: Set(user_id.to_owned()),
            name_key: Set(input.name.to_lowercase()),
            name: Set(input.name),
            body: Set(input.body),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(&self.db)
        .await
        .map(from_row)
        .map_err(classify)
    }

    /// Replaces the name and body of the user's template `id`; `None` when there is none.
    ///
    /// # Errors
    /// A duplicate name, or database failure.
    pub async fn update_template(
        &self,
        user_id: &str,
        id: &str,
        input: TemplateInput,
    ) -> Result<Option<Template>, TemplateWriteError> {
        let Some(row) = template::Entity::find_by_id(id.to_owned())
            .filter(template::Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
        else {
            return Ok(None);
        };
        let mut row: template::ActiveModel = row.into();
        row.name_key = Set(input.name.to_lowercase());
        row.name = Set(input.name);
        row.body = Set(input.body);
        row.updated_at = Set(Utc::now());
        row.update(&self.db)
            .await
            .map(|row| Some(from_row(row)))
            .map_err(classify)
    }

    /// Deletes the user's template `id`; whether there was one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete_template(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        let result = template::Entity::delete_many()
            .filter(template::Column::Id.eq(id))
            .filter(template::Column::UserId.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(result.rows_affected > 0)
    }
}
