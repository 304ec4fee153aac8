//! Organising the Vault: tags, syllabus sections and the batch that suggests tags and ratings.

use actix_web::{HttpResponse, web};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use super::items::DeletedView;
use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::table::{Access, RouteList};

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct BatchQuery {
    /// 1–200 (default 50).
    limit: Option<u32>,
}

/// Suggests tags and ratings for up to `limit` items not yet processed.
#[utoipa::path(post, path = "/api/library/process/batch", tag = "library", params(BatchQuery), responses((status = 200, body = Envelope<BatchView>)))]
pub async fn process_batch(
    services: UserClients,
    query: web::Query<BatchQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.into_inner().limit.unwrap_or(50);
    if limit == 0 {
        return Err(ApiError::bad_request("limit must be between 1 and 200"));
    }
    let result = services
        .library()
        .process_transcripts_batch(pb::ProcessTranscriptsBatchRequest { limit })
        .await?
        .into_inner();
    Ok(data(BatchView {
        processed: result.processed,
        remaining: result.remaining,
    }))
}

/// How far a batch got.
#[derive(Serialize, ToSchema)]
pub struct BatchView {
    processed: u32,
    remaining: u64,
}

/// How many tags an initialisation created.
#[derive(Serialize, ToSchema)]
pub struct CreatedTagsView {
    created: u32,
}

/// Creates the default tags the caller does not have yet.
#[utoipa::path(post, path = "/api/library/system/init-tags", tag = "library", responses((status = 200, body = Envelope<CreatedTagsView>)))]
pub async fn init_tags(services: UserClients) -> Result<HttpResponse, ApiError> {
    let result = services
        .library()
        .init_tags(pb::InitTagsRequest {})
        .await?
        .into_inner();
    Ok(data(CreatedTagsView {
        created: result.created,
    }))
}

/// Creates the gwth level tags the caller does not have yet.
#[utoipa::path(post, path = "/api/library/system/init-gwth-tags", tag = "library", responses((status = 200, body = Envelope<CreatedTagsView>)))]
pub async fn init_gwth_tags(services: UserClients) -> Result<HttpResponse, ApiError> {
    let result = services
        .library()
        .init_gwth_tags(pb::InitTagsRequest {})
        .await?
        .into_inner();
    Ok(data(CreatedTagsView {
        created: result.created,
    }))
}

/// A tag with how many of the caller's items carry it.
#[derive(Serialize, ToSchema)]
pub struct TagView {
    id: String,
    name: String,
    count: u64,
}

/// The caller's tags.
#[utoipa::path(get, path = "/api/library/tags", tag = "library", responses((status = 200, body = Envelope<Vec<TagView>>)))]
pub async fn tags(services: UserClients) -> Result<HttpResponse, ApiError> {
    let tags = services
        .library()
        .list_tags(pb::ListTagsRequest {})
        .await?
        .into_inner()
        .tags;
    let tags: Vec<TagView> = tags
        .into_iter()
        .map(|tag| TagView {
            id: tag.id,
            name: tag.name,
            count: tag.count,
        })
        .collect();
    Ok(data(tags))
}

/// A syllabus section: a named, ordered group of items.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SectionView {
    id: String,
    title: String,
    description: String,
    position: i32,
    item_count: u64,
}

impl From<pb::SyllabusSection> for SectionView {
    fn from(section: pb::SyllabusSection) -> Self {
        Self {
            id: section.id,
            title: section.title,
            description: section.description,
            position: section.position,
            item_count: section.item_count,
        }
    }
}

/// The caller's syllabus sections, in order.
#[utoipa::path(get, path = "/api/library/syllabus-sections", tag = "library", responses((status = 200, body = Envelope<Vec<SectionView>>)))]
pub async fn sections(services: UserClients) -> Result<HttpResponse, ApiError> {
    let sections = services
        .library()
        .list_syllabus_sections(pb::ListSyllabusSectionsRequest {})
        .await?
        .into_inner()
        .sections;
    Ok(data(
        sections
            .into_iter()
            .map(SectionView::from)
            .collect::<Vec<_>>(),
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSection {
    title: String,
    #[serde(default)]
    description: String,
}

/// Adds a section at the end.
#[utoipa::path(post, path = "/api/library/syllabus-sections", tag = "library", request_body = NewSection, responses((status = 201, body = Envelope<SectionView>)))]
pub async fn create_section(
    services: UserClients,
    body: web::Json<NewSection>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let section = services
        .library()
        .create_syllabus_section(pb::CreateSyllabusSectionRequest {
            title: body.title,
            description: body.description,
        })
        .await?
        .into_inner();
    Ok(created(SectionView::from(section)))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionChanges {
    title: Option<String>,
    description: Option<String>,
}

/// Renames or redescribes a section.
#[utoipa::path(patch, path = "/api/library/syllabus-sections/{id}", tag = "library", params(("id" = String, Path)), request_body = SectionChanges, responses((status = 200, body = Envelope<SectionView>)))]
pub async fn update_section(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<SectionChanges>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let section = services
        .library()
        .update_syllabus_section(pb::UpdateSyllabusSectionRequest {
            id: id.into_inner(),
            title: body.title,
            description: body.description,
        })
        .await?
        .into_inner();
    Ok(data(SectionView::from(section)))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionOrder {
    ids: Vec<String>,
}

/// Puts the sections in the given order (every section's id, once).
#[utoipa::path(put, path = "/api/library/syllabus-sections/order", tag = "library", request_body = SectionOrder, responses((status = 200, body = Envelope<Vec<SectionView>>)))]
pub async fn reorder_sections(
    services: UserClients,
    body: web::Json<SectionOrder>,
) -> Result<HttpResponse, ApiError> {
    let sections = services
        .library()
        .reorder_syllabus_sections(pb::ReorderSyllabusSectionsRequest {
            ids: body.into_inner().ids,
        })
        .await?
        .into_inner()
        .sections;
    Ok(data(
        sections
            .into_iter()
            .map(SectionView::from)
            .collect::<Vec<_>>(),
    ))
}

/// Deletes a section; its items stay, in no section.
#[utoipa::path(delete, path = "/api/library/syllabus-sections/{id}", tag = "library", params(("id" = String, Path)), responses((status = 200, body = Envelope<DeletedView>)))]
pub async fn delete_section(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    services
        .library()
        .delete_syllabus_section(pb::DeleteSyllabusSectionRequest { id: id.clone() })
        .await?;
    Ok(data(DeletedView::of(id)))
}

#[derive(OpenApi)]
#[openapi(paths(
    tags,
    init_tags,
    init_gwth_tags,
    process_batch,
    sections,
    create_section,
    reorder_sections,
    update_section,
    delete_section
))]
pub(super) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_tags>(SignedIn, || web::to(tags))
        .add::<__path_init_tags>(SignedIn, || web::to(init_tags))
        .add::<__path_init_gwth_tags>(SignedIn, || web::to(init_gwth_tags))
        .add::<__path_process_batch>(SignedIn, || web::to(process_batch))
        .add::<__path_sections>(SignedIn, || web::to(sections))
        .add::<__path_create_section>(SignedIn, || web::to(create_section))
        .add::<__path_reorder_sections>(SignedIn, || web::to(reorder_sections))
        .add::<__path_update_section>(SignedIn, || web::to(update_section))
        .add::<__path_delete_section>(SignedIn, || web::to(delete_section))
}
