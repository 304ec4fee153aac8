//! Listening in the Vault: an AUDIO item's recording as a range-capable stream (for a signed-in
//! client with a bearer header, or by a signed link an `<audio>` element can follow), and its
//! timed segments for following along.
//!
//! `<audio src>` cannot send an `Authorization` header, so the SPA asks for
//! `…/transcripts/{id}/audio-link` (signed in) and plays the link it answers: the library signs
//! it with the key of its export links, over the item, its owner and an expiry two hours ahead.
//! The link's route is public; the library checks the signature and names the owner, as whom
//! storage is read.

use actix_web::{HttpRequest, HttpResponse, web};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::audio_stream::stream_audio;
use crate::clients::UserClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, data};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// Streams the MP3 of one of the caller's AUDIO items: `Range` (one range) is answered 206 with
/// `Content-Range`, an unsatisfiable one 416; several ranges get the whole file. HEAD answers
/// the headers only.
#[utoipa::path(
    method(get, head),
    path = "/api/library/transcripts/{id}/audio",
    tag = "library",
    params(
        ("id" = String, Path),
        ("Range" = Option<String>, Header, description = "One byte range: `bytes=a-b`, `bytes=a-` or `bytes=-n`"),
        ("If-Range" = Option<String>, Header, description = "The ETag or Last-Modified the client's bytes came from"),
    ),
    responses(
        (status = 200, description = "The whole recording", body = Vec<u8>, content_type = "audio/mpeg"),
        (status = 206, description = "The requested range, with `Content-Range`", body = Vec<u8>, content_type = "audio/mpeg"),
        (status = 404, description = "Not the caller's item, not audio, or no recording kept", body = ErrorBody),
        (status = 416, description = "The range starts past the end (`Content-Range: bytes */size`)"),
    )
)]
pub async fn audio(
    request: HttpRequest,
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let recording = services
        .library()
        .get_transcript_audio(pb::GetTranscriptAudioRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    stream_audio(&services, &recording.audio_path, &request).await
}

/// A signed link to an item's recording, for an `<audio>` element.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AudioLinkView {
    /// Path and query of `GET /api/library/audio/{id}`; works without a bearer token until
    /// `expiresAt`, for this item only.
    url: String,
    /// RFC 3339.
    expires_at: String,
}

/// Answers a short-lived signed link to the caller's AUDIO item's recording, bound to the item
/// and the caller, that a player can follow without a bearer header.
#[utoipa::path(
    get,
    path = "/api/library/transcripts/{id}/audio-link",
    tag = "library",
    params(("id" = String, Path)),
    responses(
        (status = 200, body = Envelope<AudioLinkView>),
        (status = 404, description = "Not the caller's item, not audio, or no recording kept", body = ErrorBody),
    )
)]
pub async fn audio_link(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let link = services
        .library()
        .create_audio_link(pb::CreateAudioLinkRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(AudioLinkView {
        url: link.url,
        expires_at: link.expires_at,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AudioLinkQuery {
    /// Unix seconds after which the link no longer works.
    expires: i64,
    /// The library's HMAC of the owner, the item and the expiry.
    signature: String,
}

/// Streams an item's recording by its signed link, with ranges as
/// `GET /api/library/transcripts/{id}/audio`. No bearer token: the signature is the authority.
#[utoipa::path(
    method(get, head),
    path = "/api/library/audio/{id}",
    tag = "library",
    params(
        ("id" = String, Path),
        AudioLinkQuery,
        ("Range" = Option<String>, Header, description = "One byte range: `bytes=a-b`, `bytes=a-` or `bytes=-n`"),
        ("If-Range" = Option<String>, Header, description = "The ETag or Last-Modified the client's bytes came from"),
    ),
    responses(
        (status = 200, description = "The whole recording", body = Vec<u8>, content_type = "audio/mpeg"),
        (status = 206, description = "The requested range, with `Content-Range`", body = Vec<u8>, content_type = "audio/mpeg"),
        (status = 403, description = "The signature is wrong, the link has expired, or its owner was disabled or signed out everywhere since", body = ErrorBody),
        (status = 404, description = "The item no longer has a recording", body = ErrorBody),
        (status = 416, description = "The range starts past the end (`Content-Range: bytes */size`)"),
    )
)]
pub async fn audio_by_link(
    request: HttpRequest,
    context: Context,
    id: web::Path<String>,
    link: web::Query<AudioLinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let link = link.into_inner();
    // Nobody is signed in: the gateway calls as itself, and the library checks the signature.
    let mut open = tonic::Request::new(pb::OpenAudioLinkRequest {
        id: id.into_inner(),
        expires: link.expires,
        signature: link.signature,
    });
    scribevault_core::identity::attach_service("gateway", &mut open)?;
    let recording = context
        .clients
        .library_as_gateway()
        .open_audio_link(open)
        .await?
        .into_inner();
    super::link_still_works(&context, &recording.user_id, recording.issued_at).await?;
    let owner = scribevault_core::UserId::new(recording.user_id);
    stream_audio(
        &context.clients.for_user(&owner),
        &recording.audio_path,
        &request,
    )
    .await
}

/// One word of a segment (milliseconds from the start of the recording).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimedWordView {
    start_ms: i64,
    end_ms: i64,
    text: String,
    /// Whisper's confidence in the word, 0 to 1.
    probability: f32,
}

/// One stretch of speech (milliseconds from the start of the recording).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimedSegmentView {
    start_ms: i64,
    end_ms: i64,
    text: String,
    /// Empty when the transcript kept no word times.
    words: Vec<TimedWordView>,
}

/// An item's timed transcript.
#[derive(Serialize, ToSchema)]
pub struct SegmentsView {
    /// In time order; empty for items without timing (every kind but AUDIO).
    segments: Vec<TimedSegmentView>,
}

/// The timed segments of one of the caller's items, with word times when the transcript has
/// them: what the player highlights and seeks by.
#[utoipa::path(
    get,
    path = "/api/library/transcripts/{id}/segments",
    tag = "library",
    params(("id" = String, Path)),
    responses(
        (status = 200, body = Envelope<SegmentsView>),
        (status = 404, description = "Not the caller's item", body = ErrorBody),
    )
)]
pub async fn segments(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let answer = services
        .library()
        .get_transcript_segments(pb::GetTranscriptSegmentsRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(SegmentsView {
        segments: answer
            .segments
            .into_iter()
            .map(|segment| TimedSegmentView {
                start_ms: segment.start_ms,
                end_ms: segment.end_ms,
                text: segment.text,
                words: segment
                    .words
                    .into_iter()
                    .map(|word| TimedWordView {
                        start_ms: word.start_ms,
                        end_ms: word.end_ms,
                        text: word.text,
                        probability: word.probability,
                    })
                    .collect(),
            })
            .collect(),
    }))
}

#[derive(OpenApi)]
#[openapi(paths(audio, audio_link, audio_by_link, segments))]
pub(super) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_audio>(Access::SignedIn, || web::to(audio))
        .add::<__path_audio_link>(Access::SignedIn, || web::to(audio_link))
        .add::<__path_audio_by_link>(Access::Public, || web::to(audio_by_link))
        .add::<__path_segments>(Access::SignedIn, || web::to(segments))
}
