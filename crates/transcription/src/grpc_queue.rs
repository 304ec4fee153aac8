//! The queue forecast on the wire: each answer that shows a file's state carries its place in
//! the queue and its estimated start and end, when it has one.

use scribevault_proto::transcription::v1 as pb;

use super::{TranscriptionGrpc, file_to_proto, job_to_proto};
use crate::domain::queue::{FileForecast, ForecastBasis};
use crate::domain::{TranscriptionFile, TranscriptionJob};
use crate::service::queue::{OwnQueue, queue_basis};

fn estimate_to_proto(forecast: &FileForecast) -> pb::QueueEstimate {
    let rfc3339 =
        |at: chrono::DateTime<chrono::Utc>| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    pb::QueueEstimate {
        position: forecast.position,
        eta_seconds: forecast.eta_seconds,
        estimated_start_at: rfc3339(forecast.starts_at),
        estimated_end_at: rfc3339(forecast.ends_at),
        waits_for_window: forecast.waits_for_window,
    }
}

fn basis_to_proto(basis: ForecastBasis) -> pb::QueueBasis {
    let basis = queue_basis(basis);
    pb::QueueBasis {
        real_time_factor: basis.real_time_factor,
        measured_files: basis.measured_files,
        workers: basis.workers,
    }
}

fn with_estimate(
    file: TranscriptionFile,
    forecast: Option<&FileForecast>,
) -> pb::TranscriptionFile {
    pb::TranscriptionFile {
        queue: forecast.map(estimate_to_proto),
        ..file_to_proto(file)
    }
}

/// The caller's queue as `GetTranscriptionQueue` answers it.
pub(super) fn queue_to_proto(queue: OwnQueue) -> pb::GetTranscriptionQueueResponse {
    pb::GetTranscriptionQueueResponse {
        files: queue
            .files
            .into_iter()
            .map(|(file, forecast)| with_estimate(file, Some(&forecast)))
            .collect(),
        basis: Some(basis_to_proto(queue.basis)),
    }
}

impl TranscriptionGrpc {
    /// `files` on the wire, each with its estimate.
    pub(super) async fn with_queue(
        &self,
        files: Vec<TranscriptionFile>,
    ) -> Vec<pb::TranscriptionFile> {
        let forecasts = self.service.forecasts_of(&files).await;
        files
            .into_iter()
            .zip(forecasts)
            .map(|(file, forecast)| with_estimate(file, forecast.as_ref()))
            .collect()
    }

    /// One file on the wire with its estimate.
    pub(super) async fn one_with_queue(&self, file: TranscriptionFile) -> pb::TranscriptionFile {
        let mut files = self.with_queue(vec![file]).await;
        files.pop().unwrap_or_default()
    }

    /// A job on the wire, each of its files with its estimate.
    pub(super) async fn job_with_queue(
        &self,
        job: TranscriptionJob,
        files: Vec<TranscriptionFile>,
    ) -> pb::TranscriptionJob {
        let forecasts = self.service.forecasts_of(&files).await;
        let mut answer = job_to_proto(job, files);
        for (file, forecast) in answer.files.iter_mut().zip(forecasts) {
            file.queue = forecast.as_ref().map(estimate_to_proto);
        }
        answer
    }
}
