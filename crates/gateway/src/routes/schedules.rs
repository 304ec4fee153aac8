//! `/api/schedules*`: scheduled syncs of sources, kept by the discovery service.

use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::clients::UserClients;
use crate::error::{ApiError, Envelope, created, data};
use crate::routes::table::{Access, RouteList};

/// The source a schedule syncs.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleSourceView {
    r#type: String,
    title: String,
    thumbnail_url: String,
}

/// A schedule as the SPA shows it (docs/product-spec.md §3, 'Schedule').
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleView {
    id: String,
    source_id: String,
    source: ScheduleSourceView,
    frequency: String,
    time_of_day: String,
    timezone: String,
    is_active: bool,
    /// Its downloads use YouTube's captions when a video has them.
    use_captions: bool,
    next_run_at: Option<String>,
    last_run_at: Option<String>,
    created_at: String,
}

impl From<pb::Schedule> for ScheduleView {
    fn from(schedule: pb::Schedule) -> Self {
        let source = schedule.source.unwrap_or_default();
        Self {
            id: schedule.id,
            source_id: schedule.source_id,
            source: ScheduleSourceView {
                r#type: source.r#type,
                title: source.title,
                thumbnail_url: source.thumbnail_url,
            },
            frequency: schedule.frequency,
            time_of_day: schedule.time_of_day,
            timezone: schedule.timezone,
            is_active: schedule.is_active,
            use_captions: schedule.use_captions,
            next_run_at: schedule.next_run_at,
            last_run_at: schedule.last_run_at,
            created_at: schedule.created_at,
        }
    }
}

/// The caller's scheduled syncs.
#[utoipa::path(get, path = "/api/schedules", tag = "schedules", responses((status = 200, body = Envelope<Vec<ScheduleView>>)))]
pub async fn list(services: UserClients) -> Result<HttpResponse, ApiError> {
    let schedules = services
        .discovery()
        .list_schedules(pb::ListSchedulesRequest {})
        .await?
        .into_inner()
        .schedules;
    Ok(data(
        schedules
            .into_iter()
            .map(ScheduleView::from)
            .collect::<Vec<_>>(),
    ))
}

/// The body of `POST /api/schedules`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewSchedule {
    #[serde(default)]
    source_id: String,
    #[serde(default)]
    frequency: String,
    #[serde(default)]
    time_of_day: String,
    /// An IANA name; UTC when absent.
    #[serde(default)]
    timezone: String,
    /// 'Use YouTube captions when available'; the user's default when absent.
    #[serde(default)]
    use_captions: Option<bool>,
}

/// Schedules a source's sync (`frequency` `daily` or `weekly`, `timeOfDay` `HH:MM` in `timezone`).
#[utoipa::path(post, path = "/api/schedules", tag = "schedules", request_body = NewSchedule, responses((status = 201, body = Envelope<ScheduleView>)))]
pub async fn create(
    services: UserClients,
    body: web::Json<NewSchedule>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let schedule = services
        .discovery()
        .create_schedule(pb::CreateScheduleRequest {
            source_id: body.source_id,
            frequency: body.frequency,
            time_of_day: body.time_of_day,
            timezone: body.timezone,
            use_captions: body.use_captions,
        })
        .await?
        .into_inner();
    Ok(created(ScheduleView::from(schedule)))
}

/// The body of `PATCH /api/schedules/{id}`: the edited fields, or `{isActive}`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScheduleChanges {
    source_id: Option<String>,
    frequency: Option<String>,
    time_of_day: Option<String>,
    timezone: Option<String>,
    is_active: Option<bool>,
    use_captions: Option<bool>,
}

/// Edits a schedule, or pauses and resumes it (`{isActive}`).
#[utoipa::path(patch, path = "/api/schedules/{id}", tag = "schedules", params(("id" = String, Path)), request_body = ScheduleChanges, responses((status = 200, body = Envelope<ScheduleView>)))]
pub async fn update(
    services: UserClients,
    id: web::Path<String>,
    body: web::Json<ScheduleChanges>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let schedule = services
        .discovery()
        .update_schedule(pb::UpdateScheduleRequest {
            id: id.into_inner(),
            frequency: body.frequency,
            time_of_day: body.time_of_day,
            timezone: body.timezone,
            is_active: body.is_active,
            source_id: body.source_id,
            use_captions: body.use_captions,
        })
        .await?
        .into_inner();
    Ok(data(ScheduleView::from(schedule)))
}

/// Deletes a schedule.
#[utoipa::path(delete, path = "/api/schedules/{id}", tag = "schedules", params(("id" = String, Path)), responses((status = 204, description = "Deleted")))]
pub async fn delete(
    services: UserClients,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    services
        .discovery()
        .delete_schedule(pb::ScheduleRef {
            id: id.into_inner(),
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Syncs the schedule's source now; answers the schedule and how many new videos it found.
#[utoipa::path(post, path = "/api/schedules/{id}/run", tag = "schedules", params(("id" = String, Path)), responses((status = 200, body = ScheduleRun)))]
pub async fn run(services: UserClients, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let ran = services
        .discovery()
        .run_schedule(pb::ScheduleRef {
            id: id.into_inner(),
        })
        .await?
        .into_inner();
    Ok(HttpResponse::Ok().json(ScheduleRun {
        data: ran.schedule.map(ScheduleView::from),
        meta: RunMeta {
            new_videos: ran.new_videos,
        },
    }))
}

/// A run of a schedule.
#[derive(Serialize, ToSchema)]
pub struct ScheduleRun {
    data: Option<ScheduleView>,
    meta: RunMeta,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunMeta {
    /// Videos the sync found that were not there before.
    new_videos: u32,
}

#[derive(OpenApi)]
#[openapi(paths(list, create, update, delete, run))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::SignedIn;
    RouteList::default()
        .add::<__path_list>(SignedIn, || web::to(list))
        .add::<__path_create>(SignedIn, || web::to(create))
        .add::<__path_update>(SignedIn, || web::to(update))
        .add::<__path_delete>(SignedIn, || web::to(delete))
        .add::<__path_run>(SignedIn, || web::to(run))
}
