//! The Vault's use cases: the rules live here, the queries in `store/`, the wire in `grpc.rs`.
//! One module per concern: items, organising (tags and sections), exports, processing
//! (keywords and suggestions), reviews ('Mark as reviewed'), saving files to the Vault, and the
//! events all of them send.

mod audio;
mod events;
mod exports;
pub mod folder_export;
mod items;
mod meaning;
mod organise;
mod processing;
mod review;
mod user_data;
mod vault_save;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use scribevault_blob::BlobStore;
use scribevault_bus::EventBus;

use crate::config::LibraryConfig;
use crate::export::LinkSigner;
use crate::store::LibraryStore;

pub use audio::AUDIO_LINK_TTL;
pub use vault_save::VaultFile;

/// The Vault of every user, each scoped to its owner.
#[derive(Clone)]
pub struct Library {
    store: LibraryStore,
    blobs: Arc<dyn BlobStore>,
    events: Arc<dyn EventBus>,
    signer: LinkSigner,
    link_ttl: chrono::Duration,
    /// Users with a `statsUpdate` scheduled (see `events.rs`).
    stats_pending: Arc<Mutex<HashSet<String>>>,
    /// The sentence-embedding model, when search by meaning is on (`meaning.rs`).
    embedder: Option<Arc<scribevault_embed::Embedder>>,
    /// Where items to embed are queued (`library.embed`).
    embed_work: Option<Arc<dyn scribevault_bus::WorkQueue>>,
}

impl Library {
    /// The service over its store, the blob store (transcript segments, saved files) and the
    /// event bus.
    #[must_use]
    pub fn new(
        store: LibraryStore,
        blobs: Arc<dyn BlobStore>,
        events: Arc<dyn EventBus>,
        config: &LibraryConfig,
    ) -> Self {
        Self {
            store,
            blobs,
            events,
            signer: LinkSigner::new(config.export_link_key.clone()),
            link_ttl: chrono::Duration::from_std(config.export_link_ttl)
                .unwrap_or_else(|_| chrono::Duration::minutes(10)),
            stats_pending: Arc::default(),
            embedder: None,
            embed_work: None,
        }
    }
}
