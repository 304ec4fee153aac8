//! Deleting everything the service keeps of one member (`DeleteUserData`, called by the gateway
//! on behalf of an account an administrator deletes): webhooks, their outbox and their log.

use scribevault_proto::webhooks::v1 as pb;
use sea_orm::{ConnectionTrait as _, Statement};

use crate::helpers::{Receiver, TestApp, as_user, spawn_app, spawn_app_on_postgres};

const TABLES: [&str; 3] = ["webhooks", "webhook_deliveries", "webhook_attempts"];

async fn delete_user_data(app: &TestApp, user: &str) -> pb::DeleteUserDataResponse {
    app.client
        .clone()
        .delete_user_data(as_user(user, pb::DeleteUserDataRequest {}))
        .await
        .expect("DeleteUserData")
        .into_inner()
}

/// Rows of each table, whoever they belong to.
async fn rows(app: &TestApp) -> Vec<i64> {
    let connection = scribevault_db::connect(&app.db.url).await.unwrap();
    let mut counts = Vec::new();
    for table in TABLES {
        let row = connection
            .query_one_raw(Statement::from_string(
                connection.get_database_backend(),
                format!("SELECT count(*) AS n FROM {table}"),
            ))
            .await
            .unwrap()
            .unwrap();
        counts.push(row.try_get::<i64>("", "n").unwrap());
    }
    counts
}

/// Two members with a webhook each, one delivery and one attempt each: deleting one member's
/// data leaves the other's whole and none of theirs, and a second call deletes nothing.
async fn deletion_removes_the_caller_only(app: TestApp) {
    let receiver = Receiver::default();
    let url = receiver.start().await;
    for user in ["alice", "bob"] {
        app.create(user, &url).await;
        app.item_created(user, &format!("{user}-item")).await;
    }
    receiver.wait_for(2).await;
    // The attempts are logged once the receiver answered.
    for _ in 0..100 {
        if rows(&app).await == [2, 2, 2] {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(rows(&app).await, [2, 2, 2], "{TABLES:?}");

    let deleted = delete_user_data(&app, "alice").await;
    assert_eq!(
        deleted.rows_deleted, 3,
        "a webhook, a delivery and an attempt"
    );
    assert_eq!(rows(&app).await, [1, 1, 1], "bob's are kept");
    assert!(app.list("alice").await.is_empty());
    assert_eq!(app.list("bob").await.len(), 1);

    let again = delete_user_data(&app, "alice").await;
    assert_eq!(again.rows_deleted, 0);
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_sqlite() {
    deletion_removes_the_caller_only(spawn_app().await).await;
}

#[tokio::test]
async fn deleting_a_users_data_leaves_nothing_of_theirs_on_postgresql() {
    let Some(app) = spawn_app_on_postgres("webhooks_delete_user_data_on_postgresql").await else {
        return;
    };
    deletion_removes_the_caller_only(app).await;
}
