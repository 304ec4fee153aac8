//! `/api/admin/*`: the instance owner's Users tab. Every route here is registered as admin-only
//! in the route table (403 for other members).

use std::sync::Arc;

use actix_web::{HttpRequest, HttpResponse, web};
use chrono::{DateTime, Utc};
use scribevault_core::UserId;
use scribevault_proto::{conversion, discovery, library, storage, transcription};
use serde::{Deserialize, Serialize};

use crate::auth::client_address::TrustedProxies;
use crate::auth::invitations::{Invitation, Invitations};
use crate::auth::local::LocalAccounts;
use crate::auth::members::{Member, MemberChange, Members};
use crate::auth::{AdminUser, Revocations, Revoked, internal};
use crate::clients::{ServiceClients, on_behalf_of};
use crate::error::{ApiError, created, data};
use crate::user_settings::{UserSettingsStore, push_effects};

/// Longest an invitation may be made to last.
const MAX_INVITATION_HOURS: u64 = 720;
/// Largest storage cap an admin can set, in GB (the settings' own limit).
const MAX_CAP_GB: u32 = 1000;

/// A member as the Users tab lists them.
#[derive(Serialize)]
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

#[derive(Serialize)]
pub struct UsersView {
    users: Vec<UserView>,
}

/// An invitation as the Users tab lists it (never its secret).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvitationView {
    id: String,
    created_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
    used_at: Option<DateTime<Utc>>,
    /// The email of the account made with it.
    used_by: Option<String>,
}

#[derive(Serialize)]
pub struct InvitationsView {
    invitations: Vec<InvitationView>,
}

/// A new invitation: its link, shown this once.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewInvitationView {
    id: String,
    url: String,
    expires_at: DateTime<Utc>,
}

/// An admin's change to a member. `storageCapGB: null` removes the cap.
#[derive(Deserialize)]
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

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InvitationRequest {
    #[serde(default)]
    expires_in_hours: Option<u64>,
}

/// What the admin routes share.
pub struct Admin {
    pub members: Members,
    pub invitations: Invitations,
    pub settings: UserSettingsStore,
    pub local: Option<Arc<LocalAccounts>>,
    pub revocations: Revocations,
    pub proxies: TrustedProxies,
    pub invitation_hours: u64,
}

/// What the services report about one member; a service that cannot answer counts zero
/// rather than hiding the whole list.
async fn usage_of(clients: &ServiceClients, member: Member) -> UserView {
    let user = UserId::new(member.user_id.clone());
    let storage = async {
        let request = on_behalf_of(&user, storage::v1::GetStorageUsageRequest {}).ok()?;
        let answer = clients
            .storage
            .clone()
            .get_storage_usage(request)
            .await
            .ok()?;
        Some(answer.into_inner().used_bytes)
    };
    let vault = async {
        let request = on_behalf_of(&user, library::v1::GetLibraryStatsRequest {}).ok()?;
        let answer = clients
            .library
            .clone()
            .get_library_stats(request)
            .await
            .ok()?;
        Some(answer.into_inner().total_transcripts)
    };
    let waiting = async {
        let request = on_behalf_of(&user, transcription::v1::CountWaitingFilesRequest {}).ok()?;
        let answer = clients
            .transcription
            .clone()
            .count_waiting_files(request)
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

/// `GET /api/admin/users`: every member with what they use.
pub async fn list_users(
    _admin: AdminUser,
    admin: web::Data<Admin>,
    clients: web::Data<ServiceClients>,
) -> Result<HttpResponse, ApiError> {
    let members = admin.members.list().await?;
    let users =
        futures::future::join_all(members.into_iter().map(|member| usage_of(&clients, member)))
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

/// `PATCH /api/admin/users/{id}`: disable or enable, make or remove admin, set the storage cap.
pub async fn update_user(
    caller: AdminUser,
    admin: web::Data<Admin>,
    clients: web::Data<ServiceClients>,
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
    let member = admin
        .members
        .change(&id, &change)
        .await?
        .ok_or_else(|| ApiError::not_found("No such user"))?;
    let user = UserId::new(member.user_id.clone());
    if body.disabled == Some(true) {
        if let Some(local) = &admin.local {
            local.end_sessions(&member.user_id, None).await?;
        }
        admin
            .revocations
            .announce(Revoked::User(member.user_id.clone()));
    }
    if body.storage_cap_gb.is_some() {
        let settings = admin.settings.get(&member.user_id).await?;
        push_effects(&clients, &user, &settings, member.storage_cap_gb).await?;
    }
    Ok(data(usage_of(&clients, member).await))
}

/// `DELETE /api/admin/users/{id}`: the account and everything it owns in every service.
/// Services delete first; the member goes last, so a failure halfway can be retried.
pub async fn delete_user(
    caller: AdminUser,
    admin: web::Data<Admin>,
    clients: web::Data<ServiceClients>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    not_yourself(&caller, &id, "delete")?;
    let member = admin
        .members
        .get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("No such user"))?;
    let user = UserId::new(member.user_id.clone());
    // Stop the user first, so nothing new arrives while their data goes.
    admin
        .members
        .change(
            &member.user_id,
            &MemberChange {
                disabled: Some(true),
                ..MemberChange::default()
            },
        )
        .await?;
    admin
        .revocations
        .announce(Revoked::User(member.user_id.clone()));
    // In the order the services feed each other, so nothing in flight recreates what an
    // earlier step cleared: discovery (downloads hand files to storage and transcription),
    // transcription (hands transcripts to the library), conversion, storage, the library.
    clients
        .discovery
        .clone()
        .delete_user_data(on_behalf_of(
            &user,
            discovery::v1::DeleteUserDataRequest {},
        )?)
        .await?;
    clients
        .transcription
        .clone()
        .delete_user_data(on_behalf_of(
            &user,
            transcription::v1::DeleteUserDataRequest {},
        )?)
        .await?;
    clients
        .conversion
        .clone()
        .delete_user_data(on_behalf_of(
            &user,
            conversion::v1::DeleteUserDataRequest {},
        )?)
        .await?;
    clients
        .storage
        .clone()
        .delete_user_data(on_behalf_of(&user, storage::v1::DeleteUserDataRequest {})?)
        .await?;
    clients
        .library
        .clone()
        .delete_user_data(on_behalf_of(&user, library::v1::DeleteUserDataRequest {})?)
        .await?;
    admin.settings.delete(&member.user_id).await?;
    if let Some(local) = &admin.local {
        local.forget(&member.user_id).await?;
    }
    admin.members.delete(&member.user_id).await?;
    tracing::info!(user = %member.user_id, by = %caller.0.user, "account deleted");
    Ok(HttpResponse::NoContent().finish())
}

fn invitation_view(invitation: Invitation, members: &[Member]) -> InvitationView {
    let used_by = invitation.used_by.as_ref().map(|id| {
        members
            .iter()
            .find(|member| &member.user_id == id)
            .map_or_else(
                || "(deleted account)".to_owned(),
                |member| member.email.clone(),
            )
    });
    InvitationView {
        id: invitation.id,
        created_at: invitation.created_at,
        expires_at: invitation.expires_at,
        used_at: invitation.used_at,
        used_by,
    }
}

/// `GET /api/admin/invitations`.
pub async fn list_invitations(
    _admin: AdminUser,
    admin: web::Data<Admin>,
) -> Result<HttpResponse, ApiError> {
    let members = admin.members.list().await?;
    let invitations = admin
        .invitations
        .list()
        .await?
        .into_iter()
        .map(|invitation| invitation_view(invitation, &members))
        .collect();
    Ok(data(InvitationsView { invitations }))
}

/// The origin the browser used, through trusted proxies only (the link must open where the
/// admin is).
fn origin(request: &HttpRequest, proxies: &TrustedProxies) -> String {
    let info = request.connection_info();
    let scheme = if proxies.is_secure(request) {
        "https"
    } else {
        info.scheme()
    };
    format!("{scheme}://{}", info.host())
}

/// `POST /api/admin/invitations {expiresInHours?}`: a single-use sign-up link.
pub async fn create_invitation(
    caller: AdminUser,
    request: HttpRequest,
    admin: web::Data<Admin>,
    body: Option<web::Json<InvitationRequest>>,
) -> Result<HttpResponse, ApiError> {
    if admin.local.is_none() {
        return Err(ApiError::bad_request(
            "Invitations are for local accounts; in OIDC mode the identity provider and SCRIBEVAULT_OIDC_ALLOWED_EMAILS decide who comes in",
        ));
    }
    let hours = body
        .and_then(|body| body.expires_in_hours)
        .unwrap_or(admin.invitation_hours);
    if !(1..=MAX_INVITATION_HOURS).contains(&hours) {
        return Err(ApiError::bad_request(format!(
            "expiresInHours must be from 1 to {MAX_INVITATION_HOURS}"
        )));
    }
    let now = Utc::now();
    let expires_at = now + chrono::Duration::hours(i64::try_from(hours).unwrap_or(72));
    let (invitation, secret) = admin
        .invitations
        .create(caller.0.user.as_str(), now, expires_at)
        .await
        .map_err(internal)?;
    Ok(created(NewInvitationView {
        id: invitation.id,
        url: format!(
            "{}/sign-up?invitation={secret}",
            origin(&request, &admin.proxies)
        ),
        expires_at,
    }))
}

/// `DELETE /api/admin/invitations/{id}`: 204, 404 when unknown.
pub async fn delete_invitation(
    _admin: AdminUser,
    admin: web::Data<Admin>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    if admin.invitations.delete(&id).await? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::not_found("No such invitation"))
    }
}
