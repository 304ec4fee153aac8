//! Layered settings: built-in defaults, then an optional TOML file, then the environment.
//!
//! Keys are flat so that each one has exactly one environment name, `SCRIBEVAULT_<KEY>`
//! (upper case), which is what Kubernetes ConfigMaps and Secrets feed most naturally. Settings are
//! loaded and validated once at start and passed down; nothing reads the environment later.
//! `docs/configuration.md` documents every key.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use secrecy::SecretString;
use serde::Deserialize;

/// Built-in defaults; the same keys may appear in the optional settings file.
const DEFAULTS_TOML: &str = r#"
data_dir = "./data"
http_addr = "127.0.0.1:8080"
frontend_dir = "frontend/dist"
s3_bucket = "scribevault"
s3_region = "us-east-1"
auth = "local"
youtube_api_base = "https://www.googleapis.com/youtube/v3"
log_format = "text"
max_upload_bytes = 524288000
openai_wait_seconds = 3600
openai_transcodes = 2
openai_transcodes_per_user = 1
max_json_bytes = 1048576
token_ttl_seconds = 900
session_ttl_seconds = 604800
session_lifetime_seconds = 2592000
login_attempts_per_minute = 10
signup = "invite"
invitation_hours = 72
grpc_reflection = false
argon2_concurrency = 0
oidc_jwks_refetch_seconds = 60
whisper_threads = 2
whisper_concurrency = 1
max_retries = 10
retry_base_delay_seconds = 5
worker_stale_seconds = 15
max_take_backs = 3
max_waiting_files_per_user = 1000
max_deliveries = 5
retry_max_delay_seconds = 300
housekeeping_interval_ms = 1000
resend_ingests_within_seconds = 3600
whisper_language = "en"
default_model = "small"
s3_part_size_bytes = 8388608
database_max_connections = 10
whisper_stall_seconds = 600
max_audio_seconds = 43200
vad = true
whisper_window_seconds = 120
whisper_no_context = false
whisper_max_text_context = 128
library_ingest_concurrency = 1
embedding_threads = 1
export_link_seconds = 600
youtube_daily_quota = 10000
youtube_units_per_user_per_day = 2000
youtube_cache_seconds = 3600
ytdlp_path = "yt-dlp"
youtube_watch_url = "https://www.youtube.com/watch?v={id}"
download_concurrency = 2
max_active_download_jobs_per_user = 20
download_retries = 3
download_timeout_seconds = 3600
download_stale_seconds = 20
captions_sleep_seconds = 5
scheduler_interval_ms = 15000
max_pdf_bytes = 104857600
pdf_timeout_seconds = 120
max_pdf_pages = 2000
pdftoppm_path = "pdftoppm"
tesseract_path = "tesseract"
ocr_page_timeout_seconds = 120
ocr_timeout_seconds = 1800
pdf_max_inflated_mb = 512
cleanup_interval_seconds = 86400
"#;

/// S3's smallest multipart part (every part but the last).
const S3_MIN_PART_SIZE: u64 = 5 * 1024 * 1024;

/// The Silero VAD model's file name in the model directory (`scripts/install-vad-model.sh`
/// builds it from the `silero-vad` wheel).
pub const VAD_MODEL_FILE: &str = "ggml-silero-v6.2.0.bin";

/// The sentence-embedding model's file in the model directory.
pub const EMBEDDING_MODEL_FILE: &str = "e5-small-q4.bin";

/// A setting that cannot be used; the message names the environment key.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// A key has a value that cannot be parsed or is not allowed.
    #[error("invalid setting {key}: {reason}")]
    Invalid {
        /// The environment name of the key, e.g. `SCRIBEVAULT_AUTH`.
        key: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The layered sources could not be read or merged.
    #[error("cannot read settings: {0}")]
    Source(String),
}

impl SettingsError {
    /// A value a service's own configuration refuses (services validate their keys in their
    /// `config.rs`, with the same error the loader gives).
    pub fn invalid(key: &'static str, reason: impl Into<String>) -> Self {
        Self::Invalid {
            key,
            reason: reason.into(),
        }
    }
}

/// How the gateway authenticates users.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    /// Built-in accounts (argon2 password hashes, JWTs signed with a key in the data dir).
    Local,
    /// Tokens issued by an external OIDC provider such as Auth0, verified against its JWKS.
    Oidc,
}

/// Every setting of every target. Each target reads only what it needs.
#[derive(Debug, Clone, Deserialize)]
pub struct Settings {
    /// Where local files live: the SQLite database, blobs, the local signing key.
    pub data_dir: PathBuf,
    /// Address the gateway's HTTP server binds.
    pub http_addr: String,
    /// The instance's public base URL (`https://vault.example.com`), the base of the links
    /// podcast feeds carry; unset: the request's origin through the trusted proxies.
    #[serde(default)]
    pub public_url: Option<String>,
    /// Built SPA served by the gateway.
    pub frontend_dir: PathBuf,
    /// `sqlite://…` or `postgres://…`; unset means a SQLite file in the data dir.
    #[serde(default)]
    pub database_url: Option<String>,
    /// RabbitMQ URL; unset means the in-process bus (monolithic mode only).
    #[serde(default)]
    pub amqp_url: Option<String>,
    /// Redis URL; unset means an in-process cache.
    #[serde(default)]
    pub redis_url: Option<String>,
    /// S3 endpoint; unset means blobs on the local filesystem under the data dir.
    #[serde(default)]
    pub s3_endpoint: Option<String>,
    /// S3 bucket (created at start when missing).
    pub s3_bucket: String,
    /// S3 region.
    pub s3_region: String,
    /// `local` or `oidc`.
    pub auth: String,
    /// OIDC issuer URL, e.g. `https://tenant.eu.auth0.com/`.
    #[serde(default)]
    pub oidc_issuer: Option<String>,
    /// Expected `aud` of access tokens.
    #[serde(default)]
    pub oidc_audience: Option<String>,
    /// Least time between two fetches of the issuer's key set (an unknown `kid` triggers one).
    pub oidc_jwks_refetch_seconds: u64,
    /// The SPA's OIDC client id (handed out through `/config.json`).
    #[serde(default)]
    pub oidc_client_id: Option<String>,
    /// Directory of `ggml-<model>.bin` files; unset means `<data_dir>/models`.
    #[serde(default)]
    pub whisper_model_dir: Option<PathBuf>,
    /// Comma-separated model names the deployment offers (e.g. `small,base.en`). Unset: the
    /// `ggml-<name>.bin` files found in the model directory. Set it where the transcription
    /// service does not share the workers' model volume.
    #[serde(default)]
    pub whisper_models: Option<String>,
    /// Whisper threads per transcription.
    pub whisper_threads: u32,
    /// Files transcribed at once per worker process.
    pub whisper_concurrency: u32,
    /// Automatic retries of a failed transcription before it is `failed`.
    pub max_retries: u32,
    /// Delay before the first automatic retry; it doubles each time (at most 5 minutes).
    pub retry_base_delay_seconds: u64,
    /// A transcribing file whose worker has not reported for this long goes to another worker.
    pub worker_stale_seconds: u64,
    /// Times a file may be taken back from a worker that went silent (out of memory, a crash)
    /// before it fails for good instead of being queued again (at least 1).
    pub max_take_backs: u32,
    /// Files one user may have waiting for transcription (pending, scheduled, transcribing or
    /// retrying); a start or schedule that would go over it is refused as a whole (at least 1).
    pub max_waiting_files_per_user: u64,
    /// Deliveries of one work message before it is dead-lettered (`<queue>.dead`).
    pub max_deliveries: u32,
    /// Vault ingest messages the library handles at once (1 keeps `libraryUpdate` events in
    /// completion order).
    pub library_ingest_concurrency: u32,
    /// Key that signs the Vault's export links (at least 32 bytes). Unset: a random key kept
    /// in `<data_dir>/library/export-link.key`; replicas must then share the data dir.
    #[serde(default)]
    pub export_link_key: Option<SecretString>,
    /// How long an export link works.
    pub export_link_seconds: u64,
    /// A file whose whisper progress has not moved for this long fails the worker's liveness
    /// probe, so the orchestrator restarts a worker stuck inside whisper.cpp.
    pub whisper_stall_seconds: u64,
    /// Where the worker serves its gRPC liveness probe (`transcription-worker` target only;
    /// default `0.0.0.0:8081`, port 0 picks a free one).
    #[serde(default)]
    pub worker_health_addr: Option<String>,
    /// Longest delay between two automatic retries of a failed transcription.
    pub retry_max_delay_seconds: u64,
    /// How often the transcription service queues due retries, opens scheduled jobs and hands
    /// back files whose worker went silent.
    pub housekeeping_interval_ms: u64,
    /// At start, files completed this recently are handed to the library again (with the
    /// in-process bus a crash can lose the hand-off; ingest is idempotent).
    pub resend_ingests_within_seconds: u64,
    /// The spoken language Whisper is told to expect (`en`, `de`, …, or `auto` to detect it)
    /// for files of jobs that recorded none (made before users chose a language; every newer
    /// job carries its owner's `transcriptionLanguage`).
    pub whisper_language: String,
    /// Audio longer than this is refused at upload and not transcribed (default 12 hours).
    pub max_audio_seconds: u64,
    /// Skip silence with Silero VAD before whisper (the model is
    /// `ggml-silero-v6.2.0.bin` in the model directory unless `vad_model` says otherwise;
    /// without it files are transcribed whole, with a warning).
    pub vad: bool,
    /// The ggml Silero VAD model; unset: `<model dir>/ggml-silero-v6.2.0.bin`.
    #[serde(default)]
    pub vad_model: Option<PathBuf>,
    /// The sentence-embedding model search by meaning uses; unset:
    /// `<model dir>/e5-small-q4.bin`. Without it, search finds words only.
    #[serde(default)]
    pub embedding_model: Option<PathBuf>,
    /// Threads one embedding call uses (the back-fill runs one call at a time, so
    /// transcription keeps the other cores).
    pub embedding_threads: u32,
    /// Long audio is transcribed in windows of at most this many seconds, cut at the quietest
    /// moment near their end, so memory does not grow with the file (at least 30).
    pub whisper_window_seconds: u32,
    /// Decode each 30 s stretch without the previous text as prompt (stops repetition loops
    /// from spreading, at a small accuracy cost).
    pub whisper_no_context: bool,
    /// Tokens of earlier text whisper is given as its prompt (0 to 224). Each costs about
    /// 200 KB and a vocabulary-wide product in every decoder window; 224 is whisper.cpp's most.
    pub whisper_max_text_context: u32,
    /// The model used when a request names none.
    pub default_model: String,
    /// Size of each part of an S3 multipart upload (at least 5 MiB, S3's minimum).
    pub s3_part_size_bytes: u64,
    /// S3 access key id; `AWS_ACCESS_KEY_ID` when unset.
    #[serde(default)]
    pub s3_access_key_id: Option<SecretString>,
    /// S3 secret access key; `AWS_SECRET_ACCESS_KEY` when unset. Never logged.
    #[serde(default)]
    pub s3_secret_access_key: Option<SecretString>,
    /// Most database connections one process holds (SQLite: at most 4, one writer at a time).
    pub database_max_connections: u32,
    /// YouTube Data API keys, comma-separated; the next is used when one's daily quota runs
    /// out. Never logged.
    #[serde(default)]
    pub youtube_api_key: Option<SecretString>,
    /// Units each YouTube API key may spend a day (Google's default project quota).
    pub youtube_daily_quota: u64,
    /// YouTube API units one user's searches, sources and syncs may spend a Pacific day, all
    /// keys together: the keys are the instance's, shared by every user.
    pub youtube_units_per_user_per_day: u64,
    /// How long a channel's cached videos answer a search without calling the API.
    pub youtube_cache_seconds: u64,
    /// YouTube Data API base URL (tests point it at a local fake).
    pub youtube_api_base: String,
    /// The yt-dlp executable: a path, or a name looked up on the `PATH`.
    pub ytdlp_path: String,
    /// The page yt-dlp downloads a video's audio from; `{id}` is replaced by the video id
    /// (tests point it at a local server of MP3 files).
    pub youtube_watch_url: String,
    /// Download jobs one discovery process runs at once (each downloads one video at a time).
    pub download_concurrency: usize,
    /// Download jobs one user may have not yet finished (pending or running); a new job, or a
    /// retry, past it is refused (at least 1).
    pub max_active_download_jobs_per_user: u64,
    /// yt-dlp's retries of a failed request or fragment (`-R`, `--fragment-retries`).
    pub download_retries: u32,
    /// yt-dlp's download rate limit, like `2M` or `500K` (`--limit-rate`); none when unset.
    #[serde(default)]
    pub download_rate_limit: Option<String>,
    /// Longest one video's download may take before yt-dlp is stopped and the video fails.
    pub download_timeout_seconds: u64,
    /// A running download job whose runner has not written for this long is taken over (its
    /// process died).
    pub download_stale_seconds: u64,
    /// yt-dlp's `--sleep-subtitles` before each video's captions are fetched: YouTube answers
    /// 429 to caption requests that come too fast (yt-dlp #2212, #13770). 0 sleeps not at all.
    pub captions_sleep_seconds: u64,
    /// How often discovery looks for due schedules and abandoned download jobs.
    pub scheduler_interval_ms: u64,
    /// Largest PDF conversion accepts, in bytes (larger ones answer 413).
    pub max_pdf_bytes: u64,
    /// Longest one PDF's conversion may take before it is answered as unconvertible.
    pub pdf_timeout_seconds: u64,
    /// Most pages of one PDF that are converted (a guard against runaway files).
    pub max_pdf_pages: u32,
    /// poppler's `pdftoppm`, which renders pages for OCR: a path or a name on the `PATH`.
    pub pdftoppm_path: String,
    /// The `tesseract` OCR command: a path or a name on the `PATH`.
    pub tesseract_path: String,
    /// Longest OCR of one page (rendering and recognition each) before the child is killed.
    pub ocr_page_timeout_seconds: u64,
    /// Longest OCR of one document, all its pages together.
    pub ocr_timeout_seconds: u64,
    /// Most megabytes a PDF's compressed text streams may expand to, all together (a guard
    /// against decompression bombs; it bounds the parser's memory).
    pub pdf_max_inflated_mb: u64,
    /// How often storage sweeps the MP3s of users with automatic clean-up on.
    pub cleanup_interval_seconds: u64,
    /// `text` or `json`.
    pub log_format: String,
    /// Largest accepted upload in bytes.
    pub max_upload_bytes: u64,
    /// Largest accepted JSON body in bytes.
    pub max_json_bytes: usize,
    /// Lifetime of a locally issued access token; the SPA renews it while its session lasts.
    pub token_ttl_seconds: u64,
    /// A local session ends when it has not been renewed for this long (sign-in again).
    pub session_ttl_seconds: u64,
    /// A local session ends this long after its sign-in, however often it was renewed, so a
    /// refresh secret copied once is worth a bounded time at most.
    pub session_lifetime_seconds: u64,
    /// Failed logins allowed per account and client pair (and, more loosely, per client) each
    /// minute before the pair backs off exponentially.
    pub login_attempts_per_minute: u32,
    /// Who may create a local account: `open` (anyone), `invite` (with an invitation from an
    /// admin) or `closed`. The very first account of an instance is always allowed and becomes
    /// its admin.
    pub signup: String,
    /// Default lifetime of an invitation link.
    pub invitation_hours: u64,
    /// Comma-separated CIDRs of reverse proxies whose `Forwarded`/`X-Forwarded-For` and
    /// `X-Forwarded-Proto` are believed. Unset: the socket peer is the client.
    #[serde(default)]
    pub trusted_proxies: Option<String>,
    /// Where `/metrics` and the verbose readiness are served (never on the public port).
    /// Unset: `127.0.0.1:0` in `all` mode, logged at start.
    #[serde(default)]
    pub admin_http_addr: Option<String>,
    /// Serves gRPC server reflection (a debugging aid that hands out the whole internal API).
    pub grpc_reflection: bool,
    /// Lets webhooks call loopback, private, link-local and other non-public addresses
    /// (receivers on the instance's own network). Off, a member cannot aim the gateway at
    /// the instance's internal services or the cloud's metadata endpoint.
    #[serde(default)]
    pub webhooks_allow_private: bool,
    /// Lets members' webhooks call ports other than 80 and 443 (`false`: a webhook could
    /// otherwise probe any port of any public host from the instance's address).
    #[serde(default)]
    pub webhooks_allow_any_port: bool,
    /// Longest a `POST /v1/audio/transcriptions` request waits for its file to be transcribed
    /// (its turn in the queue included) before answering 504; the transcription goes on.
    pub openai_wait_seconds: u64,
    /// OpenAI-style uploads spooled and transcoded at once on one gateway; past it a request
    /// answers 429 with `Retry-After` before reading its file.
    pub openai_transcodes: usize,
    /// The same, for one member (their API tokens and sessions together).
    pub openai_transcodes_per_user: usize,
    /// Key (at least 32 bytes) that signs the identity assertions services trust. Required
    /// when services run as separate processes; `scribevault all` makes a random one.
    #[serde(default)]
    pub service_key: Option<SecretString>,
    /// Key (at least 32 bytes) that signs local access tokens. Unset: a random key kept in
    /// `<data_dir>/auth/jwt-hs256.key`; gateway replicas must then share the data dir.
    #[serde(default)]
    pub jwt_key: Option<SecretString>,
    /// Password hashes computed at once (argon2 takes 19 MiB and a core each); 0 means one per
    /// core. Beyond it a sign-in waits briefly, then answers 503.
    pub argon2_concurrency: usize,
    /// OIDC mode: comma-separated emails allowed in (case-insensitive).
    #[serde(default)]
    pub oidc_allowed_emails: Option<String>,
    /// OIDC mode: comma-separated email domains allowed in.
    #[serde(default)]
    pub oidc_allowed_domains: Option<String>,
    /// OIDC mode: `claim=value` a token must carry (a string equal to the value, or an array
    /// containing it), e.g. `https://scribevault/roles=member`.
    #[serde(default)]
    pub oidc_required_claim: Option<String>,
    /// Comma-separated emails that are admins (OIDC mode; in local mode the first account is).
    #[serde(default)]
    pub admin_emails: Option<String>,
    /// gRPC address of the discovery service (`host:port`).
    #[serde(default)]
    pub discovery_grpc_addr: Option<String>,
    /// gRPC address of the storage service.
    #[serde(default)]
    pub storage_grpc_addr: Option<String>,
    /// gRPC address of the transcription service.
    #[serde(default)]
    pub transcription_grpc_addr: Option<String>,
    /// gRPC address of the conversion service.
    #[serde(default)]
    pub conversion_grpc_addr: Option<String>,
    /// gRPC address of the library service.
    #[serde(default)]
    pub library_grpc_addr: Option<String>,
    /// gRPC address of the webhook service.
    #[serde(default)]
    pub webhooks_grpc_addr: Option<String>,
}

impl Settings {
    /// Loads defaults, then `file` if given, then `SCRIBEVAULT_*` environment variables, and
    /// validates the result.
    ///
    /// # Errors
    /// A [`SettingsError`] naming the first bad key.
    pub fn load(file: Option<&Path>) -> Result<Self, SettingsError> {
        Self::load_from(file, std::env::vars())
    }

    /// Like [`Settings::load`] with an explicit environment, so tests need not mutate the
    /// process environment.
    ///
    /// # Errors
    /// A [`SettingsError`] naming the first bad key.
    pub fn load_from(
        file: Option<&Path>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Self, SettingsError> {
        let mut builder = config::Config::builder().add_source(config::File::from_str(
            DEFAULTS_TOML,
            config::FileFormat::Toml,
        ));
        if let Some(file) = file {
            builder = builder.add_source(config::File::from(file).required(true));
        }
        let env: Vec<(String, String)> = env.into_iter().collect();
        let mut scribevault_env: config::Map<String, String> = env
            .iter()
            .filter(|(key, value)| key.starts_with("SCRIBEVAULT_") && !value.trim().is_empty())
            .cloned()
            .collect();
        // The AWS names are what S3 tooling, compose files and Kubernetes secrets use.
        for (aws_key, key) in [
            ("AWS_ACCESS_KEY_ID", "SCRIBEVAULT_S3_ACCESS_KEY_ID"),
            ("AWS_SECRET_ACCESS_KEY", "SCRIBEVAULT_S3_SECRET_ACCESS_KEY"),
        ] {
            if let Some((_, value)) = env
                .iter()
                .find(|(name, value)| name == aws_key && !value.trim().is_empty())
            {
                scribevault_env
                    .entry(key.to_owned())
                    .or_insert_with(|| value.clone());
            }
        }
        let env = scribevault_env;
        builder = builder.add_source(
            config::Environment::with_prefix("SCRIBEVAULT")
                .prefix_separator("_")
                .try_parsing(true)
                .source(Some(env)),
        );
        let settings: Self = builder
            .build()
            .and_then(config::Config::try_deserialize)
            .map_err(|e| SettingsError::Source(name_env_keys(&e.to_string())))?;
        settings.validate()?;
        Ok(settings)
    }

    fn validate(&self) -> Result<(), SettingsError> {
        self.validate_connections()?;
        self.validate_access()?;
        self.validate_limits()?;
        self.validate_service_addresses()
    }

    /// Where the process listens and what it connects to, and how it logs.
    fn validate_connections(&self) -> Result<(), SettingsError> {
        self.auth_mode()?;
        self.http_socket_addr()?;
        if let Some(url) = &self.database_url
            && !(url.starts_with("sqlite:")
                || url.starts_with("postgres://")
                || url.starts_with("postgresql://"))
        {
            return Err(invalid(
                "SCRIBEVAULT_DATABASE_URL",
                "expected sqlite:… or postgres://…",
            ));
        }
        check_url(
            "SCRIBEVAULT_AMQP_URL",
            self.amqp_url.as_deref(),
            &["amqp", "amqps"],
        )?;
        check_url(
            "SCRIBEVAULT_REDIS_URL",
            self.redis_url.as_deref(),
            &["redis", "rediss"],
        )?;
        check_url(
            "SCRIBEVAULT_S3_ENDPOINT",
            self.s3_endpoint.as_deref(),
            &["http", "https"],
        )?;
        check_url(
            "SCRIBEVAULT_OIDC_ISSUER",
            self.oidc_issuer.as_deref(),
            &["http", "https"],
        )?;
        check_url(
            "SCRIBEVAULT_YOUTUBE_API_BASE",
            Some(&self.youtube_api_base),
            &["http", "https"],
        )?;
        if !matches!(self.log_format.as_str(), "text" | "json") {
            return Err(invalid("SCRIBEVAULT_LOG_FORMAT", "expected text or json"));
        }
        Ok(())
    }

    /// Sign-in: the auth mode's requirements, proxies, keys and token lifetimes.
    fn validate_access(&self) -> Result<(), SettingsError> {
        if self.auth_mode()? == AuthMode::Oidc {
            if self.oidc_issuer.is_none() {
                return Err(invalid(
                    "SCRIBEVAULT_OIDC_ISSUER",
                    "required when SCRIBEVAULT_AUTH=oidc",
                ));
            }
            if self.oidc_audience.is_none() {
                return Err(invalid(
                    "SCRIBEVAULT_OIDC_AUDIENCE",
                    "required when SCRIBEVAULT_AUTH=oidc",
                ));
            }
        }
        if !matches!(self.signup.as_str(), "open" | "invite" | "closed") {
            return Err(invalid(
                "SCRIBEVAULT_SIGNUP",
                "expected open, invite or closed",
            ));
        }
        if let Some(proxies) = &self.trusted_proxies {
            for cidr in list(proxies) {
                crate::net::Cidr::parse(cidr).map_err(|reason| {
                    invalid("SCRIBEVAULT_TRUSTED_PROXIES", format!("{cidr:?}: {reason}"))
                })?;
            }
        }
        if let Some(claim) = &self.oidc_required_claim
            && claim
                .split_once('=')
                .is_none_or(|(name, _)| name.trim().is_empty())
        {
            return Err(invalid(
                "SCRIBEVAULT_OIDC_REQUIRED_CLAIM",
                "expected claim=value",
            ));
        }
        for (key, secret) in [
            ("SCRIBEVAULT_SERVICE_KEY", &self.service_key),
            ("SCRIBEVAULT_JWT_KEY", &self.jwt_key),
        ] {
            if let Some(secret) = secret
                && secrecy::ExposeSecret::expose_secret(secret).len() < 32
            {
                return Err(invalid(key, "must be at least 32 bytes"));
            }
        }
        if self.token_ttl_seconds < 5 || self.session_ttl_seconds < self.token_ttl_seconds {
            return Err(invalid(
                "SCRIBEVAULT_TOKEN_TTL_SECONDS",
                "at least 5, and no longer than SCRIBEVAULT_SESSION_TTL_SECONDS",
            ));
        }
        if self.session_lifetime_seconds < self.token_ttl_seconds {
            return Err(invalid(
                "SCRIBEVAULT_SESSION_LIFETIME_SECONDS",
                "no shorter than SCRIBEVAULT_TOKEN_TTL_SECONDS",
            ));
        }
        Ok(())
    }

    /// Sizes, counts and intervals that must be positive or within a range.
    fn validate_limits(&self) -> Result<(), SettingsError> {
        if self.max_deliveries == 0 {
            return Err(invalid("SCRIBEVAULT_MAX_DELIVERIES", "must be at least 1"));
        }
        if self.housekeeping_interval_ms < 100 {
            return Err(invalid(
                "SCRIBEVAULT_HOUSEKEEPING_INTERVAL_MS",
                "must be at least 100",
            ));
        }
        if self.s3_part_size_bytes < S3_MIN_PART_SIZE {
            return Err(invalid(
                "SCRIBEVAULT_S3_PART_SIZE_BYTES",
                format!("must be at least {S3_MIN_PART_SIZE} (S3's smallest part)"),
            ));
        }
        if self
            .whisper_language
            .parse::<crate::language::LanguageChoice>()
            .is_err()
        {
            return Err(invalid(
                "SCRIBEVAULT_WHISPER_LANGUAGE",
                "a Whisper language code such as en, or auto",
            ));
        }
        if self.default_model.trim().is_empty() {
            return Err(invalid(
                "SCRIBEVAULT_DEFAULT_MODEL",
                "a model name such as small",
            ));
        }
        if self.database_max_connections == 0 {
            return Err(invalid(
                "SCRIBEVAULT_DATABASE_MAX_CONNECTIONS",
                "must be at least 1",
            ));
        }
        if self.whisper_window_seconds < 30 {
            return Err(invalid(
                "SCRIBEVAULT_WHISPER_WINDOW_SECONDS",
                "must be at least 30",
            ));
        }
        if self.whisper_max_text_context > 224 {
            return Err(invalid(
                "SCRIBEVAULT_WHISPER_MAX_TEXT_CONTEXT",
                "at most 224 (half of whisper's text context)",
            ));
        }
        if self.openai_transcodes == 0 || self.openai_transcodes_per_user == 0 {
            return Err(invalid(
                "SCRIBEVAULT_OPENAI_TRANSCODES",
                "SCRIBEVAULT_OPENAI_TRANSCODES and SCRIBEVAULT_OPENAI_TRANSCODES_PER_USER must be at least 1",
            ));
        }
        if self.max_audio_seconds == 0 {
            return Err(invalid(
                "SCRIBEVAULT_MAX_AUDIO_SECONDS",
                "must be at least 1",
            ));
        }
        if self.whisper_threads == 0 || self.embedding_threads == 0 {
            let key = if self.whisper_threads == 0 {
                "SCRIBEVAULT_WHISPER_THREADS"
            } else {
                "SCRIBEVAULT_EMBEDDING_THREADS"
            };
            return Err(invalid(key, "must be at least 1"));
        }
        if self.whisper_concurrency == 0 {
            return Err(invalid(
                "SCRIBEVAULT_WHISPER_CONCURRENCY",
                "must be at least 1",
            ));
        }
        Ok(())
    }

    /// The peers' `host:port` addresses.
    fn validate_service_addresses(&self) -> Result<(), SettingsError> {
        for (key, addr) in [
            ("SCRIBEVAULT_DISCOVERY_GRPC_ADDR", &self.discovery_grpc_addr),
            ("SCRIBEVAULT_STORAGE_GRPC_ADDR", &self.storage_grpc_addr),
            (
                "SCRIBEVAULT_TRANSCRIPTION_GRPC_ADDR",
                &self.transcription_grpc_addr,
            ),
            (
                "SCRIBEVAULT_CONVERSION_GRPC_ADDR",
                &self.conversion_grpc_addr,
            ),
            ("SCRIBEVAULT_LIBRARY_GRPC_ADDR", &self.library_grpc_addr),
            ("SCRIBEVAULT_WEBHOOKS_GRPC_ADDR", &self.webhooks_grpc_addr),
        ] {
            if let Some(addr) = addr {
                let host_port = addr.trim_start_matches("http://");
                if host_port
                    .rsplit_once(':')
                    .and_then(|(_, port)| port.parse::<u16>().ok())
                    .is_none()
                {
                    return Err(invalid(key, format!("expected host:port, got {addr:?}")));
                }
            }
        }
        Ok(())
    }

    /// The CIDRs of `SCRIBEVAULT_TRUSTED_PROXIES` (validated at load).
    #[must_use]
    pub fn trusted_proxy_ranges(&self) -> Vec<crate::net::Cidr> {
        self.trusted_proxies
            .as_deref()
            .map(|proxies| {
                list(proxies)
                    .filter_map(|cidr| crate::net::Cidr::parse(cidr).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The configured authentication mode.
    ///
    /// # Errors
    /// `SCRIBEVAULT_AUTH` is neither `local` nor `oidc`.
    pub fn auth_mode(&self) -> Result<AuthMode, SettingsError> {
        match self.auth.as_str() {
            "local" => Ok(AuthMode::Local),
            "oidc" => Ok(AuthMode::Oidc),
            other => Err(invalid(
                "SCRIBEVAULT_AUTH",
                format!("expected local or oidc, got {other:?}"),
            )),
        }
    }

    /// The gateway's bind address.
    ///
    /// # Errors
    /// `SCRIBEVAULT_HTTP_ADDR` is not `ip:port`.
    pub fn http_socket_addr(&self) -> Result<SocketAddr, SettingsError> {
        self.http_addr.parse().map_err(|_| {
            invalid(
                "SCRIBEVAULT_HTTP_ADDR",
                format!("expected ip:port, got {:?}", self.http_addr),
            )
        })
    }
}

fn invalid(key: &'static str, reason: impl Into<String>) -> SettingsError {
    SettingsError::Invalid {
        key,
        reason: reason.into(),
    }
}

fn check_url(
    key: &'static str,
    value: Option<&str>,
    schemes: &[&str],
) -> Result<(), SettingsError> {
    let Some(value) = value else { return Ok(()) };
    let url = url::Url::parse(value).map_err(|e| invalid(key, format!("not a URL ({e})")))?;
    if !schemes.contains(&url.scheme()) {
        return Err(invalid(
            key,
            format!("expected a {} URL", schemes.join(" or ")),
        ));
    }
    Ok(())
}

/// config-rs names keys in lower case (`max_upload_bytes`); operators set `SCRIBEVAULT_…`.
fn name_env_keys(message: &str) -> String {
    match message.split_once("for key `") {
        Some((head, rest)) => {
            let (key, tail) = rest.split_once('`').unwrap_or((rest, ""));
            format!("{head}for key SCRIBEVAULT_{}{tail}", key.to_uppercase())
        }
        None => message.to_owned(),
    }
}

/// The non-empty, trimmed entries of a comma-separated setting.
pub fn list(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
}

mod paths;
#[cfg(test)]
mod tests;
