//! `/api/convert/*` and `/api/pdf-sources/*`: transcripts and PDFs to markdown, templates, and
//! the premium reprocess of a PDF Vault item, served by the conversion service.

use actix_multipart::Multipart;
use actix_web::{HttpRequest, HttpResponse, web};
use futures::StreamExt as _;
use scribevault_core::ErrorCode;
use scribevault_proto::conversion::v1 as pb;
use serde::{Deserialize, Serialize};
use tokio_stream::wrappers::ReceiverStream;

use super::uploads::forward_field;
use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

/// The largest PDF accepted (`SCRIBEVAULT_MAX_PDF_BYTES`); conversion checks it again.
pub struct PdfLimit(pub u64);

/// Most PDFs one batch upload carries.
const MAX_PDFS_PER_BATCH: usize = 20;
/// The template field is text; anything bigger is not a template.
const MAX_TEMPLATE_FIELD_BYTES: usize = 64 * 1024 + 1024;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TranscriptToConvert {
    id: String,
    #[serde(default)]
    title: String,
    transcript_path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkdownBatch {
    transcripts: Vec<TranscriptToConvert>,
    #[serde(default)]
    template: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ConvertedView {
    id: String,
    markdown_path: String,
    content: String,
}

/// `POST /api/convert/markdown/batch {transcripts[{id, title, transcriptPath}], template?}`
pub async fn markdown_batch(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
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
    let answer = clients
        .conversion
        .clone()
        .convert_transcripts_to_markdown(on_behalf_of(&user.0, request)?)
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
    let failed: Vec<serde_json::Value> = answer
        .failed
        .into_iter()
        .map(|failure| serde_json::json!({ "id": failure.id, "message": failure.message }))
        .collect();
    Ok(data(serde_json::json!({
        "results": results,
        "failed": failed,
        "unknownPlaceholders": answer.unknown_placeholders,
    })))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TemplateView {
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplateInput {
    name: String,
    body: String,
}

/// `GET /api/convert/templates`
pub async fn list_templates(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let templates = clients
        .conversion
        .clone()
        .list_templates(on_behalf_of(&user.0, pb::ListTemplatesRequest {})?)
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

/// `POST /api/convert/templates {name, body}`
pub async fn create_template(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<TemplateInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let template = clients
        .conversion
        .clone()
        .create_template(on_behalf_of(
            &user.0,
            pb::TemplateInput {
                name: body.name,
                body: body.body,
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Created().json(serde_json::json!({ "data": TemplateView::from(template) })))
}

/// `PUT /api/convert/templates/{id} {name, body}`
pub async fn update_template(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<TemplateInput>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let template = clients
        .conversion
        .clone()
        .update_template(on_behalf_of(
            &user.0,
            pb::UpdateTemplateRequest {
                id: id.into_inner(),
                template: Some(pb::TemplateInput {
                    name: body.name,
                    body: body.body,
                }),
            },
        )?)
        .await?
        .into_inner();
    Ok(data(TemplateView::from(template)))
}

/// `DELETE /api/convert/templates/{id}`
pub async fn delete_template(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    clients
        .conversion
        .clone()
        .delete_template(on_behalf_of(
            &user.0,
            pb::DeleteTemplateRequest {
                id: id.into_inner(),
            },
        )?)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

fn pdf_view(conversion: pb::PdfConversion) -> serde_json::Value {
    serde_json::json!({
        "id": conversion.id,
        "title": conversion.title,
        "content": conversion.content,
        "markdownPath": conversion.markdown_path,
        "pdfPath": conversion.pdf_path,
        "pages": conversion.pages,
        "ocrPages": conversion.ocr_pages,
        "unknownPlaceholders": conversion.unknown_placeholders,
    })
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
    user: &AuthenticatedUser,
    clients: &ServiceClients,
    template: Option<String>,
    mut field: actix_multipart::Field,
) -> Result<pb::PdfConversion, ApiError> {
    let file_name = file_name_of(&field);
    let (sender, receiver) = tokio::sync::mpsc::channel::<pb::ConvertPdfToMarkdownRequest>(4);
    let request = on_behalf_of(&user.0, ReceiverStream::new(receiver))?;
    let mut conversion = clients.conversion.clone();
    let call = tokio::spawn(async move { conversion.convert_pdf_to_markdown(request).await });
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
async fn check_room(
    user: &AuthenticatedUser,
    clients: &ServiceClients,
    bytes: u64,
) -> Result<(), ApiError> {
    clients
        .storage
        .clone()
        .check_storage_room(on_behalf_of(
            &user.0,
            scribevault_proto::storage::v1::CheckStorageRoomRequest { bytes },
        )?)
        .await?;
    Ok(())
}

/// `POST /api/convert/pdf` (multipart: `template` (optional, before the file), `pdf`)
pub async fn convert_pdf(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    limit: web::Data<PdfLimit>,
    mut form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let declared = check_declared_length(&request, limit.0, 1)?;
    check_room(&user, &clients, declared).await?;
    let mut template = None;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(form_error)?;
        match field.name().unwrap_or_default() {
            "template" => template = Some(read_template(&mut field).await?),
            "pdf" => {
                let converted = send_pdf(&user, &clients, template.take(), field).await?;
                return Ok(data(pdf_view(converted)));
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

/// `POST /api/convert/pdf/batch` (multipart: `template` (optional, first), then `pdf` parts):
/// each file converted on its own, answered in the order sent.
pub async fn convert_pdf_batch(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    limit: web::Data<PdfLimit>,
    mut form: Multipart,
) -> Result<HttpResponse, ApiError> {
    let declared = check_declared_length(&request, limit.0, MAX_PDFS_PER_BATCH as u64)?;
    check_room(&user, &clients, declared).await?;
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
                let answer = match send_pdf(&user, &clients, template.clone(), field).await {
                    Ok(converted) => {
                        serde_json::json!({ "fileName": file_name, "result": pdf_view(converted) })
                    }
                    Err(error) => {
                        let mut body = error.details.clone().unwrap_or_default();
                        body.insert("message".into(), error.message.clone().into());
                        body.insert("code".into(), error.code.as_str().into());
                        serde_json::json!({ "fileName": file_name, "error": body })
                    }
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

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Reprocess {
    #[serde(default)]
    use_premium_mode: bool,
}

/// `POST /api/pdf-sources/reprocess-transcript/{id} {usePremiumMode}`
pub async fn reprocess(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<Reprocess>,
) -> Result<HttpResponse, ApiError> {
    let converted = clients
        .conversion
        .clone()
        .reprocess_transcript(on_behalf_of(
            &user.0,
            pb::ReprocessTranscriptRequest {
                id: id.into_inner(),
                use_premium_mode: body.use_premium_mode,
            },
        )?)
        .await?
        .into_inner();
    Ok(data(pdf_view(converted)))
}
