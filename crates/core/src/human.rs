//! Quantities as people write them in messages.

/// `12 h`, `1 h 30 min`, `45 min`, `30 s`.
#[must_use]
pub fn human_duration(seconds: u64) -> String {
    let (hours, minutes) = (seconds / 3600, seconds % 3600 / 60);
    match (hours, minutes) {
        (0, 0) => format!("{seconds} s"),
        (0, minutes) => format!("{minutes} min"),
        (hours, 0) => format!("{hours} h"),
        (hours, minutes) => format!("{hours} h {minutes} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(human_duration(43_200), "12 h");
        assert_eq!(human_duration(5_400), "1 h 30 min");
        assert_eq!(human_duration(2_700), "45 min");
        assert_eq!(human_duration(30), "30 s");
    }
}
