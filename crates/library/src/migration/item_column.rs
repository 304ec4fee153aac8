//! A nullable column added to `library_items`: the shape of every migration that only lets an
//! item carry one more optional thing. Items from before keep NULL there.

use sea_orm_migration::prelude::*;

/// The column's SQL type.
#[derive(Clone, Copy)]
pub enum ColumnKind {
    /// `VARCHAR` (short: a code, a path).
    String,
    /// `TEXT` (unbounded: JSON).
    Text,
}

/// `library_items.<column>`, nullable, added by the migration `name`.
pub struct NullableItemColumn {
    /// As recorded in `seaql_migrations_library`: never changed once released.
    pub name: &'static str,
    pub column: &'static str,
    pub kind: ColumnKind,
}

impl MigrationName for NullableItemColumn {
    fn name(&self) -> &str {
        self.name
    }
}

#[derive(DeriveIden)]
enum LibraryItems {
    Table,
}

#[async_trait::async_trait]
impl MigrationTrait for NullableItemColumn {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let mut column = ColumnDef::new(Alias::new(self.column));
        match self.kind {
            ColumnKind::String => column.string(),
            ColumnKind::Text => column.text(),
        };
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .add_column(column.null())
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(LibraryItems::Table)
                    .drop_column(Alias::new(self.column))
                    .to_owned(),
            )
            .await
    }
}
