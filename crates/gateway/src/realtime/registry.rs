//! This replica's long-polling sessions, by sid.
//!
//! A polling client makes a new HTTP request for every exchange, and each must find the session
//! it opened. Sessions live in this process's memory, so all of a client's requests must reach
//! this replica: the Ingress pins them with a cookie (ADR 0008). A request for a sid this
//! replica does not know is answered with Engine.IO's "Session ID unknown", and the client
//! reconnects.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use super::config::RealtimeConfig;
use super::session::SessionHandle;

/// The long-polling (and upgraded) sessions of this replica, and the settings new ones get.
#[derive(Clone, Default)]
pub struct EngineSessions {
    sessions: Arc<Mutex<HashMap<String, SessionHandle>>>,
    config: Arc<RealtimeConfig>,
}

impl EngineSessions {
    /// No sessions yet; new ones behave as `config` says (tests shorten the timings).
    #[cfg(test)]
    #[must_use]
    pub fn with_config(config: RealtimeConfig) -> Self {
        Self {
            sessions: Arc::default(),
            config: Arc::new(config),
        }
    }

    /// The settings of this replica's sessions.
    #[must_use]
    pub fn config(&self) -> Arc<RealtimeConfig> {
        self.config.clone()
    }

    pub(super) fn insert(&self, sid: &str, handle: SessionHandle) {
        self.lock().insert(sid.to_owned(), handle);
    }

    pub(super) fn get(&self, sid: &str) -> Option<SessionHandle> {
        self.lock().get(sid).cloned()
    }

    pub(super) fn remove(&self, sid: &str) {
        self.lock().remove(sid);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, SessionHandle>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
