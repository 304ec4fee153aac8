//! `/api/video-mp3/*`: MP3 uploads streamed browser → gateway → storage (gRPC client
//! streaming) → blob store, with memory flat whatever the file's size.

use actix_multipart::Multipart;
use actix_web::{HttpRequest, HttpResponse, web};
use bytes::BytesMut;
use futures::StreamExt as _;
use scribevault_core::ErrorCode;
use scribevault_proto::storage::v1 as pb;
use serde::Serialize;
use std::collections::BTreeMap;
use tokio_stream::wrappers::ReceiverStream;
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, data};
use crate::routes::table::{Access, RouteList};

/// Size of the upload messages sent to storage.
const UPLOAD_MESSAGE_BYTES: usize = 256 * 1024;

/// Text fields are small; anything bigger is not a title.
const MAX_FIELD_BYTES: usize = 16 * 1024;

fn too_large(limit: u64) -> ApiError {
    ApiError::new(
        ErrorCode::PayloadTooLarge,
        format!(
            "File is too large: the limit is {} MB",
            limit / (1024 * 1024)
        ),
    )
}

async fn read_text_field(field: &mut actix_multipart::Field) -> Result<String, ApiError> {
    let mut value = Vec::new();
    while let Some(chunk) = field.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::bad_request(format!("Could not read the upload: {e}")))?;
        value.extend_from_slice(&chunk);
        if value.len() > MAX_FIELD_BYTES {
            return Err(ApiError::bad_request("A form field is too long"));
        }
    }
    String::from_utf8(value).map_err(|_| ApiError::bad_request("Form fields must be UTF-8 text"))
}

/// Streams the multipart form to storage. Text fields before the `mp3` part become the
/// metadata; the file's name stands in for a missing title.
async fn stream_upload(
    request: &HttpRequest,
    services: &UserClients,
    limit: u64,
    video_id: String,
    mut form: Multipart,
) -> Result<pb::UploadMp3Response, ApiError> {
    let declared = request
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit + 64 * 1024) {
        return Err(too_large(limit));
    }
    let mut metadata = pb::Mp3Metadata {
        video_id,
        ..Default::default()
    };
    while let Some(field) = form.next().await {
        let mut field =
            field.map_err(|e| ApiError::bad_request(format!("Could not read the upload: {e}")))?;
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "title" => metadata.title = read_text_field(&mut field).await?,
            "channelTitle" => metadata.channel_title = read_text_field(&mut field).await?,
            "publishedAt" => metadata.published_at = read_text_field(&mut field).await?,
            "duration" => {
                let value = read_text_field(&mut field).await?;
                metadata.duration_seconds = if value.trim().is_empty() {
                    None
                } else {
                    Some(value.trim().parse().map_err(|_| {
                        ApiError::bad_request("duration must be a number of seconds")
                    })?)
                };
            }
            "mp3" => {
                let file_name = field
                    .content_disposition()
                    .and_then(|disposition| disposition.get_filename())
                    .unwrap_or_default()
                    .to_owned();
                if metadata.title.trim().is_empty() {
                    metadata.title = file_name
                        .strip_suffix(".mp3")
                        .or_else(|| file_name.strip_suffix(".MP3"))
                        .unwrap_or(&file_name)
                        .to_owned();
                }
                metadata.file_name = file_name;
                return send_file(services, metadata, field).await;
            }
            _ => {
                // Unknown fields are read and ignored.
                read_text_field(&mut field).await.ok();
            }
        }
    }
    Err(ApiError::bad_request(
        "No MP3 file in the upload (form field \"mp3\")",
    ))
}

async fn send_file(
    services: &UserClients,
    metadata: pb::Mp3Metadata,
    mut field: actix_multipart::Field,
) -> Result<pb::UploadMp3Response, ApiError> {
    let (sender, receiver) = tokio::sync::mpsc::channel::<pb::UploadMp3Request>(4);
    let mut storage = services.storage();
    let call = tokio::spawn(async move { storage.upload_mp3(ReceiverStream::new(receiver)).await });
    let first = pb::UploadMp3Request {
        part: Some(pb::upload_mp3_request::Part::Metadata(metadata)),
    };
    let interrupted = sender.send(first).await.is_ok()
        && forward_field(&mut field, &sender, |chunk| pb::UploadMp3Request {
            part: Some(pb::upload_mp3_request::Part::Chunk(chunk)),
        })
        .await
        .is_err();
    if interrupted {
        // Dropping the stream without its end tells storage the upload broke off.
        call.abort();
        return Err(ApiError::bad_request("The upload was interrupted"));
    }
    drop(sender);
    let answer = call.await.map_err(ApiError::internal)??;
    Ok(answer.into_inner())
}

/// The multipart field broke off before its end.
pub(super) struct Interrupted;

/// Forwards the bytes of a multipart `field` into a gRPC client stream, each message made by
/// `wrap`. Multipart chunks are small; coalescing them into messages of
/// [`UPLOAD_MESSAGE_BYTES`] halves the per-byte cost of the gRPC hop while memory stays bounded
/// by a few messages. Ends early, without error, when the receiving service stops reading: it
/// has refused the file, and its answer says why.
pub(super) async fn forward_field<M>(
    field: &mut actix_multipart::Field,
    sender: &tokio::sync::mpsc::Sender<M>,
    wrap: impl Fn(bytes::Bytes) -> M,
) -> Result<(), Interrupted> {
    let mut pending = BytesMut::with_capacity(UPLOAD_MESSAGE_BYTES);
    loop {
        let finished = match field.next().await {
            Some(Ok(chunk)) => {
                pending.extend_from_slice(&chunk);
                false
            }
            Some(Err(_)) => return Err(Interrupted),
            None => true,
        };
        if (pending.len() >= UPLOAD_MESSAGE_BYTES || (finished && !pending.is_empty()))
            && sender.send(wrap(pending.split().freeze())).await.is_err()
        {
            return Ok(());
        }
        if finished {
            return Ok(());
        }
    }
}

/// A stored MP3.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadView {
    mp3_path: String,
    /// The same as `mp3Path` (the spec's older name).
    mp3_file_path: String,
    title: String,
    size: u64,
    video_id: String,
    /// The same audio was already stored for this user; nothing new was kept.
    deduplicated: bool,
}

impl From<pb::UploadMp3Response> for UploadView {
    fn from(stored: pb::UploadMp3Response) -> Self {
        Self {
            mp3_file_path: stored.mp3_path.clone(),
            mp3_path: stored.mp3_path,
            title: stored.title,
            size: stored.size,
            video_id: stored.video_id,
            deduplicated: stored.deduplicated,
        }
    }
}

/// The form of an MP3 upload. The text fields must come before `mp3`.
#[derive(ToSchema)]
#[allow(dead_code)] // describes the multipart body for the OpenAPI document only
pub struct UploadForm {
    /// Defaults to the file's name.
    title: Option<String>,
    #[schema(rename = "channelTitle")]
    channel_title: Option<String>,
    /// Seconds.
    duration: Option<f64>,
    #[schema(rename = "publishedAt")]
    published_at: Option<String>,
    #[schema(format = Binary, content_media_type = "audio/mpeg")]
    mp3: String,
}

/// Uploads an MP3 of the caller's own (multipart: `mp3`, `title`).
#[utoipa::path(
    post,
    path = "/api/video-mp3/upload",
    tag = "uploads",
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, body = Envelope<UploadView>),
        (status = 413, description = "Larger than the upload limit, or longer than the audio limit", body = crate::routes::openapi::ErrorBody),
        (status = 415, description = "Not an MP3", body = crate::routes::openapi::ErrorBody),
        (status = 507, description = "The caller's storage quota is full", body = crate::routes::openapi::ErrorBody),
    )
)]
pub async fn upload_manual(
    request: HttpRequest,
    services: UserClients,
    context: Context,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let limit = context.limits.upload_bytes;
    let stored = stream_upload(&request, &services, limit, String::new(), form).await?;
    Ok(data(UploadView::from(stored)))
}

/// Uploads the MP3 of a YouTube video (multipart: `mp3`, `title`, `channelTitle`, `duration`,
/// `publishedAt`).
#[utoipa::path(
    post,
    path = "/api/video-mp3/upload/{videoId}",
    tag = "uploads",
    params(("videoId" = String, Path, description = "The YouTube video id")),
    request_body(content = UploadForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, body = Envelope<UploadView>),
        (status = 413, description = "Larger than the upload limit, or longer than the audio limit", body = crate::routes::openapi::ErrorBody),
        (status = 415, description = "Not an MP3", body = crate::routes::openapi::ErrorBody),
        (status = 507, description = "The caller's storage quota is full", body = crate::routes::openapi::ErrorBody),
    )
)]
pub async fn upload_for_video(
    request: HttpRequest,
    services: UserClients,
    context: Context,
    video_id: web::Path<String>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let video_id = video_id.into_inner();
    if video_id.is_empty()
        || video_id.len() > 64
        || !video_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::bad_request("Invalid video id"));
    }
    let limit = context.limits.upload_bytes;
    let stored = stream_upload(&request, &services, limit, video_id, form).await?;
    Ok(data(UploadView::from(stored)))
}

/// `?videoIds=a,b,c`.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read from the raw query string; this documents it
pub struct StatusQuery {
    /// Comma-separated YouTube video ids (at most 1000).
    #[param(rename = "videoIds")]
    video_ids: String,
}

/// Whether an MP3 is stored for each video.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Mp3StatusView {
    has_mp3: bool,
    mp3_file_path: Option<String>,
}

/// Which of the given videos have an MP3 stored, by video id.
#[utoipa::path(get, path = "/api/video-mp3/status", tag = "uploads", params(StatusQuery), responses((status = 200, body = Envelope<BTreeMap<String, Mp3StatusView>>)))]
pub async fn status(request: HttpRequest, services: UserClients) -> Result<HttpResponse, ApiError> {
    let video_ids: Vec<String> = url::form_urlencoded::parse(request.query_string().as_bytes())
        .filter(|(key, _)| key == "videoIds")
        .flat_map(|(_, value)| {
            value
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    if video_ids.len() > 1000 {
        return Err(ApiError::bad_request("At most 1000 video ids at once"));
    }
    let statuses = services
        .storage()
        .get_mp3_status(pb::GetMp3StatusRequest { video_ids })
        .await?
        .into_inner()
        .statuses;
    let body: BTreeMap<String, Mp3StatusView> = statuses
        .into_iter()
        .map(|(id, status)| {
            let view = Mp3StatusView {
                has_mp3: status.has_mp3,
                mp3_file_path: status.mp3_file_path,
            };
            (id, view)
        })
        .collect();
    Ok(data(body))
}

/// An MP3 the caller uploaded without a video.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ManualUploadView {
    youtube_video_id: String,
    title: String,
    mp3_file_path: String,
    size: u64,
    uploaded_at: String,
}

/// The caller's manual uploads.
#[derive(Serialize, ToSchema)]
pub struct ManualUploadsView {
    videos: Vec<ManualUploadView>,
}

/// The MP3s the caller uploaded without a video.
#[utoipa::path(get, path = "/api/video-mp3/manual-uploads", tag = "uploads", responses((status = 200, body = Envelope<ManualUploadsView>)))]
pub async fn manual_uploads(services: UserClients) -> Result<HttpResponse, ApiError> {
    let uploads = services
        .storage()
        .list_manual_uploads(pb::ListManualUploadsRequest {})
        .await?
        .into_inner();
    let videos = uploads
        .videos
        .into_iter()
        .map(|video| ManualUploadView {
            youtube_video_id: video.youtube_video_id,
            title: video.title,
            mp3_file_path: video.mp3_file_path,
            size: video.size,
            uploaded_at: video.uploaded_at,
        })
        .collect();
    Ok(data(ManualUploadsView { videos }))
}

/// `?path=`.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // read from the raw query string; this documents it
pub struct FileQuery {
    /// A stored path of the caller's, as the other routes answer it (`mp3Path`, `transcriptPath`).
    path: String,
}

/// Streams one of the caller's stored files (MP3s, transcripts).
#[utoipa::path(get, path = "/api/files", tag = "uploads", params(FileQuery), responses((status = 200, description = "The file, with its content type", body = Vec<u8>, content_type = "application/octet-stream")))]
pub async fn download(
    request: HttpRequest,
    services: UserClients,
) -> Result<HttpResponse, ApiError> {
    let path = url::form_urlencoded::parse(request.query_string().as_bytes())
        .find(|(key, _)| key == "path")
        .map(|(_, value)| value.into_owned())
        .ok_or_else(|| ApiError::bad_request("path is required"))?;
    let mut storage = services.storage();
    let stat = storage
        .stat_blob(pb::StatBlobRequest { path: path.clone() })
        .await?
        .into_inner();
    let body = storage
        .download_blob(pb::DownloadBlobRequest {
            path,
            ..Default::default()
        })
        .await?
        .into_inner();
    let stream = body.map(|chunk| {
        chunk.map(|chunk| chunk.chunk).map_err(|status| {
            actix_web::error::ErrorServiceUnavailable(status.message().to_owned())
        })
    });
    Ok(HttpResponse::Ok()
        .content_type(stat.content_type)
        .no_chunking(stat.size)
        .streaming(stream))
}

#[derive(OpenApi)]
#[openapi(paths(upload_manual, upload_for_video, status, manual_uploads, download))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_upload_manual>(SignedIn, || web::to(upload_manual))
        .add::<__path_upload_for_video>(SignedIn, || web::to(upload_for_video))
        .add::<__path_status>(SignedIn, || web::to(status))
        .add::<__path_manual_uploads>(SignedIn, || web::to(manual_uploads))
        .add::<__path_download>(SignedIn, || web::to(download))
}
