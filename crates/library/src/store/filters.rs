//! The list filters as conditions on `library_items`.

use sea_orm::ColumnTrait as _;
use sea_orm::sea_query::{Expr, ExprTrait as _, Query, SelectStatement};

use crate::domain::listing::{ItemFilter, SectionFilter};
use crate::domain::tags::tag_key;
use crate::entity::library_item::{Column, Entity as Items};
use crate::entity::library_item_tag::{Column as ItemTagColumn, Entity as ItemTags};
use crate::entity::library_tag::{Column as TagColumn, Entity as Tags};

/// Restricts `select` to `user_id`'s items that pass `filter`.
pub fn apply(select: &mut SelectStatement, user_id: &str, filter: &ItemFilter) {
    select.and_where(Expr::col((Items, Column::UserId)).eq(user_id));
    for tag in &filter.tags {
        select.and_where(
            Expr::col((Items, Column::Seq)).in_subquery(
                Query::select()
                    .column((ItemTags, ItemTagColumn::ItemSeq))
                    .from(ItemTags)
                    .inner_join(
                        Tags,
                        Expr::col((Tags, TagColumn::Id)).equals((ItemTags, ItemTagColumn::TagId)),
                    )
                    .and_where(TagColumn::UserId.eq(user_id))
                    .and_where(TagColumn::NameKey.eq(tag_key(tag)))
                    .to_owned(),
            ),
        );
    }
    if !filter.source_types.is_empty() {
        select.and_where(
            Expr::col((Items, Column::SourceType))
                .is_in(filter.source_types.iter().map(|kind| kind.as_str())),
        );
    }
    if let Some(starred) = filter.is_starred {
        select.and_where(Expr::col((Items, Column::IsStarred)).eq(starred));
    }
    if !filter.ratings.is_empty() {
        select.and_where(Expr::col((Items, Column::Rating)).is_in(filter.ratings.iter().copied()));
    }
    if let Some(min) = filter.min_rating {
        select.and_where(Expr::col((Items, Column::Rating)).gte(min));
    }
    if !filter.gwth_levels.is_empty() {
        select.and_where(
            Expr::col((Items, Column::GwthLevel)).is_in(filter.gwth_levels.iter().copied()),
        );
    }
    match filter.exported {
        Some(true) => {
            select.and_where(Expr::col((Items, Column::LastExported)).is_not_null());
        }
        Some(false) => {
            select.and_where(Expr::col((Items, Column::LastExported)).is_null());
        }
        None => {}
    }
    if let Some(after) = filter.created_after {
        select.and_where(Expr::col((Items, Column::CreatedAt)).gte(after));
    }
    if let Some(before) = filter.created_before {
        select.and_where(Expr::col((Items, Column::CreatedAt)).lt(before));
    }
    match &filter.section {
        Some(SectionFilter::In(id)) => {
            select.and_where(Expr::col((Items, Column::SectionId)).eq(id.as_str()));
        }
        Some(SectionFilter::None) => {
            select.and_where(Expr::col((Items, Column::SectionId)).is_null());
        }
        None => {}
    }
    if let Some(file_name) = &filter.file_name {
        select.and_where(Expr::col((Items, Column::FileName)).eq(file_name.as_str()));
    }
    match filter.needs_review {
        // A review is stored only when something is left to check.
        Some(true) => {
            select.and_where(Expr::col((Items, Column::Review)).is_not_null());
        }
        Some(false) => {
            select.and_where(Expr::col((Items, Column::Review)).is_null());
        }
        None => {}
    }
}
