//! Chunks and their vectors (docs/adr/0026-meaning-search.md).
//!
//! SQLite keeps the vectors in a `vec0` table of sqlite-vec, one row per chunk under the
//! chunk's id, partitioned by user so a query reads only its owner's vectors; PostgreSQL keeps
//! them in a pgvector `vector(384)` column of `library_chunks`. Either is made when the store
//! opens, and only when the database has the extension: without it the Vault keeps its keyword
//! search, and the service says so at start.

use sea_orm::{ConnectionTrait, DatabaseBackend, DbErr, FromQueryResult, Statement, Value};

use super::LibraryStore;
use crate::domain::chunks::Chunk;

/// Whether, and how, this database stores vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorSupport {
    /// sqlite-vec's `vec0`.
    SqliteVec,
    /// pgvector's `vector` type.
    PgVector,
    /// The database has no vector extension: keyword search only.
    Missing,
}

/// A chunk near a query, with its item's key and its place in the recording.
#[derive(Debug, Clone, PartialEq, FromQueryResult)]
pub struct NearChunk {
    pub item_seq: i64,
    pub start_ms: Option<i64>,
    pub end_ms: Option<i64>,
    pub text: String,
    /// Cosine distance to the query: 0 is the same direction, 2 the opposite.
    pub distance: f64,
}

/// An item whose vectors are missing or were made by another model.
#[derive(Debug, Clone, PartialEq, Eq, FromQueryResult)]
pub struct UnembeddedItem {
    pub user_id: String,
    pub id: String,
}

#[derive(FromQueryResult)]
struct Count {
    count: i64,
}

const DIMENSIONS: usize = scribevault_embed::DIMENSIONS;

/// Makes the vector table of `db`'s backend if the extension is there.
pub(super) async fn prepare(db: &impl ConnectionTrait) -> VectorSupport {
    let made = match db.get_database_backend() {
        DatabaseBackend::Sqlite => db
            .execute_unprepared(&format!(
                "CREATE VIRTUAL TABLE IF NOT EXISTS library_chunk_vectors USING vec0(\
                 user_id TEXT PARTITION KEY, embedding FLOAT[{DIMENSIONS}] DISTANCE_METRIC=cosine)"
            ))
            .await
            .map(|_| VectorSupport::SqliteVec),
        _ => prepare_pgvector(db).await.map(|()| VectorSupport::PgVector),
    };
    made.unwrap_or_else(|error| {
        tracing::warn!(
            error = %error,
            "the database has no vector extension (sqlite-vec, or pgvector on PostgreSQL): \
             search finds words only"
        );
        VectorSupport::Missing
    })
}

async fn prepare_pgvector(db: &impl ConnectionTrait) -> Result<(), DbErr> {
    db.execute_unprepared("CREATE EXTENSION IF NOT EXISTS vector")
        .await?;
    db.execute_unprepared(&format!(
        "ALTER TABLE library_chunks ADD COLUMN IF NOT EXISTS embedding vector({DIMENSIONS})"
    ))
    .await?;
    db.execute_unprepared(
        "CREATE INDEX IF NOT EXISTS library_chunks_embedding ON library_chunks \
         USING hnsw (embedding vector_cosine_ops)",
    )
    .await?;
    Ok(())
}

/// A vector as pgvector's text form, `[0.1,0.2,…]`.
fn pgvector_text(vector: &[f32]) -> String {
    let parts: Vec<String> = vector.iter().map(f32::to_string).collect();
    format!("[{}]", parts.join(","))
}

/// A vector as sqlite-vec's blob form: the floats, little-endian.
fn sqlite_vec_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Deletes the chunks and vectors of the items `seqs_sql` (a subquery or a list) selects.
pub(super) async fn delete_for_items(
    db: &impl ConnectionTrait,
    support: VectorSupport,
    seqs_sql: &str,
) -> Result<u64, DbErr> {
    if support == VectorSupport::SqliteVec {
        db.execute_unprepared(&format!(
            "DELETE FROM library_chunk_vectors WHERE rowid IN \
             (SELECT id FROM library_chunks WHERE item_seq IN ({seqs_sql}))"
        ))
        .await?;
    }
    let chunks = db
        .execute_unprepared(&format!(
            "DELETE FROM library_chunks WHERE item_seq IN ({seqs_sql})"
        ))
        .await?
        .rows_affected();
    let marks = db
        .execute_unprepared(&format!(
            "DELETE FROM library_item_vectors WHERE item_seq IN ({seqs_sql})"
        ))
        .await?
        .rows_affected();
    Ok(chunks + marks)
}

/// Deletes the chunks and vectors of every item of `user_id`.
pub(super) async fn delete_for_user(
    db: &impl ConnectionTrait,
    support: VectorSupport,
    user_id: &str,
) -> Result<u64, DbErr> {
    let backend = db.get_database_backend();
    let p = if backend == DatabaseBackend::Postgres {
        "$1"
    } else {
        "?"
    };
    let run = |sql: String| {
        db.execute_raw(Statement::from_sql_and_values(
            backend,
            sql,
            [user_id.into()],
        ))
    };
    if support == VectorSupport::SqliteVec {
        run(format!(
            "DELETE FROM library_chunk_vectors WHERE rowid IN \
             (SELECT id FROM library_chunks WHERE user_id = {p})"
        ))
        .await?;
    }
    let chunks = run(format!("DELETE FROM library_chunks WHERE user_id = {p}"))
        .await?
        .rows_affected();
    let marks = run(format!(
        "DELETE FROM library_item_vectors WHERE user_id = {p}"
    ))
    .await?
    .rows_affected();
    Ok(chunks + marks)
}

impl LibraryStore {
    /// Whether this store can search by meaning.
    #[must_use]
    pub fn vector_support(&self) -> VectorSupport {
        self.vectors
    }

    /// Replaces the chunks and vectors of the user's item `id` with `chunks` and their
    /// `vectors` (one each, in order), made by `model`. Answers false when the item is gone.
    ///
    /// # Errors
    /// Database failure (nothing is changed then).
    pub async fn put_vectors(
        &self,
        user_id: &str,
        id: &str,
        model: &str,
        chunks: &[Chunk],
        vectors: &[Vec<f32>],
    ) -> Result<bool, DbErr> {
        let transaction = self.write_transaction().await?;
        let backend = transaction.get_database_backend();
        let Some(seq) = self.item_seq(&transaction, user_id, id).await? else {
            return Ok(false);
        };
        delete_for_items(&transaction, self.vectors, &seq.to_string()).await?;
        for (position, (chunk, vector)) in chunks.iter().zip(vectors).enumerate() {
            let values: Vec<Value> = vec![
                seq.into(),
                user_id.into(),
                i32::try_from(position).unwrap_or(i32::MAX).into(),
                chunk.start_ms.into(),
                chunk.end_ms.into(),
                chunk.text.clone().into(),
            ];
            let chunk_id = if self.vectors == VectorSupport::PgVector {
                let mut values = values;
                values.push(pgvector_text(vector).into());
                insert_chunk(&transaction, backend, values, "$7::vector").await?
            } else {
                insert_chunk(&transaction, backend, values, "").await?
            };
            if self.vectors == VectorSupport::SqliteVec {
                transaction
                    .execute_raw(Statement::from_sql_and_values(
                        backend,
                        "INSERT INTO library_chunk_vectors(rowid, user_id, embedding) \
                         VALUES (?, ?, ?)",
                        [
                            chunk_id.into(),
                            user_id.into(),
                            sqlite_vec_blob(vector).into(),
                        ],
                    ))
                    .await?;
            }
        }
        transaction
            .execute_raw(Statement::from_sql_and_values(
                backend,
                if backend == DatabaseBackend::Postgres {
                    "INSERT INTO library_item_vectors (item_seq, user_id, model, embedded_at) \
                     VALUES ($1, $2, $3, $4)"
                } else {
                    "INSERT INTO library_item_vectors (item_seq, user_id, model, embedded_at) \
                     VALUES (?, ?, ?, ?)"
                },
                [
                    seq.into(),
                    user_id.into(),
                    model.into(),
                    chrono::Utc::now().into(),
                ],
            ))
            .await?;
        transaction.commit().await?;
        Ok(true)
    }

    async fn item_seq(
        &self,
        db: &impl ConnectionTrait,
        user_id: &str,
        id: &str,
    ) -> Result<Option<i64>, DbErr> {
        #[derive(FromQueryResult)]
        struct Seq {
            seq: i64,
        }
        let backend = db.get_database_backend();
        let sql = if backend == DatabaseBackend::Postgres {
            "SELECT seq FROM library_items WHERE user_id = $1 AND id = $2"
        } else {
            "SELECT seq FROM library_items WHERE user_id = ? AND id = ?"
        };
        Ok(Seq::find_by_statement(Statement::from_sql_and_values(
            backend,
            sql,
            [user_id.into(), id.into()],
        ))
        .one(db)
        .await?
        .map(|row| row.seq))
    }

    /// Forgets the vectors of the user's item `id` (its text changed), so the back-fill
    /// embeds it again.
    ///
    /// # Errors
    /// Database failure.
    pub async fn clear_vectors(&self, user_id: &str, id: &str) -> Result<(), DbErr> {
        let Some(seq) = self.item_seq(&self.db, user_id, id).await? else {
            return Ok(());
        };
        let transaction = self.write_transaction().await?;
        delete_for_items(&transaction, self.vectors, &seq.to_string()).await?;
        transaction.commit().await
    }

    /// Up to `limit` items, oldest first, without vectors of `model`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn unembedded(&self, model: &str, limit: u64) -> Result<Vec<UnembeddedItem>, DbErr> {
        let backend = self.db.get_database_backend();
        let placeholder = if backend == DatabaseBackend::Postgres {
            "$1"
        } else {
            "?"
        };
        let sql = format!(
            "SELECT i.user_id, i.id FROM library_items i \
             LEFT JOIN library_item_vectors v ON v.item_seq = i.seq AND v.model = {placeholder} \
             WHERE v.item_seq IS NULL ORDER BY i.seq LIMIT {limit}"
        );
        UnembeddedItem::find_by_statement(Statement::from_sql_and_values(
            backend,
            sql,
            [model.into()],
        ))
        .all(&self.db)
        .await
    }

    /// How many of the user's items have vectors of `model`, and how many items they have.
    ///
    /// # Errors
    /// Database failure.
    pub async fn embedded_counts(&self, user_id: &str, model: &str) -> Result<(u64, u64), DbErr> {
        let backend = self.db.get_database_backend();
        let (embedded, total) = if backend == DatabaseBackend::Postgres {
            (
                "SELECT COUNT(*) AS count FROM library_item_vectors WHERE user_id = $1 AND model = $2",
                "SELECT COUNT(*) AS count FROM library_items WHERE user_id = $1",
            )
        } else {
            (
                "SELECT COUNT(*) AS count FROM library_item_vectors WHERE user_id = ? AND model = ?",
                "SELECT COUNT(*) AS count FROM library_items WHERE user_id = ?",
            )
        };
        let count = |sql: &str, values: Vec<Value>| {
            let statement = Statement::from_sql_and_values(backend, sql, values);
            async move {
                Count::find_by_statement(statement)
                    .one(&self.db)
                    .await
                    .map(|row| row.map_or(0, |row| u64::try_from(row.count).unwrap_or(0)))
            }
        };
        Ok((
            count(embedded, vec![user_id.into(), model.into()]).await?,
            count(total, vec![user_id.into()]).await?,
        ))
    }

    /// The vectors of the chunks of the item `seq`.
    ///
    /// # Errors
    /// Database failure.
    pub async fn item_vectors(&self, seq: i64) -> Result<Vec<Vec<f32>>, DbErr> {
        #[derive(FromQueryResult)]
        struct Id {
            id: i64,
        }
        #[derive(FromQueryResult)]
        struct Blob {
            embedding: Vec<u8>,
        }
        #[derive(FromQueryResult)]
        struct Text {
            embedding: String,
        }
        let backend = self.db.get_database_backend();
        match self.vectors {
            VectorSupport::Missing => Ok(Vec::new()),
            VectorSupport::SqliteVec => {
                let ids = Id::find_by_statement(Statement::from_sql_and_values(
                    backend,
                    "SELECT id FROM library_chunks WHERE item_seq = ? ORDER BY position",
                    [seq.into()],
                ))
                .all(&self.db)
                .await?;
                let mut vectors = Vec::with_capacity(ids.len());
                for id in ids {
                    let blob = Blob::find_by_statement(Statement::from_sql_and_values(
                        backend,
                        "SELECT embedding FROM library_chunk_vectors WHERE rowid = ?",
                        [id.id.into()],
                    ))
                    .one(&self.db)
                    .await?;
                    if let Some(blob) = blob {
                        vectors.push(
                            blob.embedding
                                .chunks_exact(4)
                                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                                .collect(),
                        );
                    }
                }
                Ok(vectors)
            }
            VectorSupport::PgVector => Ok(Text::find_by_statement(Statement::from_sql_and_values(
                backend,
                "SELECT CAST(embedding AS TEXT) AS embedding FROM library_chunks \
                 WHERE item_seq = $1 AND embedding IS NOT NULL ORDER BY position",
                [seq.into()],
            ))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|row| {
                row.embedding
                    .trim_matches(|c| c == '[' || c == ']')
                    .split(',')
                    .filter_map(|x| x.trim().parse().ok())
                    .collect()
            })
            .collect()),
        }
    }

    /// The user's `k` chunks nearest to `query`, nearest first.
    ///
    /// # Errors
    /// Database failure.
    pub async fn nearest_chunks(
        &self,
        user_id: &str,
        query: &[f32],
        k: u32,
    ) -> Result<Vec<NearChunk>, DbErr> {
        let backend = self.db.get_database_backend();
        let statement = match self.vectors {
            VectorSupport::Missing => return Ok(Vec::new()),
            VectorSupport::SqliteVec => Statement::from_sql_and_values(
                backend,
                "WITH near AS (SELECT rowid, distance FROM library_chunk_vectors \
                 WHERE embedding MATCH ? AND k = ? AND user_id = ?) \
                 SELECT c.item_seq, c.start_ms, c.end_ms, c.text, near.distance \
                 FROM near JOIN library_chunks c ON c.id = near.rowid ORDER BY near.distance",
                [sqlite_vec_blob(query).into(), k.into(), user_id.into()],
            ),
            VectorSupport::PgVector => Statement::from_sql_and_values(
                backend,
                "SELECT item_seq, start_ms, end_ms, text, \
                 CAST(embedding <=> $1::vector AS DOUBLE PRECISION) AS distance \
                 FROM library_chunks WHERE user_id = $2 AND embedding IS NOT NULL \
                 ORDER BY embedding <=> $1::vector LIMIT $3",
                [
                    pgvector_text(query).into(),
                    user_id.into(),
                    i64::from(k).into(),
                ],
            ),
        };
        NearChunk::find_by_statement(statement).all(&self.db).await
    }
}

/// Inserts one chunk row and answers its id; `vector_value` is the placeholder of an extra
/// `embedding` value (PostgreSQL), or empty.
async fn insert_chunk(
    db: &impl ConnectionTrait,
    backend: DatabaseBackend,
    values: Vec<Value>,
    vector_value: &str,
) -> Result<i64, DbErr> {
    #[derive(FromQueryResult)]
    struct Id {
        id: i64,
    }
    let sql = if backend == DatabaseBackend::Postgres {
        let (column, value) = if vector_value.is_empty() {
            ("", String::new())
        } else {
            (", embedding", format!(", {vector_value}"))
        };
        format!(
            "INSERT INTO library_chunks (item_seq, user_id, position, start_ms, end_ms, text{column}) \
             VALUES ($1, $2, $3, $4, $5, $6{value}) RETURNING id"
        )
    } else {
        "INSERT INTO library_chunks (item_seq, user_id, position, start_ms, end_ms, text) \
         VALUES (?, ?, ?, ?, ?, ?) RETURNING id"
            .to_owned()
    };
    Id::find_by_statement(Statement::from_sql_and_values(backend, sql, values))
        .one(db)
        .await?
        .map(|row| row.id)
        .ok_or_else(|| DbErr::Custom("the chunk insert returned no id".into()))
}
