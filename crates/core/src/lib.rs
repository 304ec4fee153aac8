//! What every Scribevault target shares and nothing more: layered settings, the one error
//! vocabulary (mapped to HTTP and gRPC status here and only here), the caller's identity as it
//! travels between processes, and telemetry set-up.
//!
//! This crate must stay thin: no web framework, no ORM. Services depend on it, so whatever it
//! pulls in, every binary pays for.

pub mod child_limits;
pub mod error_code;
pub mod fairness;
pub mod human;
pub mod identity;
pub mod key_file;
pub mod language;
pub mod local_time;
pub mod net;
pub mod settings;
pub mod telemetry;

pub use error_code::ErrorCode;
pub use identity::UserId;
pub use settings::{AuthMode, Settings, SettingsError, VAD_MODEL_FILE};
