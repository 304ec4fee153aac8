//! The messages services exchange, defined once: queue names, work messages and every event
//! with its payload. Producers and consumers both use these types, so a renamed field or event
//! fails to compile instead of failing at run time in another process. The field names are the
//! product spec's (docs/product-spec.md §7 "Real-time payloads"), which the SPA and other Socket.IO clients read.

use serde::de::DeserializeOwned;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use crate::review::{ReviewRange, ReviewReason, TranscriptReview};

/// A message on a work queue: it knows its queue and carries the producer's trace context.
pub trait WorkItem: Serialize + DeserializeOwned + Send + 'static {
    /// The queue it travels on.
    const QUEUE: &'static str;
    /// W3C trace context of the operation that produced it.
    fn traceparent(&self) -> Option<&str>;
}

/// "Transcribe this file": the transcription service's database holds everything else.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionWork {
    /// The owner.
    pub user_id: String,
    /// The job the file belongs to.
    pub job_id: String,
    /// The client's id of the file within its job.
    pub file_id: String,
    /// W3C trace context of the producing operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

impl WorkItem for TranscriptionWork {
    const QUEUE: &'static str = "transcription.work";
    fn traceparent(&self) -> Option<&str> {
        self.traceparent.as_deref()
    }
}

/// "Run this download job": discovery's database holds the videos and their outcomes, so a
/// redelivery (or a second message for the same job) finds the job claimed or done and stops.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DownloadWork {
    /// The owner.
    pub user_id: String,
    /// The job.
    pub job_id: String,
    /// W3C trace context of the producing operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

impl WorkItem for DownloadWork {
    const QUEUE: &'static str = "download.work";
    fn traceparent(&self) -> Option<&str> {
        self.traceparent.as_deref()
    }
}

/// A Vault item to cut into chunks and embed for search by meaning, queued by the library
/// after an ingest. Embedding is idempotent (it replaces the item's vectors), so a redelivery
/// only costs time.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct LibraryEmbed {
    pub user_id: String,
    pub item_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

impl WorkItem for LibraryEmbed {
    const QUEUE: &'static str = "library.embed";
    fn traceparent(&self) -> Option<&str> {
        self.traceparent.as_deref()
    }
}

/// A finished piece of content for a user's Vault. Ingest is idempotent on
/// (`user_id`, `source_ref`), so a redelivered message never makes a second item.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct LibraryIngest {
    /// The owner.
    pub user_id: String,
    /// Idempotency key, e.g. `transcription:<file row id>`.
    pub source_ref: String,
    /// Item title.
    pub title: String,
    /// What the content was made from.
    pub source_type: SourceType,
    /// The text.
    pub content: String,
    /// Audio length in seconds, when known.
    #[serde(default)]
    pub duration_seconds: Option<f64>,
    /// The producer's client path of the content (a transcript's `.txt`), which the item keeps
    /// as its file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    /// Client path of the worker's segment JSON (`[{start_ms, end_ms, text}]`), which the
    /// library copies for search matches and subtitles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segments_path: Option<String>,
    /// Storage's client path of the recording the content was made from (an MP3 under
    /// `uploads/`), which the library keeps so the Vault can play it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audio_path: Option<String>,
    /// Where an AUDIO item's transcript came from (absent from older producers: Whisper).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_source: Option<TranscriptSource>,
    /// The segments themselves, when the producer stored no segment file: discovery makes a
    /// transcript from YouTube's captions in memory, and a file in storage would only be read
    /// back once by the library and then be left behind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<TranscriptSegment>,
    /// The Vault item whose transcript this one replaces ('Transcribe with Whisper' on an
    /// item made from captions): its text, segments and source are replaced, and no new item
    /// is made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces_item: Option<String>,
    /// The language the transcript is in (a Whisper code such as `de`: the one Whisper
    /// detected, or the one the file was transcribed as), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// What the transcription worker's quality guard left to check ('Needs review'), when
    /// anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<TranscriptReview>,
    /// W3C trace context of the producing operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

/// Where an AUDIO item's transcript came from: Whisper, or the captions YouTube already had
/// (the uploader's own, or YouTube's speech recognition). Spelled as the item view shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum TranscriptSource {
    /// Transcribed here by whisper.cpp.
    #[serde(rename = "whisper")]
    Whisper,
    /// Captions the channel uploaded.
    #[serde(rename = "captions:uploader")]
    CaptionsUploader,
    /// YouTube's automatic captions in the video's original language.
    #[serde(rename = "captions:auto")]
    CaptionsAuto,
}

impl TranscriptSource {
    /// Every source, for parsing and exhaustive tests.
    pub const ALL: [Self; 3] = [Self::Whisper, Self::CaptionsUploader, Self::CaptionsAuto];

    /// The stored spelling (the same as its JSON).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Whisper => "whisper",
            Self::CaptionsUploader => "captions:uploader",
            Self::CaptionsAuto => "captions:auto",
        }
    }

    /// The source spelled `value`, if it is one.
    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|source| source.as_str() == value)
    }

    /// Whether the transcript came from captions (and Whisper may replace it).
    #[must_use]
    pub fn is_captions(self) -> bool {
        self != Self::Whisper
    }
}

/// What a Vault item was made from, spelled as the spec's `sourceType` (upper case). Queued
/// `library.ingest` messages, REST views and the SPA all carry these spellings, so an item made
/// from an unknown kind is refused where it enters rather than stored under a typo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SourceType {
    /// A transcribed recording: only these have segments (search matches, subtitles).
    Audio,
    /// A converted PDF.
    Pdf,
    PdfSource,
    Website,
    WebsiteContent,
    Image,
    /// Text saved into the Vault from no stored file.
    Text,
}

impl SourceType {
    /// Every kind, for parsing and exhaustive tests.
    pub const ALL: [Self; 7] = [
        Self::Audio,
        Self::Pdf,
        Self::PdfSource,
        Self::Website,
        Self::WebsiteContent,
        Self::Image,
        Self::Text,
    ];

    /// The wire spelling (the same as its JSON), also the library's stored one.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Audio => "AUDIO",
            Self::Pdf => "PDF",
            Self::PdfSource => "PDF_SOURCE",
            Self::Website => "WEBSITE",
            Self::WebsiteContent => "WEBSITE_CONTENT",
            Self::Image => "IMAGE",
            Self::Text => "TEXT",
        }
    }

    /// The kind spelled `value`, if it is one.
    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == value)
    }
}

impl std::fmt::Display for SourceType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One recognised stretch of speech, as the worker writes it to a transcript's
/// `….segments.json` (a JSON array of these) and the library reads it back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptSegment {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    /// Each word's time, from whisper's token timestamps (absent in transcripts made before
    /// they were kept, and in captions that carry none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<TranscriptWord>,
}

/// One word of a segment: where it is spoken and how sure whisper was of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptWord {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    /// Whisper's mean token probability for the word, 0 to 1.
    #[serde(rename = "p")]
    pub probability: f32,
}

impl WorkItem for LibraryIngest {
    const QUEUE: &'static str = "library.ingest";
    fn traceparent(&self) -> Option<&str> {
        self.traceparent.as_deref()
    }
}

/// Every event a user's sockets receive, tagged by the event name the spec gives it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(tag = "type", content = "data", rename_all = "camelCase")]
#[schema(as = RealtimeEvent)]
pub enum Event {
    /// A file's progress changed (or it was claimed or queued again, with `status`).
    TranscriptionProgress(TranscriptionProgress),
    /// A file's transcript is stored.
    TranscriptionComplete(TranscriptionComplete),
    /// A file failed, or was cancelled.
    TranscriptionError(TranscriptionErrorEvent),
    /// A Vault item was created.
    LibraryUpdate(LibraryUpdate),
    /// A download job changed.
    DownloadProgress(DownloadProgress),
    /// A source was created or deleted.
    SourceUpdate(SourceUpdate),
    /// A message for the user.
    Notification(Notification),
    /// A message from the operators.
    SystemMessage(SystemMessage),
    /// The Vault's statistics changed.
    StatsUpdate(LibraryStats),
    /// The user's waiting and running files moved in the queue, or their estimates did.
    QueueUpdate(QueueUpdate),
}

impl Event {
    /// The event name, as the SPA listens for it.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::TranscriptionProgress(_) => "transcriptionProgress",
            Self::TranscriptionComplete(_) => "transcriptionComplete",
            Self::TranscriptionError(_) => "transcriptionError",
            Self::LibraryUpdate(_) => "libraryUpdate",
            Self::DownloadProgress(_) => "downloadProgress",
            Self::SourceUpdate(_) => "sourceUpdate",
            Self::Notification(_) => "notification",
            Self::SystemMessage(_) => "systemMessage",
            Self::StatsUpdate(_) => "statsUpdate",
            Self::QueueUpdate(_) => "queueUpdate",
        }
    }
}

/// An order to the transcription workers, on their own topic.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", content = "data", rename_all = "camelCase")]
pub enum WorkerControl {
    /// Stop transcribing this file now (cancelled, or handed to another worker).
    #[serde(rename_all = "camelCase")]
    StopTranscription {
        job_id: String,
        file_id: String,
        /// Only the run holding this claim stops: a file taken back from a silent worker may
        /// already run again under a newer claim, which the order must not stop. `None` (a
        /// cancel) stops whichever run holds the file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim_token: Option<u32>,
    },
}

impl WorkerControl {
    /// The order's name on the wire.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::StopTranscription { .. } => "stopTranscription",
        }
    }
}

/// `transcriptionProgress`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionProgress {
    pub file_id: String,
    pub job_id: String,
    /// 0–100.
    pub progress: u32,
    /// Set when the file changed state (claimed, queued for a retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<FileStatus>,
}

/// A transcription file's state on the wire (the transcription service's domain maps its own
/// state machine onto it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    Pending,
    Scheduled,
    Transcribing,
    Completed,
    Error,
    Retrying,
    Failed,
}

/// `transcriptionComplete`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionComplete {
    pub file_id: String,
    pub job_id: String,
    pub transcript_path: String,
    pub markdown_path: String,
    /// Milliseconds from claim to stored transcript.
    pub processing_time: u64,
}

/// `transcriptionError`: the spec names the message both `errorMessage` and `error`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptionErrorEvent {
    pub file_id: String,
    pub job_id: String,
    pub error_message: Option<String>,
    pub error: Option<String>,
    pub status: FileStatus,
    pub retry_count: u32,
    pub max_retries: u32,
    /// RFC 3339.
    pub last_failed_at: Option<String>,
}

/// `queueUpdate`, and the answer of `GET /api/transcription/queue`: the user's own waiting
/// and running files, each with its place in the whole instance's queue (other users' files
/// count for the places but are never named) and when it should start and end. Sent when a
/// file starts, ends, fails, is cancelled or added, never on a timer. Every time is an
/// estimate from this machine's recent speed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueUpdate {
    /// In queue order: running files (position 0) first.
    pub files: Vec<QueuedFile>,
    pub basis: QueueBasis,
}

/// One waiting or running file of the user's and where it stands.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueuedFile {
    pub file_id: String,
    pub job_id: String,
    pub title: String,
    pub status: FileStatus,
    /// 0: running now; 1, 2, …: the order workers should take the waiting files in, the
    /// instance's whole queue counted.
    pub position: u32,
    /// Estimated seconds until the transcript is done.
    pub eta_seconds: u64,
    /// RFC 3339, estimated; now for a running file.
    pub estimated_start_at: String,
    /// RFC 3339, estimated.
    pub estimated_end_at: String,
    /// It waits for its overnight window, which opens at `estimatedStartAt`.
    pub waits_for_window: bool,
}

/// What the estimates were made from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueBasis {
    /// Seconds of transcription per second of audio on this machine.
    pub real_time_factor: f64,
    /// Recent completed files it was measured on; 0: nothing was measured yet, and a file is
    /// assumed to take as long as it plays.
    pub measured_files: u32,
    /// Files assumed to be transcribed at once.
    pub workers: u32,
}

/// `libraryUpdate`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct LibraryUpdate {
    #[serde(rename = "type")]
    pub change: ItemChange,
    pub transcript: LibraryItemRef,
}

/// What happened to a Vault item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ItemChange {
    Created,
    Updated,
    Deleted,
}

/// The item a `libraryUpdate` is about.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct LibraryItemRef {
    pub id: String,
    pub title: String,
}

/// `downloadProgress`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DownloadProgress {
    pub job_id: String,
    pub status: DownloadStatus,
    pub processed_videos: u32,
    pub total_videos: u32,
    pub error: Option<String>,
    /// processed / total × 100 (the spec's job field, so a client need not compute it).
    #[serde(default)]
    pub progress: u32,
    /// How many of the processed videos failed.
    #[serde(default)]
    pub failed_videos: u32,
    /// The video being downloaded, with its own percent.
    #[serde(default)]
    pub current_video: Option<CurrentVideo>,
}

/// A download job's state on the wire (the spec's upper-case names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum DownloadStatus {
    Pending,
    Processing,
    Completed,
    Failed,
}

/// The video a download job is working on.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentVideo {
    pub video_id: String,
    pub title: String,
    pub percent: u32,
}

/// `sourceUpdate`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct SourceUpdate {
    #[serde(rename = "type")]
    pub change: SourceChange,
    pub source: SourceRef,
}

/// What happened to a source (`updated`: a scheduled sync ran).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SourceChange {
    Created,
    Updated,
    Deleted,
}

/// The source a `sourceUpdate` is about.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct SourceRef {
    pub id: String,
    pub title: String,
}

/// `notification`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct Notification {
    pub title: String,
    pub message: String,
    #[serde(rename = "type")]
    pub kind: NotificationKind,
    /// Which of the user's notification settings decides whether they get it; none: always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<NotificationCategory>,
}

/// How a notification is shown; users can switch `error`s off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum NotificationKind {
    Info,
    Success,
    Warning,
    Error,
}

/// The kinds of notification a user can switch off (settings `notifications.*`; errors are
/// decided by `type` = `error`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum NotificationCategory {
    DownloadComplete,
    ScheduledSync,
}

/// `statsUpdate`, and the answer of `GET /api/library/stats`: figures for the Vault's cards.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LibraryStats {
    pub total_transcripts: u64,
    /// Seconds of audio.
    pub total_duration: f64,
    /// Bytes of the caller's stored files.
    pub storage_used: u64,
    /// Of the rated items; 0 when none is rated.
    pub avg_rating: f64,
    /// Items created this calendar month.
    pub this_month: u64,
    pub export: ExportStats,
    pub distributions: Distributions,
    /// Search by meaning: whether the server does it and how far the back-fill has come.
    /// Absent from the `statsUpdate` event (it changes as items are embedded, not as they
    /// are made); `GET /api/library/stats` has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meaning: Option<MeaningIndex>,
}

/// How many of a user's items search by meaning can find yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeaningIndex {
    /// Whether this server searches by meaning (an embedding model and a database with a
    /// vector extension).
    pub enabled: bool,
    /// Items with vectors.
    pub embedded_items: u64,
    pub total_items: u64,
}

/// The export part of the stats: what has left the Vault.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportStats {
    pub total_exported: u64,
    /// Items rated 4 or 5, the ones worth exporting.
    pub top_rated_count: u64,
    /// Exported items by gwth level.
    pub by_gwth_level: BTreeMap<String, u64>,
    /// Exported items by source type.
    pub by_source_type: BTreeMap<String, u64>,
}

/// How the items spread over ratings, gwth levels and source types. Ratings and levels list
/// every value 1–5, with zero counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Distributions {
    pub rating: BTreeMap<String, u64>,
    pub gwth_level: BTreeMap<String, u64>,
    pub source_type: BTreeMap<String, u64>,
}

/// `systemMessage`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct SystemMessage {
    pub title: String,
    pub content: String,
    pub level: MessageLevel,
}

/// How serious a message from the operators is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageLevel {
    Info,
    Warning,
    Error,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_carry_the_spec_names_and_fields() {
        let event = Event::TranscriptionComplete(TranscriptionComplete {
            file_id: "f".into(),
            job_id: "j".into(),
            transcript_path: "t.txt".into(),
            markdown_path: "t.md".into(),
            processing_time: 12,
        });
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            json!({ "type": "transcriptionComplete", "data": { "fileId": "f", "jobId": "j",
                "transcriptPath": "t.txt", "markdownPath": "t.md", "processingTime": 12 } })
        );
        let library = Event::LibraryUpdate(LibraryUpdate {
            change: ItemChange::Created,
            transcript: LibraryItemRef {
                id: "1".into(),
                title: "A talk".into(),
            },
        });
        let value = serde_json::to_value(&library).unwrap();
        assert_eq!(value["type"], library.name());
        assert_eq!(value["data"]["type"], "created");
        assert_eq!(value["data"]["transcript"]["title"], "A talk");
        let round_trip: Event = serde_json::from_value(value).unwrap();
        assert_eq!(round_trip, library);
        let progress = Event::TranscriptionProgress(TranscriptionProgress {
            file_id: "f".into(),
            job_id: "j".into(),
            progress: 0,
            status: Some(FileStatus::Transcribing),
        });
        assert_eq!(
            serde_json::to_value(&progress).unwrap()["data"]["status"],
            "transcribing"
        );
    }

    #[test]
    fn a_library_ingest_queued_while_the_source_type_was_a_string_still_parses() {
        let queued = json!({ "userId": "u", "sourceRef": "transcription:f", "title": "A talk",
            "sourceType": "AUDIO", "content": "words", "durationSeconds": 1.5 });
        let ingest: LibraryIngest = serde_json::from_value(queued.clone()).unwrap();
        assert_eq!(ingest.source_type, SourceType::Audio);
        assert_eq!(serde_json::to_value(&ingest).unwrap(), queued);
        let mut unknown = queued;
        unknown["sourceType"] = json!("VIDEO");
        assert!(serde_json::from_value::<LibraryIngest>(unknown).is_err());
    }

    #[test]
    fn every_transcript_source_is_spelled_the_same_in_json_and_as_str() {
        for source in TranscriptSource::ALL {
            assert_eq!(serde_json::to_value(source).unwrap(), source.as_str());
            assert_eq!(TranscriptSource::parse(source.as_str()), Some(source));
        }
        assert_eq!(TranscriptSource::CaptionsAuto.as_str(), "captions:auto");
        assert!(!TranscriptSource::Whisper.is_captions());
        assert!(TranscriptSource::CaptionsUploader.is_captions());
    }

    #[test]
    fn a_captions_ingest_carries_its_source_and_segments_with_word_times() {
        let queued = json!({ "userId": "u", "sourceRef": "captions:abc", "title": "A talk",
            "sourceType": "AUDIO", "content": "hello world", "durationSeconds": 2.0,
            "transcriptSource": "captions:auto",
            "segments": [{ "startMs": 0, "endMs": 900, "text": "hello world",
                "words": [{ "startMs": 0, "endMs": 400, "text": "hello", "p": 1.0 },
                          { "startMs": 400, "endMs": 900, "text": "world", "p": 1.0 }] }] });
        let ingest: LibraryIngest = serde_json::from_value(queued.clone()).unwrap();
        assert_eq!(
            ingest.transcript_source,
            Some(TranscriptSource::CaptionsAuto)
        );
        assert_eq!(ingest.segments[0].words[1].start_ms, 400);
        assert_eq!(serde_json::to_value(&ingest).unwrap(), queued);
    }

    #[test]
    fn every_source_type_is_spelled_the_same_in_json_and_as_str() {
        for kind in SourceType::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(SourceType::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(SourceType::PdfSource.as_str(), "PDF_SOURCE");
        assert_eq!(SourceType::parse("audio"), None);
    }

    #[test]
    fn every_event_name_is_its_tag() {
        let events = [
            Event::DownloadProgress(DownloadProgress {
                job_id: "j".into(),
                status: DownloadStatus::Processing,
                processed_videos: 1,
                total_videos: 2,
                error: None,
                progress: 50,
                failed_videos: 0,
                current_video: None,
            }),
            Event::SourceUpdate(SourceUpdate {
                change: SourceChange::Deleted,
                source: SourceRef {
                    id: "s".into(),
                    title: "Channel".into(),
                },
            }),
            Event::Notification(Notification {
                title: "t".into(),
                message: "m".into(),
                kind: NotificationKind::Error,
                category: Some(NotificationCategory::DownloadComplete),
            }),
            Event::SystemMessage(SystemMessage {
                title: "t".into(),
                content: "c".into(),
                level: MessageLevel::Warning,
            }),
            Event::StatsUpdate(LibraryStats {
                total_transcripts: 3,
                ..LibraryStats::default()
            }),
            Event::QueueUpdate(QueueUpdate {
                files: vec![QueuedFile {
                    file_id: "f".into(),
                    job_id: "j".into(),
                    title: "A talk".into(),
                    status: FileStatus::Pending,
                    position: 2,
                    eta_seconds: 900,
                    estimated_start_at: "2026-03-02T12:05:00+00:00".into(),
                    estimated_end_at: "2026-03-02T12:15:00+00:00".into(),
                    waits_for_window: false,
                }],
                basis: QueueBasis {
                    real_time_factor: 0.5,
                    measured_files: 20,
                    workers: 1,
                },
            }),
        ];
        for event in events {
            assert_eq!(serde_json::to_value(&event).unwrap()["type"], event.name());
        }
    }
}
