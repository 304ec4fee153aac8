//! A user's whole Vault, deleted at once (an administrator deleting the account).

use sea_orm::sea_query::{Query, SelectStatement};
use sea_orm::{ColumnTrait as _, Condition, DbErr, EntityTrait as _, QueryFilter as _};

use super::LibraryStore;
use crate::entity::library_export::{Column as ExportColumn, Entity as Exports};
use crate::entity::library_export_item::{Column as ExportItemColumn, Entity as ExportItems};
use crate::entity::library_item::{Column as ItemColumn, Entity as Items};
use crate::entity::library_item_tag::{Column as ItemTagColumn, Entity as ItemTags};
use crate::entity::library_section::{Column as SectionColumn, Entity as Sections};
use crate::entity::library_segment::{Column as SegmentColumn, Entity as Segments};
use crate::entity::library_tag::{Column as TagColumn, Entity as Tags};

/// The keys of the user's items.
fn item_seqs_of(user_id: &str) -> SelectStatement {
    Query::select()
        .column(ItemColumn::Seq)
        .from(Items)
        .and_where(ItemColumn::UserId.eq(user_id))
        .to_owned()
}

impl LibraryStore {
    /// Deletes every row of the user's, in one transaction: the rows that hang off their items
    /// (tags on items, segments, places in exports, chunks and their vectors), their exports,
    /// items, sections and tags.
    /// The search index follows the items (FTS5's triggers on SQLite; the `tsvector` is a
    /// column of the item on PostgreSQL). Answers how many rows went.
    ///
    /// # Errors
    /// Database failure (nothing is deleted then).
    pub async fn delete_user(&self, user_id: &str) -> Result<u64, DbErr> {
        let transaction = self.write_transaction().await?;
        let exports_of_user = Query::select()
            .column(ExportColumn::Id)
            .from(Exports)
            .and_where(ExportColumn::UserId.eq(user_id))
            .to_owned();
        let tags_of_user = Query::select()
            .column(TagColumn::Id)
            .from(Tags)
            .and_where(TagColumn::UserId.eq(user_id))
            .to_owned();
        let item_tags = ItemTags::delete_many()
            .filter(
                Condition::any()
                    .add(ItemTagColumn::ItemSeq.in_subquery(item_seqs_of(user_id)))
                    .add(ItemTagColumn::TagId.in_subquery(tags_of_user)),
            )
            .exec(&transaction)
            .await?;
        let segments = Segments::delete_many()
            .filter(SegmentColumn::ItemSeq.in_subquery(item_seqs_of(user_id)))
            .exec(&transaction)
            .await?;
        let export_items = ExportItems::delete_many()
            .filter(
                Condition::any()
                    .add(ExportItemColumn::ExportId.in_subquery(exports_of_user))
                    .add(ExportItemColumn::ItemSeq.in_subquery(item_seqs_of(user_id))),
            )
            .exec(&transaction)
            .await?;
        let meaning = super::vectors::delete_for_user(&transaction, self.vectors, user_id).await?;
        let exports = Exports::delete_many()
            .filter(ExportColumn::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let items = Items::delete_many()
            .filter(ItemColumn::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let sections = Sections::delete_many()
            .filter(SectionColumn::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        let tags = Tags::delete_many()
            .filter(TagColumn::UserId.eq(user_id))
            .exec(&transaction)
            .await?;
        transaction.commit().await?;
        Ok(meaning
            + [
                item_tags,
                segments,
                export_items,
                exports,
                items,
                sections,
                tags,
            ]
            .iter()
            .map(|deleted| deleted.rows_affected)
            .sum::<u64>())
    }
}
