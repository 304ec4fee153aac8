//! Wall-clock arithmetic in a user's time zone, shared by everything that runs "at 09:00 where
//! the user lives": transcription's overnight window and discovery's schedules. Kept in one
//! place so both resolve a DST gap or fold the same way.
//!
//! The rules: a wall time that does not exist (the spring-forward gap) is moved forward by the
//! gap's length (02:30 becomes 03:30, as `java.time` and cron do); a wall time that happens twice
//! (the fall-back fold) is its first occurrence.

use chrono::{
    DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveTime, Offset, TimeZone, Utc, Weekday,
};
use chrono_tz::Tz;

/// A wall time or time zone that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalTimeError {
    /// Not a 24-hour `HH:MM` (hours 0-23, minutes 00-59).
    #[error("Invalid time format")]
    TimeOfDay,
    /// Not an IANA time zone name.
    #[error("Unknown time zone {0:?}")]
    Zone(String),
    /// A window whose start and end are the same time.
    #[error("the window's start and end must differ")]
    EmptyWindow,
}

/// Reads a 24-hour `HH:MM` (or `H:MM`): hours 0-23, minutes 00-59, nothing else.
///
/// # Errors
/// [`LocalTimeError::TimeOfDay`] for anything else (`24:00`, `9:5`, `09:00:00`, ` 09:00`).
pub fn parse_time_of_day(value: &str) -> Result<NaiveTime, LocalTimeError> {
    let (hours, minutes) = value.split_once(':').ok_or(LocalTimeError::TimeOfDay)?;
    let digits = |part: &str, lengths: &[usize]| {
        lengths.contains(&part.len()) && part.bytes().all(|byte| byte.is_ascii_digit())
    };
    if !digits(hours, &[1, 2]) || !digits(minutes, &[2]) {
        return Err(LocalTimeError::TimeOfDay);
    }
    let hours: u32 = hours.parse().map_err(|_| LocalTimeError::TimeOfDay)?;
    let minutes: u32 = minutes.parse().map_err(|_| LocalTimeError::TimeOfDay)?;
    NaiveTime::from_hms_opt(hours, minutes, 0).ok_or(LocalTimeError::TimeOfDay)
}

/// `HH:MM`, as the API answers it.
#[must_use]
pub fn format_time_of_day(time: NaiveTime) -> String {
    time.format("%H:%M").to_string()
}

/// Reads an IANA zone name; empty means UTC.
///
/// # Errors
/// [`LocalTimeError::Zone`] for a name the tz database does not know.
pub fn parse_zone(value: &str) -> Result<Tz, LocalTimeError> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(Tz::UTC);
    }
    value
        .parse()
        .map_err(|_| LocalTimeError::Zone(value.chars().take(64).collect()))
}

/// The instant the wall clock of `zone` shows `time` on `date` (gap and fold rules above).
#[must_use]
pub fn resolve_local(date: NaiveDate, time: NaiveTime, zone: Tz) -> DateTime<Utc> {
    let wall = date.and_time(time);
    match zone.from_local_datetime(&wall) {
        LocalResult::Single(at) | LocalResult::Ambiguous(at, _) => at.with_timezone(&Utc),
        LocalResult::None => {
            // In a gap: read the wall time with the offset in force just before the gap, which
            // lands as far past the gap's end as the wall time was past its start. Gaps are
            // at most a few hours, so three hours earlier is before it.
            let before = wall - Duration::hours(3);
            let offset = zone
                .from_local_datetime(&before)
                .earliest()
                .map_or(0, |at| at.offset().fix().local_minus_utc());
            (wall - Duration::seconds(i64::from(offset))).and_utc()
        }
    }
}

/// How often something recurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recurrence {
    /// Every day.
    Daily,
    /// Every week on this weekday.
    Weekly(Weekday),
    /// Every month on this day (1-31); in a shorter month, on its last day.
    Monthly(u32),
}

fn days_in_month(year: i32, month: u32) -> u32 {
    let (next_year, next_month) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    NaiveDate::from_ymd_opt(next_year, next_month, 1)
        .and_then(|first| first.pred_opt())
        .map_or(28, |last| last.day())
}

impl Recurrence {
    /// Whether `date` is one of its days.
    #[must_use]
    pub fn falls_on(self, date: NaiveDate) -> bool {
        match self {
            Self::Daily => true,
            Self::Weekly(weekday) => date.weekday() == weekday,
            Self::Monthly(day) => date.day() == day.min(days_in_month(date.year(), date.month())),
        }
    }

    /// The first time after `after` that the wall clock of `zone` shows `time` on one of its
    /// days. A time that was missed (the process was down) is not made up: the answer is
    /// always in the future of `after`.
    #[must_use]
    pub fn next_after(self, time: NaiveTime, zone: Tz, after: DateTime<Utc>) -> DateTime<Utc> {
        // A gap can move an occurrence a few hours later, so start one day back.
        let mut date = after.with_timezone(&zone).date_naive() - Duration::days(1);
        // Every recurrence has a day in any 32 consecutive days; a year is plenty.
        for _ in 0..400 {
            if self.falls_on(date) {
                let at = resolve_local(date, time, zone);
                if at > after {
                    return at;
                }
            }
            date = date.succ_opt().unwrap_or(date);
        }
        after + Duration::days(1)
    }
}

/// A daily time window (`start` inclusive, `end` exclusive), possibly crossing midnight, on the
/// wall clock of its zone (so 01:00–06:00 stays 01:00–06:00 local across DST changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyWindow {
    start: NaiveTime,
    end: NaiveTime,
    zone: Tz,
}

impl DailyWindow {
    /// A window from `start` to `end` in `zone`.
    ///
    /// # Errors
    /// [`LocalTimeError::EmptyWindow`] when the bounds are equal.
    pub fn new(start: NaiveTime, end: NaiveTime, zone: Tz) -> Result<Self, LocalTimeError> {
        if start == end {
            return Err(LocalTimeError::EmptyWindow);
        }
        Ok(Self { start, end, zone })
    }

    /// Whether `at` falls inside the window.
    #[must_use]
    pub fn contains(&self, at: DateTime<Utc>) -> bool {
        let local = at.with_timezone(&self.zone).time();
        if self.start < self.end {
            self.start <= local && local < self.end
        } else {
            local >= self.start || local < self.end
        }
    }

    /// The first instant at or after `at` inside the window: `at` itself when the window is
    /// open, otherwise its next opening (what a queue's forecast needs for work that waits
    /// for the window).
    #[must_use]
    pub fn next_opening(&self, at: DateTime<Utc>) -> DateTime<Utc> {
        if self.contains(at) {
            at
        } else {
            Recurrence::Daily.next_after(self.start, self.zone, at)
        }
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

    fn hm(s: &str) -> NaiveTime {
        parse_time_of_day(s).unwrap_or_else(|error| panic!("{s}: {error}"))
    }

    fn zone(name: &str) -> Tz {
        parse_zone(name).unwrap_or_else(|error| panic!("{name}: {error}"))
    }

    #[test]
    fn times_of_day_are_24_hour_hh_mm_only() {
        assert_eq!(
            hm("09:00"),
            NaiveTime::from_hms_opt(9, 0, 0).unwrap_or_default()
        );
        assert_eq!(
            hm("9:05"),
            NaiveTime::from_hms_opt(9, 5, 0).unwrap_or_default()
        );
        assert_eq!(
            hm("23:59"),
            NaiveTime::from_hms_opt(23, 59, 0).unwrap_or_default()
        );
        for bad in [
            "24:00",
            "12:60",
            "9:5",
            "09:00:00",
            " 09:00",
            "0900",
            "",
            "ab:cd",
            "-1:00",
            "+9:00",
            "１２:00",
        ] {
            assert_eq!(
                parse_time_of_day(bad),
                Err(LocalTimeError::TimeOfDay),
                "{bad:?}"
            );
        }
        assert_eq!(LocalTimeError::TimeOfDay.to_string(), "Invalid time format");
    }

    #[test]
    fn zones_are_iana_names_and_empty_is_utc() {
        assert_eq!(parse_zone("").ok(), Some(Tz::UTC));
        assert_eq!(parse_zone("Europe/Berlin").ok(), Some(Tz::Europe__Berlin));
        assert!(matches!(
            parse_zone("Mars/Olympus"),
            Err(LocalTimeError::Zone(_))
        ));
    }

    #[test]
    fn daily_runs_at_the_next_wall_time_in_its_zone() {
        let berlin = zone("Europe/Berlin");
        // 08:00 UTC is 09:00 in Berlin in winter: 09:00 has just passed, so tomorrow.
        assert_eq!(
            Recurrence::Daily.next_after(hm("09:00"), berlin, utc("2026-01-15T08:00:00Z")),
            utc("2026-01-16T08:00:00Z")
        );
        assert_eq!(
            Recurrence::Daily.next_after(hm("09:00"), berlin, utc("2026-01-15T07:59:00Z")),
            utc("2026-01-15T08:00:00Z")
        );
    }

    #[test]
    fn daily_keeps_its_wall_time_across_both_dst_changes() {
        let berlin = zone("Europe/Berlin");
        // Spring forward on 2026-03-29: 09:00 CET (08:00Z) before, 09:00 CEST (07:00Z) after.
        let before = Recurrence::Daily.next_after(hm("09:00"), berlin, utc("2026-03-28T09:00:00Z"));
        assert_eq!(before, utc("2026-03-29T07:00:00Z"));
        // Fall back on 2026-10-25.
        let after = Recurrence::Daily.next_after(hm("09:00"), berlin, utc("2026-10-24T08:00:00Z"));
        assert_eq!(after, utc("2026-10-25T08:00:00Z"));
        let new_york = zone("America/New_York");
        // Spring forward on 2026-03-08: 09:00 EST is 14:00Z, 09:00 EDT is 13:00Z.
        assert_eq!(
            Recurrence::Daily.next_after(hm("09:00"), new_york, utc("2026-03-07T15:00:00Z")),
            utc("2026-03-08T13:00:00Z")
        );
        // Fall back on 2026-11-01.
        assert_eq!(
            Recurrence::Daily.next_after(hm("09:00"), new_york, utc("2026-10-31T14:00:00Z")),
            utc("2026-11-01T14:00:00Z")
        );
    }

    #[test]
    fn a_wall_time_in_the_gap_moves_forward_and_one_in_the_fold_is_the_first() {
        let berlin = zone("Europe/Berlin");
        // 02:30 does not exist on 2026-03-29 in Berlin: it becomes 03:30 CEST (01:30Z).
        assert_eq!(
            Recurrence::Daily.next_after(hm("02:30"), berlin, utc("2026-03-28T12:00:00Z")),
            utc("2026-03-29T01:30:00Z")
        );
        // The next day it is 02:30 CEST again.
        assert_eq!(
            Recurrence::Daily.next_after(hm("02:30"), berlin, utc("2026-03-29T02:00:00Z")),
            utc("2026-03-30T00:30:00Z")
        );
        // 02:30 happens twice on 2026-10-25: the first (CEST, 00:30Z), and only once.
        let fold = Recurrence::Daily.next_after(hm("02:30"), berlin, utc("2026-10-24T12:00:00Z"));
        assert_eq!(fold, utc("2026-10-25T00:30:00Z"));
        assert_eq!(
            Recurrence::Daily.next_after(hm("02:30"), berlin, fold),
            utc("2026-10-26T01:30:00Z")
        );
        let new_york = zone("America/New_York");
        assert_eq!(
            Recurrence::Daily.next_after(hm("02:15"), new_york, utc("2026-03-07T12:00:00Z")),
            utc("2026-03-08T07:15:00Z"),
            "02:15 is in New York's gap: 03:15 EDT"
        );
    }

    #[test]
    fn weekly_runs_on_its_weekday() {
        let new_york = zone("America/New_York");
        // 2026-11-23 is a Monday; a Wednesday schedule at 18:30.
        let next = Recurrence::Weekly(Weekday::Wed).next_after(
            hm("18:30"),
            new_york,
            utc("2026-11-23T12:00:00Z"),
        );
        assert_eq!(next, utc("2026-11-25T23:30:00Z"));
        assert_eq!(
            Recurrence::Weekly(Weekday::Wed).next_after(hm("18:30"), new_york, next),
            utc("2026-12-02T23:30:00Z")
        );
        // Across the fall-back change: Sunday 2026-10-25 (EDT) then Sunday 2026-11-01 (EST).
        let sunday = Recurrence::Weekly(Weekday::Sun);
        let first = sunday.next_after(hm("09:00"), new_york, utc("2026-10-24T00:00:00Z"));
        assert_eq!(first, utc("2026-10-25T13:00:00Z"));
        assert_eq!(
            sunday.next_after(hm("09:00"), new_york, first),
            utc("2026-11-01T14:00:00Z")
        );
    }

    #[test]
    fn monthly_on_the_31st_runs_on_the_last_day_of_shorter_months() {
        let utc_zone = Tz::UTC;
        let monthly = Recurrence::Monthly(31);
        let mut at = utc("2026-01-01T00:00:00Z");
        let mut runs = Vec::new();
        for _ in 0..6 {
            at = monthly.next_after(hm("09:00"), utc_zone, at);
            runs.push(at);
        }
        assert_eq!(
            runs,
            [
                utc("2026-01-31T09:00:00Z"),
                utc("2026-02-28T09:00:00Z"),
                utc("2026-03-31T09:00:00Z"),
                utc("2026-04-30T09:00:00Z"),
                utc("2026-05-31T09:00:00Z"),
                utc("2026-06-30T09:00:00Z"),
            ]
        );
        // A leap year's February.
        assert_eq!(
            Recurrence::Monthly(30).next_after(hm("09:00"), utc_zone, utc("2028-02-01T00:00:00Z")),
            utc("2028-02-29T09:00:00Z")
        );
        // The 29th in a non-leap February is the 28th, and March goes back to the 29th.
        let feb =
            Recurrence::Monthly(29).next_after(hm("09:00"), utc_zone, utc("2026-02-01T00:00:00Z"));
        assert_eq!(feb, utc("2026-02-28T09:00:00Z"));
        assert_eq!(
            Recurrence::Monthly(29).next_after(hm("09:00"), utc_zone, feb),
            utc("2026-03-29T09:00:00Z")
        );
    }

    #[test]
    fn monthly_across_dst_in_berlin() {
        let berlin = zone("Europe/Berlin");
        let monthly = Recurrence::Monthly(15);
        let march = monthly.next_after(hm("09:00"), berlin, utc("2026-03-01T00:00:00Z"));
        assert_eq!(march, utc("2026-03-15T08:00:00Z"), "CET");
        assert_eq!(
            monthly.next_after(hm("09:00"), berlin, march),
            utc("2026-04-15T07:00:00Z"),
            "CEST"
        );
    }

    #[test]
    fn missed_runs_collapse_to_the_next_future_one() {
        // Down for ten days: the next run is the first after now, not ten catch-ups.
        let now = utc("2026-05-11T10:00:00Z");
        assert_eq!(
            Recurrence::Daily.next_after(hm("09:00"), Tz::UTC, now),
            utc("2026-05-12T09:00:00Z")
        );
    }

    #[test]
    fn overnight_window_in_the_users_zone() {
        let window = DailyWindow::new(hm("01:00"), hm("06:00"), zone("Europe/Paris"))
            .unwrap_or_else(|error| panic!("{error}"));
        assert!(
            window.contains(utc("2026-01-15T00:30:00Z")),
            "01:30 in Paris (winter)"
        );
        assert!(
            !window.contains(utc("2026-01-15T05:30:00Z")),
            "06:30 in Paris"
        );
        assert!(
            window.contains(utc("2026-07-15T23:30:00Z")),
            "01:30 in Paris (summer)"
        );
        let crossing = DailyWindow::new(hm("22:00"), hm("02:00"), Tz::UTC)
            .unwrap_or_else(|error| panic!("{error}"));
        assert!(crossing.contains(utc("2026-01-15T23:00:00Z")));
        assert!(crossing.contains(utc("2026-01-15T01:00:00Z")));
        assert!(!crossing.contains(utc("2026-01-15T12:00:00Z")));
        assert_eq!(
            DailyWindow::new(hm("01:00"), hm("01:00"), Tz::UTC),
            Err(LocalTimeError::EmptyWindow)
        );
    }

    #[test]
    fn a_window_opens_now_when_open_else_at_its_next_start_in_its_zone() {
        let window = DailyWindow::new(hm("01:00"), hm("06:00"), zone("Europe/Paris"))
            .unwrap_or_else(|error| panic!("{error}"));
        let inside = utc("2026-01-15T02:00:00Z");
        assert_eq!(window.next_opening(inside), inside);
        assert_eq!(
            window.next_opening(utc("2026-01-15T12:00:00Z")),
            utc("2026-01-16T00:00:00Z"),
            "01:00 in Paris is midnight UTC in winter"
        );
        assert_eq!(
            window.next_opening(utc("2026-07-15T12:00:00Z")),
            utc("2026-07-15T23:00:00Z"),
            "and 23:00 UTC the day before in summer"
        );
    }
}
