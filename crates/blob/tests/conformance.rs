//! One conformance suite, run against the local filesystem store and a real S3 server.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly on purpose

use bytes::Bytes;
use futures::StreamExt as _;
use scribevault_blob::{
    BlobError, BlobKey, BlobStore, ByteStream, LocalBlobStore, S3BlobStore, S3Settings,
    body_from_bytes, collect_body,
};
use scribevault_test_support::{S3_ENDPOINT_ENV, real_server, unique_name};

struct Store {
    store: Box<dyn BlobStore>,
    /// Every test writes under its own prefix, so tests sharing a bucket do not see each other.
    prefix: String,
    _dir: Option<tempfile::TempDir>,
}

impl Store {
    fn key(&self, name: &str) -> BlobKey {
        BlobKey::parse(&format!("{}/{name}", self.prefix)).unwrap()
    }
}

async fn local() -> Option<Store> {
    let dir = tempfile::tempdir().unwrap();
    let store = LocalBlobStore::new(dir.path().join("blobs")).unwrap();
    Some(Store {
        store: Box::new(store),
        prefix: unique_name("t"),
        _dir: Some(dir),
    })
}

async fn s3() -> Option<Store> {
    let endpoint = real_server(S3_ENDPOINT_ENV, "blob conformance (S3)")?;
    let store = S3BlobStore::connect(S3Settings {
        endpoint,
        bucket: "scribevault-conformance".into(),
        region: "us-east-1".into(),
        access_key_id: "test".into(),
        secret_access_key: "test".into(),
        part_size: scribevault_blob::MIN_PART_SIZE,
    })
    .await
    .expect("connect to the S3 server");
    Some(Store {
        store: Box::new(store),
        prefix: unique_name("t"),
        _dir: None,
    })
}

/// A body of `total` bytes in 64 KiB chunks with a recognisable pattern, generated lazily.
fn patterned_body(total: usize) -> ByteStream {
    let chunk = 64 * 1024;
    Box::pin(futures::stream::iter((0..total.div_ceil(chunk)).map(
        move |index| {
            let len = chunk.min(total - index * chunk);
            Ok(Bytes::from(
                (0..len)
                    .map(|i| ((index * chunk + i) % 251) as u8)
                    .collect::<Vec<_>>(),
            ))
        },
    )))
}

async fn put_then_get_round_trips(store: Store) {
    let key = store.key("a/b/hello.txt");
    let size = store
        .store
        .put(&key, body_from_bytes("hello world"))
        .await
        .unwrap();
    assert_eq!(size, 11);
    let body = collect_body(store.store.get(&key).await.unwrap())
        .await
        .unwrap();
    assert_eq!(body, b"hello world");
    let head = store.store.head(&key).await.unwrap().expect("exists");
    assert_eq!(head.size, 11);
}

async fn large_bodies_stream_in_parts(store: Store) {
    // Larger than one multipart part (5 MiB) so S3 takes the multipart path.
    let total = 12 * 1024 * 1024 + 123;
    let key = store.key("big.bin");
    assert_eq!(
        store.store.put(&key, patterned_body(total)).await.unwrap(),
        total as u64
    );
    let mut body = store.store.get(&key).await.unwrap();
    let mut offset = 0usize;
    while let Some(chunk) = body.next().await {
        for byte in chunk.unwrap() {
            assert_eq!(byte, (offset % 251) as u8, "byte {offset} differs");
            offset += 1;
        }
    }
    assert_eq!(offset, total);
}

async fn missing_objects_are_not_found(store: Store) {
    let key = store.key("nothing-here");
    assert!(matches!(
        store.store.get(&key).await,
        Err(BlobError::NotFound(_))
    ));
    assert!(store.store.head(&key).await.unwrap().is_none());
    store
        .store
        .delete(&key)
        .await
        .expect("deleting a missing object is fine");
}

async fn delete_removes_and_list_filters_by_prefix(store: Store) {
    for name in ["x/1", "x/2", "y/1"] {
        store
            .store
            .put(&store.key(name), body_from_bytes(name.to_owned()))
            .await
            .unwrap();
    }
    let listed: Vec<String> = store
        .store
        .list(&format!("{}/x/", store.prefix))
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.key)
        .collect();
    assert_eq!(
        listed,
        vec![
            format!("{}/x/1", store.prefix),
            format!("{}/x/2", store.prefix)
        ]
    );
    store.store.delete(&store.key("x/1")).await.unwrap();
    assert!(store.store.head(&store.key("x/1")).await.unwrap().is_none());
    assert_eq!(
        store
            .store
            .list(&format!("{}/", store.prefix))
            .await
            .unwrap()
            .len(),
        2
    );
}

async fn delete_prefix_empties_one_folder_only(store: Store) {
    for name in ["x/1", "x/deep/er/2", "xy/3", "y/x/4"] {
        store
            .store
            .put(&store.key(name), body_from_bytes(name.to_owned()))
            .await
            .unwrap();
    }
    assert_eq!(
        store.store.delete_prefix(&store.key("x")).await.unwrap(),
        2,
        "x/1 and x/deep/er/2"
    );
    let left: Vec<String> = store
        .store
        .list(&format!("{}/", store.prefix))
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.key)
        .collect();
    assert_eq!(
        left,
        vec![
            format!("{}/xy/3", store.prefix),
            format!("{}/y/x/4", store.prefix)
        ],
        "a sibling sharing the name's start and a deeper namesake stay"
    );
    assert!(store.store.head(&store.key("x/1")).await.unwrap().is_none());
    assert_eq!(
        store.store.delete_prefix(&store.key("x")).await.unwrap(),
        0,
        "a second call finds nothing"
    );
    assert_eq!(
        store
            .store
            .delete_prefix(&store.key("never-written"))
            .await
            .unwrap(),
        0
    );
    // A folder can be written again after it was emptied.
    store
        .store
        .put(&store.key("x/1"), body_from_bytes("again"))
        .await
        .unwrap();
    assert!(store.store.head(&store.key("x/1")).await.unwrap().is_some());
}

async fn a_failing_body_leaves_nothing(store: Store) {
    let key = store.key("broken");
    let body: ByteStream = Box::pin(futures::stream::iter(vec![
        Ok(Bytes::from_static(b"partial")),
        Err(std::io::Error::other("client went away")),
    ]));
    assert!(matches!(
        store.store.put(&key, body).await,
        Err(BlobError::Body(_))
    ));
    assert!(
        store.store.head(&key).await.unwrap().is_none(),
        "no half object is visible"
    );
}

async fn overwrite_replaces(store: Store) {
    let key = store.key("same");
    store
        .store
        .put(&key, body_from_bytes("first"))
        .await
        .unwrap();
    store
        .store
        .put(&key, body_from_bytes("second!"))
        .await
        .unwrap();
    assert_eq!(
        collect_body(store.store.get(&key).await.unwrap())
            .await
            .unwrap(),
        b"second!"
    );
}

async fn ranged_reads_send_only_the_range(store: Store) {
    let key = store.key("audio/range.mp3");
    let total = 200 * 1024;
    store.store.put(&key, patterned_body(total)).await.unwrap();
    let expected = collect_body(patterned_body(total)).await.unwrap();
    for (offset, length) in [(0, 1), (1000, 70_000), (total as u64 - 10, 10), (5, 0)] {
        let body = collect_body(store.store.get_range(&key, offset, length).await.unwrap())
            .await
            .unwrap();
        let start = usize::try_from(offset).unwrap();
        let end = start + usize::try_from(length).unwrap();
        assert_eq!(
            body,
            expected[start..end],
            "offset {offset} length {length}"
        );
    }
    // A range running past the end stops at it; one starting past the end is empty.
    let tail = collect_body(
        store
            .store
            .get_range(&key, total as u64 - 3, 100)
            .await
            .unwrap(),
    )
    .await
    .unwrap();
    assert_eq!(tail, expected[total - 3..]);
    let past = collect_body(
        store
            .store
            .get_range(&key, total as u64 + 5, 10)
            .await
            .unwrap(),
    )
    .await
    .unwrap();
    assert!(past.is_empty());
    assert!(matches!(
        store
            .store
            .get_range(&store.key("audio/missing.mp3"), 0, 10)
            .await,
        Err(BlobError::NotFound(_))
    ));
    let meta = store.store.head(&key).await.unwrap().unwrap();
    assert!(
        meta.modified_unix.is_some(),
        "both stores know when an object was written"
    );
}

macro_rules! conformance {
    ($backend:ident: $($test:ident),*) => {
        mod $backend {
            $(
                #[tokio::test]
                async fn $test() {
                    let Some(store) = super::$backend().await else { return };
                    super::$test(store).await;
                }
            )*
        }
    };
}

conformance!(local: put_then_get_round_trips, large_bodies_stream_in_parts, missing_objects_are_not_found, delete_removes_and_list_filters_by_prefix, delete_prefix_empties_one_folder_only, a_failing_body_leaves_nothing, overwrite_replaces, ranged_reads_send_only_the_range);
conformance!(s3: put_then_get_round_trips, large_bodies_stream_in_parts, missing_objects_are_not_found, delete_removes_and_list_filters_by_prefix, delete_prefix_empties_one_folder_only, a_failing_body_leaves_nothing, overwrite_replaces, ranged_reads_send_only_the_range);

#[test]
fn keys_cannot_escape_the_root() {
    for bad in ["../outside", "/etc/passwd", "a/../../b", "nul\0byte"] {
        assert!(
            matches!(BlobKey::parse(bad), Err(BlobError::InvalidKey(_))),
            "{bad:?}"
        );
    }
}
