//! One conformance suite, run against the in-process cache and a real Redis.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

use std::time::Duration;

use scribevault_cache::{Cache, InProcessCache, RedisCache};
use scribevault_test_support::{REDIS_URL_ENV, real_server, unique_name};

async fn in_process() -> Option<Box<dyn Cache>> {
    Some(Box::new(InProcessCache::new(1000)))
}

async fn redis() -> Option<Box<dyn Cache>> {
    let url = real_server(REDIS_URL_ENV, "cache conformance (Redis)")?;
    Some(Box::new(
        RedisCache::connect(&url).await.expect("connect to Redis"),
    ))
}

async fn set_then_get(cache: Box<dyn Cache>) {
    let key = unique_name("k");
    assert_eq!(cache.get(&key).await.unwrap(), None);
    cache
        .set(&key, b"value".to_vec(), Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(cache.get(&key).await.unwrap(), Some(b"value".to_vec()));
    cache
        .set(&key, b"newer".to_vec(), Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(cache.get(&key).await.unwrap(), Some(b"newer".to_vec()));
}

async fn entries_expire_after_their_ttl(cache: Box<dyn Cache>) {
    let short = unique_name("short");
    let long = unique_name("long");
    cache
        .set(&short, b"brief".to_vec(), Duration::from_millis(200))
        .await
        .unwrap();
    cache
        .set(&long, b"lasting".to_vec(), Duration::from_secs(60))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        cache.get(&short).await.unwrap(),
        None,
        "expired entry is gone"
    );
    assert_eq!(
        cache.get(&long).await.unwrap(),
        Some(b"lasting".to_vec()),
        "others stay"
    );
}

async fn delete_removes(cache: Box<dyn Cache>) {
    let key = unique_name("k");
    cache
        .set(&key, b"v".to_vec(), Duration::from_secs(60))
        .await
        .unwrap();
    cache.delete(&key).await.unwrap();
    assert_eq!(cache.get(&key).await.unwrap(), None);
}

async fn counters_count_atomically_and_expire_from_their_first_increment(cache: Box<dyn Cache>) {
    let cache: std::sync::Arc<dyn Cache> = cache.into();
    let key = unique_name("counter");
    let increments = (0..50).map(|_| {
        let cache = cache.clone();
        let key = key.clone();
        tokio::spawn(async move {
            cache
                .increment(&key, Duration::from_millis(700))
                .await
                .unwrap()
        })
    });
    let mut counts = Vec::new();
    for increment in increments {
        counts.push(increment.await.unwrap());
    }
    counts.sort_unstable();
    assert_eq!(
        counts,
        (1..=50).collect::<Vec<u64>>(),
        "no increment lost or doubled"
    );
    // Later increments keep the first one's expiry.
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        cache
            .increment(&key, Duration::from_secs(60))
            .await
            .unwrap(),
        51
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        cache
            .increment(&key, Duration::from_secs(60))
            .await
            .unwrap(),
        1,
        "the window closed 700 ms after it opened"
    );
    cache.delete(&key).await.unwrap();
    assert_eq!(
        cache
            .increment(&key, Duration::from_secs(60))
            .await
            .unwrap(),
        1
    );
}

macro_rules! conformance {
    ($backend:ident: $($test:ident),*) => {
        mod $backend {
            $(
                #[tokio::test]
                async fn $test() {
                    let Some(cache) = super::$backend().await else { return };
                    super::$test(cache).await;
                }
            )*
        }
    };
}

conformance!(in_process: set_then_get, entries_expire_after_their_ttl, delete_removes, counters_count_atomically_and_expire_from_their_first_increment);
conformance!(redis: set_then_get, entries_expire_after_their_ttl, delete_removes, counters_count_atomically_and_expire_from_their_first_increment);
