//! Database connections for every service: SQLite (embedded default) or PostgreSQL, chosen by
//! the URL alone, plus fresh throw-away databases for tests.
//!
//! Each service owns its tables and runs its own migrations at start, recording them in its own
//! migrations table (`seaql_migrations_<service>`), so services can share one database in
//! monolithic mode without seeing each other's history.

mod sqlite_vec;

use std::time::Duration;

use sea_orm::{ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbBackend};

/// Why a database could not be used.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The server could not be reached or refused the credentials.
    #[error("cannot connect to database {url}: {source}")]
    Connect {
        /// The URL with its password removed.
        url: String,
        /// The driver's error.
        source: sea_orm::DbErr,
    },
    /// The URL is not one we understand.
    #[error("unsupported database URL {0}: expected sqlite:… or postgres://…")]
    UnsupportedUrl(String),
    /// A migration failed.
    #[error("migration failed: {0}")]
    Migrate(sea_orm::DbErr),
    /// Creating a test database failed.
    #[error("cannot create test database: {0}")]
    CreateTestDatabase(String),
    /// Reading a test database's tables failed.
    #[error("cannot read test database: {0}")]
    ReadTestDatabase(sea_orm::DbErr),
}

/// Opens a pool for `url` (`sqlite://path?mode=rwc` or `postgres://…`).
///
/// SQLite gets WAL journaling so that the services of a monolithic process can read while one
/// writes; sqlx already sets a 5 s busy timeout.
///
/// # Errors
/// [`DbError::Connect`] when the database cannot be opened.
pub async fn connect(url: &str) -> Result<DatabaseConnection, DbError> {
    connect_with_pool(url, DEFAULT_MAX_CONNECTIONS).await
}

/// Connections a pool holds unless the caller says otherwise.
pub const DEFAULT_MAX_CONNECTIONS: u32 = 10;

/// SQLite allows one writer at a time: more connections only wait on its lock.
const SQLITE_MAX_CONNECTIONS: u32 = 4;

/// Like [`connect`], holding at most `max_connections` connections (SQLite: at most 4).
///
/// # Errors
/// [`DbError::Connect`] when the database cannot be opened.
pub async fn connect_with_pool(
    url: &str,
    max_connections: u32,
) -> Result<DatabaseConnection, DbError> {
    let is_sqlite = url.starts_with("sqlite:");
    if !is_sqlite && !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
        return Err(DbError::UnsupportedUrl(redact(url)));
    }
    if is_sqlite {
        create_sqlite_parent_dir(url);
        sqlite_vec::register();
    }
    let mut options = ConnectOptions::new(url.to_owned());
    options
        .sqlx_logging(false)
        .connect_timeout(Duration::from_secs(5))
        .acquire_timeout(Duration::from_secs(10))
        .max_connections(if is_sqlite {
            max_connections.clamp(1, SQLITE_MAX_CONNECTIONS)
        } else {
            max_connections.max(1)
        });
    let connection = Database::connect(options)
        .await
        .map_err(|source| DbError::Connect {
            url: redact(url),
            source,
        })?;
    if connection.get_database_backend() == DbBackend::Sqlite {
        connection
            .execute_unprepared("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;")
            .await
            .map_err(|source| DbError::Connect {
                url: redact(url),
                source,
            })?;
    }
    Ok(connection)
}

fn create_sqlite_parent_dir(url: &str) {
    let path = url
        .trim_start_matches("sqlite://")
        .trim_start_matches("sqlite:")
        .split('?')
        .next()
        .unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return;
    }
    if let Some(parent) = std::path::Path::new(path).parent()
        && !parent.as_os_str().is_empty()
    {
        let _ = std::fs::create_dir_all(parent);
    }
}

/// The URL without its password, fit for logs and error messages.
#[must_use]
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

/// A database that exists only for one test: a new SQLite file or a new PostgreSQL database.
pub struct TestDatabase {
    /// URL to hand to the code under test.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the admin URL and the database's name, to drop it again.
    postgres: Option<(String, String)>,
}

/// A PostgreSQL test database is dropped with the test: a benchmark's holds gigabytes, and a
/// run of the suite made fifty that would otherwise stay until someone cleaned up by hand.
/// `WITH (FORCE)` ends the connections the code under test may still hold. On its own thread
/// and runtime, as this may run inside the test's runtime, which cannot be blocked on.
impl Drop for TestDatabase {
    fn drop(&mut self) {
        let Some((admin_url, name)) = self.postgres.take() else {
            return;
        };
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            runtime.block_on(async {
                let admin = connect(&admin_url).await.ok()?;
                let dropped = admin
                    .execute_unprepared(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .await;
                admin.close().await.ok();
                dropped.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(_))) {
            eprintln!("warning: a PostgreSQL test database could not be dropped");
        }
    }
}

impl TestDatabase {
    /// A new, empty SQLite database in a temporary directory.
    ///
    /// # Panics
    /// If no temporary directory can be created.
    #[must_use]
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("create a temporary directory");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
        Self {
            url,
            _dir: Some(dir),
            postgres: None,
        }
    }

    /// A new, empty PostgreSQL database created through `admin_url` (a role with CREATEDB).
    ///
    /// # Errors
    /// [`DbError`] when the server cannot be reached or refuses.
    pub async fn postgres(admin_url: &str) -> Result<Self, DbError> {
        let name = format!("sv_test_{}", uuid::Uuid::new_v4().simple());
        let admin = connect(admin_url).await?;
        admin
            .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
            .await
            .map_err(|e| DbError::CreateTestDatabase(e.to_string()))?;
        admin.close().await.ok();
        let mut url =
            url::Url::parse(admin_url).map_err(|e| DbError::CreateTestDatabase(e.to_string()))?;
        url.set_path(&name);
        Ok(Self {
            url: url.to_string(),
            _dir: None,
            postgres: Some((admin_url.to_owned(), name)),
        })
    }

    /// Whether this is a PostgreSQL database.
    #[must_use]
    pub fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// Whether this database's server offers pgvector (always false for SQLite, whose
    /// vectors are sqlite-vec's).
    pub async fn has_pgvector(&self) -> bool {
        use sea_orm::Statement;
        if !self.is_postgres() {
            return false;
        }
        let Ok(db) = connect(&self.url).await else {
            return false;
        };
        db.query_one_raw(Statement::from_string(
            sea_orm::DatabaseBackend::Postgres,
            "SELECT name FROM pg_available_extensions WHERE name = 'vector'",
        ))
        .await
        .is_ok_and(|row| row.is_some())
    }

    /// Every table with its number of rows, the migrations' bookkeeping left out. Listed from
    /// the schema, so a table added later is counted without a change here: what a test of
    /// "deletes everything of a user" compares before and after.
    ///
    /// # Errors
    /// [`DbError`] when the database cannot be read.
    pub async fn table_counts(&self) -> Result<std::collections::BTreeMap<String, i64>, DbError> {
        use sea_orm::{DatabaseBackend, Statement};
        let db = connect(&self.url).await?;
        let backend = db.get_database_backend();
        let tables = match backend {
            DatabaseBackend::Postgres => {
                "SELECT table_name AS name FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            }
            _ => "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        };
        let read = DbError::ReadTestDatabase;
        let mut counts = std::collections::BTreeMap::new();
        for row in db
            .query_all_raw(Statement::from_string(backend, tables))
            .await
            .map_err(read)?
        {
            let name: String = row.try_get("", "name").map_err(read)?;
            if name.starts_with("seaql_migrations") {
                continue;
            }
            let count = db
                .query_one_raw(Statement::from_string(
                    backend,
                    format!("SELECT COUNT(*) AS n FROM \"{name}\""),
                ))
                .await
                .map_err(read)?
                .map_or(Ok(0), |row| row.try_get::<i64>("", "n"))
                .map_err(read)?;
            counts.insert(name, count);
        }
        db.close().await.ok();
        Ok(counts)
    }
}
