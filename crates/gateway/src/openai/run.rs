//! One transcription through the same path as every other: the MP3 stored by storage (checked,
//! deduplicated, within quota and the duration cap), a job in the transcription queue (in its
//! turn, behind other users' files), then the caller waits until its file is finished and gets
//! the worker's segments.

use std::path::Path;
use std::time::Duration;

use scribevault_bus::contract::TranscriptSegment;
use scribevault_proto::storage::v1 as storage_pb;
use scribevault_proto::transcription::v1 as transcription_pb;
use tokio::io::AsyncReadExt as _;
use tokio_stream::wrappers::ReceiverStream;

use super::error::OpenAiError;
use crate::clients::UserClients;
use crate::error::ApiError;

/// Size of the upload messages sent to storage (as the browser uploads use).
const UPLOAD_MESSAGE_BYTES: usize = 256 * 1024;

/// How often a waiting request looks at its file. The wait itself is longer than any call's
/// deadline, so it polls rather than holding one call open.
const POLL_EVERY: Duration = Duration::from_millis(500);

/// How long a file started here is remembered, so that a retried request (OpenAI's clients retry
/// timeouts on their own) waits for the same transcription instead of starting another.
const REMEMBER_FOR: Duration = Duration::from_secs(24 * 3600);

/// A file of the transcription service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRef {
    pub job_id: String,
    pub file_id: String,
}

/// Who asked, for which stored MP3, in which language (absent: the caller's default).
type StartedKey = (String, String, Option<String>);

fn started_key(user: &str, mp3_path: &str, language: Option<&str>) -> StartedKey {
    (
        user.to_owned(),
        mp3_path.to_owned(),
        language.map(str::to_owned),
    )
}

/// Files this replica started, by user, stored MP3 and asked language: the same audio asked
/// for in another language is another transcription.
#[derive(Clone)]
pub struct StartedFiles(moka::future::Cache<StartedKey, FileRef>);

impl Default for StartedFiles {
    fn default() -> Self {
        Self(
            moka::future::Cache::builder()
                .max_capacity(10_000)
                .time_to_live(REMEMBER_FOR)
                .build(),
        )
    }
}

/// Streams the MP3 at `path` to storage; answers its stored path.
///
/// # Errors
/// Storage refuses it (not an MP3, over quota, too long) or cannot be reached.
pub async fn store(
    services: &UserClients,
    path: &Path,
    title: String,
    file_name: String,
) -> Result<String, OpenAiError> {
    let mut file = tokio::fs::File::open(path)
        .await
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
    let (sender, receiver) = tokio::sync::mpsc::channel::<storage_pb::UploadMp3Request>(4);
    let mut storage = services.storage();
    let call = tokio::spawn(async move { storage.upload_mp3(ReceiverStream::new(receiver)).await });
    let metadata = storage_pb::Mp3Metadata {
        title,
        file_name,
        ..Default::default()
    };
    let mut message = Some(storage_pb::upload_mp3_request::Part::Metadata(metadata));
    let mut buffer = vec![0_u8; UPLOAD_MESSAGE_BYTES];
    loop {
        if let Some(part) = message.take()
            && sender
                .send(storage_pb::UploadMp3Request { part: Some(part) })
                .await
                .is_err()
        {
            // Storage stopped reading: it refused the file, and its answer says why.
            break;
        }
        let read = file
            .read(&mut buffer)
            .await
            .map_err(|error| OpenAiError::Api(ApiError::internal(error)))?;
        if read == 0 {
            break;
        }
        message = Some(storage_pb::upload_mp3_request::Part::Chunk(
            buffer[..read].to_vec().into(),
        ));
    }
    drop(sender);
    let stored = call
        .await
        .map_err(|error| OpenAiError::Api(ApiError::internal(error)))??;
    Ok(stored.into_inner().mp3_path)
}

/// What one request asks to be transcribed.
#[derive(Clone, Copy)]
pub struct Wanted<'a> {
    pub user: &'a str,
    /// The stored MP3.
    pub mp3_path: &'a str,
    pub title: &'a str,
    /// Empty: the instance's default.
    pub model: &'a str,
    /// Absent: the caller's default.
    pub language: Option<&'a str>,
    /// The caller's token keeps nothing in the Vault.
    pub skip_vault: bool,
}

impl StartedFiles {
    /// The file transcribing what is `wanted`: the one started earlier for the same audio and
    /// language, or a new job.
    ///
    /// # Errors
    /// The transcription service refuses (the model went away since it was checked) or cannot
    /// be reached.
    pub async fn start(
        &self,
        services: &UserClients,
        wanted: &Wanted<'_>,
    ) -> Result<FileRef, OpenAiError> {
        let Wanted {
            user,
            mp3_path,
            title,
            model,
            language,
            skip_vault,
        } = *wanted;
        let key = started_key(user, mp3_path, language);
        if let Some(started) = self.0.get(&key).await {
            return Ok(started);
        }
        let answer = services
            .transcription()
            .start_transcription(transcription_pb::StartTranscriptionRequest {
                files: vec![transcription_pb::FileToTranscribe {
                    id: uuid::Uuid::new_v4().to_string(),
                    mp3_path: mp3_path.to_owned(),
                    title: title.to_owned(),
                    ..Default::default()
                }],
                model: model.to_owned(),
                output_format: "txt".to_owned(),
                skip_vault,
                // Absent: the caller's default (Settings), `auto` until they set one.
                language: language.map(str::to_owned),
            })
            .await?
            .into_inner();
        let file = answer
            .files
            .first()
            .ok_or_else(|| OpenAiError::Api(ApiError::internal("a job without its file")))?;
        let started = FileRef {
            job_id: answer.job_id.clone(),
            file_id: file.id.clone(),
        };
        self.0.insert(key, started.clone()).await;
        Ok(started)
    }

    /// Forgets a file that failed, so sending the audio again starts a new attempt.
    pub async fn forget(&self, user: &str, mp3_path: &str, language: Option<&str>) {
        self.0
            .invalidate(&started_key(user, mp3_path, language))
            .await;
    }
}

/// A completed file: where its transcript is, and the language it is in when the worker said.
pub struct Finished {
    pub transcript_path: String,
    pub language: Option<String>,
}

/// Waits until `file` is finished, at most `limit`.
///
/// # Errors
/// It failed for good or was cancelled, `limit` passed, or the service cannot be reached.
pub async fn wait_for(
    services: &UserClients,
    file: &FileRef,
    limit: Duration,
) -> Result<Finished, OpenAiError> {
    use transcription_pb::FileStatus;
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let job = services
            .transcription()
            .get_transcription_job(transcription_pb::GetTranscriptionJobRequest {
                job_id: file.job_id.clone(),
            })
            .await?
            .into_inner();
        let found = job
            .files
            .iter()
            .find(|candidate| candidate.id == file.file_id)
            .ok_or_else(|| OpenAiError::TranscriptionFailed("the file was deleted".to_owned()))?;
        let reason = || {
            found
                .error_message
                .clone()
                .unwrap_or_else(|| "no reason given".to_owned())
        };
        match found.status() {
            FileStatus::Completed => {
                let transcript_path = found.transcript_path.clone().ok_or_else(|| {
                    OpenAiError::Api(ApiError::internal("a completed file without a transcript"))
                })?;
                return Ok(Finished {
                    transcript_path,
                    language: found.language.clone(),
                });
            }
            FileStatus::Failed => return Err(OpenAiError::TranscriptionFailed(reason())),
            // An error is retried until the file's retries are spent; a cancelled file stays.
            FileStatus::Error
                if found.retry_count >= found.max_retries || reason() == CANCELLED =>
            {
                return Err(OpenAiError::TranscriptionFailed(reason()));
            }
            _ => {}
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(OpenAiError::StillRunning(limit.as_secs()));
        }
        tokio::time::sleep(POLL_EVERY).await;
    }
}

/// The transcription service's word for a file its user cancelled.
const CANCELLED: &str = "Cancelled by user";

/// The worker's segments of the transcript at `transcript_path` (`….txt`; the segments are
/// stored beside it as `….segments.json`).
///
/// # Errors
/// Storage cannot be reached, or the file is not what the worker writes.
pub async fn segments(
    services: &UserClients,
    transcript_path: &str,
) -> Result<Vec<TranscriptSegment>, OpenAiError> {
    use futures::StreamExt as _;
    let base = transcript_path
        .strip_suffix(".txt")
        .unwrap_or(transcript_path);
    let mut body = services
        .storage()
        .download_blob(storage_pb::DownloadBlobRequest {
            path: format!("{base}.segments.json"),
            ..Default::default()
        })
        .await?
        .into_inner();
    let mut bytes = Vec::new();
    while let Some(chunk) = body.next().await {
        bytes.extend_from_slice(&chunk?.chunk);
    }
    serde_json::from_slice(&bytes).map_err(|error| {
        OpenAiError::Api(ApiError::internal(format!("unreadable segments: {error}")))
    })
}
