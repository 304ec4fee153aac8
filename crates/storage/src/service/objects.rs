//! Owner-scoped reads of stored objects.

use scribevault_blob::{BlobError, BlobMeta, ByteStream, owned_key};
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

    /// Streams `length` bytes (to the end when `None`) of one of the caller's objects from byte
    /// `offset`: only that range is read from the blob store.
    ///
    /// # Errors
    /// Invalid path, nothing of the caller's there, or `offset` past the object's end
    /// ([`StorageError::OutOfRange`]; an offset equal to the size of an empty object is allowed).
    pub async fn open_range(
        &self,
        user: &UserId,
        path: &str,
        offset: u64,
        length: Option<u64>,
    ) -> Result<ByteStream, StorageError> {
        let key = owned_key(user.as_str(), path).map_err(invalid_path)?;
        let size = match self.blobs.head(&key).await {
            Ok(Some(meta)) => meta.size,
            Ok(None) => return Err(StorageError::NotFound),
            Err(error) => return Err(StorageError::Blob(error.to_string())),
        };
        if offset > size || (offset == size && size > 0) {
            return Err(StorageError::OutOfRange { offset, size });
        }
        let length = length.unwrap_or(size - offset).min(size - offset);
        match self.blobs.get_range(&key, offset, length).await {
            Ok(body) => Ok(body),
            Err(BlobError::NotFound(_)) => Err(StorageError::NotFound),
            Err(error) => Err(StorageError::Blob(error.to_string())),
        }
    }

    /// Size and last change of one of the caller's objects.
    ///
    /// # Errors
    /// Invalid path, or nothing of the caller's there.
    pub async fn stat(&self, user: &UserId, path: &str) -> Result<BlobMeta, StorageError> {
        let key = owned_key(user.as_str(), path).map_err(invalid_path)?;
        match self.blobs.head(&key).await {
            Ok(Some(meta)) => Ok(meta),
            Ok(None) => Err(StorageError::NotFound),
            Err(error) => Err(StorageError::Blob(error.to_string())),
        }
    }
}
