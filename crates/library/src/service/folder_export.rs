//! The folder export's use case: one user's Vault walked item by item into an
//! [`ExportFolder`]. It runs from the command line against the library's database and blob
//! store (the same settings as the server), so it needs neither the bus nor the link key that
//! the service's [`super::Library`] handle carries.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use futures::StreamExt as _;
use scribevault_blob::{BlobError, BlobStore, owned_key};
use sea_orm::DatabaseConnection;
use sha2::{Digest as _, Sha256};
use tokio::io::AsyncWriteExt as _;

use crate::export::folder::{
    AttachmentKind, ExportFolder, FolderExportError, FolderExportSummary, PlannedContent,
    PlannedFile, front_matter, hex_of, note_path, original_pdf_path, render_note, text_attachments,
};
use crate::store::{ItemText, LibraryStore};

/// Items read from the database at a time: one batch of metadata in memory, and one item's
/// text.
const BATCH: u64 = 100;

/// How a run treats the folder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FolderExportOptions {
    /// Replace exported files the user edited in the folder instead of keeping them.
    pub overwrite_local_edits: bool,
}

/// Exports a user's Vault into a folder of notes (see `export/folder/mod.rs`).
#[derive(Clone)]
pub struct FolderExporter {
    store: LibraryStore,
    blobs: Arc<dyn BlobStore>,
}

/// Runs `work` on `folder` on a blocking thread and hands the folder back.
async fn on_blocking_thread<T: Send + 'static>(
    folder: ExportFolder,
    work: impl FnOnce(&mut ExportFolder) -> Result<T, FolderExportError> + Send + 'static,
) -> Result<(ExportFolder, T), FolderExportError> {
    tokio::task::spawn_blocking(move || {
        let mut folder = folder;
        let value = work(&mut folder)?;
        Ok((folder, value))
    })
    .await
    .map_err(|error| FolderExportError::Io {
        path: std::path::PathBuf::new(),
        source: std::io::Error::other(error.to_string()),
    })?
}

impl FolderExporter {
    /// The exporter over the library's database (migrated first, as a command may run before
    /// the service ever did) and blob store.
    ///
    /// # Errors
    /// The migration failed.
    pub async fn open(
        db: DatabaseConnection,
        blobs: Arc<dyn BlobStore>,
    ) -> Result<Self, FolderExportError> {
        Ok(Self {
            store: LibraryStore::open(db).await?,
            blobs,
        })
    }

    /// Brings `dir` in line with `user_id`'s Vault: new and changed items written, deleted
    /// ones removed, the rest untouched.
    ///
    /// # Errors
    /// The folder cannot be used (see [`FolderExportError`]), or the database or blob store
    /// failed; files written before the failure stay, and the manifest records them.
    #[tracing::instrument(skip_all, fields(user = user_id, dir = %dir.display()))]
    pub async fn export(
        &self,
        user_id: &str,
        dir: &Path,
        options: FolderExportOptions,
    ) -> Result<FolderExportSummary, FolderExportError> {
        let sections: HashMap<String, String> = self
            .store
            .sections(user_id)
            .await?
            .into_iter()
            .map(|section| (section.id, section.title))
            .collect();
        let (dir_owned, user) = (dir.to_owned(), user_id.to_owned());
        let (mut folder, ()) = tokio::task::spawn_blocking(move || {
            ExportFolder::open(&dir_owned, &user, options.overwrite_local_edits)
                .map(|folder| (folder, ()))
        })
        .await
        .map_err(|error| FolderExportError::Io {
            path: dir.to_owned(),
            source: std::io::Error::other(error.to_string()),
        })??;
        let mut after_seq = 0;
        loop {
            let batch = self.store.items_after(user_id, after_seq, BATCH).await?;
            let Some(last) = batch.last() else {
                break;
            };
            after_seq = last.seq;
            let seqs: Vec<i64> = batch.iter().map(|stored| stored.seq).collect();
            let updated = self.store.updated_at_of(user_id, &seqs).await?;
            for stored in batch {
                let updated_at = updated
                    .get(&stored.seq)
                    .copied()
                    .unwrap_or(stored.item.created_at);
                // Deleted since the batch was read: the end of the run removes its files.
                let Some(text) = self.store.text(stored).await? else {
                    continue;
                };
                let section = text
                    .item
                    .section_id
                    .as_ref()
                    .and_then(|id| sections.get(id))
                    .map(String::as_str);
                let stem = folder.stem_for(&text.item.id, &text.item.title);
                let files = self
                    .plan_item(&folder, user_id, &text, updated_at, section, &stem)
                    .await?;
                let id = text.item.id.clone();
                (folder, ()) =
                    on_blocking_thread(folder, move |folder| folder.sync_item(&id, stem, files))
                        .await?;
            }
            (folder, ()) = on_blocking_thread(folder, |folder| folder.checkpoint()).await?;
        }
        let summary = tokio::task::spawn_blocking(move || folder.finish())
            .await
            .map_err(|error| FolderExportError::Io {
                path: dir.to_owned(),
                source: std::io::Error::other(error.to_string()),
            })??;
        tracing::info!(
            items = summary.items,
            written = summary.written,
            unchanged = summary.unchanged,
            removed = summary.removed,
            kept = summary.kept_local_edits.len(),
            "vault exported to a folder"
        );
        Ok(summary)
    }

    /// The files `text`'s item should have: its attachments, then its note linking to them.
    async fn plan_item(
        &self,
        folder: &ExportFolder,
        user_id: &str,
        text: &ItemText,
        updated_at: chrono::DateTime<chrono::Utc>,
        section: Option<&str>,
        stem: &str,
    ) -> Result<Vec<PlannedFile>, FolderExportError> {
        let mut files = Vec::new();
        let mut kinds = Vec::new();
        for (kind, bytes) in text_attachments(text) {
            kinds.push(kind);
            files.push(PlannedFile {
                path: kind.path(stem),
                content: PlannedContent::Bytes(bytes),
            });
        }
        if let Some(pdf) = self.original_pdf(folder, user_id, &text.item, stem).await? {
            kinds.push(AttachmentKind::OriginalPdf);
            files.push(pdf);
        }
        let note = render_note(
            &front_matter(&text.item, updated_at, section),
            &text.content,
            stem,
            &kinds,
        )
        .map_err(|source| FolderExportError::FrontMatter {
            id: text.item.id.clone(),
            source,
        })?;
        files.push(PlannedFile {
            path: note_path(stem),
            content: PlannedContent::Bytes(note),
        });
        Ok(files)
    }

    /// The original PDF of a converted item, if the blob store still has it. It is fetched
    /// only when the folder's copy is missing or of another size: a PDF under one name never
    /// changes, and fetching every PDF on every run would cost the whole Vault's size.
    async fn original_pdf(
        &self,
        folder: &ExportFolder,
        user_id: &str,
        item: &crate::domain::LibraryItem,
        stem: &str,
    ) -> Result<Option<PlannedFile>, FolderExportError> {
        let Some(client_path) = original_pdf_path(item.file_name.as_deref()) else {
            return Ok(None);
        };
        let Ok(key) = owned_key(user_id, &client_path) else {
            return Ok(None);
        };
        let Some(meta) = self.blobs.head(&key).await? else {
            return Ok(None);
        };
        let path = AttachmentKind::OriginalPdf.path(stem);
        if folder.is_current(&item.id, &path, meta.size) {
            return Ok(Some(PlannedFile {
                path,
                content: PlannedContent::Current,
            }));
        }
        let mut body = match self.blobs.get(&key).await {
            Ok(body) => body,
            Err(BlobError::NotFound(_)) => return Ok(None),
            Err(error) => return Err(error.into()),
        };
        let dir = folder.dir().to_owned();
        let staged = tokio::task::spawn_blocking(move || ExportFolder::staging_file(&dir))
            .await
            .map_err(|error| FolderExportError::Io {
                path: folder.dir().to_owned(),
                source: std::io::Error::other(error.to_string()),
            })??;
        let io_error = |source| FolderExportError::Io {
            path: staged.path().to_owned(),
            source,
        };
        let mut writer = tokio::fs::File::from_std(staged.as_file().try_clone().map_err(io_error)?);
        let mut hasher = Sha256::new();
        let mut size = 0_u64;
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|error| BlobError::Backend(error.to_string()))?;
            hasher.update(&chunk);
            size += chunk.len() as u64;
            writer.write_all(&chunk).await.map_err(io_error)?;
        }
        writer.flush().await.map_err(io_error)?;
        Ok(Some(PlannedFile {
            path,
            content: PlannedContent::Staged {
                file: staged,
                sha256: hex_of(&hasher.finalize()),
                size,
            },
        }))
    }
}
