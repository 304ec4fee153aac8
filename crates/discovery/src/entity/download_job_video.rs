//! A video of a download job, in the job's order.

use sea_orm::entity::prelude::*;

/// A row of `download_job_videos`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "download_job_videos")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub job_id: String,
    #[sea_orm(primary_key, auto_increment = false)]
    pub position: i32,
    pub video_id: String,
    pub title: String,
    pub outcome: String,
    pub reason: Option<String>,
    pub mp3_path: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
