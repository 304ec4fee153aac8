//! Who belongs to the instance, in either auth mode: role, status and the admin's storage cap.
//! Credentials stay in `user_accounts` (local mode only).

use sea_orm::entity::prelude::*;

/// A row of `members`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "members")]
pub struct Model {
    /// The user id services see (local UUID or OIDC `sub`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: String,
    /// Lower-cased.
    pub email: String,
    pub is_admin: bool,
    pub disabled: bool,
    pub created_at: DateTimeUtc,
    pub last_sign_in_at: Option<DateTimeUtc>,
    /// Most storage the user may choose, in GB; none means the settings' own limit.
    pub storage_cap_gb: Option<i32>,
    /// When every session last ended at once (sign out everywhere, a password change): links
    /// made before it stop working.
    pub sessions_ended_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
