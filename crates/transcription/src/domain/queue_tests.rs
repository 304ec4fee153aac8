//! The forecast's rules, each on a small queue with known numbers.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

use super::*;
use crate::domain::speed::{CompletedRun, FALLBACK_AUDIO_SECONDS};
use crate::domain::window::parse_window;

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// Noon: outside a 01:00–06:00 window.
fn now() -> DateTime<Utc> {
    utc("2026-03-02T12:00:00Z")
}

fn entry(row: &str, user: &str, status: FileStatus, submitted_minutes_ago: i64) -> QueueEntry {
    QueueEntry {
        row_id: row.to_owned(),
        user_id: user.to_owned(),
        status,
        progress: 0,
        model: "small".to_owned(),
        audio_seconds: Some(600.0),
        submitted_at: now() - Duration::minutes(submitted_minutes_ago),
        next_attempt_at: None,
        window: None,
    }
}

/// Ten completed files of `model` that each took `factor` × their 600 s, one after the other.
fn history(model: &str, factor: f64) -> Vec<CompletedRun> {
    (0..10)
        .map(|index| CompletedRun {
            model: model.to_owned(),
            audio_seconds: 600.0,
            processing_seconds: 600.0 * factor,
            finished_at: now() - Duration::hours(index + 1),
        })
        .collect()
}

fn placed(forecast: &QueueForecast) -> Vec<(&str, u32)> {
    forecast
        .files
        .iter()
        .map(|file| (file.row_id.as_str(), file.position))
        .collect()
}

fn after(forecast: &QueueForecast, row: &str) -> (i64, i64) {
    let file = forecast.of(row).unwrap_or_else(|| panic!("{row} placed"));
    (
        (file.starts_at - now()).num_seconds(),
        (file.ends_at - now()).num_seconds(),
    )
}

#[test]
fn the_running_file_is_0_and_another_users_file_takes_its_turn_before_the_rest() {
    let mut running = entry("a-run", "alice", FileStatus::Transcribing, 30);
    running.progress = 50;
    let entries = [
        entry("a-1", "alice", FileStatus::Pending, 20),
        entry("a-2", "alice", FileStatus::Pending, 19),
        running,
        entry("b-1", "bob", FileStatus::Pending, 5),
    ];
    let forecast = forecast(&entries, &history("small", 0.5), &HashMap::new(), now());
    assert_eq!(
        placed(&forecast),
        [("a-run", 0), ("b-1", 1), ("a-1", 2), ("a-2", 3)],
        "alice has been served, bob never: his one file goes before her queue"
    );
    assert_eq!(forecast.basis.workers, 1, "a file waits while one runs");
}

#[test]
fn equal_turns_keep_the_order_files_were_queued_in() {
    let served = HashMap::from([
        ("alice".to_owned(), now() - Duration::hours(1)),
        ("bob".to_owned(), now() - Duration::hours(1)),
    ]);
    let entries = [
        entry("b-1", "bob", FileStatus::Pending, 10),
        entry("a-1", "alice", FileStatus::Pending, 20),
        entry("a-2", "alice", FileStatus::Retrying, 15),
    ];
    let forecast = forecast(&entries, &history("small", 0.5), &served, now());
    assert_eq!(placed(&forecast), [("a-1", 1), ("b-1", 2), ("a-2", 3)]);
}

#[test]
fn times_come_from_the_measured_factor_times_each_files_length() {
    let mut short = entry("short", "alice", FileStatus::Pending, 10);
    short.audio_seconds = Some(120.0);
    let entries = [short, entry("long", "alice", FileStatus::Pending, 5)];
    let forecast = forecast(&entries, &history("small", 0.25), &HashMap::new(), now());
    assert_eq!(after(&forecast, "short"), (0, 30), "120 s of audio × 0.25");
    assert_eq!(after(&forecast, "long"), (30, 180), "then 600 s × 0.25");
    assert_eq!(forecast.of("long").unwrap().eta_seconds, 180);
    assert_eq!(forecast.basis.measured_files, 10);
    assert!((forecast.basis.real_time_factor - 0.25).abs() < 1e-9);
}

#[test]
fn with_nothing_measured_a_file_takes_as_long_as_it_plays() {
    let mut unknown = entry("unknown", "alice", FileStatus::Pending, 5);
    unknown.audio_seconds = None;
    let entries = [entry("known", "alice", FileStatus::Pending, 10), unknown];
    let forecast = forecast(&entries, &[], &HashMap::new(), now());
    assert_eq!(after(&forecast, "known"), (0, 600));
    let assumed = FALLBACK_AUDIO_SECONDS as i64;
    assert_eq!(after(&forecast, "unknown"), (600, 600 + assumed));
    assert_eq!(forecast.basis.measured_files, 0);
    assert_eq!(forecast.basis.workers, 1);
}

#[test]
fn a_running_file_has_the_rest_of_its_estimate_left_by_its_progress() {
    let mut running = entry("run", "alice", FileStatus::Transcribing, 10);
    running.progress = 40;
    let entries = [running, entry("next", "alice", FileStatus::Pending, 5)];
    let forecast = forecast(&entries, &history("small", 0.5), &HashMap::new(), now());
    // 600 s × 0.5 = 300 s in all, 60 % of it left.
    assert_eq!(after(&forecast, "run"), (0, 180));
    assert_eq!(after(&forecast, "next"), (180, 480));
}

#[test]
fn workers_seen_running_together_share_the_queue() {
    // Two files ran side by side, each 600 s × 0.5: two slots.
    let side_by_side: Vec<CompletedRun> = (0..2)
        .map(|_| CompletedRun {
            model: "small".to_owned(),
            audio_seconds: 600.0,
            processing_seconds: 300.0,
            finished_at: now() - Duration::hours(1),
        })
        .collect();
    let entries = [
        entry("1", "alice", FileStatus::Pending, 30),
        entry("2", "alice", FileStatus::Pending, 20),
        entry("3", "alice", FileStatus::Pending, 10),
    ];
    let forecast = forecast(&entries, &side_by_side, &HashMap::new(), now());
    assert_eq!(forecast.basis.workers, 2);
    assert_eq!(after(&forecast, "1"), (0, 300));
    assert_eq!(after(&forecast, "2"), (0, 300));
    assert_eq!(after(&forecast, "3"), (300, 600));
}

#[test]
fn a_scheduled_file_starts_when_its_window_opens() {
    let mut night = entry("night", "alice", FileStatus::Scheduled, 60);
    night.window = Some(parse_window("01:00", "06:00", "UTC").unwrap());
    let entries = [night, entry("now", "bob", FileStatus::Pending, 1)];
    let forecast = forecast(&entries, &history("small", 0.5), &HashMap::new(), now());
    assert_eq!(placed(&forecast), [("now", 1), ("night", 2)]);
    let file = forecast.of("night").unwrap();
    assert_eq!(file.starts_at, utc("2026-03-03T01:00:00Z"));
    assert_eq!(file.ends_at, utc("2026-03-03T01:05:00Z"));
    assert!(file.waits_for_window);
    assert!(!forecast.of("now").unwrap().waits_for_window);
}

#[test]
fn a_window_that_closes_before_a_worker_is_free_sends_the_file_to_the_next_night() {
    // 05:50 UTC, inside 01:00–06:00; the running file ends at 06:40.
    let now = utc("2026-03-02T05:50:00Z");
    let mut running = entry("run", "bob", FileStatus::Transcribing, 10);
    running.submitted_at = now - Duration::minutes(10);
    let mut late = entry("late", "alice", FileStatus::Pending, 5);
    late.submitted_at = now - Duration::minutes(5);
    late.window = Some(parse_window("01:00", "06:00", "UTC").unwrap());
    // 600 s × 5 = 50 minutes for the running file.
    let forecast = super::forecast(
        &[running, late],
        &history("small", 5.0),
        &HashMap::new(),
        now,
    );
    assert_eq!(
        forecast.of("run").unwrap().ends_at,
        utc("2026-03-02T06:40:00Z")
    );
    let file = forecast.of("late").unwrap();
    assert_eq!(file.starts_at, utc("2026-03-03T01:00:00Z"));
    assert!(file.waits_for_window);
}

#[test]
fn an_error_waiting_for_its_retry_starts_no_earlier_than_the_retry_and_a_cancelled_one_is_out() {
    let mut retry = entry("retry", "alice", FileStatus::Error, 10);
    retry.next_attempt_at = Some(now() + Duration::minutes(5));
    let cancelled = entry("cancelled", "alice", FileStatus::Error, 9);
    let finished = entry("done", "alice", FileStatus::Completed, 8);
    let forecast = forecast(
        &[retry, cancelled, finished],
        &history("small", 0.5),
        &HashMap::new(),
        now(),
    );
    assert_eq!(placed(&forecast), [("retry", 1)]);
    assert_eq!(after(&forecast, "retry"), (300, 600));
}

#[test]
fn a_user_is_told_of_changes_of_place_or_state_not_of_small_drifts() {
    let announced = |position: u32, status: FileStatus, ends_in: i64| Announced {
        row_id: "a-1".to_owned(),
        status,
        position,
        ends_at: now() + Duration::seconds(ends_in),
    };
    let before = [announced(2, FileStatus::Pending, 600)];
    assert!(worth_announcing(None, &before), "never told");
    assert!(!worth_announcing(
        Some(&before),
        &[announced(2, FileStatus::Pending, 620)]
    ));
    assert!(worth_announcing(
        Some(&before),
        &[announced(1, FileStatus::Pending, 620)]
    ));
    assert!(worth_announcing(
        Some(&before),
        &[announced(0, FileStatus::Transcribing, 600)]
    ));
    assert!(worth_announcing(
        Some(&before),
        &[announced(2, FileStatus::Pending, 700)]
    ));
    assert!(
        worth_announcing(Some(&before), &[]),
        "the file left the queue"
    );
}
