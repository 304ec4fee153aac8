//! A small key-value cache with per-entry time-to-live, in-process (moka) or in Redis.
//!
//! Used for state that is fine to lose and must be shared by gateway replicas: the login
//! limiter's counters (an atomic [`Cache::increment`] with expiry). With several replicas,
//! Redis makes one replica's count the others'.

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
    /// Adds one to the counter at `key` and returns the new count. A counter that did not
    /// exist (or had expired) starts at 1 and lives for `ttl`; later increments keep its
    /// expiry, so a window opened by the first event closes on time however busy it is.
    async fn increment(&self, key: &str, ttl: Duration) -> Result<u64, CacheError>;
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

    async fn increment(&self, key: &str, ttl: Duration) -> Result<u64, CacheError> {
        // `and_compute_with` runs under the entry's lock: concurrent increments never lose one.
        let result = self
            .entries
            .entry_by_ref(key)
            .and_compute_with(|current| {
                let now = Instant::now();
                let live = current
                    .map(moka::Entry::into_value)
                    .filter(|entry| entry.expires_at > now);
                let next = match live {
                    Some(entry) => Entry {
                        value: (counter_value(&entry.value) + 1).to_le_bytes().to_vec(),
                        expires_at: entry.expires_at,
                    },
                    None => Entry {
                        value: 1_u64.to_le_bytes().to_vec(),
                        expires_at: now + ttl,
                    },
                };
                std::future::ready(moka::ops::compute::Op::Put(next))
            })
            .await;
        Ok(result
            .into_entry()
            .map_or(1, |entry| counter_value(&entry.into_value().value)))
    }
}

/// A counter as [`InProcessCache::increment`] stores it (a value set otherwise counts as 0).
fn counter_value(bytes: &[u8]) -> u64 {
    <[u8; 8]>::try_from(bytes).map_or(0, u64::from_le_bytes)
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

    async fn increment(&self, key: &str, ttl: Duration) -> Result<u64, CacheError> {
        let mut connection = self.connection.clone();
        let millis = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1);
        let key = Self::namespaced(key);
        // One transaction: the expiry is set only on the increment that created the counter
        // (`NX`), and no crash between the two commands can leave a counter that never expires.
        let (count,): (u64,) = redis::pipe()
            .atomic()
            .cmd("INCR")
            .arg(&key)
            .cmd("PEXPIRE")
            .arg(&key)
            .arg(millis)
            .arg("NX")
            .ignore()
            .query_async(&mut connection)
            .await
            .map_err(|e| unavailable(&e))?;
        Ok(count)
    }
}
