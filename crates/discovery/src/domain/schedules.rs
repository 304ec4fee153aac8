//! Schedules: when a source is synced, and the arithmetic of the next run (in
//! `core::local_time`, shared with transcription's overnight window).

use chrono::{DateTime, Datelike as _, NaiveTime, Utc};
use chrono_tz::Tz;
use scribevault_core::local_time::{self, LocalTimeError, Recurrence};

use super::SourceKind;

/// The spec's message for a schedule without a source (§5).
pub const SOURCE_REQUIRED: &str = "Source is required";

/// How often a schedule runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frequency {
    Daily,
    Weekly,
    Monthly,
}

impl Frequency {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Daily => "DAILY",
            Self::Weekly => "WEEKLY",
            Self::Monthly => "MONTHLY",
        }
    }

    /// Reads the spec's name.
    ///
    /// # Errors
    /// The message the API answers for anything else.
    pub fn parse(value: &str) -> Result<Self, String> {
        match value {
            "DAILY" => Ok(Self::Daily),
            "WEEKLY" => Ok(Self::Weekly),
            "MONTHLY" => Ok(Self::Monthly),
            _ => Err("Frequency must be DAILY, WEEKLY or MONTHLY".to_owned()),
        }
    }
}

/// When a schedule runs: its frequency and wall time in its zone, anchored at the moment it was
/// created or last edited (a weekly schedule runs on that weekday, a monthly one on that day of
/// the month, both read in the schedule's zone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    pub frequency: Frequency,
    pub time_of_day: NaiveTime,
    pub zone: Tz,
    pub anchored_at: DateTime<Utc>,
}

impl Timing {
    /// Reads the request's fields.
    ///
    /// # Errors
    /// The spec's messages: 'Invalid time format', the frequency's, an unknown zone's.
    pub fn parse(
        frequency: &str,
        time_of_day: &str,
        timezone: &str,
        anchored_at: DateTime<Utc>,
    ) -> Result<Self, String> {
        let frequency = Frequency::parse(frequency)?;
        let time_of_day =
            local_time::parse_time_of_day(time_of_day).map_err(|error| error.to_string())?;
        let zone = local_time::parse_zone(timezone).map_err(|error| match error {
            LocalTimeError::Zone(name) => format!("Unknown time zone {name:?}"),
            other => other.to_string(),
        })?;
        Ok(Self {
            frequency,
            time_of_day,
            zone,
            anchored_at,
        })
    }

    /// The recurrence the anchor gives.
    #[must_use]
    pub fn recurrence(&self) -> Recurrence {
        let local = self.anchored_at.with_timezone(&self.zone);
        match self.frequency {
            Frequency::Daily => Recurrence::Daily,
            Frequency::Weekly => Recurrence::Weekly(local.weekday()),
            Frequency::Monthly => Recurrence::Monthly(local.day()),
        }
    }

    /// The first run after `after` (a missed run is not made up: it is the next one).
    #[must_use]
    pub fn next_run_after(&self, after: DateTime<Utc>) -> DateTime<Utc> {
        self.recurrence()
            .next_after(self.time_of_day, self.zone, after)
    }
}

/// What a schedule shows of its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleSource {
    pub kind: SourceKind,
    pub title: String,
    pub thumbnail_url: String,
}

/// A schedule.
#[derive(Debug, Clone)]
pub struct Schedule {
    pub id: String,
    pub user_id: String,
    pub source_id: String,
    pub source: ScheduleSource,
    pub timing: Timing,
    pub is_active: bool,
    /// Its downloads use YouTube's captions when a video has them.
    pub use_captions: bool,
    /// None while inactive.
    pub next_run_at: Option<DateTime<Utc>>,
    pub last_run_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// Fields a PATCH may change; `None` keeps the value.
#[derive(Debug, Clone, Default)]
pub struct ScheduleChanges {
    pub source_id: Option<String>,
    pub frequency: Option<String>,
    pub time_of_day: Option<String>,
    pub timezone: Option<String>,
    pub is_active: Option<bool>,
    pub use_captions: Option<bool>,
}

impl ScheduleChanges {
    /// Whether the timing itself is edited (which re-anchors the weekday and day of month).
    #[must_use]
    pub fn edits_timing(&self) -> bool {
        self.frequency.is_some() || self.time_of_day.is_some() || self.timezone.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .map(|at| at.with_timezone(&Utc))
            .unwrap_or_else(|error| panic!("{s}: {error}"))
    }

    #[test]
    fn the_request_fields_are_checked_with_the_spec_messages() {
        let now = utc("2026-11-23T10:00:00Z");
        assert_eq!(
            Timing::parse("HOURLY", "09:00", "UTC", now)
                .err()
                .as_deref(),
            Some("Frequency must be DAILY, WEEKLY or MONTHLY")
        );
        assert_eq!(
            Timing::parse("DAILY", "9am", "UTC", now).err().as_deref(),
            Some("Invalid time format")
        );
        assert_eq!(
            Timing::parse("DAILY", "09:00", "Mars/Base", now)
                .err()
                .as_deref(),
            Some("Unknown time zone \"Mars/Base\"")
        );
        let timing = Timing::parse("DAILY", "09:00", "", now).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(timing.zone, Tz::UTC, "no zone means UTC");
    }

    #[test]
    fn weekly_runs_on_the_weekday_it_was_anchored_in_its_own_zone() {
        // Monday 2026-11-23 23:30 UTC is already Tuesday in Tokyo.
        let anchored = utc("2026-11-23T23:30:00Z");
        let tokyo = Timing::parse("WEEKLY", "09:00", "Asia/Tokyo", anchored)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(tokyo.recurrence(), Recurrence::Weekly(chrono::Weekday::Tue));
        // 08:30 JST on that Tuesday: 09:00 JST (00:00 UTC) the same day, then a week on.
        let first = tokyo.next_run_after(anchored);
        assert_eq!(first, utc("2026-11-24T00:00:00Z"));
        assert_eq!(tokyo.next_run_after(first), utc("2026-12-01T00:00:00Z"));
        let london = Timing::parse("WEEKLY", "09:00", "Europe/London", anchored)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            london.recurrence(),
            Recurrence::Weekly(chrono::Weekday::Mon)
        );
        assert_eq!(london.next_run_after(anchored), utc("2026-11-30T09:00:00Z"));
    }

    #[test]
    fn monthly_created_on_the_31st_keeps_the_last_day() {
        let anchored = utc("2026-01-31T12:00:00Z");
        let timing = Timing::parse("MONTHLY", "08:15", "America/New_York", anchored)
            .unwrap_or_else(|e| panic!("{e}"));
        // 07:00 in New York when created: 08:15 that day is still ahead.
        let january = timing.next_run_after(anchored);
        assert_eq!(january, utc("2026-01-31T13:15:00Z"));
        let february = timing.next_run_after(january);
        assert_eq!(february, utc("2026-02-28T13:15:00Z"));
        // March 31st is after New York's spring change: 08:15 EDT.
        assert_eq!(timing.next_run_after(february), utc("2026-03-31T12:15:00Z"));
    }
}
