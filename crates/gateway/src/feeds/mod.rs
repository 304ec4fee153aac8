//! Private podcast feeds (issue 25, point 3): a member's whole Vault, one of their sources or
//! one of their tags as RSS 2.0 with the iTunes and Podcasting 2.0 namespaces, so AntennaPod,
//! Apple Podcasts or Pocket Casts play the recordings and show their transcripts
//! (`podcast:transcript` → SRT, WebVTT and the Podcasting 2.0 JSON).
//!
//! Podcast apps cannot sign in, so a feed's URL carries a secret (`/feeds/{secret}.xml`), and
//! every episode's audio and transcripts are served under the same secret and only for items in
//! the feed's scope. Revoking or rotating a feed ends its URLs at once. The feed is built on
//! each fetch from the library (the item list), transcription (which recording an item was
//! made from), discovery (a source's videos and artwork) and storage (the audio's real size),
//! each called as the feed's owner, so a feed can never show what its owner could not.

pub mod episodes;
pub mod rss;
pub mod store;
pub mod transcripts;

use url::Url;

pub use store::{Feed, FeedStore};

/// What a feed publishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedScope {
    /// Every AUDIO item of the Vault.
    Vault,
    /// The items made from one of the member's sources (a channel or playlist), by source id.
    Source(String),
    /// The items with one tag, by tag name (compared case-insensitively, like the Vault's
    /// filter).
    Tag(String),
}

impl FeedScope {
    /// The stored spelling: `(scope, scope_id)`.
    #[must_use]
    pub fn to_stored(&self) -> (&'static str, Option<String>) {
        match self {
            Self::Vault => ("vault", None),
            Self::Source(id) => ("source", Some(id.clone())),
            Self::Tag(name) => ("tag", Some(name.clone())),
        }
    }

    /// Reads the stored spelling back; `None` for a scope this version does not know.
    #[must_use]
    pub fn from_stored(scope: &str, scope_id: Option<String>) -> Option<Self> {
        match (scope, scope_id) {
            ("vault", _) => Some(Self::Vault),
            ("source", Some(id)) => Some(Self::Source(id)),
            ("tag", Some(name)) => Some(Self::Tag(name)),
            _ => None,
        }
    }
}

/// What the feed routes share: the table, the public base URL and a cache of what each
/// episode's audio is (so a poll does not ask transcription and storage again for every item).
#[derive(Clone)]
pub struct Feeds {
    pub store: FeedStore,
    /// `SCRIBEVAULT_PUBLIC_URL`: the base of every link in a feed. Unset: the request's
    /// origin (through trusted proxies).
    pub public_url: Option<Url>,
    pub media: episodes::MediaCache,
}

impl Feeds {
    #[must_use]
    pub fn new(db: sea_orm::DatabaseConnection, public_url: Option<Url>) -> Self {
        Self {
            store: FeedStore::new(db),
            public_url,
            media: episodes::MediaCache::default(),
        }
    }
}

/// A link base without its trailing slash (`https://vault.example.com/scribevault`).
#[must_use]
pub fn link_base(url: &Url) -> String {
    url.as_str().trim_end_matches('/').to_owned()
}
