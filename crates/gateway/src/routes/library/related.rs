//! "Related" on a Vault item: the five items of the caller's nearest to it by meaning
//! (docs/adr/0026-meaning-search.md). The library finds them; the gateway only shapes them.

use actix_web::{HttpResponse, web};
use scribevault_proto::library::v1 as pb;
use utoipa::OpenApi;

use super::TranscriptView;
use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, data};
use crate::routes::openapi::ErrorBody;
use crate::routes::table::{Access, RouteList};

/// The five items nearest by meaning to one of the caller's, nearest first; empty while the
/// item's vectors are being made. 503 when the server cannot search by meaning.
#[utoipa::path(
    get,
    path = "/api/library/transcripts/{id}/related",
    tag = "library",
    params(("id" = String, Path)),
    responses(
        (status = 200, body = Envelope<Vec<TranscriptView>>),
        (status = 404, body = ErrorBody, description = "Not one of the caller's items"),
        (status = 503, body = ErrorBody, description = "No embedding model, or no vector extension in the database")
    )
)]
pub async fn related(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let related = services
        .library()
        .get_related_transcripts(pb::GetRelatedTranscriptsRequest {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(data(
        related
            .transcripts
            .into_iter()
            .map(TranscriptView::try_from)
            .collect::<Result<Vec<_>, _>>()?,
    ))
}

#[derive(OpenApi)]
#[openapi(paths(related))]
pub(super) struct Docs;

pub(super) fn routes() -> RouteList {
    RouteList::default().add::<__path_related>(Access::SignedIn, || web::to(related))
}
