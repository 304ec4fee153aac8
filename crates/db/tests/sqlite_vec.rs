//! Every pooled SQLite connection knows sqlite-vec's `vec0` tables: nearest neighbours by cosine
//! distance, within one partition (a user's vectors).
#![allow(clippy::unwrap_used)]

use sea_orm::{ConnectionTrait as _, FromQueryResult, Statement};

#[derive(FromQueryResult, Debug)]
struct Neighbour {
    rowid: i64,
    distance: f64,
}

#[tokio::test]
async fn the_nearest_vectors_of_one_partition_come_first() {
    let database = scribevault_db::TestDatabase::sqlite();
    let db = scribevault_db::connect(&database.url).await.unwrap();
    db.execute_unprepared(
        "CREATE VIRTUAL TABLE vectors USING vec0(user_id TEXT PARTITION KEY, \
         embedding FLOAT[3] DISTANCE_METRIC=cosine)",
    )
    .await
    .unwrap();
    for (rowid, user, vector) in [
        (1, "alice", "[1, 0, 0]"),
        (2, "alice", "[0.9, 0.1, 0]"),
        (3, "alice", "[0, 1, 0]"),
        (4, "bob", "[1, 0, 0]"),
    ] {
        db.execute_unprepared(&format!(
            "INSERT INTO vectors(rowid, user_id, embedding) VALUES ({rowid}, '{user}', '{vector}')"
        ))
        .await
        .unwrap();
    }
    let nearest = Neighbour::find_by_statement(Statement::from_sql_and_values(
        sea_orm::DatabaseBackend::Sqlite,
        "SELECT rowid, distance FROM vectors WHERE embedding MATCH ? AND k = 2 AND user_id = ?",
        ["[1, 0.05, 0]".into(), "alice".into()],
    ))
    .all(&db)
    .await
    .unwrap();
    let rowids: Vec<i64> = nearest.iter().map(|n| n.rowid).collect();
    assert_eq!(rowids, [1, 2], "{nearest:?}");
    assert!(nearest[0].distance < nearest[1].distance);
}
