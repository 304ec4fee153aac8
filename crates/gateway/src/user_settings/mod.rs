//! User settings (docs/product-spec.md §3): the gateway owns them (docs/design.md §3). Stored values are merged over
//! the spec's defaults, so a setting added later has its default for everyone.
//!
//! A setting that another service acts on is handed to it when it changes (`effects.rs`):
//! storage enforces the quota and sweeps old MP3s, discovery reads `autoDownload` when a
//! scheduled sync finds videos, transcription starts files in `transcriptionLanguage` when a
//! request names none. The gateway itself applies `notifications.*` to the events it
//! forwards to sockets. Theme, view and page size are the SPA's.

mod effects;
mod store;

use scribevault_core::language::LanguageChoice;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use effects::{push_effects, wants_notification};
pub use store::UserSettingsStore;

/// `light`, `dark` or `system` (following the browser).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
    System,
}

/// How the Vault lists items at first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DefaultView {
    List,
    Grid,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Notifications {
    pub download_complete: bool,
    pub scheduled_sync: bool,
    pub errors: bool,
}

impl Default for Notifications {
    fn default() -> Self {
        Self {
            download_complete: true,
            scheduled_sync: true,
            errors: true,
        }
    }
}

/// Stored and shown; Scribevault sends nothing anywhere, whatever they say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Privacy {
    pub allow_analytics: bool,
    pub share_usage_data: bool,
}

impl Default for Privacy {
    fn default() -> Self {
        Self {
            allow_analytics: true,
            share_usage_data: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct StorageSettings {
    #[serde(rename = "maxStorageGB")]
    pub max_storage_gb: u32,
    pub auto_cleanup: bool,
    pub cleanup_after_days: u32,
}

impl Default for StorageSettings {
    fn default() -> Self {
        Self {
            max_storage_gb: 10,
            auto_cleanup: false,
            cleanup_after_days: 30,
        }
    }
}

/// A user's settings, with the spec's defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct UserSettings {
    pub theme: Theme,
    pub default_view: DefaultView,
    pub transcripts_per_page: u32,
    pub auto_download: bool,
    /// The default of 'Use YouTube captions when available' on new download jobs and
    /// schedules (discovery keeps a copy).
    pub use_captions: bool,
    pub notifications: Notifications,
    pub privacy: Privacy,
    pub storage: StorageSettings,
    /// The spoken language a transcription is started in when its request names none:
    /// `auto` (Whisper detects it per file) or a Whisper language code
    /// (`GET /api/transcription/languages`).
    pub transcription_language: String,
}

impl Default for UserSettings {
    fn default() -> Self {
        Self {
            theme: Theme::System,
            default_view: DefaultView::List,
            transcripts_per_page: 20,
            auto_download: false,
            use_captions: false,
            notifications: Notifications::default(),
            privacy: Privacy::default(),
            storage: StorageSettings::default(),
            transcription_language: LanguageChoice::AUTO.to_owned(),
        }
    }
}

/// The allowed page sizes (docs/product-spec.md §9).
pub const PAGE_SIZES: [u32; 4] = [10, 20, 50, 100];

/// A setting that cannot be stored; the message names it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidSetting(pub String);

fn invalid(message: impl Into<String>) -> InvalidSetting {
    InvalidSetting(message.into())
}

fn boolean(value: &Value, field: &str) -> Result<bool, InvalidSetting> {
    value
        .as_bool()
        .ok_or_else(|| invalid(format!("{field} must be true or false")))
}

fn whole_in(
    value: &Value,
    field: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, InvalidSetting> {
    value
        .as_u64()
        .and_then(|number| u32::try_from(number).ok())
        .filter(|number| range.contains(number))
        .ok_or_else(|| {
            invalid(format!(
                "{field} must be a whole number from {} to {}",
                range.start(),
                range.end()
            ))
        })
}

/// `auto` or a Whisper code, as stored (lower case).
fn language(value: &Value) -> Result<String, InvalidSetting> {
    let refused = || {
        invalid("transcriptionLanguage must be auto or a Whisper language code such as en or de")
    };
    let choice: LanguageChoice = value
        .as_str()
        .ok_or_else(refused)?
        .parse()
        .map_err(|_| refused())?;
    Ok(choice.as_str().to_owned())
}

fn object<'a>(
    value: &'a Value,
    field: &str,
) -> Result<&'a serde_json::Map<String, Value>, InvalidSetting> {
    value
        .as_object()
        .ok_or_else(|| invalid(format!("{field} must be an object")))
}

fn unknown(field: &str) -> InvalidSetting {
    invalid(format!("Unknown setting: {field}"))
}

impl UserSettings {
    /// These settings with `changes` applied: the full object the SPA sends, or any part of
    /// it. Every value is checked; the first bad one is named and nothing is applied.
    ///
    /// # Errors
    /// A value of the wrong type or out of range, or an unknown key.
    pub fn with_changes(&self, changes: &Value) -> Result<Self, InvalidSetting> {
        let mut next = self.clone();
        for (key, value) in object(changes, "settings")? {
            match key.as_str() {
                "theme" => {
                    next.theme = serde_json::from_value(value.clone())
                        .map_err(|_| invalid("theme must be one of light, dark, system"))?;
                }
                "defaultView" => {
                    next.default_view = serde_json::from_value(value.clone())
                        .map_err(|_| invalid("defaultView must be one of list, grid"))?;
                }
                "transcriptsPerPage" => {
                    next.transcripts_per_page = value
                        .as_u64()
                        .and_then(|number| u32::try_from(number).ok())
                        .filter(|number| PAGE_SIZES.contains(number))
                        .ok_or_else(|| {
                            invalid("transcriptsPerPage must be one of 10, 20, 50, 100")
                        })?;
                }
                "autoDownload" => next.auto_download = boolean(value, "autoDownload")?,
                "useCaptions" => next.use_captions = boolean(value, "useCaptions")?,
                "transcriptionLanguage" => {
                    next.transcription_language = language(value)?;
                }
                "notifications" => {
                    for (key, value) in object(value, "notifications")? {
                        let field = format!("notifications.{key}");
                        match key.as_str() {
                            "downloadComplete" => {
                                next.notifications.download_complete = boolean(value, &field)?
                            }
                            "scheduledSync" => {
                                next.notifications.scheduled_sync = boolean(value, &field)?
                            }
                            "errors" => next.notifications.errors = boolean(value, &field)?,
                            _ => return Err(unknown(&field)),
                        }
                    }
                }
                "privacy" => {
                    for (key, value) in object(value, "privacy")? {
                        let field = format!("privacy.{key}");
                        match key.as_str() {
                            "allowAnalytics" => {
                                next.privacy.allow_analytics = boolean(value, &field)?
                            }
                            "shareUsageData" => {
                                next.privacy.share_usage_data = boolean(value, &field)?
                            }
                            _ => return Err(unknown(&field)),
                        }
                    }
                }
                "storage" => {
                    for (key, value) in object(value, "storage")? {
                        let field = format!("storage.{key}");
                        match key.as_str() {
                            "maxStorageGB" => {
                                next.storage.max_storage_gb = whole_in(value, &field, 1..=1000)?
                            }
                            "autoCleanup" => next.storage.auto_cleanup = boolean(value, &field)?,
                            "cleanupAfterDays" => {
                                next.storage.cleanup_after_days = whole_in(value, &field, 1..=365)?
                            }
                            _ => return Err(unknown(&field)),
                        }
                    }
                }
                _ => return Err(unknown(key)),
            }
        }
        Ok(next)
    }

    /// The stored JSON read back over the defaults. A stored value that no longer parses (a
    /// setting whose allowed values changed) falls back to its default rather than failing.
    #[must_use]
    pub fn from_stored(stored: &Value) -> Self {
        let defaults = Self::default();
        defaults.with_changes(stored).unwrap_or_else(|error| {
            tracing::warn!(error = %error, "stored settings partly unreadable; using defaults for them");
            let mut lenient = defaults.clone();
            if let Some(fields) = stored.as_object() {
                for (key, value) in fields {
                    let single = serde_json::json!({ key: value });
                    if let Ok(next) = lenient.with_changes(&single) {
                        lenient = next;
                    }
                }
            }
            lenient
        })
    }

    /// The user's quota in bytes.
    #[must_use]
    pub fn max_storage_bytes(&self) -> u64 {
        u64::from(self.storage.max_storage_gb) * 1024 * 1024 * 1024
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_the_specs() {
        assert_eq!(
            serde_json::to_value(UserSettings::default()).unwrap(),
            json!({
                "theme": "system", "defaultView": "list", "transcriptsPerPage": 20,
                "autoDownload": false, "useCaptions": false,
                "notifications": {"downloadComplete": true, "scheduledSync": true, "errors": true},
                "privacy": {"allowAnalytics": true, "shareUsageData": false},
                "storage": {"maxStorageGB": 10, "autoCleanup": false, "cleanupAfterDays": 30},
                "transcriptionLanguage": "auto"
            })
        );
    }

    #[test]
    fn the_full_object_and_parts_of_it_apply() {
        let full = serde_json::to_value(UserSettings {
            theme: Theme::Dark,
            ..UserSettings::default()
        })
        .unwrap();
        assert_eq!(
            UserSettings::default().with_changes(&full).unwrap().theme,
            Theme::Dark
        );
        let part = UserSettings::default()
            .with_changes(&json!({"storage": {"autoCleanup": true}}))
            .unwrap();
        assert!(part.storage.auto_cleanup);
        assert_eq!(part.storage.cleanup_after_days, 30);
    }

    #[test]
    fn bad_values_are_named() {
        let cases = [
            (
                json!({"theme": "blue"}),
                "theme must be one of light, dark, system",
            ),
            (
                json!({"defaultView": "table"}),
                "defaultView must be one of list, grid",
            ),
            (
                json!({"transcriptsPerPage": 25}),
                "transcriptsPerPage must be one of 10, 20, 50, 100",
            ),
            (
                json!({"autoDownload": "yes"}),
                "autoDownload must be true or false",
            ),
            (
                json!({"useCaptions": 1}),
                "useCaptions must be true or false",
            ),
            (
                json!({"storage": {"maxStorageGB": 0}}),
                "storage.maxStorageGB must be a whole number from 1 to 1000",
            ),
            (
                json!({"storage": {"maxStorageGB": 1001}}),
                "storage.maxStorageGB must be a whole number from 1 to 1000",
            ),
            (
                json!({"storage": {"maxStorageGB": 2.5}}),
                "storage.maxStorageGB must be a whole number from 1 to 1000",
            ),
            (
                json!({"storage": {"cleanupAfterDays": 366}}),
                "storage.cleanupAfterDays must be a whole number from 1 to 365",
            ),
            (
                json!({"notifications": {"errors": 1}}),
                "notifications.errors must be true or false",
            ),
            (
                json!({"notifications": {"sms": true}}),
                "Unknown setting: notifications.sms",
            ),
            (json!({"colour": "red"}), "Unknown setting: colour"),
            (
                json!({"transcriptionLanguage": "klingon"}),
                "transcriptionLanguage must be auto or a Whisper language code such as en or de",
            ),
            (
                json!({"transcriptionLanguage": 7}),
                "transcriptionLanguage must be auto or a Whisper language code such as en or de",
            ),
            (json!({"privacy": []}), "privacy must be an object"),
            (json!([]), "settings must be an object"),
        ];
        for (changes, message) in cases {
            assert_eq!(
                UserSettings::default()
                    .with_changes(&changes)
                    .unwrap_err()
                    .0,
                message,
                "{changes}"
            );
        }
    }

    #[test]
    fn the_transcription_language_is_auto_or_a_whisper_code_stored_in_lower_case() {
        let german = UserSettings::default()
            .with_changes(&json!({"transcriptionLanguage": "DE"}))
            .unwrap();
        assert_eq!(german.transcription_language, "de");
        let detected = german
            .with_changes(&json!({"transcriptionLanguage": "auto"}))
            .unwrap();
        assert_eq!(detected.transcription_language, "auto");
    }

    #[test]
    fn unreadable_stored_values_fall_back_to_their_defaults_alone() {
        let stored = json!({"theme": "dark", "transcriptsPerPage": 7});
        let settings = UserSettings::from_stored(&stored);
        assert_eq!(settings.theme, Theme::Dark);
        assert_eq!(settings.transcripts_per_page, 20);
    }
}
