//! A webhook receiver on a loopback port: answers 200 at once and keeps, per delivery, its
//! `webhook-id` and the Vault item the body names, for the end check that every item was
//! delivered once.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};

#[derive(Clone, Default)]
pub struct Receiver {
    /// (webhook-id, item id) of every request, in arrival order.
    received: Arc<Mutex<Vec<(String, String)>>>,
}

/// What arrived, seen as a receiver that de-duplicates on `webhook-id` sees it.
pub struct Received {
    /// Item id → the distinct webhook-ids it came under.
    pub ids_by_item: BTreeMap<String, BTreeSet<String>>,
    /// Requests that repeated a webhook-id already received (an attempt cut by a kill after
    /// the receiver answered, sent again under the same id: at least once, by design).
    pub repeats: usize,
}

impl Receiver {
    pub async fn start(&self) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = self.received.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let received = received.clone();
                tokio::spawn(async move {
                    if let Some(delivery) = read(stream).await {
                        received.lock().unwrap().push(delivery);
                    }
                });
            }
        });
        format!("http://127.0.0.1:{port}/hook")
    }

    pub fn received(&self) -> Received {
        let all = self.received.lock().unwrap().clone();
        let mut ids_by_item: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut seen = BTreeSet::new();
        let mut repeats = 0;
        for (id, item) in all {
            if !seen.insert(id.clone()) {
                repeats += 1;
            }
            ids_by_item.entry(item).or_default().insert(id);
        }
        Received {
            ids_by_item,
            repeats,
        }
    }
}

/// One request: answers 200 and returns (webhook-id, the body's item id).
async fn read(stream: tokio::net::TcpStream) -> Option<(String, String)> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).await.ok()?;
    let (mut id, mut length) = (String::new(), 0usize);
    loop {
        line.clear();
        reader.read_line(&mut line).await.ok()?;
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        let (key, value) = trimmed.split_once(':')?;
        match key.trim().to_ascii_lowercase().as_str() {
            "webhook-id" => id = value.trim().to_owned(),
            "content-length" => length = value.trim().parse().ok()?,
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await.ok()?;
    let _ = reader
        .get_mut()
        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        .await;
    let body: serde_json::Value = serde_json::from_slice(&body).ok()?;
    let item = body["data"]["transcript"]["id"].as_str()?.to_owned();
    Some((id, item))
}
