//! The one way the gateway makes and stores its bearer secrets (API tokens, invitation and feed
//! links, refresh secrets, recovery codes).

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore as _;
use sha2::{Digest as _, Sha256};

/// 256 random bits, URL-safe base64 without padding (43 characters).
#[must_use]
pub fn random_secret() -> String {
    let mut bytes = [0_u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A secret as stored: its SHA-256 in hex. The secrets are random and long, so a slow password
/// hash would add nothing but time.
#[must_use]
pub fn secret_hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_distinct_and_hashed_the_same_way_every_time() {
        let (one, two) = (random_secret(), random_secret());
        assert_eq!(one.len(), 43);
        assert_ne!(one, two);
        assert_eq!(secret_hash(&one), secret_hash(&one));
        assert_ne!(secret_hash(&one), secret_hash(&two));
        assert_eq!(
            secret_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
