//! How fast this machine transcribes, learned from its recent completed files: the real-time
//! factor (wall time ÷ audio length) and how many files it runs at once. The queue forecast
//! (`queue.rs`) multiplies a file's audio length by the factor; both are estimates, and the
//! forecast says which parts were measured.

use chrono::{DateTime, Utc};

/// How many recent completed files the factor is learned from: enough to smooth out one odd
/// file, few enough to follow a change of hardware or model within an evening.
pub const HISTORY_LENGTH: usize = 20;

/// The factor when nothing was measured yet: a file takes as long as it plays. Whisper's small
/// model on a few CPU cores is about that fast; the tiny ones are faster, so a first estimate
/// errs long rather than promising too much.
pub const FALLBACK_REAL_TIME_FACTOR: f64 = 1.0;

/// The length assumed for a file whose length is unknown (rows queued before lengths were
/// recorded) when no completed file says what is usual here.
pub const FALLBACK_AUDIO_SECONDS: f64 = 600.0;

/// Files shorter than this say more about a run's fixed costs (loading the model, reading the
/// MP3) than about speed, so they are not learned from.
const SHORTEST_LEARNED_AUDIO_SECONDS: f64 = 1.0;

/// Factors outside this range are a measuring accident (a clock jump, a broken length).
const FACTOR_RANGE: (f64, f64) = (0.01, 100.0);

/// A completed file as the forecast learns from it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletedRun {
    /// The Whisper model it was transcribed with.
    pub model: String,
    /// How long its audio plays.
    pub audio_seconds: f64,
    /// Wall time from claim to stored transcript.
    pub processing_seconds: f64,
    /// When it completed.
    pub finished_at: DateTime<Utc>,
}

impl CompletedRun {
    fn is_learnable(&self) -> bool {
        self.audio_seconds >= SHORTEST_LEARNED_AUDIO_SECONDS && self.processing_seconds > 0.0
    }

    fn started_at(&self) -> DateTime<Utc> {
        self.finished_at - seconds(self.processing_seconds)
    }
}

/// A span of `value` seconds (negative and non-finite values are none).
#[must_use]
pub fn seconds(value: f64) -> chrono::Duration {
    if value.is_finite() && value > 0.0 {
        chrono::Duration::milliseconds((value * 1000.0).min(1e15) as i64)
    } else {
        chrono::Duration::zero()
    }
}

/// The real-time factor learned from recent runs, per model where that model was measured.
#[derive(Debug, Clone, PartialEq)]
pub struct RealTimeFactor {
    overall: Option<f64>,
    by_model: Vec<(String, f64)>,
    measured: usize,
    usual_audio_seconds: Option<f64>,
}

/// Total wall time over total audio: long files weigh more than short ones, whose fixed costs
/// would otherwise inflate the factor.
fn weighted_factor<'a>(runs: impl Iterator<Item = &'a CompletedRun>) -> Option<f64> {
    let (wall, audio) = runs.fold((0.0, 0.0), |(wall, audio), run| {
        (wall + run.processing_seconds, audio + run.audio_seconds)
    });
    (audio > 0.0).then(|| (wall / audio).clamp(FACTOR_RANGE.0, FACTOR_RANGE.1))
}

impl RealTimeFactor {
    /// Learns from `runs`, newest first; only the newest [`HISTORY_LENGTH`] usable ones count.
    #[must_use]
    pub fn from_history(runs: &[CompletedRun]) -> Self {
        let learned: Vec<&CompletedRun> = runs
            .iter()
            .filter(|run| run.is_learnable())
            .take(HISTORY_LENGTH)
            .collect();
        let mut by_model: Vec<(String, f64)> = Vec::new();
        for run in &learned {
            if by_model.iter().any(|(model, _)| *model == run.model) {
                continue;
            }
            let same = learned.iter().copied().filter(|r| r.model == run.model);
            if let Some(factor) = weighted_factor(same) {
                by_model.push((run.model.clone(), factor));
            }
        }
        let usual_audio_seconds = (!learned.is_empty()).then(|| {
            learned.iter().map(|run| run.audio_seconds).sum::<f64>() / learned.len() as f64
        });
        Self {
            overall: weighted_factor(learned.iter().copied()),
            by_model,
            measured: learned.len(),
            usual_audio_seconds,
        }
    }

    /// The factor for files of `model`: that model's own when it was measured, every model's
    /// when only others were, the fallback when nothing was.
    #[must_use]
    pub fn for_model(&self, model: &str) -> f64 {
        self.by_model
            .iter()
            .find(|(measured, _)| measured == model)
            .map(|(_, factor)| *factor)
            .or(self.overall)
            .unwrap_or(FALLBACK_REAL_TIME_FACTOR)
    }

    /// Every model's factor together (what the answer reports as the basis of the estimate).
    #[must_use]
    pub fn overall(&self) -> f64 {
        self.overall.unwrap_or(FALLBACK_REAL_TIME_FACTOR)
    }

    /// How many completed files the factor was learned from (0: the fallback is used).
    #[must_use]
    pub fn measured(&self) -> usize {
        self.measured
    }

    /// The length to assume for a file whose length is unknown: the mean of the files learned
    /// from, else [`FALLBACK_AUDIO_SECONDS`].
    #[must_use]
    pub fn usual_audio_seconds(&self) -> f64 {
        self.usual_audio_seconds.unwrap_or(FALLBACK_AUDIO_SECONDS)
    }
}

/// The most runs that overlapped in time among `runs`: how many files this machine was seen
/// transcribing at once.
#[must_use]
pub fn peak_parallel_runs(runs: &[CompletedRun]) -> usize {
    let mut edges: Vec<(DateTime<Utc>, i32)> = runs
        .iter()
        .filter(|run| run.processing_seconds > 0.0)
        .take(HISTORY_LENGTH)
        .flat_map(|run| [(run.started_at(), 1), (run.finished_at, -1)])
        .collect();
    // An end at the same instant as a start frees its slot first.
    edges.sort();
    let (mut open, mut peak) = (0_i32, 0_i32);
    for (_, step) in edges {
        open += step;
        peak = peak.max(open);
    }
    usize::try_from(peak).unwrap_or(0)
}

/// How many files the workers run at once, as far as it can be known. Workers do not register
/// anywhere; a worker is seen only by the file it holds. When files wait for a worker while some
/// run, every live slot is busy (a free one would have claimed), so the running count is the
/// number of slots. Otherwise the most seen at once recently stands in, and at least one.
#[must_use]
pub fn effective_workers(
    running: usize,
    claimable_waiting: usize,
    recent: &[CompletedRun],
) -> usize {
    if claimable_waiting > 0 && running > 0 {
        return running;
    }
    running.max(peak_parallel_runs(recent)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-03-02T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
            + chrono::Duration::minutes(minute)
    }

    fn run(model: &str, audio: f64, wall: f64, finished_minute: i64) -> CompletedRun {
        CompletedRun {
            model: model.to_owned(),
            audio_seconds: audio,
            processing_seconds: wall,
            finished_at: at(finished_minute),
        }
    }

    #[test]
    fn the_factor_is_total_wall_time_over_total_audio() {
        let speed = RealTimeFactor::from_history(&[
            run("small", 600.0, 300.0, 0),
            run("small", 60.0, 60.0, 1),
        ]);
        assert!((speed.for_model("small") - 360.0 / 660.0).abs() < 1e-9);
        assert_eq!(speed.measured(), 2);
        assert!((speed.usual_audio_seconds() - 330.0).abs() < 1e-9);
    }

    #[test]
    fn only_the_newest_twenty_usable_runs_count() {
        let mut runs: Vec<CompletedRun> = (0..HISTORY_LENGTH)
            .map(|minute| run("small", 100.0, 50.0, minute as i64))
            .collect();
        // Older than the twenty: a slow machine that was replaced.
        runs.extend((0..10).map(|minute| run("small", 100.0, 900.0, -minute)));
        let speed = RealTimeFactor::from_history(&runs);
        assert!((speed.for_model("small") - 0.5).abs() < 1e-9);
        assert_eq!(speed.measured(), HISTORY_LENGTH);
    }

    #[test]
    fn a_models_own_factor_wins_then_every_models_then_the_fallback() {
        let speed = RealTimeFactor::from_history(&[
            run("tiny.en", 100.0, 10.0, 0),
            run("small", 100.0, 80.0, 1),
        ]);
        assert!((speed.for_model("tiny.en") - 0.1).abs() < 1e-9);
        assert!((speed.for_model("small") - 0.8).abs() < 1e-9);
        assert!(
            (speed.for_model("medium") - 0.45).abs() < 1e-9,
            "unmeasured model"
        );
        let nothing = RealTimeFactor::from_history(&[]);
        assert!((nothing.for_model("small") - FALLBACK_REAL_TIME_FACTOR).abs() < 1e-9);
        assert_eq!(nothing.measured(), 0);
        assert!((nothing.usual_audio_seconds() - FALLBACK_AUDIO_SECONDS).abs() < 1e-9);
    }

    #[test]
    fn runs_without_a_length_or_a_time_teach_nothing() {
        let speed = RealTimeFactor::from_history(&[
            run("small", 0.2, 30.0, 0),
            run("small", 100.0, 0.0, 1),
        ]);
        assert_eq!(speed.measured(), 0);
        assert!((speed.overall() - FALLBACK_REAL_TIME_FACTOR).abs() < 1e-9);
    }

    #[test]
    fn the_peak_counts_runs_that_overlapped() {
        // Two at once from minute 0 to 5, then one alone.
        let runs = [
            run("small", 600.0, 300.0, 5),
            run("small", 600.0, 300.0, 5),
            run("small", 600.0, 300.0, 10),
        ];
        assert_eq!(peak_parallel_runs(&runs), 2);
        assert_eq!(peak_parallel_runs(&[]), 0);
    }

    #[test]
    fn a_busy_queue_shows_the_slots_by_what_runs() {
        let two_at_once = [run("small", 600.0, 300.0, 5), run("small", 600.0, 300.0, 5)];
        assert_eq!(
            effective_workers(3, 4, &two_at_once),
            3,
            "saturated: 3 slots"
        );
        assert_eq!(effective_workers(1, 4, &two_at_once), 1, "a slot went away");
        assert_eq!(
            effective_workers(1, 0, &two_at_once),
            2,
            "idle slot: the peak"
        );
        assert_eq!(effective_workers(0, 5, &[]), 1, "nothing known: one");
    }
}
