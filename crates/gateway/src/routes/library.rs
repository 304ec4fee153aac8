//! `/api/library/*`: the Vault, served by the library service.

use actix_web::{HttpRequest, HttpResponse, web};
use scribevault_proto::library::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

/// A Vault item as the SPA expects it (spec §3, 'Library transcript').
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TranscriptView {
    id: String,
    title: String,
    author: String,
    created_at: String,
    last_exported: Option<String>,
    is_starred: bool,
    gwth_level: Option<i32>,
    source_type: String,
    rating: Option<i32>,
    tags: Vec<String>,
    duration: Option<f64>,
    section_id: Option<String>,
    file_name: Option<String>,
    source_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    highlights: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    matches: Option<Vec<SegmentMatchView>>,
}

/// Where in a recording a search hit was said (seconds).
#[derive(Serialize)]
pub struct SegmentMatchView {
    start: f64,
    end: f64,
    text: String,
}

impl TranscriptView {
    /// A search hit: the item with its highlights and, for audio, its matching segments.
    fn hit(item: pb::Transcript) -> Self {
        let highlights = item.highlights.clone();
        let matches = item
            .matches
            .iter()
            .map(|segment| SegmentMatchView {
                start: segment.start,
                end: segment.end,
                text: segment.text.clone(),
            })
            .collect();
        let is_audio = item.source_type == "AUDIO";
        let mut view = Self::from(item);
        view.highlights = Some(highlights);
        view.matches = is_audio.then_some(matches);
        view
    }
}

impl From<pb::Transcript> for TranscriptView {
    fn from(item: pb::Transcript) -> Self {
        Self {
            id: item.id,
            title: item.title,
            author: item.author,
            created_at: item.created_at,
            last_exported: item.last_exported,
            is_starred: item.is_starred,
            gwth_level: item.gwth_level,
            source_type: item.source_type,
            rating: item.rating,
            tags: item.tags,
            duration: item.duration_seconds,
            section_id: item.section_id,
            file_name: item.file_name,
            source_url: item.source_url,
            highlights: None,
            matches: None,
        }
    }
}

/// `GET /api/library/transcripts?page=&limit=&sortBy=&sortOrder=&<filter>=…`
pub async fn list_transcripts(
    request: HttpRequest,
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    // Every key goes to the library as given: it knows them all and refuses the unknown ones,
    // naming them.
    let mut query = pb::ListTranscriptsRequest::default();
    let mut filters: Vec<pb::Filter> = Vec::new();
    let mut searching = false;
    for (key, value) in url::form_urlencoded::parse(request.query_string().as_bytes()) {
        searching |= key == "q" && !value.trim().is_empty();
        match filters.iter_mut().find(|filter| filter.key == key) {
            Some(filter) => filter.values.push(value.into_owned()),
            None => filters.push(pb::Filter {
                key: key.into_owned(),
                values: vec![value.into_owned()],
            }),
        }
    }
    query.filters = filters;
    let page = clients
        .library
        .clone()
        .list_transcripts(on_behalf_of(&user.0, query)?)
        .await?
        .into_inner();
    let meta = page.meta.unwrap_or_default();
    let items: Vec<TranscriptView> = page
        .transcripts
        .into_iter()
        .map(|item| {
            if searching {
                TranscriptView::hit(item)
            } else {
                TranscriptView::from(item)
            }
        })
        .collect();
    let mut page_meta = serde_json::json!({
        "page": meta.page, "limit": meta.limit, "total": meta.total, "hasMore": meta.has_more,
    });
    // Only a search with more matches than it lists says so (the spec's meta has four keys).
    if meta.total_capped {
        page_meta["totalCapped"] = true.into();
    }
    Ok(HttpResponse::Ok().json(serde_json::json!({ "data": items, "meta": page_meta })))
}

/// `GET /api/library/stats`
pub async fn stats(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let stats = clients
        .library
        .clone()
        .get_library_stats(on_behalf_of(&user.0, pb::GetLibraryStatsRequest {})?)
        .await?
        .into_inner();
    let counts = |counts: Vec<pb::CountByKey>| -> serde_json::Map<String, serde_json::Value> {
        counts
            .into_iter()
            .map(|count| (count.key, serde_json::Value::from(count.count)))
            .collect()
    };
    Ok(data(serde_json::json!({
        "totalTranscripts": stats.total_transcripts,
        "totalDuration": stats.total_duration,
        "storageUsed": stats.storage_used,
        "avgRating": stats.avg_rating,
        "thisMonth": stats.this_month,
        "export": {
            "totalExported": stats.total_exported,
            "topRatedCount": stats.top_rated_count,
            "byGwthLevel": counts(stats.by_gwth_level),
            "bySourceType": counts(stats.by_source_type),
        },
        "distributions": {
            "rating": counts(stats.rating_distribution),
            "gwthLevel": counts(stats.gwth_level_distribution),
            "sourceType": counts(stats.source_type_distribution),
        },
    })))
}

/// `GET /api/library/transcripts/{id}/content`
pub async fn content(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::GetTranscriptContentRequest {
            id: id.into_inner(),
        },
    )?;
    let content = clients
        .library
        .clone()
        .get_transcript_content(request)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({ "content": content.content })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingUpdate {
    rating: i32,
}

/// `PATCH /api/library/transcripts/{id}` with `{rating}`
pub async fn rate(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<RatingUpdate>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::UpdateTranscriptRatingRequest {
            id: id.into_inner(),
            rating: body.rating,
        },
    )?;
    let item = clients
        .library
        .clone()
        .update_transcript_rating(request)
        .await?
        .into_inner();
    Ok(data(TranscriptView::from(item)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentUpdate {
    content: String,
}

/// `PUT /api/library/transcripts/{id}/content` with `{content}`
pub async fn update_content(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<ContentUpdate>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = on_behalf_of(
        &user.0,
        pb::UpdateTranscriptContentRequest {
            id: id.into_inner(),
            content: body.content,
        },
    )?;
    let item = clients
        .library
        .clone()
        .update_transcript_content(request)
        .await?
        .into_inner();
    Ok(data(TranscriptView::from(item)))
}

/// `DELETE /api/library/transcripts/{id}`
pub async fn delete(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    clients
        .library
        .clone()
        .delete_transcript(on_behalf_of(
            &user.0,
            pb::DeleteTranscriptRequest { id: id.clone() },
        )?)
        .await?;
    Ok(data(serde_json::json!({ "id": id, "deleted": true })))
}

/// `GET /api/library/transcripts/{id}`
pub async fn get(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::GetTranscriptRequest {
            id: id.into_inner(),
        },
    )?;
    let item = clients.library.clone().get_transcript(request).await?;
    Ok(data(TranscriptView::from(item.into_inner())))
}

/// A field that may be absent (keep), `null` (clear) or a value (set).
pub(super) fn present<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    T: Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MetadataUpdate {
    title: Option<String>,
    author: Option<String>,
    is_starred: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    gwth_level: Option<Option<i32>>,
    #[serde(default, deserialize_with = "present")]
    rating: Option<Option<i32>>,
    tags: Option<Vec<String>>,
    #[serde(default, deserialize_with = "present")]
    section_id: Option<Option<String>>,
}

/// A 1–5 score for the wire: `0` asks the library to clear it, so a real 0 is refused here.
fn score(field: &str, value: Option<Option<i32>>) -> Result<Option<i32>, ApiError> {
    match value {
        None => Ok(None),
        Some(None) => Ok(Some(0)),
        Some(Some(score)) if (1..=5).contains(&score) => Ok(Some(score)),
        Some(Some(_)) => Err(ApiError::bad_request(format!(
            "{field} must be between 1 and 5"
        ))),
    }
}

/// `PUT /api/library/transcripts/{id}/metadata`
pub async fn update_metadata(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<MetadataUpdate>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let section_id = match body.section_id {
        None => None,
        Some(None) => Some(String::new()),
        Some(Some(id)) if id.trim().is_empty() => {
            return Err(ApiError::bad_request("sectionId must not be empty"));
        }
        Some(Some(id)) => Some(id),
    };
    let request = on_behalf_of(
        &user.0,
        pb::UpdateTranscriptMetadataRequest {
            id: id.into_inner(),
            title: body.title,
            author: body.author,
            is_starred: body.is_starred,
            gwth_level: score("gwthLevel", body.gwth_level)?,
            rating: score("rating", body.rating)?,
            replace_tags: body.tags.is_some(),
            tags: body.tags.unwrap_or_default(),
            section_id,
        },
    )?;
    let item = clients
        .library
        .clone()
        .update_transcript_metadata(request)
        .await?;
    Ok(data(TranscriptView::from(item.into_inner())))
}

/// `GET /api/library/transcripts/{id}/suggestions`
pub async fn suggestions(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::GetTranscriptSuggestionsRequest {
            id: id.into_inner(),
        },
    )?;
    let suggestions = clients
        .library
        .clone()
        .get_transcript_suggestions(request)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({
        "suggestedTags": suggestions.suggested_tags,
        "suggestedRating": suggestions.suggested_rating,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportRequest {
    #[serde(default)]
    format: String,
}

fn export_answer(export: pb::ExportTranscriptResponse) -> HttpResponse {
    data(serde_json::json!({
        "downloadUrl": export.download_url,
        "filename": export.filename,
    }))
}

/// `POST /api/library/transcripts/{id}/export` with `{format}`
pub async fn export(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<ExportRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = on_behalf_of(
        &user.0,
        pb::ExportTranscriptRequest {
            id: id.into_inner(),
            format: body.into_inner().format,
        },
    )?;
    let export = clients.library.clone().export_transcript(request).await?;
    Ok(export_answer(export.into_inner()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BulkExportRequest {
    ids: Vec<String>,
    #[serde(default)]
    format: String,
}

/// `POST /api/library/export/bulk` with `{ids, format}`
pub async fn export_bulk(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<BulkExportRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let request = on_behalf_of(
        &user.0,
        pb::ExportTranscriptsBulkRequest {
            ids: body.ids,
            format: body.format,
        },
    )?;
    let export = clients
        .library
        .clone()
        .export_transcripts_bulk(request)
        .await?;
    Ok(export_answer(export.into_inner()))
}

#[derive(Deserialize)]
pub struct ExportLink {
    expires: i64,
    signature: String,
}

/// `GET /api/library/exports/{id}?expires=&signature=`: the signed link. No bearer token: the
/// signature is the authority, so a plain browser download works.
pub async fn download_export(
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    link: web::Query<ExportLink>,
) -> Result<HttpResponse, ApiError> {
    use futures::StreamExt as _;
    let link = link.into_inner();
    // Nobody is signed in: the gateway calls as itself, and the library checks the signature.
    let mut request = tonic::Request::new(pb::DownloadExportRequest {
        id: id.into_inner(),
        expires: link.expires,
        signature: link.signature,
    });
    scribevault_core::identity::attach_service("gateway", &mut request)?;
    let mut stream = clients
        .library
        .clone()
        .download_export(request)
        .await?
        .into_inner();
    let header = match stream.message().await? {
        Some(pb::ExportChunk {
            part: Some(pb::export_chunk::Part::Header(header)),
        }) => header,
        _ => {
            return Err(ApiError::new(
                scribevault_core::ErrorCode::Internal,
                "export without a header",
            ));
        }
    };
    let body = stream.map(|chunk| match chunk {
        Ok(pb::ExportChunk {
            part: Some(pb::export_chunk::Part::Data(bytes)),
        }) => Ok(bytes),
        Ok(_) => Ok(bytes::Bytes::new()),
        Err(status) => Err(actix_web::error::ErrorInternalServerError(
            status.message().to_owned(),
        )),
    });
    let disposition = actix_web::http::header::ContentDisposition {
        disposition: actix_web::http::header::DispositionType::Attachment,
        parameters: vec![
            actix_web::http::header::DispositionParam::Filename(header.filename.clone()),
            actix_web::http::header::DispositionParam::FilenameExt(
                actix_web::http::header::ExtendedValue {
                    charset: actix_web::http::header::Charset::Ext("UTF-8".into()),
                    language_tag: None,
                    value: header.filename.into_bytes(),
                },
            ),
        ],
    };
    Ok(HttpResponse::Ok()
        .content_type(header.content_type)
        .insert_header(disposition)
        .insert_header(("Cache-Control", "private, no-store"))
        .insert_header(("X-Content-Type-Options", "nosniff"))
        .streaming(body))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchQuery {
    limit: Option<u32>,
}

/// `POST /api/library/process/batch?limit=50`
pub async fn process_batch(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    query: web::Query<BatchQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.into_inner().limit.unwrap_or(50);
    if limit == 0 {
        return Err(ApiError::bad_request("limit must be between 1 and 200"));
    }
    let result = clients
        .library
        .clone()
        .process_transcripts_batch(on_behalf_of(
            &user.0,
            pb::ProcessTranscriptsBatchRequest { limit },
        )?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({
        "processed": result.processed,
        "remaining": result.remaining,
    })))
}

/// `POST /api/library/system/init-tags`
pub async fn init_tags(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let result = clients
        .library
        .clone()
        .init_tags(on_behalf_of(&user.0, pb::InitTagsRequest {})?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({ "created": result.created })))
}

/// `POST /api/library/system/init-gwth-tags`
pub async fn init_gwth_tags(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let result = clients
        .library
        .clone()
        .init_gwth_tags(on_behalf_of(&user.0, pb::InitTagsRequest {})?)
        .await?
        .into_inner();
    Ok(data(serde_json::json!({ "created": result.created })))
}

/// `GET /api/library/tags`
pub async fn tags(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let tags = clients
        .library
        .clone()
        .list_tags(on_behalf_of(&user.0, pb::ListTagsRequest {})?)
        .await?
        .into_inner()
        .tags;
    let tags: Vec<serde_json::Value> = tags
        .into_iter()
        .map(|tag| serde_json::json!({ "id": tag.id, "name": tag.name, "count": tag.count }))
        .collect();
    Ok(data(tags))
}

fn section_view(section: pb::SyllabusSection) -> serde_json::Value {
    serde_json::json!({
        "id": section.id,
        "title": section.title,
        "description": section.description,
        "position": section.position,
        "itemCount": section.item_count,
    })
}

/// `GET /api/library/syllabus-sections`
pub async fn sections(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let sections = clients
        .library
        .clone()
        .list_syllabus_sections(on_behalf_of(&user.0, pb::ListSyllabusSectionsRequest {})?)
        .await?
        .into_inner()
        .sections;
    Ok(data(
        sections.into_iter().map(section_view).collect::<Vec<_>>(),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewSection {
    title: String,
    #[serde(default)]
    description: String,
}

/// `POST /api/library/syllabus-sections` with `{title, description?}`
pub async fn create_section(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<NewSection>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let section = clients
        .library
        .clone()
        .create_syllabus_section(on_behalf_of(
            &user.0,
            pb::CreateSyllabusSectionRequest {
                title: body.title,
                description: body.description,
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Created().json(serde_json::json!({ "data": section_view(section) })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionChanges {
    title: Option<String>,
    description: Option<String>,
}

/// `PATCH /api/library/syllabus-sections/{id}` with `{title?, description?}`
pub async fn update_section(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<SectionChanges>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let section = clients
        .library
        .clone()
        .update_syllabus_section(on_behalf_of(
            &user.0,
            pb::UpdateSyllabusSectionRequest {
                id: id.into_inner(),
                title: body.title,
                description: body.description,
            },
        )?)
        .await?
        .into_inner();
    Ok(data(section_view(section)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionOrder {
    ids: Vec<String>,
}

/// `PUT /api/library/syllabus-sections/order` with `{ids}`
pub async fn reorder_sections(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<SectionOrder>,
) -> Result<HttpResponse, ApiError> {
    let sections = clients
        .library
        .clone()
        .reorder_syllabus_sections(on_behalf_of(
            &user.0,
            pb::ReorderSyllabusSectionsRequest {
                ids: body.into_inner().ids,
            },
        )?)
        .await?
        .into_inner()
        .sections;
    Ok(data(
        sections.into_iter().map(section_view).collect::<Vec<_>>(),
    ))
}

/// `DELETE /api/library/syllabus-sections/{id}`
pub async fn delete_section(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    clients
        .library
        .clone()
        .delete_syllabus_section(on_behalf_of(
            &user.0,
            pb::DeleteSyllabusSectionRequest { id: id.clone() },
        )?)
        .await?;
    Ok(data(serde_json::json!({ "id": id, "deleted": true })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedFile {
    #[serde(default)]
    title: String,
    content: String,
    #[serde(default)]
    path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VaultSave {
    files: Vec<SavedFile>,
}

/// `POST /api/vault/save` with `{files[{title, content, path}]}`
pub async fn save_to_vault(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<VaultSave>,
) -> Result<HttpResponse, ApiError> {
    let files = body
        .into_inner()
        .files
        .into_iter()
        .map(|file| pb::VaultFile {
            title: file.title,
            content: file.content,
            path: file.path,
        })
        .collect();
    let saved = clients
        .library
        .clone()
        .save_to_vault(on_behalf_of(&user.0, pb::SaveToVaultRequest { files })?)
        .await?
        .into_inner()
        .saved;
    Ok(data(
        saved
            .into_iter()
            .map(TranscriptView::from)
            .collect::<Vec<_>>(),
    ))
}
