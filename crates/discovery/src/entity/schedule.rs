//! A scheduled sync of a source.

use sea_orm::entity::prelude::*;

/// A row of `schedules`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "schedules")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    pub source_id: String,
    pub frequency: String,
    /// `HH:MM`.
    pub time_of_day: String,
    pub timezone: String,
    /// When it was created or its timing last edited: gives a weekly schedule its weekday and
    /// a monthly one its day.
    pub anchored_at: DateTimeUtc,
    pub is_active: bool,
    /// 'Use YouTube captions when available'.
    pub use_captions: bool,
    pub next_run_at: Option<DateTimeUtc>,
    pub last_run_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
