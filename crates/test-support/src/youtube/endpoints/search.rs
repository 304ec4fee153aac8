//! `search.list`: channels only, whose title, handle or custom name matches `q`.

use serde_json::{Map, Value, json};

use super::{channel_thumbnail_url, pretty, stable_date, with_etag};
use crate::youtube::api::Answer;
use crate::youtube::errors::{invalid_page_token, youtube_error};
use crate::youtube::ids;
use crate::youtube::params::{Params, max_results, page, parts, wants};
use crate::youtube::state::{ChannelRecord, State};

pub(crate) fn list(state: &State, params: &Params<'_>) -> Answer {
    let parts = parts(params, &["id", "snippet"])?;
    let per_page = max_results(params, 5)?;
    let offset = match params.get("pageToken").filter(|t| !t.is_empty()) {
        Some(token) => ids::parse_search_token(token).ok_or_else(invalid_page_token)?,
        None => 0,
    };
    let types: Vec<&str> = params
        .get("type")
        .unwrap_or("channel,playlist,video")
        .split(',')
        .map(str::trim)
        .collect();
    if let Some(bad) = types
        .iter()
        .find(|t| !["channel", "playlist", "video"].contains(t))
    {
        return Err(youtube_error(
            400,
            &format!("Invalid value '{bad}'. Values must be one of: channel, playlist, video"),
            "global",
            "invalidParameter",
            Some(("type", "parameter")),
        ));
    }
    let query = params.get("q").unwrap_or_default().trim().to_lowercase();
    let matches: Vec<&ChannelRecord> = if types.contains(&"channel") {
        state
            .channels
            .iter()
            .filter(|record| {
                let channel = &record.channel;
                [
                    Some(channel.title.as_str()),
                    channel.handle.as_deref(),
                    channel.custom_name.as_deref(),
                ]
                .into_iter()
                .flatten()
                .any(|text| text.to_lowercase().contains(&query))
            })
            .collect()
    } else {
        Vec::new()
    };
    let page = page(matches.len(), offset, per_page);
    let items: Vec<Value> = matches[page.range.clone()]
        .iter()
        .map(|record| search_result(record, &parts))
        .collect();
    let mut body = Map::new();
    body.insert("kind".into(), json!("youtube#searchListResponse"));
    page.insert_tokens(&mut body, ids::search_token);
    body.insert("regionCode".into(), json!("US"));
    body.insert(
        "pageInfo".into(),
        json!({ "totalResults": matches.len(), "resultsPerPage": per_page }),
    );
    body.insert("items".into(), Value::Array(items));
    Ok(pretty(with_etag(body), params))
}

fn search_result(record: &ChannelRecord, parts: &[String]) -> Value {
    let channel = &record.channel;
    let mut item = Map::new();
    item.insert("kind".into(), json!("youtube#searchResult"));
    item.insert(
        "id".into(),
        json!({ "kind": "youtube#channel", "channelId": channel.id }),
    );
    if wants(parts, "snippet") {
        let published = stable_date(&channel.id);
        // Search results carry thumbnail URLs without sizes.
        item.insert(
            "snippet".into(),
            json!({
                "publishedAt": published,
                "channelId": channel.id,
                "title": channel.title,
                "description": format!("{} on the Scribevault fake of YouTube.", channel.title),
                "thumbnails": {
                    "default": { "url": channel_thumbnail_url(&channel.id, 88) },
                    "medium": { "url": channel_thumbnail_url(&channel.id, 240) },
                    "high": { "url": channel_thumbnail_url(&channel.id, 800) },
                },
                "channelTitle": channel.title,
                "liveBroadcastContent": "none",
                "publishTime": published,
            }),
        );
    }
    with_etag(item)
}
