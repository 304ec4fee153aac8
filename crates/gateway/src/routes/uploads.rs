//! `/api/video-mp3/*`: MP3 uploads streamed browser → gateway → storage (gRPC client
//! streaming) → blob store, with memory flat whatever the file's size.

use actix_multipart::Multipart;
use actix_web::{HttpRequest, HttpResponse, web};
use bytes::BytesMut;
use futures::StreamExt as _;
use scribevault_core::ErrorCode;
use scribevault_proto::storage::v1 as pb;
use tokio_stream::wrappers::ReceiverStream;

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

/// The largest upload accepted.
pub struct UploadLimit(pub u64);

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
    user: &AuthenticatedUser,
    clients: &ServiceClients,
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
                return send_file(user, clients, metadata, field).await;
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
    user: &AuthenticatedUser,
    clients: &ServiceClients,
    metadata: pb::Mp3Metadata,
    mut field: actix_multipart::Field,
) -> Result<pb::UploadMp3Response, ApiError> {
    let (sender, receiver) = tokio::sync::mpsc::channel::<pb::UploadMp3Request>(4);
    let request = on_behalf_of(&user.0, ReceiverStream::new(receiver))?;
    let mut storage = clients.storage.clone();
    let call = tokio::spawn(async move { storage.upload_mp3(request).await });
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

fn upload_view(stored: pb::UploadMp3Response) -> serde_json::Value {
    serde_json::json!({
        "mp3Path": stored.mp3_path,
        "mp3FilePath": stored.mp3_path,
        "title": stored.title,
        "size": stored.size,
        "videoId": stored.video_id,
        "deduplicated": stored.deduplicated,
    })
}

/// `POST /api/video-mp3/upload` (multipart: `mp3`, `title`)
pub async fn upload_manual(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    limit: web::Data<UploadLimit>,
    form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let stored = stream_upload(&request, &user, &clients, limit.0, String::new(), form).await?;
    Ok(data(upload_view(stored)))
}

/// `POST /api/video-mp3/upload/{videoId}` (multipart: `mp3`, `title`, `channelTitle`,
/// `duration`, `publishedAt`)
pub async fn upload_for_video(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    limit: web::Data<UploadLimit>,
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
    let stored = stream_upload(&request, &user, &clients, limit.0, video_id, form).await?;
    Ok(data(upload_view(stored)))
}

/// `GET /api/video-mp3/status?videoIds=a,b,c`
pub async fn status(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
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
    let statuses = clients
        .storage
        .clone()
        .get_mp3_status(on_behalf_of(
            &user.0,
            pb::GetMp3StatusRequest { video_ids },
        )?)
        .await?
        .into_inner()
        .statuses;
    let body: serde_json::Map<String, serde_json::Value> = statuses
        .into_iter()
        .map(|(id, status)| (id, serde_json::json!({ "hasMp3": status.has_mp3, "mp3FilePath": status.mp3_file_path })))
        .collect();
    Ok(data(body))
}

/// `GET /api/video-mp3/manual-uploads`
pub async fn manual_uploads(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let uploads = clients
        .storage
        .clone()
        .list_manual_uploads(on_behalf_of(&user.0, pb::ListManualUploadsRequest {})?)
        .await?
        .into_inner();
    let videos: Vec<serde_json::Value> = uploads
        .videos
        .into_iter()
        .map(|video| serde_json::json!({ "youtubeVideoId": video.youtube_video_id, "title": video.title, "mp3FilePath": video.mp3_file_path, "size": video.size, "uploadedAt": video.uploaded_at }))
        .collect();
    Ok(data(serde_json::json!({ "videos": videos })))
}

/// `GET /api/files?path=…`: streams one of the caller's stored files (MP3s, transcripts).
pub async fn download(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let path = url::form_urlencoded::parse(request.query_string().as_bytes())
        .find(|(key, _)| key == "path")
        .map(|(_, value)| value.into_owned())
        .ok_or_else(|| ApiError::bad_request("path is required"))?;
    let mut storage = clients.storage.clone();
    let stat = storage
        .stat_blob(on_behalf_of(
            &user.0,
            pb::StatBlobRequest { path: path.clone() },
        )?)
        .await?
        .into_inner();
    let body = storage
        .download_blob(on_behalf_of(&user.0, pb::DownloadBlobRequest { path })?)
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
