//! A batch of files started (or scheduled) together.

use sea_orm::entity::prelude::*;

#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "transcription_jobs")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub user_id: String,
    pub model: String,
    pub output_format: String,
    /// `HH:MM` start of the overnight window, for scheduled jobs.
    pub window_start: Option<String>,
    pub window_end: Option<String>,
    /// IANA time zone the window is in.
    pub timezone: String,
    /// `auto` or a Whisper language code; `None` for jobs made before jobs recorded one.
    pub language: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
