//! What a test puts into the fake: channels, playlists, videos.

use chrono::{DateTime, Duration as Days, Utc};

use super::ids;

/// Who may see a video, and whether it is a finished upload or a broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Visibility {
    /// An ordinary public upload.
    Public,
    /// Private: listed in playlists as "Private video", omitted by `videos.list`.
    Private,
    /// Deleted: listed in playlists as "Deleted video", omitted by `videos.list`.
    Deleted,
    /// A scheduled premiere or live stream that has not started (`liveBroadcastContent`
    /// `upcoming`, duration `P0D`).
    Upcoming,
    /// A live stream that is on air now (`liveBroadcastContent` `live`, duration `P0D`).
    Live,
}

/// A video as the fake serves it.
#[derive(Debug, Clone)]
pub struct FakeVideo {
    /// 11 characters of `[0-9A-Za-z_-]`.
    pub id: String,
    /// The title (empty for private and deleted videos, whose real title the API hides).
    pub title: String,
    /// RFC 3339, e.g. `2026-11-01T12:00:00Z`; for upcoming and live videos, the scheduled or
    /// actual start. Empty for private and deleted videos made with their constructors.
    pub published_at: String,
    /// ISO-8601, e.g. `PT1H2M3S`; `P0D` for upcoming and live videos.
    pub duration: String,
    /// Who may see it.
    pub visibility: Visibility,
}

impl FakeVideo {
    /// A public upload.
    #[must_use]
    pub fn public(id: &str, title: &str, published_at: &str, duration: &str) -> Self {
        Self {
            id: id.to_string(),
            title: title.to_string(),
            published_at: published_at.to_string(),
            duration: duration.to_string(),
            visibility: Visibility::Public,
        }
    }

    /// A private video.
    #[must_use]
    pub fn private(id: &str) -> Self {
        Self {
            id: id.to_string(),
            title: String::new(),
            published_at: String::new(),
            duration: String::new(),
            visibility: Visibility::Private,
        }
    }

    /// A deleted video.
    #[must_use]
    pub fn deleted(id: &str) -> Self {
        Self {
            visibility: Visibility::Deleted,
            ..Self::private(id)
        }
    }

    /// A scheduled broadcast or premiere starting at `published_at` (duration `P0D`).
    #[must_use]
    pub fn upcoming(id: &str, title: &str, published_at: &str) -> Self {
        Self {
            visibility: Visibility::Upcoming,
            ..Self::public(id, title, published_at, "P0D")
        }
    }

    /// A live stream on air since `started_at` (duration `P0D`).
    #[must_use]
    pub fn live(id: &str, title: &str, started_at: &str) -> Self {
        Self {
            visibility: Visibility::Live,
            ..Self::public(id, title, started_at, "P0D")
        }
    }
}

/// A channel as the fake serves it.
#[derive(Debug, Clone)]
pub struct FakeChannel {
    /// `UC` + 22 characters of `[0-9A-Za-z_-]`.
    pub id: String,
    /// The channel's title.
    pub title: String,
    /// The handle, `@name`; served lowercase as `snippet.customUrl` and found by `forHandle`.
    pub handle: Option<String>,
    /// The legacy `/user/` name, found by `forUsername`.
    pub username: Option<String>,
    /// The legacy `/c/` name: not resolvable by `forHandle` or `forUsername`, only by search.
    pub custom_name: Option<String>,
    /// The exact count; served rounded down to three significant figures, like the real API.
    pub subscriber_count: u64,
    /// Whether the count is hidden (then `statistics.subscriberCount` is omitted).
    pub hidden_subscriber_count: bool,
    /// The uploads, newest first.
    pub videos: Vec<FakeVideo>,
}

/// When the newest generated video was published.
const NEWEST_GENERATED: &str = "2026-11-01T12:00:00Z";

impl FakeChannel {
    /// A channel without handle, username, subscribers or videos.
    #[must_use]
    pub fn new(id: &str, title: &str) -> Self {
        Self {
            id: id.to_string(),
            title: title.to_string(),
            handle: None,
            username: None,
            custom_name: None,
            subscriber_count: 0,
            hidden_subscriber_count: false,
            videos: Vec::new(),
        }
    }

    /// A channel with `n` deterministic public videos, newest first: ids derived from the
    /// channel id and the index (unique across channels), titles `"{title} episode {k}"` (k = n
    /// for the newest … 1 for the oldest), published one day apart ending
    /// 2026-11-01T12:00:00Z, durations varied (every tenth at least an hour, every tenth under a
    /// minute, one in fifty over a day).
    #[must_use]
    pub fn generated(id: &str, title: &str, n: usize) -> Self {
        let newest: DateTime<Utc> = NEWEST_GENERATED
            .parse()
            .unwrap_or(DateTime::<Utc>::UNIX_EPOCH);
        let videos = (1..=n)
            .rev()
            .map(|k| {
                let age = i64::try_from(n - k).unwrap_or(i64::MAX);
                let published = newest - Days::days(age);
                FakeVideo::public(
                    &ids::generated_video_id(id, k as u64),
                    &format!("{title} episode {k}"),
                    &published.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                    &iso_duration(generated_seconds(k as u64)),
                )
            })
            .collect();
        Self {
            subscriber_count: 1_000 + ids::hash_str(id) % 2_000_000,
            videos,
            ..Self::new(id, title)
        }
    }

    /// Sets the handle (`@name`; a missing `@` is added).
    #[must_use]
    pub fn with_handle(mut self, handle: &str) -> Self {
        self.handle = Some(if handle.starts_with('@') {
            handle.to_string()
        } else {
            format!("@{handle}")
        });
        self
    }

    /// Sets the legacy username.
    #[must_use]
    pub fn with_username(mut self, username: &str) -> Self {
        self.username = Some(username.to_string());
        self
    }

    /// Sets the legacy custom name.
    #[must_use]
    pub fn with_custom_name(mut self, custom_name: &str) -> Self {
        self.custom_name = Some(custom_name.to_string());
        self
    }

    /// Sets the subscriber count.
    #[must_use]
    pub fn with_subscribers(mut self, count: u64, hidden: bool) -> Self {
        self.subscriber_count = count;
        self.hidden_subscriber_count = hidden;
        self
    }
}

/// A playlist other than a channel's uploads.
#[derive(Debug, Clone)]
pub struct FakePlaylist {
    /// `PL…`.
    pub id: String,
    /// The channel that owns the playlist.
    pub channel_id: String,
    /// The playlist's title.
    pub title: String,
    /// The entries, in playlist order.
    pub videos: Vec<FakeVideo>,
}

impl FakePlaylist {
    /// A playlist of `videos` owned by `channel_id`.
    #[must_use]
    pub fn new(id: &str, channel_id: &str, title: &str, videos: Vec<FakeVideo>) -> Self {
        Self {
            id: id.to_string(),
            channel_id: channel_id.to_string(),
            title: title.to_string(),
            videos,
        }
    }
}

/// The duration of the `k`th generated video, in seconds.
fn generated_seconds(k: u64) -> u64 {
    if k % 50 == 25 {
        return 86_400 + 7_200 + k; // a day-long stream: P1DT2H…
    }
    match k % 10 {
        0 => 3_600 + (k * 53) % 5_400,
        3 => 15 + k % 45,
        _ => 240 + (k * 97) % 1_500,
    }
}

/// `seconds` as YouTube spells durations: `PT4M5S`, `PT1H2M3S`, `PT45S`, `P1DT2H`, `P0D`.
#[must_use]
pub fn iso_duration(seconds: u64) -> String {
    if seconds == 0 {
        return "P0D".to_string();
    }
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (hours, minutes, secs) = (rest / 3_600, rest % 3_600 / 60, rest % 60);
    let mut out = String::from("P");
    if days > 0 {
        out.push_str(&format!("{days}D"));
    }
    if rest > 0 {
        out.push('T');
        for (value, unit) in [(hours, 'H'), (minutes, 'M'), (secs, 'S')] {
            if value > 0 {
                out.push_str(&format!("{value}{unit}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_spelled_like_youtube() {
        assert_eq!(iso_duration(0), "P0D");
        assert_eq!(iso_duration(45), "PT45S");
        assert_eq!(iso_duration(245), "PT4M5S");
        assert_eq!(iso_duration(3_723), "PT1H2M3S");
        assert_eq!(iso_duration(3_603), "PT1H3S");
        assert_eq!(iso_duration(93_600), "P1DT2H");
        assert_eq!(iso_duration(86_400), "P1D");
    }
}
