//! Reading a playlist (a channel's uploads, or a user's playlist) with the fewest units and the
//! least waiting: the page chain is sequential by nature (each page names the next), so the
//! `videos.list` call for a page's ids runs while the next page is fetched.

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::domain::{Broadcast, Video, VideoLimit};
use crate::youtube::{PlaylistEntry, YouTubeApi, YouTubeError};

/// `videos.list` calls in flight at once.
const DETAIL_CALLS_IN_FLIGHT: usize = 8;

/// When to stop reading.
#[derive(Debug, Clone, Copy)]
pub struct ReadPlan<'a> {
    /// How many listable videos are wanted.
    pub limit: VideoLimit,
    /// Videos the cache already holds: not described again, and, when `stop_at_known` is set,
    /// the first one met ends the read (a refresh: uploads are newest first, so everything
    /// after it is known).
    pub known: &'a HashSet<String>,
    pub stop_at_known: bool,
    /// Whether the cache holds everything after the first known video.
    pub known_is_complete: bool,
}

/// What a read found.
#[derive(Debug, Default)]
pub struct PlaylistRead {
    /// Newly described listable videos, in playlist order.
    pub described: Vec<Video>,
    /// Listable video ids in playlist order, known ones included (a source's order).
    pub order: Vec<String>,
    /// Whether the read reached the end of the playlist (or a known video of a complete
    /// cache), so the cache now holds the whole list.
    pub complete: bool,
}

type Batch = Result<Vec<crate::domain::VideoDetails>, YouTubeError>;

/// Reads `playlist_id` by `plan`.
///
/// # Errors
/// The first API failure (the read stops; what was described so far is dropped).
pub async fn read_playlist(
    api: &Arc<dyn YouTubeApi>,
    playlist_id: &str,
    plan: ReadPlan<'_>,
) -> Result<PlaylistRead, YouTubeError> {
    let mut reading = Reading::new(plan);
    let mut token: Option<String> = None;
    let complete = loop {
        let page = api.playlist_page(playlist_id, token.as_deref()).await?;
        let (unknown, met_known) = reading.take(page.entries);
        reading.describe(api, unknown);
        token = page.next_page_token;
        if met_known {
            break plan.known_is_complete || token.is_none();
        }
        if token.is_none() {
            break true;
        }
        if reading.limit_is_met().await? {
            break false;
        }
    };
    reading.finish(complete).await
}

/// One read in progress: the ids in playlist order, and the `videos.list` calls describing the
/// unknown ones, whose answers arrive by batch number.
struct Reading<'a> {
    plan: ReadPlan<'a>,
    permits: Arc<Semaphore>,
    batches: JoinSet<(usize, Batch)>,
    batch_results: Vec<Option<Vec<crate::domain::VideoDetails>>>,
    seen: HashSet<String>,
    order: Vec<String>,
    listed_known: usize,
    stop_at_known: bool,
}

impl<'a> Reading<'a> {
    fn new(plan: ReadPlan<'a>) -> Self {
        Self {
            plan,
            permits: Arc::new(Semaphore::new(DETAIL_CALLS_IN_FLIGHT)),
            batches: JoinSet::new(),
            batch_results: Vec::new(),
            seen: HashSet::new(),
            order: Vec::new(),
            listed_known: 0,
            stop_at_known: plan.stop_at_known,
        }
    }

    /// Lists a page's entries; answers the unknown ids, and whether a known one ended the read.
    fn take(&mut self, entries: Vec<PlaylistEntry>) -> (Vec<String>, bool) {
        let mut unknown = Vec::new();
        for entry in entries.into_iter().filter(|entry| entry.available) {
            if !self.seen.insert(entry.video_id.clone()) {
                continue;
            }
            if self.plan.known.contains(&entry.video_id) {
                if self.stop_at_known {
                    // Everything from here on is cached: done, unless the cache is short of
                    // the limit, and then older pages are read (without describing what is
                    // known) until it is met.
                    let new_listed = self.order.len() - self.listed_known;
                    if self.plan.known_is_complete
                        || self
                            .plan
                            .limit
                            .is_met_by(self.plan.known.len() + new_listed)
                    {
                        return (unknown, true);
                    }
                    self.stop_at_known = false;
                }
                self.listed_known += 1;
                self.order.push(entry.video_id);
                continue;
            }
            self.order.push(entry.video_id.clone());
            unknown.push(entry.video_id);
        }
        (unknown, false)
    }

    /// Starts the `videos.list` call for `unknown` while the next page is read.
    fn describe(&mut self, api: &Arc<dyn YouTubeApi>, unknown: Vec<String>) {
        if unknown.is_empty() {
            return;
        }
        let index = self.batch_results.len();
        self.batch_results.push(None);
        let api = Arc::clone(api);
        let permits = Arc::clone(&self.permits);
        self.batches.spawn(async move {
            let _permit = permits.acquire_owned().await;
            (index, api.videos(&unknown).await)
        });
    }

    /// Whether enough entries are listed. Some may turn out unlistable (upcoming, live), so
    /// when the count says yes, what is in flight is settled and counted again.
    async fn limit_is_met(&mut self) -> Result<bool, YouTubeError> {
        let limit = self.plan.limit;
        if !limit.is_met_by(self.listed_known + unknown_listed(&self.order, self.listed_known)) {
            return Ok(false);
        }
        settle(&mut self.batches, &mut self.batch_results).await?;
        Ok(limit.is_met_by(self.listed_known + listable(&self.batch_results)))
    }

    async fn finish(mut self, complete: bool) -> Result<PlaylistRead, YouTubeError> {
        settle(&mut self.batches, &mut self.batch_results).await?;
        let described: Vec<Video> = self
            .batch_results
            .into_iter()
            .flatten()
            .flatten()
            .filter(|details| details.broadcast == Broadcast::None)
            .map(|details| details.video)
            .collect();
        let listable_ids: HashSet<&str> = described
            .iter()
            .map(|video| video.youtube_video_id.as_str())
            .chain(self.plan.known.iter().map(String::as_str))
            .collect();
        let order = self
            .order
            .iter()
            .filter(|id| listable_ids.contains(id.as_str()))
            .cloned()
            .collect();
        Ok(PlaylistRead {
            described,
            order,
            complete,
        })
    }
}

fn unknown_listed(order: &[String], listed_known: usize) -> usize {
    order.len() - listed_known
}

fn listable(batches: &[Option<Vec<crate::domain::VideoDetails>>]) -> usize {
    batches
        .iter()
        .flatten()
        .flatten()
        .filter(|details| details.broadcast == Broadcast::None)
        .count()
}

async fn settle(
    batches: &mut JoinSet<(usize, Batch)>,
    results: &mut [Option<Vec<crate::domain::VideoDetails>>],
) -> Result<(), YouTubeError> {
    while let Some(joined) = batches.join_next().await {
        let (index, batch) = joined
            .map_err(|error| YouTubeError::Upstream(format!("videos.list task failed: {error}")))?;
        results[index] = Some(batch?);
    }
    Ok(())
}
