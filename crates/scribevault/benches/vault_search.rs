//! The Vault at scale: search, list and stats through the REST API with many items of about
//! 2,000 words each, on SQLite or PostgreSQL, with the ingest rate and the index size.
//!
//! `cargo bench -p scribevault --bench vault_search -- <sqlite|postgres> [items] [words]`
//! (defaults 100000 items of 2000 words; PostgreSQL needs `SCRIBEVAULT_TEST_POSTGRES_URL`).
//!
//! With `VAULT_BENCH_DATABASE_URL` set, that database is used and kept: a first run ingests
//! into it, later runs find the items there and only measure the queries, so a change to a
//! query is measured in a minute instead of ten (compare against a run of the old code on
//! the same database, in the same session).
//!
//! `scribevault all` (release) runs as its own process on a fresh database. Items go in through
//! the library's `IngestTranscript` RPC, four at a time, as the transcription pipeline hands
//! them over. The text is drawn from a Zipf distribution over 30,000 made-up words (seeded, so
//! every run sees the same corpus); query words are drawn log-uniformly from ranks 200–30,000,
//! so some match most items and some a handful. Prints one JSON line.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::cast_precision_loss
)] // a measuring tool

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::distributions::Distribution as _;
use rand::{Rng as _, SeedableRng as _};
use scribevault_proto::library::v1 as pb;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt as _;

const VOCABULARY: usize = 30_000;
const SYLLABLES: [&str; 24] = [
    "ka", "lo", "mi", "ra", "te", "su", "no", "vi", "dre", "pla", "sto", "gu", "fen", "mar", "tal",
    "bri", "cor", "den", "el", "is", "ov", "un", "zar", "qui",
];
const REQUESTS: usize = 300;

/// The service key of the server the benchmark starts (its gRPC calls must be signed).
const BENCH_SERVICE_KEY: &str = "bench-service-key-0123456789abcdef0123456789abcdef";

fn word(rank: usize) -> String {
    let mut n = rank + 24;
    let mut word = String::new();
    while n > 0 {
        word.push_str(SYLLABLES[n % SYLLABLES.len()]);
        n /= SYLLABLES.len();
    }
    word
}

struct Corpus {
    words: Vec<String>,
    zipf: rand::distributions::WeightedIndex<f64>,
}

impl Corpus {
    fn new() -> Self {
        let words = (0..VOCABULARY).map(word).collect();
        let weights: Vec<f64> = (1..=VOCABULARY).map(|rank| 1.0 / rank as f64).collect();
        Self {
            words,
            zipf: rand::distributions::WeightedIndex::new(weights).unwrap(),
        }
    }

    fn text(&self, rng: &mut rand::rngs::StdRng, words: usize) -> String {
        let mut text = String::with_capacity(words * 7);
        for index in 0..words {
            if index > 0 {
                text.push_str(if index % 15 == 0 { ". " } else { " " });
            }
            text.push_str(&self.words[self.zipf.sample(rng)]);
        }
        text.push('.');
        text
    }

    /// A word whose rank is log-uniform in 200..30,000.
    fn query_word(&self, rng: &mut rand::rngs::StdRng) -> &str {
        let low = 200f64.ln();
        let high = (VOCABULARY as f64 - 1.0).ln();
        let rank = rng.gen_range(low..high).exp() as usize;
        &self.words[rank.min(VOCABULARY - 1)]
    }
}

fn percentile(samples: &mut [Duration], p: f64) -> f64 {
    samples.sort();
    let index = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples[index].as_secs_f64() * 1000.0
}

async fn timed_get(http: &reqwest::Client, url: &str, token: &str) -> (Duration, Value) {
    let started = Instant::now();
    let response = http.get(url).bearer_auth(token).send().await.unwrap();
    assert!(
        response.status().is_success(),
        "{url}: {}",
        response.status()
    );
    let body: Value = response.json().await.unwrap();
    (started.elapsed(), body)
}

/// `scribevault all`, running as a child process.
struct Server {
    child: tokio::process::Child,
    base: String,
    library: String,
}

/// The database to run on, and the test database to keep alive while the run lasts.
async fn database_url(
    backend: &str,
    data_dir: &std::path::Path,
) -> (String, Option<scribevault_db::TestDatabase>) {
    if let Ok(url) = std::env::var("VAULT_BENCH_DATABASE_URL") {
        return (url, None);
    }
    if backend == "postgres" {
        let admin =
            std::env::var("SCRIBEVAULT_TEST_POSTGRES_URL").expect("SCRIBEVAULT_TEST_POSTGRES_URL");
        let db = scribevault_db::TestDatabase::postgres(&admin)
            .await
            .unwrap();
        return (db.url.clone(), Some(db));
    }
    let url = format!("sqlite://{}?mode=rwc", data_dir.join("vault.db").display());
    (url, None)
}

async fn start_server(data_dir: &std::path::Path, database_url: &str) -> Server {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_scribevault"))
        .arg("all")
        .env("SCRIBEVAULT_DATA_DIR", data_dir)
        .env("SCRIBEVAULT_SERVICE_KEY", BENCH_SERVICE_KEY)
        .env("SCRIBEVAULT_DATABASE_URL", database_url)
        .env("SCRIBEVAULT_HTTP_ADDR", "127.0.0.1:0")
        .env("SCRIBEVAULT_FRONTEND_DIR", data_dir.join("none"))
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut library = None;
    let base = loop {
        let line = lines
            .next_line()
            .await
            .unwrap()
            .expect("the server announces itself");
        if let Some(addr) = line.strip_prefix("scribevault listening library ") {
            library = Some(format!("http://{}", addr.trim()));
        }
        if let Some(addr) = line.strip_prefix("scribevault listening http ") {
            break format!("http://{}", addr.trim());
        }
    };
    // The server's warnings and errors go to this process's stderr.
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("server: {line}");
        }
    });
    Server {
        child,
        base,
        library: library.expect("library address"),
    }
}

/// Signs the bench's user up, or in when a kept database has it: (token, user id, reused).
async fn sign_in(http: &reqwest::Client, base: &str) -> (String, String, bool) {
    let credentials = json!({ "email": "bench@example.com", "password": "bench-password-1" });
    let signed_up = http
        .post(format!("{base}/api/auth/signup"))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    let reused = signed_up.status() == reqwest::StatusCode::CONFLICT;
    let signed_in: Value = if reused {
        http.post(format!("{base}/api/auth/login"))
            .json(&credentials)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    } else {
        signed_up.json().await.unwrap()
    };
    let token = signed_in["data"]["token"].as_str().unwrap().to_owned();
    let user = signed_in["data"]["user"]["id"].as_str().unwrap().to_owned();
    (token, user, reused)
}

/// Ingests `items` items through the library's RPC, `producers` at a time; answers the bytes
/// of text sent.
async fn ingest(
    library: &str,
    user: &str,
    corpus: &Arc<Corpus>,
    (items, words): (usize, usize),
    producers: usize,
) -> usize {
    let client = pb::library_service_client::LibraryServiceClient::connect(library.to_owned())
        .await
        .unwrap()
        .max_encoding_message_size(scribevault_proto::library::MAX_MESSAGE_BYTES);
    let mut tasks = Vec::new();
    for producer in 0..producers {
        let corpus = corpus.clone();
        let mut client = client.clone();
        let user = scribevault_core::UserId::new(user.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut rng = rand::rngs::StdRng::seed_from_u64(producer as u64);
            let mut bytes = 0;
            for index in (producer..items).step_by(producers) {
                let content = corpus.text(&mut rng, words);
                let title = corpus.text(&mut rng, 5);
                bytes += content.len();
                let mut request = tonic::Request::new(pb::IngestTranscriptRequest {
                    source_ref: format!("bench:{index}"),
                    title,
                    source_type: pb::SourceType::Audio.into(),
                    content,
                    duration_seconds: Some(600.0),
                    ..Default::default()
                });
                scribevault_core::identity::ServiceKey::new(BENCH_SERVICE_KEY)
                    .unwrap()
                    .attach_user(
                        &mut request,
                        &user,
                        "/scribevault.library.v1.LibraryService/IngestTranscript",
                    );
                client.ingest_transcript(request).await.unwrap();
            }
            bytes
        }));
    }
    let mut bytes = 0;
    for task in tasks {
        bytes += task.await.unwrap();
    }
    bytes
}

/// The full-text index's size, straight from the database.
async fn index_bytes(database_url: &str, backend: &str) -> i64 {
    use sea_orm::{ConnectionTrait as _, Statement};
    let db = sea_orm::Database::connect(database_url).await.unwrap();
    let sql = if backend == "postgres" {
        "SELECT CAST(pg_relation_size('library_items_search_seq') + \
         (SELECT COALESCE(SUM(pg_column_size(search_tsv)), 0) FROM library_items) AS BIGINT) AS size"
    } else {
        "SELECT CAST(COALESCE(SUM(LENGTH(block)), 0) + \
         (SELECT COALESCE(SUM(LENGTH(sz)), 0) FROM library_fts_docsize) AS INTEGER) AS size FROM library_fts_data"
    };
    let row = db
        .query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get("", "size").unwrap()
}

/// Times `REQUESTS` searches of one or two query words; answers the times and the hit counts.
async fn measure_search(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    corpus: &Corpus,
    rng: &mut rand::rngs::StdRng,
) -> (Vec<Duration>, Vec<u64>) {
    let mut search = Vec::new();
    let mut hits = Vec::new();
    for request in 0..REQUESTS {
        let a = corpus.query_word(rng).to_owned();
        let b = corpus.query_word(rng).to_owned();
        let q = match request % 5 {
            0 | 1 => a,
            2 => format!("{a} {b}"),
            3 => format!("{a} OR {b}"),
            _ => format!("{a} -{b}"),
        };
        let url = format!(
            "{base}/api/library/transcripts?limit=20&q={}",
            url_escape(&q)
        );
        let (elapsed, body) = timed_get(http, &url, token).await;
        hits.push(body["meta"]["total"].as_u64().unwrap());
        search.push(elapsed);
    }
    hits.sort_unstable();
    (search, hits)
}

/// Times `REQUESTS` list pages in every sort, then 50 stats reads.
async fn measure_list_and_stats(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    rng: &mut rand::rngs::StdRng,
) -> (Vec<Duration>, Vec<Duration>) {
    let mut list = Vec::new();
    for request in 0..REQUESTS {
        let page = rng.gen_range(1..=200);
        let sort = ["createdAt", "title", "rating"][request % 3];
        let order = ["desc", "asc"][request % 2];
        let url = format!(
            "{base}/api/library/transcripts?page={page}&limit=20&sortBy={sort}&sortOrder={order}"
        );
        list.push(timed_get(http, &url, token).await.0);
    }
    let mut stats = Vec::new();
    for _ in 0..50 {
        stats.push(
            timed_get(http, &format!("{base}/api/library/stats"), token)
                .await
                .0,
        );
    }
    (list, stats)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let backend = args.first().map_or("sqlite", String::as_str).to_owned();
    let items: usize = args.get(1).map_or(100_000, |arg| arg.parse().unwrap());
    let words: usize = args.get(2).map_or(2_000, |arg| arg.parse().unwrap());

    let data_dir = tempfile::tempdir().unwrap();
    let (database_url, _postgres) = database_url(&backend, data_dir.path()).await;
    let mut server = start_server(data_dir.path(), &database_url).await;
    let base = server.base.clone();
    let http = reqwest::Client::new();
    let (token, user, reused) = sign_in(&http, &base).await;

    // Ingest, four producers at a time.
    let corpus = Arc::new(Corpus::new());
    let started = Instant::now();
    let producers = if reused {
        eprintln!("reusing the items already in VAULT_BENCH_DATABASE_URL: no ingest");
        0
    } else {
        4
    };
    let bytes = ingest(&server.library, &user, &corpus, (items, words), producers).await;
    let ingest_seconds = started.elapsed().as_secs_f64();
    if !reused {
        eprintln!("ingested {items} items in {ingest_seconds:.0} s");
    }
    let index_bytes = index_bytes(&database_url, &backend).await;

    let mut rng = rand::rngs::StdRng::seed_from_u64(99);
    // Warm up both paths once.
    timed_get(
        &http,
        &format!("{base}/api/library/transcripts?q=warm"),
        &token,
    )
    .await;
    let (mut search, hits) = measure_search(&http, &base, &token, &corpus, &mut rng).await;
    let (mut list, mut stats) = measure_list_and_stats(&http, &base, &token, &mut rng).await;
    let result = json!({
        "backend": backend,
        "items": items,
        "words_per_item": words,
        "reused_database": reused,
        "ingest_seconds": (!reused).then_some(ingest_seconds),
        "ingest_items_per_second": (!reused).then(|| items as f64 / ingest_seconds),
        "ingest_mb_per_second": (!reused).then(|| bytes as f64 / 1e6 / ingest_seconds),
        "text_mb": (!reused).then(|| bytes as f64 / 1e6),
        "index_mb": index_bytes as f64 / 1e6,
        "search_ms": {"p50": percentile(&mut search, 0.5), "p95": percentile(&mut search, 0.95), "max": percentile(&mut search, 1.0)},
        "search_hits": {"median": hits[hits.len() / 2], "p95": hits[hits.len() * 95 / 100], "max": hits[hits.len() - 1]},
        "list_ms": {"p50": percentile(&mut list, 0.5), "p95": percentile(&mut list, 0.95), "max": percentile(&mut list, 1.0)},
        "stats_ms": {"p50": percentile(&mut stats, 0.5), "p95": percentile(&mut stats, 0.95)},
    });
    println!("{result}");
    server.child.kill().await.ok();
}

fn url_escape(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
