//! Which of a member's items are a feed's episodes, and what each episode's audio is.
//!
//! An episode is an AUDIO item whose recording is still stored. The library keeps where an
//! item's transcript is (`transcripts/{job}/{file}.txt`), transcription knows which MP3 that
//! file was made from (and its YouTube video, for source feeds), storage knows the MP3's size.
//! Every call is made as the feed's owner, so nothing another member owns can be reached.

use std::collections::HashSet;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::StreamExt as _;
use scribevault_proto::discovery::v1 as discovery_pb;
use scribevault_proto::library::v1 as library_pb;
use scribevault_proto::storage::v1 as storage_pb;
use scribevault_proto::transcription::v1 as transcription_pb;
use tonic::Code;

use super::FeedScope;
use crate::clients::UserClients;
use crate::error::ApiError;

/// Most episodes in one feed (Pinchflat's limit: podcast apps slow down past it).
pub const MAX_EPISODES: usize = 2_000;

/// Most Vault items read to fill a source feed, whose episodes are a subset of the Vault.
const MAX_ITEMS_SCANNED: usize = 10_000;

/// Items per library page (the library's largest).
const PAGE_SIZE: u32 = 100;

/// Most pages of a source's videos read (discovery pages them from its own tables).
const MAX_SOURCE_PAGES: usize = 200;

/// Calls in flight at once while resolving episodes.
const CONCURRENCY: usize = 8;

/// How long what an item's audio is stays cached: authorisation is never cached (the item
/// list is read on every fetch), only the size and path of a recording, which do not change.
const MEDIA_TTL: Duration = Duration::from_secs(600);

/// Longest episode description, in characters.
const MAX_DESCRIPTION_CHARS: usize = 600;

/// An item's recording and what the feed says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Media {
    /// The MP3's stored path (the owner's, as storage names it).
    pub mp3_path: String,
    /// Its real size, for the enclosure's `length`.
    pub bytes: u64,
    /// The YouTube video it was downloaded from, if any.
    pub video_id: Option<String>,
    /// The worker's timed segments, beside the transcript.
    pub segments_path: String,
    /// The transcript's first paragraph.
    pub description: String,
}

/// What each item's audio is, by owner and item, for ten minutes. `None` (no stored audio) is
/// cached too, so a Vault whose MP3s were cleaned up costs nothing per poll.
#[derive(Clone)]
pub struct MediaCache(moka::future::Cache<(String, String), Option<Media>>);

impl Default for MediaCache {
    fn default() -> Self {
        Self(
            moka::future::Cache::builder()
                .max_capacity(50_000)
                .time_to_live(MEDIA_TTL)
                .build(),
        )
    }
}

/// One episode of a feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Episode {
    pub id: String,
    pub title: String,
    pub published: DateTime<Utc>,
    pub duration_seconds: Option<f64>,
    pub media: Media,
}

/// What a source feed's channel shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceInfo {
    pub title: String,
    pub thumbnail_url: String,
    pub url: String,
}

/// The job id in a transcript path the worker wrote (`transcripts/{job}/{file}.txt`).
fn job_of(transcript_path: &str) -> Option<&str> {
    let mut parts = transcript_path.split('/');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("transcripts"), Some(job), Some(file), None)
            if !job.is_empty() && file.ends_with(".txt") =>
        {
            Some(job)
        }
        _ => None,
    }
}

/// The transcript's first paragraph: the markdown title and headings skipped, lines joined,
/// cut at a word near `MAX_DESCRIPTION_CHARS`.
#[must_use]
pub fn first_paragraph(content: &str) -> String {
    let mut paragraph: Vec<&str> = Vec::new();
    for line in content.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            if paragraph.is_empty() {
                continue;
            }
            break;
        }
        paragraph.push(line);
    }
    let text = paragraph.join(" ");
    if text.chars().count() <= MAX_DESCRIPTION_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_DESCRIPTION_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end())
}

fn not_found_is_none<T>(
    result: Result<tonic::Response<T>, tonic::Status>,
) -> Result<Option<T>, ApiError> {
    match result {
        Ok(response) => Ok(Some(response.into_inner())),
        Err(status) if status.code() == Code::NotFound => Ok(None),
        Err(status) => Err(status.into()),
    }
}

/// Resolves items to episodes for one owner.
pub struct Catalog<'a> {
    clients: &'a UserClients,
    cache: &'a MediaCache,
}

impl<'a> Catalog<'a> {
    #[must_use]
    pub fn new(clients: &'a UserClients, cache: &'a MediaCache) -> Self {
        Self { clients, cache }
    }

    /// One of the owner's sources, `None` when they have none with this id.
    ///
    /// # Errors
    /// Discovery unavailable.
    pub async fn source(&self, id: &str) -> Result<Option<SourceInfo>, ApiError> {
        let sources = self
            .clients
            .discovery()
            .list_sources(discovery_pb::ListSourcesRequest {})
            .await?
            .into_inner()
            .sources;
        Ok(sources
            .into_iter()
            .find(|source| source.id == id)
            .map(|source| SourceInfo {
                title: source.title,
                thumbnail_url: source.thumbnail_url,
                url: source.url,
            }))
    }

    /// The YouTube video ids of one of the owner's sources.
    async fn source_videos(&self, id: &str) -> Result<HashSet<String>, ApiError> {
        let mut videos = HashSet::new();
        let mut page_token = String::new();
        for _ in 0..MAX_SOURCE_PAGES {
            let page = self
                .clients
                .discovery()
                .list_source_videos(discovery_pb::ListSourceVideosRequest {
                    source_id: id.to_owned(),
                    page_token: page_token.clone(),
                })
                .await?
                .into_inner();
            videos.extend(page.videos.into_iter().map(|video| video.youtube_video_id));
            if !page.has_more || page.next_page_token.is_empty() {
                break;
            }
            page_token = page.next_page_token;
        }
        Ok(videos)
    }

    /// What `item`'s recording is; `None` when it is not an AUDIO item made by transcription
    /// or its MP3 is no longer stored.
    async fn media(&self, item: &library_pb::Transcript) -> Result<Option<Media>, ApiError> {
        if item.source_type() != library_pb::SourceType::Audio {
            return Ok(None);
        }
        let key = (self.clients.user().as_str().to_owned(), item.id.clone());
        if let Some(cached) = self.cache.0.get(&key).await {
            return Ok(cached);
        }
        let media = self.resolve_media(item).await?;
        self.cache.0.insert(key, media.clone()).await;
        Ok(media)
    }

    async fn resolve_media(
        &self,
        item: &library_pb::Transcript,
    ) -> Result<Option<Media>, ApiError> {
        let Some(transcript_path) = item.file_name.as_deref() else {
            return Ok(None);
        };
        let Some(job_id) = job_of(transcript_path) else {
            return Ok(None);
        };
        let Some(job) = not_found_is_none(
            self.clients
                .transcription()
                .get_transcription_job(transcription_pb::GetTranscriptionJobRequest {
                    job_id: job_id.to_owned(),
                })
                .await,
        )?
        else {
            return Ok(None);
        };
        let Some(file) = job
            .files
            .into_iter()
            .find(|file| file.transcript_path.as_deref() == Some(transcript_path))
            .filter(|file| !file.mp3_path.is_empty())
        else {
            return Ok(None);
        };
        let Some(stat) = not_found_is_none(
            self.clients
                .storage()
                .stat_blob(storage_pb::StatBlobRequest {
                    path: file.mp3_path.clone(),
                })
                .await,
        )?
        else {
            return Ok(None);
        };
        let content = not_found_is_none(
            self.clients
                .library()
                .get_transcript_content(library_pb::GetTranscriptContentRequest {
                    id: item.id.clone(),
                })
                .await,
        )?
        .map(|content| content.content)
        .unwrap_or_default();
        let base = transcript_path.trim_end_matches(".txt");
        Ok(Some(Media {
            mp3_path: file.mp3_path,
            bytes: stat.size,
            video_id: Some(file.youtube_video_id).filter(|id| !id.is_empty()),
            segments_path: format!("{base}.segments.json"),
            description: first_paragraph(&content),
        }))
    }

    fn in_scope(
        scope: &FeedScope,
        item: &library_pb::Transcript,
        media: &Media,
        source_videos: Option<&HashSet<String>>,
    ) -> bool {
        match scope {
            FeedScope::Vault => true,
            FeedScope::Tag(tag) => {
                let tag = tag.to_lowercase();
                item.tags.iter().any(|own| own.to_lowercase() == tag)
            }
            FeedScope::Source(_) => media
                .video_id
                .as_ref()
                .is_some_and(|video| source_videos.is_some_and(|videos| videos.contains(video))),
        }
    }

    /// The feed's episodes, newest first, at most [`MAX_EPISODES`].
    ///
    /// # Errors
    /// A service unavailable.
    pub async fn episodes(&self, scope: &FeedScope) -> Result<Vec<Episode>, ApiError> {
        let source_videos = match scope {
            FeedScope::Source(id) => Some(self.source_videos(id).await?),
            _ => None,
        };
        let filter = library_pb::ItemFilter {
            source_types: vec![library_pb::SourceType::Audio as i32],
            tags: match scope {
                FeedScope::Tag(tag) => vec![tag.clone()],
                _ => Vec::new(),
            },
            ..Default::default()
        };
        let mut episodes = Vec::new();
        let mut scanned = 0;
        let mut page = 1;
        while episodes.len() < MAX_EPISODES && scanned < MAX_ITEMS_SCANNED {
            let listed = self
                .clients
                .library()
                .list_transcripts(library_pb::ListTranscriptsRequest {
                    page: Some(page),
                    limit: Some(PAGE_SIZE),
                    sort_by: library_pb::SortKey::CreatedAt as i32,
                    sort_order: library_pb::SortOrder::Descending as i32,
                    search: None,
                    search_mode: library_pb::SearchMode::Unspecified as i32,
                    filter: Some(filter.clone()),
                })
                .await?
                .into_inner();
            scanned += listed.transcripts.len();
            let has_more = listed.meta.as_ref().is_some_and(|meta| meta.has_more);
            let resolved: Vec<Result<Option<Episode>, ApiError>> =
                futures::stream::iter(listed.transcripts)
                    .map(|item| async {
                        let Some(media) = self.media(&item).await? else {
                            return Ok(None);
                        };
                        if !Self::in_scope(scope, &item, &media, source_videos.as_ref()) {
                            return Ok(None);
                        }
                        Ok(Some(episode(item, media)))
                    })
                    .buffered(CONCURRENCY)
                    .collect()
                    .await;
            for result in resolved {
                if let Some(episode) = result? {
                    episodes.push(episode);
                }
            }
            if !has_more {
                break;
            }
            page += 1;
        }
        episodes.truncate(MAX_EPISODES);
        Ok(episodes)
    }

    /// One episode of the feed, `None` when `id` is not one of its items (another member's,
    /// outside the scope, not audio, or without stored audio).
    ///
    /// # Errors
    /// A service unavailable.
    pub async fn episode(&self, scope: &FeedScope, id: &str) -> Result<Option<Episode>, ApiError> {
        let Some(item) = not_found_is_none(
            self.clients
                .library()
                .get_transcript(library_pb::GetTranscriptRequest { id: id.to_owned() })
                .await,
        )?
        else {
            return Ok(None);
        };
        let Some(media) = self.media(&item).await? else {
            return Ok(None);
        };
        let source_videos = match scope {
            FeedScope::Source(id) => Some(self.source_videos(id).await?),
            _ => None,
        };
        if !Self::in_scope(scope, &item, &media, source_videos.as_ref()) {
            return Ok(None);
        }
        Ok(Some(episode(item, media)))
    }
}

fn episode(item: library_pb::Transcript, media: Media) -> Episode {
    let published = DateTime::parse_from_rfc3339(&item.created_at)
        .map_or_else(|_| DateTime::<Utc>::UNIX_EPOCH, |at| at.with_timezone(&Utc));
    Episode {
        id: item.id,
        title: item.title,
        published,
        duration_seconds: item.duration_seconds,
        media,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_is_read_from_the_workers_transcript_path() {
        assert_eq!(job_of("transcripts/job-1/file-2.txt"), Some("job-1"));
        assert_eq!(job_of("uploads/a.mp3"), None);
        assert_eq!(job_of("transcripts/job-1/deeper/file.txt"), None);
        assert_eq!(job_of("transcripts//file.txt"), None);
    }

    #[test]
    fn the_description_is_the_first_paragraph_without_the_title() {
        let content = "# Bread\n\nFirst line of speech.\nSecond line.\n\nNext paragraph.";
        assert_eq!(
            first_paragraph(content),
            "First line of speech. Second line."
        );
        let long = "word ".repeat(400);
        let cut = first_paragraph(&long);
        assert!(cut.ends_with('…'));
        assert!(cut.chars().count() <= MAX_DESCRIPTION_CHARS + 1);
    }

    #[test]
    fn a_tag_feed_compares_tags_ignoring_case() {
        let item = library_pb::Transcript {
            tags: vec!["Cooking".into()],
            ..Default::default()
        };
        let media = Media {
            mp3_path: String::new(),
            bytes: 1,
            video_id: None,
            segments_path: String::new(),
            description: String::new(),
        };
        assert!(Catalog::in_scope(
            &FeedScope::Tag("cooking".into()),
            &item,
            &media,
            None
        ));
        assert!(!Catalog::in_scope(
            &FeedScope::Tag("baking".into()),
            &item,
            &media,
            None
        ));
        assert!(!Catalog::in_scope(
            &FeedScope::Source("s".into()),
            &item,
            &media,
            Some(&HashSet::new())
        ));
    }
}
