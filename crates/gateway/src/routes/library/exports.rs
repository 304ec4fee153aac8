//! Exports: one item or many, answered as a signed, expiring link, and the link's download.

use actix_web::{HttpResponse, web};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, data};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    /// `markdown` (default), `txt` or `json`.
    #[serde(default)]
    format: String,
}

/// Where to download an export: a signed link that expires.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportLinkView {
    download_url: String,
    filename: String,
}

fn export_answer(export: pb::ExportTranscriptResponse) -> HttpResponse {
    data(ExportLinkView {
        download_url: export.download_url,
        filename: export.filename,
    })
}

/// Exports one item; answers a signed link to download it.
#[utoipa::path(post, path = "/api/library/transcripts/{id}/export", tag = "library", params(("id" = String, Path)), request_body = ExportRequest, responses((status = 200, body = Envelope<ExportLinkView>)))]
pub async fn export(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<ExportRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = pb::ExportTranscriptRequest {
        id: id.into_inner(),
        format: body.into_inner().format,
    };
    let export = services.library().export_transcript(request).await?;
    Ok(export_answer(export.into_inner()))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BulkExportRequest {
    ids: Vec<String>,
    /// `markdown` (default), `txt` or `json`.
    #[serde(default)]
    format: String,
}

/// Exports many items as one zip; answers a signed link to download it.
#[utoipa::path(post, path = "/api/library/export/bulk", tag = "library", request_body = BulkExportRequest, responses((status = 200, body = Envelope<ExportLinkView>)))]
pub async fn export_bulk(
    services: UserClients,
    body: web::Json<BulkExportRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = pb::ExportTranscriptsBulkRequest {
        ids: body.ids,
        format: body.format,
    };
    let export = services.library().export_transcripts_bulk(request).await?;
    Ok(export_answer(export.into_inner()))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ExportLink {
    /// Unix seconds after which the link no longer works.
    expires: i64,
    /// The library's HMAC of the id and expiry.
    signature: String,
}

/// Downloads an export by its signed, expiring link. No bearer token: the signature is the
/// authority, so a plain browser download works.
#[utoipa::path(
    get,
    path = "/api/library/exports/{id}",
    tag = "library",
    params(("id" = String, Path), ExportLink),
    responses(
        (status = 200, description = "The file (markdown, text, JSON or a zip)", body = Vec<u8>, content_type = "application/octet-stream"),
        (status = 403, description = "The signature is wrong, the link has expired, or its owner was disabled or signed out everywhere since", body = ErrorBody),
    )
)]
pub async fn download_export(
    context: Context,
    id: web::Path<String>,
    link: web::Query<ExportLink>,
) -> Result<HttpResponse, ApiError> {
    use futures::StreamExt as _;
    let link = link.into_inner();
    // Nobody is signed in: the gateway calls as itself, and the library checks the signature.
    let mut request = tonic::Request::new(pb::DownloadExportRequest {
        id: id.into_inner(),
        expires: link.expires,
        signature: link.signature,
    });
    scribevault_core::identity::attach_service("gateway", &mut request)?;
    let mut stream = context
        .clients
        .library_as_gateway()
        .download_export(request)
        .await?
        .into_inner();
    let header = match stream.message().await? {
        Some(pb::ExportChunk {
            part: Some(pb::export_chunk::Part::Header(header)),
        }) => header,
        _ => {
            return Err(ApiError::new(
                scribevault_core::ErrorCode::Internal,
                "export without a header",
            ));
        }
    };
    super::link_still_works(&context, &header.user_id, header.issued_at).await?;
    let body = stream.map(|chunk| match chunk {
        Ok(pb::ExportChunk {
            part: Some(pb::export_chunk::Part::Data(bytes)),
        }) => Ok(bytes),
        Ok(_) => Ok(bytes::Bytes::new()),
        Err(status) => Err(actix_web::error::ErrorInternalServerError(
            status.message().to_owned(),
        )),
    });
    let disposition = actix_web::http::header::ContentDisposition {
        disposition: actix_web::http::header::DispositionType::Attachment,
        parameters: vec![
            actix_web::http::header::DispositionParam::Filename(header.filename.clone()),
            actix_web::http::header::DispositionParam::FilenameExt(
                actix_web::http::header::ExtendedValue {
                    charset: actix_web::http::header::Charset::Ext("UTF-8".into()),
                    language_tag: None,
                    value: header.filename.into_bytes(),
                },
            ),
        ],
    };
    Ok(HttpResponse::Ok()
        .content_type(header.content_type)
        .insert_header(disposition)
        .insert_header(("Cache-Control", "private, no-store"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .streaming(body))
}

#[derive(OpenApi)]
#[openapi(paths(export, export_bulk, download_export))]
pub(super) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default()
        .add::<__path_export_bulk>(Access::SignedIn, || web::to(export_bulk))
        .add::<__path_download_export>(Access::Public, || web::to(download_export))
        .add::<__path_export>(Access::SignedIn, || web::to(export))
}
