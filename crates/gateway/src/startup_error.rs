//! Why the gateway could not start, apart from the start-up itself so that reading the
//! configuration (which can fail the same way) does not import it.

/// Why the gateway could not start; each names its cause in one printable line.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("invalid settings: {0}")]
    Settings(#[source] scribevault_core::settings::SettingsError),
    #[error("gateway migrations failed: {0}")]
    Migration(String),
    #[error("SCRIBEVAULT_REDIS_URL: {0}")]
    Redis(String),
    #[error("local accounts: {0}")]
    LocalAccounts(String),
    #[error("invalid service address: {0}")]
    ServiceAddress(String),
    #[error("cannot bind {key}={addr}: {reason}")]
    Bind {
        key: &'static str,
        addr: String,
        reason: String,
    },
    #[error("cannot serve: {0}")]
    Serve(#[source] std::io::Error),
}
