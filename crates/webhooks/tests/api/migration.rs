//! An instance upgraded from the release whose gateway owned the webhook tables: its rows are
//! there, and the service's own migrator must keep them.

use scribevault_db::TestDatabase;
use sea_orm::{ConnectionTrait as _, DbBackend, Statement};

use crate::helpers::{Receiver, TestApp, spawn_app_on};

#[tokio::test]
async fn the_tables_the_gateway_made_are_kept_with_their_rows() {
    let db = TestDatabase::sqlite();
    let app = spawn_app_on(db).await;
    let receiver = Receiver::default();
    let made = app.create("alice", &receiver.start().await).await;
    let TestApp { db, .. } = app;
    // What the older release left: the tables, but no record in the service's migrator.
    let connection = scribevault_db::connect(&db.url).await.unwrap();
    connection
        .execute_raw(Statement::from_string(
            DbBackend::Sqlite,
            "DROP TABLE seaql_migrations_webhooks",
        ))
        .await
        .unwrap();
    drop(connection);

    let again = spawn_app_on(db).await;
    let listed = again.list("alice").await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].id, made.webhook.unwrap().id);
}
