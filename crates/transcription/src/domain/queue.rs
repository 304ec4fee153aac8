//! The queue forecast: where every waiting or running file of the instance stands and when it
//! should start and end. It replays what the workers will do: each free slot takes the next file
//! by the same turn-taking rule the claims follow (`core::fairness`, FIFO within a user), a file
//! takes its audio length × the machine's real-time factor (`speed.rs`), a running file the rest
//! of that by its progress, and a file of an overnight window starts no earlier than the window
//! opens (and waits for the next night when the slot frees after the window closed, as the
//! claim defers it). Pure: the service hands it rows, history and the clock.
//!
//! It is an estimate: real files run faster or slower, workers come and go, other users add
//! files that may take their turn first.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use scribevault_core::fairness::{QueueShare, goes_before, whose_turn};

use super::FileStatus;
use super::speed::{CompletedRun, RealTimeFactor, effective_workers, seconds};
use super::window::DailyWindow;

/// The shortest time a running file is still expected to take: one near 100 % is not done yet.
const LEAST_REMAINING_SECONDS: f64 = 1.0;

/// A file the forecast places.
#[derive(Debug, Clone)]
pub struct QueueEntry {
    pub row_id: String,
    pub user_id: String,
    pub status: FileStatus,
    /// 0–100, for a running file.
    pub progress: u32,
    /// The Whisper model of its job.
    pub model: String,
    /// How long its audio plays, when known.
    pub audio_seconds: Option<f64>,
    /// When it was submitted: a user's files are taken in this order.
    pub submitted_at: DateTime<Utc>,
    /// A file in error whose automatic retry is planned: when it is queued again.
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// The overnight window of its job, if it was scheduled.
    pub window: Option<DailyWindow>,
}

impl QueueEntry {
    /// Whether the forecast places it: running, waiting for a worker or its window, or in error
    /// with an automatic retry planned (a cancelled or exhausted file is not in the queue).
    #[must_use]
    pub fn is_queued(status: FileStatus, next_attempt_at: Option<DateTime<Utc>>) -> bool {
        match status {
            FileStatus::Pending
            | FileStatus::Scheduled
            | FileStatus::Transcribing
            | FileStatus::Retrying => true,
            FileStatus::Error => next_attempt_at.is_some(),
            FileStatus::Completed | FileStatus::Failed => false,
        }
    }
}

/// Where one file stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileForecast {
    pub row_id: String,
    /// 0 for a running file; then 1, 2, … in the order the workers should take the files.
    pub position: u32,
    /// Now for a running file.
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    /// Whole seconds from the forecast to `ends_at`, rounded up.
    pub eta_seconds: u64,
    /// It cannot start before its overnight window opens.
    pub waits_for_window: bool,
}

fn eta_seconds(now: DateTime<Utc>, ends_at: DateTime<Utc>) -> u64 {
    let millis = u64::try_from((ends_at - now).num_milliseconds()).unwrap_or(0);
    millis.div_ceil(1000)
}

/// What the forecast was made from, for the answer to say how much of it was measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForecastBasis {
    /// Wall time per second of audio, every model together.
    pub real_time_factor: f64,
    /// Completed files it was learned from; 0 means the fallback factor.
    pub measured_files: usize,
    /// Files assumed to run at once.
    pub workers: usize,
}

/// Every queued file of the instance, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueForecast {
    /// In position order.
    pub files: Vec<FileForecast>,
    pub basis: ForecastBasis,
}

impl QueueForecast {
    /// The forecast of the file with this row id, if it is queued.
    #[must_use]
    pub fn of(&self, row_id: &str) -> Option<&FileForecast> {
        self.files.iter().find(|file| file.row_id == row_id)
    }
}

/// A waiting file during the replay.
struct Waiting<'a> {
    entry: &'a QueueEntry,
    /// When a worker may take it.
    ready_at: DateTime<Utc>,
    waits_for_window: bool,
}

/// A worker slot during the replay.
struct Slot {
    free_at: DateTime<Utc>,
    user_id: Option<String>,
}

/// When a waiting file may first be taken, and whether its window is why.
fn ready_at(entry: &QueueEntry, now: DateTime<Utc>) -> (DateTime<Utc>, bool) {
    let not_before = entry.next_attempt_at.unwrap_or(now).max(now);
    match &entry.window {
        Some(window) => {
            let opens = window.next_opening(not_before);
            (opens, opens > now)
        }
        None => (not_before, false),
    }
}

/// The turn-taking state of the replay: what each user runs and when they were last served.
struct Turns<'a> {
    last_served: &'a HashMap<String, DateTime<Utc>>,
    served: HashMap<String, DateTime<Utc>>,
}

impl Turns<'_> {
    /// A run of `user`'s ends at `ends_at`: their heartbeats go on until then.
    fn note_run(&mut self, user: &str, ends_at: DateTime<Utc>) {
        let served = self.served.entry(user.to_owned()).or_insert(ends_at);
        *served = (*served).max(ends_at);
    }

    /// A user's last service as the claims see it at `at`: a heartbeat while a file of theirs
    /// runs (so `at`), the end of their last run, or what the store recorded.
    fn served_at(&self, user: &str, at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.served
            .get(user)
            .map(|end| (*end).min(at))
            .or_else(|| self.last_served.get(user).copied())
    }

    /// The index in `ready` (submission order, the message queue's) of the file a free slot
    /// takes at `at`: the queue's head, unless another user's turn comes strictly first (the
    /// rule of `Transcriptions::claim` with `take_turns`).
    fn pick(
        &self,
        ready: &[usize],
        waiting: &[Waiting<'_>],
        slots: &[Slot],
        at: DateTime<Utc>,
    ) -> usize {
        let mut shares: Vec<QueueShare> = Vec::new();
        for &index in ready {
            let user = &waiting[index].entry.user_id;
            if let Some(share) = shares.iter_mut().find(|share| &share.user_id == user) {
                share.waiting += 1;
                continue;
            }
            let running = slots
                .iter()
                .filter(|slot| slot.free_at > at && slot.user_id.as_ref() == Some(user))
                .count();
            shares.push(QueueShare {
                user_id: user.clone(),
                waiting: 1,
                running: running as u64,
                last_served: self.served_at(user, at),
            });
        }
        let head = ready[0];
        let owner = shares
            .iter()
            .find(|share| share.user_id == waiting[head].entry.user_id);
        match (whose_turn(&shares), owner) {
            (Some(turn), Some(owner)) if goes_before(turn, owner) => ready
                .iter()
                .copied()
                .find(|&index| waiting[index].entry.user_id == turn.user_id)
                .unwrap_or(head),
            _ => head,
        }
    }
}

/// Places every queued file of `entries`.
///
/// `history` holds recent completed files, newest first; `last_served` each user's last
/// worker heartbeat, as the claims' turn-taking reads it.
#[must_use]
pub fn forecast(
    entries: &[QueueEntry],
    history: &[CompletedRun],
    last_served: &HashMap<String, DateTime<Utc>>,
    now: DateTime<Utc>,
) -> QueueForecast {
    let speed = RealTimeFactor::from_history(history);
    let run_seconds = |entry: &QueueEntry| {
        entry
            .audio_seconds
            .unwrap_or_else(|| speed.usual_audio_seconds())
            * speed.for_model(&entry.model)
    };
    let (running, mut waiting) = split_queue(entries, now);
    let claimable_now = waiting
        .iter()
        .filter(|file| {
            matches!(
                file.entry.status,
                FileStatus::Pending | FileStatus::Retrying
            ) && file.ready_at <= now
        })
        .count();
    let workers = effective_workers(running.len(), claimable_now, history);
    let mut turns = Turns {
        last_served,
        served: HashMap::new(),
    };
    let (mut slots, mut files) = place_running(&running, workers, &run_seconds, &mut turns, now);
    replay(
        &mut waiting,
        &mut slots,
        &mut turns,
        &mut files,
        &run_seconds,
    );
    for file in &mut files {
        file.eta_seconds = eta_seconds(now, file.ends_at);
    }
    QueueForecast {
        files,
        basis: ForecastBasis {
            real_time_factor: speed.overall(),
            measured_files: speed.measured(),
            workers,
        },
    }
}

/// The queued files of `entries`: the running ones, and the waiting ones with when each may
/// first be taken.
fn split_queue(entries: &[QueueEntry], now: DateTime<Utc>) -> (Vec<&QueueEntry>, Vec<Waiting<'_>>) {
    let (running, rest): (Vec<&QueueEntry>, Vec<&QueueEntry>) = entries
        .iter()
        .filter(|entry| QueueEntry::is_queued(entry.status, entry.next_attempt_at))
        .partition(|entry| entry.status == FileStatus::Transcribing);
    let waiting = rest
        .into_iter()
        .map(|entry| {
            let (ready_at, waits_for_window) = ready_at(entry, now);
            Waiting {
                entry,
                ready_at,
                waits_for_window,
            }
        })
        .collect();
    (running, waiting)
}

/// The slots of `workers`: one per running file, busy for the rest of its estimate by its
/// progress (there may be more running files than assumed workers), then free ones.
fn place_running(
    running: &[&QueueEntry],
    workers: usize,
    run_seconds: &dyn Fn(&QueueEntry) -> f64,
    turns: &mut Turns<'_>,
    now: DateTime<Utc>,
) -> (Vec<Slot>, Vec<FileForecast>) {
    let mut slots = Vec::with_capacity(workers.max(running.len()));
    let mut files = Vec::with_capacity(running.len());
    for entry in running {
        let done = f64::from(entry.progress.min(100)) / 100.0;
        let remaining = (run_seconds(entry) * (1.0 - done)).max(LEAST_REMAINING_SECONDS);
        let ends_at = now + seconds(remaining);
        turns.note_run(&entry.user_id, ends_at);
        slots.push(Slot {
            free_at: ends_at,
            user_id: Some(entry.user_id.clone()),
        });
        files.push(FileForecast {
            row_id: entry.row_id.clone(),
            position: 0,
            starts_at: now,
            ends_at,
            eta_seconds: 0,
            waits_for_window: false,
        });
    }
    while slots.len() < workers {
        slots.push(Slot {
            free_at: now,
            user_id: None,
        });
    }
    (slots, files)
}

/// Hands the waiting files to the slots one by one, as the workers would take them.
fn replay(
    waiting: &mut Vec<Waiting<'_>>,
    slots: &mut [Slot],
    turns: &mut Turns<'_>,
    files: &mut Vec<FileForecast>,
    run_seconds: &dyn Fn(&QueueEntry) -> f64,
) {
    let mut position = 0_u32;
    // Each step places a file or moves one to a later night; a few nights each is plenty.
    let mut steps_left = waiting.len().saturating_mul(8).saturating_add(16);
    while !waiting.is_empty() && steps_left > 0 {
        steps_left -= 1;
        // The message queue's order: by when each file is queued, then by submission.
        waiting.sort_by(|a, b| {
            (a.ready_at, a.entry.submitted_at, &a.entry.row_id).cmp(&(
                b.ready_at,
                b.entry.submitted_at,
                &b.entry.row_id,
            ))
        });
        let Some(slot) = (0..slots.len()).min_by_key(|&index| slots[index].free_at) else {
            return;
        };
        let at = slots[slot].free_at.max(waiting[0].ready_at);
        let ready: Vec<usize> = (0..waiting.len())
            .filter(|&index| waiting[index].ready_at <= at)
            .collect();
        let chosen = turns.pick(&ready, waiting, slots, at);
        if let Some(window) = &waiting[chosen].entry.window
            && !window.contains(at)
        {
            // The window closed before a worker was free: the claim defers it to next night.
            waiting[chosen].ready_at = window.next_opening(at);
            waiting[chosen].waits_for_window = true;
            continue;
        }
        let file = waiting.remove(chosen);
        let ends_at = at + seconds(run_seconds(file.entry));
        slots[slot] = Slot {
            free_at: ends_at,
            user_id: Some(file.entry.user_id.clone()),
        };
        turns.note_run(&file.entry.user_id, ends_at);
        position += 1;
        files.push(FileForecast {
            row_id: file.entry.row_id.clone(),
            position,
            starts_at: at,
            ends_at,
            eta_seconds: 0,
            waits_for_window: file.waits_for_window,
        });
    }
}

/// One user's queued files and where each stands, as last announced to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announced {
    pub row_id: String,
    pub status: FileStatus,
    pub position: u32,
    pub ends_at: DateTime<Utc>,
}

/// An estimated end that moved less than this is not news: every forecast is a little
/// different, and a user is told when something changed, not every second.
const END_TOLERANCE_SECONDS: i64 = 30;

/// Whether `next` tells a user something `previous` did not: a file came or went, changed
/// state or place, or its end moved by more than [`END_TOLERANCE_SECONDS`].
#[must_use]
pub fn worth_announcing(previous: Option<&[Announced]>, next: &[Announced]) -> bool {
    let Some(previous) = previous else {
        return true;
    };
    previous.len() != next.len()
        || previous.iter().zip(next).any(|(before, now)| {
            before.row_id != now.row_id
                || before.status != now.status
                || before.position != now.position
                || (before.ends_at - now.ends_at).num_seconds().abs() > END_TOLERANCE_SECONDS
        })
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
