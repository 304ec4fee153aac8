//! This replica's long-polling sessions, by sid.
//!
//! A polling client makes a new HTTP request for every exchange, and each must find the session
//! it opened. Sessions live in this process's memory, so all of a client's requests must reach
//! this replica: the Ingress pins them with a cookie (ADR 0008). A request for a sid this
//! replica does not know is answered with Engine.IO's "Session ID unknown", and the client
//! reconnects.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use super::admission::{self, SessionAccount, SharedUnconnected};
use super::config::RealtimeConfig;
use super::request_error::EngineRequestError;
use super::session::SessionHandle;
use crate::metrics::{RealtimeGauges, realtime_gauges};

/// The long-polling (and upgraded) sessions of this replica, the settings new ones get, and
/// the count of sessions (of either transport) that have not connected yet.
#[derive(Clone)]
pub struct EngineSessions {
    sessions: Arc<Mutex<HashMap<String, SessionHandle>>>,
    config: Arc<RealtimeConfig>,
    unconnected: SharedUnconnected,
    gauges: RealtimeGauges,
}

impl Default for EngineSessions {
    /// The stock settings, and the process's gauges (exported in `/metrics`).
    fn default() -> Self {
        Self {
            sessions: Arc::default(),
            config: Arc::default(),
            unconnected: SharedUnconnected::default(),
            gauges: realtime_gauges().clone(),
        }
    }
}

impl EngineSessions {
    /// No sessions yet; new ones behave as `config` says (tests shorten the timings). Its
    /// gauges are its own, so a test reads exactly its sessions.
    #[cfg(test)]
    #[must_use]
    pub fn with_config(config: RealtimeConfig) -> Self {
        Self {
            sessions: Arc::default(),
            config: Arc::new(config),
            unconnected: SharedUnconnected::default(),
            gauges: RealtimeGauges::default(),
        }
    }

    /// Admits a new session from `address` (its handshake), or refuses it past the caps on
    /// sessions that have not connected yet.
    ///
    /// # Errors
    /// [`EngineRequestError::TooManyFromAddress`] (429) or
    /// [`EngineRequestError::TooManySessions`] (503).
    pub(super) fn admit(
        &self,
        address: Option<IpAddr>,
    ) -> Result<SessionAccount, EngineRequestError> {
        let place = admission::admit(
            &self.unconnected,
            address,
            self.config.max_unconnected_per_address,
            self.config.max_unconnected_sessions,
        )?;
        Ok(SessionAccount::new(place, self.gauges.clone()))
    }

    /// The live and authenticated session gauges of these sessions.
    #[cfg(test)]
    pub(super) fn gauges(&self) -> &RealtimeGauges {
        &self.gauges
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
