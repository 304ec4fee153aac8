//! Thin gRPC adapter: proto in, domain call, proto out. No logic lives here.

use scribevault_core::identity::caller;
use scribevault_proto::library::v1 as pb;
use tonic::{Request, Response, Status};

use crate::domain::{LibraryItem, NewLibraryItem};
use crate::service::Library;

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
        source_type: item.source_type,
        rating: item.rating,
        tags: item.tags,
        duration_seconds: item.duration_seconds,
        source_ref: item.source_ref,
    }
}

fn parse_time(value: Option<&str>) -> Result<Option<chrono::DateTime<chrono::Utc>>, Status> {
    value
        .filter(|value| !value.is_empty())
        .map(|value| {
            chrono::DateTime::parse_from_rfc3339(value)
                .map(|at| at.with_timezone(&chrono::Utc))
                .map_err(|_| Status::invalid_argument("created_at must be RFC 3339"))
        })
        .transpose()
}

#[tonic::async_trait]
impl pb::library_service_server::LibraryService for LibraryGrpc {
    async fn list_transcripts(
        &self,
        request: Request<pb::ListTranscriptsRequest>,
    ) -> Result<Response<pb::ListTranscriptsResponse>, Status> {
        let user = caller(&request)?;
        let query = request.into_inner();
        let page = self
            .library
            .list(
                &user,
                query.page,
                query.limit,
                &query.sort_by,
                &query.sort_order,
            )
            .await?;
        Ok(Response::new(pb::ListTranscriptsResponse {
            transcripts: page.items.into_iter().map(to_proto).collect(),
            meta: Some(pb::PageMeta {
                page: page.page,
                limit: page.limit,
                total: page.total,
                has_more: page.has_more,
            }),
        }))
    }

    async fn get_library_stats(
        &self,
        request: Request<pb::GetLibraryStatsRequest>,
    ) -> Result<Response<pb::GetLibraryStatsResponse>, Status> {
        let user = caller(&request)?;
        let stats = self.library.stats(&user).await?;
        Ok(Response::new(pb::GetLibraryStatsResponse {
            total_transcripts: stats.total_transcripts,
            total_duration: stats.total_duration,
            storage_used: stats.storage_used,
            avg_rating: stats.avg_rating,
            this_month: stats.this_month,
            total_exported: stats.total_exported,
            top_rated_count: stats.top_rated_count,
            ..pb::GetLibraryStatsResponse::default()
        }))
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

    async fn ingest_transcript(
        &self,
        request: Request<pb::IngestTranscriptRequest>,
    ) -> Result<Response<pb::IngestTranscriptResponse>, Status> {
        let user = caller(&request)?;
        let ingest = request.into_inner();
        let created_at = parse_time(ingest.created_at.as_deref())?;
        let outcome = self
            .library
            .ingest(
                &user,
                NewLibraryItem {
                    source_ref: ingest.source_ref,
                    title: ingest.title,
                    source_type: ingest.source_type,
                    content: ingest.content,
                    duration_seconds: ingest.duration_seconds,
                    created_at,
                },
            )
            .await?;
        Ok(Response::new(pb::IngestTranscriptResponse {
            transcript: Some(to_proto(outcome.item)),
            created: outcome.created,
        }))
    }
}
