//! Errors of the OpenAI-compatible routes, in OpenAI's shape
//! (`{"error": {"message", "type", "param", "code"}}`), because its clients (the `openai`
//! packages, Open WebUI) read `type` and `param`; the message stays the one a user can act on.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use super::permits::{Busy, RETRY_AFTER_SECONDS};
use crate::error::ApiError;

/// Why a transcription request was refused or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum OpenAiError {
    /// A field is missing or has a value the API does not take.
    #[error("{message}")]
    InvalidField {
        param: &'static str,
        message: String,
    },
    /// The file is larger than the instance's upload limit.
    #[error("The file is too large: the limit is {limit_mb} MB")]
    FileTooLarge { limit_mb: u64 },
    /// The file is not audio any decoder here reads.
    #[error("Could not read the audio file: {0}")]
    UnreadableAudio(String),
    /// The file is not in one of the containers taken (a playlist, a script, a video format).
    #[error(
        "The file is not {}: send one of those",
        super::audio::ACCEPTED_FORMATS
    )]
    UnsupportedFormat,
    /// The member or the instance is transcoding as many files as it takes at once.
    #[error("{}", match .0 {
        Busy::Member => "You are already sending as many files as this instance transcodes at once for one member; send this one when one of them is done",
        Busy::Instance => "This instance is transcoding as many files as it takes at once; send this one again shortly",
    })]
    Busy(Busy),
    /// The spool has no room for the upload and its transcode.
    #[error(
        "The server has no disk space for this file right now; try again later or ask the administrator"
    )]
    DiskFull,
    /// The model asked for is not installed.
    #[error("The model '{0}' does not exist; GET /v1/models lists the installed ones")]
    UnknownModel(String),
    /// Transcription failed for good.
    #[error("Transcription failed: {0}")]
    TranscriptionFailed(String),
    /// The file is still waiting or being transcribed when the wait limit passed; it goes on,
    /// and lands in the Vault when the token keeps transcriptions.
    #[error(
        "The transcription did not finish within {0} seconds. It goes on in the background; send the same file again to wait for it."
    )]
    StillRunning(u64),
    /// A downstream service or the gateway itself failed; the REST error says how.
    #[error("{}", .0.message)]
    Api(ApiError),
}

impl From<ApiError> for OpenAiError {
    fn from(error: ApiError) -> Self {
        Self::Api(error)
    }
}

impl From<tonic::Status> for OpenAiError {
    fn from(status: tonic::Status) -> Self {
        Self::Api(status.into())
    }
}

/// OpenAI's error object.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenAiErrorDetail {
    message: String,
    /// `invalid_request_error`, `authentication_error`, `permission_error`, `not_found_error`,
    /// `rate_limit_error`, `server_error` or `timeout_error`.
    #[serde(rename = "type")]
    kind: &'static str,
    /// The request field at fault, if one is.
    param: Option<&'static str>,
    code: Option<String>,
}

/// `{"error": …}` as OpenAI answers it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenAiErrorBody {
    error: OpenAiErrorDetail,
}

impl OpenAiError {
    fn param(&self) -> Option<&'static str> {
        match self {
            Self::InvalidField { param, .. } => Some(param),
            Self::FileTooLarge { .. } | Self::UnreadableAudio(_) | Self::UnsupportedFormat => {
                Some("file")
            }
            Self::UnknownModel(_) => Some("model"),
            _ => None,
        }
    }

    fn kind(&self) -> &'static str {
        match self.status_code().as_u16() {
            401 => "authentication_error",
            403 => "permission_error",
            404 => "not_found_error",
            429 => "rate_limit_error",
            504 => "timeout_error",
            status if status >= 500 => "server_error",
            _ => "invalid_request_error",
        }
    }

    fn code(&self) -> Option<String> {
        match self {
            Self::UnknownModel(_) => Some("model_not_found".to_owned()),
            Self::UnsupportedFormat => Some("unsupported_format".to_owned()),
            Self::Busy(_) => Some("rate_limit_exceeded".to_owned()),
            Self::Api(error) => Some(error.code.as_str().to_lowercase()),
            _ => None,
        }
    }
}

impl ResponseError for OpenAiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::InvalidField { .. } | Self::UnreadableAudio(_) => StatusCode::BAD_REQUEST,
            Self::FileTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedFormat => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Busy(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::DiskFull => StatusCode::INSUFFICIENT_STORAGE,
            Self::UnknownModel(_) => StatusCode::NOT_FOUND,
            Self::TranscriptionFailed(_) => StatusCode::UNPROCESSABLE_ENTITY,
            // OpenAI's clients retry a 504 with the same file, which waits again for the same
            // transcription (a file already on its way is not started twice).
            Self::StillRunning(_) => StatusCode::GATEWAY_TIMEOUT,
            Self::Api(error) => error.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        let message = match self {
            // The REST error already hides internal details and logged them.
            Self::Api(error) => error.message.clone(),
            other => other.to_string(),
        };
        let mut response = HttpResponse::build(self.status_code());
        if let Self::Busy(_) = self {
            response.insert_header((
                actix_web::http::header::RETRY_AFTER,
                RETRY_AFTER_SECONDS.to_string(),
            ));
        }
        response.json(OpenAiErrorBody {
            error: OpenAiErrorDetail {
                message,
                kind: self.kind(),
                param: self.param(),
                code: self.code(),
            },
        })
    }
}
