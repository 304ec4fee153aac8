//! One file from MP3 to stored transcript: download, decode, resample, transcribe, render,
//! store. CPU work runs on blocking threads that keep the file's span, so whisper's own log
//! lines carry the job and file ids.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use scribevault_blob::{BlobStore, body_from_bytes, collect_body, owned_key};

use crate::audio::{self, decode_mp3_to_mono, resample_to_whisper_rate};
use crate::domain::{ClaimedFile, Transcript};
use crate::engine::{EngineError, ModelCache, transcribe};
use crate::error::FileFailure;
use crate::render;

/// What the pipeline needs besides the file.
#[derive(Clone)]
pub struct Pipeline {
    pub blobs: Arc<dyn BlobStore>,
    pub models: ModelCache,
    pub model_dir: PathBuf,
    pub threads: u32,
    pub language: String,
}

/// Runs `work` on a blocking thread inside the caller's span.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, FileFailure> {
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || span.in_scope(work))
        .await
        .map_err(FileFailure::transient)
}

/// A file id made safe as one path segment.
fn safe_name(file_id: &str) -> String {
    let cleaned: String = file_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    if cleaned.is_empty() {
        "file".into()
    } else {
        cleaned
    }
}

impl Pipeline {
    /// Download, decode, resample, transcribe, store. Stops between stages (and inside whisper)
    /// once `abort` is set.
    ///
    /// # Errors
    /// The file could not be transcribed, or was stopped.
    pub async fn run(
        &self,
        file: &ClaimedFile,
        progress: Arc<AtomicU32>,
        abort: Arc<AtomicBool>,
    ) -> Result<Transcript, FileFailure> {
        let started = Instant::now();
        let stopped = || abort.load(Ordering::Relaxed);
        let key = owned_key(file.user.as_str(), &file.mp3_path).map_err(FileFailure::permanent)?;
        let unreadable = |e: &dyn std::fmt::Display| {
            FileFailure::transient(format!("The MP3 could not be read: {e}"))
        };
        let body = self.blobs.get(&key).await.map_err(|e| unreadable(&e))?;
        let mp3 = collect_body(body).await.map_err(|e| unreadable(&e))?;

        let model_path = self.model_dir.join(format!("ggml-{}.bin", file.model));
        let models = self.models.clone();
        let prepared = blocking(move || {
            let audio = decode_mp3_to_mono(mp3)?;
            let duration = audio.duration_seconds();
            let pcm = resample_to_whisper_rate(&audio)?;
            Ok::<_, audio::AudioError>((pcm, duration))
        });
        let model = blocking(move || models.get(&model_path));
        let (prepared, model) = tokio::join!(prepared, model);
        let (pcm, duration_seconds) = prepared?.map_err(FileFailure::permanent)?;
        let model = model?.map_err(FileFailure::permanent)?;
        if stopped() {
            return Err(FileFailure::Stopped);
        }

        let threads = self.threads;
        let language = self.language.clone();
        let whisper_abort = abort.clone();
        let whisper_started = Instant::now();
        let segments =
            blocking(move || transcribe(&model, &pcm, threads, &language, progress, whisper_abort))
                .await?;
        // bench/measure.py reads this to set the pipeline's cost against whisper's, same run.
        tracing::info!(
            whisper_ms = u64::try_from(whisper_started.elapsed().as_millis()).unwrap_or(u64::MAX),
            audio_seconds = duration_seconds,
            "whisper finished"
        );
        let segments = match segments {
            Ok(segments) => segments,
            Err(EngineError::Aborted) => {
                tracing::info!("transcription stopped");
                return Err(FileFailure::Stopped);
            }
            Err(error @ EngineError::Model(..)) => return Err(FileFailure::permanent(error)),
            Err(error) => return Err(FileFailure::transient(error)),
        };

        let text = render::plain_text(&segments);
        let markdown = render::markdown(&file.title, &segments);
        let segments_json = serde_json::to_vec_pretty(&segments).map_err(FileFailure::transient)?;
        let base = format!("transcripts/{}/{}", file.job_id, safe_name(&file.file_id));
        let transcript_path = format!("{base}.txt");
        let markdown_path = format!("{base}.md");
        let segments_path = format!("{base}.segments.json");
        for (path, body) in [
            (&transcript_path, text.clone().into_bytes()),
            (&markdown_path, markdown.clone().into_bytes()),
            (&segments_path, segments_json),
        ] {
            let key = owned_key(file.user.as_str(), path).map_err(FileFailure::permanent)?;
            self.blobs
                .put(&key, body_from_bytes(body))
                .await
                .map_err(|e| {
                    FileFailure::transient(format!("The transcript could not be stored: {e}"))
                })?;
        }
        let vault_content = if file.output_format == "txt" {
            text
        } else {
            markdown
        };
        Ok(Transcript {
            transcript_path,
            markdown_path,
            segments_path,
            processing_time_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            duration_seconds,
            vault_content,
        })
    }
}
