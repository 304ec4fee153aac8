//! `videos.list`: videos by id (a `chart` lists nothing; `myRating` needs authorisation).

use serde_json::{Map, Value, json};

use super::{description, is_listed_publicly, pretty, video_counts, video_thumbnails, with_etag};
use crate::youtube::api::Answer;
use crate::youtube::errors::authorization_required;
use crate::youtube::ids;
use crate::youtube::model::{FakeVideo, Visibility};
use crate::youtube::params::{Params, id_list, one_filter, parts, wants};
use crate::youtube::state::{State, VideoRecord};

const VIDEO_PARTS: &[&str] = &[
    "contentDetails",
    "fileDetails",
    "id",
    "liveStreamingDetails",
    "localizations",
    "paidProductPlacementDetails",
    "player",
    "processingDetails",
    "recordingDetails",
    "snippet",
    "statistics",
    "status",
    "suggestions",
    "topicDetails",
];

pub(crate) fn list(state: &State, params: &Params<'_>) -> Answer {
    let parts = parts(params, VIDEO_PARTS)?;
    let filter = one_filter(params, &["chart", "id", "myRating"], "chart, id, myRating")?;
    let found: Vec<&VideoRecord> = match filter {
        "id" => id_list(params.get("id").unwrap_or_default())?
            .iter()
            .filter_map(|id| state.videos.get(id))
            .filter(|record| is_listed_publicly(&record.video))
            .collect(),
        "myRating" => return Err(authorization_required("myRating")),
        // Charts (most popular) are not modelled: nothing is popular here.
        _ => Vec::new(),
    };
    let items: Vec<Value> = found
        .iter()
        .map(|record| video_item(state, record, &parts))
        .collect();
    let mut body = Map::new();
    body.insert("kind".into(), json!("youtube#videoListResponse"));
    body.insert(
        "pageInfo".into(),
        json!({ "totalResults": items.len(), "resultsPerPage": items.len() }),
    );
    body.insert("items".into(), Value::Array(items));
    Ok(pretty(with_etag(body), params))
}

fn video_item(state: &State, record: &VideoRecord, parts: &[String]) -> Value {
    let video = &record.video;
    let mut item = Map::new();
    item.insert("kind".into(), json!("youtube#video"));
    item.insert("id".into(), json!(video.id));
    let broadcast = broadcast_of(video);
    if wants(parts, "snippet") {
        item.insert("snippet".into(), snippet(state, record, broadcast));
    }
    if wants(parts, "contentDetails") {
        item.insert(
            "contentDetails".into(),
            json!({
                "duration": video.duration,
                "dimension": "2d",
                "definition": "hd",
                "caption": "false",
                "licensedContent": false,
                "contentRating": {},
                "projection": "rectangular",
            }),
        );
    }
    if wants(parts, "status") {
        item.insert("status".into(), status(broadcast));
    }
    if wants(parts, "statistics") {
        let (views, likes, comments) = video_counts(video);
        item.insert(
            "statistics".into(),
            json!({
                "viewCount": views.to_string(),
                "likeCount": likes.to_string(),
                "favoriteCount": "0",
                "commentCount": comments.to_string(),
            }),
        );
    }
    if wants(parts, "liveStreamingDetails")
        && let Some(details) = live_streaming_details(video)
    {
        item.insert("liveStreamingDetails".into(), details);
    }
    with_etag(item)
}

/// `liveBroadcastContent`: what the API says of a video that is or will be live.
fn broadcast_of(video: &FakeVideo) -> &'static str {
    match video.visibility {
        Visibility::Upcoming => "upcoming",
        Visibility::Live => "live",
        _ => "none",
    }
}

fn snippet(state: &State, record: &VideoRecord, broadcast: &str) -> Value {
    let video = &record.video;
    let description = description(video);
    json!({
        "publishedAt": video.published_at,
        "channelId": record.owner,
        "title": video.title,
        "description": description,
        "thumbnails": video_thumbnails(&video.id),
        "channelTitle": state.channel_title(&record.owner),
        "categoryId": "22",
        "liveBroadcastContent": broadcast,
        "localized": { "title": video.title, "description": description },
    })
}

fn status(broadcast: &str) -> Value {
    let upload = if broadcast == "none" {
        "processed"
    } else {
        "uploaded"
    };
    json!({
        "uploadStatus": upload,
        "privacyStatus": "public",
        "license": "youtube",
        "embeddable": true,
        "publicStatsViewable": true,
        "madeForKids": false,
    })
}

/// Only upcoming and live videos have `liveStreamingDetails`.
fn live_streaming_details(video: &FakeVideo) -> Option<Value> {
    match video.visibility {
        Visibility::Upcoming => Some(json!({ "scheduledStartTime": video.published_at })),
        Visibility::Live => {
            let chat = ids::base64_url(format!("live-chat/{}", video.id).as_bytes());
            Some(json!({
                "actualStartTime": video.published_at,
                "scheduledStartTime": video.published_at,
                "concurrentViewers": (100 + ids::hash_str(&video.id) % 900).to_string(),
                "activeLiveChatId": chat,
            }))
        }
        _ => None,
    }
}
