//! `/api/feeds`: a member's private podcast feeds (Settings → Podcast feeds), and the feeds
//! themselves under `/feeds/…`, which podcast apps fetch without signing in: the secret in the
//! URL is the authority, like a signed export link. See [`crate::feeds`].
//!
//! The secret is shown when a feed is made or rotated and never again (only its hash is kept),
//! so the list names each feed but cannot repeat its URL; a lost URL is replaced by rotating.

use actix_web::{HttpRequest, HttpResponse, web};
use chrono::{DateTime, Utc};
use futures::StreamExt as _;
use scribevault_core::{ErrorCode, UserId};
use scribevault_proto::storage::v1 as storage_pb;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::auth::{AuthenticatedUser, InteractiveCaller};
use crate::clients::UserClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, created, data};
use crate::feeds::episodes::{Catalog, Episode};
use crate::feeds::rss::{ChannelInfo, ItemLinks, feed_xml};
use crate::feeds::transcripts::TranscriptFormat;
use crate::feeds::{Feed, FeedScope, link_base};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// Most feeds one member may hold.
const MAX_FEEDS_PER_USER: usize = 50;

/// Longest tag name, in characters (the library's limit).
const MAX_TAG_CHARS: usize = 100;

/// The instance's artwork for feeds without a channel's (1400 × 1400, as Apple asks).
const DEFAULT_ARTWORK: &[u8] = include_bytes!("../../assets/podcast-artwork.png");

/// Characters of a feed secret: 32 bytes in unpadded base64url.
const SECRET_CHARS: usize = 43;

/// What a feed publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum FeedScopeKind {
    /// Every recording in the Vault.
    Vault,
    /// The recordings downloaded from one of the member's sources (a channel or playlist).
    Source,
    /// The recordings with one tag.
    Tag,
}

/// What a feed is made with.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewFeedRequest {
    scope: FeedScopeKind,
    /// The source id (`source`) or the tag name (`tag`); absent for `vault`.
    #[serde(default)]
    id: Option<String>,
}

/// A feed as Settings lists it: never its URL, whose secret is not kept.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedView {
    id: String,
    scope: FeedScopeKind,
    /// The source id or tag name; absent for `vault`.
    scope_id: Option<String>,
    /// What the feed is called in a podcast app: `Vault`, the source's title, `#tag`.
    name: String,
    created_at: DateTime<Utc>,
    /// When a podcast app last fetched it (to the minute).
    last_fetched_at: Option<DateTime<Utc>>,
}

#[derive(Serialize, ToSchema)]
pub struct FeedsView {
    feeds: Vec<FeedView>,
}

/// A feed with its URL, shown this once (on creation and rotation).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewFeedView {
    id: String,
    /// The secret feed URL to paste into a podcast app. Not retrievable later.
    url: String,
    #[serde(flatten)]
    details: FeedView,
}

fn kind_of(scope: &FeedScope) -> (FeedScopeKind, Option<String>) {
    match scope {
        FeedScope::Vault => (FeedScopeKind::Vault, None),
        FeedScope::Source(id) => (FeedScopeKind::Source, Some(id.clone())),
        FeedScope::Tag(name) => (FeedScopeKind::Tag, Some(name.clone())),
    }
}

fn feed_view(feed: Feed, source_title: Option<&str>) -> FeedView {
    let (scope, scope_id) = kind_of(&feed.scope);
    let name = match &feed.scope {
        FeedScope::Vault => "Vault".to_owned(),
        FeedScope::Source(id) => source_title.map_or_else(|| format!("Source {id}"), str::to_owned),
        FeedScope::Tag(tag) => format!("#{tag}"),
    };
    FeedView {
        id: feed.id,
        scope,
        scope_id,
        name,
        created_at: feed.created_at,
        last_fetched_at: feed.last_fetched_at,
    }
}

/// The base of every link: `SCRIBEVAULT_PUBLIC_URL`, else the request's origin through the
/// trusted proxies (as the invitation links are made).
fn base_url(request: &HttpRequest, context: &Context) -> Result<String, ApiError> {
    // Parsed, so a host is written in ASCII (punycode) as Apple asks of every URL.
    let origin = context
        .access
        .proxies
        .public_origin(request, context.feeds.public_url.as_ref())
        .map_err(|_| ApiError::bad_request("The request's Host is not a valid host"))?;
    Ok(link_base(&origin))
}

fn feed_url(base: &str, secret: &str) -> String {
    format!("{base}/feeds/{secret}.xml")
}

fn checked_tag(name: Option<String>) -> Result<String, ApiError> {
    let name = name.unwrap_or_default();
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_TAG_CHARS {
        return Err(ApiError::bad_request(format!(
            "id must be a tag name of 1 to {MAX_TAG_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "id must not contain control characters",
        ));
    }
    Ok(name.to_owned())
}

/// Publishes the whole Vault, one of the caller's sources or one tag as a private podcast
/// feed; its URL is in this answer only.
///
/// # Errors
/// A missing id for `source` or `tag` (400), an unknown source or another member's (404), too
/// many feeds (409).
#[utoipa::path(post, path = "/api/feeds", tag = "feeds", request_body = NewFeedRequest,
    responses(
        (status = 201, body = Envelope<NewFeedView>),
        (status = 409, description = "Too many feeds", body = ErrorBody)))]
pub async fn create_feed(
    request: HttpRequest,
    InteractiveCaller(interactive): InteractiveCaller,
    services: UserClients,
    context: Context,
    body: web::Json<NewFeedRequest>,
) -> Result<HttpResponse, ApiError> {
    // A session only: what a leaked API token made would outlive the token (docs/security.md).
    let caller = AuthenticatedUser(interactive.user);
    let body = body.into_inner();
    let catalog = Catalog::new(&services, &context.feeds.media);
    let mut source_title = None;
    let scope = match body.scope {
        FeedScopeKind::Vault => FeedScope::Vault,
        FeedScopeKind::Tag => FeedScope::Tag(checked_tag(body.id)?),
        FeedScopeKind::Source => {
            let id = body
                .id
                .map(|id| id.trim().to_owned())
                .filter(|id| !id.is_empty())
                .ok_or_else(|| ApiError::bad_request("id (a source id) is required"))?;
            let source = catalog
                .source(&id)
                .await?
                .ok_or_else(|| ApiError::not_found("No such source"))?;
            source_title = Some(source.title);
            FeedScope::Source(id)
        }
    };
    let user = caller.0.as_str();
    if context.feeds.store.list(user).await?.len() >= MAX_FEEDS_PER_USER {
        return Err(ApiError::new(
            ErrorCode::Conflict,
            format!(
                "You have {MAX_FEEDS_PER_USER} feeds, the most one account may hold; revoke one first"
            ),
        ));
    }
    let base = base_url(&request, &context)?;
    let (feed, secret) = context.feeds.store.create(user, scope, Utc::now()).await?;
    tracing::info!(user = %user, feed = %feed.id, "podcast feed created");
    Ok(created(NewFeedView {
        id: feed.id.clone(),
        url: feed_url(&base, &secret),
        details: feed_view(feed, source_title.as_deref()),
    }))
}

/// The caller's feeds, newest first (never their URLs).
#[utoipa::path(get, path = "/api/feeds", tag = "feeds",
    responses((status = 200, body = Envelope<FeedsView>)))]
pub async fn list_feeds(
    caller: AuthenticatedUser,
    services: UserClients,
    context: Context,
) -> Result<HttpResponse, ApiError> {
    let feeds = context.feeds.store.list(caller.0.as_str()).await?;
    let has_source = feeds
        .iter()
        .any(|feed| matches!(feed.scope, FeedScope::Source(_)));
    // Source titles come from discovery; a list without source feeds does not ask it.
    let titles: Vec<(String, String)> = if has_source {
        use scribevault_proto::discovery::v1 as discovery_pb;
        services
            .discovery()
            .list_sources(discovery_pb::ListSourcesRequest {})
            .await?
            .into_inner()
            .sources
            .into_iter()
            .map(|source| (source.id, source.title))
            .collect()
    } else {
        Vec::new()
    };
    let feeds = feeds
        .into_iter()
        .map(|feed| {
            let title = match &feed.scope {
                FeedScope::Source(id) => titles
                    .iter()
                    .find(|(source, _)| source == id)
                    .map(|(_, title)| title.clone()),
                _ => None,
            };
            feed_view(feed, title.as_deref())
        })
        .collect();
    Ok(data(FeedsView { feeds }))
}

/// Revokes a feed: its URL, and every episode and transcript URL under it, answer 404 at once.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(delete, path = "/api/feeds/{id}", tag = "feeds", params(("id" = String, Path)),
    responses((status = 204, description = "Revoked")))]
pub async fn delete_feed(
    caller: AuthenticatedUser,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let user = caller.0.as_str();
    if !context.feeds.store.delete(user, &id).await? {
        return Err(ApiError::not_found("No such feed"));
    }
    tracing::info!(user = %user, "podcast feed revoked");
    Ok(HttpResponse::NoContent().finish())
}

/// Gives a feed a new URL (the old one answers 404 at once); the new URL is in this answer
/// only. Podcast apps subscribed with the old URL must be given the new one.
///
/// # Errors
/// Unknown id or another member's (404).
#[utoipa::path(post, path = "/api/feeds/{id}/rotate", tag = "feeds", params(("id" = String, Path)),
    responses((status = 200, body = Envelope<NewFeedView>)))]
pub async fn rotate_feed(
    request: HttpRequest,
    InteractiveCaller(interactive): InteractiveCaller,
    services: UserClients,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    // A session only: what a leaked API token made would outlive the token (docs/security.md).
    let caller = AuthenticatedUser(interactive.user);
    let user = caller.0.as_str();
    let base = base_url(&request, &context)?;
    let (feed, secret) = context
        .feeds
        .store
        .rotate(user, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("No such feed"))?;
    let title = match &feed.scope {
        FeedScope::Source(id) => Catalog::new(&services, &context.feeds.media)
            .source(id)
            .await?
            .map(|source| source.title),
        _ => None,
    };
    tracing::info!(user = %user, feed = %feed.id, "podcast feed rotated");
    Ok(data(NewFeedView {
        id: feed.id.clone(),
        url: feed_url(&base, &secret),
        details: feed_view(feed, title.as_deref()),
    }))
}

fn no_such_feed() -> ApiError {
    ApiError::not_found("No such feed")
}

/// The live feed whose URL carries `secret`, with clients acting as its owner. A revoked or
/// rotated secret, and a disabled or deleted owner, find nothing; an owner taken off OIDC
/// mode's allow-list loses every feed here.
async fn open_feed(context: &Context, secret: &str) -> Result<(Feed, UserClients), ApiError> {
    if secret.len() != SECRET_CHARS
        || !secret
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
    {
        return Err(no_such_feed());
    }
    let feed = context
        .feeds
        .store
        .find(secret)
        .await?
        .ok_or_else(no_such_feed)?;
    let Some(owner) = context
        .access
        .members
        .get(&feed.user_id)
        .await?
        .filter(|member| !member.disabled)
    else {
        return Err(no_such_feed());
    };
    if !context.access.allow_list.lists(&owner.email) {
        tracing::warn!(user = %owner.user_id, "a feed of a member off the allow-list was read: all of theirs are revoked");
        context.feeds.store.delete_all(&owner.user_id).await?;
        return Err(no_such_feed());
    }
    let clients = context.clients.for_user(&UserId::new(feed.user_id.clone()));
    Ok((feed, clients))
}

/// A feed's RSS 2.0 (iTunes and Podcasting 2.0 namespaces): its recordings newest first, at
/// most 2,000, each with its audio and `podcast:transcript` links under the same secret.
/// No bearer token: the secret in the URL is the authority. Answers HEAD too.
#[utoipa::path(method(get, head), path = "/feeds/{secret}.xml", tag = "feeds",
    params(("secret" = String, Path, description = "The feed's secret, from its URL")),
    responses(
        (status = 200, description = "The feed", body = String, content_type = "application/rss+xml"),
        (status = 404, description = "No such feed (revoked, rotated or never made)", body = ErrorBody)))]
pub async fn feed_document(
    request: HttpRequest,
    context: Context,
    secret: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let (feed, clients) = open_feed(&context, &secret).await?;
    let base = base_url(&request, &context)?;
    let catalog = Catalog::new(&clients, &context.feeds.media);
    let default_image = format!("{base}/feeds/artwork.png");
    let (title, description, image_url, author) = match &feed.scope {
        FeedScope::Vault => (
            "Vault".to_owned(),
            "Every recording in a Scribevault Vault, with its transcript.".to_owned(),
            default_image,
            "Scribevault".to_owned(),
        ),
        FeedScope::Tag(tag) => (
            format!("#{tag}"),
            format!("The recordings tagged {tag} in a Scribevault Vault, with their transcripts."),
            default_image,
            "Scribevault".to_owned(),
        ),
        FeedScope::Source(id) => {
            // A deleted source ends its feed.
            let source = catalog.source(id).await?.ok_or_else(no_such_feed)?;
            let image = if source.thumbnail_url.starts_with("https://") {
                source.thumbnail_url
            } else {
                default_image
            };
            (
                source.title.clone(),
                format!(
                    "Recordings from {} ({}), with their transcripts, from a Scribevault Vault.",
                    source.title, source.url
                ),
                image,
                source.title,
            )
        }
    };
    let episodes = catalog.episodes(&feed.scope).await?;
    let secret = secret.into_inner();
    let info = ChannelInfo {
        title,
        description,
        link: format!("{base}/"),
        self_url: feed_url(&base, &secret),
        image_url,
        author,
        guid: feed.id.clone(),
        language: "en".to_owned(),
        last_build: episodes
            .first()
            .map_or(feed.created_at, |episode: &Episode| {
                episode.published.max(feed.created_at)
            }),
    };
    let links = ItemLinks {
        items_base: format!("{base}/feeds/{secret}/items/"),
    };
    let xml = feed_xml(&info, &episodes, &links);
    if let Err(error) = context.feeds.store.touch(&feed, Utc::now()).await {
        // Losing a "last fetched" time is not worth failing the podcast app.
        tracing::warn!(%error, "could not record a podcast feed's fetch");
    }
    Ok(HttpResponse::Ok()
        .content_type("application/rss+xml; charset=utf-8")
        .insert_header(("Cache-Control", "private, no-cache"))
        .insert_header(("X-Robots-Tag", "noindex"))
        .body(xml))
}

/// The artwork of feeds without a channel's own: a 1400 × 1400 PNG, as Apple asks.
#[utoipa::path(method(get, head), path = "/feeds/artwork.png", tag = "feeds",
    responses((status = 200, description = "The artwork", body = Vec<u8>, content_type = "image/png")))]
pub async fn feed_artwork() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/png")
        .insert_header(("Cache-Control", "public, max-age=86400"))
        .body(DEFAULT_ARTWORK)
}

/// The MP3, whole or one byte range, answered as the Vault's player gets it (HEAD, ranges,
/// If-Range, ETag), so Apple's HEAD and byte-range requirements hold by the same code.
async fn audio_answer(
    request: &HttpRequest,
    clients: &UserClients,
    episode: &Episode,
) -> Result<HttpResponse, ApiError> {
    crate::audio_stream::stream_audio(clients, &episode.media.mp3_path, request).await
}

/// One episode's file under its feed's secret: the MP3 (`.mp3`, with `HEAD` and byte ranges,
/// as Apple requires) or its transcript (`.srt`, `.vtt`, `.json`, the Podcasting 2.0 JSON).
/// An item outside the feed's scope, or without stored audio, is 404. Answers HEAD too.
#[utoipa::path(method(get, head), path = "/feeds/{secret}/items/{itemId}.{format}", tag = "feeds",
    params(
        ("secret" = String, Path, description = "The feed's secret, from its URL"),
        ("itemId" = String, Path),
        ("format" = String, Path, description = "`mp3`, `srt`, `vtt` or `json`")),
    responses(
        (status = 200, description = "The file", body = Vec<u8>, content_type = "audio/mpeg"),
        (status = 206, description = "The byte range asked for", body = Vec<u8>, content_type = "audio/mpeg"),
        (status = 404, description = "No such feed, or the item is not one of its episodes", body = ErrorBody),
        (status = 416, description = "The range lies past the end")))]
pub async fn feed_item(
    request: HttpRequest,
    context: Context,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (secret, item_id, format) = path.into_inner();
    let transcript = match format.as_str() {
        "mp3" => None,
        other => Some(TranscriptFormat::from_extension(other).ok_or_else(|| {
            ApiError::not_found("No such file: the formats are mp3, srt, vtt and json")
        })?),
    };
    let (feed, clients) = open_feed(&context, &secret).await?;
    let episode = Catalog::new(&clients, &context.feeds.media)
        .episode(&feed.scope, &item_id)
        .await?
        .ok_or_else(|| ApiError::not_found("No such episode in this feed"))?;
    let Some(format) = transcript else {
        return audio_answer(&request, &clients, &episode).await;
    };
    let segments = read_segments(&clients, &episode).await?;
    let body = format.render(&segments);
    let mut answer = HttpResponse::Ok();
    answer
        .content_type(format.content_type())
        .insert_header(("Cache-Control", "private, no-cache"))
        .insert_header(("Access-Control-Allow-Origin", "*"));
    // For HEAD, actix-http sends the body's length and no body.
    Ok(answer.body(body))
}

/// The worker's segments of an episode; an episode whose segments are gone has none.
async fn read_segments(
    clients: &UserClients,
    episode: &Episode,
) -> Result<Vec<scribevault_bus::contract::TranscriptSegment>, ApiError> {
    let download = clients
        .storage()
        .download_blob(storage_pb::DownloadBlobRequest {
            path: episode.media.segments_path.clone(),
            offset: None,
            length: None,
        })
        .await;
    let mut stream = match download {
        Ok(stream) => stream.into_inner(),
        Err(status) if status.code() == tonic::Code::NotFound => return Ok(Vec::new()),
        Err(status) => return Err(status.into()),
    };
    let mut json = Vec::new();
    while let Some(chunk) = stream.next().await {
        match chunk {
            Ok(chunk) => json.extend_from_slice(&chunk.chunk),
            Err(status) if status.code() == tonic::Code::NotFound => return Ok(Vec::new()),
            Err(status) => return Err(status.into()),
        }
    }
    serde_json::from_slice(&json).map_err(|error| {
        ApiError::internal(format!(
            "segments of item {} are not valid: {error}",
            episode.id
        ))
    })
}

#[derive(OpenApi)]
#[openapi(paths(
    create_feed,
    list_feeds,
    delete_feed,
    rotate_feed,
    feed_document,
    feed_artwork,
    feed_item
))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::{Public, SignedIn};
    RouteList::default()
        .add::<__path_create_feed>(SignedIn, || web::to(create_feed))
        .add::<__path_list_feeds>(SignedIn, || web::to(list_feeds))
        .add::<__path_delete_feed>(SignedIn, || web::to(delete_feed))
        .add::<__path_rotate_feed>(SignedIn, || web::to(rotate_feed))
        .add::<__path_feed_artwork>(Public, || web::to(feed_artwork))
        .answered_from_memory()
        .add::<__path_feed_document>(Public, || web::to(feed_document))
        .add::<__path_feed_item>(Public, || web::to(feed_item))
}
