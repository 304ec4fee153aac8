//! Transcripts → markdown: each read from the caller's own files, formed into paragraphs,
//! rendered through the template and stored. One transcript's failure never fails the batch.

use chrono::Utc;
use scribevault_blob::{BlobError, ByteStream, body_from_bytes, collect_body, owned_key};
use scribevault_bus::contract::TranscriptSegment;
use scribevault_core::UserId;

use super::{Conversion, template_date};
use crate::domain::paragraphs;
use crate::domain::template::{self, DEFAULT_TEMPLATE, TemplateValues};
use crate::domain::{
    ConversionFailure, ConvertedTranscript, MAX_TRANSCRIPTS_PER_BATCH, TranscriptBatch,
    TranscriptToConvert, segments_path, transcript_markdown_path,
};
use crate::error::ConversionError;

/// What the `{{source}}` of a transcript says.
const TRANSCRIPT_SOURCE: &str = "Audio transcript";

impl Conversion {
    /// Converts each transcript of `batch` with `template` (the default when `None`).
    ///
    /// # Errors
    /// An empty or oversized batch, a template over its limits. Per-transcript problems
    /// (a rendered file over its size cap among them) are reported in `failed`.
    #[tracing::instrument(skip(self, batch, template), fields(user = %user, transcripts = batch.len()))]
    pub async fn convert_transcripts(
        &self,
        user: &UserId,
        batch: Vec<TranscriptToConvert>,
        template: Option<String>,
    ) -> Result<TranscriptBatch, ConversionError> {
        if batch.is_empty() {
            return Err(ConversionError::InvalidArgument(
                "No transcripts to convert".to_owned(),
            ));
        }
        if batch.len() > MAX_TRANSCRIPTS_PER_BATCH {
            return Err(ConversionError::InvalidArgument(format!(
                "At most {MAX_TRANSCRIPTS_PER_BATCH} transcripts can be converted at once"
            )));
        }
        let template = template
            .filter(|text| !text.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_TEMPLATE.to_owned());
        template::check(&template)?;
        let date = template_date(Utc::now());
        let mut answer = TranscriptBatch {
            unknown_placeholders: template::unknown_placeholders(&template),
            ..TranscriptBatch::default()
        };
        for transcript in batch {
            match self.convert_one(user, &transcript, &template, &date).await {
                Ok(converted) => answer.results.push(converted),
                Err(message) => answer.failed.push(ConversionFailure {
                    id: transcript.id,
                    message,
                }),
            }
        }
        Ok(answer)
    }

    /// One transcript; the error is the message its row shows.
    async fn convert_one(
        &self,
        user: &UserId,
        transcript: &TranscriptToConvert,
        template: &str,
        date: &str,
    ) -> Result<ConvertedTranscript, String> {
        let path = transcript.transcript_path.trim();
        if !path.starts_with("transcripts/") {
            return Err("Not a transcript path".to_owned());
        }
        let key = owned_key(user.as_str(), path).map_err(|_| "Not a transcript path".to_owned())?;
        let text = match self.blobs.get(&key).await {
            Ok(body) => read_text(body).await?,
            Err(BlobError::NotFound(_)) => return Err("Transcript not found".to_owned()),
            Err(error) => {
                tracing::warn!(error = %error, "transcript unreadable");
                return Err("The transcript could not be read".to_owned());
            }
        };
        let body = match self.segments(user, path).await {
            Some(segments) if !segments.is_empty() => paragraphs::from_segments(&segments),
            _ => paragraphs::from_text(&text),
        };
        let title = if transcript.title.trim().is_empty() {
            "Untitled transcript"
        } else {
            transcript.title.trim()
        };
        let content = template::render(
            template,
            &TemplateValues {
                title,
                content: &body,
                date,
                source: TRANSCRIPT_SOURCE,
            },
        )
        .map_err(|error| error.to_string())?
        .text;
        let markdown_path = transcript_markdown_path(path);
        let markdown_key = owned_key(user.as_str(), &markdown_path)
            .map_err(|_| "Not a transcript path".to_owned())?;
        self.blobs
            .put(&markdown_key, body_from_bytes(content.clone()))
            .await
            .map_err(|error| {
                tracing::warn!(error = %error, "converted transcript not stored");
                "The converted file could not be stored".to_owned()
            })?;
        Ok(ConvertedTranscript {
            id: transcript.id.clone(),
            markdown_path,
            content,
        })
    }

    /// The worker's segments beside the transcript, if it wrote them and they parse.
    async fn segments(
        &self,
        user: &UserId,
        transcript_path: &str,
    ) -> Option<Vec<TranscriptSegment>> {
        let key = owned_key(user.as_str(), &segments_path(transcript_path)?).ok()?;
        let body = self.blobs.get(&key).await.ok()?;
        let bytes = collect_body(body).await.ok()?;
        serde_json::from_slice(&bytes).ok()
    }
}

async fn read_text(body: ByteStream) -> Result<String, String> {
    let bytes = collect_body(body)
        .await
        .map_err(|_| "The transcript could not be read".to_owned())?;
    String::from_utf8(bytes).map_err(|_| "The transcript is not UTF-8 text".to_owned())
}
