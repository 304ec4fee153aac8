//! The multipart form of `POST /v1/audio/transcriptions`, read the way OpenAI's API reads it:
//! the `file` part (spooled to a temporary file in the spool on the data volume, within the
//! instance's upload limit) and the text fields, in any order.

use actix_multipart::{Field, Multipart};
use futures::StreamExt as _;
use scribevault_core::language::LanguageChoice;
use tokio::io::AsyncWriteExt as _;

use super::error::OpenAiError;

/// Text fields are short; anything longer is not one of OpenAI's.
const MAX_FIELD_BYTES: usize = 16 * 1024;

/// What a form adds to its file: boundaries, part headers and the text fields.
pub const FORM_OVERHEAD_BYTES: u64 = 256 * 1024;

/// What the response carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseFormat {
    Json,
    Text,
    Srt,
    VerboseJson,
    Vtt,
}

impl ResponseFormat {
    fn parse(value: &str) -> Result<Self, OpenAiError> {
        Ok(match value {
            "json" => Self::Json,
            "text" => Self::Text,
            "srt" => Self::Srt,
            "verbose_json" => Self::VerboseJson,
            "vtt" => Self::Vtt,
            other => {
                return Err(OpenAiError::InvalidField {
                    param: "response_format",
                    message: format!(
                        "response_format '{other}' is not supported: use json, text, srt, verbose_json or vtt"
                    ),
                });
            }
        })
    }
}

/// The uploaded audio, deleted when dropped.
pub struct UploadedFile {
    pub path: tempfile::TempPath,
    /// The name the client gave it (may be empty or lack an extension).
    pub name: String,
}

/// A transcription request.
pub struct TranscriptionForm {
    pub file: UploadedFile,
    /// As sent; `whisper-1` and an absent model mean the instance's default.
    pub model: Option<String>,
    pub language: Option<String>,
    pub response_format: ResponseFormat,
    /// `timestamp_granularities[]` includes `word`.
    pub word_timestamps: bool,
}

fn invalid(param: &'static str, message: impl Into<String>) -> OpenAiError {
    OpenAiError::InvalidField {
        param,
        message: message.into(),
    }
}

async fn text(field: &mut Field, name: &'static str) -> Result<String, OpenAiError> {
    let mut value = Vec::new();
    while let Some(chunk) = field.next().await {
        let chunk =
            chunk.map_err(|error| invalid(name, format!("Could not read {name}: {error}")))?;
        value.extend_from_slice(&chunk);
        if value.len() > MAX_FIELD_BYTES {
            return Err(invalid(name, format!("{name} is too long")));
        }
    }
    String::from_utf8(value).map_err(|_| invalid(name, format!("{name} must be UTF-8 text")))
}

async fn spool(
    field: &mut Field,
    dir: &std::path::Path,
    limit: u64,
) -> Result<UploadedFile, OpenAiError> {
    let name = field
        .content_disposition()
        .and_then(|disposition| disposition.get_filename())
        .unwrap_or_default()
        .to_owned();
    let path = tempfile::NamedTempFile::new_in(dir)
        .map_err(|error| OpenAiError::Api(crate::error::ApiError::internal(error)))?
        .into_temp_path();
    let mut out = tokio::fs::File::create(&path)
        .await
        .map_err(|error| OpenAiError::Api(crate::error::ApiError::internal(error)))?;
    let mut size: u64 = 0;
    while let Some(chunk) = field.next().await {
        let chunk =
            chunk.map_err(|error| invalid("file", format!("The upload broke off: {error}")))?;
        size += chunk.len() as u64;
        if size > limit {
            return Err(OpenAiError::FileTooLarge {
                limit_mb: limit / (1024 * 1024),
            });
        }
        out.write_all(&chunk)
            .await
            .map_err(|error| OpenAiError::Api(crate::error::ApiError::internal(error)))?;
    }
    out.flush()
        .await
        .map_err(|error| OpenAiError::Api(crate::error::ApiError::internal(error)))?;
    if size == 0 {
        return Err(invalid("file", "The file is empty"));
    }
    Ok(UploadedFile { path, name })
}

fn optional(value: String) -> Option<String> {
    let value = value.trim();
    (!value.is_empty()).then(|| value.to_owned())
}

fn check_temperature(value: &str) -> Result<(), OpenAiError> {
    let parsed: f32 = value
        .trim()
        .parse()
        .map_err(|_| invalid("temperature", "temperature must be a number from 0 to 1"))?;
    if (0.0..=1.0).contains(&parsed) {
        Ok(())
    } else {
        Err(invalid(
            "temperature",
            "temperature must be a number from 0 to 1",
        ))
    }
}

/// Whether one `timestamp_granularities[]` value asks for word times.
fn wants_words(value: &str) -> Result<bool, OpenAiError> {
    match value.trim() {
        "word" => Ok(true),
        "segment" => Ok(false),
        other => Err(invalid(
            "timestamp_granularities[]",
            format!("timestamp_granularities[] '{other}' is not one of word, segment"),
        )),
    }
}

/// OpenAI's `language` is ISO-639-1, which Whisper's codes are (plus `haw` and `yue`); the code
/// goes to the worker as the language to decode in, so an unknown one is refused here rather
/// than failing the file later.
fn check_language(language: &str) -> Result<String, OpenAiError> {
    match language.parse::<LanguageChoice>() {
        Ok(LanguageChoice::Fixed(code)) => Ok(code.to_owned()),
        Ok(LanguageChoice::Auto) | Err(_) => Err(invalid(
            "language",
            format!(
                "language '{language}' is not an ISO-639-1 code Whisper knows, such as 'en' or 'de'"
            ),
        )),
    }
}

/// Reads the whole form, spooling the file into `dir`; `limit` is the largest file taken.
pub async fn read(
    mut form: Multipart,
    dir: &std::path::Path,
    limit: u64,
) -> Result<TranscriptionForm, OpenAiError> {
    let mut file = None;
    let mut model = None;
    let mut language = None;
    let mut response_format = ResponseFormat::Json;
    let mut word_timestamps = false;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|error| {
            invalid(
                "file",
                format!("The request is not a readable multipart form: {error}"),
            )
        })?;
        match field.name().unwrap_or_default() {
            "file" => file = Some(spool(&mut field, dir, limit).await?),
            "model" => model = optional(text(&mut field, "model").await?),
            "language" => language = optional(text(&mut field, "language").await?),
            // Accepted, as OpenAI's clients send it, and not used: the worker keeps its own
            // context between windows.
            "prompt" => {
                text(&mut field, "prompt").await?;
            }
            "response_format" => {
                response_format =
                    ResponseFormat::parse(text(&mut field, "response_format").await?.trim())?;
            }
            // Checked and not used: the worker's temperature fallback decides.
            "temperature" => check_temperature(&text(&mut field, "temperature").await?)?,
            "timestamp_granularities[]" | "timestamp_granularities" => {
                word_timestamps |=
                    wants_words(&text(&mut field, "timestamp_granularities[]").await?)?;
            }
            // `stream` (ignored for whisper models, as OpenAI does), `chunking_strategy`,
            // `include[]` and anything newer: read and ignored.
            _ => {
                text(&mut field, "field").await.ok();
            }
        }
    }
    let file = file.ok_or_else(|| invalid("file", "A file is required (form field \"file\")"))?;
    let language = language.as_deref().map(check_language).transpose()?;
    Ok(TranscriptionForm {
        file,
        model,
        language,
        response_format,
        word_timestamps,
    })
}
