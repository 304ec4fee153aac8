//! A member's webhook and the rules of what it is made with.

use chrono::{DateTime, Utc};

use super::WebhookEvent;
use crate::error::WebhookError;

/// Webhooks one member may hold.
pub const MAX_WEBHOOKS_PER_USER: usize = 20;
/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 200;
/// Attempts kept per webhook in its log.
pub const LOG_LENGTH: u64 = 50;

/// A member's webhook.
#[derive(Debug, Clone)]
pub struct Webhook {
    pub id: String,
    pub user_id: String,
    pub url: String,
    pub description: String,
    pub events: Vec<WebhookEvent>,
    pub secret: String,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What a webhook is made with (already checked).
pub struct NewWebhook {
    pub url: String,
    pub description: String,
    pub events: Vec<WebhookEvent>,
}

/// A change to a webhook (already checked); `None` keeps a field as it is.
#[derive(Default)]
pub struct WebhookChange {
    pub url: Option<String>,
    pub description: Option<String>,
    pub events: Option<Vec<WebhookEvent>>,
    pub enabled: Option<bool>,
}

/// The events named, once each and in the subscribable order.
///
/// # Errors
/// An unknown name, `webhook.test`, or none at all.
pub fn checked_events(names: &[String]) -> Result<Vec<WebhookEvent>, WebhookError> {
    let mut named = Vec::with_capacity(names.len());
    for name in names {
        match WebhookEvent::parse(name) {
            Some(WebhookEvent::Test) => return Err(WebhookError::TestEvent),
            Some(event) => named.push(event),
            None => return Err(WebhookError::UnknownEvent(name.clone())),
        }
    }
    let unique: Vec<WebhookEvent> = WebhookEvent::SUBSCRIBABLE
        .into_iter()
        .filter(|event| named.contains(event))
        .collect();
    if unique.is_empty() {
        return Err(WebhookError::NoEvents);
    }
    Ok(unique)
}

/// The description, trimmed.
///
/// # Errors
/// Longer than [`MAX_DESCRIPTION_CHARS`].
pub fn checked_description(description: &str) -> Result<String, WebhookError> {
    let description = description.trim().to_owned();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(WebhookError::DescriptionTooLong);
    }
    Ok(description)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn events_are_taken_once_each_in_the_subscribable_order() {
        let events =
            checked_events(&names(&["sync.new_videos", "item.created", "item.created"])).unwrap();
        assert_eq!(
            events,
            [WebhookEvent::ItemCreated, WebhookEvent::SyncNewVideos]
        );
    }

    #[test]
    fn no_events_the_test_event_and_unknown_names_are_refused() {
        assert!(matches!(checked_events(&[]), Err(WebhookError::NoEvents)));
        assert!(matches!(
            checked_events(&names(&["webhook.test"])),
            Err(WebhookError::TestEvent)
        ));
        assert!(matches!(
            checked_events(&names(&["item.exploded"])),
            Err(WebhookError::UnknownEvent(name)) if name == "item.exploded"
        ));
    }

    #[test]
    fn a_description_is_trimmed_and_at_most_200_characters() {
        assert_eq!(checked_description("  notes ").unwrap(), "notes");
        assert!(checked_description(&"é".repeat(200)).is_ok());
        assert!(matches!(
            checked_description(&"é".repeat(201)),
            Err(WebhookError::DescriptionTooLong)
        ));
    }
}
