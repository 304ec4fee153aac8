//! The service conversion hands its results to: the library, whose items a premium reprocess
//! converts again. Behind a trait, so the rules are tested with the real library in-process
//! and the gRPC client stays at the edge.

mod library;

use async_trait::async_trait;
use scribevault_core::UserId;

pub use library::LibraryClient;
/// A peer's failure: the vocabulary every Scribevault caller shares.
pub use scribevault_proto::client::PeerError;

/// What conversion needs to know of a Vault item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultItem {
    pub id: String,
    pub title: String,
    /// The path it was saved from (`converted/pdfs/<id>.md` for a converted PDF).
    pub file_name: Option<String>,
}

/// The Vault's items.
#[async_trait]
pub trait Vault: Send + Sync {
    /// The caller's item `id`.
    async fn item(&self, user: &UserId, id: &str) -> Result<VaultItem, PeerError>;
    /// Replaces the content of the caller's item `id`.
    async fn replace_content(
        &self,
        user: &UserId,
        id: &str,
        content: &str,
    ) -> Result<(), PeerError>;
}
