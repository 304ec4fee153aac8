//! What happens to a video's MP3 once it is downloaded: storage keeps it as the video's audio;
//! with 'Use YouTube captions' the video's own captions, when it has them in its original
//! language, become its Vault item at once (through the library's ingest queue, as Whisper's
//! transcripts do); otherwise, when the job transcribes, it is queued for Whisper. A caption
//! failure of any kind (HTTP 429 included) is logged and falls back to Whisper.

use std::path::Path;

use scribevault_bus::contract::{LibraryIngest, SourceType};
use scribevault_bus::enqueue_work;
use scribevault_core::UserId;
use tokio_util::sync::CancellationToken;

use crate::captions::CaptionTranscript;
use crate::domain::downloads::{JobVideo, TranscribeAfter};
use crate::peers::VideoAudio;
use crate::service::Discovery;
use crate::ytdlp::CaptionFailure;

/// What the job asks for each video beyond its MP3.
#[derive(Debug, Clone)]
pub(super) struct AfterDownload {
    pub transcribe: Option<TranscribeAfter>,
    pub use_captions: bool,
}

/// Why a downloaded video did not arrive.
pub(super) enum HandOverFailure {
    /// The job stopped while its captions were fetched.
    Stopped,
    /// Storage refused the MP3, or transcription could not be asked; the reason.
    Refused(String),
}

/// The library's idempotency key for a video's captions item: one per user and video.
fn captions_source_ref(video_id: &str) -> String {
    format!("captions:{video_id}")
}

/// What storage records with the MP3: the cached video's details, else the job's title.
async fn video_audio(discovery: &Discovery, video: &JobVideo) -> Result<VideoAudio, String> {
    let known = discovery
        .store
        .videos_by_id(std::slice::from_ref(&video.video_id))
        .await
        .map_err(|error| format!("database error: {error}"))?;
    Ok(known.get(&video.video_id).map_or_else(
        || VideoAudio {
            video_id: video.video_id.clone(),
            title: video.title.clone(),
            ..VideoAudio::default()
        },
        |known| VideoAudio {
            video_id: known.youtube_video_id.clone(),
            title: known.title.clone(),
            channel_title: known.channel_title.clone(),
            #[allow(clippy::cast_precision_loss)] // durations are far below 2^52 seconds
            duration_seconds: Some(known.duration_seconds as f64),
            published_at: known.published_at.to_rfc3339(),
        },
    ))
}

/// Hands the MP3 at `file` over; answers its `mp3Path` in storage.
pub(super) async fn hand_over(
    discovery: &Discovery,
    user: &UserId,
    after: &AfterDownload,
    video: &JobVideo,
    file: &Path,
    work_dir: &Path,
    stop: CancellationToken,
) -> Result<String, HandOverFailure> {
    let audio = video_audio(discovery, video)
        .await
        .map_err(HandOverFailure::Refused)?;
    let mp3_path = discovery
        .downloads
        .archive
        .store_video_mp3(user, &audio, file)
        .await
        .map_err(|error| HandOverFailure::Refused(format!("Storage refused the MP3: {error}")))?;
    if after.use_captions {
        match discovery
            .downloads
            .captions
            .fetch_captions(&video.video_id, work_dir, stop)
            .await
        {
            Ok(Some(captions)) => {
                if ingest_captions(discovery, user, &audio, &mp3_path, captions).await {
                    return Ok(mp3_path);
                }
            }
            Ok(None) => {
                tracing::info!(
                    video = video.video_id,
                    "no captions in the video's original language; Whisper transcribes it"
                );
            }
            Err(CaptionFailure::Stopped) => return Err(HandOverFailure::Stopped),
            Err(CaptionFailure::RateLimited(reason)) => {
                tracing::warn!(video = video.video_id, reason = %reason, "YouTube rate-limited the captions (HTTP 429); falling back to Whisper");
            }
            Err(CaptionFailure::Failed(reason)) => {
                tracing::warn!(video = video.video_id, reason = %reason, "captions not fetched; falling back to Whisper");
            }
        }
    }
    if let Some(how) = &after.transcribe {
        discovery
            .downloads
            .intake
            .transcribe(user, &audio, &mp3_path, how)
            .await
            .map_err(|error| {
                HandOverFailure::Refused(format!(
                    "Downloaded, but transcription could not be queued: {error}"
                ))
            })?;
    }
    Ok(mp3_path)
}

/// Queues the captions as the video's Vault item, with the MP3 for its player. Answers
/// whether it was queued (when not, the video falls back to Whisper).
async fn ingest_captions(
    discovery: &Discovery,
    user: &UserId,
    audio: &VideoAudio,
    mp3_path: &str,
    captions: CaptionTranscript,
) -> bool {
    let language = captions.language_code();
    let ingest = LibraryIngest {
        user_id: user.as_str().to_owned(),
        source_ref: captions_source_ref(&audio.video_id),
        title: audio.title.clone(),
        source_type: SourceType::Audio,
        content: captions.text(),
        duration_seconds: audio.duration_seconds,
        file_name: None,
        segments_path: None,
        audio_path: Some(mp3_path.to_owned()),
        transcript_source: Some(captions.source),
        segments: captions.segments,
        replaces_item: None,
        review: None,
        language: Some(language),
        traceparent: scribevault_core::telemetry::current_traceparent(),
    };
    match enqueue_work(discovery.downloads.work.as_ref(), &ingest).await {
        Ok(()) => {
            tracing::info!(
                video = audio.video_id,
                source = captions.source.as_str(),
                language = captions.language,
                segments = ingest.segments.len(),
                "captions handed to the Vault"
            );
            true
        }
        Err(error) => {
            tracing::warn!(video = audio.video_id, error = %error, "captions not queued for the Vault; falling back to Whisper");
            false
        }
    }
}
