//! Standard Webhooks signatures (standardwebhooks.com), so a receiver verifies a delivery with
//! the official libraries instead of code written for us: `webhook-id`, `webhook-timestamp`
//! and `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed by
//! the bytes of a `whsec_<base64>` secret.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac as _};
use rand::RngCore as _;
use sha2::Sha256;

/// The secret's prefix, as the libraries expect it.
const SECRET_PREFIX: &str = "whsec_";

/// A new random secret, `whsec_` and 32 random bytes in base64 (the libraries' own size is 24
/// to 64 bytes).
#[must_use]
pub fn new_secret() -> String {
    let mut bytes = [0_u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes))
}

/// A new delivery id, `msg_` and a UUID (the spec leaves the form to the sender).
#[must_use]
pub fn new_message_id() -> String {
    format!("msg_{}", uuid::Uuid::new_v4().simple())
}

/// The `webhook-signature` value for one attempt. `None` when the stored secret is not a
/// `whsec_` one (it always is: only [`new_secret`] makes them).
#[must_use]
pub fn sign(secret: &str, message_id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(message_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Webhooks reference libraries' own tests.
    #[test]
    fn signs_the_reference_example_as_the_reference_libraries_do() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        let signature = sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, body);
        assert_eq!(
            signature.as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn new_secrets_are_whsec_and_differ() {
        let (one, two) = (new_secret(), new_secret());
        assert!(one.starts_with("whsec_"));
        assert_ne!(one, two);
        assert_eq!(STANDARD.decode(&one[6..]).unwrap().len(), 32);
        assert!(sign(&one, "msg_1", 1, b"{}").is_some());
    }
}
