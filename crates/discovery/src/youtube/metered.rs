//! The units one use case spends, counted as it calls, so they can be charged to the user it
//! runs for. The instance's keys are shared by every user: without a per-user budget, one user
//! listing "All" of a few large channels spends everyone's day.
//!
//! Units follow Google's costs (module doc of `youtube`); a failed call costs its units too.
//! A user past their units is refused at their first call that would reach YouTube, so what the
//! cache can answer still answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::{ChannelLookup, KeySpend, PlaylistPage, YouTubeApi, YouTubeError};
use crate::domain::{Channel, Playlist, VideoDetails};

/// A count of units, shared by a [`Metered`] API and whoever charges them.
#[derive(Debug, Clone, Default)]
pub struct UnitCount(Arc<AtomicU64>);

impl UnitCount {
    /// Units counted so far.
    #[must_use]
    pub fn units(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn add(&self, units: u64) {
        self.0.fetch_add(units, Ordering::Relaxed);
    }
}

/// `inner`, counting the units of every call into `count`; every call refused when the user
/// has spent their units (`spent`).
pub struct Metered {
    inner: Arc<dyn YouTubeApi>,
    count: UnitCount,
    spent: Option<YouTubeError>,
}

impl Metered {
    /// `spent` is the refusal every call answers, when the user's units are spent.
    #[must_use]
    pub fn new(inner: Arc<dyn YouTubeApi>, count: UnitCount, spent: Option<YouTubeError>) -> Self {
        Self {
            inner,
            count,
            spent,
        }
    }

    /// Counts `units`, or refuses.
    fn charge(&self, units: u64) -> Result<(), YouTubeError> {
        if let Some(refusal) = &self.spent {
            return Err(refusal.clone());
        }
        self.count.add(units);
        Ok(())
    }
}

#[async_trait::async_trait]
impl YouTubeApi for Metered {
    async fn find_channel(
        &self,
        lookup: ChannelLookup<'_>,
    ) -> Result<Option<Channel>, YouTubeError> {
        self.charge(1)?;
        self.inner.find_channel(lookup).await
    }

    async fn search_channel(&self, query: &str) -> Result<Option<String>, YouTubeError> {
        self.charge(100)?;
        self.inner.search_channel(query).await
    }

    async fn find_playlist(&self, playlist_id: &str) -> Result<Option<Playlist>, YouTubeError> {
        self.charge(1)?;
        self.inner.find_playlist(playlist_id).await
    }

    async fn playlist_page(
        &self,
        playlist_id: &str,
        page_token: Option<&str>,
    ) -> Result<PlaylistPage, YouTubeError> {
        self.charge(1)?;
        self.inner.playlist_page(playlist_id, page_token).await
    }

    async fn videos(&self, ids: &[String]) -> Result<Vec<VideoDetails>, YouTubeError> {
        self.charge(1)?;
        self.inner.videos(ids).await
    }

    fn take_spending(&self) -> Vec<KeySpend> {
        self.inner.take_spending()
    }

    fn restore_spending(&self, spent: &[KeySpend]) {
        self.inner.restore_spending(spent);
    }
}
