//! Recovery sweeps. Every pass is idempotent and every state change in it conditional, so two
//! replicas sweeping at once queue each file at most once more than needed, which claims absorb.

use std::time::Duration;

use chrono::Utc;
use scribevault_blob::owned_key;

use crate::domain::window::parse_window;
use crate::domain::{FileStatus, FileTransition, OutputFormat, TranscriptionFile, gave_up_message};
use crate::error::TranscriptionError;
use crate::service::{Transcriptions, unavailable};
use crate::store::{FileUpdate, Guard};

/// Runs the sweeps every `housekeeping_interval` until the task is dropped.
pub async fn run(service: Transcriptions) {
    let mut ticks = tokio::time::interval(service.config().housekeeping_interval);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(error) = service.requeue_due_files().await {
            tracing::warn!(error = %error, "transcription housekeeping failed");
        }
    }
}

/// What the service does once when it starts, before serving: files that were waiting are
/// queued again and recent completions are handed to the library again.
pub async fn recover_at_start(service: &Transcriptions) {
    match service
        .resend_recent_ingests(service.config().resend_ingests_within)
        .await
    {
        Ok(0) => {}
        Ok(sent) => tracing::info!(sent, "re-sent recently completed files to the library"),
        Err(error) => {
            tracing::error!(error = %error, "could not re-send completed files to the library");
        }
    }
    match service.resume_waiting_files().await {
        Ok(0) => {}
        Ok(resumed) => tracing::info!(
            resumed,
            "queued files that were waiting when the service stopped"
        ),
        Err(error) => tracing::error!(error = %error, "could not resume waiting files"),
    }
}

impl Transcriptions {
    /// One pass of the housekeeping loop: due retries are queued, scheduled files whose window
    /// opened become pending and are queued, and transcribing files whose worker went silent
    /// (it died, or the whole process restarted) go back to `pending` and are queued again.
    /// Returns how many files were queued.
    ///
    /// # Errors
    /// Database or bus failure.
    pub async fn requeue_due_files(&self) -> Result<usize, TranscriptionError> {
        let queued = self.queue_due_retries().await?
            + self.open_windows().await?
            + self.take_back_silent_files().await?;
        if queued > 0 {
            // Files changed state: whoever's places or estimates moved is told.
            self.queue_changed(&[]).await;
        }
        Ok(queued)
    }

    async fn queue_due_retries(&self) -> Result<usize, TranscriptionError> {
        let mut queued = 0;
        for file in self.store.due_retries(Utc::now()).await? {
            let update = FileUpdate {
                next_attempt_at: Some(None),
                ..FileUpdate::default()
            };
            if self
                .store
                .transition(&file.row_id, FileTransition::RetryDue, Guard::None, update)
                .await?
            {
                self.publish_progress(&file, 0, Some(FileStatus::Retrying))
                    .await;
                self.enqueue(&file).await?;
                queued += 1;
            }
        }
        Ok(queued)
    }

    async fn open_windows(&self) -> Result<usize, TranscriptionError> {
        let now = Utc::now();
        let mut queued = 0;
        for file in self.store.files_in(&[FileStatus::Scheduled]).await? {
            let Some(job) = self.store.job_of(&file).await? else {
                continue;
            };
            let open = job.window.as_ref().is_none_or(|window| {
                parse_window(&window.start, &window.end, &window.timezone)
                    .is_ok_and(|window| window.contains(now))
            });
            if open
                && self
                    .store
                    .transition(
                        &file.row_id,
                        FileTransition::OpenWindow,
                        Guard::None,
                        FileUpdate::default(),
                    )
                    .await?
            {
                self.enqueue(&file).await?;
                queued += 1;
            }
        }
        Ok(queued)
    }

    /// Takes back files whose worker went silent: each is queued again for another worker,
    /// unless this is its `max_take_backs`-th take-back. A file that kills every worker that
    /// claims it (out of memory, a crash) then fails for good, with a message that says so and
    /// the failure event of any failed file, instead of crash-looping the workers forever.
    async fn take_back_silent_files(&self) -> Result<usize, TranscriptionError> {
        let stale_before =
            Utc::now() - chrono::Duration::from_std(self.config.stale_after).unwrap_or_default();
        let mut queued = 0;
        for file in self.store.silent_files(stale_before).await? {
            let take_backs = file.take_backs.saturating_add(1);
            if take_backs >= self.config.max_take_backs {
                self.give_up_on(&file, take_backs).await?;
                continue;
            }
            // The new token stops the old worker should it come back.
            let update = FileUpdate {
                take_backs: Some(take_backs),
                bump_claim_token: true,
                ..FileUpdate::default()
            };
            if self
                .store
                .transition(
                    &file.row_id,
                    FileTransition::Abandon,
                    Guard::ClaimToken(file.claim_token),
                    update,
                )
                .await?
            {
                tracing::warn!(file = %file.row_id, take_backs, "worker went silent; file queued again");
                // Only the silent claim: the file may be claimed anew before the order arrives.
                self.order_stop(&file, Some(file.claim_token)).await;
                self.enqueue(&file).await?;
                queued += 1;
            }
        }
        Ok(queued)
    }

    /// Fails a file whose worker went silent for the `take_backs`-th time: `failed`, no retry
    /// planned, nothing queued.
    pub(crate) async fn give_up_on(
        &self,
        file: &TranscriptionFile,
        take_backs: u32,
    ) -> Result<(), TranscriptionError> {
        let update = FileUpdate {
            progress: Some(0),
            error_message: Some(Some(gave_up_message(take_backs))),
            next_attempt_at: Some(None),
            take_backs: Some(take_backs),
            last_failed_at: Some(Utc::now()),
            bump_claim_token: true,
            ..FileUpdate::default()
        };
        if !self
            .store
            .transition(
                &file.row_id,
                FileTransition::GiveUp,
                Guard::ClaimToken(file.claim_token),
                update,
            )
            .await?
        {
            return Ok(());
        }
        tracing::error!(file = %file.row_id, take_backs, "worker went silent too often; file failed for good");
        self.order_stop(file, Some(file.claim_token)).await;
        if let Some(failed) = self
            .store
            .file(&file.user_id, &file.job_id, &file.file_id)
            .await?
        {
            self.publish_error(&failed).await;
        }
        self.queue_changed(&[file.user_id.as_str()]).await;
        Ok(())
    }

    /// Queues every file that was waiting for a worker when the service last stopped: with the
    /// in-process bus the queue died with the process, and with RabbitMQ a duplicate message is
    /// harmless (claims are conditional). Returns how many were queued.
    ///
    /// # Errors
    /// Database or bus failure.
    pub async fn resume_waiting_files(&self) -> Result<usize, TranscriptionError> {
        let waiting = self
            .store
            .files_in(&[FileStatus::Pending, FileStatus::Retrying])
            .await?;
        for file in &waiting {
            self.enqueue(file).await?;
        }
        Ok(waiting.len())
    }

    /// Hands recently completed files to the library again. With the in-process bus a crash
    /// between completing a file and the library taking it would otherwise lose the Vault item;
    /// the library's ingest is idempotent, so the ones it has are not duplicated.
    ///
    /// # Errors
    /// Database or bus failure.
    pub async fn resend_recent_ingests(
        &self,
        within: Duration,
    ) -> Result<usize, TranscriptionError> {
        let since = Utc::now() - chrono::Duration::from_std(within).unwrap_or_default();
        let mut sent = 0;
        for file in self.store.completed_since(since).await? {
            let Some(job) = self.store.job_of(&file).await? else {
                continue;
            };
            let path = match job.output_format {
                OutputFormat::Txt => &file.transcript_path,
                OutputFormat::Markdown => &file.markdown_path,
            };
            let Some(key) = path
                .as_deref()
                .and_then(|path| owned_key(&file.user_id, path).ok())
            else {
                continue;
            };
            let content = match self.blobs.get(&key).await {
                Ok(body) => scribevault_blob::collect_body(body)
                    .await
                    .map_err(unavailable)?,
                Err(error) => {
                    tracing::warn!(error = %error, file = %file.row_id, "transcript missing; not re-sent to the library");
                    continue;
                }
            };
            let paths =
                crate::service::handoff::VaultPaths::beside(file.transcript_path.as_deref());
            self.hand_to_library(
                &file,
                String::from_utf8_lossy(&content).into_owned(),
                None,
                paths,
                file.language.clone(),
                self.stored_review(&file).await,
            )
            .await?;
            sent += 1;
        }
        Ok(sent)
    }
}
