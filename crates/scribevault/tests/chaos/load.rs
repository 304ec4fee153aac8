//! The load that runs through the chaos: users uploading MP3s and starting their
//! transcription, and editing their Vault, over the public REST API with a client that never
//! panics on an error answer (an outage answers 5xx, and that is what the harness is for).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sea_orm::DatabaseConnection;
use serde_json::{Value, json};

use crate::helpers::audio;

/// The short fixtures (about 8 s of speech each) the load rotates through.
const SAMPLES: [&str; 4] = [
    "sample-01-welcome.mp3",
    "sample-02-subscribe.mp3",
    "sample-03-meeting.mp3",
    "sample-04-noisy.mp3",
];

/// Files waiting for transcription at most before the load holds back its next upload: enough
/// to keep the worker busy (so a kill finds a file mid-way), few enough that the final drain is
/// short.
const MAX_WAITING: i64 = 3;

/// Sample `n` with its own ID3 title, so that no two uploads are the same audio (storage keeps
/// one copy of identical audio per user, and the harness counts uploads one by one).
pub fn tagged_mp3(n: usize, title: &str) -> Vec<u8> {
    let original = std::fs::read(audio(SAMPLES[n % SAMPLES.len()])).unwrap();
    // Drop the fixture's own ID3v2 tag (10-byte header, synchsafe size).
    let body = if original.starts_with(b"ID3") {
        let size = original[6..10]
            .iter()
            .fold(0usize, |size, byte| (size << 7) | usize::from(byte & 0x7f));
        &original[10 + size..]
    } else {
        &original[..]
    };
    let mut text = vec![0u8]; // ISO-8859-1
    text.extend(title.as_bytes());
    let mut frame = b"TIT2".to_vec();
    frame.extend(u32::try_from(text.len()).unwrap().to_be_bytes());
    frame.extend([0, 0]);
    frame.extend(text);
    let size = frame.len();
    let mut tagged = b"ID3\x03\x00\x00".to_vec();
    tagged.extend([21, 14, 7, 0].map(|shift| u8::try_from((size >> shift) & 0x7f).unwrap()));
    tagged.extend(frame);
    tagged.extend_from_slice(body);
    tagged
}

/// The public API, answering `(status, body)`; status 0 when no answer came at all.
pub struct Api {
    base: String,
    http: reqwest::Client,
}

impl Api {
    pub fn new(base: String) -> Self {
        Self {
            base,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
        }
    }

    async fn answer(request: reqwest::RequestBuilder) -> (u16, Value) {
        match request.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                (status, response.json().await.unwrap_or(Value::Null))
            }
            Err(_) => (0, Value::Null),
        }
    }

    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(token);
        if let Some(body) = body {
            request = request.json(body);
        }
        Self::answer(request).await
    }

    pub async fn get_raw(&self, path: &str, token: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, token, None).await
    }

    /// Signs up; `(token, user id)`.
    pub async fn sign_up(&self, email: &str) -> (String, String) {
        let (status, body) = Self::answer(
            self.http
                .post(format!("{}/api/auth/signup", self.base))
                .json(&json!({ "email": email, "password": "correct horse battery chaos" })),
        )
        .await;
        assert_eq!(status, 201, "sign-up: {body}");
        (
            body["data"]["token"].as_str().unwrap().to_owned(),
            body["data"]["user"]["id"].as_str().unwrap().to_owned(),
        )
    }

    /// Adds a source; `(source id, its video ids)`.
    pub async fn add_source(&self, token: &str, url: &str) -> (String, Vec<String>) {
        let (status, body) = self
            .send(
                reqwest::Method::POST,
                "/api/sources",
                token,
                Some(&json!({ "url": url })),
            )
            .await;
        assert_eq!(status, 201, "source: {body}");
        let source = body["data"]["id"].as_str().unwrap().to_owned();
        let (_, videos) = self
            .get_raw(&format!("/api/sources/{source}/videos"), token)
            .await;
        let ids = videos["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|video| video["youtubeVideoId"].as_str().unwrap().to_owned())
            .collect();
        (source, ids)
    }

    async fn upload(&self, token: &str, body: Vec<u8>, title: &str) -> (u16, Value) {
        let form = reqwest::multipart::Form::new()
            .text("title", title.to_owned())
            .part(
                "mp3",
                reqwest::multipart::Part::bytes(body)
                    .file_name(format!("{title}.mp3"))
                    .mime_str("audio/mpeg")
                    .unwrap(),
            );
        Self::answer(
            self.http
                .post(format!("{}/api/video-mp3/upload", self.base))
                .bearer_auth(token)
                .multipart(form),
        )
        .await
    }

    /// Every title in the caller's Vault, page by page.
    pub async fn vault_titles(&self, token: &str) -> Vec<String> {
        let mut titles = Vec::new();
        for page in 1.. {
            let (status, body) = self
                .get_raw(
                    &format!("/api/library/transcripts?limit=100&page={page}"),
                    token,
                )
                .await;
            assert_eq!(status, 200, "the Vault lists: {body}");
            let items = body["data"].as_array().cloned().unwrap_or_default();
            titles.extend(
                items
                    .iter()
                    .filter_map(|item| item["title"].as_str().map(str::to_owned)),
            );
            if items.len() < 100 {
                break;
            }
        }
        titles
    }
}

/// An upload the gateway accepted.
#[derive(Clone)]
pub struct Upload {
    pub token: String,
    pub title: String,
    pub mp3_path: String,
    /// The job its transcription was accepted in, if the start was.
    pub job_id: Option<String>,
}

/// What the load did, shared with the harness.
#[derive(Default)]
pub struct Ledger {
    pub stop: AtomicBool,
    pub uploads_accepted: AtomicU64,
    pub uploads_refused: AtomicU64,
    pub starts_refused: AtomicU64,
    pub edits: AtomicU64,
    pub edits_refused: AtomicU64,
    pub download_jobs: AtomicU64,
    uploads: Mutex<Vec<Upload>>,
}

impl Ledger {
    pub fn uploads(&self) -> Vec<Upload> {
        self.uploads.lock().unwrap().clone()
    }

    pub fn summary(&self) -> String {
        format!(
            "uploads {} accepted / {} refused, starts refused {}, edits {} / {} refused",
            self.uploads_accepted.load(Ordering::Relaxed),
            self.uploads_refused.load(Ordering::Relaxed),
            self.starts_refused.load(Ordering::Relaxed),
            self.edits.load(Ordering::Relaxed),
            self.edits_refused.load(Ordering::Relaxed),
        )
    }
}

/// Runs the load until `ledger.stop`: the users take turns uploading a file and starting its
/// transcription (while few files wait), and each turn edits an item of their Vault. A refused
/// request is counted, never retried: a retried start after an answer lost in an outage could
/// start the same file twice, which would be the client's duplicate, not the system's.
pub fn spawn(
    api: Arc<Api>,
    users: Vec<(String, String)>,
    ledger: Arc<Ledger>,
    db: DatabaseConnection,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut turn = 0usize;
        while !ledger.stop.load(Ordering::Relaxed) {
            let (token, _) = &users[turn % users.len()];
            let waiting = crate::count(
                &db,
                "SELECT count(*) AS n FROM transcription_files WHERE status NOT IN ('completed', 'failed')",
            )
            .await;
            if waiting.is_some_and(|waiting| waiting < MAX_WAITING) {
                upload_and_start(&api, token, turn, &ledger).await;
            }
            edit_vault(&api, token, turn, &ledger).await;
            turn += 1;
            tokio::time::sleep(Duration::from_millis(700)).await;
        }
    })
}

async fn upload_and_start(api: &Api, token: &str, turn: usize, ledger: &Ledger) {
    let title = format!("chaos upload {turn}");
    let (status, body) = api.upload(token, tagged_mp3(turn, &title), &title).await;
    let Some(mp3_path) = body["data"]["mp3Path"].as_str().filter(|_| status == 200) else {
        ledger.uploads_refused.fetch_add(1, Ordering::Relaxed);
        return;
    };
    ledger.uploads_accepted.fetch_add(1, Ordering::Relaxed);
    let (status, started) = api
        .send(
            reqwest::Method::POST,
            "/api/transcription/start",
            token,
            Some(&json!({ "files": [{ "id": format!("upload-{turn}"), "mp3Path": mp3_path, "title": title }] })),
        )
        .await;
    let job_id = started["data"]["jobId"]
        .as_str()
        .filter(|_| status == 200)
        .map(str::to_owned);
    if job_id.is_none() {
        ledger.starts_refused.fetch_add(1, Ordering::Relaxed);
    }
    ledger.uploads.lock().unwrap().push(Upload {
        token: token.to_owned(),
        title,
        mp3_path: mp3_path.to_owned(),
        job_id,
    });
}

/// Rates, tags and stars one of the user's Vault items, as someone curating it would.
async fn edit_vault(api: &Api, token: &str, turn: usize, ledger: &Ledger) {
    let (status, listed) = api
        .get_raw("/api/library/transcripts?limit=20", token)
        .await;
    let items = listed["data"].as_array().cloned().unwrap_or_default();
    if status != 200 || items.is_empty() {
        return;
    }
    let item = &items[turn % items.len()];
    let Some(id) = item["id"].as_str() else {
        return;
    };
    let (status, _) = api
        .send(
            reqwest::Method::PUT,
            &format!("/api/library/transcripts/{id}/metadata"),
            token,
            Some(&json!({ "rating": turn % 5 + 1, "isStarred": turn.is_multiple_of(2), "tags": [format!("chaos-{}", turn % 3)] })),
        )
        .await;
    if status == 200 {
        ledger.edits.fetch_add(1, Ordering::Relaxed);
    } else {
        ledger.edits_refused.fetch_add(1, Ordering::Relaxed);
    }
}
