//! Queue transparency (issue 24 §3): the forecast of the instance's queue (`domain::queue`) made
//! from the store's rows, each user's share of it for the API, and `queueUpdate` events to the
//! users whose places or estimates changed. Events follow the queue's own changes (a file added,
//! started, finished, failed, cancelled or retried), never a timer.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, PoisonError};

use chrono::{DateTime, Utc};
use scribevault_bus::contract::{QueueBasis, QueueUpdate, QueuedFile};
use scribevault_bus::{Event, EventEnvelope};
use scribevault_core::UserId;

use crate::domain::TranscriptionFile;
use crate::domain::queue::{
    Announced, FileForecast, ForecastBasis, QueueEntry, QueueForecast, forecast, worth_announcing,
};
use crate::domain::speed::{CompletedRun, HISTORY_LENGTH};
use crate::domain::window::parse_window;
use crate::error::TranscriptionError;
use crate::service::Transcriptions;

/// What each user was last told about their queued files, so that a change that moves nothing
/// of theirs sends them nothing. Per process: another replica may tell a user once more.
#[derive(Default)]
pub(crate) struct AnnouncedQueues(Mutex<HashMap<String, Vec<Announced>>>);

/// A user's queued files and where each stands; other users' files counted, never named.
#[derive(Debug, Clone)]
pub struct OwnQueue {
    /// In queue order.
    pub files: Vec<(TranscriptionFile, FileForecast)>,
    pub basis: ForecastBasis,
}

/// The whole instance's forecast and the files it placed.
struct InstanceQueue {
    forecast: QueueForecast,
    files: HashMap<String, TranscriptionFile>,
}

impl InstanceQueue {
    /// Every placed file with its forecast, in queue order.
    fn placed(&self) -> impl Iterator<Item = (&TranscriptionFile, &FileForecast)> {
        self.forecast
            .files
            .iter()
            .filter_map(|forecast| Some((self.files.get(&forecast.row_id)?, forecast)))
    }
}

fn history_of(recent: &[TranscriptionFile], models: &HashMap<String, String>) -> Vec<CompletedRun> {
    recent
        .iter()
        .filter_map(|file| {
            Some(CompletedRun {
                model: models.get(&file.job_id)?.clone(),
                audio_seconds: file.audio_seconds?,
                processing_seconds: file.processing_time_ms? as f64 / 1000.0,
                finished_at: file.updated_at,
            })
        })
        .collect()
}

fn to_rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// A placed file as the `queueUpdate` event and the REST answer carry it.
#[must_use]
pub fn queued_file(file: &TranscriptionFile, forecast: &FileForecast) -> QueuedFile {
    QueuedFile {
        file_id: file.file_id.clone(),
        job_id: file.job_id.clone(),
        title: file.title.clone(),
        status: file.status.into(),
        position: forecast.position,
        eta_seconds: forecast.eta_seconds,
        estimated_start_at: to_rfc3339(forecast.starts_at),
        estimated_end_at: to_rfc3339(forecast.ends_at),
        waits_for_window: forecast.waits_for_window,
    }
}

/// The basis as the event and the REST answer carry it.
#[must_use]
pub fn queue_basis(basis: ForecastBasis) -> QueueBasis {
    QueueBasis {
        real_time_factor: basis.real_time_factor,
        measured_files: u32::try_from(basis.measured_files).unwrap_or(u32::MAX),
        workers: u32::try_from(basis.workers).unwrap_or(u32::MAX),
    }
}

impl Transcriptions {
    /// Forecasts the instance's whole queue now.
    async fn instance_queue(&self) -> Result<InstanceQueue, TranscriptionError> {
        let queued = self.store.queued_files().await?;
        // Twice the history's length: some completions teach nothing (too short to count).
        let recent = self
            .store
            .recent_completions(u64::try_from(HISTORY_LENGTH * 2).unwrap_or(40))
            .await?;
        let job_ids: HashSet<String> = queued
            .iter()
            .chain(&recent)
            .map(|file| file.job_id.clone())
            .collect();
        let jobs = self.store.jobs_by_id(job_ids.into_iter().collect()).await?;
        let users: HashSet<String> = queued.iter().map(|file| file.user_id.clone()).collect();
        let last_served = self.store.last_served(users.into_iter().collect()).await?;
        let entries: Vec<QueueEntry> = queued
            .iter()
            .filter_map(|file| {
                let job = jobs.get(&file.job_id)?;
                let window = job.window.as_ref().and_then(|window| {
                    parse_window(&window.start, &window.end, &window.timezone).ok()
                });
                Some(QueueEntry {
                    row_id: file.row_id.clone(),
                    user_id: file.user_id.clone(),
                    status: file.status,
                    progress: file.progress,
                    model: job.model.clone(),
                    audio_seconds: file.audio_seconds,
                    submitted_at: file.created_at,
                    next_attempt_at: file.next_attempt_at,
                    window,
                })
            })
            .collect();
        let models: HashMap<String, String> = jobs
            .iter()
            .map(|(id, job)| (id.clone(), job.model.clone()))
            .collect();
        let forecast = forecast(
            &entries,
            &history_of(&recent, &models),
            &last_served,
            Utc::now(),
        );
        Ok(InstanceQueue {
            forecast,
            files: queued
                .into_iter()
                .map(|file| (file.row_id.clone(), file))
                .collect(),
        })
    }

    /// The caller's waiting and running files, each placed in the instance's queue.
    ///
    /// # Errors
    /// Database failure.
    pub async fn own_queue(&self, user: &UserId) -> Result<OwnQueue, TranscriptionError> {
        let queue = self.instance_queue().await?;
        Ok(OwnQueue {
            files: queue
                .placed()
                .filter(|(file, _)| file.user_id == user.as_str())
                .map(|(file, forecast)| (file.clone(), forecast.clone()))
                .collect(),
            basis: queue.forecast.basis,
        })
    }

    /// The forecast of each of `files` (`None` for finished ones), for the answers that show a
    /// file's state. An estimate is no reason to fail an answer: a failed forecast is logged and
    /// answered as none.
    pub async fn forecasts_of(&self, files: &[TranscriptionFile]) -> Vec<Option<FileForecast>> {
        match self.instance_queue().await {
            Ok(queue) => files
                .iter()
                .map(|file| queue.forecast.of(&file.row_id).cloned())
                .collect(),
            Err(error) => {
                tracing::warn!(error = %error, "queue forecast failed");
                vec![None; files.len()]
            }
        }
    }

    /// The queue changed (a file of `changed_for`'s was added, started, finished, failed,
    /// cancelled or retried): tells every user whose places or estimates moved, the users in
    /// `changed_for` always, and a user whose last queued file left an empty queue. Events are
    /// notifications: a failure is logged, never turned into a failed state change.
    pub(crate) async fn queue_changed(&self, changed_for: &[&str]) {
        let queue = match self.instance_queue().await {
            Ok(queue) => queue,
            Err(error) => {
                tracing::warn!(error = %error, "queue forecast failed; no queueUpdate sent");
                return;
            }
        };
        let mut by_user: HashMap<&str, Vec<(&TranscriptionFile, &FileForecast)>> = HashMap::new();
        for (file, forecast) in queue.placed() {
            by_user
                .entry(file.user_id.as_str())
                .or_default()
                .push((file, forecast));
        }
        let updates = self.announcements(&by_user, changed_for);
        let basis = queue_basis(queue.forecast.basis);
        for user in updates {
            let files = by_user.get(user.as_str()).map_or_else(Vec::new, |placed| {
                placed
                    .iter()
                    .map(|(file, forecast)| queued_file(file, forecast))
                    .collect()
            });
            let event = Event::QueueUpdate(QueueUpdate { files, basis });
            self.publish_to(&user, event).await;
        }
    }

    /// The users to tell, recording what they are told.
    fn announcements(
        &self,
        by_user: &HashMap<&str, Vec<(&TranscriptionFile, &FileForecast)>>,
        changed_for: &[&str],
    ) -> Vec<String> {
        let mut announced = self
            .announced
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut users: HashSet<String> = announced.keys().cloned().collect();
        users.extend(by_user.keys().map(|user| (*user).to_owned()));
        users.extend(changed_for.iter().map(|user| (*user).to_owned()));
        let mut to_tell = Vec::new();
        for user in users {
            let next: Vec<Announced> = by_user
                .get(user.as_str())
                .map(|placed| {
                    placed
                        .iter()
                        .map(|(file, forecast)| Announced {
                            row_id: file.row_id.clone(),
                            status: file.status,
                            position: forecast.position,
                            ends_at: forecast.ends_at,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let previous = announced.get(&user).map(Vec::as_slice);
            let changed = changed_for.contains(&user.as_str());
            if !changed && !worth_announcing(previous, &next) {
                continue;
            }
            if next.is_empty() {
                announced.remove(&user);
            } else {
                announced.insert(user.clone(), next);
            }
            to_tell.push(user);
        }
        to_tell
    }

    async fn publish_to(&self, user_id: &str, event: Event) {
        let envelope = EventEnvelope::for_event(
            &event,
            user_id,
            scribevault_core::telemetry::current_traceparent(),
        );
        if let Err(error) = self.events.publish(&envelope).await {
            tracing::warn!(error = %error, event = event.name(), "event not published");
        }
    }
}
