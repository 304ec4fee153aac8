//! Download jobs as the service sees them: their states and the rules between them, free of
//! the database and of gRPC.

use chrono::{DateTime, Utc};

/// Most videos one job downloads (the product's "one or 100 at a time").
pub const MAX_JOB_VIDEOS: usize = 100;

/// The spec's message for a job the user cancelled.
pub const CANCELLED_BY_USER: &str = "Cancelled by user";

/// The models the transcription service accepts are checked there; these are the formats.
pub const OUTPUT_FORMATS: [&str; 2] = ["markdown", "txt"];

/// A job's state (docs/product-spec.md §4). PENDING → PROCESSING → COMPLETED or FAILED; a cancel ends a
/// pending or processing job as FAILED; a retry makes a new PENDING job. Every change of state
/// is a [`DownloadTransition`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownloadStatus {
    Pending,
    Processing,
    Completed,
    Failed,
}

impl From<DownloadStatus> for scribevault_bus::contract::DownloadStatus {
    fn from(status: DownloadStatus) -> Self {
        match status {
            DownloadStatus::Pending => Self::Pending,
            DownloadStatus::Processing => Self::Processing,
            DownloadStatus::Completed => Self::Completed,
            DownloadStatus::Failed => Self::Failed,
        }
    }
}

impl DownloadStatus {
    /// Every state.
    pub const ALL: [Self; 4] = [
        Self::Pending,
        Self::Processing,
        Self::Completed,
        Self::Failed,
    ];

    /// The spec's name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "PENDING",
            Self::Processing => "PROCESSING",
            Self::Completed => "COMPLETED",
            Self::Failed => "FAILED",
        }
    }

    /// Reads a stored name.
    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == value)
    }

    /// The state after `transition`, if the job may take it from this one.
    ///
    /// # Errors
    /// The transition does not start from this state.
    pub fn apply(self, transition: DownloadTransition) -> Result<Self, IllegalTransition> {
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

impl std::fmt::Display for DownloadStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A transition asked of a state it does not start from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a {from} download job cannot take the {transition:?} transition")]
pub struct IllegalTransition {
    pub from: DownloadStatus,
    pub transition: DownloadTransition,
}

/// Every way a job's state changes. The store turns a transition into one conditional update
/// (`WHERE status IN sources`), so two runners racing on the same job cannot both win, and an
/// illegal change cannot be written by a typo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownloadTransition {
    /// A runner takes a pending job.
    Claim,
    /// A runner takes a running job whose runner went quiet (its process died).
    TakeOver,
    /// The runner reports a sign of life or a video tried; the state stays.
    Progress,
    /// Every video was tried and arrived.
    Complete,
    /// Every video was tried and at least one failed.
    Fail,
    /// The service stops: the job waits for the next runner.
    Release,
    /// The user cancels a job that has not ended.
    Cancel,
    /// A retry replaces a failed job with a new one; the old one stays failed, and hidden.
    Supersede,
}

impl DownloadTransition {
    /// How a job ends once every video has been tried.
    #[must_use]
    pub fn after_all_tried(failed_videos: u32) -> Self {
        if failed_videos == 0 {
            Self::Complete
        } else {
            Self::Fail
        }
    }

    /// The states the transition starts from.
    #[must_use]
    pub fn sources(self) -> &'static [DownloadStatus] {
        use DownloadStatus::{Failed, Pending, Processing};
        match self {
            Self::Claim => &[Pending],
            Self::TakeOver | Self::Progress | Self::Complete | Self::Fail | Self::Release => {
                &[Processing]
            }
            Self::Cancel => &[Pending, Processing],
            Self::Supersede => &[Failed],
        }
    }

    /// The state the transition leads to.
    #[must_use]
    pub fn target(self) -> DownloadStatus {
        match self {
            Self::Claim | Self::TakeOver | Self::Progress => DownloadStatus::Processing,
            Self::Complete => DownloadStatus::Completed,
            Self::Fail | Self::Cancel | Self::Supersede => DownloadStatus::Failed,
            Self::Release => DownloadStatus::Pending,
        }
    }

    /// Whether the transition takes a job out of a runner's hands: its claim token and the
    /// video it was on are cleared with it.
    #[must_use]
    pub fn ends_run(self) -> bool {
        self.sources().contains(&DownloadStatus::Processing)
            && self.target() != DownloadStatus::Processing
    }
}

/// What became of one video of a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VideoOutcome {
    /// Not tried yet (or interrupted: it starts again).
    Pending,
    /// Its MP3 is in storage.
    Arrived,
    /// yt-dlp (or storage) refused it; the reason is kept.
    Failed,
}

impl VideoOutcome {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "PENDING",
            Self::Arrived => "ARRIVED",
            Self::Failed => "FAILED",
        }
    }

    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "PENDING" => Some(Self::Pending),
            "ARRIVED" => Some(Self::Arrived),
            "FAILED" => Some(Self::Failed),
            _ => None,
        }
    }
}

/// A user's download preferences, handed over by the gateway from their settings (ADR 0015).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SyncPreferences {
    /// A scheduled sync that finds new videos downloads them.
    pub auto_download: bool,
    /// The default of 'Use YouTube captions when available' for new jobs and schedules.
    pub use_captions: bool,
}

/// What to do with each MP3 once it has arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscribeAfter {
    pub model: String,
    pub output_format: String,
}

/// The video a running job is downloading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CurrentDownload {
    pub video_id: String,
    pub title: String,
    pub percent: u32,
}

/// A download job.
#[derive(Debug, Clone)]
pub struct DownloadJob {
    pub id: String,
    pub user_id: String,
    pub source_id: String,
    pub source_title: String,
    pub status: DownloadStatus,
    pub total_videos: u32,
    /// Videos tried to the end, arrived or failed.
    pub processed_videos: u32,
    pub failed_videos: u32,
    pub error_message: Option<String>,
    pub transcribe: Option<TranscribeAfter>,
    /// A video with captions in its original language becomes a Vault item from them (and is
    /// not transcribed); one without goes on as `transcribe` says.
    pub use_captions: bool,
    pub current: Option<CurrentDownload>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

impl DownloadJob {
    /// processed / total × 100, 0 when total is 0 (docs/product-spec.md §3).
    #[must_use]
    pub fn progress(&self) -> u32 {
        (self.processed_videos.min(self.total_videos) * 100)
            .checked_div(self.total_videos)
            .unwrap_or(0)
    }
}

/// One video of a job, in the job's order.
#[derive(Debug, Clone)]
pub struct JobVideo {
    pub position: u32,
    pub video_id: String,
    pub title: String,
    pub outcome: VideoOutcome,
    pub reason: Option<String>,
}

/// The job's `errorMessage`: one line per failed video, naming it and giving the reason.
#[must_use]
pub fn failure_lines(videos: &[JobVideo]) -> Option<String> {
    let lines: Vec<String> = videos
        .iter()
        .filter(|video| video.outcome == VideoOutcome::Failed)
        .map(|video| {
            let reason = video.reason.as_deref().unwrap_or("failed");
            if video.title.is_empty() {
                format!("{}: {reason}", video.video_id)
            } else {
                format!("{} ({}): {reason}", video.title, video.video_id)
            }
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::DownloadStatus::{Completed, Failed, Pending, Processing};
    use scribevault_test_support::transitions::check_transition;

    use super::*;

    fn job(total: u32, processed: u32) -> DownloadJob {
        DownloadJob {
            id: "j".into(),
            user_id: "u".into(),
            source_id: "s".into(),
            source_title: "S".into(),
            status: DownloadStatus::Processing,
            total_videos: total,
            processed_videos: processed,
            failed_videos: 0,
            error_message: None,
            transcribe: None,
            use_captions: false,
            current: None,
            started_at: None,
            completed_at: None,
            created_at: Utc::now(),
        }
    }

    #[test]
    fn progress_is_processed_over_total_and_zero_without_videos() {
        assert_eq!(job(0, 0).progress(), 0);
        assert_eq!(job(3, 1).progress(), 33);
        assert_eq!(job(3, 3).progress(), 100);
        assert_eq!(job(4, 2).progress(), 50);
    }

    #[test]
    fn a_job_with_a_failed_video_ends_failed() {
        assert_eq!(
            DownloadTransition::after_all_tried(0),
            DownloadTransition::Complete
        );
        assert_eq!(
            DownloadTransition::after_all_tried(1),
            DownloadTransition::Fail
        );
        for status in DownloadStatus::ALL {
            assert_eq!(DownloadStatus::parse(status.as_str()), Some(status));
        }
    }

    /// Spec §4, one row per transition: where it may start, where it ends.
    const TABLE: [(DownloadTransition, &[DownloadStatus], DownloadStatus); 8] = [
        (DownloadTransition::Claim, &[Pending], Processing),
        (DownloadTransition::TakeOver, &[Processing], Processing),
        (DownloadTransition::Progress, &[Processing], Processing),
        (DownloadTransition::Complete, &[Processing], Completed),
        (DownloadTransition::Fail, &[Processing], Failed),
        (DownloadTransition::Release, &[Processing], Pending),
        (DownloadTransition::Cancel, &[Pending, Processing], Failed),
        (DownloadTransition::Supersede, &[Failed], Failed),
    ];

    fn check(transition: DownloadTransition) {
        check_transition(
            &TABLE,
            &DownloadStatus::ALL,
            transition,
            DownloadStatus::apply,
            |from, transition| IllegalTransition { from, transition },
        );
    }

    #[test]
    fn a_pending_job_is_claimed_into_processing() {
        check(DownloadTransition::Claim);
    }

    #[test]
    fn a_quiet_runners_job_is_taken_over_while_processing() {
        check(DownloadTransition::TakeOver);
    }

    #[test]
    fn progress_keeps_a_job_processing() {
        check(DownloadTransition::Progress);
    }

    #[test]
    fn only_a_processing_job_completes() {
        check(DownloadTransition::Complete);
    }

    #[test]
    fn only_a_processing_job_fails() {
        check(DownloadTransition::Fail);
    }

    #[test]
    fn a_released_job_waits_again() {
        check(DownloadTransition::Release);
    }

    #[test]
    fn pending_and_processing_jobs_can_be_cancelled() {
        check(DownloadTransition::Cancel);
    }

    #[test]
    fn only_a_failed_job_is_replaced_by_a_retry() {
        check(DownloadTransition::Supersede);
    }

    #[test]
    fn a_runner_lets_go_exactly_when_its_job_leaves_processing() {
        use DownloadTransition::{
            Cancel, Claim, Complete, Fail, Progress, Release, Supersede, TakeOver,
        };
        for transition in [Complete, Fail, Release, Cancel] {
            assert!(transition.ends_run(), "{transition:?}");
        }
        for transition in [Claim, TakeOver, Progress, Supersede] {
            assert!(!transition.ends_run(), "{transition:?}");
        }
    }

    #[test]
    fn the_error_message_has_one_line_per_failed_video() {
        let video = |id: &str, title: &str, outcome, reason: Option<&str>| JobVideo {
            position: 0,
            video_id: id.into(),
            title: title.into(),
            outcome,
            reason: reason.map(Into::into),
        };
        let videos = [
            video("aaaaaaaaaaa", "One", VideoOutcome::Arrived, None),
            video(
                "bbbbbbbbbbb",
                "Two",
                VideoOutcome::Failed,
                Some("HTTP Error 404: File not found"),
            ),
            video("ccccccccccc", "", VideoOutcome::Failed, Some("not audio")),
        ];
        assert_eq!(
            failure_lines(&videos).as_deref(),
            Some("Two (bbbbbbbbbbb): HTTP Error 404: File not found\nccccccccccc: not audio")
        );
        assert_eq!(failure_lines(&videos[..1]), None);
    }
}
