//! Thin gRPC adapter: proto in, domain call, proto out. No logic lives here.

use futures::StreamExt as _;
use scribevault_core::identity::caller;
use scribevault_proto::conversion::v1 as pb;
use scribevault_proto::conversion::v1::conversion_service_server::ConversionService;
use tonic::{Request, Response, Status, Streaming};

use crate::domain::{PdfConversion, Template, TranscriptToConvert};
use crate::error::ConversionError;
use crate::service::Conversion;

/// Serves [`Conversion`] over gRPC.
pub struct ConversionGrpc {
    conversion: Conversion,
}

impl ConversionGrpc {
    pub fn new(conversion: Conversion) -> Self {
        Self { conversion }
    }
}

fn template_to_proto(template: Template) -> pb::Template {
    pb::Template {
        id: template.id,
        name: template.name,
        body: template.body,
        created_at: template.created_at.to_rfc3339(),
        updated_at: template.updated_at.to_rfc3339(),
    }
}

fn pdf_to_proto(conversion: PdfConversion) -> pb::PdfConversion {
    pb::PdfConversion {
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

#[tonic::async_trait]
impl ConversionService for ConversionGrpc {
    async fn convert_transcripts_to_markdown(
        &self,
        request: Request<pb::ConvertTranscriptsToMarkdownRequest>,
    ) -> Result<Response<pb::ConvertTranscriptsToMarkdownResponse>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let batch = request
            .transcripts
            .into_iter()
            .map(|transcript| TranscriptToConvert {
                id: transcript.id,
                title: transcript.title,
                transcript_path: transcript.transcript_path,
            })
            .collect();
        let answer = self
            .conversion
            .convert_transcripts(&user, batch, request.template)
            .await?;
        Ok(Response::new(pb::ConvertTranscriptsToMarkdownResponse {
            results: answer
                .results
                .into_iter()
                .map(|result| pb::ConversionResult {
                    id: result.id,
                    markdown_path: result.markdown_path,
                    content: result.content,
                })
                .collect(),
            failed: answer
                .failed
                .into_iter()
                .map(|failure| pb::ConversionFailure {
                    id: failure.id,
                    message: failure.message,
                })
                .collect(),
            unknown_placeholders: answer.unknown_placeholders,
        }))
    }

    async fn convert_pdf_to_markdown(
        &self,
        request: Request<Streaming<pb::ConvertPdfToMarkdownRequest>>,
    ) -> Result<Response<pb::PdfConversion>, Status> {
        let user = caller(&request)?;
        let mut stream = request.into_inner();
        let header = match stream.next().await {
            Some(Ok(pb::ConvertPdfToMarkdownRequest {
                part: Some(pb::convert_pdf_to_markdown_request::Part::Header(header)),
            })) => header,
            Some(Err(status)) => return Err(status),
            _ => {
                return Err(ConversionError::InvalidArgument(
                    "the first message must be the header".to_owned(),
                )
                .into());
            }
        };
        // The permit comes first: a PDF waiting for one is not yet read, not held in memory.
        let mut pdf = self
            .conversion
            .receive_pdf()
            .await
            .map_err(ConversionError::Pdf)?;
        while let Some(message) = stream.next().await {
            match message?.part {
                Some(pb::convert_pdf_to_markdown_request::Part::Chunk(chunk)) => {
                    pdf.write(&chunk).await.map_err(ConversionError::Pdf)?;
                }
                _ => {
                    return Err(ConversionError::InvalidArgument(
                        "only the first message may be a header".to_owned(),
                    )
                    .into());
                }
            }
        }
        let conversion = self
            .conversion
            .convert_pdf(&user, &header.file_name, header.template, &mut pdf)
            .await?;
        Ok(Response::new(pdf_to_proto(conversion)))
    }

    async fn reprocess_transcript(
        &self,
        request: Request<pb::ReprocessTranscriptRequest>,
    ) -> Result<Response<pb::PdfConversion>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let conversion = self
            .conversion
            .reprocess(&user, &request.id, request.use_premium_mode)
            .await?;
        Ok(Response::new(pdf_to_proto(conversion)))
    }

    async fn list_templates(
        &self,
        request: Request<pb::ListTemplatesRequest>,
    ) -> Result<Response<pb::ListTemplatesResponse>, Status> {
        let user = caller(&request)?;
        let templates = self.conversion.templates(&user).await?;
        Ok(Response::new(pb::ListTemplatesResponse {
            templates: templates.into_iter().map(template_to_proto).collect(),
        }))
    }

    async fn create_template(
        &self,
        request: Request<pb::TemplateInput>,
    ) -> Result<Response<pb::Template>, Status> {
        let user = caller(&request)?;
        let input = request.into_inner();
        let template = self
            .conversion
            .create_template(&user, &input.name, input.body)
            .await?;
        Ok(Response::new(template_to_proto(template)))
    }

    async fn update_template(
        &self,
        request: Request<pb::UpdateTemplateRequest>,
    ) -> Result<Response<pb::Template>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let input = request.template.unwrap_or_default();
        let template = self
            .conversion
            .update_template(&user, &request.id, &input.name, input.body)
            .await?;
        Ok(Response::new(template_to_proto(template)))
    }

    async fn delete_template(
        &self,
        request: Request<pb::DeleteTemplateRequest>,
    ) -> Result<Response<pb::DeleteTemplateResponse>, Status> {
        let user = caller(&request)?;
        self.conversion
            .delete_template(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::DeleteTemplateResponse {}))
    }

    async fn delete_user_data(
        &self,
        request: Request<pb::DeleteUserDataRequest>,
    ) -> Result<Response<pb::DeleteUserDataResponse>, Status> {
        let user = caller(&request)?;
        let deleted = self.conversion.delete_user_data(&user).await?;
        Ok(Response::new(pb::DeleteUserDataResponse {
            rows_deleted: deleted.rows,
            blobs_deleted: deleted.blobs,
        }))
    }
}
