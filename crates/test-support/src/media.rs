//! A local HTTP server of media files, for running the real `yt-dlp` offline: its generic
//! extractor downloads a direct media URL, so pointing `SCRIBEVAULT_YOUTUBE_WATCH_URL` at
//! `http://127.0.0.1:PORT/media/{id}.mp3` exercises the real binary end to end. Files can be
//! served at full speed, slowly (to cancel a download mid-way), or as a page that is not audio;
//! any other id answers 404.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::{App, HttpResponse, HttpServer, web};

/// Where the yt-dlp venv of `scripts/install-media-tools.sh` puts the binary.
pub const YTDLP_ENV: &str = "SCRIBEVAULT_TEST_YTDLP";

#[derive(Clone)]
enum Served {
    Audio(Arc<Vec<u8>>),
    Slow {
        body: Arc<Vec<u8>>,
        chunk: usize,
        every: Duration,
    },
    Page(String),
}

/// A caption track as the server answers it.
#[derive(Clone)]
enum Caption {
    Body(Arc<Vec<u8>>),
    /// HTTP 429 Too Many Requests, as YouTube answers caption requests that come too fast.
    RateLimited,
}

#[derive(Default)]
struct State {
    files: HashMap<String, Served>,
    requests: HashMap<String, u32>,
    /// Info JSON per video id, for the yt-dlp plugin (`youtube_site.rs`).
    infos: HashMap<String, serde_json::Value>,
    /// Caption tracks by file name (`ID.KEY.json3`).
    captions: HashMap<String, Caption>,
}

/// The media server; stops when dropped.
pub struct MediaServer {
    state: Arc<Mutex<State>>,
    addr: SocketAddr,
    server: ServerHandle,
}

impl Drop for MediaServer {
    fn drop(&mut self) {
        drop(self.server.stop(false));
    }
}

async fn serve(state: web::Data<Mutex<State>>, file: web::Path<String>) -> HttpResponse {
    let id = file.into_inner().trim_end_matches(".mp3").to_owned();
    let served = {
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        *state.requests.entry(id.clone()).or_default() += 1;
        state.files.get(&id).cloned()
    };
    match served {
        None => HttpResponse::NotFound()
            .content_type("text/plain")
            .body("File not found"),
        Some(Served::Audio(body)) => HttpResponse::Ok()
            .content_type("audio/mpeg")
            .body(body.as_ref().clone()),
        Some(Served::Page(html)) => HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .body(html),
        Some(Served::Slow { body, chunk, every }) => {
            let length = body.len() as u64;
            let stream = futures_util::stream::unfold(0usize, move |offset| {
                let body = Arc::clone(&body);
                async move {
                    if offset >= body.len() {
                        return None;
                    }
                    if offset > 0 {
                        tokio::time::sleep(every).await;
                    }
                    let end = (offset + chunk).min(body.len());
                    let part = actix_web::web::Bytes::copy_from_slice(&body[offset..end]);
                    Some((Ok::<_, std::io::Error>(part), end))
                }
            });
            HttpResponse::Ok()
                .content_type("audio/mpeg")
                .no_chunking(length)
                .streaming(stream)
        }
    }
}

async fn serve_info(state: web::Data<Mutex<State>>, file: web::Path<String>) -> HttpResponse {
    let id = file.into_inner().trim_end_matches(".json").to_owned();
    let info = {
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        *state.requests.entry(format!("info/{id}")).or_default() += 1;
        state.infos.get(&id).cloned()
    };
    match info {
        Some(info) => HttpResponse::Ok().json(info),
        None => HttpResponse::NotFound().body("Video unavailable"),
    }
}

async fn serve_caption(state: web::Data<Mutex<State>>, file: web::Path<String>) -> HttpResponse {
    let name = file.into_inner();
    let caption = {
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        *state
            .requests
            .entry(format!("captions/{name}"))
            .or_default() += 1;
        state.captions.get(&name).cloned()
    };
    match caption {
        Some(Caption::Body(body)) => HttpResponse::Ok()
            .content_type("application/json; charset=UTF-8")
            .body(body.as_ref().clone()),
        Some(Caption::RateLimited) => HttpResponse::TooManyRequests()
            .content_type("text/html; charset=UTF-8")
            .body("<html><title>Error 429 (Too Many Requests)!!1</title></html>"),
        None => HttpResponse::NotFound().finish(),
    }
}

impl MediaServer {
    /// Binds `127.0.0.1:0` and serves inside the current tokio runtime.
    ///
    /// # Panics
    /// If no loopback port can be bound.
    pub async fn start() -> Self {
        let listener = std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .expect("bind a loopback port for the media server");
        let addr = listener.local_addr().expect("the media server's address");
        let state = Arc::new(Mutex::new(State::default()));
        let data = web::Data::from(Arc::clone(&state));
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .route("/media/{file}", web::get().to(serve))
                .route("/info/{file}", web::get().to(serve_info))
                .route("/captions/{file}", web::get().to(serve_caption))
        })
        .workers(2)
        .disable_signals()
        .shutdown_timeout(1)
        .listen(listener)
        .expect("serve on the bound listener")
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Self {
            state,
            addr,
            server: handle,
        }
    }

    fn with_state<T>(&self, change: impl FnOnce(&mut State) -> T) -> T {
        change(&mut self.state.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The watch URL template: `http://127.0.0.1:PORT/media/{id}.mp3`.
    #[must_use]
    pub fn watch_url(&self) -> String {
        format!("http://{}/media/{{id}}.mp3", self.addr)
    }

    /// Serves `body` as `id`'s MP3.
    pub fn add_audio(&self, id: &str, body: Vec<u8>) {
        self.with_state(|state| {
            state
                .files
                .insert(id.to_owned(), Served::Audio(Arc::new(body)));
        });
    }

    /// Serves `body` as `id`'s MP3, `chunk` bytes every `every`.
    pub fn add_slow_audio(&self, id: &str, body: Vec<u8>, chunk: usize, every: Duration) {
        self.with_state(|state| {
            state.files.insert(
                id.to_owned(),
                Served::Slow {
                    body: Arc::new(body),
                    chunk: chunk.max(1),
                    every,
                },
            );
        });
    }

    /// Serves an HTML page (not audio) for `id`.
    pub fn add_page(&self, id: &str, html: &str) {
        self.with_state(|state| {
            state
                .files
                .insert(id.to_owned(), Served::Page(html.to_owned()));
        });
    }

    /// The base URL: `http://127.0.0.1:PORT`.
    #[must_use]
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves `info` as the info JSON of the video `id` (read by the yt-dlp plugin of
    /// `youtube_site.rs` from the video's page URL).
    pub fn add_info(&self, id: &str, info: serde_json::Value) {
        self.with_state(|state| {
            state.infos.insert(id.to_owned(), info);
        });
    }

    /// Serves `body` as the caption file `name` (`/captions/NAME`).
    pub fn add_caption(&self, name: &str, body: Vec<u8>) {
        self.with_state(|state| {
            state
                .captions
                .insert(name.to_owned(), Caption::Body(Arc::new(body)));
        });
    }

    /// Answers the caption file `name` with HTTP 429.
    pub fn rate_limit_caption(&self, name: &str) {
        self.with_state(|state| {
            state.captions.insert(name.to_owned(), Caption::RateLimited);
        });
    }

    /// How often `id` was asked for: a media id, or `info/ID` and `captions/NAME`.
    #[must_use]
    pub fn requests(&self, id: &str) -> u32 {
        self.with_state(|state| state.requests.get(id).copied().unwrap_or(0))
    }
}

/// The yt-dlp binary the tests run: `SCRIBEVAULT_TEST_YTDLP`, else the venv of
/// `scripts/install-media-tools.sh`, else `yt-dlp` on the PATH; ffmpeg must be installed too.
/// `None` (after a loud message) when missing outside CI.
///
/// # Panics
/// Under CI when yt-dlp or ffmpeg is missing.
#[must_use]
pub fn ytdlp(test_name: &str) -> Option<String> {
    let venv = std::env::var("HOME")
        .map(|home| PathBuf::from(home).join(".cache/scribevault/yt-dlp-venv/bin/yt-dlp"))
        .ok()
        .filter(|path| path.is_file())
        .map(|path| path.to_string_lossy().into_owned());
    let candidate = std::env::var(YTDLP_ENV)
        .ok()
        .filter(|path| !path.is_empty())
        .or(venv)
        .unwrap_or_else(|| "yt-dlp".to_owned());
    let runs = |program: &str, arg: &str| {
        std::process::Command::new(program)
            .arg(arg)
            .output()
            .is_ok_and(|output| output.status.success())
    };
    if runs(&candidate, "--version") && runs("ffmpeg", "-version") && runs("ffprobe", "-version") {
        return Some(candidate);
    }
    let message = format!(
        "{test_name}: yt-dlp ({candidate}) or ffmpeg is missing; run scripts/install-media-tools.sh"
    );
    assert!(!crate::in_ci(), "{message} (CI=true: this test must run)");
    eprintln!("\n*** SKIPPED *** {message}\n");
    None
}
