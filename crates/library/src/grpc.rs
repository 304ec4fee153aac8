//! Thin gRPC adapter: proto in, domain call, proto out. No logic lives here.

use std::pin::Pin;

use futures::{Stream, StreamExt as _};
use scribevault_core::identity::caller;
use scribevault_proto::library::v1 as pb;
use tonic::{Request, Response, Status};

use crate::domain::listing::{
    ItemFilter, ListRequest, SearchMode, SectionFilter, SortKey, SortOrder,
};
use crate::domain::{
    Change, FoundBy, LibraryItem, LibraryStats, ListedItem, MetadataChanges, NewLibraryItem,
    Section, Segment, SourceType, TranscriptReview,
};
use crate::service::{Library, VaultFile};

/// Serves [`Library`] over gRPC.
pub struct LibraryGrpc {
    library: Library,
}

impl LibraryGrpc {
    pub fn new(library: Library) -> Self {
        Self { library }
    }
}

fn to_proto(item: LibraryItem) -> pb::Transcript {
    pb::Transcript {
        id: item.id,
        title: item.title,
        author: item.author,
        created_at: item.created_at.to_rfc3339(),
        last_exported: item.last_exported.map(|at| at.to_rfc3339()),
        is_starred: item.is_starred,
        gwth_level: item.gwth_level,
        source_type: pb::SourceType::from(item.source_type).into(),
        rating: item.rating,
        tags: item.tags,
        duration_seconds: item.duration_seconds,
        source_ref: item.source_ref,
        section_id: item.section_id,
        file_name: item.file_name,
        source_url: item.source_url,
        highlights: Vec::new(),
        matches: Vec::new(),
        transcript_source: item
            .transcript_source
            .map(|source| pb::TranscriptSource::from(source).into()),
        whisper_job_id: item.whisper_job_id,
        language: item.language,
        review: item.review.as_ref().map(pb::TranscriptReview::from),
        found_by: pb::FoundBy::Unspecified.into(),
    }
}

fn match_to_proto(segment: Segment) -> pb::SegmentMatch {
    pb::SegmentMatch {
        start: segment.start_ms as f64 / 1000.0,
        end: segment.end_ms as f64 / 1000.0,
        text: segment.text.trim().to_owned(),
    }
}

fn listed_to_proto(listed: ListedItem) -> pb::Transcript {
    let mut transcript = to_proto(listed.item);
    if let Some(hit) = listed.hit {
        transcript.highlights = hit.highlights;
        transcript.found_by = match hit.found_by {
            FoundBy::Keyword => pb::FoundBy::Keyword,
            FoundBy::Meaning => pb::FoundBy::Meaning,
            FoundBy::Both => pb::FoundBy::Both,
        }
        .into();
        transcript.matches = hit.matches.into_iter().map(match_to_proto).collect();
    }
    transcript
}

fn section_to_proto(section: Section) -> pb::SyllabusSection {
    pb::SyllabusSection {
        id: section.id,
        title: section.title,
        position: section.position,
        description: section.description,
        item_count: section.item_count,
    }
}

fn counts(map: std::collections::BTreeMap<String, u64>) -> Vec<pb::CountByKey> {
    map.into_iter()
        .map(|(key, count)| pb::CountByKey { key, count })
        .collect()
}

fn stats_to_proto(stats: LibraryStats) -> pb::GetLibraryStatsResponse {
    pb::GetLibraryStatsResponse {
        total_transcripts: stats.total_transcripts,
        total_duration: stats.total_duration,
        storage_used: stats.storage_used,
        avg_rating: stats.avg_rating,
        this_month: stats.this_month,
        total_exported: stats.export.total_exported,
        top_rated_count: stats.export.top_rated_count,
        by_gwth_level: counts(stats.export.by_gwth_level),
        by_source_type: counts(stats.export.by_source_type),
        rating_distribution: counts(stats.distributions.rating),
        gwth_level_distribution: counts(stats.distributions.gwth_level),
        source_type_distribution: counts(stats.distributions.source_type),
        meaning: None,
    }
}

fn parse_time(
    field: &str,
    value: Option<&str>,
) -> Result<Option<chrono::DateTime<chrono::Utc>>, Status> {
    value
        .filter(|value| !value.is_empty())
        .map(|value| {
            chrono::DateTime::parse_from_rfc3339(value)
                .map(|at| at.with_timezone(&chrono::Utc))
                .map_err(|_| Status::invalid_argument(format!("{field} must be RFC 3339")))
        })
        .transpose()
}

/// The wire's list request as the domain's: only the shape is mapped here (an unspecified or
/// unknown enum value is refused); the domain checks every value against the Vault's limits.
impl TryFrom<pb::ListTranscriptsRequest> for ListRequest {
    type Error = Status;

    fn try_from(query: pb::ListTranscriptsRequest) -> Result<Self, Status> {
        let sort = match pb::SortKey::try_from(query.sort_by) {
            Ok(pb::SortKey::Unspecified) => None,
            Ok(pb::SortKey::CreatedAt) => Some(SortKey::CreatedAt),
            Ok(pb::SortKey::Title) => Some(SortKey::Title),
            Ok(pb::SortKey::Rating) => Some(SortKey::Rating),
            Ok(pb::SortKey::LastExported) => Some(SortKey::LastExported),
            Ok(pb::SortKey::Relevance) => Some(SortKey::Relevance),
            Err(_) => return Err(Status::invalid_argument("sort_by is not a known SortKey")),
        };
        let order = match pb::SortOrder::try_from(query.sort_order) {
            Ok(pb::SortOrder::Unspecified) => None,
            Ok(pb::SortOrder::Ascending) => Some(SortOrder::Asc),
            Ok(pb::SortOrder::Descending) => Some(SortOrder::Desc),
            Err(_) => {
                return Err(Status::invalid_argument(
                    "sort_order is not a known SortOrder",
                ));
            }
        };
        let search_mode = match pb::SearchMode::try_from(query.search_mode) {
            Ok(pb::SearchMode::Unspecified) => None,
            Ok(pb::SearchMode::Keyword) => Some(SearchMode::Keyword),
            Ok(pb::SearchMode::Semantic) => Some(SearchMode::Semantic),
            Ok(pb::SearchMode::Hybrid) => Some(SearchMode::Hybrid),
            Err(_) => {
                return Err(Status::invalid_argument(
                    "search_mode is not a known SearchMode",
                ));
            }
        };
        let filter = query.filter.unwrap_or_default();
        let section = filter.section.map(|section| match section {
            pb::item_filter::Section::SectionId(id) => SectionFilter::In(id),
            pb::item_filter::Section::InNoSection(pb::InNoSection {}) => SectionFilter::None,
        });
        Ok(Self {
            page: query.page,
            limit: query.limit,
            sort,
            order,
            search: query.search,
            search_mode,
            filter: ItemFilter {
                tags: filter.tags,
                source_types: filter
                    .source_types
                    .into_iter()
                    .map(SourceType::try_from)
                    .collect::<Result<_, _>>()?,
                is_starred: filter.is_starred,
                ratings: filter.ratings,
                min_rating: filter.min_rating,
                gwth_levels: filter.gwth_levels,
                exported: filter.exported,
                created_after: parse_time("created_after", filter.created_after.as_deref())?,
                created_before: parse_time("created_before", filter.created_before.as_deref())?,
                section,
                file_name: filter.file_name,
                needs_review: filter.needs_review,
            },
        })
    }
}

/// `0` clears a score; anything else sets it (and is checked by the service).
fn score_change(value: Option<i32>) -> Change<i32> {
    match value {
        None => Change::Keep,
        Some(0) => Change::Clear,
        Some(value) => Change::Set(value),
    }
}

type ExportStream = Pin<Box<dyn Stream<Item = Result<pb::ExportChunk, Status>> + Send>>;

#[tonic::async_trait]
impl pb::library_service_server::LibraryService for LibraryGrpc {
    type DownloadExportStream = ExportStream;

    async fn list_transcripts(
        &self,
        request: Request<pb::ListTranscriptsRequest>,
    ) -> Result<Response<pb::ListTranscriptsResponse>, Status> {
        let user = caller(&request)?;
        let query = ListRequest::try_from(request.into_inner())?;
        let page = self.library.list(&user, query).await?;
        Ok(Response::new(pb::ListTranscriptsResponse {
            transcripts: page.items.into_iter().map(listed_to_proto).collect(),
            meta: Some(pb::PageMeta {
                page: page.page,
                limit: page.limit,
                total: page.total,
                has_more: page.has_more,
                total_capped: page.total_capped,
            }),
        }))
    }

    async fn get_transcript(
        &self,
        request: Request<pb::GetTranscriptRequest>,
    ) -> Result<Response<pb::Transcript>, Status> {
        let user = caller(&request)?;
        let item = self.library.get(&user, &request.into_inner().id).await?;
        Ok(Response::new(to_proto(item)))
    }

    async fn get_library_stats(
        &self,
        request: Request<pb::GetLibraryStatsRequest>,
    ) -> Result<Response<pb::GetLibraryStatsResponse>, Status> {
        let user = caller(&request)?;
        let mut stats = stats_to_proto(self.library.stats(&user).await?);
        let meaning = self.library.meaning_progress(&user).await?;
        stats.meaning = Some(pb::MeaningIndex {
            enabled: meaning.enabled,
            embedded_items: meaning.embedded,
            total_items: meaning.total,
        });
        Ok(Response::new(stats))
    }

    async fn get_transcript_content(
        &self,
        request: Request<pb::GetTranscriptContentRequest>,
    ) -> Result<Response<pb::GetTranscriptContentResponse>, Status> {
        let user = caller(&request)?;
        let content = self
            .library
            .content(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::GetTranscriptContentResponse { content }))
    }

    async fn update_transcript_rating(
        &self,
        request: Request<pb::UpdateTranscriptRatingRequest>,
    ) -> Result<Response<pb::Transcript>, Status> {
        let user = caller(&request)?;
        let update = request.into_inner();
        Ok(Response::new(to_proto(
            self.library.rate(&user, &update.id, update.rating).await?,
        )))
    }

    async fn update_transcript_metadata(
        &self,
        request: Request<pb::UpdateTranscriptMetadataRequest>,
    ) -> Result<Response<pb::Transcript>, Status> {
        let user = caller(&request)?;
        let update = request.into_inner();
        let changes = MetadataChanges {
            title: update.title,
            author: update.author,
            is_starred: update.is_starred,
            gwth_level: score_change(update.gwth_level),
            rating: score_change(update.rating),
            tags: update.replace_tags.then_some(update.tags),
            section_id: match update.section_id {
                None => Change::Keep,
                Some(id) if id.is_empty() => Change::Clear,
                Some(id) => Change::Set(id),
            },
        };
        Ok(Response::new(to_proto(
            self.library
                .update_metadata(&user, &update.id, changes)
                .await?,
        )))
    }

    async fn update_transcript_content(
        &self,
        request: Request<pb::UpdateTranscriptContentRequest>,
    ) -> Result<Response<pb::Transcript>, Status> {
        let user = caller(&request)?;
        let update = request.into_inner();
        Ok(Response::new(to_proto(
            self.library
                .update_content(&user, &update.id, update.content)
                .await?,
        )))
    }

    async fn delete_transcript(
        &self,
        request: Request<pb::DeleteTranscriptRequest>,
    ) -> Result<Response<pb::DeleteTranscriptResponse>, Status> {
        let user = caller(&request)?;
        self.library.delete(&user, &request.into_inner().id).await?;
        Ok(Response::new(pb::DeleteTranscriptResponse {}))
    }

    async fn export_transcript(
        &self,
        request: Request<pb::ExportTranscriptRequest>,
    ) -> Result<Response<pb::ExportTranscriptResponse>, Status> {
        let user = caller(&request)?;
        let export = request.into_inner();
        let (download_url, filename) = self
            .library
            .export_one(&user, &export.id, &export.format)
            .await?;
        Ok(Response::new(pb::ExportTranscriptResponse {
            download_url,
            filename,
        }))
    }

    async fn export_transcripts_bulk(
        &self,
        request: Request<pb::ExportTranscriptsBulkRequest>,
    ) -> Result<Response<pb::ExportTranscriptResponse>, Status> {
        let user = caller(&request)?;
        let export = request.into_inner();
        let (download_url, filename) = self
            .library
            .export_bulk(&user, &export.ids, &export.format)
            .await?;
        Ok(Response::new(pb::ExportTranscriptResponse {
            download_url,
            filename,
        }))
    }

    async fn download_export(
        &self,
        request: Request<pb::DownloadExportRequest>,
    ) -> Result<Response<Self::DownloadExportStream>, Status> {
        let link = request.into_inner();
        let download = self
            .library
            .download_export(&link.id, link.expires, &link.signature)
            .await?;
        let header = pb::ExportChunk {
            part: Some(pb::export_chunk::Part::Header(pb::ExportHeader {
                filename: download.filename,
                content_type: download.content_type.to_owned(),
                user_id: download.owner,
                issued_at: download.issued_at.timestamp(),
            })),
        };
        let body = tokio_stream::wrappers::ReceiverStream::new(download.body);
        let stream = futures::stream::once(async move { Ok(header) }).chain(body.map(|chunk| {
            chunk.map_err(Status::from).map(|bytes| pb::ExportChunk {
                part: Some(pb::export_chunk::Part::Data(bytes)),
            })
        }));
        Ok(Response::new(Box::pin(stream)))
    }

    async fn process_transcripts_batch(
        &self,
        request: Request<pb::ProcessTranscriptsBatchRequest>,
    ) -> Result<Response<pb::ProcessTranscriptsBatchResponse>, Status> {
        let user = caller(&request)?;
        let limit = request.into_inner().limit;
        let (processed, remaining) = self
            .library
            .process_batch(&user, if limit == 0 { 50 } else { limit })
            .await?;
        Ok(Response::new(pb::ProcessTranscriptsBatchResponse {
            processed,
            remaining,
        }))
    }

    async fn get_transcript_suggestions(
        &self,
        request: Request<pb::GetTranscriptSuggestionsRequest>,
    ) -> Result<Response<pb::GetTranscriptSuggestionsResponse>, Status> {
        let user = caller(&request)?;
        let (suggested_tags, suggested_rating) = self
            .library
            .suggestions(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::GetTranscriptSuggestionsResponse {
            suggested_tags,
            suggested_rating,
        }))
    }

    async fn get_related_transcripts(
        &self,
        request: Request<pb::GetRelatedTranscriptsRequest>,
    ) -> Result<Response<pb::GetRelatedTranscriptsResponse>, Status> {
        let user = caller(&request)?;
        let related = self
            .library
            .related(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::GetRelatedTranscriptsResponse {
            transcripts: related.into_iter().map(to_proto).collect(),
        }))
    }

    async fn init_tags(
        &self,
        request: Request<pb::InitTagsRequest>,
    ) -> Result<Response<pb::InitTagsResponse>, Status> {
        let user = caller(&request)?;
        let created = self.library.init_tags(&user).await?;
        Ok(Response::new(pb::InitTagsResponse { created }))
    }

    async fn init_gwth_tags(
        &self,
        request: Request<pb::InitTagsRequest>,
    ) -> Result<Response<pb::InitTagsResponse>, Status> {
        let user = caller(&request)?;
        let created = self.library.init_gwth_tags(&user).await?;
        Ok(Response::new(pb::InitTagsResponse { created }))
    }

    async fn list_tags(
        &self,
        request: Request<pb::ListTagsRequest>,
    ) -> Result<Response<pb::ListTagsResponse>, Status> {
        let user = caller(&request)?;
        let tags = self.library.tags(&user).await?;
        Ok(Response::new(pb::ListTagsResponse {
            tags: tags
                .into_iter()
                .map(|tag| pb::Tag {
                    id: tag.id,
                    name: tag.name,
                    count: tag.count,
                })
                .collect(),
        }))
    }

    async fn list_syllabus_sections(
        &self,
        request: Request<pb::ListSyllabusSectionsRequest>,
    ) -> Result<Response<pb::ListSyllabusSectionsResponse>, Status> {
        let user = caller(&request)?;
        let sections = self.library.sections(&user).await?;
        Ok(Response::new(pb::ListSyllabusSectionsResponse {
            sections: sections.into_iter().map(section_to_proto).collect(),
        }))
    }

    async fn create_syllabus_section(
        &self,
        request: Request<pb::CreateSyllabusSectionRequest>,
    ) -> Result<Response<pb::SyllabusSection>, Status> {
        let user = caller(&request)?;
        let create = request.into_inner();
        let section = self
            .library
            .create_section(&user, &create.title, &create.description)
            .await?;
        Ok(Response::new(section_to_proto(section)))
    }

    async fn update_syllabus_section(
        &self,
        request: Request<pb::UpdateSyllabusSectionRequest>,
    ) -> Result<Response<pb::SyllabusSection>, Status> {
        let user = caller(&request)?;
        let update = request.into_inner();
        let section = self
            .library
            .update_section(
                &user,
                &update.id,
                update.title.as_deref(),
                update.description.as_deref(),
            )
            .await?;
        Ok(Response::new(section_to_proto(section)))
    }

    async fn reorder_syllabus_sections(
        &self,
        request: Request<pb::ReorderSyllabusSectionsRequest>,
    ) -> Result<Response<pb::ListSyllabusSectionsResponse>, Status> {
        let user = caller(&request)?;
        let sections = self
            .library
            .reorder_sections(&user, &request.into_inner().ids)
            .await?;
        Ok(Response::new(pb::ListSyllabusSectionsResponse {
            sections: sections.into_iter().map(section_to_proto).collect(),
        }))
    }

    async fn delete_syllabus_section(
        &self,
        request: Request<pb::DeleteSyllabusSectionRequest>,
    ) -> Result<Response<pb::DeleteSyllabusSectionResponse>, Status> {
        let user = caller(&request)?;
        self.library
            .delete_section(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::DeleteSyllabusSectionResponse {}))
    }

    async fn save_to_vault(
        &self,
        request: Request<pb::SaveToVaultRequest>,
    ) -> Result<Response<pb::SaveToVaultResponse>, Status> {
        let user = caller(&request)?;
        let files = request
            .into_inner()
            .files
            .into_iter()
            .map(|file| VaultFile {
                title: file.title,
                content: file.content,
                path: file.path,
            })
            .collect();
        let saved = self.library.save_files(&user, files).await?;
        Ok(Response::new(pb::SaveToVaultResponse {
            saved: saved.into_iter().map(to_proto).collect(),
        }))
    }

    async fn ingest_transcript(
        &self,
        request: Request<pb::IngestTranscriptRequest>,
    ) -> Result<Response<pb::IngestTranscriptResponse>, Status> {
        let user = caller(&request)?;
        let ingest = request.into_inner();
        let created_at = parse_time("created_at", ingest.created_at.as_deref())?;
        let source_type = SourceType::try_from(ingest.source_type)?;
        let outcome = self
            .library
            .ingest(
                &user,
                NewLibraryItem {
                    source_ref: ingest.source_ref,
                    title: ingest.title,
                    source_type,
                    content: ingest.content,
                    duration_seconds: ingest.duration_seconds,
                    created_at,
                    file_name: ingest.file_name,
                    segments: Vec::new(),
                    audio_path: ingest.audio_path,
                    transcript_source: None,
                    language: ingest.language.filter(|language| !language.is_empty()),
                    review: ingest
                        .review
                        .map(TranscriptReview::try_from)
                        .transpose()?
                        .and_then(TranscriptReview::if_needed),
                },
                ingest.segments_path.as_deref(),
            )
            .await?;
        Ok(Response::new(pb::IngestTranscriptResponse {
            transcript: Some(to_proto(outcome.item)),
            created: outcome.created,
        }))
    }

    async fn delete_user_data(
        &self,
        request: Request<pb::DeleteUserDataRequest>,
    ) -> Result<Response<pb::DeleteUserDataResponse>, Status> {
        let user = caller(&request)?;
        let deleted = self.library.delete_user_data(&user).await?;
        Ok(Response::new(pb::DeleteUserDataResponse {
            rows_deleted: deleted.rows,
            blobs_deleted: deleted.blobs,
        }))
    }

    async fn get_transcript_audio(
        &self,
        request: Request<pb::GetTranscriptAudioRequest>,
    ) -> Result<Response<pb::GetTranscriptAudioResponse>, Status> {
        let user = caller(&request)?;
        let recording = self
            .library
            .recording(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::GetTranscriptAudioResponse {
            audio_path: recording.audio_path,
        }))
    }

    async fn create_audio_link(
        &self,
        request: Request<pb::CreateAudioLinkRequest>,
    ) -> Result<Response<pb::CreateAudioLinkResponse>, Status> {
        let user = caller(&request)?;
        let link = self
            .library
            .audio_link(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::CreateAudioLinkResponse {
            url: link.url,
            expires_at: link.expires_at.to_rfc3339(),
        }))
    }

    async fn open_audio_link(
        &self,
        request: Request<pb::OpenAudioLinkRequest>,
    ) -> Result<Response<pb::OpenAudioLinkResponse>, Status> {
        // No caller: the signature is the authority, and names the owner.
        let link = request.into_inner();
        let recording = self
            .library
            .open_audio_link(&link.id, link.expires, &link.signature)
            .await?;
        Ok(Response::new(pb::OpenAudioLinkResponse {
            user_id: recording.owner.as_str().to_owned(),
            audio_path: recording.audio_path,
            issued_at: link.expires - crate::service::AUDIO_LINK_TTL.num_seconds(),
        }))
    }

    async fn get_transcript_segments(
        &self,
        request: Request<pb::GetTranscriptSegmentsRequest>,
    ) -> Result<Response<pb::GetTranscriptSegmentsResponse>, Status> {
        let user = caller(&request)?;
        let segments = self
            .library
            .segments(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(pb::GetTranscriptSegmentsResponse {
            segments: segments
                .into_iter()
                .map(|segment| pb::TimedSegment {
                    start_ms: segment.start_ms,
                    end_ms: segment.end_ms,
                    text: segment.text,
                    words: segment
                        .words
                        .into_iter()
                        .map(|word| pb::TimedWord {
                            start_ms: word.start_ms,
                            end_ms: word.end_ms,
                            text: word.text,
                            probability: word.probability,
                        })
                        .collect(),
                })
                .collect(),
        }))
    }

    async fn set_whisper_job(
        &self,
        request: Request<pb::SetWhisperJobRequest>,
    ) -> Result<Response<pb::Transcript>, Status> {
        let user = caller(&request)?;
        let request = request.into_inner();
        let item = self
            .library
            .set_whisper_job(&user, &request.id, &request.job_id)
            .await?;
        Ok(Response::new(to_proto(item)))
    }

    async fn clear_transcript_review(
        &self,
        request: Request<pb::ClearTranscriptReviewRequest>,
    ) -> Result<Response<pb::Transcript>, Status> {
        let user = caller(&request)?;
        let item = self
            .library
            .mark_reviewed(&user, &request.into_inner().id)
            .await?;
        Ok(Response::new(to_proto(item)))
    }
}
