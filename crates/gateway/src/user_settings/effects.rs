//! Where settings take effect outside the SPA.
//!
//! The services that act on a setting keep their own copy, handed to them when it changes:
//! storage the quota and clean-up policy, discovery `autoDownload` and `useCaptions`,
//! transcription the default spoken language. Until a user saves, the services use the same
//! defaults the gateway shows.
//! The gateway applies `notifications.*` itself, to the events it forwards.

use scribevault_bus::contract::{Notification, NotificationCategory, NotificationKind};
use scribevault_proto::discovery::v1 as discovery;
use scribevault_proto::storage::v1 as storage;
use scribevault_proto::transcription::v1 as transcription;

use super::UserSettings;
use crate::clients::UserClients;
use crate::error::ApiError;

/// Hands the settings other services act on to them. The quota storage enforces is the
/// user's own choice, but never above the cap the instance's admin set for them.
///
/// # Errors
/// A service could not be reached; nothing is stored then, so the user can save again.
pub async fn push_effects(
    services: &UserClients,
    settings: &UserSettings,
    cap_gb: Option<u32>,
) -> Result<(), ApiError> {
    let cap_bytes = cap_gb.map_or(u64::MAX, |gb| u64::from(gb) * 1024 * 1024 * 1024);
    let policy = storage::SetStoragePolicyRequest {
        max_bytes: settings.max_storage_bytes().min(cap_bytes),
        cleanup_after_days: settings
            .storage
            .auto_cleanup
            .then_some(settings.storage.cleanup_after_days),
    };
    services.storage().set_storage_policy(policy).await?;
    services
        .discovery()
        .set_sync_preferences(discovery::SetSyncPreferencesRequest {
            auto_download: settings.auto_download,
            use_captions: settings.use_captions,
        })
        .await?;
    services
        .transcription()
        .set_transcription_preferences(transcription::SetTranscriptionPreferencesRequest {
            language: settings.transcription_language.clone(),
        })
        .await?;
    Ok(())
}

/// Whether a user with `settings` gets `notification`: those of a kind they switched off are
/// dropped. Every other event (progress, updates) always goes, as screens rely on them.
#[must_use]
pub fn wants_notification(settings: &UserSettings, notification: &Notification) -> bool {
    if notification.kind == NotificationKind::Error && !settings.notifications.errors {
        return false;
    }
    match notification.category {
        Some(NotificationCategory::DownloadComplete) => settings.notifications.download_complete,
        Some(NotificationCategory::ScheduledSync) => settings.notifications.scheduled_sync,
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notification(
        kind: NotificationKind,
        category: Option<NotificationCategory>,
    ) -> Notification {
        Notification {
            title: "t".into(),
            message: "m".into(),
            kind,
            category,
        }
    }

    #[test]
    fn switched_off_notifications_are_dropped() {
        let mut settings = UserSettings::default();
        let download = notification(
            NotificationKind::Success,
            Some(NotificationCategory::DownloadComplete),
        );
        let sync = notification(
            NotificationKind::Info,
            Some(NotificationCategory::ScheduledSync),
        );
        let failure = notification(
            NotificationKind::Error,
            Some(NotificationCategory::DownloadComplete),
        );
        let plain = notification(NotificationKind::Info, None);
        for event in [&download, &sync, &failure, &plain] {
            assert!(wants_notification(&settings, event));
        }
        settings.notifications.download_complete = false;
        assert!(!wants_notification(&settings, &download));
        assert!(!wants_notification(&settings, &failure));
        assert!(wants_notification(&settings, &sync));
        settings.notifications.download_complete = true;
        settings.notifications.scheduled_sync = false;
        assert!(!wants_notification(&settings, &sync));
        settings.notifications.errors = false;
        assert!(!wants_notification(&settings, &failure));
        assert!(wants_notification(&settings, &plain));
    }
}
