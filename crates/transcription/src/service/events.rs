//! What the service announces: the spec's transcription events to the owner's sockets, and
//! stop orders to workers on their own control topic.

use scribevault_bus::contract::{TranscriptionErrorEvent, TranscriptionProgress, WorkerControl};
use scribevault_bus::{Event, EventEnvelope, Topic};

use crate::domain::{FileStatus, TranscriptionFile};
use crate::service::Transcriptions;

impl Transcriptions {
    pub(crate) async fn publish_error(&self, file: &TranscriptionFile) {
        self.publish(
            file,
            Event::TranscriptionError(TranscriptionErrorEvent {
                file_id: file.file_id.clone(),
                job_id: file.job_id.clone(),
                error_message: file.error_message.clone(),
                error: file.error_message.clone(),
                status: file.status.into(),
                retry_count: file.retry_count,
                max_retries: file.max_retries,
                last_failed_at: file.last_failed_at.map(|at| at.to_rfc3339()),
            }),
        )
        .await;
    }

    pub(crate) async fn publish_progress(
        &self,
        file: &TranscriptionFile,
        progress: u32,
        status: Option<FileStatus>,
    ) {
        self.publish(
            file,
            Event::TranscriptionProgress(TranscriptionProgress {
                file_id: file.file_id.clone(),
                job_id: file.job_id.clone(),
                progress,
                status: status.map(Into::into),
            }),
        )
        .await;
    }

    /// Events are notifications a page can recover from by reloading, so a failed publish is
    /// logged, never turned into a failed state change.
    pub(crate) async fn publish(&self, file: &TranscriptionFile, event: Event) {
        let envelope = EventEnvelope::for_event(
            &event,
            &file.user_id,
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, event = event.name(), "event not published");
        }
    }

    /// Tells the worker running `file` to stop now rather than at its next report: the run under
    /// `claim_token` only, or whichever run when `None`. A lost order costs only time: the next
    /// report is refused anyway.
    pub(crate) async fn order_stop(&self, file: &TranscriptionFile, claim_token: Option<i32>) {
        let order = WorkerControl::StopTranscription {
            job_id: file.job_id.clone(),
            file_id: file.file_id.clone(),
            claim_token: claim_token.and_then(|token| u32::try_from(token).ok()),
        };
        let envelope = EventEnvelope::for_control(
            &order,
            &file.user_id,
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self
            .events
            .publish_on(Topic::WorkerControl, &envelope)
            .await
        {
            tracing::warn!(error = %error, "stop order not published");
        }
    }
}
