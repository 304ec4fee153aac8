//! The life of one file after intake (docs/product-spec.md §4): a worker claims it, reports progress, completes
//! or fails it; the user retries or cancels it. Each step is one [`FileTransition`], applied by
//! the store only if the file is still where the transition starts.

use chrono::Utc;
use scribevault_bus::Event;
use scribevault_bus::contract::TranscriptionComplete;
use scribevault_core::UserId;
use scribevault_core::fairness::goes_before;

use crate::domain::window::parse_window;
use crate::domain::{
    CANCELLED_BY_USER, ClaimRefusal, ClaimedFile, CompletedTranscript, FileStatus, FileTransition,
    TranscriptionFile, whose_turn,
};
use crate::error::TranscriptionError;
use crate::service::Transcriptions;
use crate::store::{FileUpdate, Guard, TranscriptOutputs};

fn not_found_file() -> TranscriptionError {
    TranscriptionError::NotFound("No active job for this file".into())
}

impl Transcriptions {
    async fn find_file(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<TranscriptionFile, TranscriptionError> {
        self.store
            .file(user.as_str(), job_id, file_id)
            .await?
            .ok_or_else(not_found_file)
    }

    /// Retries a file that ended in `error` or `failed`: it becomes `retrying` and is queued.
    ///
    /// # Errors
    /// Unknown file, or a file that is not in error.
    #[tracing::instrument(skip_all, fields(user = %user, job = job_id, file = file_id))]
    pub async fn retry(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<TranscriptionFile, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let refused = || {
            TranscriptionError::Conflict(format!(
                "Only files in error can be retried; this one is {}",
                file.status
            ))
        };
        file.status
            .apply(FileTransition::Retry)
            .map_err(|_| refused())?;
        // A user's retry gives the file a fresh count of take-backs (an operator may have
        // given the workers more memory since it was given up).
        let update = FileUpdate {
            progress: Some(0),
            error_message: Some(None),
            next_attempt_at: Some(None),
            take_backs: Some(0),
            ..FileUpdate::default()
        };
        // The file may have moved since it was read; the store checks again.
        if !self
            .store
            .transition(&file.row_id, FileTransition::Retry, Guard::None, update)
            .await?
        {
            return Err(refused());
        }
        let file = self.find_file(user, job_id, file_id).await?;
        self.enqueue(&file).await?;
        self.queue_changed(&[user.as_str()]).await;
        Ok(file)
    }

    /// Cancels a file: it ends in `error` with 'Cancelled by user'; a running transcription is
    /// told to stop at once (and, should that order be lost, at its next report).
    ///
    /// # Errors
    /// Unknown file, or a finished one.
    #[tracing::instrument(skip_all, fields(user = %user, job = job_id, file = file_id))]
    pub async fn cancel(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
    ) -> Result<TranscriptionFile, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let refused =
            || TranscriptionError::Conflict(format!("The file is already {}", file.status));
        file.status
            .apply(FileTransition::Cancel)
            .map_err(|_| refused())?;
        let update = FileUpdate {
            progress: Some(0),
            error_message: Some(Some(CANCELLED_BY_USER.to_owned())),
            next_attempt_at: Some(None),
            bump_claim_token: true,
            ..FileUpdate::default()
        };
        // The file may have moved since it was read; the store checks again.
        if !self
            .store
            .transition(&file.row_id, FileTransition::Cancel, Guard::None, update)
            .await?
        {
            return Err(refused());
        }
        // Ordered whatever the status was read as, and for any claim: a worker may have claimed
        // it since it was read.
        self.order_stop(&file, None).await;
        let file = self.find_file(user, job_id, file_id).await?;
        self.publish_error(&file).await;
        self.queue_changed(&[user.as_str()]).await;
        Ok(file)
    }

    /// Claims a file for a worker: `pending`/`retrying` (or a `transcribing` file whose worker
    /// went silent) becomes `transcribing` with a new claim token.
    ///
    /// Work messages are queued in the order files were submitted, so one user's 1,000 files
    /// would otherwise stand before everyone else's. With `take_turns` (workers set it), when
    /// the named file waits and it is another user's turn ([`whose_turn`]), that user's
    /// longest-waiting file is claimed instead and the named file is queued again for its own
    /// turn: every message still ends in
    /// one claim, and the file whose message is consumed later finds its file done and is
    /// dropped, as a duplicate message always is.
    ///
    /// # Errors
    /// Unknown file or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, job = job_id, file = file_id))]
    pub async fn claim(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        take_turns: bool,
    ) -> Result<Result<ClaimedFile, ClaimRefusal>, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        if take_turns
            && FileTransition::Claim.sources().contains(&file.status)
            && let Some(turn) = self.other_users_turn(&file).await?
            // Their file may have been claimed since, or its window closed: then this one.
            && let Ok(claimed) = self.claim_file(turn).await?
        {
            tracing::info!(
                deferred = %file.row_id,
                claimed = %claimed.file.row_id,
                "another user's turn: their file first, this one queued again"
            );
            self.enqueue(&file).await?;
            return Ok(Ok(claimed));
        }
        self.claim_file(file).await
    }

    /// The longest-waiting file of the user whose turn it is, when that is not `file`'s owner.
    async fn other_users_turn(
        &self,
        file: &TranscriptionFile,
    ) -> Result<Option<TranscriptionFile>, TranscriptionError> {
        let shares = self.store.queue_shares().await?;
        let Some(turn) = whose_turn(&shares) else {
            return Ok(None);
        };
        let owner = shares.iter().find(|share| share.user_id == file.user_id);
        let ahead = owner.is_none_or(|owner| goes_before(turn, owner));
        if turn.user_id == file.user_id || !ahead {
            return Ok(None);
        }
        Ok(self.store.oldest_waiting_file(&turn.user_id).await?)
    }

    /// Claims `file` itself (see [`Self::claim`]).
    async fn claim_file(
        &self,
        file: TranscriptionFile,
    ) -> Result<Result<ClaimedFile, ClaimRefusal>, TranscriptionError> {
        let user = UserId::new(file.user_id.clone());
        let job = self
            .store
            .job(user.as_str(), &file.job_id)
            .await?
            .ok_or_else(not_found_file)?;
        let now = Utc::now();
        if let Some(window) = &job.window
            && !parse_window(&window.start, &window.end, &window.timezone)?.contains(now)
        {
            // The window closed before this file started: it waits for the next night.
            self.store
                .transition(
                    &file.row_id,
                    FileTransition::Defer,
                    Guard::None,
                    FileUpdate::default(),
                )
                .await?;
            return Ok(Err(ClaimRefusal::OutsideWindow));
        }
        let stale_before =
            now - chrono::Duration::from_std(self.config.stale_after).unwrap_or_default();
        if !self.store.claim(&file.row_id, stale_before, now).await? {
            let refusal = if file.status == FileStatus::Transcribing {
                ClaimRefusal::Busy
            } else {
                ClaimRefusal::Finished
            };
            return Ok(Err(refusal));
        }
        let took_over = file.status == FileStatus::Transcribing;
        let file = self.find_file(&user, &file.job_id, &file.file_id).await?;
        if took_over {
            // Its worker went silent and no sweep has taken it back yet: the same count as a
            // take-back, so a file that kills every worker still ends.
            let take_backs = file.take_backs.saturating_add(1);
            if take_backs >= self.config.max_take_backs {
                self.give_up_on(&file, take_backs).await?;
                return Ok(Err(ClaimRefusal::Finished));
            }
            let update = FileUpdate {
                take_backs: Some(take_backs),
                ..FileUpdate::default()
            };
            self.store
                .transition(
                    &file.row_id,
                    FileTransition::Progress,
                    Guard::ClaimToken(file.claim_token),
                    update,
                )
                .await?;
        }
        self.publish_progress(&file, 0, Some(FileStatus::Transcribing))
            .await;
        self.queue_changed(&[file.user_id.as_str()]).await;
        let claim_token = file.claim_token;
        Ok(Ok(ClaimedFile {
            file,
            model: job.model,
            output_format: job.output_format,
            claim_token,
            language: job.language,
        }))
    }

    /// Records progress (and the worker's heartbeat). Returns whether the worker must stop
    /// (cancelled, or the claim was given to another worker).
    ///
    /// # Errors
    /// Unknown file or database failure.
    pub async fn report_progress(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        claim_token: i32,
        progress: u32,
    ) -> Result<bool, TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let progress = progress.min(99);
        let update = FileUpdate {
            progress: Some(progress),
            heartbeat_at: Some(Utc::now()),
            ..FileUpdate::default()
        };
        if !self
            .store
            .transition(
                &file.row_id,
                FileTransition::Progress,
                Guard::ClaimToken(claim_token),
                update,
            )
            .await?
        {
            return Ok(true);
        }
        if progress != file.progress {
            self.publish_progress(&file, progress, None).await;
        }
        Ok(false)
    }

    /// Marks a file completed, announces it, and hands the transcript to the library.
    ///
    /// # Errors
    /// Unknown file or database/bus failure.
    #[tracing::instrument(skip_all, fields(user = %user, job = job_id, file = file_id))]
    pub async fn complete(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        claim_token: i32,
        result: CompletedTranscript,
    ) -> Result<(), TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let update = FileUpdate {
            progress: Some(100),
            error_message: Some(None),
            outputs: Some(TranscriptOutputs {
                transcript_path: result.transcript_path.clone(),
                markdown_path: result.markdown_path.clone(),
                segments_path: result.segments_path.clone(),
                processing_time_ms: result.processing_time_ms,
                audio_seconds: Some(result.duration_seconds).filter(|seconds| *seconds > 0.0),
                language: result.language.clone(),
            }),
            ..FileUpdate::default()
        };
        if !self
            .store
            .transition(
                &file.row_id,
                FileTransition::Complete,
                Guard::ClaimToken(claim_token),
                update,
            )
            .await?
        {
            tracing::info!("completion of a cancelled or re-claimed file ignored");
            return Ok(());
        }
        let paths = crate::service::handoff::VaultPaths {
            transcript_path: Some(result.transcript_path.clone()),
            segments_path: Some(result.segments_path.clone()),
        };
        self.hand_to_library(
            &file,
            result.vault_content,
            Some(result.duration_seconds),
            paths,
            result.language,
            result.review,
        )
        .await?;
        self.publish(
            &file,
            Event::TranscriptionComplete(TranscriptionComplete {
                file_id: file.file_id.clone(),
                job_id: file.job_id.clone(),
                transcript_path: result.transcript_path,
                markdown_path: result.markdown_path,
                processing_time: result.processing_time_ms,
            }),
        )
        .await;
        self.queue_changed(&[user.as_str()]).await;
        Ok(())
    }

    /// Records a failed attempt: `error` with a retry planned after a back-off, or `failed`
    /// when retries are exhausted or no retry can help.
    ///
    /// # Errors
    /// Unknown file or database failure.
    #[tracing::instrument(skip_all, fields(user = %user, job = job_id, file = file_id, permanent))]
    pub async fn fail(
        &self,
        user: &UserId,
        job_id: &str,
        file_id: &str,
        claim_token: i32,
        message: &str,
        permanent: bool,
    ) -> Result<(), TranscriptionError> {
        let file = self.find_file(user, job_id, file_id).await?;
        let retry_count = file.retry_count + 1;
        let exhausted = permanent || retry_count >= file.max_retries;
        let now = Utc::now();
        let delay = self.config.retry_delay(file.retry_count);
        let next_attempt =
            (!exhausted).then(|| now + chrono::Duration::from_std(delay).unwrap_or_default());
        let update = FileUpdate {
            progress: Some(0),
            error_message: Some(Some(message.to_owned())),
            retry_count: Some(retry_count),
            last_failed_at: Some(now),
            next_attempt_at: Some(next_attempt),
            ..FileUpdate::default()
        };
        if !self
            .store
            .transition(
                &file.row_id,
                FileTransition::Fail { exhausted },
                Guard::ClaimToken(claim_token),
                update,
            )
            .await?
        {
            return Ok(());
        }
        let file = self.find_file(user, job_id, file_id).await?;
        self.publish_error(&file).await;
        self.queue_changed(&[user.as_str()]).await;
        Ok(())
    }
}
