//! `channels.list`: channels by id, handle or legacy username.

use serde_json::{Map, Value, json};

use super::{
    channel_thumbnails, is_listed_publicly, pretty, stable_date, three_significant_figures,
    video_counts, with_etag,
};
use crate::youtube::api::Answer;
use crate::youtube::errors::authorization_required;
use crate::youtube::model::FakeVideo;
use crate::youtube::params::{Params, id_list, one_filter, parts, wants};
use crate::youtube::state::{ChannelRecord, State};

const CHANNEL_PARTS: &[&str] = &[
    "auditDetails",
    "brandingSettings",
    "contentDetails",
    "contentOwnerDetails",
    "id",
    "localizations",
    "snippet",
    "statistics",
    "status",
    "topicDetails",
];

pub(crate) fn list(state: &State, params: &Params<'_>) -> Answer {
    let parts = parts(params, CHANNEL_PARTS)?;
    let filter = one_filter(
        params,
        &[
            "mySubscribers",
            "forUsername",
            "mine",
            "managedByMe",
            "forHandle",
            "categoryId",
            "id",
        ],
        "mySubscribers, forUsername, mine, managedByMe, forHandle, categoryId, id",
    )?;
    let value = params.get(filter).unwrap_or_default();
    let found: Vec<&ChannelRecord> = match filter {
        "id" => id_list(value)?
            .iter()
            .filter_map(|id| state.channel(id))
            .collect(),
        "forHandle" => {
            let wanted = value.trim().trim_start_matches('@').to_lowercase();
            state
                .channels
                .iter()
                .filter(|c| {
                    c.channel.handle.as_deref().is_some_and(|handle| {
                        handle.trim_start_matches('@').to_lowercase() == wanted
                    })
                })
                .take(1)
                .collect()
        }
        "forUsername" => state
            .channels
            .iter()
            .filter(|c| {
                c.channel
                    .username
                    .as_deref()
                    .is_some_and(|name| name.eq_ignore_ascii_case(value.trim()))
            })
            .take(1)
            .collect(),
        "categoryId" => Vec::new(),
        other => return Err(authorization_required(other)),
    };
    let items: Vec<Value> = found
        .iter()
        .map(|c| channel_item(state, c, &parts))
        .collect();
    let mut body = Map::new();
    body.insert("kind".into(), json!("youtube#channelListResponse"));
    body.insert(
        "pageInfo".into(),
        json!({ "totalResults": items.len(), "resultsPerPage": 5 }),
    );
    // The real API leaves `items` out when nothing matches.
    if !items.is_empty() {
        body.insert("items".into(), Value::Array(items));
    }
    Ok(pretty(with_etag(body), params))
}

fn channel_item(state: &State, record: &ChannelRecord, parts: &[String]) -> Value {
    let channel = &record.channel;
    let mut item = Map::new();
    item.insert("kind".into(), json!("youtube#channel"));
    item.insert("id".into(), json!(channel.id));
    if wants(parts, "snippet") {
        let description = format!("{} on the Scribevault fake of YouTube.", channel.title);
        let mut snippet = Map::new();
        snippet.insert("title".into(), json!(channel.title));
        snippet.insert("description".into(), json!(description));
        if let Some(handle) = &channel.handle {
            snippet.insert("customUrl".into(), json!(handle.to_lowercase()));
        }
        snippet.insert("publishedAt".into(), json!(stable_date(&channel.id)));
        snippet.insert("thumbnails".into(), channel_thumbnails(&channel.id));
        snippet.insert(
            "localized".into(),
            json!({ "title": channel.title, "description": description }),
        );
        item.insert("snippet".into(), Value::Object(snippet));
    }
    if wants(parts, "contentDetails") {
        let uploads = format!("UU{}", channel.id.get(2..).unwrap_or_default());
        item.insert(
            "contentDetails".into(),
            json!({ "relatedPlaylists": { "likes": "", "uploads": uploads } }),
        );
    }
    if wants(parts, "statistics") {
        let public: Vec<&FakeVideo> = record
            .uploads
            .iter()
            .filter_map(|id| state.videos.get(id))
            .map(|r| &r.video)
            .filter(|video| is_listed_publicly(video))
            .collect();
        let views: u64 = public.iter().map(|video| video_counts(video).0).sum();
        let mut statistics = Map::new();
        statistics.insert("viewCount".into(), json!(views.to_string()));
        if !channel.hidden_subscriber_count {
            statistics.insert(
                "subscriberCount".into(),
                json!(three_significant_figures(channel.subscriber_count).to_string()),
            );
        }
        statistics.insert(
            "hiddenSubscriberCount".into(),
            json!(channel.hidden_subscriber_count),
        );
        statistics.insert("videoCount".into(), json!(public.len().to_string()));
        item.insert("statistics".into(), Value::Object(statistics));
    }
    with_etag(item)
}
