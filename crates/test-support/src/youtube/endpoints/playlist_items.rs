//! `playlistItems.list`: a playlist's entries (uploads or explicit), by playlist or by item id.

use serde_json::{Map, Value, json};

use super::{description, is_listed_publicly, pretty, stable_date, video_thumbnails, with_etag};
use crate::youtube::api::Answer;
use crate::youtube::errors::{invalid_page_token, playlist_not_found};
use crate::youtube::ids;
use crate::youtube::model::{FakeVideo, Visibility};
use crate::youtube::params::{Params, id_list, max_results, one_filter, page, parts, wants};
use crate::youtube::state::{Listing, State, listing};

const PLAYLIST_ITEM_PARTS: &[&str] = &["contentDetails", "id", "snippet", "status"];

pub(crate) fn list(state: &State, params: &Params<'_>) -> Answer {
    let parts = parts(params, PLAYLIST_ITEM_PARTS)?;
    let filter = one_filter(params, &["id", "playlistId"], "id, playlistId")?;
    let per_page = max_results(params, 5)?;
    let offset = match params.get("pageToken").filter(|t| !t.is_empty()) {
        Some(token) => ids::parse_list_token(token).ok_or_else(invalid_page_token)?,
        None => 0,
    };
    let value = params.get(filter).unwrap_or_default();
    // Every entry of the playlist (or, for `id`, every wanted entry of every playlist).
    let mut entries: Vec<(Listing<'_>, usize)> = Vec::new();
    if filter == "playlistId" {
        let listing = listing(state, value.trim()).ok_or_else(playlist_not_found)?;
        // An uploads playlist with nothing in it does not exist, as on YouTube.
        if listing.uploads && listing.entries.is_empty() {
            return Err(playlist_not_found());
        }
        for position in 0..listing.entries.len() {
            entries.push((listing.clone(), position));
        }
    } else {
        for wanted in id_list(value)? {
            if let Some(found) = find_item(state, &wanted) {
                entries.push(found);
            }
        }
    }
    let page = page(entries.len(), offset, per_page);
    let items: Vec<Value> = entries[page.range.clone()]
        .iter()
        .map(|(listing, position)| playlist_item(state, listing, *position, &parts))
        .collect();
    let mut body = Map::new();
    body.insert("kind".into(), json!("youtube#playlistItemListResponse"));
    page.insert_tokens(&mut body, ids::list_token);
    body.insert("items".into(), Value::Array(items));
    body.insert(
        "pageInfo".into(),
        json!({ "totalResults": entries.len(), "resultsPerPage": per_page }),
    );
    Ok(pretty(with_etag(body), params))
}

/// The playlist item id of an entry: base64 of `playlistId.videoId` for uploads, of
/// `playlistId.<16 hex digits>` for other playlists.
fn item_id(listing: &Listing<'_>, position: usize) -> String {
    let video_id = &listing.entries[position];
    let suffix = if listing.uploads {
        video_id.clone()
    } else {
        format!(
            "{:016X}",
            ids::hash_str(&format!("{}/{video_id}/{position}", listing.id))
        )
    };
    ids::base64_standard(format!("{}.{suffix}", listing.id).as_bytes())
}

fn find_item<'a>(state: &'a State, item: &str) -> Option<(Listing<'a>, usize)> {
    let uploads = state.channels.iter().map(|c| {
        let id = format!("UU{}", c.channel.id.get(2..).unwrap_or_default());
        listing(state, &id)
    });
    let explicit = state.playlists.iter().map(|p| listing(state, &p.id));
    for listing in uploads.chain(explicit).flatten() {
        if let Some(position) =
            (0..listing.entries.len()).find(|&position| item_id(&listing, position) == item)
        {
            return Some((listing, position));
        }
    }
    None
}

fn playlist_item(state: &State, listing: &Listing<'_>, position: usize, parts: &[String]) -> Value {
    let video_id = &listing.entries[position];
    let fallback;
    let (video, owner) = match state.videos.get(video_id) {
        Some(record) => (&record.video, record.owner.as_str()),
        None => {
            fallback = FakeVideo::deleted(video_id);
            (&fallback, "")
        }
    };
    let added = if video.published_at.is_empty() {
        stable_date(&format!("{}/{video_id}", listing.id))
    } else {
        video.published_at.clone()
    };
    let mut item = Map::new();
    item.insert("kind".into(), json!("youtube#playlistItem"));
    item.insert("id".into(), json!(item_id(listing, position)));
    if wants(parts, "snippet") {
        let mut snippet = Map::new();
        snippet.insert("publishedAt".into(), json!(added));
        snippet.insert("channelId".into(), json!(listing.channel_id));
        let (title, description, thumbnails) = match video.visibility {
            Visibility::Private => (
                "Private video".to_string(),
                "This video is private.".to_string(),
                json!({}),
            ),
            Visibility::Deleted => (
                "Deleted video".to_string(),
                "This video is unavailable.".to_string(),
                json!({}),
            ),
            _ => (
                video.title.clone(),
                description(video),
                video_thumbnails(&video.id),
            ),
        };
        snippet.insert("title".into(), json!(title));
        snippet.insert("description".into(), json!(description));
        snippet.insert("thumbnails".into(), thumbnails);
        snippet.insert(
            "channelTitle".into(),
            json!(state.channel_title(listing.channel_id)),
        );
        snippet.insert("playlistId".into(), json!(listing.id));
        snippet.insert("position".into(), json!(position));
        snippet.insert(
            "resourceId".into(),
            json!({ "kind": "youtube#video", "videoId": video.id }),
        );
        if is_listed_publicly(video) {
            snippet.insert(
                "videoOwnerChannelTitle".into(),
                json!(state.channel_title(owner)),
            );
            snippet.insert("videoOwnerChannelId".into(), json!(owner));
        }
        item.insert("snippet".into(), Value::Object(snippet));
    }
    if wants(parts, "contentDetails") {
        let mut details = Map::new();
        details.insert("videoId".into(), json!(video.id));
        if is_listed_publicly(video) {
            details.insert("videoPublishedAt".into(), json!(video.published_at));
        }
        item.insert("contentDetails".into(), Value::Object(details));
    }
    if wants(parts, "status") {
        let privacy = match video.visibility {
            Visibility::Private => "private",
            Visibility::Deleted => "privacyStatusUnspecified",
            _ => "public",
        };
        item.insert("status".into(), json!({ "privacyStatus": privacy }));
    }
    with_etag(item)
}
