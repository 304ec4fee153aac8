//! `/api/schedules*`: scheduled syncs of sources, kept by the discovery service.

use actix_web::{HttpResponse, web};
use scribevault_proto::discovery::v1 as pb;
use serde::{Deserialize, Serialize};

use crate::auth::AuthenticatedUser;
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, data};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ScheduleSourceView {
    r#type: String,
    title: String,
    thumbnail_url: String,
}

/// A schedule as the SPA shows it (spec §3, 'Schedule').
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ScheduleView {
    id: String,
    source_id: String,
    source: ScheduleSourceView,
    frequency: String,
    time_of_day: String,
    timezone: String,
    is_active: bool,
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
            next_run_at: schedule.next_run_at,
            last_run_at: schedule.last_run_at,
            created_at: schedule.created_at,
        }
    }
}

/// `GET /api/schedules`
pub async fn list(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let schedules = clients
        .discovery
        .clone()
        .list_schedules(on_behalf_of(&user.0, pb::ListSchedulesRequest {})?)
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
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateBody {
    #[serde(default)]
    source_id: String,
    #[serde(default)]
    frequency: String,
    #[serde(default)]
    time_of_day: String,
    /// An IANA name; UTC when absent.
    #[serde(default)]
    timezone: String,
}

/// `POST /api/schedules {sourceId, frequency, timeOfDay, timezone}`: 201 with the schedule.
pub async fn create(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    body: web::Json<CreateBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let schedule = clients
        .discovery
        .clone()
        .create_schedule(on_behalf_of(
            &user.0,
            pb::CreateScheduleRequest {
                source_id: body.source_id,
                frequency: body.frequency,
                time_of_day: body.time_of_day,
                timezone: body.timezone,
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Created().json(serde_json::json!({ "data": ScheduleView::from(schedule) })))
}

/// The body of `PATCH /api/schedules/{id}`: the edited fields, or `{isActive}`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateBody {
    source_id: Option<String>,
    frequency: Option<String>,
    time_of_day: Option<String>,
    timezone: Option<String>,
    is_active: Option<bool>,
}

/// `PATCH /api/schedules/{id}`
pub async fn update(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
    body: web::Json<UpdateBody>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let schedule = clients
        .discovery
        .clone()
        .update_schedule(on_behalf_of(
            &user.0,
            pb::UpdateScheduleRequest {
                id: id.into_inner(),
                frequency: body.frequency,
                time_of_day: body.time_of_day,
                timezone: body.timezone,
                is_active: body.is_active,
                source_id: body.source_id,
            },
        )?)
        .await?
        .into_inner();
    Ok(data(ScheduleView::from(schedule)))
}

/// `DELETE /api/schedules/{id}`: 204.
pub async fn delete(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    clients
        .discovery
        .clone()
        .delete_schedule(on_behalf_of(
            &user.0,
            pb::ScheduleRef {
                id: id.into_inner(),
            },
        )?)
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `POST /api/schedules/{id}/run`: syncs the source now; the schedule, and `meta {newVideos}`.
pub async fn run(
    user: AuthenticatedUser,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let ran = clients
        .discovery
        .clone()
        .run_schedule(on_behalf_of(
            &user.0,
            pb::ScheduleRef {
                id: id.into_inner(),
            },
        )?)
        .await?
        .into_inner();
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "data": ran.schedule.map(ScheduleView::from),
        "meta": { "newVideos": ran.new_videos },
    })))
}
