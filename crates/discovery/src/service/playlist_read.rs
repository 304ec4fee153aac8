//! Reading a playlist (a channel's uploads, or a user's playlist) with the fewest units and the
//! least waiting: the page chain is sequential by nature (each page names the next), so the
//! `videos.list` call for a page's ids runs while the next page is fetched.

use std::collections::HashSet;
use std::sync::Arc;

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::domain::{Broadcast, Video, VideoLimit};
use crate::youtube::{YouTubeApi, YouTubeError};

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
    let permits = Arc::new(Semaphore::new(DETAIL_CALLS_IN_FLIGHT));
    let mut batches: JoinSet<(usize, Batch)> = JoinSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut order: Vec<String> = Vec::new();
    // Ids in playlist order, each with whether it is known; the unknown ones' details arrive
    // by batch number.
    let mut batch_results: Vec<Option<Vec<crate::domain::VideoDetails>>> = Vec::new();
    let mut listed_known = 0usize;
    let mut token: Option<String> = None;
    let mut complete = false;
    let mut met_known = false;
    let mut stop_at_known = plan.stop_at_known;
    loop {
        let page = api.playlist_page(playlist_id, token.as_deref()).await?;
        let mut unknown = Vec::new();
        for entry in page.entries.into_iter().filter(|entry| entry.available) {
            if !seen.insert(entry.video_id.clone()) {
                continue;
            }
            if plan.known.contains(&entry.video_id) {
                if stop_at_known {
                    // Everything from here on is cached: done, unless the cache is short of
                    // the limit, and then older pages are read (without describing what is
                    // known) until it is met.
                    let new_listed = order.len() - listed_known;
                    if plan.known_is_complete || plan.limit.is_met_by(plan.known.len() + new_listed)
                    {
                        met_known = true;
                        break;
                    }
                    stop_at_known = false;
                }
                listed_known += 1;
                order.push(entry.video_id);
                continue;
            }
            order.push(entry.video_id.clone());
            unknown.push(entry.video_id);
        }
        if !unknown.is_empty() {
            let index = batch_results.len();
            batch_results.push(None);
            let api = Arc::clone(api);
            let permits = Arc::clone(&permits);
            batches.spawn(async move {
                let _permit = permits.acquire_owned().await;
                (index, api.videos(&unknown).await)
            });
        }
        token = page.next_page_token;
        if met_known {
            complete = plan.known_is_complete || token.is_none();
            break;
        }
        if token.is_none() {
            complete = true;
            break;
        }
        if plan
            .limit
            .is_met_by(listed_known + unknown_listed(&order, listed_known))
        {
            // Enough entries, unless some turn out to be unlistable (upcoming, live): settle
            // what is in flight and check again.
            settle(&mut batches, &mut batch_results).await?;
            if plan
                .limit
                .is_met_by(listed_known + listable(&batch_results))
            {
                break;
            }
        }
    }
    settle(&mut batches, &mut batch_results).await?;
    let described: Vec<Video> = batch_results
        .into_iter()
        .flatten()
        .flatten()
        .filter(|details| details.broadcast == Broadcast::None)
        .map(|details| details.video)
        .collect();
    let listable_ids: HashSet<&str> = described
        .iter()
        .map(|video| video.youtube_video_id.as_str())
        .chain(plan.known.iter().map(String::as_str))
        .collect();
    let order = order
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
