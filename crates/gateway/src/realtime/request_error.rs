//! Refused `/socket.io/` requests, answered as the reference Engine.IO server answers them:
//! an HTTP error status with `{"code", "message"}`, which clients report as a connect error.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde_json::json;

/// Why a `/socket.io/` request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EngineRequestError {
    /// `transport` is neither `polling` nor `websocket`.
    #[error("Transport unknown")]
    UnknownTransport,
    /// The `sid` is not a session of this replica (never was, ended, or lives on another
    /// replica).
    #[error("Session ID unknown")]
    UnknownSession,
    /// A new session must start with a GET.
    #[error("Bad handshake method")]
    BadHandshakeMethod,
    /// A request the session cannot serve: a malformed body, overlapping requests, or
    /// long-polling after the upgrade.
    #[error("Bad request")]
    BadRequest,
    /// `EIO` is not `4`.
    #[error("Unsupported protocol version")]
    UnsupportedProtocolVersion,
    /// A POST body over `maxPayload`.
    #[error("Payload too large")]
    PayloadTooLarge,
    /// This client address already holds as many sessions waiting for their CONNECT as it
    /// may. HTTP 429.
    #[error("Too many sessions waiting to connect from this address (at most {limit})")]
    TooManyFromAddress { limit: usize },
    /// This replica already holds as many sessions waiting for their CONNECT as it may.
    /// HTTP 503.
    #[error("Too many sessions waiting to connect (at most {limit}); try again shortly")]
    TooManySessions { limit: usize },
}

impl EngineRequestError {
    /// Engine.IO's error code (`Server.errors` of the reference server).
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Self::UnknownTransport => 0,
            Self::UnknownSession => 1,
            Self::BadHandshakeMethod => 2,
            Self::BadRequest | Self::PayloadTooLarge => 3,
            // The reference server's `FORBIDDEN`, which it answers when `allowRequest` refuses.
            Self::TooManyFromAddress { .. } | Self::TooManySessions { .. } => 4,
            Self::UnsupportedProtocolVersion => 5,
        }
    }
}

impl ResponseError for EngineRequestError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::TooManyFromAddress { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::TooManySessions { .. } => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status_code())
            .json(json!({ "code": self.code(), "message": self.to_string() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_like_the_reference_server() {
        let response = EngineRequestError::UnknownSession.error_response();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(EngineRequestError::UnknownSession.code(), 1);
        assert_eq!(
            EngineRequestError::UnknownSession.to_string(),
            "Session ID unknown"
        );
        assert_eq!(
            EngineRequestError::PayloadTooLarge.status_code(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
        assert_eq!(EngineRequestError::UnknownTransport.code(), 0);
        assert_eq!(EngineRequestError::UnsupportedProtocolVersion.code(), 5);
        let crowded = EngineRequestError::TooManyFromAddress { limit: 20 };
        assert_eq!(crowded.status_code(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(crowded.code(), 4);
        assert_eq!(
            EngineRequestError::TooManySessions { limit: 10 }.status_code(),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
}
