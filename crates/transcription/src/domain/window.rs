//! The overnight window of a scheduled job, in the user's time zone.

use scribevault_core::local_time::{self, LocalTimeError};

use crate::error::TranscriptionError;

/// The overnight window: the shared wall-clock window (`core::local_time`), read from the
/// request's fields with errors that name them.
pub type DailyWindow = local_time::DailyWindow;

fn parse_time(field: &str, value: &str) -> Result<chrono::NaiveTime, TranscriptionError> {
    local_time::parse_time_of_day(value).map_err(|_| {
        TranscriptionError::InvalidArgument(format!(
            "{field} must be HH:MM (24-hour), not {value:?}"
        ))
    })
}

/// Reads `HH:MM` bounds and an IANA zone name (empty means UTC) into a window.
///
/// # Errors
/// A bound is not `HH:MM`, the bounds are equal, or the zone is unknown.
pub fn parse_window(
    start: &str,
    end: &str,
    timezone: &str,
) -> Result<DailyWindow, TranscriptionError> {
    let start = parse_time("startTime", start)?;
    let end = parse_time("endTime", end)?;
    let zone = local_time::parse_zone(timezone).map_err(|error| match error {
        LocalTimeError::Zone(name) => {
            TranscriptionError::InvalidArgument(format!("unknown time zone {name:?}"))
        }
        other => TranscriptionError::InvalidArgument(other.to_string()),
    })?;
    DailyWindow::new(start, end, zone).map_err(|_| {
        TranscriptionError::InvalidArgument("startTime and endTime must differ".into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, Utc};

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn overnight_window_in_the_users_zone() {
        let window = parse_window("01:00", "06:00", "Europe/Paris").unwrap();
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
        let window = parse_window("22:00", "02:00", "").unwrap();
        assert!(window.contains(utc("2026-01-15T23:00:00Z")));
        assert!(window.contains(utc("2026-01-15T01:00:00Z")));
        assert!(!window.contains(utc("2026-01-15T12:00:00Z")));
        assert!(parse_window("25:00", "06:00", "UTC").is_err());
        assert!(parse_window("01:00", "06:00", "Mars/Olympus").is_err());
    }
}
