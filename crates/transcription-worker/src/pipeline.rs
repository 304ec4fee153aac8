//! One file from MP3 to stored transcript: download, decode, resample, transcribe, render,
//! store. CPU work runs on blocking threads that keep the file's span, so whisper's own log
//! lines carry the job and file ids.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use futures::StreamExt as _;
use scribevault_blob::{BlobKey, BlobStore, body_from_bytes, owned_key};
use scribevault_bus::contract::TranscriptReview;
use tokio::io::AsyncWriteExt as _;

use crate::domain::{ClaimedFile, OutputFormat, Transcript};
use crate::error::FileFailure;
use crate::render;
use crate::transcribe::stitching::{AudioOptions, FileError, transcribe_windows};
use crate::whisper::Segment;
use crate::whisper::Transcribe;

/// What the pipeline needs besides the file.
#[derive(Clone)]
pub struct Pipeline {
    pub blobs: Arc<dyn BlobStore>,
    pub whisper: Arc<dyn Transcribe>,
    pub audio: AudioOptions,
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
    /// Copies the MP3 at `key` into an unnamed temporary file (gone when dropped, even after a
    /// crash), so decoding reads it from disk instead of holding hundreds of MB of a long file.
    async fn download(&self, key: &BlobKey) -> Result<std::fs::File, FileFailure> {
        let unreadable = |e: &dyn std::fmt::Display| {
            FileFailure::transient(format!("The MP3 could not be read: {e}"))
        };
        let mut body = self.blobs.get(key).await.map_err(|e| unreadable(&e))?;
        let file = blocking(tempfile::tempfile)
            .await?
            .map_err(|e| unreadable(&e))?;
        let mut file = tokio::fs::File::from_std(file);
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| unreadable(&e))?;
            file.write_all(&chunk).await.map_err(|e| unreadable(&e))?;
        }
        file.flush().await.map_err(|e| unreadable(&e))?;
        Ok(file.into_std().await)
    }

    /// Download, decode, transcribe window by window, store. Stops between windows (and inside
    /// whisper) once `abort` is set.
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
        let key = owned_key(file.user.as_str(), &file.mp3_path).map_err(FileFailure::permanent)?;
        let whisper = self.whisper.clone();
        let model = file.model.clone();
        let mut decode = self.audio.decode.clone();
        if let Some(language) = file.language {
            // The owner's choice; a job from before jobs recorded one keeps the worker's own.
            language.as_str().clone_into(&mut decode.language);
        }
        // The model loads while the MP3 arrives.
        let (audio, transcriber) = tokio::join!(
            self.download(&key),
            blocking(move || whisper.start(&model, &decode))
        );
        let audio = audio?;
        let mut transcriber = transcriber?.map_err(FileError::from)?;
        if abort.load(Ordering::Relaxed) {
            return Err(FileFailure::Stopped);
        }

        let options = self.audio.clone();
        let whisper_abort = abort.clone();
        let transcript = blocking(move || {
            transcribe_windows(
                audio,
                transcriber.as_mut(),
                &options,
                &progress,
                &whisper_abort,
            )
        })
        .await?
        .map_err(|error| {
            let failure = FileFailure::from(error);
            if matches!(failure, FileFailure::Stopped) {
                tracing::info!("transcription stopped");
            }
            failure
        })?;
        // bench/measure.py reads this to set the pipeline's cost against whisper's, same run.
        tracing::info!(
            whisper_ms = u64::try_from(transcript.whisper_time.as_millis()).unwrap_or(u64::MAX),
            vad_ms = u64::try_from(transcript.vad_time.as_millis()).unwrap_or(u64::MAX),
            audio_seconds = transcript.audio_seconds,
            speech_seconds = transcript.speech_seconds,
            windows = transcript.window_starts_ms.len(),
            redecodes = transcript.redecodes,
            review_ranges = transcript.review.ranges.len(),
            "whisper finished"
        );
        let mut stored = self.store(file, &transcript.segments).await?;
        stored.processing_time_ms =
            u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        stored.duration_seconds = transcript.audio_seconds;
        stored.language = transcript.language;
        if transcript.review.needs_review() {
            self.store_review(file, &stored.transcript_path, &transcript.review)
                .await?;
        }
        stored.review = transcript.review;
        Ok(stored)
    }

    /// Stores the quality guard's review beside the transcript (`….review.json`): the
    /// completion carries it, and the transcription service reads it from here when it hands
    /// the file to the library again after a crash.
    async fn store_review(
        &self,
        file: &ClaimedFile,
        transcript_path: &str,
        review: &TranscriptReview,
    ) -> Result<(), FileFailure> {
        let Some(base) = transcript_path.strip_suffix(".txt") else {
            return Ok(());
        };
        let body = serde_json::to_vec(review).map_err(FileFailure::transient)?;
        let key = owned_key(file.user.as_str(), &format!("{base}.review.json"))
            .map_err(FileFailure::permanent)?;
        self.blobs
            .put(&key, body_from_bytes(body))
            .await
            .map(|_| ())
            .map_err(|e| FileFailure::transient(format!("The review could not be stored: {e}")))
    }

    /// Stores `segments` as the file's text, markdown and segment JSON; the answer names them
    /// and holds the Vault's content in the job's format (its times and language left empty).
    async fn store(
        &self,
        file: &ClaimedFile,
        segments: &[Segment],
    ) -> Result<Transcript, FileFailure> {
        let text = render::plain_text(segments);
        let markdown = render::markdown(&file.title, segments);
        let segments_json = serde_json::to_vec_pretty(segments).map_err(FileFailure::transient)?;
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
        let vault_content = match file.output_format {
            OutputFormat::Txt => text,
            OutputFormat::Markdown => markdown,
        };
        Ok(Transcript {
            transcript_path,
            markdown_path,
            segments_path,
            processing_time_ms: 0,
            duration_seconds: 0.0,
            vault_content,
            language: None,
            review: TranscriptReview::default(),
        })
    }
}
