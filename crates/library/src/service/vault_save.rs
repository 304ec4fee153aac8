//! `POST /api/vault/save`: files the SPA made (converted transcripts and PDFs, or any text)
//! become Vault items.
//!
//! A path that is one of the caller's stored files links the item to it and gives it that
//! file's source: `AUDIO` for a transcript (`transcripts/…`, `converted/transcripts/…`, with
//! the transcript's segments when they sit beside it), `PDF` for a converted PDF
//! (`converted/pdfs/…`). Any other path is kept only as the item's file name, with source
//! `TEXT`; it is never read. Saving the same path again updates that item instead of making a
//! second one.

use scribevault_blob::owned_key;
use scribevault_core::UserId;

use super::Library;
use crate::domain::{
    LibraryItem, MAX_CONTENT_BYTES, MAX_NAME_CHARS, MAX_SAVED_FILES, NewLibraryItem, SourceType,
    UNTITLED,
};
use crate::error::LibraryError;
use scribevault_bus::contract::ItemChange;

/// One file to save.
#[derive(Debug, Clone)]
pub struct VaultFile {
    pub title: String,
    pub content: String,
    pub path: String,
}

/// Longest path kept (characters).
const MAX_PATH_CHARS: usize = 1024;

/// The source type a stored file of this path gives its item.
fn linked_source_type(path: &str) -> Option<SourceType> {
    if path.starts_with("transcripts/") || path.starts_with("converted/transcripts/") {
        Some(SourceType::Audio)
    } else if path.starts_with("converted/pdfs/") {
        Some(SourceType::Pdf)
    } else {
        None
    }
}

/// Where the worker keeps a transcript's segments: beside its `.txt` or `.md`.
fn segments_beside(path: &str) -> Option<String> {
    let base = path
        .strip_suffix(".txt")
        .or_else(|| path.strip_suffix(".md"))?;
    path.starts_with("transcripts/")
        .then(|| format!("{base}.segments.json"))
}

fn title_of(file: &VaultFile) -> String {
    let title = file.title.trim();
    let title = if title.is_empty() {
        file.path
            .rsplit('/')
            .next()
            .and_then(|name| {
                name.rsplit_once('.')
                    .map_or(Some(name), |(stem, _)| Some(stem))
            })
            .filter(|name| !name.trim().is_empty())
            .unwrap_or(UNTITLED)
    } else {
        title
    };
    title.chars().take(MAX_NAME_CHARS).collect()
}

impl Library {
    /// Whether `path` names one of the caller's stored files.
    async fn is_stored_file(&self, user: &UserId, path: &str) -> Result<bool, LibraryError> {
        let Ok(key) = owned_key(user.as_str(), path) else {
            return Ok(false);
        };
        Ok(self.blobs.head(&key).await?.is_some())
    }

    /// Saves `files` as the caller's items and answers them in order.
    ///
    /// # Errors
    /// No files or too many, empty or oversized content (naming the file), blob store or
    /// database failure.
    #[tracing::instrument(skip_all, fields(user = %user, files = files.len()))]
    pub async fn save_files(
        &self,
        user: &UserId,
        files: Vec<VaultFile>,
    ) -> Result<Vec<LibraryItem>, LibraryError> {
        if files.is_empty() || files.len() > MAX_SAVED_FILES {
            return Err(LibraryError::InvalidArgument(format!(
                "files must hold 1 to {MAX_SAVED_FILES} files"
            )));
        }
        for (index, file) in files.iter().enumerate() {
            if file.content.trim().is_empty() {
                return Err(LibraryError::InvalidArgument(format!(
                    "files[{index}].content is required"
                )));
            }
            if file.content.len() > MAX_CONTENT_BYTES {
                return Err(LibraryError::InvalidArgument(format!(
                    "files[{index}].content must be at most {} MB",
                    MAX_CONTENT_BYTES / (1024 * 1024)
                )));
            }
            if file.path.chars().count() > MAX_PATH_CHARS {
                return Err(LibraryError::InvalidArgument(format!(
                    "files[{index}].path must be at most {MAX_PATH_CHARS} characters"
                )));
            }
        }
        let mut saved = Vec::with_capacity(files.len());
        for file in files {
            saved.push(self.save_file(user, file).await?);
        }
        Ok(saved)
    }

    async fn save_file(&self, user: &UserId, file: VaultFile) -> Result<LibraryItem, LibraryError> {
        let title = title_of(&file);
        let path = file.path.trim().to_owned();
        if !path.is_empty()
            && let Some(existing) = self
                .store
                .find_by_source(user.as_str(), &format!("vault:{path}"))
                .await?
        {
            let id = existing.item.id;
            self.store
                .set_content(user.as_str(), &id, file.content)
                .await?;
            let item = self
                .update_metadata(
                    user,
                    &id,
                    crate::domain::MetadataChanges {
                        title: Some(title),
                        ..crate::domain::MetadataChanges::default()
                    },
                )
                .await?;
            self.queue_embedding(user, &id, true).await;
            return Ok(item);
        }
        let linked = match linked_source_type(&path) {
            Some(source_type) if self.is_stored_file(user, &path).await? => Some(source_type),
            _ => None,
        };
        let segments_path = linked.and(segments_beside(&path));
        let source_ref = if path.is_empty() {
            format!("vault:{}", uuid::Uuid::now_v7())
        } else {
            format!("vault:{path}")
        };
        let item = NewLibraryItem {
            source_ref,
            title,
            source_type: linked.unwrap_or(SourceType::Text),
            content: file.content,
            duration_seconds: None,
            created_at: None,
            file_name: (!path.is_empty()).then_some(path),
            segments: Vec::new(),
            // A saved transcript names no recording; only ingest from transcription knows it.
            audio_path: None,
            transcript_source: None,
            // Nor its language.
            language: None,
            review: None,
        };
        let ingested = self.ingest(user, item, segments_path.as_deref()).await?;
        if !ingested.created {
            self.announce(
                user,
                ItemChange::Updated,
                &ingested.item.id,
                &ingested.item.title,
            )
            .await;
        }
        Ok(ingested.item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_paths_give_their_source_and_segments() {
        assert_eq!(
            linked_source_type("transcripts/j/f.txt"),
            Some(SourceType::Audio)
        );
        assert_eq!(
            linked_source_type("converted/pdfs/a.md"),
            Some(SourceType::Pdf)
        );
        assert_eq!(linked_source_type("notes/a.md"), None);
        assert_eq!(
            segments_beside("transcripts/j/f.md").as_deref(),
            Some("transcripts/j/f.segments.json")
        );
        assert_eq!(segments_beside("converted/transcripts/f.md"), None);
    }

    #[test]
    fn a_missing_title_comes_from_the_file_name() {
        let file = |title: &str, path: &str| VaultFile {
            title: title.into(),
            content: "x".into(),
            path: path.into(),
        };
        assert_eq!(title_of(&file(" Soil ", "a/b.md")), "Soil");
        assert_eq!(title_of(&file("", "a/Soil notes.md")), "Soil notes");
        assert_eq!(title_of(&file("", "")), UNTITLED);
    }
}
