//! `/api/admin/*`: the instance owner's Users tab. Every route here is registered as admin-only
//! in the route table (403 for other members).

use actix_web::{HttpRequest, HttpResponse, web};
use chrono::{DateTime, Utc};
use scribevault_core::UserId;
use scribevault_proto::{library, storage, transcription};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::auth::invitations::Invitation;
use crate::auth::members::{Member, MemberChange};
use crate::auth::{AdminUser, Revoked, internal};
use crate::clients::ServiceClients;
use crate::context::Context;
use crate::error::{ApiError, Envelope, created, data};
use crate::member_data::MEMBER_DATA;
use crate::routes::table::{Access, RouteList};
use crate::user_settings::push_effects;

/// Longest an invitation may be made to last.
const MAX_INVITATION_HOURS: u64 = 720;
/// Largest storage cap an admin can set, in GB (the settings' own limit).
const MAX_CAP_GB: u32 = 1000;

/// A member as the Users tab lists them.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    id: String,
    email: String,
    is_admin: bool,
    disabled: bool,
    created_at: DateTime<Utc>,
    last_sign_in_at: Option<DateTime<Utc>>,
    storage_used_bytes: u64,
    vault_items: u64,
    jobs_waiting: u64,
    #[serde(rename = "storageCapGB")]
    storage_cap_gb: Option<u32>,
}

#[derive(Serialize, ToSchema)]
pub struct UsersView {
    users: Vec<UserView>,
}

/// An invitation as the Users tab lists it (never its secret).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvitationView {
    id: String,
    created_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
    used_at: Option<DateTime<Utc>>,
    /// The email of the account made with it.
    used_by: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct InvitationsView {
    invitations: Vec<InvitationView>,
}

/// A new invitation: its link, shown this once.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewInvitationView {
    id: String,
    url: String,
    expires_at: DateTime<Utc>,
}

/// An admin's change to a member. `storageCapGB: null` removes the cap.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserChange {
    #[serde(default)]
    disabled: Option<bool>,
    #[serde(default)]
    is_admin: Option<bool>,
    #[serde(
        default,
        rename = "storageCapGB",
        deserialize_with = "super::library::present"
    )]
    storage_cap_gb: Option<Option<u32>>,
}

#[derive(Deserialize, Default, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvitationRequest {
    #[serde(default)]
    expires_in_hours: Option<u64>,
}

/// What the services report about one member; a service that cannot answer counts zero
/// rather than hiding the whole list.
async fn usage_of(clients: &ServiceClients, member: Member) -> UserView {
    let services = clients.for_user(&UserId::new(member.user_id.clone()));
    let storage = async {
        let answer = services
            .storage()
            .get_storage_usage(storage::v1::GetStorageUsageRequest {})
            .await
            .ok()?;
        Some(answer.into_inner().used_bytes)
    };
    let vault = async {
        let answer = services
            .library()
            .get_library_stats(library::v1::GetLibraryStatsRequest {})
            .await
            .ok()?;
        Some(answer.into_inner().total_transcripts)
    };
    let waiting = async {
        let answer = services
            .transcription()
            .count_waiting_files(transcription::v1::CountWaitingFilesRequest {})
            .await
            .ok()?;
        Some(answer.into_inner().waiting)
    };
    let (storage, vault, waiting) = futures::join!(storage, vault, waiting);
    UserView {
        id: member.user_id,
        email: member.email,
        is_admin: member.is_admin,
        disabled: member.disabled,
        created_at: member.created_at,
        last_sign_in_at: member.last_sign_in_at,
        storage_used_bytes: storage.unwrap_or_default(),
        vault_items: vault.unwrap_or_default(),
        jobs_waiting: waiting.unwrap_or_default(),
        storage_cap_gb: member.storage_cap_gb,
    }
}

/// Every member of the instance with what they use.
#[utoipa::path(get, path = "/api/admin/users", responses((status = 200, body = Envelope<UsersView>)), tag = "admin")]
pub async fn list_users(_admin: AdminUser, context: Context) -> Result<HttpResponse, ApiError> {
    let members = context.access.members.list().await?;
    let users = futures::future::join_all(
        members
            .into_iter()
            .map(|member| usage_of(&context.clients, member)),
    )
    .await;
    Ok(data(UsersView { users }))
}

fn not_yourself(caller: &AdminUser, id: &str, what: &str) -> Result<(), ApiError> {
    if caller.0.user.as_str() == id {
        return Err(ApiError::bad_request(format!(
            "You cannot {what} your own account; another admin can"
        )));
    }
    Ok(())
}

/// Disables or enables a member, makes or removes an admin, sets the storage cap.
#[utoipa::path(patch, path = "/api/admin/users/{id}", params(("id" = String, Path)), request_body = UserChange, responses((status = 200, body = Envelope<UserView>)), tag = "admin")]
pub async fn update_user(
    caller: AdminUser,
    context: Context,
    id: web::Path<String>,
    body: web::Json<UserChange>,
) -> Result<HttpResponse, ApiError> {
    if body.disabled == Some(true) {
        not_yourself(&caller, &id, "disable")?;
    }
    if body.is_admin == Some(false) {
        not_yourself(&caller, &id, "remove admin from")?;
    }
    if let Some(Some(cap)) = body.storage_cap_gb
        && !(1..=MAX_CAP_GB).contains(&cap)
    {
        return Err(ApiError::bad_request(format!(
            "storageCapGB must be a whole number from 1 to {MAX_CAP_GB}, or null"
        )));
    }
    let change = MemberChange {
        is_admin: body.is_admin,
        disabled: body.disabled,
        storage_cap_gb: body.storage_cap_gb,
    };
    let member = context
        .access
        .members
        .change(&id, &change)
        .await?
        .ok_or_else(|| ApiError::not_found("No such user"))?;
    let user = UserId::new(member.user_id.clone());
    if body.disabled == Some(true) {
        if let Some(local) = &context.access.local {
            local.end_sessions(&member.user_id).await?;
        }
        context
            .access
            .revocations
            .announce(Revoked::User(member.user_id.clone()));
    }
    if body.storage_cap_gb.is_some() {
        let settings = context.settings.get(&member.user_id).await?;
        push_effects(
            &context.clients.for_user(&user),
            &settings,
            member.storage_cap_gb,
        )
        .await?;
    }
    Ok(data(usage_of(&context.clients, member).await))
}

/// Deletes the account and everything it owns, walking `MEMBER_DATA` (every service's
/// `DeleteUserData`, then the gateway's stores, the member last, so a failure halfway can be
/// retried).
#[utoipa::path(delete, path = "/api/admin/users/{id}", params(("id" = String, Path)), responses((status = 204, description = "Deleted")), tag = "admin")]
pub async fn delete_user(
    caller: AdminUser,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    not_yourself(&caller, &id, "delete")?;
    let member = context
        .access
        .members
        .get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("No such user"))?;
    let user = UserId::new(member.user_id.clone());
    // Stop the user first, so nothing new arrives while their data goes.
    context
        .access
        .members
        .change(
            &member.user_id,
            &MemberChange {
                disabled: Some(true),
                ..MemberChange::default()
            },
        )
        .await?;
    context
        .access
        .revocations
        .announce(Revoked::User(member.user_id.clone()));
    let services = context.clients.for_user(&user);
    for place in MEMBER_DATA {
        place.delete(&context, &services, &user).await?;
    }
    tracing::info!(user = %member.user_id, by = %caller.0.user, "account deleted");
    Ok(HttpResponse::NoContent().finish())
}

fn invitation_view(invitation: Invitation, members: &[Member]) -> InvitationView {
    let used_by = match &invitation.used_by {
        Some(id) => Some(
            members
                .iter()
                .find(|member| &member.user_id == id)
                .map_or_else(
                    || "(deleted account)".to_owned(),
                    |member| member.email.clone(),
                ),
        ),
        // Account deletion forgets who used it.
        None => invitation.used_at.map(|_| "(deleted account)".to_owned()),
    };
    InvitationView {
        id: invitation.id,
        created_at: invitation.created_at,
        expires_at: invitation.expires_at,
        used_at: invitation.used_at,
        used_by,
    }
}

/// The instance's invitations, open and used (never their secrets).
#[utoipa::path(get, path = "/api/admin/invitations", responses((status = 200, body = Envelope<InvitationsView>)), tag = "admin")]
pub async fn list_invitations(
    _admin: AdminUser,
    context: Context,
) -> Result<HttpResponse, ApiError> {
    let members = context.access.members.list().await?;
    let invitations = context
        .access
        .invitations
        .list()
        .await?
        .into_iter()
        .map(|invitation| invitation_view(invitation, &members))
        .collect();
    Ok(data(InvitationsView { invitations }))
}

/// `SCRIBEVAULT_PUBLIC_URL`, or the origin the browser used through trusted proxies only (the
/// link must open where the admin is).
fn origin(request: &HttpRequest, context: &Context) -> Result<String, ApiError> {
    let origin = context
        .access
        .proxies
        .public_origin(request, context.feeds.public_url.as_ref())
        .map_err(|_| ApiError::bad_request("The request's Host is not a valid host"))?;
    Ok(crate::feeds::link_base(&origin))
}

/// A single-use sign-up link (local accounts only), shown this once.
#[utoipa::path(post, path = "/api/admin/invitations", request_body(content = Option<InvitationRequest>), responses((status = 201, body = Envelope<NewInvitationView>)), tag = "admin")]
pub async fn create_invitation(
    caller: AdminUser,
    request: HttpRequest,
    context: Context,
    body: Option<web::Json<InvitationRequest>>,
) -> Result<HttpResponse, ApiError> {
    if context.access.local.is_none() {
        return Err(ApiError::bad_request(
            "Invitations are for local accounts; in OIDC mode the identity provider and SCRIBEVAULT_OIDC_ALLOWED_EMAILS decide who comes in",
        ));
    }
    let hours = body
        .and_then(|body| body.expires_in_hours)
        .unwrap_or(context.access.invitation_hours);
    if !(1..=MAX_INVITATION_HOURS).contains(&hours) {
        return Err(ApiError::bad_request(format!(
            "expiresInHours must be from 1 to {MAX_INVITATION_HOURS}"
        )));
    }
    let now = Utc::now();
    let expires_at = now + chrono::Duration::hours(i64::try_from(hours).unwrap_or(72));
    let (invitation, secret) = context
        .access
        .invitations
        .create(caller.0.user.as_str(), now, expires_at)
        .await
        .map_err(internal)?;
    Ok(created(NewInvitationView {
        id: invitation.id,
        url: format!(
            "{}/sign-up?invitation={secret}",
            origin(&request, &context)?
        ),
        expires_at,
    }))
}

/// Withdraws an invitation.
#[utoipa::path(delete, path = "/api/admin/invitations/{id}", params(("id" = String, Path)), responses((status = 204, description = "Withdrawn")), tag = "admin")]
pub async fn delete_invitation(
    _admin: AdminUser,
    context: Context,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    if context.access.invitations.delete(&id).await? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::not_found("No such invitation"))
    }
}

#[derive(OpenApi)]
#[openapi(paths(
    list_users,
    update_user,
    delete_user,
    list_invitations,
    create_invitation,
    delete_invitation
))]
pub(crate) struct Docs;

pub(super) fn routes() -> RouteList {
    use Access::Admin;
    RouteList::default()
        .add::<__path_list_users>(Admin, || web::to(list_users))
        .add::<__path_update_user>(Admin, || web::to(update_user))
        .add::<__path_delete_user>(Admin, || web::to(delete_user))
        .add::<__path_list_invitations>(Admin, || web::to(list_invitations))
        .add::<__path_create_invitation>(Admin, || web::to(create_invitation))
        .add::<__path_delete_invitation>(Admin, || web::to(delete_invitation))
}
