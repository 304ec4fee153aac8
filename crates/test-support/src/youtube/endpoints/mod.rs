//! One module per list method, each rendering its resources as JSON by hand (not through
//! discovery's wire types, so the fake catches a client that drifts from the real API), and
//! the rendering the methods share.

pub(crate) mod channels;
pub(crate) mod playlist_items;
pub(crate) mod playlists;
pub(crate) mod search;
pub(crate) mod videos;

use serde_json::{Map, Value, json};

use super::api::{Body, Reply};
use super::ids;
use super::model::{FakeVideo, Visibility};
use super::params::Params;

/// Adds `etag`, derived from the rest of the object.
pub(crate) fn with_etag(mut object: Map<String, Value>) -> Value {
    let digest = ids::etag(&Value::Object(object.clone()).to_string());
    object.insert("etag".into(), json!(digest));
    Value::Object(object)
}

/// A 200 answer.
pub(crate) fn pretty(body: Value, params: &Params<'_>) -> Reply {
    Reply {
        status: 200,
        body: Body::Json(body),
        pretty: params.pretty(),
    }
}

pub(crate) fn thumbnail(url: String, width: u32, height: u32) -> Value {
    json!({ "url": url, "width": width, "height": height })
}

pub(crate) fn video_thumbnails(id: &str) -> Value {
    json!({
        "default": thumbnail(format!("https://i.ytimg.com/vi/{id}/default.jpg"), 120, 90),
        "medium": thumbnail(format!("https://i.ytimg.com/vi/{id}/mqdefault.jpg"), 320, 180),
        "high": thumbnail(format!("https://i.ytimg.com/vi/{id}/hqdefault.jpg"), 480, 360),
        "standard": thumbnail(format!("https://i.ytimg.com/vi/{id}/sddefault.jpg"), 640, 480),
        "maxres": thumbnail(format!("https://i.ytimg.com/vi/{id}/maxresdefault.jpg"), 1280, 720),
    })
}

pub(crate) fn channel_thumbnail_url(id: &str, size: u32) -> String {
    format!("https://yt3.ggpht.com/fake-{id}=s{size}-c-k-c0x00ffffff-no-rj")
}

pub(crate) fn channel_thumbnails(id: &str) -> Value {
    json!({
        "default": thumbnail(channel_thumbnail_url(id, 88), 88, 88),
        "medium": thumbnail(channel_thumbnail_url(id, 240), 240, 240),
        "high": thumbnail(channel_thumbnail_url(id, 800), 800, 800),
    })
}

/// A deterministic RFC 3339 date between 2010 and 2019 for things the tests do not date.
pub(crate) fn stable_date(seed: &str) -> String {
    let hash = ids::hash_str(seed);
    format!(
        "{}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        2010 + hash % 10,
        1 + (hash >> 8) % 12,
        1 + (hash >> 16) % 28,
        (hash >> 24) % 24,
        (hash >> 32) % 60,
        (hash >> 40) % 60
    )
}

pub(crate) fn description(video: &FakeVideo) -> String {
    format!(
        "{}\n\nServed by the Scribevault fake of the YouTube Data API.",
        video.title
    )
}

/// View, like and comment counts for a video (zero before it airs).
pub(crate) fn video_counts(video: &FakeVideo) -> (u64, u64, u64) {
    if video.visibility == Visibility::Upcoming {
        return (0, 0, 0);
    }
    let views = 1_000 + ids::hash_str(&video.id) % 500_000;
    (views, views / 40, views / 400)
}

pub(crate) fn is_listed_publicly(video: &FakeVideo) -> bool {
    matches!(
        video.visibility,
        Visibility::Public | Visibility::Upcoming | Visibility::Live
    )
}

/// Rounds down to three significant figures, as the API does for subscriber counts.
pub(crate) fn three_significant_figures(count: u64) -> u64 {
    let mut scale = 1;
    while count / scale >= 1_000 {
        scale *= 10;
    }
    count / scale * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscriber_counts_round_down_to_three_figures() {
        assert_eq!(three_significant_figures(0), 0);
        assert_eq!(three_significant_figures(999), 999);
        assert_eq!(three_significant_figures(1_234), 1_230);
        assert_eq!(three_significant_figures(1_239_999), 1_230_000);
    }
}
