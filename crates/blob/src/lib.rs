//! Object storage behind one small trait, [`BlobStore`], with a local-filesystem and an S3
//! implementation.
//!
//! Bodies are streams in both directions: a 200 MB upload never sits in memory as a whole. Keys
//! are validated by [`BlobKey`] before any backend sees them, so no key can address anything
//! outside the store (`..`, absolute paths and NUL bytes are refused, not cleaned up).

mod key;
mod local;
mod owned;
mod s3;

use std::pin::Pin;

use bytes::Bytes;
use futures::Stream;

pub use key::BlobKey;
pub use local::LocalBlobStore;
pub use owned::{CLIENT_PATH_ROOTS, owned_folder, owned_key};
pub use s3::{MIN_PART_SIZE, S3BlobStore, S3Settings};

/// A stream of body chunks.
pub type ByteStream = Pin<Box<dyn Stream<Item = Result<Bytes, std::io::Error>> + Send>>;

/// Why a blob operation failed.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// The key is not acceptable (empty, absolute, contains `..`, NUL, …).
    #[error("invalid blob key: {0}")]
    InvalidKey(String),
    /// No object has this key.
    #[error("blob not found: {0}")]
    NotFound(String),
    /// The body stream failed while being stored (nothing was kept).
    #[error("reading the upload failed: {0}")]
    Body(std::io::Error),
    /// The backend failed.
    #[error("blob store failure: {0}")]
    Backend(String),
}

impl From<std::io::Error> for BlobError {
    fn from(error: std::io::Error) -> Self {
        Self::Backend(error.to_string())
    }
}

/// Size and key of a stored object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobMeta {
    /// The object's key.
    pub key: String,
    /// Its size in bytes.
    pub size: u64,
    /// When it was last written (Unix seconds), when the backend reports it.
    pub modified_unix: Option<i64>,
}

/// Streaming object storage.
#[async_trait::async_trait]
pub trait BlobStore: Send + Sync {
    /// Stores `body` under `key`, replacing any object there. The object becomes visible only
    /// when complete; a failed body leaves nothing behind. Returns the stored size.
    async fn put(&self, key: &BlobKey, body: ByteStream) -> Result<u64, BlobError>;
    /// Streams the object at `key`.
    async fn get(&self, key: &BlobKey) -> Result<ByteStream, BlobError>;
    /// Streams `length` bytes of the object at `key` from byte `offset` (fewer when the object
    /// ends first; nothing when `offset` is at or past its end). For HTTP `Range` answers: the
    /// backend reads only that range (a seek, or S3's `Range` header), never the bytes before.
    async fn get_range(
        &self,
        key: &BlobKey,
        offset: u64,
        length: u64,
    ) -> Result<ByteStream, BlobError>;
    /// Size of the object at `key`, or `None` if there is none.
    async fn head(&self, key: &BlobKey) -> Result<Option<BlobMeta>, BlobError>;
    /// Deletes the object at `key`; deleting a missing object is not an error.
    async fn delete(&self, key: &BlobKey) -> Result<(), BlobError>;
    /// Every object whose key starts with `prefix`, in key order.
    async fn list(&self, prefix: &str) -> Result<Vec<BlobMeta>, BlobError>;
    /// Deletes every object in the folder `folder` (each key that starts with `<folder>/`;
    /// `a/b` never reaches `a/bc/…`) and answers how many there were. Deleting an empty or
    /// missing folder is not an error. An object written while it runs may survive it; calling
    /// it again deletes that one too.
    async fn delete_prefix(&self, folder: &BlobKey) -> Result<u64, BlobError>;
    /// Whether the store is usable (for readiness probes).
    async fn check_ready(&self) -> Result<(), BlobError>;
}

/// Wraps a single in-memory buffer as a body (for small objects and tests).
#[must_use]
pub fn body_from_bytes(bytes: impl Into<Bytes>) -> ByteStream {
    let bytes: Bytes = bytes.into();
    Box::pin(futures::stream::once(async move { Ok(bytes) }))
}

/// A body read from the file at `path` as it is sent (a spooled upload on its way to the store).
///
/// # Errors
/// The file cannot be opened.
pub async fn body_from_file(path: &std::path::Path) -> Result<ByteStream, std::io::Error> {
    let file = tokio::fs::File::open(path).await?;
    Ok(Box::pin(tokio_util::io::ReaderStream::with_capacity(
        file,
        64 * 1024,
    )))
}

/// Reads a whole body into memory. Only for objects known to be small (transcripts, tests).
///
/// # Errors
/// The first error the stream yields.
pub async fn collect_body(mut body: ByteStream) -> Result<Vec<u8>, std::io::Error> {
    use futures::StreamExt as _;
    let mut out = Vec::new();
    while let Some(chunk) = body.next().await {
        out.extend_from_slice(&chunk?);
    }
    Ok(out)
}
