//! The single error vocabulary of the system.
//!
//! Every crate has its own `thiserror` enum; each variant maps to one [`ErrorCode`], and only
//! this module knows which HTTP status and which gRPC code that is. The gateway turns a gRPC
//! status back into the same code, so a `NotFound` raised in the library service is a 404 at
//! the edge without anyone in between having to know.

use serde::Serialize;

/// Metadata key of a status that names its [`ErrorCode`].
const ERROR_CODE_METADATA: &str = "x-scribevault-error-code";

/// Metadata key of extra facts about an error, as JSON, that the REST edge adds to its error
/// object (a damaged PDF's `recovered` text, so the user loses nothing).
pub const ERROR_DETAILS_METADATA: &str = "x-scribevault-error-details-bin";

/// What kind of failure happened, independent of transport.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, utoipa::ToSchema)]
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
    /// The request is well formed but its content cannot be processed (a password-protected
    /// or damaged PDF).
    Unprocessable,
    /// Storing this would take the user past their storage quota.
    InsufficientStorage,
    /// A dependency (database, bus, another service) cannot be reached right now.
    Unavailable,
    /// An outside provider (the YouTube Data API) refused or garbled a request we made; the
    /// message says what to fix (an invalid API key names its setting).
    BadGateway,
    /// The feature needs a setting the operator has not given; the message names it.
    NotConfigured,
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
            Self::Unprocessable => 422,
            Self::InsufficientStorage => 507,
            Self::Unavailable | Self::NotConfigured => 503,
            Self::BadGateway => 502,
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
            Self::TooManyRequests | Self::InsufficientStorage => tonic::Code::ResourceExhausted,
            Self::Unprocessable => tonic::Code::FailedPrecondition,
            Self::Unavailable => tonic::Code::Unavailable,
            Self::BadGateway => tonic::Code::Unknown,
            Self::NotConfigured => tonic::Code::FailedPrecondition,
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
            Self::Unprocessable => "UNPROCESSABLE",
            Self::InsufficientStorage => "INSUFFICIENT_STORAGE",
            Self::Unavailable => "UNAVAILABLE",
            Self::BadGateway => "BAD_GATEWAY",
            Self::NotConfigured => "NOT_CONFIGURED",
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
    ///
    /// The code's own name travels in the `x-scribevault-error-code` metadata, because gRPC has
    /// fewer codes than we have kinds (a bad gateway and a missing setting have no gRPC code of
    /// their own); [`ErrorCode::of_status`] reads it back.
    #[must_use]
    pub fn to_status(self, message: impl Into<String>) -> tonic::Status {
        let message = match self {
            Self::Internal => self.public_message().to_owned(),
            _ => message.into(),
        };
        let mut status = tonic::Status::new(self.grpc_code(), message);
        status.metadata_mut().insert(
            ERROR_CODE_METADATA,
            tonic::metadata::MetadataValue::from_static(self.as_str()),
        );
        status
    }

    /// The code of a status built by [`ErrorCode::to_status`], or the best fit for its gRPC code
    /// when it came from elsewhere (tonic's transport, a foreign server).
    #[must_use]
    pub fn of_status(status: &tonic::Status) -> Self {
        status
            .metadata()
            .get(ERROR_CODE_METADATA)
            .and_then(|value| value.to_str().ok())
            .and_then(Self::from_name)
            .unwrap_or_else(|| Self::from_grpc_code(status.code()))
    }

    fn from_name(name: &str) -> Option<Self> {
        [
            Self::BadRequest,
            Self::Unauthenticated,
            Self::Forbidden,
            Self::NotFound,
            Self::Conflict,
            Self::PayloadTooLarge,
            Self::UnsupportedMediaType,
            Self::TooManyRequests,
            Self::Unprocessable,
            Self::InsufficientStorage,
            Self::Unavailable,
            Self::BadGateway,
            Self::NotConfigured,
            Self::Internal,
        ]
        .into_iter()
        .find(|code| code.as_str() == name)
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
    fn codes_of_our_own_survive_the_grpc_hop() {
        for (code, status) in [
            (ErrorCode::Unprocessable, 422),
            (ErrorCode::InsufficientStorage, 507),
            (ErrorCode::NotConfigured, 503),
        ] {
            let over_grpc = code.to_status("message");
            assert_eq!(ErrorCode::of_status(&over_grpc), code);
            assert_eq!(code.http_status(), status);
        }
    }

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
    fn codes_without_their_own_grpc_code_survive_the_trip() {
        for code in [
            ErrorCode::BadGateway,
            ErrorCode::NotConfigured,
            ErrorCode::UnsupportedMediaType,
            ErrorCode::Conflict,
        ] {
            let status = code.to_status("message for the user");
            assert_eq!(ErrorCode::of_status(&status), code);
            assert_eq!(status.message(), "message for the user");
        }
        assert_eq!(ErrorCode::BadGateway.http_status(), 502);
        assert_eq!(ErrorCode::NotConfigured.http_status(), 503);
        let foreign = tonic::Status::not_found("gone");
        assert_eq!(ErrorCode::of_status(&foreign), ErrorCode::NotFound);
    }

    #[test]
    fn internal_status_hides_details() {
        let status = ErrorCode::Internal.to_status("password=hunter2 in SQL");
        assert_eq!(status.message(), "Internal server error");
    }
}
