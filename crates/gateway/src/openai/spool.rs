//! Where OpenAI-style uploads and their MP3s are written while a request runs: a folder on the
//! data volume, not `/tmp` (memory in the compose file, 256 MiB in the Kubernetes pod, where a
//! 300 MB upload got the pod evicted). A request reserves room for its file and its transcode
//! before it reads a byte, and is refused (507) when the volume would not keep a margin free,
//! so uploads cannot fill the disk the database or the other requests need.

use std::path::{Path, PathBuf};

use super::error::OpenAiError;
use crate::error::ApiError;

/// Left free on the spool's volume whatever the uploads.
const FREE_MARGIN_BYTES: u64 = 256 * 1024 * 1024;

/// The spool folder.
pub struct Spool {
    dir: PathBuf,
}

impl Spool {
    /// The spool at `dir`; files a killed gateway left there are removed.
    #[must_use]
    pub fn new(dir: PathBuf) -> Self {
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Self { dir }
    }

    /// The folder to spool into, once the volume has room for `upload` bytes and a transcode
    /// of `output` bytes besides the margin.
    ///
    /// # Errors
    /// [`OpenAiError::DiskFull`] when it has not; the folder cannot be made.
    pub async fn reserve(&self, upload: u64, output: u64) -> Result<&Path, OpenAiError> {
        tokio::fs::create_dir_all(&self.dir)
            .await
            .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
        let free =
            free_bytes(&self.dir).map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
        let needed = upload
            .saturating_add(output)
            .saturating_add(FREE_MARGIN_BYTES);
        if free < needed {
            tracing::warn!(
                free,
                needed,
                dir = %self.dir.display(),
                "an OpenAI-style upload was refused: its spool's volume is nearly full"
            );
            return Err(OpenAiError::DiskFull);
        }
        Ok(&self.dir)
    }
}

/// Bytes an unprivileged writer may still use on the volume holding `dir`.
fn free_bytes(dir: &Path) -> Result<u64, nix::Error> {
    let stats = nix::sys::statvfs::statvfs(dir)?;
    Ok(stats
        .blocks_available()
        .saturating_mul(stats.fragment_size()))
}

/// The body's declared length, when the client sent one.
#[must_use]
pub fn declared_length(request: &actix_web::HttpRequest) -> Option<u64> {
    request
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_spool_refuses_what_would_leave_its_volume_without_the_margin() {
        let dir = tempfile::tempdir().unwrap();
        let spool = Spool::new(dir.path().join("spool"));
        assert!(spool.reserve(1024, 1024).await.is_ok());
        assert!(matches!(
            spool.reserve(u64::MAX / 2, 0).await,
            Err(OpenAiError::DiskFull)
        ));
    }

    #[test]
    fn files_left_by_a_killed_gateway_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let left = dir.path().join(".tmpLEFT");
        std::fs::write(&left, b"half an upload").unwrap();
        let _spool = Spool::new(dir.path().to_owned());
        assert!(!left.exists());
    }
}
