//! A small key-value cache with per-entry time-to-live, in-process (moka) or in Redis.
//!
//! Used for data that is expensive to fetch and fine to lose: channel metadata from the YouTube
//! API, OIDC key sets. With several replicas, Redis makes one replica's fetch serve them all.

use std::time::{Duration, Instant};

/// Why a cache operation failed.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// Redis could not be reached or answered with an error.
    #[error("cache unavailable: {0}")]
    Unavailable(String),
}

/// A byte-value cache with TTL.
#[async_trait::async_trait]
pub trait Cache: Send + Sync {
    /// The value stored at `key`, unless missing or expired.
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, CacheError>;
    /// Stores `value` at `key` for `ttl`.
    async fn set(&self, key: &str, value: Vec<u8>, ttl: Duration) -> Result<(), CacheError>;
    /// Removes `key`.
    async fn delete(&self, key: &str) -> Result<(), CacheError>;
}

/// In-process cache; entries expire individually.
pub struct InProcessCache {
    entries: moka::future::Cache<String, Entry>,
}

#[derive(Clone)]
struct Entry {
    value: Vec<u8>,
    expires_at: Instant,
}

struct PerEntryExpiry;

impl moka::Expiry<String, Entry> for PerEntryExpiry {
    fn expire_after_create(
        &self,
        _key: &String,
        entry: &Entry,
        created_at: Instant,
    ) -> Option<Duration> {
        Some(entry.expires_at.saturating_duration_since(created_at))
    }

    fn expire_after_update(
        &self,
        _key: &String,
        entry: &Entry,
        updated_at: Instant,
        _current: Option<Duration>,
    ) -> Option<Duration> {
        Some(entry.expires_at.saturating_duration_since(updated_at))
    }
}

impl InProcessCache {
    /// A cache holding at most `max_entries` entries.
    #[must_use]
    pub fn new(max_entries: u64) -> Self {
        Self {
            entries: moka::future::Cache::builder()
                .max_capacity(max_entries)
                .expire_after(PerEntryExpiry)
                .build(),
        }
    }
}

#[async_trait::async_trait]
impl Cache for InProcessCache {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, CacheError> {
        Ok(self
            .entries
            .get(key)
            .await
            .filter(|entry| entry.expires_at > Instant::now())
            .map(|entry| entry.value))
    }

    async fn set(&self, key: &str, value: Vec<u8>, ttl: Duration) -> Result<(), CacheError> {
        self.entries
            .insert(
                key.to_owned(),
                Entry {
                    value,
                    expires_at: Instant::now() + ttl,
                },
            )
            .await;
        Ok(())
    }

    async fn delete(&self, key: &str) -> Result<(), CacheError> {
        self.entries.invalidate(key).await;
        Ok(())
    }
}

/// Redis-backed cache; keys are namespaced with `scribevault:`.
pub struct RedisCache {
    connection: redis::aio::ConnectionManager,
}

fn unavailable(error: &redis::RedisError) -> CacheError {
    CacheError::Unavailable(error.to_string())
}

impl RedisCache {
    /// Connects to `url`, failing fast if Redis cannot be reached now.
    ///
    /// # Errors
    /// [`CacheError::Unavailable`].
    pub async fn connect(url: &str) -> Result<Self, CacheError> {
        let client = redis::Client::open(url).map_err(|e| unavailable(&e))?;
        let connection = redis::aio::ConnectionManager::new(client)
            .await
            .map_err(|e| unavailable(&e))?;
        Ok(Self { connection })
    }

    fn namespaced(key: &str) -> String {
        format!("scribevault:{key}")
    }
}

#[async_trait::async_trait]
impl Cache for RedisCache {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, CacheError> {
        let mut connection = self.connection.clone();
        redis::cmd("GET")
            .arg(Self::namespaced(key))
            .query_async(&mut connection)
            .await
            .map_err(|e| unavailable(&e))
    }

    async fn set(&self, key: &str, value: Vec<u8>, ttl: Duration) -> Result<(), CacheError> {
        let mut connection = self.connection.clone();
        let millis = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        redis::cmd("SET")
            .arg(Self::namespaced(key))
            .arg(value)
            .arg("PX")
            .arg(millis)
            .query_async::<()>(&mut connection)
            .await
            .map_err(|e| unavailable(&e))
    }

    async fn delete(&self, key: &str) -> Result<(), CacheError> {
        let mut connection = self.connection.clone();
        redis::cmd("DEL")
            .arg(Self::namespaced(key))
            .query_async::<()>(&mut connection)
            .await
            .map_err(|e| unavailable(&e))
    }
}
