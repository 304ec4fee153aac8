//! The webhook service's own settings, taken from the process-wide [`Settings`].

use std::time::Duration;

use scribevault_core::{Settings, SettingsError};

use crate::delivery::address::AddressPolicy;

/// How webhooks are delivered.
#[derive(Debug, Clone)]
pub struct WebhookConfig {
    pub policy: AddressPolicy,
    /// The waits between attempts; one attempt more than there are waits.
    pub retry_delays: Vec<Duration>,
    /// Per attempt, from connecting to the answer's head.
    pub timeout: Duration,
    /// How often each replica looks for due deliveries (a new event wakes it at once).
    pub poll_interval: Duration,
    /// The shortest time between two 'Send test's of one webhook (zero: no limit).
    pub test_interval: Duration,
}

impl WebhookConfig {
    /// Five attempts over about an hour: at once, then after 1, 5, 15 and 40 minutes.
    #[must_use]
    pub fn new(allow_private: bool, allow_any_port: bool) -> Self {
        Self {
            policy: AddressPolicy {
                allow_private,
                allow_any_port,
            },
            retry_delays: [60, 300, 900, 2400].map(Duration::from_secs).to_vec(),
            timeout: Duration::from_secs(10),
            poll_interval: Duration::from_secs(5),
            test_interval: Duration::from_secs(10),
        }
    }

    /// For tests whose receivers listen on loopback's free ports: private addresses and any
    /// port allowed, retries 300 ms apart, a 100 ms poll, and no limit on 'Send test' (the
    /// limit has a test of its own).
    #[must_use]
    pub fn for_tests() -> Self {
        Self {
            retry_delays: vec![Duration::from_millis(300); 4],
            poll_interval: Duration::from_millis(100),
            test_interval: Duration::ZERO,
            ..Self::new(true, true)
        }
    }
}

impl TryFrom<&Settings> for WebhookConfig {
    type Error = SettingsError;

    /// `SCRIBEVAULT_WEBHOOKS_ALLOW_PRIVATE` and `SCRIBEVAULT_WEBHOOKS_ALLOW_ANY_PORT`.
    fn try_from(settings: &Settings) -> Result<Self, Self::Error> {
        Ok(Self::new(
            settings.webhooks_allow_private,
            settings.webhooks_allow_any_port,
        ))
    }
}
