//! Owner-scoped reads of stored objects.

use scribevault_blob::{BlobError, ByteStream, owned_key};
use scribevault_core::UserId;

use super::{Storage, invalid_path};
use crate::error::StorageError;

impl Storage {
    /// Streams one of the caller's objects.
    ///
    /// # Errors
    /// Invalid path, or nothing of the caller's there.
    pub async fn open(&self, user: &UserId, path: &str) -> Result<ByteStream, StorageError> {
        let key = owned_key(user.as_str(), path).map_err(invalid_path)?;
        match self.blobs.get(&key).await {
            Ok(body) => Ok(body),
            Err(BlobError::NotFound(_)) => Err(StorageError::NotFound),
            Err(error) => Err(StorageError::Blob(error.to_string())),
        }
    }

    /// Size of one of the caller's objects.
    ///
    /// # Errors
    /// Invalid path, or nothing of the caller's there.
    pub async fn stat(&self, user: &UserId, path: &str) -> Result<u64, StorageError> {
        let key = owned_key(user.as_str(), path).map_err(invalid_path)?;
        match self.blobs.head(&key).await {
            Ok(Some(meta)) => Ok(meta.size),
            Ok(None) => Err(StorageError::NotFound),
            Err(error) => Err(StorageError::Blob(error.to_string())),
        }
    }
}
