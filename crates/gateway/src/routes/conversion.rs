//! `/api/convert/*` and `/api/pdf-sources/*`: transcripts and PDFs to markdown, templates, and
//! the premium reprocess of a PDF Vault item, served by the conversion service.

use actix_multipart::Multipart;
use actix_web::{HttpRequest, HttpResponse, web};
use futures::StreamExt as _;
use scribevault_core::ErrorCode;
use scribevault_proto::conversion::v1 as pb;
use serde::{Deserialize, Serialize};
use tokio_stream::wrappers::ReceiverStream;
use utoipa::{OpenApi, ToSchema};

use super::openapi::{ErrorBody, ErrorObject};
use super::uploads::forward_field;
use crate::clients::UserClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::table::{Access, RouteList};

/// Most PDFs one batch upload carries.
const MAX_PDFS_PER_BATCH: usize = 20;
/// The template field is text; anything bigger is not a template.
const MAX_TEMPLATE_FIELD_BYTES: usize = 64 * 1024 + 1024;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TranscriptToConvert {
    id: String,
    #[serde(default)]
    title: String,
    transcript_path: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkdownBatch {
    transcripts: Vec<TranscriptToConvert>,
    #[serde(default)]
    template: Option<String>,
}

/// A transcript converted to markdown.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConvertedView {
    id: String,
    markdown_path: String,
    content: String,
}

/// Converts transcripts to markdown, with the caller's template or the default one.
#[utoipa::path(post, path = "/api/convert/markdown/batch", tag = "conversion", request_body = MarkdownBatch, responses((status = 200, body = Envelope<MarkdownBatchView>)))]
pub async fn markdown_batch(
    services: UserClients,
    body: web::Json<MarkdownBatch>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = pb::ConvertTranscriptsToMarkdownRequest {
        transcripts: body
            .transcripts
            .into_iter()
            .map(|transcript| pb::TranscriptToConvert {
                id: transcript.id,
                title: transcript.title,
                transcript_path: transcript.transcript_path,
            })
            .collect(),
        template: body.template,
    };
    let answer = services
        .conversion()
        .convert_transcripts_to_markdown(request)
        .await?
        .into_inner();
    let results: Vec<ConvertedView> = answer
        .results
        .into_iter()
        .map(|result| ConvertedView {
            id: result.id,
            markdown_path: result.markdown_path,
            content: result.content,
        })
        .collect();
    let failed = answer
        .failed
        .into_iter()
        .map(|failure| FailedConversionView {
            id: failure.id,
            message: failure.message,
        })
        .collect();
    Ok(data(MarkdownBatchView {
        results,
        failed,
        unknown_placeholders: answer.unknown_placeholders,
    }))
}

/// A transcript that could not be converted.
#[derive(Serialize, ToSchema)]
pub struct FailedConversionView {
    id: String,
    message: String,
}

/// What a batch conversion made.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarkdownBatchView {
    results: Vec<ConvertedView>,
    failed: Vec<FailedConversionView>,
    /// Placeholders of the template that are not known (kept as written).
    unknown_placeholders: Vec<String>,
}

/// A markdown template of the caller's.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateView {
    id: String,
    name: String,
    body: String,
    created_at: String,
    updated_at: String,
}

impl From<pb::Template> for TemplateView {
    fn from(template: pb::Template) -> Self {
        Self {
            id: template.id,
            name: template.name,
            body: template.body,
            created_at: template.created_at,
            updated_at: template.updated_at,
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TemplateInput {
    name: String,
    body: String,
}

/// The caller's markdown templates.
#[utoipa::path(get, path = "/api/convert/templates", tag = "conversion", responses((status = 200, body = Envelope<Vec<TemplateView>>)))]
pub async fn list_templates(services: UserClients) -> Result<HttpResponse, ApiError> {
    let templates = services
        .conversion()
        .list_templates(pb::ListTemplatesRequest {})
        .await?
        .into_inner()
        .templates;
    Ok(data(
        templates
            .into_iter()
            .map(TemplateView::from)
            .collect::<Vec<_>>(),
    ))
}

/// Saves a new template.
#[utoipa::path(post, path = "/api/convert/templates", tag = "conversion", request_body = TemplateInput, responses((status = 201, body = Envelope<TemplateView>)))]
pub async fn create_template(
    services: UserClients,
    body: web::Json<TemplateInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let template = services
        .conversion()
        .create_template(pb::TemplateInput {
            name: body.name,
            body: body.body,
        })
        .await?
        .into_inner();
    Ok(created(TemplateView::from(template)))
}

/// Replaces a template.
#[utoipa::path(put, path = "/api/convert/templates/{id}", tag = "conversion", params(("id" = String, Path)), request_body = TemplateInput, responses((status = 200, body = Envelope<TemplateView>)))]
pub async fn update_template(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<TemplateInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let template = services
        .conversion()
        .update_template(pb::UpdateTemplateRequest {
            id: id.into_inner(),
            template: Some(pb::TemplateInput {
                name: body.name,
                body: body.body,
            }),
        })
        .await?
        .into_inner();
    Ok(data(TemplateView::from(template)))
}

/// Deletes a template.
#[utoipa::path(delete, path = "/api/convert/templates/{id}", tag = "conversion", params(("id" = String, Path)), responses((status = 204, description = "Deleted")))]
pub async fn delete_template(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    services
        .conversion()
        .delete_template(pb::DeleteTemplateRequest {
            id: id.into_inner(),
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// A PDF converted to markdown (and saved in the Vault).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PdfView {
    id: String,
    title: String,
    content: String,
    markdown_path: String,
    pdf_path: String,
    pages: u32,
    /// 1-based numbers of the pages without a text layer (their text is missing unless OCR ran).
    ocr_pages: Vec<u32>,
    unknown_placeholders: Vec<String>,
}

impl From<pb::PdfConversion> for PdfView {
    fn from(conversion: pb::PdfConversion) -> Self {
        Self {
            id: conversion.id,
            title: conversion.title,
            content: conversion.content,
            markdown_path: conversion.markdown_path,
            pdf_path: conversion.pdf_path,
            pages: conversion.pages,
            ocr_pages: conversion.ocr_pages,
            unknown_placeholders: conversion.unknown_placeholders,
        }
    }
}

/// One file of a batch: its conversion or why it failed.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PdfBatchItemView {
    file_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<PdfView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<ErrorObject>)]
    error: Option<serde_json::Map<String, serde_json::Value>>,
}

/// The form of a PDF conversion: `template` (optional) before the `pdf` part(s).
#[derive(ToSchema)]
#[allow(dead_code)] // describes the multipart body for the OpenAPI document only
pub struct PdfForm {
    template: Option<String>,
    #[schema(format = Binary, content_media_type = "application/pdf")]
    pdf: String,
}

fn too_large(limit: u64) -> ApiError {
    ApiError::new(
        ErrorCode::PayloadTooLarge,
        format!("The PDF is larger than {} MB", limit / (1024 * 1024)),
    )
}

fn form_error(error: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("Could not read the upload: {error}"))
}

async fn read_template(field: &mut actix_multipart::Field) -> Result<String, ApiError> {
    let mut value = Vec::new();
    while let Some(chunk) = field.next().await {
        value.extend_from_slice(&chunk.map_err(form_error)?);
        if value.len() > MAX_TEMPLATE_FIELD_BYTES {
            return Err(ApiError::bad_request("The template is too long"));
        }
    }
    // Browsers send a textarea's line breaks as CRLF in a form; templates use LF.
    String::from_utf8(value)
        .map(|text| text.replace("\r\n", "\n"))
        .map_err(|_| ApiError::bad_request("The template must be UTF-8 text"))
}

fn file_name_of(field: &actix_multipart::Field) -> String {
    field
        .content_disposition()
        .and_then(|disposition| disposition.get_filename())
        .unwrap_or_default()
        .to_owned()
}

/// Streams one `pdf` part to conversion and answers its conversion.
async fn send_pdf(
    services: &UserClients,
    template: Option<String>,
    mut field: actix_multipart::Field,
) -> Result<pb::PdfConversion, ApiError> {
    let file_name = file_name_of(&field);
    let (sender, receiver) = tokio::sync::mpsc::channel::<pb::ConvertPdfToMarkdownRequest>(4);
    let mut conversion = services.conversion();
    let call = tokio::spawn(async move {
        conversion
            .convert_pdf_to_markdown(ReceiverStream::new(receiver))
            .await
    });
    let header = pb::ConvertPdfToMarkdownRequest {
        part: Some(pb::convert_pdf_to_markdown_request::Part::Header(
            pb::PdfHeader {
                file_name,
                template,
            },
        )),
    };
    let interrupted = sender.send(header).await.is_ok()
        && forward_field(&mut field, &sender, |chunk| {
            pb::ConvertPdfToMarkdownRequest {
                part: Some(pb::convert_pdf_to_markdown_request::Part::Chunk(chunk)),
            }
        })
        .await
        .is_err();
    if interrupted {
        call.abort();
        return Err(ApiError::bad_request("The upload was interrupted"));
    }
    drop(sender);
    Ok(call.await.map_err(ApiError::internal)??.into_inner())
}

/// Checks the declared size against the PDF limit; answers it (0 when none was declared).
fn check_declared_length(request: &HttpRequest, limit: u64, files: u64) -> Result<u64, ApiError> {
    let declared = request
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit.saturating_mul(files) + 128 * 1024) {
        return Err(too_large(limit));
    }
    Ok(declared.unwrap_or(0))
}

/// Refuses (507) a conversion whose PDFs would not fit the user's storage quota: the original
/// and its markdown are kept under `converted/`, which the quota counts. Asked before a byte
/// is read, as an MP3 upload is.
async fn check_room(services: &UserClients, bytes: u64) -> Result<(), ApiError> {
    services
        .storage()
        .check_storage_room(scribevault_proto::storage::v1::CheckStorageRoomRequest { bytes })
        .await?;
    Ok(())
}

/// Converts a PDF to markdown and saves it in the Vault (multipart: `template` (optional,
/// before the file), `pdf`).
#[utoipa::path(
    post,
    path = "/api/convert/pdf",
    tag = "conversion",
    request_body(content = PdfForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, body = Envelope<PdfView>),
        (status = 413, description = "Larger than the PDF limit", body = ErrorBody),
        (status = 415, description = "Not a PDF", body = ErrorBody),
        (status = 422, description = "Encrypted or damaged; `recovered` has what could be read", body = ErrorBody),
        (status = 507, description = "The caller's storage quota is full", body = ErrorBody),
    )
)]
pub async fn convert_pdf(
    request: HttpRequest,
    services: UserClients,
    context: Context,
    mut form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let declared = check_declared_length(&request, context.limits.pdf_bytes, 1)?;
    check_room(&services, declared).await?;
    let mut template = None;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(form_error)?;
        match field.name().unwrap_or_default() {
            "template" => template = Some(read_template(&mut field).await?),
            "pdf" => {
                let converted = send_pdf(&services, template.take(), field).await?;
                return Ok(data(PdfView::from(converted)));
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "Unknown form field {other:?} (expected \"pdf\" and \"template\")"
                )));
            }
        }
    }
    Err(ApiError::bad_request(
        "No PDF in the upload (form field \"pdf\")",
    ))
}

/// Converts up to 20 PDFs, each on its own, answered in the order sent (multipart: `template`
/// (optional, first), then `pdf` parts). A file that fails has `error` instead of `result`.
#[utoipa::path(
    post,
    path = "/api/convert/pdf/batch",
    tag = "conversion",
    request_body(content = PdfForm, content_type = "multipart/form-data"),
    responses(
        (status = 200, body = Envelope<Vec<PdfBatchItemView>>),
        (status = 413, description = "Larger than the PDF limit", body = ErrorBody),
        (status = 507, description = "The caller's storage quota is full", body = ErrorBody),
    )
)]
pub async fn convert_pdf_batch(
    request: HttpRequest,
    services: UserClients,
    context: Context,
    mut form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let limit = context.limits.pdf_bytes;
    let declared = check_declared_length(&request, limit, MAX_PDFS_PER_BATCH as u64)?;
    check_room(&services, declared).await?;
    let mut template = None;
    let mut answers = Vec::new();
    while let Some(field) = form.next().await {
        let mut field = field.map_err(form_error)?;
        match field.name().unwrap_or_default() {
            "template" => template = Some(read_template(&mut field).await?),
            "pdf" => {
                if answers.len() == MAX_PDFS_PER_BATCH {
                    return Err(ApiError::bad_request(format!(
                        "At most {MAX_PDFS_PER_BATCH} PDFs can be converted at once"
                    )));
                }
                let file_name = file_name_of(&field);
                let outcome = send_pdf(&services, template.clone(), field).await;
                let answer = match outcome {
                    Ok(converted) => PdfBatchItemView {
                        file_name,
                        result: Some(PdfView::from(converted)),
                        error: None,
                    },
                    Err(error) => PdfBatchItemView {
                        file_name,
                        result: None,
                        error: Some(error.body()),
                    },
                };
                answers.push(answer);
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "Unknown form field {other:?} (expected \"pdf\" and \"template\")"
                )));
            }
        }
    }
    if answers.is_empty() {
        return Err(ApiError::bad_request(
            "No PDF in the upload (form field \"pdf\")",
        ));
    }
    Ok(data(answers))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reprocess {
    #[serde(default)]
    use_premium_mode: bool,
}

/// Converts a PDF Vault item again (premium mode runs OCR on every page); answers the new
/// conversion.
#[utoipa::path(post, path = "/api/pdf-sources/reprocess-transcript/{id}", tag = "conversion", params(("id" = String, Path)), request_body = Reprocess, responses((status = 200, body = Envelope<PdfView>)))]
pub async fn reprocess(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<Reprocess>,
) -> Result<HttpResponse, ApiError> {
    let converted = services
        .conversion()
        .reprocess_transcript(pb::ReprocessTranscriptRequest {
            id: id.into_inner(),
            use_premium_mode: body.use_premium_mode,
        })
        .await?
        .into_inner();
    Ok(data(PdfView::from(converted)))
}

#[derive(OpenApi)]
#[openapi(paths(
    markdown_batch,
    list_templates,
    create_template,
    update_template,
    delete_template,
    convert_pdf,
    convert_pdf_batch,
    reprocess
))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_markdown_batch>(SignedIn, || web::to(markdown_batch))
        .add::<__path_list_templates>(SignedIn, || web::to(list_templates))
        .add::<__path_create_template>(SignedIn, || web::to(create_template))
        .add::<__path_update_template>(SignedIn, || web::to(update_template))
        .add::<__path_delete_template>(SignedIn, || web::to(delete_template))
        .add::<__path_convert_pdf>(SignedIn, || web::to(convert_pdf))
        .add::<__path_convert_pdf_batch>(SignedIn, || web::to(convert_pdf_batch))
        .add::<__path_reprocess>(SignedIn, || web::to(reprocess))
}
