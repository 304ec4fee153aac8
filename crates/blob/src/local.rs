//! Blobs as files under one root directory (the embedded default).

use std::path::{Path, PathBuf};

use futures::StreamExt as _;
use tokio::io::AsyncWriteExt as _;

use crate::{BlobError, BlobKey, BlobMeta, BlobStore, ByteStream};

const TEMP_DIR: &str = ".partial";

/// Stores each object as a file at `<root>/<key>`. Writes go to a temporary file that is renamed
/// into place when complete, so readers never see half an object.
#[derive(Debug, Clone)]
pub struct LocalBlobStore {
    root: PathBuf,
}

impl LocalBlobStore {
    /// A store rooted at `root` (created if missing).
    ///
    /// # Errors
    /// The root directory cannot be created.
    pub fn new(root: impl Into<PathBuf>) -> Result<Self, BlobError> {
        let root = root.into();
        std::fs::create_dir_all(root.join(TEMP_DIR))?;
        Ok(Self { root })
    }

    fn path_of(&self, key: &BlobKey) -> PathBuf {
        self.root.join(key.as_str())
    }
}

/// Seconds since the Unix epoch of a file time (none before 1970 or where the platform has none).
fn unix_seconds(time: Option<std::time::SystemTime>) -> Option<i64> {
    let since = time?.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since.as_secs()).ok()
}

fn not_found_or(error: std::io::Error, key: &BlobKey) -> BlobError {
    if error.kind() == std::io::ErrorKind::NotFound {
        BlobError::NotFound(key.to_string())
    } else {
        error.into()
    }
}

#[async_trait::async_trait]
impl BlobStore for LocalBlobStore {
    async fn put(&self, key: &BlobKey, mut body: ByteStream) -> Result<u64, BlobError> {
        let target = self.path_of(key);
        let temp = self
            .root
            .join(TEMP_DIR)
            .join(uuid::Uuid::new_v4().to_string());
        let mut file = tokio::fs::File::create(&temp).await?;
        let mut written = 0u64;
        let outcome: Result<(), BlobError> = async {
            while let Some(chunk) = body.next().await {
                let chunk = chunk.map_err(BlobError::Body)?;
                file.write_all(&chunk).await?;
                written += chunk.len() as u64;
            }
            file.sync_all().await?;
            if let Some(parent) = target.parent() {
                tokio::fs::create_dir_all(parent).await?;
            }
            tokio::fs::rename(&temp, &target).await?;
            Ok(())
        }
        .await;
        if outcome.is_err() {
            let _ = tokio::fs::remove_file(&temp).await;
        }
        outcome.map(|()| written)
    }

    async fn get(&self, key: &BlobKey) -> Result<ByteStream, BlobError> {
        let file = tokio::fs::File::open(self.path_of(key))
            .await
            .map_err(|e| not_found_or(e, key))?;
        if file.metadata().await?.is_dir() {
            return Err(BlobError::NotFound(key.to_string()));
        }
        Ok(Box::pin(tokio_util::io::ReaderStream::with_capacity(
            file,
            64 * 1024,
        )))
    }

    async fn get_range(
        &self,
        key: &BlobKey,
        offset: u64,
        length: u64,
    ) -> Result<ByteStream, BlobError> {
        use tokio::io::{AsyncReadExt as _, AsyncSeekExt as _};
        let mut file = tokio::fs::File::open(self.path_of(key))
            .await
            .map_err(|e| not_found_or(e, key))?;
        if file.metadata().await?.is_dir() {
            return Err(BlobError::NotFound(key.to_string()));
        }
        file.seek(std::io::SeekFrom::Start(offset)).await?;
        Ok(Box::pin(tokio_util::io::ReaderStream::with_capacity(
            file.take(length),
            64 * 1024,
        )))
    }

    async fn head(&self, key: &BlobKey) -> Result<Option<BlobMeta>, BlobError> {
        match tokio::fs::metadata(self.path_of(key)).await {
            Ok(meta) if meta.is_file() => Ok(Some(BlobMeta {
                key: key.to_string(),
                size: meta.len(),
                modified_unix: unix_seconds(meta.modified().ok()),
            })),
            Ok(_) => Ok(None),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error.into()),
        }
    }

    async fn delete(&self, key: &BlobKey) -> Result<(), BlobError> {
        match tokio::fs::remove_file(self.path_of(key)).await {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error.into()),
            _ => Ok(()),
        }
    }

    async fn list(&self, prefix: &str) -> Result<Vec<BlobMeta>, BlobError> {
        let root = self.root.clone();
        let prefix = prefix.to_owned();
        tokio::task::spawn_blocking(move || list_files(&root, &prefix))
            .await
            .map_err(|e| BlobError::Backend(e.to_string()))?
    }

    async fn delete_prefix(&self, folder: &BlobKey) -> Result<u64, BlobError> {
        let directory = self.path_of(folder);
        let root = self.root.clone();
        tokio::task::spawn_blocking(move || {
            let removed = delete_tree(&directory)?;
            remove_empty_parents(&root, &directory);
            Ok(removed)
        })
        .await
        .map_err(|e| BlobError::Backend(e.to_string()))?
    }

    async fn check_ready(&self) -> Result<(), BlobError> {
        tokio::fs::metadata(self.root.join(TEMP_DIR)).await?;
        Ok(())
    }
}

/// Removes the files under `directory` (as `list` sees them: regular files, never through a
/// symbolic link), then the directories they leave empty, `directory` included. Answers how
/// many files it removed. A directory that is not empty (a file arrived meanwhile) stays.
fn delete_tree(directory: &Path) -> Result<u64, BlobError> {
    match std::fs::symlink_metadata(directory) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Ok(0),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(error) => return Err(error.into()),
    }
    let mut removed = 0;
    // Directories in the order they were found: parents before children, so the reverse
    // order removes children first.
    let mut directories = vec![directory.to_path_buf()];
    let mut pending = vec![directory.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
            Err(error) => return Err(error.into()),
        };
        for entry in entries {
            let entry = entry?;
            let file_type = entry.file_type()?;
            if file_type.is_dir() {
                directories.push(entry.path());
                pending.push(entry.path());
            } else if file_type.is_file() {
                match std::fs::remove_file(entry.path()) {
                    Ok(()) => removed += 1,
                    Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                    Err(error) => return Err(error.into()),
                }
            }
        }
    }
    for dir in directories.iter().rev() {
        // Not empty (a file arrived, or something that is not an object) or gone: left as is.
        let _ = std::fs::remove_dir(dir);
    }
    Ok(removed)
}

/// Removes the directories above `directory` that are now empty, up to (not including) `root`:
/// a deleted user's last folder goes with their last object, so not even their id is left.
fn remove_empty_parents(root: &Path, directory: &Path) {
    let mut current = directory.parent();
    while let Some(dir) = current {
        if dir == root || !dir.starts_with(root) || std::fs::remove_dir(dir).is_err() {
            break;
        }
        current = dir.parent();
    }
}

fn list_files(root: &Path, prefix: &str) -> Result<Vec<BlobMeta>, BlobError> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let path = entry.path();
            let Ok(relative) = path.strip_prefix(root) else {
                continue;
            };
            let Some(key) = relative.to_str().map(str::to_owned) else {
                continue;
            };
            if key == TEMP_DIR {
                continue;
            }
            let file_type = entry.file_type()?;
            if file_type.is_dir() {
                // Descend only where keys can still match the prefix.
                let dir_key = format!("{key}/");
                if dir_key.starts_with(prefix) || prefix.starts_with(&dir_key) {
                    pending.push(path);
                }
            } else if file_type.is_file() && key.starts_with(prefix) {
                let meta = entry.metadata()?;
                found.push(BlobMeta {
                    key,
                    size: meta.len(),
                    modified_unix: unix_seconds(meta.modified().ok()),
                });
            }
        }
    }
    found.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn deleting_a_folder_leaves_no_directory_behind() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalBlobStore::new(dir.path()).unwrap();
        for key in ["users/u1/uploads/a.mp3", "users/u1/uploads/x/b.mp3"] {
            store
                .put(&BlobKey::parse(key).unwrap(), crate::body_from_bytes("x"))
                .await
                .unwrap();
        }
        store
            .put(
                &BlobKey::parse("users/u2/uploads/c.mp3").unwrap(),
                crate::body_from_bytes("x"),
            )
            .await
            .unwrap();
        let folder = BlobKey::parse("users/u1/uploads").unwrap();
        assert_eq!(store.delete_prefix(&folder).await.unwrap(), 2);
        assert!(!dir.path().join("users/u1/uploads").exists());
        assert!(
            !dir.path().join("users/u1").exists(),
            "the user's folder, empty now, goes too: not even the id is left"
        );
        assert!(
            dir.path().join("users/u2/uploads/c.mp3").is_file(),
            "others stay"
        );
        assert!(dir.path().join("users").is_dir());
        assert_eq!(store.delete_prefix(&folder).await.unwrap(), 0);
    }
}
