//! Which sockets belong to which user on this replica, and the bus subscription that feeds them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use scribevault_bus::EventBus;
use scribevault_bus::contract::Event;
use tokio::sync::mpsc;

use super::packet;
use crate::user_settings::{UserSettingsStore, wants_notification};

/// Outgoing text frames of one socket.
pub type SocketSender = mpsc::Sender<String>;

/// This replica's sockets, by user.
#[derive(Clone, Default)]
pub struct RealtimeHub {
    sockets: Arc<Mutex<HashMap<String, HashMap<String, SocketSender>>>>,
}

impl RealtimeHub {
    /// Registers a connected socket of `user`.
    pub fn register(&self, user: &str, sid: &str, sender: SocketSender) {
        self.sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(user.to_owned())
            .or_default()
            .insert(sid.to_owned(), sender);
    }

    /// Forgets a socket.
    pub fn unregister(&self, user: &str, sid: &str) {
        let mut sockets = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(of_user) = sockets.get_mut(user) {
            of_user.remove(sid);
            if of_user.is_empty() {
                sockets.remove(user);
            }
        }
    }

    /// Sends `name` with `data` to every socket of `user` on this replica.
    pub fn emit_to_user(&self, user: &str, name: &str, data: &serde_json::Value) {
        let frame = packet::event("/", name, data);
        let sockets = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        for sender in sockets.get(user).into_iter().flat_map(HashMap::values) {
            // A socket too slow to keep 256 frames queued misses some; it can reload state.
            let _ = sender.try_send(frame.clone());
        }
    }

    /// Whether `user` has a socket on this replica.
    fn has_sockets(&self, user: &str) -> bool {
        self.sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(user)
    }

    /// How many sockets are connected (all users).
    #[must_use]
    pub fn connected_sockets(&self) -> usize {
        self.sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .map(HashMap::len)
            .sum()
    }

    /// Delivers every bus event to its user's sockets, for as long as the bus runs, except the
    /// notifications a user has switched off in their settings.
    pub async fn forward_events(self, bus: Arc<dyn EventBus>, settings: UserSettingsStore) {
        let mut subscription = loop {
            match bus.subscribe().await {
                Ok(subscription) => break subscription,
                Err(error) => {
                    tracing::warn!(error = %error, "cannot subscribe to events yet");
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        };
        while let Some(event) = subscription.next().await {
            if let Some(Event::Notification(notification)) = event.event() {
                if !self.has_sockets(&event.user_id) {
                    continue;
                }
                // Notifications are rare; their recipient's settings are read fresh each time,
                // so a change applies at once on every replica.
                let wanted = match settings.get(&event.user_id).await {
                    Ok(user_settings) => wants_notification(&user_settings, &notification),
                    Err(error) => {
                        tracing::warn!(error = %error, "settings unreadable; notification delivered");
                        true
                    }
                };
                if !wanted {
                    continue;
                }
            }
            self.emit_to_user(&event.user_id, &event.event_type, &event.data);
        }
    }
}
