//! Download jobs as the service sees them: their states and the rules between them, free of
//! the database and of gRPC.

use chrono::{DateTime, Utc};

/// Most videos one job downloads (the product's "one or 100 at a time").
pub const MAX_JOB_VIDEOS: usize = 100;

/// The spec's message for a job the user cancelled.
pub const CANCELLED_BY_USER: &str = "Cancelled by user";

/// The models the transcription service accepts are checked there; these are the formats.
pub const OUTPUT_FORMATS: [&str; 2] = ["markdown", "txt"];

/// A job's state (spec §4). PENDING → PROCESSING → COMPLETED or FAILED; a cancel ends a
/// pending or processing job as FAILED; a retry makes a new PENDING job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DownloadStatus {
    Pending,
    Processing,
    Completed,
    Failed,
}

impl DownloadStatus {
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
        match value {
            "PENDING" => Some(Self::Pending),
            "PROCESSING" => Some(Self::Processing),
            "COMPLETED" => Some(Self::Completed),
            "FAILED" => Some(Self::Failed),
            _ => None,
        }
    }

    /// How a job ends once every video has been tried.
    #[must_use]
    pub fn after_all_tried(failed_videos: u32) -> Self {
        if failed_videos == 0 {
            Self::Completed
        } else {
            Self::Failed
        }
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
    pub current: Option<CurrentDownload>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

impl DownloadJob {
    /// processed / total × 100, 0 when total is 0 (spec §3).
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
            DownloadStatus::after_all_tried(0),
            DownloadStatus::Completed
        );
        assert_eq!(DownloadStatus::after_all_tried(1), DownloadStatus::Failed);
        for status in [
            DownloadStatus::Pending,
            DownloadStatus::Processing,
            DownloadStatus::Completed,
            DownloadStatus::Failed,
        ] {
            assert_eq!(DownloadStatus::parse(status.as_str()), Some(status));
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
