//! `playlists.list`: playlists by id or by owning channel (`mine` needs authorisation).

use serde_json::{Map, Value, json};

use super::{is_listed_publicly, pretty, stable_date, thumbnail, video_thumbnails, with_etag};
use crate::youtube::api::Answer;
use crate::youtube::errors::{authorization_required, invalid_page_token};
use crate::youtube::ids;
use crate::youtube::params::{Params, id_list, max_results, one_filter, page, parts, wants};
use crate::youtube::state::{Listing, State, listing};

const PLAYLIST_PARTS: &[&str] = &[
    "contentDetails",
    "id",
    "localizations",
    "player",
    "snippet",
    "status",
];

pub(crate) fn list(state: &State, params: &Params<'_>) -> Answer {
    let parts = parts(params, PLAYLIST_PARTS)?;
    let filter = one_filter(params, &["channelId", "id", "mine"], "channelId, id, mine")?;
    let per_page = max_results(params, 5)?;
    let value = params.get(filter).unwrap_or_default();
    let (found, paged): (Vec<Listing<'_>>, bool) = match filter {
        "id" => (
            id_list(value)?
                .iter()
                .filter_map(|id| listing(state, id))
                .collect(),
            false,
        ),
        "channelId" => (
            state
                .playlists
                .iter()
                .filter(|p| p.channel_id == value.trim())
                .filter_map(|p| listing(state, &p.id))
                .collect(),
            true,
        ),
        _ => return Err(authorization_required("mine")),
    };
    let offset = match params.get("pageToken").filter(|t| !t.is_empty()) {
        Some(token) => ids::parse_list_token(token).ok_or_else(invalid_page_token)?,
        None => 0,
    };
    let page = if paged {
        page(found.len(), offset, per_page)
    } else {
        page(found.len(), 0, found.len())
    };
    let items: Vec<Value> = found[page.range.clone()]
        .iter()
        .map(|listing| playlist_resource(state, listing, &parts))
        .collect();
    let mut body = Map::new();
    body.insert("kind".into(), json!("youtube#playlistListResponse"));
    page.insert_tokens(&mut body, ids::list_token);
    body.insert(
        "pageInfo".into(),
        json!({ "totalResults": found.len(), "resultsPerPage": per_page }),
    );
    if !items.is_empty() {
        body.insert("items".into(), Value::Array(items));
    }
    Ok(pretty(with_etag(body), params))
}

fn playlist_resource(state: &State, listing: &Listing<'_>, parts: &[String]) -> Value {
    let mut item = Map::new();
    item.insert("kind".into(), json!("youtube#playlist"));
    item.insert("id".into(), json!(listing.id));
    if wants(parts, "snippet") {
        let first_public = listing
            .entries
            .iter()
            .filter_map(|id| state.videos.get(id))
            .find(|record| is_listed_publicly(&record.video));
        let thumbnails = match first_public {
            Some(record) => video_thumbnails(&record.video.id),
            None => json!({
                "default": thumbnail("https://i.ytimg.com/img/no_thumbnail.jpg".into(), 120, 90),
                "medium": thumbnail("https://i.ytimg.com/img/no_thumbnail.jpg".into(), 320, 180),
                "high": thumbnail("https://i.ytimg.com/img/no_thumbnail.jpg".into(), 480, 360),
            }),
        };
        item.insert(
            "snippet".into(),
            json!({
                "publishedAt": stable_date(&listing.id),
                "channelId": listing.channel_id,
                "title": listing.title,
                "description": "",
                "thumbnails": thumbnails,
                "channelTitle": state.channel_title(listing.channel_id),
                "localized": { "title": listing.title, "description": "" },
            }),
        );
    }
    if wants(parts, "contentDetails") {
        item.insert(
            "contentDetails".into(),
            json!({ "itemCount": listing.entries.len() }),
        );
    }
    if wants(parts, "status") {
        item.insert("status".into(), json!({ "privacyStatus": "public" }));
    }
    with_etag(item)
}
