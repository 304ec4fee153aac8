//! REST errors: `{"error": {"message": "…", "code": "…"}}` with the status of the shared
//! [`ErrorCode`]. Internal details are logged here, once, and never returned.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use scribevault_core::ErrorCode;

/// An error answered to a REST caller.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// Which kind of failure; decides the status.
    pub code: ErrorCode,
    /// Safe to show to the user.
    pub message: String,
    /// More fields of the error object (a damaged PDF's `recovered` text).
    pub details: Option<serde_json::Map<String, serde_json::Value>>,
}

impl ApiError {
    /// An error with a user-facing message.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            details: None,
        }
    }

    /// 400 with `message`.
    #[must_use]
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, message)
    }

    /// 401 with `message`.
    #[must_use]
    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthenticated, message)
    }

    /// 404 with `message`.
    #[must_use]
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }

    /// 500; `detail` goes to the log only.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!(error = %detail, "internal error");
        Self::new(ErrorCode::Internal, ErrorCode::Internal.public_message())
    }
}

impl ApiError {
    /// The error object of the spec's error shape: `message`, `code`, and any details.
    #[must_use]
    pub fn body(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut error = self.details.clone().unwrap_or_default();
        error.insert("message".into(), self.message.clone().into());
        error.insert("code".into(), self.code.as_str().into());
        error
    }
}

/// `{"error": …}`.
#[derive(serde::Serialize)]
struct ErrorEnvelope {
    error: serde_json::Map<String, serde_json::Value>,
}

impl From<tonic::Status> for ApiError {
    fn from(status: tonic::Status) -> Self {
        let code = ErrorCode::of_status(&status);
        match code {
            ErrorCode::Internal => Self::internal(format!("downstream: {status}")),
            ErrorCode::Unavailable => {
                tracing::error!(error = %status, "downstream service unavailable");
                Self::new(code, code.public_message())
            }
            _ => {
                let mut error = Self::new(code, status.message());
                error.details = status
                    .metadata()
                    .get_bin(scribevault_core::error_code::ERROR_DETAILS_METADATA)
                    .and_then(|value| value.to_bytes().ok())
                    .and_then(|bytes| serde_json::from_slice(&bytes).ok());
                error
            }
        }
    }
}

/// A service answered an enum value the contract has no name for (it was built from a newer
/// `.proto`, or left the field unset): its answer cannot be shown, and the client did nothing
/// wrong, so a 500 rather than the 400 the service itself would give a caller.
impl From<scribevault_bus::wire::WireEnumError> for ApiError {
    fn from(error: scribevault_bus::wire::WireEnumError) -> Self {
        Self::internal(format!("downstream answer: {error}"))
    }
}

impl From<sea_orm::DbErr> for ApiError {
    fn from(error: sea_orm::DbErr) -> Self {
        Self::internal(error)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status_code()).json(ErrorEnvelope { error: self.body() })
    }
}

/// Maps actix's JSON body errors to clear 4xx answers.
pub fn json_error(
    error: actix_web::error::JsonPayloadError,
    _request: &actix_web::HttpRequest,
) -> actix_web::Error {
    use actix_web::error::JsonPayloadError;
    let api_error = match &error {
        JsonPayloadError::ContentType => ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "Content-Type must be application/json",
        ),
        JsonPayloadError::Overflow { limit }
        | JsonPayloadError::OverflowKnownLength { limit, .. } => ApiError::new(
            ErrorCode::PayloadTooLarge,
            format!("Request body is larger than {limit} bytes"),
        ),
        JsonPayloadError::Deserialize(inner) if inner.is_data() => {
            ApiError::bad_request(format!("Invalid request body: {inner}"))
        }
        JsonPayloadError::Deserialize(inner) => {
            ApiError::bad_request(format!("Malformed JSON: {inner}"))
        }
        _ => ApiError::bad_request("Could not read the request body"),
    };
    api_error.into()
}

/// Maps query-string errors to 400.
pub fn query_error(
    error: actix_web::error::QueryPayloadError,
    _request: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::bad_request(format!("Invalid query string: {error}")).into()
}

/// Maps path parameter errors to 400.
pub fn path_error(
    error: actix_web::error::PathError,
    _request: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::bad_request(format!("Invalid path: {error}")).into()
}

/// The `{"data": …}` envelope of every successful answer.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Envelope<T> {
    pub data: T,
}

/// 200 with `value` in the envelope.
pub fn data(value: impl serde::Serialize) -> HttpResponse {
    HttpResponse::Ok().json(Envelope { data: value })
}

/// 201 with `value` in the envelope.
pub fn created(value: impl serde::Serialize) -> HttpResponse {
    HttpResponse::Created().json(Envelope { data: value })
}
