//! Sources: the channels and playlists a user follows, and the pages of their videos.

use chrono::{DateTime, Utc};

use crate::domain::Video;

/// What kind of list a source is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    Channel,
    Playlist,
}

impl SourceKind {
    /// The spec's name (`CHANNEL`, `PLAYLIST`), also the stored one.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Channel => "CHANNEL",
            Self::Playlist => "PLAYLIST",
        }
    }

    /// The kind a stored name stands for.
    #[must_use]
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "CHANNEL" => Some(Self::Channel),
            "PLAYLIST" => Some(Self::Playlist),
            _ => None,
        }
    }
}

/// A channel or playlist a user follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub id: String,
    pub user_id: String,
    pub kind: SourceKind,
    /// The channel (`UC…`) or playlist (`PL…`) id: one source per list and user.
    pub list_id: String,
    /// The playlist whose items are the source's videos (`UU…` for a channel).
    pub playlist_id: String,
    pub url: String,
    pub title: String,
    pub thumbnail_url: String,
    pub created_at: DateTime<Utc>,
}

/// Videos of a source a page holds.
pub const SOURCE_PAGE_SIZE: u32 = 50;

/// One page of a source's videos.
#[derive(Debug, Clone)]
pub struct SourceVideoPage {
    pub videos: Vec<Video>,
    /// `None` on the last page.
    pub next_page_token: Option<String>,
}

/// Where a page of a source's videos starts, as an opaque token: callers hand back what they
/// were given and never build one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourcePageToken(pub u32);

impl SourcePageToken {
    const PREFIX: &'static str = "sv1";

    /// The token's text.
    #[must_use]
    pub fn encode(self) -> String {
        format!("{}{}", Self::PREFIX, hex::encode(self.0.to_be_bytes()))
    }

    /// The position a token stands for; an empty token is the first page.
    ///
    /// # Errors
    /// Text that is not a token this service gave out.
    pub fn decode(token: &str) -> Result<Self, String> {
        if token.is_empty() {
            return Ok(Self(0));
        }
        token
            .strip_prefix(Self::PREFIX)
            .and_then(|digits| hex::decode(digits).ok())
            .and_then(|bytes| <[u8; 4]>::try_from(bytes.as_slice()).ok())
            .map(|bytes| Self(u32::from_be_bytes(bytes)))
            .ok_or_else(|| "pageToken is not a page token of this source".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_tokens_round_trip_and_foreign_ones_are_refused() {
        for position in [0, 50, 4_950, u32::MAX] {
            let token = SourcePageToken(position).encode();
            assert_eq!(
                SourcePageToken::decode(&token),
                Ok(SourcePageToken(position))
            );
        }
        assert_eq!(SourcePageToken::decode(""), Ok(SourcePageToken(0)));
        for foreign in ["50", "sv1zz", "sv10000", "CDIQAA", "sv1000000320"] {
            assert!(SourcePageToken::decode(foreign).is_err(), "{foreign}");
        }
    }
}
