//! The transcription service's vocabulary, free of database and transport types: jobs, files,
//! the file state machine of docs/product-spec.md §4, and what workers hand back.
//!
//! Every state change of a file is a [`FileTransition`]. The store turns a transition into one
//! conditional update (`WHERE status IN sources`), so two replicas racing on the same file
//! cannot both win, and an illegal change cannot be written by a typo. A scheduled job's
//! overnight window is read in `window.rs`.

pub mod mp3_length;
pub mod queue;
pub mod speed;
pub mod window;

use chrono::{DateTime, Utc};
use scribevault_bus::contract::TranscriptReview;
pub use scribevault_core::language::LanguageChoice;

/// Most files one job may hold (the SPA sends at most 100 per selection).
pub const MAX_FILES_PER_JOB: usize = 100;

/// The title a file gets when the client sends none.
pub const UNTITLED: &str = "Untitled";

/// A file's state (docs/product-spec.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileStatus {
    /// Waiting for a worker.
    Pending,
    /// Waiting for its job's overnight window.
    Scheduled,
    /// A worker holds it.
    Transcribing,
    /// The transcript is stored.
    Completed,
    /// The last attempt failed (or the user cancelled); an automatic retry may be planned.
    Error,
    /// Queued again after an error.
    Retrying,
    /// Retries are exhausted or cannot help.
    Failed,
}

impl FileStatus {
    /// Every state, for exhaustive tests and parsing.
    pub const ALL: [Self; 7] = [
        Self::Pending,
        Self::Scheduled,
        Self::Transcribing,
        Self::Completed,
        Self::Error,
        Self::Retrying,
        Self::Failed,
    ];

    /// The wire and database spelling, as the SPA expects it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Scheduled => "scheduled",
            Self::Transcribing => "transcribing",
            Self::Completed => "completed",
            Self::Error => "error",
            Self::Retrying => "retrying",
            Self::Failed => "failed",
        }
    }

    /// The states of a file not yet finished: waiting for a worker or its window, or held by
    /// one (every state [`is_finished`](Self::is_finished) is not).
    pub const WAITING: [Self; 4] = [
        Self::Pending,
        Self::Scheduled,
        Self::Transcribing,
        Self::Retrying,
    ];

    /// Whether no worker will touch the file again without a user's action.
    #[must_use]
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Completed | Self::Error | Self::Failed)
    }

    /// The state `transition` leads to from here.
    ///
    /// # Errors
    /// The transition does not start from this state.
    pub fn apply(self, transition: FileTransition) -> Result<Self, IllegalTransition> {
        if transition.sources().contains(&self) {
            Ok(transition.target())
        } else {
            Err(IllegalTransition {
                from: self,
                transition,
            })
        }
    }
}

impl From<FileStatus> for scribevault_bus::contract::FileStatus {
    fn from(status: FileStatus) -> Self {
        match status {
            FileStatus::Pending => Self::Pending,
            FileStatus::Scheduled => Self::Scheduled,
            FileStatus::Transcribing => Self::Transcribing,
            FileStatus::Completed => Self::Completed,
            FileStatus::Error => Self::Error,
            FileStatus::Retrying => Self::Retrying,
            FileStatus::Failed => Self::Failed,
        }
    }
}

impl std::fmt::Display for FileStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for FileStatus {
    type Err = UnknownStatus;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == value)
            .ok_or_else(|| UnknownStatus(value.to_owned()))
    }
}

/// A stored status this build does not know.
#[derive(Debug, thiserror::Error)]
#[error("unknown file status {0:?}")]
pub struct UnknownStatus(pub String);

/// A transition asked of a state it does not start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a {from} file cannot take the {transition:?} transition")]
pub struct IllegalTransition {
    pub from: FileStatus,
    pub transition: FileTransition,
}

/// Every way a file's state changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileTransition {
    /// A worker takes a waiting file.
    Claim,
    /// A worker takes a file whose previous worker went silent (its heartbeat is stale).
    TakeOver,
    /// A worker reports progress; the state stays.
    Progress,
    /// The scheduled window closed before a worker started the file: it waits for the next one.
    Defer,
    /// The scheduled window opened.
    OpenWindow,
    /// The worker stored the transcript.
    Complete,
    /// The attempt failed; `exhausted` when no automatic retry will follow.
    Fail { exhausted: bool },
    /// The user asks for another attempt.
    Retry,
    /// A planned automatic retry is due.
    RetryDue,
    /// The user cancels the file.
    Cancel,
    /// The worker went silent; the file waits for another.
    Abandon,
    /// The worker went silent once too often (the file keeps killing its workers: out of
    /// memory, a crash): the file fails for good instead of waiting for another.
    GiveUp,
}

impl FileTransition {
    /// The states the transition starts from.
    #[must_use]
    pub fn sources(self) -> &'static [FileStatus] {
        use FileStatus::{Error, Failed, Pending, Retrying, Scheduled, Transcribing};
        match self {
            Self::Claim | Self::Defer => &[Pending, Retrying],
            Self::TakeOver
            | Self::Progress
            | Self::Complete
            | Self::Fail { .. }
            | Self::Abandon
            | Self::GiveUp => &[Transcribing],
            Self::OpenWindow => &[Scheduled],
            Self::Retry => &[Error, Failed],
            Self::RetryDue => &[Error],
            Self::Cancel => &[Pending, Scheduled, Transcribing, Retrying, Error],
        }
    }

    /// The state the transition leads to.
    #[must_use]
    pub fn target(self) -> FileStatus {
        match self {
            Self::Claim | Self::TakeOver | Self::Progress => FileStatus::Transcribing,
            Self::Defer => FileStatus::Scheduled,
            Self::OpenWindow | Self::Abandon => FileStatus::Pending,
            Self::Complete => FileStatus::Completed,
            Self::Fail { exhausted: true } | Self::GiveUp => FileStatus::Failed,
            Self::Fail { exhausted: false } | Self::Cancel => FileStatus::Error,
            Self::Retry | Self::RetryDue => FileStatus::Retrying,
        }
    }
}

/// The message a cancelled file carries (docs/product-spec.md §8).
pub const CANCELLED_BY_USER: &str = "Cancelled by user";

/// The message of a file given up after its workers stopped `take_backs` times while holding it.
#[must_use]
pub fn gave_up_message(take_backs: u32) -> String {
    format!(
        "The worker stopped {take_backs} times while transcribing this file (out of memory or a crash); it was not retried again."
    )
}

/// What a job's transcripts are stored as for the Vault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Markdown,
    Txt,
}

impl OutputFormat {
    /// The wire spelling.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Txt => "txt",
        }
    }

    /// An absent format means markdown.
    ///
    /// # Errors
    /// Anything but "", `markdown` or `txt`, with the message the client sees.
    pub fn parse(value: &str) -> Result<Self, String> {
        match value {
            "" | "markdown" => Ok(Self::Markdown),
            "txt" => Ok(Self::Txt),
            other => Err(format!(
                "outputFormat must be markdown or txt, not {other:?}"
            )),
        }
    }
}

/// A job's overnight window as stored: `HH:MM` bounds in an IANA zone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowSpec {
    pub start: String,
    pub end: String,
    pub timezone: String,
}

/// A batch of files started or scheduled together.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptionJob {
    pub id: String,
    pub user_id: String,
    pub model: String,
    pub output_format: OutputFormat,
    /// `Some` for scheduled jobs.
    pub window: Option<WindowSpec>,
    /// The spoken language its files are decoded as; `None` for a job made before jobs
    /// recorded one (the worker's own setting then).
    pub language: Option<LanguageChoice>,
    pub created_at: DateTime<Utc>,
}

/// One file of a job.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptionFile {
    /// Row id: the client's file id is only unique within its job.
    pub row_id: String,
    pub job_id: String,
    /// The id the client chose.
    pub file_id: String,
    pub user_id: String,
    pub youtube_video_id: String,
    pub title: String,
    pub mp3_path: String,
    pub status: FileStatus,
    pub progress: u32,
    pub error_message: Option<String>,
    pub retry_count: u32,
    pub max_retries: u32,
    pub last_failed_at: Option<DateTime<Utc>>,
    pub transcript_path: Option<String>,
    pub markdown_path: Option<String>,
    pub processing_time_ms: Option<u64>,
    /// How long its audio plays: read from the MP3's first frame at intake, replaced by the
    /// length the worker decoded when it completes (the queue forecast's input).
    pub audio_seconds: Option<f64>,
    /// A file in error: when its automatic retry is due (none after a cancel or the last try).
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// Bumped by every claim, take-over and cancel; a worker's reports must carry the current one.
    pub claim_token: i32,
    /// Times the file was taken back from a worker that went silent (reset by a user's retry).
    pub take_backs: u32,
    /// Transcribed for its caller only (an OpenAI-style request whose token does not keep
    /// transcriptions): the transcript is not handed to the library.
    pub skip_vault: bool,
    /// The Vault item whose transcript this one replaces ('Transcribe with Whisper' on an
    /// item made from captions); `None` makes a new item.
    pub replaces_item: Option<String>,
    /// A completed file's transcript language (a Whisper code), when known.
    pub language: Option<String>,
    /// When it was submitted.
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl TranscriptionJob {
    /// Whether every file of the job is finished.
    #[must_use]
    pub fn is_finished(files: &[TranscriptionFile]) -> bool {
        files.iter().all(|file| file.status.is_finished())
    }
}

/// A file as the client submits it.
#[derive(Debug, Clone, Default)]
pub struct FileToTranscribe {
    pub id: String,
    pub mp3_path: String,
    pub title: String,
    pub youtube_video_id: String,
    /// The Vault item whose transcript this one replaces (instead of making a new item).
    pub replaces_item: Option<String>,
}

/// When a scheduled job may run, as the client asks for it (empty fields take the defaults
/// 01:00, 06:00, UTC).
#[derive(Debug, Clone, Default)]
pub struct ScheduleWindow {
    pub start: String,
    pub end: String,
    pub timezone: String,
}

/// A claimed file, with what the worker needs.
#[derive(Debug, Clone)]
pub struct ClaimedFile {
    pub file: TranscriptionFile,
    pub model: String,
    pub output_format: OutputFormat,
    pub claim_token: i32,
    /// What the worker decodes the file as (its job's language).
    pub language: Option<LanguageChoice>,
}

/// Why a claim was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimRefusal {
    /// Completed, failed or cancelled: nothing to do.
    Finished,
    /// A live worker holds it.
    Busy,
    /// Its scheduled window is closed.
    OutsideWindow,
}

impl ClaimRefusal {
    /// The reason as the worker logs it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Finished => "finished",
            Self::Busy => "busy",
            Self::OutsideWindow => "outside_window",
        }
    }
}

pub use scribevault_core::fairness::{QueueShare, whose_turn};

/// The folder of a user's objects that transcription owns: the transcripts its workers store
/// (`transcripts/<job>/<file>.{txt,md,segments.json}`).
pub const TRANSCRIPTS_ROOT: &str = "transcripts/";

/// What deleting a user's data removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeletedUserData {
    /// Database rows: the user's jobs and files.
    pub rows: u64,
    /// Stored objects.
    pub blobs: u64,
}

/// What a worker produced for a file.
#[derive(Debug, Clone, Default)]
pub struct CompletedTranscript {
    pub transcript_path: String,
    pub markdown_path: String,
    pub segments_path: String,
    pub processing_time_ms: u64,
    pub duration_seconds: f64,
    pub vault_content: String,
    /// The language the transcript is in (detected or asked for), when known.
    pub language: Option<String>,
    /// What the worker's quality guard left to check, when anything.
    pub review: Option<TranscriptReview>,
}

#[cfg(test)]
mod tests {
    use super::FileStatus::{Completed, Error, Failed, Pending, Retrying, Scheduled, Transcribing};
    use scribevault_test_support::transitions::check_transition;

    use super::*;

    /// Spec §4, one row per transition: where it may start, where it ends.
    const TABLE: [(FileTransition, &[FileStatus], FileStatus); 13] = [
        (FileTransition::Claim, &[Pending, Retrying], Transcribing),
        (FileTransition::TakeOver, &[Transcribing], Transcribing),
        (FileTransition::Progress, &[Transcribing], Transcribing),
        (FileTransition::Defer, &[Pending, Retrying], Scheduled),
        (FileTransition::OpenWindow, &[Scheduled], Pending),
        (FileTransition::Complete, &[Transcribing], Completed),
        (
            FileTransition::Fail { exhausted: false },
            &[Transcribing],
            Error,
        ),
        (
            FileTransition::Fail { exhausted: true },
            &[Transcribing],
            Failed,
        ),
        (FileTransition::Retry, &[Error, Failed], Retrying),
        (FileTransition::RetryDue, &[Error], Retrying),
        (
            FileTransition::Cancel,
            &[Pending, Scheduled, Transcribing, Retrying, Error],
            Error,
        ),
        (FileTransition::Abandon, &[Transcribing], Pending),
        (FileTransition::GiveUp, &[Transcribing], Failed),
    ];

    fn check(transition: FileTransition) {
        check_transition(
            &TABLE,
            &FileStatus::ALL,
            transition,
            FileStatus::apply,
            |from, transition| IllegalTransition { from, transition },
        );
    }

    #[test]
    fn pending_or_retrying_files_are_claimed_into_transcribing() {
        check(FileTransition::Claim);
    }

    #[test]
    fn a_silent_workers_file_is_taken_over_while_transcribing() {
        check(FileTransition::TakeOver);
    }

    #[test]
    fn progress_keeps_a_file_transcribing() {
        check(FileTransition::Progress);
    }

    #[test]
    fn a_closed_window_sends_waiting_files_back_to_scheduled() {
        check(FileTransition::Defer);
    }

    #[test]
    fn an_open_window_makes_scheduled_files_pending() {
        check(FileTransition::OpenWindow);
    }

    #[test]
    fn only_a_transcribing_file_completes() {
        check(FileTransition::Complete);
    }

    #[test]
    fn a_failed_attempt_with_retries_left_is_an_error() {
        check(FileTransition::Fail { exhausted: false });
    }

    #[test]
    fn a_failed_attempt_without_retries_left_is_failed() {
        check(FileTransition::Fail { exhausted: true });
    }

    #[test]
    fn error_or_failed_files_are_retried_by_the_user() {
        check(FileTransition::Retry);
    }

    #[test]
    fn a_due_automatic_retry_starts_from_error_only() {
        check(FileTransition::RetryDue);
    }

    #[test]
    fn every_unfinished_file_and_an_errored_one_can_be_cancelled() {
        check(FileTransition::Cancel);
    }

    #[test]
    fn a_silent_workers_file_goes_back_to_pending() {
        check(FileTransition::Abandon);
    }

    #[test]
    fn a_file_whose_workers_keep_going_silent_fails_for_good() {
        check(FileTransition::GiveUp);
    }

    #[test]
    fn the_given_up_message_says_how_often_the_worker_stopped() {
        assert_eq!(
            gave_up_message(3),
            "The worker stopped 3 times while transcribing this file (out of memory or a crash); it was not retried again."
        );
    }

    #[test]
    fn every_status_round_trips_through_its_spelling() {
        for status in FileStatus::ALL {
            assert_eq!(status.as_str().parse::<FileStatus>().ok(), Some(status));
        }
        assert!("done".parse::<FileStatus>().is_err());
    }

    #[test]
    fn completed_error_and_failed_files_are_finished() {
        let finished: Vec<FileStatus> = FileStatus::ALL
            .into_iter()
            .filter(|status| status.is_finished())
            .collect();
        assert_eq!(finished, [Completed, Error, Failed]);
    }

    #[test]
    fn the_waiting_states_are_every_state_not_finished() {
        let unfinished: Vec<FileStatus> = FileStatus::ALL
            .into_iter()
            .filter(|status| !status.is_finished())
            .collect();
        assert_eq!(unfinished, FileStatus::WAITING);
    }

    #[test]
    fn output_format_defaults_to_markdown_and_refuses_others() {
        assert_eq!(OutputFormat::parse(""), Ok(OutputFormat::Markdown));
        assert_eq!(OutputFormat::parse("txt"), Ok(OutputFormat::Txt));
        assert_eq!(
            OutputFormat::parse("pdf"),
            Err("outputFormat must be markdown or txt, not \"pdf\"".to_owned())
        );
    }
}
