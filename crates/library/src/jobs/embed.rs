//! Embedding for search by meaning, off the request path (docs/adr/0026-meaning-search.md).
//!
//! New items arrive as `library.embed` work, queued after their ingest: any library replica
//! takes them, one at a time each, so embedding scales out with the replicas as transcription
//! does with its workers. The back-fill finds the items that have no vectors of the current
//! model (a Vault from before, an edited text, a new model) and embeds them one by one with a
//! pause between, on the one thread an embedding call is given: transcription keeps the rest
//! of the machine.

use std::future::Future;
use std::time::Duration;

use scribevault_bus::contract::LibraryEmbed;
use scribevault_bus::{Settlement, WorkQueue, run_work_consumer};
use scribevault_core::UserId;
use std::sync::Arc;

use crate::service::Library;

/// Items the back-fill embeds before it looks again.
const BACKFILL_BATCH: u64 = 16;

/// Consumes `library.embed` until `shutdown` resolves.
pub async fn run_embed_consumer(
    library: Library,
    work: Arc<dyn WorkQueue>,
    shutdown: impl Future<Output = ()> + Send,
) {
    run_work_consumer(
        work,
        1,
        shutdown,
        |embed: &LibraryEmbed, attempt| {
            tracing::info_span!("library.embed", item = %embed.item_id, attempt)
        },
        move |embed: LibraryEmbed, _attempt| {
            let library = library.clone();
            async move {
                match library
                    .embed_item(&UserId::new(embed.user_id), &embed.item_id)
                    .await
                {
                    Ok(_) => Settlement::Done,
                    Err(error) => {
                        tracing::warn!(error = %error, "embedding an item failed; it is tried again");
                        Settlement::Retry
                    }
                }
            }
        },
    )
    .await;
}

/// Embeds what has no vectors yet, `pause` between items and `idle` between looks when
/// everything is embedded, until `shutdown` resolves.
pub async fn run_backfill(
    library: Library,
    pause: Duration,
    idle: Duration,
    shutdown: impl Future<Output = ()> + Send,
) {
    let work = async {
        loop {
            let embedded = match library.backfill(BACKFILL_BATCH, pause).await {
                Ok(embedded) => embedded,
                Err(error) => {
                    tracing::warn!(error = %error, "the embedding back-fill failed; it goes on later");
                    0
                }
            };
            if embedded == 0 {
                tokio::time::sleep(idle).await;
            }
        }
    };
    tokio::select! {
        () = work => {}
        () = shutdown => {}
    }
}
