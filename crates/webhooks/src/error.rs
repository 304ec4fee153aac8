//! Errors of the webhook service and their place in the shared vocabulary.

use scribevault_core::ErrorCode;
use scribevault_core::error_code::ServiceError;

use crate::delivery::address::UrlRefused;
use crate::domain::{MAX_DESCRIPTION_CHARS, MAX_WEBHOOKS_PER_USER, WebhookEvent};

/// Why a webhook request was refused.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    #[error(transparent)]
    Url(#[from] UrlRefused),
    #[error("events must name at least one of: {}", subscribable_names())]
    NoEvents,
    #[error("{0:?} is not an event; events are: {names}", names = subscribable_names())]
    UnknownEvent(String),
    #[error("webhook.test cannot be subscribed to")]
    TestEvent,
    #[error("description must be at most {max} characters", max = MAX_DESCRIPTION_CHARS)]
    DescriptionTooLong,
    #[error(
        "You have {max} webhooks, the most one account may hold; delete one first",
        max = MAX_WEBHOOKS_PER_USER
    )]
    TooMany,
    #[error("No such webhook")]
    NotFound,
    /// 'Send test' answers with the receiver's status and timing: unlimited, it would let a
    /// member scan ports from the instance.
    #[error(
        "This webhook was tested less than {seconds} seconds ago; wait a moment and send the test again"
    )]
    TestedRecently { seconds: u64 },
    #[error("database error: {0}")]
    Database(#[from] sea_orm::DbErr),
    #[error("message broker: {0}")]
    Bus(#[from] scribevault_bus::BusError),
}

fn subscribable_names() -> String {
    WebhookEvent::SUBSCRIBABLE
        .map(WebhookEvent::as_str)
        .join(", ")
}

impl ServiceError for WebhookError {
    fn error_code(&self) -> ErrorCode {
        match self {
            Self::Url(_)
            | Self::NoEvents
            | Self::UnknownEvent(_)
            | Self::TestEvent
            | Self::DescriptionTooLong => ErrorCode::BadRequest,
            Self::TooMany => ErrorCode::Conflict,
            Self::NotFound => ErrorCode::NotFound,
            Self::TestedRecently { .. } => ErrorCode::TooManyRequests,
            Self::Database(_) => ErrorCode::Internal,
            Self::Bus(_) => ErrorCode::Unavailable,
        }
    }
}

impl From<WebhookError> for tonic::Status {
    fn from(error: WebhookError) -> Self {
        scribevault_core::error_code::into_status(&error)
    }
}
