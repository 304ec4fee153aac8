//! Tags and syllabus sections.

use scribevault_core::UserId;

use super::Library;
use crate::domain::tags::{STARTER_TAGS, gwth_tags};
use crate::domain::{Section, Tag, clean_name};
use crate::error::LibraryError;
use crate::store::ReorderRefusal;

/// Longest section description (characters).
const MAX_DESCRIPTION_CHARS: usize = 2000;

fn clean_description(description: &str) -> Result<String, LibraryError> {
    let description = description.trim();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(LibraryError::InvalidArgument(format!(
            "description must be at most {MAX_DESCRIPTION_CHARS} characters"
        )));
    }
    Ok(description.to_owned())
}

impl Library {
    /// The caller's tags with their item counts.
    ///
    /// # Errors
    /// Database failure.
    pub async fn tags(&self, user: &UserId) -> Result<Vec<Tag>, LibraryError> {
        Ok(self.store.tags(user.as_str()).await?)
    }

    /// Seeds the starter tags the caller lacks; returns how many were created.
    ///
    /// # Errors
    /// Database failure.
    pub async fn init_tags(&self, user: &UserId) -> Result<u32, LibraryError> {
        let names: Vec<String> = STARTER_TAGS.iter().map(|tag| (*tag).to_owned()).collect();
        Ok(self.store.seed_tags(user.as_str(), &names).await?)
    }

    /// Seeds the gwth level tags (`gwth-1` … `gwth-5`, ADR 0012) the caller lacks.
    ///
    /// # Errors
    /// Database failure.
    pub async fn init_gwth_tags(&self, user: &UserId) -> Result<u32, LibraryError> {
        Ok(self.store.seed_tags(user.as_str(), &gwth_tags()).await?)
    }

    /// The caller's sections in order.
    ///
    /// # Errors
    /// Database failure.
    pub async fn sections(&self, user: &UserId) -> Result<Vec<Section>, LibraryError> {
        Ok(self.store.sections(user.as_str()).await?)
    }

    /// Adds a section at the end.
    ///
    /// # Errors
    /// A missing or too long title or description; database failure.
    pub async fn create_section(
        &self,
        user: &UserId,
        title: &str,
        description: &str,
    ) -> Result<Section, LibraryError> {
        let title = clean_name("title", title, true).map_err(LibraryError::InvalidArgument)?;
        let description = clean_description(description)?;
        Ok(self
            .store
            .create_section(user.as_str(), title, description)
            .await?)
    }

    /// Renames or re-describes a section.
    ///
    /// # Errors
    /// Bad values, an unknown section, database failure.
    pub async fn update_section(
        &self,
        user: &UserId,
        id: &str,
        title: Option<&str>,
        description: Option<&str>,
    ) -> Result<Section, LibraryError> {
        let title = title
            .map(|title| clean_name("title", title, true))
            .transpose()
            .map_err(LibraryError::InvalidArgument)?;
        let description = description.map(clean_description).transpose()?;
        self.store
            .update_section(user.as_str(), id, title, description)
            .await?
            .ok_or(LibraryError::SectionNotFound)
    }

    /// Orders the caller's sections as `ids`.
    ///
    /// # Errors
    /// `ids` is not exactly the caller's sections; database failure.
    pub async fn reorder_sections(
        &self,
        user: &UserId,
        ids: &[String],
    ) -> Result<Vec<Section>, LibraryError> {
        match self.store.reorder_sections(user.as_str(), ids).await? {
            Ok(sections) => Ok(sections),
            Err(ReorderRefusal::NotEverySection) => Err(LibraryError::InvalidArgument(
                "ids must list each of your sections once".into(),
            )),
        }
    }

    /// Deletes a section; its items stay.
    ///
    /// # Errors
    /// Unknown section, database failure.
    pub async fn delete_section(&self, user: &UserId, id: &str) -> Result<(), LibraryError> {
        if self.store.delete_section(user.as_str(), id).await? {
            Ok(())
        } else {
            Err(LibraryError::SectionNotFound)
        }
    }
}
