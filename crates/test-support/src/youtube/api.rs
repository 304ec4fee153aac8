//! The fake's state and its answers, independent of HTTP: `handle` takes an endpoint name and a
//! query string and returns a status and a body, recording the call and charging quota.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::ids::{self, Direction};
use super::model::{FakeChannel, FakePlaylist, FakeVideo, Visibility};

/// What every key may spend in a day unless a test says otherwise.
pub(crate) const DEFAULT_DAILY_QUOTA: u64 = 10_000;

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct RecordedCall {
    /// `channels`, `playlistItems`, `videos`, `playlists`, `search`, or whatever unknown path
    /// segment was asked for.
    pub endpoint: String,
    /// The decoded query parameters, in request order (including `key`).
    pub query: Vec<(String, String)>,
    /// The `key` parameter, if any.
    pub key: Option<String>,
    /// The quota units charged to the key (0 when the key was missing or invalid, or the quota
    /// was already spent).
    pub units: u64,
    /// The HTTP status answered.
    pub status: u16,
}

/// A stored video and the channel that uploaded it.
struct VideoRecord {
    video: FakeVideo,
    owner: String,
}

/// A channel without its videos, and the ids of its uploads, newest first.
struct ChannelRecord {
    channel: FakeChannel,
    uploads: Vec<String>,
}

/// An explicit playlist, entries by video id.
struct PlaylistRecord {
    id: String,
    channel_id: String,
    title: String,
    entries: Vec<String>,
}

/// Everything the fake knows.
#[derive(Default)]
pub(crate) struct State {
    channels: Vec<ChannelRecord>,
    playlists: Vec<PlaylistRecord>,
    videos: HashMap<String, VideoRecord>,
    quota_limits: HashMap<String, u64>,
    quota_used: HashMap<String, u64>,
    invalid_keys: HashSet<String>,
    pub(crate) calls: Vec<RecordedCall>,
    pub(crate) latency: Duration,
}

/// A response body.
pub(crate) enum Body {
    Json(Value),
    Html(&'static str),
}

/// A status and a body.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: Body,
    /// Indented JSON (the real default) or compact (`prettyPrint=false`).
    pub(crate) pretty: bool,
}

// ---------------------------------------------------------------------------------------------
// Seeding.

impl State {
    fn store_video(&mut self, video: &FakeVideo, owner: &str, keep_existing_owner: bool) {
        if keep_existing_owner && let Some(existing) = self.videos.get_mut(&video.id) {
            existing.video = video.clone();
            return;
        }
        self.videos.insert(
            video.id.clone(),
            VideoRecord {
                video: video.clone(),
                owner: owner.to_string(),
            },
        );
    }

    pub(crate) fn add_channel(&mut self, mut channel: FakeChannel) {
        let videos = std::mem::take(&mut channel.videos);
        for video in &videos {
            self.store_video(video, &channel.id, false);
        }
        let record = ChannelRecord {
            uploads: videos.into_iter().map(|video| video.id).collect(),
            channel,
        };
        match self
            .channels
            .iter_mut()
            .find(|existing| existing.channel.id == record.channel.id)
        {
            Some(existing) => *existing = record,
            None => self.channels.push(record),
        }
    }

    pub(crate) fn add_playlist(&mut self, playlist: FakePlaylist) {
        for video in &playlist.videos {
            self.store_video(video, &playlist.channel_id, true);
        }
        let record = PlaylistRecord {
            entries: playlist.videos.into_iter().map(|video| video.id).collect(),
            id: playlist.id,
            channel_id: playlist.channel_id,
            title: playlist.title,
        };
        match self.playlists.iter_mut().find(|p| p.id == record.id) {
            Some(existing) => *existing = record,
            None => self.playlists.push(record),
        }
    }

    /// Puts `videos` (newest first) in front of the channel's uploads; `false` when there is no
    /// such channel.
    pub(crate) fn publish(&mut self, channel_id: &str, videos: Vec<FakeVideo>) -> bool {
        if !self.channels.iter().any(|c| c.channel.id == channel_id) {
            return false;
        }
        for video in &videos {
            self.store_video(video, channel_id, false);
        }
        if let Some(record) = self
            .channels
            .iter_mut()
            .find(|c| c.channel.id == channel_id)
        {
            let new_ids: Vec<String> = videos.into_iter().map(|video| video.id).collect();
            record.uploads.retain(|id| !new_ids.contains(id));
            record.uploads.splice(0..0, new_ids);
        }
        true
    }

    /// Changes a stored video's visibility everywhere it is listed; `false` when unknown.
    pub(crate) fn set_visibility(&mut self, video_id: &str, visibility: Visibility) -> bool {
        match self.videos.get_mut(video_id) {
            Some(record) => {
                record.video.visibility = visibility;
                true
            }
            None => false,
        }
    }

    pub(crate) fn set_daily_quota(&mut self, key: &str, units: u64) {
        self.quota_limits.insert(key.to_string(), units);
    }

    pub(crate) fn invalidate_key(&mut self, key: &str) {
        self.invalid_keys.insert(key.to_string());
    }

    pub(crate) fn quota_used(&self, key: &str) -> u64 {
        self.quota_used.get(key).copied().unwrap_or(0)
    }

    pub(crate) fn new_day(&mut self) {
        self.quota_used.clear();
    }

    fn channel(&self, id: &str) -> Option<&ChannelRecord> {
        self.channels.iter().find(|c| c.channel.id == id)
    }

    fn channel_title(&self, id: &str) -> String {
        self.channel(id)
            .map(|c| c.channel.title.clone())
            .unwrap_or_default()
    }
}

// ---------------------------------------------------------------------------------------------
// Dispatch, keys and quota.

/// The quota cost of an endpoint; `None` for endpoints the fake does not know.
fn cost(endpoint: &str) -> Option<u64> {
    match endpoint {
        "channels" | "playlistItems" | "videos" | "playlists" => Some(1),
        "search" => Some(100),
        _ => None,
    }
}

fn parse_query(raw_query: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw_query.as_bytes())
        .into_owned()
        .collect()
}

/// Answers a request for a path that is no API method (404, free) and records it as `label`.
pub(crate) fn handle_unknown(state: &mut State, label: &str, raw_query: &str) -> Reply {
    let query = parse_query(raw_query);
    let reply = not_found();
    state.calls.push(RecordedCall {
        endpoint: label.to_string(),
        key: Params(&query).get("key").map(str::to_string),
        query,
        units: 0,
        status: reply.status,
    });
    reply
}

/// Answers one request to `/youtube/v3/{endpoint}` and records it.
pub(crate) fn handle(state: &mut State, endpoint: &str, raw_query: &str) -> Reply {
    let query = parse_query(raw_query);
    let params = Params(&query);
    let key = params.get("key");
    let (reply, units) = match (cost(endpoint), key) {
        (None, _) => (not_found(), 0),
        (Some(_), None) => (missing_key(), 0),
        (Some(_), Some(key)) if key.is_empty() || state.invalid_keys.contains(key) => {
            (invalid_key(), 0)
        }
        (Some(cost), Some(key)) => {
            let limit = state
                .quota_limits
                .get(key)
                .copied()
                .unwrap_or(DEFAULT_DAILY_QUOTA);
            let used = state.quota_used(key);
            if used.saturating_add(cost) > limit {
                (quota_exceeded(), 0)
            } else {
                state.quota_used.insert(key.to_string(), used + cost);
                let reply = match endpoint {
                    "channels" => channels(state, &params),
                    "playlistItems" => playlist_items(state, &params),
                    "videos" => videos(state, &params),
                    "playlists" => playlists(state, &params),
                    _ => search(state, &params),
                }
                .unwrap_or_else(|error| error);
                (reply, cost)
            }
        }
    };
    state.calls.push(RecordedCall {
        endpoint: endpoint.to_string(),
        key: key.map(str::to_string),
        query: query.clone(),
        units,
        status: reply.status,
    });
    reply
}

/// Query parameters; the first occurrence of a name wins.
struct Params<'a>(&'a [(String, String)]);

impl Params<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Whether the response should be indented (the real default) or compact.
    fn pretty(&self) -> bool {
        self.get("prettyPrint") != Some("false")
    }
}

type Answer = Result<Reply, Reply>;

// ---------------------------------------------------------------------------------------------
// Errors, in Google's envelope.

fn error_reply(
    code: u16,
    message: &str,
    errors: Vec<Value>,
    extra: Option<(&str, Value)>,
) -> Reply {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    error.insert("errors".into(), Value::Array(errors));
    if let Some((name, value)) = extra {
        error.insert(name.into(), value);
    }
    Reply {
        status: code,
        body: Body::Json(json!({ "error": error })),
        pretty: true,
    }
}

/// An error in the YouTube style: one `errors[]` entry with domain, reason and location.
fn youtube_error(
    code: u16,
    message: &str,
    domain: &str,
    reason: &str,
    location: Option<(&str, &str)>,
) -> Reply {
    let mut entry = json!({ "message": message, "domain": domain, "reason": reason });
    if let (Some((location, location_type)), Some(object)) = (location, entry.as_object_mut()) {
        object.insert("location".into(), json!(location));
        object.insert("locationType".into(), json!(location_type));
    }
    error_reply(code, message, vec![entry], None)
}

fn not_found() -> Reply {
    Reply {
        status: 404,
        pretty: true,
        body: Body::Html(
            "<!DOCTYPE html>\n<html lang=en><meta charset=utf-8><title>Error 404 (Not Found)</title>\
             <p><b>404.</b> <ins>That’s an error.</ins><p>The requested URL was not found on this \
             server. <ins>That’s all we know.</ins></html>\n",
        ),
    }
}

const UNREGISTERED: &str = "Method doesn't allow unregistered callers (callers without established \
                            identity). Please use API Key or other form of API consumer identity \
                            to call this API.";

fn missing_key() -> Reply {
    let entry = json!({ "message": UNREGISTERED, "domain": "global", "reason": "forbidden" });
    error_reply(
        403,
        UNREGISTERED,
        vec![entry],
        Some(("status", json!("PERMISSION_DENIED"))),
    )
}

const KEY_INVALID: &str = "API key not valid. Please pass a valid API key.";

fn invalid_key() -> Reply {
    let entry = json!({ "message": KEY_INVALID, "domain": "global", "reason": "badRequest" });
    let mut reply = error_reply(
        400,
        KEY_INVALID,
        vec![entry],
        Some(("status", json!("INVALID_ARGUMENT"))),
    );
    if let Body::Json(body) = &mut reply.body
        && let Some(error) = body.get_mut("error").and_then(Value::as_object_mut)
    {
        error.insert(
            "details".into(),
            json!([
                {
                    "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                    "reason": "API_KEY_INVALID",
                    "domain": "googleapis.com",
                    "metadata": { "service": "youtube.googleapis.com" }
                },
                {
                    "@type": "type.googleapis.com/google.rpc.LocalizedMessage",
                    "locale": "en-US",
                    "message": KEY_INVALID
                }
            ]),
        );
    }
    reply
}

const QUOTA: &str = "The request cannot be completed because you have exceeded your \
                     <a href=\"/youtube/v3/getting-started#quota\">quota</a>.";

fn quota_exceeded() -> Reply {
    youtube_error(403, QUOTA, "youtube.quota", "quotaExceeded", None)
}

fn required(parameter: &str) -> Reply {
    youtube_error(
        400,
        &format!("Required parameter: {parameter}"),
        "global",
        "required",
        Some((parameter, "parameter")),
    )
}

fn no_filter(expected: &str) -> Reply {
    youtube_error(
        400,
        &format!("No filter selected. Expected one of: {expected}"),
        "youtube.parameter",
        "missingRequiredParameter",
        Some(("parameters.", "other")),
    )
}

fn incompatible(names: &[&str]) -> Reply {
    youtube_error(
        400,
        &format!(
            "Incompatible parameters specified in the request: {}",
            names.join(", ")
        ),
        "youtube.parameter",
        "incompatibleParameters",
        Some(("parameters.", "other")),
    )
}

fn invalid_filters() -> Reply {
    youtube_error(
        400,
        "The request specifies an invalid filter parameter.",
        "youtube.parameter",
        "invalidFilters",
        Some(("parameters.", "other")),
    )
}

fn authorization_required(parameter: &str) -> Reply {
    youtube_error(
        401,
        &format!(
            "The request uses the <code>{parameter}</code> parameter but is not properly authorized."
        ),
        "youtube.parameter",
        "authorizationRequired",
        Some((parameter, "parameter")),
    )
}

fn invalid_page_token() -> Reply {
    youtube_error(
        400,
        "The request specifies an invalid page token.",
        "youtube.parameter",
        "invalidPageToken",
        Some(("pageToken", "parameter")),
    )
}

fn playlist_not_found() -> Reply {
    youtube_error(
        404,
        "The playlist identified with the request's <code>playlistId</code> parameter cannot be \
         found.",
        "youtube.playlistItem",
        "playlistNotFound",
        Some(("playlistId", "parameter")),
    )
}

// ---------------------------------------------------------------------------------------------
// Parameters shared by the list methods.

/// The requested parts, checked against the resource's documented part names.
fn parts(params: &Params<'_>, allowed: &[&str]) -> Result<Vec<String>, Reply> {
    let raw = params.get("part").unwrap_or_default();
    let parts: Vec<String> = raw
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect();
    if parts.is_empty() {
        return Err(required("part"));
    }
    if let Some(unknown) = parts.iter().find(|part| !allowed.contains(&part.as_str())) {
        return Err(youtube_error(
            400,
            unknown,
            "youtube.part",
            "unknownPart",
            Some(("part", "parameter")),
        ));
    }
    Ok(parts)
}

fn wants(parts: &[String], part: &str) -> bool {
    parts.iter().any(|p| p == part)
}

/// `maxResults`, 0–50, `default` when absent.
fn max_results(params: &Params<'_>, default: usize) -> Result<usize, Reply> {
    match params.get("maxResults") {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| *n <= 50)
            .ok_or_else(|| {
                youtube_error(
                    400,
                    &format!("Invalid value '{raw}'. Values must be within the range: [0, 50]"),
                    "global",
                    "invalidParameter",
                    Some(("maxResults", "parameter")),
                )
            }),
    }
}

/// A comma-separated id list, trimmed and de-duplicated in order; more than 50 is an error.
fn id_list(raw: &str) -> Result<Vec<String>, Reply> {
    let mut ids: Vec<String> = Vec::new();
    for id in raw.split(',').map(str::trim).filter(|id| !id.is_empty()) {
        if !ids.iter().any(|seen| seen == id) {
            ids.push(id.to_string());
        }
    }
    if ids.len() > 50 {
        return Err(invalid_filters());
    }
    Ok(ids)
}

/// The single filter present among `filters`, or the documented error.
fn one_filter<'a>(
    params: &Params<'_>,
    filters: &[&'a str],
    expected: &str,
) -> Result<&'a str, Reply> {
    let present: Vec<&str> = filters.iter().copied().filter(|f| params.has(f)).collect();
    match present.as_slice() {
        [] => Err(no_filter(expected)),
        [one] => Ok(one),
        _ => Err(incompatible(&present)),
    }
}

/// A page of `total` items at `offset`, `per_page` long: the range and the tokens around it.
struct Page {
    range: std::ops::Range<usize>,
    next: Option<usize>,
    previous: Option<usize>,
}

impl Page {
    /// `nextPageToken` and `prevPageToken`, where there is such a page, in `token`'s format.
    fn insert_tokens(&self, body: &mut Map<String, Value>, token: fn(usize, Direction) -> String) {
        if let Some(next) = self.next {
            body.insert("nextPageToken".into(), json!(token(next, Direction::Next)));
        }
        if let Some(previous) = self.previous {
            body.insert(
                "prevPageToken".into(),
                json!(token(previous, Direction::Previous)),
            );
        }
    }
}

fn page(total: usize, offset: usize, per_page: usize) -> Page {
    let start = offset.min(total);
    let end = start.saturating_add(per_page).min(total);
    Page {
        range: start..end,
        next: (per_page > 0 && end < total).then_some(end),
        previous: (start > 0).then(|| start.saturating_sub(per_page.max(1))),
    }
}

/// Adds `etag`, derived from the rest of the object.
fn with_etag(mut object: Map<String, Value>) -> Value {
    let digest = ids::etag(&Value::Object(object.clone()).to_string());
    object.insert("etag".into(), json!(digest));
    Value::Object(object)
}

/// A 200 answer.
fn pretty(body: Value, params: &Params<'_>) -> Reply {
    Reply {
        status: 200,
        body: Body::Json(body),
        pretty: params.pretty(),
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering helpers.

fn thumbnail(url: String, width: u32, height: u32) -> Value {
    json!({ "url": url, "width": width, "height": height })
}

fn video_thumbnails(id: &str) -> Value {
    json!({
        "default": thumbnail(format!("https://i.ytimg.com/vi/{id}/default.jpg"), 120, 90),
        "medium": thumbnail(format!("https://i.ytimg.com/vi/{id}/mqdefault.jpg"), 320, 180),
        "high": thumbnail(format!("https://i.ytimg.com/vi/{id}/hqdefault.jpg"), 480, 360),
        "standard": thumbnail(format!("https://i.ytimg.com/vi/{id}/sddefault.jpg"), 640, 480),
        "maxres": thumbnail(format!("https://i.ytimg.com/vi/{id}/maxresdefault.jpg"), 1280, 720),
    })
}

fn channel_thumbnail_url(id: &str, size: u32) -> String {
    format!("https://yt3.ggpht.com/fake-{id}=s{size}-c-k-c0x00ffffff-no-rj")
}

fn channel_thumbnails(id: &str) -> Value {
    json!({
        "default": thumbnail(channel_thumbnail_url(id, 88), 88, 88),
        "medium": thumbnail(channel_thumbnail_url(id, 240), 240, 240),
        "high": thumbnail(channel_thumbnail_url(id, 800), 800, 800),
    })
}

/// A deterministic RFC 3339 date between 2010 and 2019 for things the tests do not date.
fn stable_date(seed: &str) -> String {
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

fn description(video: &FakeVideo) -> String {
    format!(
        "{}\n\nServed by the Scribevault fake of the YouTube Data API.",
        video.title
    )
}

/// View, like and comment counts for a video (zero before it airs).
fn video_counts(video: &FakeVideo) -> (u64, u64, u64) {
    if video.visibility == Visibility::Upcoming {
        return (0, 0, 0);
    }
    let views = 1_000 + ids::hash_str(&video.id) % 500_000;
    (views, views / 40, views / 400)
}

fn is_listed_publicly(video: &FakeVideo) -> bool {
    matches!(
        video.visibility,
        Visibility::Public | Visibility::Upcoming | Visibility::Live
    )
}

/// Rounds down to three significant figures, as the API does for subscriber counts.
fn three_significant_figures(count: u64) -> u64 {
    let mut scale = 1;
    while count / scale >= 1_000 {
        scale *= 10;
    }
    count / scale * scale
}

// ---------------------------------------------------------------------------------------------
// channels.list

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

fn channels(state: &State, params: &Params<'_>) -> Answer {
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

// ---------------------------------------------------------------------------------------------
// playlistItems.list

/// A playlist's owner, title and entries, whether uploads or explicit.
#[derive(Clone)]
struct Listing<'a> {
    id: String,
    channel_id: &'a str,
    title: String,
    entries: &'a [String],
    uploads: bool,
}

fn listing<'a>(state: &'a State, playlist_id: &str) -> Option<Listing<'a>> {
    if let Some(rest) = playlist_id.strip_prefix("UU")
        && let Some(record) = state.channel(&format!("UC{rest}"))
    {
        return Some(Listing {
            id: playlist_id.to_string(),
            channel_id: &record.channel.id,
            title: format!("Uploads from {}", record.channel.title),
            entries: &record.uploads,
            uploads: true,
        });
    }
    state
        .playlists
        .iter()
        .find(|p| p.id == playlist_id)
        .map(|p| Listing {
            id: p.id.clone(),
            channel_id: &p.channel_id,
            title: p.title.clone(),
            entries: &p.entries,
            uploads: false,
        })
}

const PLAYLIST_ITEM_PARTS: &[&str] = &["contentDetails", "id", "snippet", "status"];

fn playlist_items(state: &State, params: &Params<'_>) -> Answer {
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

// ---------------------------------------------------------------------------------------------
// videos.list

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

fn videos(state: &State, params: &Params<'_>) -> Answer {
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
    let broadcast = match video.visibility {
        Visibility::Upcoming => "upcoming",
        Visibility::Live => "live",
        _ => "none",
    };
    if wants(parts, "snippet") {
        let description = description(video);
        item.insert(
            "snippet".into(),
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
            }),
        );
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
        let upload = if broadcast == "none" {
            "processed"
        } else {
            "uploaded"
        };
        item.insert(
            "status".into(),
            json!({
                "uploadStatus": upload,
                "privacyStatus": "public",
                "license": "youtube",
                "embeddable": true,
                "publicStatsViewable": true,
                "madeForKids": false,
            }),
        );
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
    if wants(parts, "liveStreamingDetails") {
        match video.visibility {
            Visibility::Upcoming => {
                item.insert(
                    "liveStreamingDetails".into(),
                    json!({ "scheduledStartTime": video.published_at }),
                );
            }
            Visibility::Live => {
                let chat = ids::base64_url(format!("live-chat/{}", video.id).as_bytes());
                item.insert(
                    "liveStreamingDetails".into(),
                    json!({
                        "actualStartTime": video.published_at,
                        "scheduledStartTime": video.published_at,
                        "concurrentViewers": (100 + ids::hash_str(&video.id) % 900).to_string(),
                        "activeLiveChatId": chat,
                    }),
                );
            }
            _ => {}
        }
    }
    with_etag(item)
}

// ---------------------------------------------------------------------------------------------
// playlists.list

const PLAYLIST_PARTS: &[&str] = &[
    "contentDetails",
    "id",
    "localizations",
    "player",
    "snippet",
    "status",
];

fn playlists(state: &State, params: &Params<'_>) -> Answer {
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

// ---------------------------------------------------------------------------------------------
// search.list

fn search(state: &State, params: &Params<'_>) -> Answer {
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

    #[test]
    fn pages_cover_everything_once() {
        let first = page(120, 0, 50);
        assert_eq!(
            (first.range, first.next, first.previous),
            (0..50, Some(50), None)
        );
        let last = page(120, 100, 50);
        assert_eq!(
            (last.range, last.next, last.previous),
            (100..120, None, Some(50))
        );
        let none = page(3, 0, 0);
        assert_eq!((none.range, none.next), (0..0, None));
    }
}
