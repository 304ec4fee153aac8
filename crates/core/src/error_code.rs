//! The single error vocabulary of the system.
//!
//! Every crate has its own `thiserror` enum; each variant maps to one [`ErrorCode`], and only
//! this module knows which HTTP status and which gRPC code that is. The gateway turns a gRPC
//! status back into the same code, so a `NotFound` raised in the library service is a 404 at
//! the edge without anyone in between having to know.

use serde::Serialize;

/// What kind of failure happened, independent of transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The request is malformed or fails validation; the caller must change it.
    BadRequest,
    /// No valid credentials were presented.
    Unauthenticated,
    /// Credentials are valid but the action is not allowed. Rarely used: resources of another
    /// user are reported as `NotFound` so their existence does not leak.
    Forbidden,
    /// The resource does not exist for this caller.
    NotFound,
    /// The resource already exists (duplicate email, duplicate id).
    Conflict,
    /// The body is larger than the configured limit.
    PayloadTooLarge,
    /// The body has a content type the endpoint does not accept.
    UnsupportedMediaType,
    /// The caller is over a rate limit.
    TooManyRequests,
    /// A dependency (database, bus, another service) cannot be reached right now.
    Unavailable,
    /// A bug or an unexpected failure; details are logged, never returned.
    Internal,
}

impl ErrorCode {
    /// HTTP status code for this error.
    #[must_use]
    pub fn http_status(self) -> u16 {
        match self {
            Self::BadRequest => 400,
            Self::Unauthenticated => 401,
            Self::Forbidden => 403,
            Self::NotFound => 404,
            Self::Conflict => 409,
            Self::PayloadTooLarge => 413,
            Self::UnsupportedMediaType => 415,
            Self::TooManyRequests => 429,
            Self::Unavailable => 503,
            Self::Internal => 500,
        }
    }

    /// gRPC status code for this error.
    #[must_use]
    pub fn grpc_code(self) -> tonic::Code {
        match self {
            Self::BadRequest | Self::UnsupportedMediaType => tonic::Code::InvalidArgument,
            Self::Unauthenticated => tonic::Code::Unauthenticated,
            Self::Forbidden => tonic::Code::PermissionDenied,
            Self::NotFound => tonic::Code::NotFound,
            Self::Conflict => tonic::Code::AlreadyExists,
            Self::PayloadTooLarge => tonic::Code::OutOfRange,
            Self::TooManyRequests => tonic::Code::ResourceExhausted,
            Self::Unavailable => tonic::Code::Unavailable,
            Self::Internal => tonic::Code::Internal,
        }
    }

    /// The code a gRPC status stands for, so the gateway can render a service's error.
    #[must_use]
    pub fn from_grpc_code(code: tonic::Code) -> Self {
        match code {
            tonic::Code::InvalidArgument | tonic::Code::FailedPrecondition => Self::BadRequest,
            tonic::Code::Unauthenticated => Self::Unauthenticated,
            tonic::Code::PermissionDenied => Self::Forbidden,
            tonic::Code::NotFound => Self::NotFound,
            tonic::Code::AlreadyExists | tonic::Code::Aborted => Self::Conflict,
            tonic::Code::OutOfRange => Self::PayloadTooLarge,
            tonic::Code::ResourceExhausted => Self::TooManyRequests,
            tonic::Code::Unavailable | tonic::Code::DeadlineExceeded => Self::Unavailable,
            _ => Self::Internal,
        }
    }

    /// Stable machine-readable name, as rendered in REST error bodies.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BadRequest => "BAD_REQUEST",
            Self::Unauthenticated => "UNAUTHENTICATED",
            Self::Forbidden => "FORBIDDEN",
            Self::NotFound => "NOT_FOUND",
            Self::Conflict => "CONFLICT",
            Self::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            Self::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            Self::TooManyRequests => "TOO_MANY_REQUESTS",
            Self::Unavailable => "UNAVAILABLE",
            Self::Internal => "INTERNAL",
        }
    }

    /// The text shown to callers for errors whose details must stay in the logs.
    #[must_use]
    pub fn public_message(self) -> &'static str {
        match self {
            Self::Unavailable => "A backend service is unavailable, please try again",
            _ => "Internal server error",
        }
    }

    /// Builds the gRPC status for this code. Internal errors never carry their details.
    #[must_use]
    pub fn to_status(self, message: impl Into<String>) -> tonic::Status {
        let message = match self {
            Self::Internal => self.public_message().to_owned(),
            _ => message.into(),
        };
        tonic::Status::new(self.grpc_code(), message)
    }
}

/// Implemented by every crate's error enum so it can be rendered at any edge.
pub trait ServiceError: std::error::Error {
    /// The transport-independent kind of this error.
    fn error_code(&self) -> ErrorCode;
}

/// Converts a service error into a gRPC status, logging internal details once, here.
pub fn into_status<E: ServiceError>(error: &E) -> tonic::Status {
    let code = error.error_code();
    if matches!(code, ErrorCode::Internal | ErrorCode::Unavailable) {
        tracing::error!(error = %error, "request failed");
        return tonic::Status::new(code.grpc_code(), code.public_message());
    }
    code.to_status(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_round_trip_keeps_the_code() {
        for code in [
            ErrorCode::BadRequest,
            ErrorCode::Unauthenticated,
            ErrorCode::Forbidden,
            ErrorCode::NotFound,
            ErrorCode::Conflict,
            ErrorCode::PayloadTooLarge,
            ErrorCode::TooManyRequests,
            ErrorCode::Unavailable,
            ErrorCode::Internal,
        ] {
            assert_eq!(ErrorCode::from_grpc_code(code.grpc_code()), code);
        }
    }

    #[test]
    fn internal_status_hides_details() {
        let status = ErrorCode::Internal.to_status("password=hunter2 in SQL");
        assert_eq!(status.message(), "Internal server error");
    }
}
