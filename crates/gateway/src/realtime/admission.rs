//! Who may open a session, and the accounting every session keeps while it lives.
//!
//! A handshake needs no credentials (the client authenticates in its CONNECT afterwards), so
//! a session that has not connected yet is anyone's to open. Those are counted per client
//! address and in total, and new handshakes past either cap are refused (security review F6);
//! polling and WebSocket handshakes alike. A session gives its place back as soon as a
//! CONNECT is accepted, or when it ends (whatever ends it: the connect timeout, the client, a
//! protocol error), since the place is a guard the session owns.
//!
//! The client address is the one [`TrustedProxies`](crate::auth::client_address::TrustedProxies)
//! reads, so clients behind the trusted reverse proxy are not all counted as the proxy.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::request_error::EngineRequestError;
use crate::metrics::RealtimeGauges;

/// The unconnected sessions of this replica, by client address.
#[derive(Debug, Default)]
pub struct Unconnected {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// Counts of unconnected sessions shared by every handshake of this replica.
pub type SharedUnconnected = Arc<Mutex<Unconnected>>;

/// The address requests without one (tests, Unix sockets) are counted under.
const UNKNOWN_ADDRESS: IpAddr = IpAddr::V6(Ipv6Addr::UNSPECIFIED);

fn lock(counts: &SharedUnconnected) -> MutexGuard<'_, Unconnected> {
    counts.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Takes a place for a new session from `address`, or refuses it: 429 past `per_address`
/// for that address, 503 past `total` for the replica.
///
/// # Errors
/// [`EngineRequestError::TooManyFromAddress`] or [`EngineRequestError::TooManySessions`].
pub fn admit(
    counts: &SharedUnconnected,
    address: Option<IpAddr>,
    per_address: usize,
    total: usize,
) -> Result<UnconnectedPlace, EngineRequestError> {
    let address = address.unwrap_or(UNKNOWN_ADDRESS);
    let mut unconnected = lock(counts);
    let from_address = unconnected.by_address.get(&address).copied().unwrap_or(0);
    if from_address >= per_address {
        return Err(EngineRequestError::TooManyFromAddress { limit: per_address });
    }
    if unconnected.total >= total {
        return Err(EngineRequestError::TooManySessions { limit: total });
    }
    unconnected.total += 1;
    *unconnected.by_address.entry(address).or_default() += 1;
    Ok(UnconnectedPlace {
        counts: counts.clone(),
        address,
    })
}

/// A session's place among the unconnected ones; dropping it gives the place back.
#[derive(Debug)]
pub struct UnconnectedPlace {
    counts: SharedUnconnected,
    address: IpAddr,
}

impl Drop for UnconnectedPlace {
    fn drop(&mut self) {
        let mut unconnected = lock(&self.counts);
        unconnected.total = unconnected.total.saturating_sub(1);
        if let Some(count) = unconnected.by_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                // Addresses leave the map, so it holds only those with sessions waiting.
                unconnected.by_address.remove(&self.address);
            }
        }
    }
}

/// What one session counts while it lives: its place until it connects, and the gauges of
/// live and authenticated sessions. Dropped with the session.
#[derive(Debug)]
pub struct SessionAccount {
    place: Option<UnconnectedPlace>,
    gauges: RealtimeGauges,
    authenticated: bool,
}

impl SessionAccount {
    /// A session just admitted with `place`.
    #[must_use]
    pub fn new(place: UnconnectedPlace, gauges: RealtimeGauges) -> Self {
        gauges.sessions.inc();
        Self {
            place: Some(place),
            gauges,
            authenticated: false,
        }
    }

    /// The session's CONNECT was accepted: it gives its place back and counts as
    /// authenticated. Idempotent.
    pub fn connected(&mut self) {
        self.place = None;
        if !self.authenticated {
            self.authenticated = true;
            self.gauges.authenticated.inc();
        }
    }
}

impl Drop for SessionAccount {
    fn drop(&mut self) {
        self.gauges.sessions.dec();
        if self.authenticated {
            self.gauges.authenticated.dec();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn places_are_capped_per_address_and_in_total_and_given_back() {
        let counts = SharedUnconnected::default();
        let first = admit(&counts, address("10.0.0.1"), 2, 3).unwrap();
        let _second = admit(&counts, address("10.0.0.1"), 2, 3).unwrap();
        assert_eq!(
            admit(&counts, address("10.0.0.1"), 2, 3).unwrap_err(),
            EngineRequestError::TooManyFromAddress { limit: 2 }
        );
        let _third = admit(&counts, address("10.0.0.2"), 2, 3).unwrap();
        assert_eq!(
            admit(&counts, address("10.0.0.3"), 2, 3).unwrap_err(),
            EngineRequestError::TooManySessions { limit: 3 }
        );
        drop(first);
        let _again = admit(&counts, address("10.0.0.1"), 2, 3).unwrap();
        assert_eq!(lock(&counts).total, 3);
    }

    #[test]
    fn an_account_moves_the_gauges_and_frees_its_place_on_connect() {
        let counts = SharedUnconnected::default();
        let gauges = RealtimeGauges::default();
        let place = admit(&counts, None, 1, 10).unwrap();
        let mut account = SessionAccount::new(place, gauges.clone());
        assert_eq!(gauges.sessions.get(), 1);
        assert!(admit(&counts, None, 1, 10).is_err());
        account.connected();
        account.connected();
        assert_eq!(gauges.authenticated.get(), 1);
        assert!(lock(&counts).by_address.is_empty());
        drop(account);
        assert_eq!((gauges.sessions.get(), gauges.authenticated.get()), (0, 0));
    }
}
