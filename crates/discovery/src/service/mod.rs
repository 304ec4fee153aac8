//! The discovery service: the shared parts of its use cases (the store, the API, the bus, the
//! download machinery) and the small ones (quota, export). Channel searches are in
//! `catalog.rs`, sources in `sources.rs`, download jobs in `downloads.rs`, schedules in
//! `schedules.rs`; both searches and sources read playlists through `playlist_read.rs`.

mod catalog;
mod downloads;
mod playlist_read;
mod schedules;
mod sources;

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{Duration, Utc};
use scribevault_bus::{EventBus, WorkQueue};
use scribevault_core::UserId;

use crate::domain::export::{ExportRow, filename, to_csv};
use crate::domain::{ExportType, QuotaUsage, is_video_id};
use crate::error::DiscoveryError;
use crate::peers::{AudioArchive, TranscriptionIntake};
use crate::store::DiscoveryStore;
use crate::youtube::{
    Metered, UnitCount, YouTubeApi, YouTubeError, next_pacific_midnight, pacific_day,
};
use crate::ytdlp::{AudioFetcher, CaptionFetcher};

pub use downloads::NewDownloadJob;
pub use schedules::NewSchedule;

/// Most ids one export may name.
pub const MAX_EXPORT_VIDEOS: usize = 10_000;

/// The rules' tunables.
#[derive(Debug, Clone, Copy)]
pub struct CatalogPolicy {
    /// How long cached uploads answer a search without the API.
    pub cache_for: Duration,
    /// Units each key may spend a day.
    pub daily_quota_per_key: u64,
    /// How many keys are configured.
    pub keys: usize,
    /// Units one user's use cases may spend a day, all keys together.
    pub units_per_user_per_day: u64,
}

/// What download jobs run with: the queue (also the library's ingest queue, for transcripts
/// made from captions), yt-dlp, and the services the audio goes to.
#[derive(Clone)]
pub struct DownloadSetup {
    pub work: Arc<dyn WorkQueue>,
    pub fetcher: Arc<dyn AudioFetcher>,
    /// Fetches a video's own captions ('Use YouTube captions').
    pub captions: Arc<dyn CaptionFetcher>,
    pub archive: Arc<dyn AudioArchive>,
    pub intake: Arc<dyn TranscriptionIntake>,
    /// Where each running job gets its own scratch directory.
    pub work_root: PathBuf,
    /// A running job whose runner has been quiet this long is taken over.
    pub stale_after: Duration,
    /// The model transcription uses when a job asks for it without naming one.
    pub default_model: String,
    /// Jobs one user may have not yet finished; a new job or a retry past it is refused.
    pub max_active_per_user: u64,
}

/// Channel discovery, sources, download jobs and schedules for every user.
#[derive(Clone)]
pub struct Discovery {
    pub(crate) store: DiscoveryStore,
    pub(crate) youtube: Arc<dyn YouTubeApi>,
    pub(crate) events: Arc<dyn EventBus>,
    pub(crate) policy: CatalogPolicy,
    pub(crate) downloads: DownloadSetup,
}

/// A CSV file.
#[derive(Debug, Clone)]
pub struct ExportFile {
    pub filename: String,
    pub csv: Vec<u8>,
}

impl Discovery {
    /// The service over its store and the API, with what was spent today restored so parked
    /// keys stay parked.
    ///
    /// # Errors
    /// Database failure.
    pub async fn new(
        store: DiscoveryStore,
        youtube: Arc<dyn YouTubeApi>,
        events: Arc<dyn EventBus>,
        policy: CatalogPolicy,
        downloads: DownloadSetup,
    ) -> Result<Self, DiscoveryError> {
        youtube.restore_spending(&store.spending_on(pacific_day(Utc::now())).await?);
        Ok(Self {
            store,
            youtube,
            events,
            policy,
            downloads,
        })
    }

    /// The service's error for a failed API call.
    pub(crate) fn api_error(&self, error: YouTubeError) -> DiscoveryError {
        DiscoveryError::from_youtube(error, self.policy.daily_quota_per_key)
    }

    /// Writes down the units the API calls of a use case spent. A failure is logged, not
    /// returned: the caller's answer does not depend on it.
    pub(crate) async fn record_spending(&self) {
        let spent = self.youtube.take_spending();
        if spent.is_empty() {
            return;
        }
        let units: u64 = spent.iter().map(|spend| spend.units).sum();
        tracing::info!(units, "YouTube API units spent");
        if let Err(error) = self.store.add_spending(&spent).await {
            tracing::error!(error = %error, units, "YouTube quota spending not recorded");
        }
    }

    /// A copy of the service whose API calls count into the returned [`UnitCount`], for a use
    /// case run for `user`; when the user has spent their day's units, its calls are refused
    /// ([`DiscoveryError::UserQuotaExhausted`]) and only what the cache holds answers. The
    /// budget is checked before the use case and charged after it, so one use case may end
    /// past it (all of a large channel); the next one is refused.
    ///
    /// # Errors
    /// Database failure.
    pub(crate) async fn metered_for(
        &self,
        user: &UserId,
    ) -> Result<(Self, UnitCount), DiscoveryError> {
        let now = Utc::now();
        let limit = self.policy.units_per_user_per_day;
        let spent = self
            .store
            .user_spending_on(user.as_str(), pacific_day(now))
            .await?;
        let refusal = (spent >= limit).then(|| YouTubeError::UserUnitsSpent {
            limit,
            resets_at: next_pacific_midnight(now),
        });
        let count = UnitCount::default();
        let metered = Self {
            youtube: Arc::new(Metered::new(
                Arc::clone(&self.youtube),
                count.clone(),
                refusal,
            )),
            ..self.clone()
        };
        Ok((metered, count))
    }

    /// Charges `user` what `count` holds. A failure is logged: the answer does not depend on it.
    pub(crate) async fn charge(&self, user: &UserId, count: &UnitCount) {
        let units = count.units();
        if units == 0 {
            return;
        }
        match self
            .store
            .add_user_spending(user.as_str(), pacific_day(Utc::now()), units)
            .await
        {
            Ok(total) => tracing::info!(units, total, "YouTube API units charged to the user"),
            Err(error) => {
                tracing::error!(error = %error, units, "a user's YouTube units not recorded")
            }
        }
    }

    /// The units spent today by every key, against what they may spend.
    ///
    /// # Errors
    /// Database failure.
    pub async fn quota_usage(&self) -> Result<QuotaUsage, DiscoveryError> {
        let now = Utc::now();
        let used = self
            .store
            .spending_on(pacific_day(now))
            .await?
            .iter()
            .map(|spend| spend.units)
            .sum();
        Ok(QuotaUsage {
            used,
            limit: self.policy.daily_quota_per_key * self.policy.keys.max(1) as u64,
            resets_at: next_pacific_midnight(now),
        })
    }

    /// Deletes everything the caller has here: their sources with their videos, schedules,
    /// download jobs with their videos, and sync preferences; answers how many rows went.
    /// A job of theirs that is running stops within a second, as on a cancel (its runner's
    /// heartbeat finds it gone and kills yt-dlp); a queued one is gone when a runner asks for
    /// it. The shared channel and video cache and the quota ledger are nobody's and stay.
    /// Another user's data is never read. Deleting again finds nothing and succeeds. No event
    /// is sent: the account is going away.
    ///
    /// # Errors
    /// Database failure (a second call finishes the work).
    #[tracing::instrument(skip(self), fields(user = %user))]
    pub async fn delete_user_data(&self, user: &UserId) -> Result<u64, DiscoveryError> {
        let rows = self.store.delete_user(user.as_str()).await?;
        tracing::info!(rows, "user data deleted");
        Ok(rows)
    }

    /// The videos `video_ids` as a CSV file, in the order given; ids the cache does not know
    /// get their URL only.
    ///
    /// # Errors
    /// No ids, too many, a malformed id, an unknown export type, or a database failure.
    #[tracing::instrument(skip_all, fields(videos = video_ids.len(), export_type))]
    pub async fn export(
        &self,
        video_ids: &[String],
        export_type: &str,
    ) -> Result<ExportFile, DiscoveryError> {
        let kind = ExportType::parse(export_type).map_err(DiscoveryError::InvalidArgument)?;
        if video_ids.is_empty() {
            return Err(DiscoveryError::NothingToExport);
        }
        if video_ids.len() > MAX_EXPORT_VIDEOS {
            return Err(DiscoveryError::InvalidArgument(format!(
                "At most {MAX_EXPORT_VIDEOS} videos can be exported at once"
            )));
        }
        if let Some(bad) = video_ids.iter().find(|id| !is_video_id(id)) {
            return Err(DiscoveryError::InvalidArgument(format!(
                "{:?} is not a YouTube video id",
                bad.chars().take(40).collect::<String>()
            )));
        }
        let known = self.store.videos_by_id(video_ids).await?;
        let rows: Vec<ExportRow<'_>> = video_ids
            .iter()
            .map(|id| {
                known
                    .get(id)
                    .map_or(ExportRow::Unknown(id), ExportRow::Known)
            })
            .collect();
        Ok(ExportFile {
            filename: filename(kind, Utc::now().date_naive()),
            csv: to_csv(kind, &rows)?,
        })
    }
}
