//! The overnight window of a scheduled job, in the user's time zone.

use chrono::{DateTime, NaiveTime, Utc};
use chrono_tz::Tz;

use crate::error::TranscriptionError;

/// A daily time window (`start` inclusive, `end` exclusive), possibly crossing midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyWindow {
    start: NaiveTime,
    end: NaiveTime,
    timezone: Tz,
}

fn parse_time(field: &str, value: &str) -> Result<NaiveTime, TranscriptionError> {
    NaiveTime::parse_from_str(value, "%H:%M").map_err(|_| {
        TranscriptionError::InvalidArgument(format!(
            "{field} must be HH:MM (24-hour), not {value:?}"
        ))
    })
}

impl DailyWindow {
    /// Parses `HH:MM` bounds and an IANA zone name (empty means UTC).
    ///
    /// # Errors
    /// A bound is not `HH:MM`, the bounds are equal, or the zone is unknown.
    pub fn parse(start: &str, end: &str, timezone: &str) -> Result<Self, TranscriptionError> {
        let start = parse_time("startTime", start)?;
        let end = parse_time("endTime", end)?;
        if start == end {
            return Err(TranscriptionError::InvalidArgument(
                "startTime and endTime must differ".into(),
            ));
        }
        let timezone = if timezone.is_empty() { "UTC" } else { timezone };
        let timezone: Tz = timezone.parse().map_err(|_| {
            TranscriptionError::InvalidArgument(format!("unknown time zone {timezone:?}"))
        })?;
        Ok(Self {
            start,
            end,
            timezone,
        })
    }

    /// Whether `at` falls inside the window, on the wall clock of the window's zone (so the
    /// window stays 01:00–06:00 local across DST changes).
    #[must_use]
    pub fn contains(&self, at: DateTime<Utc>) -> bool {
        let local = at.with_timezone(&self.timezone).time();
        if self.start < self.end {
            self.start <= local && local < self.end
        } else {
            local >= self.start || local < self.end
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn overnight_window_in_the_users_zone() {
        let window = DailyWindow::parse("01:00", "06:00", "Europe/Paris").unwrap();
        assert!(
            window.contains(utc("2026-01-15T00:30:00Z")),
            "01:30 in Paris (winter, UTC+1)"
        );
        assert!(
            !window.contains(utc("2026-01-15T05:30:00Z")),
            "06:30 in Paris"
        );
        assert!(
            window.contains(utc("2026-07-15T03:30:00Z")),
            "05:30 in Paris (summer, UTC+2)"
        );
        assert!(
            !window.contains(utc("2026-07-15T04:30:00Z")),
            "06:30 in Paris (summer)"
        );
    }

    #[test]
    fn windows_may_cross_midnight_and_bad_input_is_refused() {
        let window = DailyWindow::parse("22:00", "02:00", "").unwrap();
        assert!(window.contains(utc("2026-01-15T23:00:00Z")));
        assert!(window.contains(utc("2026-01-15T01:00:00Z")));
        assert!(!window.contains(utc("2026-01-15T12:00:00Z")));
        assert!(DailyWindow::parse("25:00", "06:00", "UTC").is_err());
        assert!(DailyWindow::parse("01:00", "06:00", "Mars/Olympus").is_err());
    }
}
