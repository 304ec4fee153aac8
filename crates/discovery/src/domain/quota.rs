//! What the YouTube API keys have spent today.

use chrono::{DateTime, Utc};

/// The YouTube API units spent today against what the keys may spend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuotaUsage {
    pub used: u64,
    pub limit: u64,
    pub resets_at: DateTime<Utc>,
}
