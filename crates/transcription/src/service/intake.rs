//! Job intake: a batch of the caller's MP3s becomes a job whose files start now or wait for an
//! overnight window. Everything is checked before anything is written.

use chrono::Utc;
use scribevault_blob::owned_key;
use scribevault_core::UserId;

use crate::domain::window::parse_window;
use crate::domain::{
    FileStatus, FileToTranscribe, LanguageChoice, MAX_FILES_PER_JOB, OutputFormat, ScheduleWindow,
    TranscriptionFile, TranscriptionJob, UNTITLED, WindowSpec,
};
use crate::error::TranscriptionError;
use crate::service::{Transcriptions, unavailable};
use crate::store::NewFile;

/// A job and its files, as the caller sees them.
pub type JobWithFiles = (TranscriptionJob, Vec<TranscriptionFile>);

fn or_default<'a>(value: &'a str, default: &'a str) -> &'a str {
    if value.is_empty() { default } else { value }
}

/// What a new job's files are transcribed with besides model and format.
struct JobTerms {
    /// No Vault item is made from the transcripts.
    skip_vault: bool,
    /// The spoken language, as asked or the caller's default.
    language: LanguageChoice,
}

impl Transcriptions {
    /// Creates a job whose files start now, in `language` (`auto` or a Whisper code; `None`:
    /// the caller's default).
    ///
    /// # Errors
    /// Invalid files, unknown MP3 paths, an absent model, an unknown language.
    #[tracing::instrument(skip_all, fields(user = %user, files = files.len()))]
    pub async fn start_job(
        &self,
        user: &UserId,
        files: Vec<FileToTranscribe>,
        model: &str,
        output_format: &str,
        skip_vault: bool,
        language: Option<&str>,
    ) -> Result<JobWithFiles, TranscriptionError> {
        let terms = JobTerms {
            skip_vault,
            language: self.job_language(user, language).await?,
        };
        self.create_job(user, files, model, output_format, None, terms)
            .await
    }

    /// Creates a job whose files wait for the daily window.
    ///
    /// # Errors
    /// As [`Transcriptions::start_job`], plus a bad window.
    #[tracing::instrument(skip_all, fields(user = %user, files = files.len()))]
    pub async fn schedule_job(
        &self,
        user: &UserId,
        files: Vec<FileToTranscribe>,
        model: &str,
        output_format: &str,
        window: &ScheduleWindow,
        language: Option<&str>,
    ) -> Result<JobWithFiles, TranscriptionError> {
        let window = WindowSpec {
            start: or_default(&window.start, "01:00").to_owned(),
            end: or_default(&window.end, "06:00").to_owned(),
            timezone: or_default(&window.timezone, "UTC").to_owned(),
        };
        parse_window(&window.start, &window.end, &window.timezone)?;
        let terms = JobTerms {
            skip_vault: false,
            language: self.job_language(user, language).await?,
        };
        self.create_job(user, files, model, output_format, Some(window), terms)
            .await
    }

    async fn create_job(
        &self,
        user: &UserId,
        files: Vec<FileToTranscribe>,
        model: &str,
        output_format: &str,
        window: Option<WindowSpec>,
        terms: JobTerms,
    ) -> Result<JobWithFiles, TranscriptionError> {
        let output_format =
            OutputFormat::parse(output_format).map_err(TranscriptionError::InvalidArgument)?;
        let model = self.check_model(model).await?;
        self.check_files(user, &files).await?;
        self.check_waiting_cap(user, files.len()).await?;
        let status = if window.is_some() {
            FileStatus::Scheduled
        } else {
            FileStatus::Pending
        };
        let job = TranscriptionJob {
            id: uuid::Uuid::now_v7().to_string(),
            user_id: user.as_str().to_owned(),
            model,
            output_format,
            window,
            language: Some(terms.language),
            created_at: Utc::now(),
        };
        let lengths = self.audio_lengths(user, &files).await;
        let new_files = files
            .into_iter()
            .zip(lengths)
            .map(|(file, audio_seconds)| NewFile {
                title: if file.title.trim().is_empty() {
                    UNTITLED.to_owned()
                } else {
                    file.title
                },
                file_id: file.id,
                youtube_video_id: file.youtube_video_id,
                mp3_path: file.mp3_path,
                status,
                max_retries: self.config.max_retries,
                audio_seconds,
                skip_vault: terms.skip_vault,
                replaces_item: file.replaces_item,
            })
            .collect();
        let files = self.store.insert_job(&job, new_files).await?;
        if status == FileStatus::Pending {
            for file in &files {
                self.enqueue(file).await?;
            }
        }
        self.queue_changed(&[user.as_str()]).await;
        Ok((job, files))
    }

    /// Refuses a request whose files would take the caller past their cap on waiting files,
    /// so one user cannot queue unbounded work (security review F16). The count and the insert
    /// are not one transaction: two requests at once may pass the cap by one batch at most.
    async fn check_waiting_cap(
        &self,
        user: &UserId,
        adding: usize,
    ) -> Result<(), TranscriptionError> {
        let cap = self.config.max_waiting_files_per_user;
        let waiting = self.count_waiting(user).await?;
        let adding = u64::try_from(adding).unwrap_or(u64::MAX);
        if waiting.saturating_add(adding) > cap {
            return Err(TranscriptionError::TooManyWaiting { waiting, cap });
        }
        Ok(())
    }

    async fn check_files(
        &self,
        user: &UserId,
        files: &[FileToTranscribe],
    ) -> Result<(), TranscriptionError> {
        if files.is_empty() {
            return Err(TranscriptionError::InvalidArgument(
                "No files to transcribe".into(),
            ));
        }
        if files.len() > MAX_FILES_PER_JOB {
            return Err(TranscriptionError::InvalidArgument(format!(
                "At most {MAX_FILES_PER_JOB} files per job"
            )));
        }
        let mut ids = std::collections::HashSet::new();
        for file in files {
            if file.id.trim().is_empty() || file.id.len() > 200 {
                return Err(TranscriptionError::InvalidArgument(
                    "Every file needs an id".into(),
                ));
            }
            if !ids.insert(file.id.as_str()) {
                return Err(TranscriptionError::InvalidArgument(format!(
                    "File id {} appears twice",
                    file.id
                )));
            }
            let invalid_path = || {
                TranscriptionError::InvalidArgument(format!("Invalid mp3Path {:?}", file.mp3_path))
            };
            let key = owned_key(user.as_str(), &file.mp3_path).map_err(|_| invalid_path())?;
            if !file.mp3_path.starts_with("uploads/") {
                return Err(invalid_path());
            }
            match self.blobs.head(&key).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    return Err(TranscriptionError::NotFound(format!(
                        "MP3 not found: {}",
                        file.mp3_path
                    )));
                }
                Err(error) => return Err(unavailable(error)),
            }
        }
        Ok(())
    }

    /// A job and its files.
    ///
    /// # Errors
    /// Unknown job (or another user's).
    pub async fn job(
        &self,
        user: &UserId,
        job_id: &str,
    ) -> Result<JobWithFiles, TranscriptionError> {
        let job = self
            .store
            .job(user.as_str(), job_id)
            .await?
            .ok_or_else(|| TranscriptionError::NotFound("No active transcription job".into()))?;
        let files = self.store.files_of_job(user.as_str(), job_id).await?;
        Ok((job, files))
    }
}
