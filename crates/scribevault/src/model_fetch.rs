//! `scribevault model fetch <name>`: downloads `ggml-<name>.bin` into the model directory on a
//! machine with internet access (an init container, an operator's shell). Streams to a temporary
//! file and renames it into place only when complete and when it starts like a ggml model.

use std::path::Path;

use anyhow::{Context as _, bail};
use futures::StreamExt as _;
use tokio::io::AsyncWriteExt as _;

/// whisper.cpp's file magic (`0x67676d6c`, little-endian).
const GGML_MAGIC: &[u8; 4] = b"lmgg";

/// Downloads the model unless it is already there. Returns the model's path.
pub async fn fetch_model(
    model_dir: &Path,
    name: &str,
    base_url: &str,
) -> anyhow::Result<std::path::PathBuf> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        || name.starts_with('.')
    {
        bail!(
            "invalid model name {name:?}: use a whisper.cpp model name such as small, base.en or tiny.en"
        );
    }
    let target = model_dir.join(format!("ggml-{name}.bin"));
    if tokio::fs::metadata(&target)
        .await
        .is_ok_and(|meta| meta.len() > 0)
    {
        println!("{} is already present", target.display());
        return Ok(target);
    }
    tokio::fs::create_dir_all(model_dir)
        .await
        .with_context(|| {
            format!(
                "SCRIBEVAULT_WHISPER_MODEL_DIR: cannot create {}",
                model_dir.display()
            )
        })?;
    let url = format!("{}/ggml-{name}.bin", base_url.trim_end_matches('/'));
    let response = reqwest::get(&url)
        .await
        .with_context(|| format!("cannot reach {url}"))?;
    if !response.status().is_success() {
        bail!("{url} answered {}", response.status());
    }
    let total = response.content_length();
    let partial = model_dir.join(format!(".ggml-{name}.bin.partial"));
    let mut file = tokio::fs::File::create(&partial)
        .await
        .with_context(|| format!("cannot write {}", partial.display()))?;
    let mut body = response.bytes_stream();
    let mut written: u64 = 0;
    let mut head: Vec<u8> = Vec::with_capacity(4);
    let mut last_reported = 0;
    let outcome: anyhow::Result<()> = async {
        while let Some(chunk) = body.next().await {
            let chunk = chunk.context("the download broke off")?;
            if head.len() < 4 {
                head.extend(chunk.iter().take(4 - head.len()));
            }
            file.write_all(&chunk).await?;
            written += chunk.len() as u64;
            if let Some(total) = total {
                let percent = written * 100 / total.max(1);
                if percent >= last_reported + 10 {
                    last_reported = percent;
                    println!("{name}: {percent} %");
                }
            }
        }
        file.sync_all().await?;
        if head.as_slice() != GGML_MAGIC {
            bail!("{url} is not a whisper.cpp ggml model");
        }
        if total.is_some_and(|total| total != written) {
            bail!(
                "{url}: got {written} of {} bytes",
                total.unwrap_or_default()
            );
        }
        Ok(())
    }
    .await;
    if let Err(error) = outcome {
        let _ = tokio::fs::remove_file(&partial).await;
        return Err(error);
    }
    tokio::fs::rename(&partial, &target).await?;
    println!("saved {} ({written} bytes)", target.display());
    Ok(target)
}
