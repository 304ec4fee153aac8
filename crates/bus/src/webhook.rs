//! What a webhook receiver is sent: the event names and the body of every delivery. It is a
//! contract with receivers outside the instance, defined beside the events it is made from so
//! that the gateway (which documents it and takes event names in its API) and the webhooks
//! service (which sends it) share one definition.

use crate::Event;
use crate::contract::{
    DownloadProgress, DownloadStatus, FileStatus, ItemChange, LibraryUpdate, SourceChange,
    SourceUpdate, TranscriptionComplete, TranscriptionErrorEvent,
};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a webhook can be called for. The names are the receiver's: `noun.past_tense`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
pub enum WebhookEvent {
    /// `libraryUpdate` with `type: created`: a new Vault item.
    #[serde(rename = "item.created")]
    ItemCreated,
    /// `transcriptionComplete`: a file's transcript is stored.
    #[serde(rename = "transcription.completed")]
    TranscriptionCompleted,
    /// `transcriptionError` with `status: failed`: the file was given up on for good (a failed
    /// attempt that will be retried, or a cancel, is not this).
    #[serde(rename = "transcription.failed")]
    TranscriptionFailed,
    /// `downloadProgress` with `status: COMPLETED`: a download job ended.
    #[serde(rename = "download.completed")]
    DownloadCompleted,
    /// `sourceUpdate` with `type: updated`: a sync of the source found new videos.
    #[serde(rename = "sync.new_videos")]
    SyncNewVideos,
    /// 'Send test' in Settings; never subscribed to.
    #[serde(rename = "webhook.test")]
    Test,
}

impl WebhookEvent {
    /// The events a webhook can subscribe to.
    pub const SUBSCRIBABLE: [Self; 5] = [
        Self::ItemCreated,
        Self::TranscriptionCompleted,
        Self::TranscriptionFailed,
        Self::DownloadCompleted,
        Self::SyncNewVideos,
    ];

    /// The name, as in the body's `type` and the stored list.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ItemCreated => "item.created",
            Self::TranscriptionCompleted => "transcription.completed",
            Self::TranscriptionFailed => "transcription.failed",
            Self::DownloadCompleted => "download.completed",
            Self::SyncNewVideos => "sync.new_videos",
            Self::Test => "webhook.test",
        }
    }

    /// The event named `name`.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        Self::SUBSCRIBABLE
            .into_iter()
            .chain([Self::Test])
            .find(|event| event.as_str() == name)
    }
}

/// The body every delivery carries.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WebhookPayload {
    #[serde(rename = "type")]
    pub event: WebhookEvent,
    /// When it happened (RFC 3339).
    pub timestamp: DateTime<Utc>,
    pub data: WebhookData,
}

/// The event's own payload, the same type the SPA's socket receives.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum WebhookData {
    ItemCreated(LibraryUpdate),
    TranscriptionCompleted(TranscriptionComplete),
    TranscriptionFailed(TranscriptionErrorEvent),
    DownloadCompleted(DownloadProgress),
    SyncNewVideos(SourceUpdate),
    Test(WebhookTest),
}

/// `webhook.test`'s data.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookTest {
    pub webhook_id: String,
    pub message: String,
}

impl WebhookData {
    /// The webhook event a bus event is, if it is one.
    #[must_use]
    pub fn of(event: Event) -> Option<(WebhookEvent, Self)> {
        match event {
            Event::LibraryUpdate(update) if update.change == ItemChange::Created => {
                Some((WebhookEvent::ItemCreated, Self::ItemCreated(update)))
            }
            Event::TranscriptionComplete(complete) => Some((
                WebhookEvent::TranscriptionCompleted,
                Self::TranscriptionCompleted(complete),
            )),
            Event::TranscriptionError(error) if error.status == FileStatus::Failed => Some((
                WebhookEvent::TranscriptionFailed,
                Self::TranscriptionFailed(error),
            )),
            Event::DownloadProgress(progress) if progress.status == DownloadStatus::Completed => {
                Some((
                    WebhookEvent::DownloadCompleted,
                    Self::DownloadCompleted(progress),
                ))
            }
            Event::SourceUpdate(update) if update.change == SourceChange::Updated => {
                Some((WebhookEvent::SyncNewVideos, Self::SyncNewVideos(update)))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{LibraryItemRef, SourceRef};

    #[test]
    fn every_event_name_is_its_json() {
        for event in WebhookEvent::SUBSCRIBABLE
            .into_iter()
            .chain([WebhookEvent::Test])
        {
            assert_eq!(serde_json::to_value(event).unwrap(), event.as_str());
            assert_eq!(WebhookEvent::parse(event.as_str()), Some(event));
        }
    }

    #[test]
    fn only_the_final_states_of_bus_events_are_webhook_events() {
        let item = |change| {
            Event::LibraryUpdate(LibraryUpdate {
                change,
                transcript: LibraryItemRef {
                    id: "i".into(),
                    title: "t".into(),
                },
            })
        };
        assert!(matches!(
            WebhookData::of(item(ItemChange::Created)),
            Some((WebhookEvent::ItemCreated, _))
        ));
        assert!(WebhookData::of(item(ItemChange::Updated)).is_none());
        let sync = |change| {
            Event::SourceUpdate(SourceUpdate {
                change,
                source: SourceRef {
                    id: "s".into(),
                    title: "t".into(),
                },
            })
        };
        assert!(matches!(
            WebhookData::of(sync(SourceChange::Updated)),
            Some((WebhookEvent::SyncNewVideos, _))
        ));
        assert!(WebhookData::of(sync(SourceChange::Created)).is_none());
        let failure = |status| {
            Event::TranscriptionError(TranscriptionErrorEvent {
                file_id: "f".into(),
                job_id: "j".into(),
                error_message: None,
                error: None,
                status,
                retry_count: 0,
                max_retries: 3,
                last_failed_at: None,
            })
        };
        assert!(WebhookData::of(failure(FileStatus::Failed)).is_some());
        assert!(WebhookData::of(failure(FileStatus::Error)).is_none());
    }
}
