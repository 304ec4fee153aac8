//! Saved templates: list, create, rename or rewrite, delete.

use scribevault_core::UserId;

use super::Conversion;
use crate::domain::{Template, TemplateInput};
use crate::error::ConversionError;
use crate::store::TemplateWriteError;

fn write_error(name: &str, error: TemplateWriteError) -> ConversionError {
    match error {
        TemplateWriteError::DuplicateName => ConversionError::DuplicateTemplate(name.to_owned()),
        TemplateWriteError::Database(error) => ConversionError::Database(error),
    }
}

impl Conversion {
    /// The caller's templates, by name.
    ///
    /// # Errors
    /// Database failure.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn templates(&self, user: &UserId) -> Result<Vec<Template>, ConversionError> {
        Ok(self.store.templates(user.as_str()).await?)
    }

    /// Saves a new template.
    ///
    /// # Errors
    /// Invalid name or body, a name the caller already uses, database failure.
    #[tracing::instrument(skip(self, body), fields(user = %user))]
    pub async fn create_template(
        &self,
        user: &UserId,
        name: &str,
        body: String,
    ) -> Result<Template, ConversionError> {
        let input = TemplateInput::new(name, body).map_err(ConversionError::InvalidArgument)?;
        let name = input.name.clone();
        self.store
            .insert_template(user.as_str(), uuid::Uuid::now_v7().to_string(), input)
            .await
            .map_err(|error| write_error(&name, error))
    }

    /// Replaces a template's name and body.
    ///
    /// # Errors
    /// Not the caller's template, invalid input, a duplicate name, database failure.
    #[tracing::instrument(skip(self, body), fields(user = %user))]
    pub async fn update_template(
        &self,
        user: &UserId,
        id: &str,
        name: &str,
        body: String,
    ) -> Result<Template, ConversionError> {
        let input = TemplateInput::new(name, body).map_err(ConversionError::InvalidArgument)?;
        let name = input.name.clone();
        self.store
            .update_template(user.as_str(), id, input)
            .await
            .map_err(|error| write_error(&name, error))?
            .ok_or(ConversionError::NotFound("template"))
    }

    /// Deletes a template.
    ///
    /// # Errors
    /// Not the caller's template, database failure.
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_template(&self, user: &UserId, id: &str) -> Result<(), ConversionError> {
        if self.store.delete_template(user.as_str(), id).await? {
            Ok(())
        } else {
            Err(ConversionError::NotFound("template"))
        }
    }
}
