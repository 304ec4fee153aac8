//! Signed download links: `…/exports/{id}?expires={unix}&signature={HMAC-SHA256}`.
//!
//! The link is what a plain browser download can carry (no bearer header), so it is its own
//! authority: the signature covers the export id and the expiry, a changed character or an
//! expired link is refused, and the export row names the owner.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac as _};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Why a link was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("This download link is not valid")]
    BadSignature,
    #[error("This download link has expired; export again")]
    Expired,
}

/// Signs and checks links with the library's key.
#[derive(Clone)]
pub struct LinkSigner {
    key: Vec<u8>,
}

impl std::fmt::Debug for LinkSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkSigner(..)")
    }
}

impl LinkSigner {
    /// A signer with `key` (at least 32 bytes; checked by the config).
    #[must_use]
    pub fn new(key: Vec<u8>) -> Self {
        Self { key }
    }

    fn mac(&self, id: &str, expires: i64) -> HmacSha256 {
        // Hmac takes keys of any length.
        let mut mac = HmacSha256::new_from_slice(&self.key).unwrap_or_else(|_| unreachable!());
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(expires.to_string().as_bytes());
        mac
    }

    /// The link's path and query for export `id`, valid until `expires`.
    #[must_use]
    pub fn link(&self, id: &str, expires: DateTime<Utc>) -> String {
        let expires = expires.timestamp();
        let signature = URL_SAFE_NO_PAD.encode(self.mac(id, expires).finalize().into_bytes());
        format!("/api/library/exports/{id}?expires={expires}&signature={signature}")
    }

    /// The player's link to `owner`'s audio item `item`, valid until `expires`: the signature
    /// covers the owner, the item and the expiry (prefixed so that it can never pass as an export
    /// link's, nor one of those as this).
    #[must_use]
    pub fn audio_link(&self, owner: &str, item: &str, expires: DateTime<Utc>) -> String {
        let expires = expires.timestamp();
        let signature = URL_SAFE_NO_PAD.encode(
            self.mac(&audio_subject(owner, item), expires)
                .finalize()
                .into_bytes(),
        );
        format!("/api/library/audio/{item}?expires={expires}&signature={signature}")
    }

    /// Checks a followed audio link of `owner`'s item `item`.
    ///
    /// # Errors
    /// As [`Self::verify`].
    pub fn verify_audio(
        &self,
        owner: &str,
        item: &str,
        expires: i64,
        signature: &str,
        now: DateTime<Utc>,
    ) -> Result<(), LinkError> {
        self.verify(&audio_subject(owner, item), expires, signature, now)
    }

    /// Checks a followed link.
    ///
    /// # Errors
    /// A signature that does not match (checked in constant time), or an expiry in the past.
    pub fn verify(
        &self,
        id: &str,
        expires: i64,
        signature: &str,
        now: DateTime<Utc>,
    ) -> Result<(), LinkError> {
        let signature = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| LinkError::BadSignature)?;
        self.mac(id, expires)
            .verify_slice(&signature)
            .map_err(|_| LinkError::BadSignature)?;
        if now.timestamp() > expires {
            return Err(LinkError::Expired);
        }
        Ok(())
    }
}

/// What an audio link signs. Export ids are UUIDs, so none reads `audio:…`.
fn audio_subject(owner: &str, item: &str) -> String {
    format!("audio:{owner}:{item}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(link: &str) -> (String, i64, String) {
        let (path, query) = link.split_once('?').unwrap();
        let id = path.rsplit('/').next().unwrap().to_owned();
        let mut expires = 0;
        let mut signature = String::new();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap();
            match key {
                "expires" => expires = value.parse().unwrap(),
                "signature" => signature = value.to_owned(),
                _ => panic!("unexpected {key}"),
            }
        }
        (id, expires, signature)
    }

    #[test]
    fn a_link_holds_until_it_expires_and_refuses_any_change() {
        let signer = LinkSigner::new(vec![7; 32]);
        let now = Utc::now();
        let link = signer.link("export-1", now + chrono::Duration::minutes(10));
        let (id, expires, signature) = parts(&link);
        assert_eq!(signer.verify(&id, expires, &signature, now), Ok(()));
        assert_eq!(
            signer.verify(
                &id,
                expires,
                &signature,
                now + chrono::Duration::minutes(11)
            ),
            Err(LinkError::Expired)
        );
        assert_eq!(
            signer.verify("export-2", expires, &signature, now),
            Err(LinkError::BadSignature)
        );
        assert_eq!(
            signer.verify(&id, expires + 3600, &signature, now),
            Err(LinkError::BadSignature)
        );
        let mut tampered = signature.into_bytes();
        tampered[0] = if tampered[0] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        assert_eq!(
            signer.verify(&id, expires, &tampered, now),
            Err(LinkError::BadSignature)
        );
        let other = LinkSigner::new(vec![8; 32]);
        let (_, _, foreign) = parts(&other.link("export-1", now + chrono::Duration::minutes(10)));
        assert_eq!(
            signer.verify(&id, expires, &foreign, now),
            Err(LinkError::BadSignature)
        );
    }

    #[test]
    fn an_audio_link_is_bound_to_its_owner_item_and_expiry() {
        let signer = LinkSigner::new(vec![7; 32]);
        let now = Utc::now();
        let link = signer.audio_link("alice", "item-1", now + chrono::Duration::minutes(10));
        assert!(link.starts_with("/api/library/audio/item-1?"), "{link}");
        let (item, expires, signature) = parts(&link);
        assert_eq!(
            signer.verify_audio("alice", &item, expires, &signature, now),
            Ok(())
        );
        assert_eq!(
            signer.verify_audio("bob", &item, expires, &signature, now),
            Err(LinkError::BadSignature)
        );
        assert_eq!(
            signer.verify_audio("alice", "item-2", expires, &signature, now),
            Err(LinkError::BadSignature)
        );
        assert_eq!(
            signer.verify_audio(
                "alice",
                &item,
                expires,
                &signature,
                now + chrono::Duration::minutes(11)
            ),
            Err(LinkError::Expired)
        );
        // Neither kind of link passes as the other.
        assert_eq!(
            signer.verify(&item, expires, &signature, now),
            Err(LinkError::BadSignature)
        );
        let export = signer.link("item-1", now + chrono::Duration::minutes(10));
        let (_, expires, signature) = parts(&export);
        assert_eq!(
            signer.verify_audio("alice", "item-1", expires, &signature, now),
            Err(LinkError::BadSignature)
        );
    }
}
