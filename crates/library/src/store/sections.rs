//! Syllabus sections: named, ordered groups of a user's items.

use chrono::Utc;
use sea_orm::sea_query::{Alias, Expr, ExprTrait as _, Func, Order, Query};
use sea_orm::{
    ActiveModelTrait as _, ColumnTrait as _, DbErr, EntityTrait as _, FromQueryResult,
    QueryFilter as _, QueryOrder as _, Set,
};

use super::LibraryStore;
use crate::domain::Section;
use crate::entity::library_item::{Column as ItemColumn, Entity as Items};
use crate::entity::library_section::{self, Column, Entity as Sections};

#[derive(FromQueryResult)]
struct SectionRow {
    id: String,
    title: String,
    description: String,
    position: i32,
    item_count: i64,
}

/// Why a reorder was refused.
#[derive(Debug)]
pub enum ReorderRefusal {
    /// The ids are not exactly the user's sections.
    NotEverySection,
}

impl LibraryStore {
    /// The user's sections by position, with their item counts.
    ///
    /// # Errors
    /// Database failure.
    pub async fn sections(&self, user_id: &str) -> Result<Vec<Section>, DbErr> {
        let select = Query::select()
            .column((Sections, Column::Id))
            .column((Sections, Column::Title))
            .column((Sections, Column::Description))
            .column((Sections, Column::Position))
            .expr_as(
                Func::count(Expr::col((Items, ItemColumn::Seq))),
                Alias::new("item_count"),
            )
            .from(Sections)
            .left_join(
                Items,
                Expr::col((Items, ItemColumn::SectionId))
                    .equals((Sections, Column::Id))
                    .and(Expr::col((Items, ItemColumn::UserId)).equals((Sections, Column::UserId))),
            )
            .and_where(Expr::col((Sections, Column::UserId)).eq(user_id))
            .group_by_col((Sections, Column::Id))
            .group_by_col((Sections, Column::Title))
            .group_by_col((Sections, Column::Description))
            .group_by_col((Sections, Column::Position))
            .order_by((Sections, Column::Position), Order::Asc)
            .order_by((Sections, Column::Id), Order::Asc)
            .to_owned();
        Ok(Self::rows::<SectionRow>(&self.db, &select)
            .await?
            .into_iter()
            .map(|row| Section {
                id: row.id,
                title: row.title,
                description: row.description,
                position: row.position,
                item_count: u64::try_from(row.item_count).unwrap_or(0),
            })
            .collect())
    }

    /// One of the user's sections.
    ///
    /// # Errors
    /// Database failure.
    pub async fn section(&self, user_id: &str, id: &str) -> Result<Option<Section>, DbErr> {
        Ok(self
            .sections(user_id)
            .await?
            .into_iter()
            .find(|section| section.id == id))
    }

    /// Adds a section after the user's last one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn create_section(
        &self,
        user_id: &str,
        title: String,
        description: String,
    ) -> Result<Section, DbErr> {
        let last = Sections::find()
            .filter(Column::UserId.eq(user_id))
            .order_by_desc(Column::Position)
            .one(&self.db)
            .await?;
        let id = uuid::Uuid::now_v7().to_string();
        library_section::ActiveModel {
            id: Set(id.clone()),
            user_id: Set(user_id.to_owned()),
            title: Set(title),
            description: Set(description),
            position: Set(last.map_or(0, |section| section.position + 1)),
            created_at: Set(Utc::now()),
        }
        .insert(&self.db)
        .await?;
        self.section(user_id, &id)
            .await?
            .ok_or_else(|| DbErr::RecordNotFound("section".into()))
    }

    /// Renames or re-describes a section. `None` when the user has no such section.
    ///
    /// # Errors
    /// Database failure.
    pub async fn update_section(
        &self,
        user_id: &str,
        id: &str,
        title: Option<String>,
        description: Option<String>,
    ) -> Result<Option<Section>, DbErr> {
        let Some(row) = Sections::find_by_id(id.to_owned())
            .filter(Column::UserId.eq(user_id))
            .one(&self.db)
            .await?
        else {
            return Ok(None);
        };
        let mut row: library_section::ActiveModel = row.into();
        if let Some(title) = title {
            row.title = Set(title);
        }
        if let Some(description) = description {
            row.description = Set(description);
        }
        row.update(&self.db).await?;
        self.section(user_id, id).await
    }

    /// Puts the user's sections in the order of `ids`, which must name each of them once.
    ///
    /// # Errors
    /// Database failure, or `Ok(Err(_))` when `ids` is not exactly the user's sections.
    pub async fn reorder_sections(
        &self,
        user_id: &str,
        ids: &[String],
    ) -> Result<Result<Vec<Section>, ReorderRefusal>, DbErr> {
        let transaction = self.write_transaction().await?;
        let rows = Sections::find()
            .filter(Column::UserId.eq(user_id))
            .all(&transaction)
            .await?;
        let mut known: Vec<&str> = rows.iter().map(|row| row.id.as_str()).collect();
        let mut wanted: Vec<&str> = ids.iter().map(String::as_str).collect();
        known.sort_unstable();
        wanted.sort_unstable();
        if known != wanted {
            return Ok(Err(ReorderRefusal::NotEverySection));
        }
        for (position, id) in ids.iter().enumerate() {
            Sections::update_many()
                .col_expr(
                    Column::Position,
                    Expr::value(i32::try_from(position).unwrap_or(i32::MAX)),
                )
                .filter(Column::Id.eq(id.as_str()))
                .filter(Column::UserId.eq(user_id))
                .exec(&transaction)
                .await?;
        }
        transaction.commit().await?;
        Ok(Ok(self.sections(user_id).await?))
    }

    /// Deletes a section; its items stay, without a section. Returns whether there was one.
    ///
    /// # Errors
    /// Database failure.
    pub async fn delete_section(&self, user_id: &str, id: &str) -> Result<bool, DbErr> {
        let transaction = self.write_transaction().await?;
        let deleted = Sections::delete_many()
            .filter(Column::Id.eq(id))
            .filter(Column::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        if deleted.rows_affected == 0 {
            return Ok(false);
        }
        Items::update_many()
            .col_expr(ItemColumn::SectionId, Expr::value(Option::<String>::None))
            .filter(ItemColumn::UserId.eq(user_id))
            .filter(ItemColumn::SectionId.eq(id))
            .exec(&transaction)
            .await?;
        transaction.commit().await?;
        Ok(true)
    }
}
