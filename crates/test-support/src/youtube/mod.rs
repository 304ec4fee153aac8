//! A fake of the YouTube Data API v3, served over HTTP on a loopback port, written from Google's
//! reference documentation and real responses: `channels`, `playlistItems`, `videos`,
//! `playlists` and `search` (`list` methods, API-key access only).
//!
//! It answers in the real wire format (kinds, etags, `pageInfo`, opaque page tokens, counts as
//! strings, `items` left out when `channels.list` or `playlists.list` match nothing), charges the
//! documented quota costs per key (1 unit per list call, 100 per search, charged even when the
//! call fails), and answers with Google's error envelopes: `quotaExceeded` (403), an invalid key
//! (400 `API_KEY_INVALID`), a missing key (403 `forbidden`), `playlistNotFound` (404),
//! `invalidPageToken`, `invalidFilters` (more than 50 ids), `missingRequiredParameter`,
//! `incompatibleParameters`, `unknownPart`, `authorizationRequired` (`mine`, 401).
//!
//! ```no_run
//! # async fn demo() {
//! use scribevault_test_support::youtube::{FakeChannel, FakeYouTube, channel_id};
//! let youtube = FakeYouTube::start().await;
//! youtube.add_channel(FakeChannel::generated(&channel_id(1), "Demo", 120).with_handle("@demo"));
//! let url = format!("{}/channels?part=contentDetails&forHandle=@demo&key=k", youtube.base_url());
//! # }
//! ```

mod api;
mod endpoints;
mod errors;
mod ids;
mod model;
mod params;
mod state;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use actix_web::dev::ServerHandle;
use actix_web::{App, HttpRequest, HttpResponse, HttpServer, web};

pub use ids::{channel_id, video_id};
pub use model::{FakeChannel, FakePlaylist, FakeVideo, Visibility, iso_duration};
pub use state::RecordedCall;

use api::Body;
use state::State;

/// The demo playlist [`FakeYouTube::seed_demo`] adds.
pub const DEMO_PLAYLIST_ID: &str = "PLscribevaultdemo0000000000000001";

/// A running fake. Clones share the server and its state; the server stops when the last clone
/// is dropped.
#[derive(Clone)]
pub struct FakeYouTube {
    inner: Arc<Inner>,
}

struct Inner {
    state: Arc<Mutex<State>>,
    base_url: String,
    server: ServerHandle,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // `stop` sends the command at once; the returned future only waits for completion.
        drop(self.server.stop(false));
    }
}

impl FakeYouTube {
    /// Binds `127.0.0.1:0` and serves inside the current tokio runtime.
    ///
    /// # Panics
    /// If no loopback port can be bound or no tokio runtime is running.
    pub async fn start() -> Self {
        Self::start_on_port(0).await
    }

    /// Like [`start`](Self::start), on `127.0.0.1:port` (0 for any free port).
    ///
    /// # Panics
    /// If the port cannot be bound or no tokio runtime is running.
    pub async fn start_on_port(port: u16) -> Self {
        let listener = std::net::TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], port)))
            .expect("bind a loopback port for the YouTube fake");
        let addr = listener.local_addr().expect("the fake's local address");
        let state = Arc::new(Mutex::new(State::default()));
        let data = web::Data::from(Arc::clone(&state));
        let server = HttpServer::new(move || {
            App::new()
                .app_data(data.clone())
                .route("/youtube/v3/{endpoint}", web::get().to(serve))
                .default_service(web::to(serve_unknown))
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
            inner: Arc::new(Inner {
                state,
                base_url: format!("http://{addr}/youtube/v3"),
                server: handle,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// `http://127.0.0.1:PORT/youtube/v3`, without a trailing slash.
    #[must_use]
    pub fn base_url(&self) -> String {
        self.inner.base_url.clone()
    }

    /// Adds (or replaces) a channel and its uploads.
    pub fn add_channel(&self, channel: FakeChannel) {
        self.state().add_channel(channel);
    }

    /// Adds (or replaces) a playlist. Its videos join the global video table (a video already
    /// uploaded by a channel keeps that channel as its owner; others are owned by the
    /// playlist's channel).
    pub fn add_playlist(&self, playlist: FakePlaylist) {
        self.state().add_playlist(playlist);
    }

    /// New uploads (newest first) go to the front of the channel's uploads, as when a channel
    /// publishes.
    ///
    /// # Panics
    /// If the channel was never added.
    pub fn publish(&self, channel_id: &str, videos: Vec<FakeVideo>) {
        assert!(
            self.state().publish(channel_id, videos),
            "publish: the YouTube fake has no channel {channel_id}"
        );
    }

    /// Changes a video's visibility wherever it is listed (a video made private, deleted, or a
    /// stream going live or ending).
    ///
    /// # Panics
    /// If the video is unknown.
    pub fn set_visibility(&self, video_id: &str, visibility: Visibility) {
        assert!(
            self.state().set_visibility(video_id, visibility),
            "set_visibility: the YouTube fake has no video {video_id}"
        );
    }

    /// Delays every response by `latency`; requests are still served concurrently.
    pub fn set_latency(&self, latency: Duration) {
        self.state().latency = latency;
    }

    /// The units `key` may spend per day (default 10,000).
    pub fn set_daily_quota(&self, key: &str, units: u64) {
        self.state().set_daily_quota(key, units);
    }

    /// From now on `key` is refused with `API_KEY_INVALID`.
    pub fn invalidate_key(&self, key: &str) {
        self.state().invalidate_key(key);
    }

    /// The units `key` has spent today.
    #[must_use]
    pub fn quota_used(&self, key: &str) -> u64 {
        self.state().quota_used(key)
    }

    /// Midnight Pacific time: every key's spent units go back to zero (calls stay recorded).
    pub fn new_day(&self) {
        self.state().new_day();
    }

    /// Every request received, in arrival order.
    #[must_use]
    pub fn calls(&self) -> Vec<RecordedCall> {
        self.state().calls.clone()
    }

    /// The sum of [`RecordedCall::units`] over [`calls`](Self::calls).
    #[must_use]
    pub fn units_spent(&self) -> u64 {
        self.state().calls.iter().map(|call| call.units).sum()
    }

    /// Forgets the recorded calls (quota already spent stays spent).
    pub fn reset_calls(&self) {
        self.state().calls.clear();
    }

    /// Seeds the demo data of the `fake-youtube` binary: channel `channel_id(1)` "Scribevault
    /// Demo" (`@scribevault-demo`, 120 generated videos) and the playlist
    /// [`DEMO_PLAYLIST_ID`] "Demo playlist" holding every fourth of them (30 videos).
    pub fn seed_demo(&self) {
        let channel = FakeChannel::generated(&channel_id(1), "Scribevault Demo", 120)
            .with_handle("@scribevault-demo");
        let picked = channel.videos.iter().step_by(4).cloned().collect();
        let playlist = FakePlaylist::new(DEMO_PLAYLIST_ID, &channel.id, "Demo playlist", picked);
        self.add_channel(channel);
        self.add_playlist(playlist);
    }
}

async fn serve(request: HttpRequest, state: web::Data<Mutex<State>>) -> HttpResponse {
    let endpoint = request.match_info().get("endpoint").unwrap_or_default();
    answer(&state, Endpoint::Named(endpoint), request.query_string()).await
}

async fn serve_unknown(request: HttpRequest, state: web::Data<Mutex<State>>) -> HttpResponse {
    let path = request.path();
    let name = path.strip_prefix("/youtube/v3/").unwrap_or(path);
    // Only GET list calls exist here; any other path or method is not found.
    let label = if request.method() == actix_web::http::Method::GET {
        name.to_string()
    } else {
        format!("{} {name}", request.method())
    };
    answer(&state, Endpoint::Unknown(&label), request.query_string()).await
}

/// What a request asked for.
enum Endpoint<'a> {
    /// `/youtube/v3/{name}`: a list method, or not found when the name is unknown.
    Named(&'a str),
    /// Any other path or method, recorded under this label.
    Unknown(&'a str),
}

async fn answer(state: &Mutex<State>, endpoint: Endpoint<'_>, query: &str) -> HttpResponse {
    let (reply, latency) = {
        let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
        let reply = match endpoint {
            Endpoint::Named(name) => api::handle(&mut state, name, query),
            Endpoint::Unknown(label) => api::handle_unknown(&mut state, label, query),
        };
        (reply, state.latency)
    };
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let status = actix_web::http::StatusCode::from_u16(reply.status)
        .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR);
    match reply.body {
        Body::Json(value) => {
            let text = if reply.pretty {
                serde_json::to_string_pretty(&value)
            } else {
                serde_json::to_string(&value)
            }
            .unwrap_or_default();
            HttpResponse::build(status)
                .content_type("application/json; charset=UTF-8")
                .body(text)
        }
        Body::Html(html) => HttpResponse::build(status)
            .content_type("text/html; charset=UTF-8")
            .body(html),
    }
}
