//! Validated object keys.

use crate::BlobError;

const MAX_KEY_BYTES: usize = 1024;

/// A key that is safe on every backend: relative, `/`-separated, no empty, `.` or `..`
/// segments, no NUL, backslash or control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BlobKey(String);

impl BlobKey {
    /// Validates `key`.
    ///
    /// # Errors
    /// [`BlobError::InvalidKey`] naming what is wrong.
    pub fn parse(key: &str) -> Result<Self, BlobError> {
        let reject = |why: &str| Err(BlobError::InvalidKey(format!("{why}: {key:?}")));
        if key.is_empty() {
            return reject("empty key");
        }
        if key.len() > MAX_KEY_BYTES {
            return reject("key too long");
        }
        if key.starts_with('/') {
            return reject("absolute key");
        }
        if key
            .chars()
            .any(|c| c == '\0' || c == '\\' || c.is_control())
        {
            return reject("forbidden character in key");
        }
        if key
            .split('/')
            .any(|segment| segment.is_empty() || segment == "." || segment == "..")
        {
            return reject("empty, '.' or '..' segment in key");
        }
        Ok(Self(key.to_owned()))
    }

    /// The key as a string.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for BlobKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_nested_keys() {
        assert_eq!(
            BlobKey::parse("users/u1/mp3/abc.mp3").unwrap().as_str(),
            "users/u1/mp3/abc.mp3"
        );
    }

    #[test]
    fn refuses_every_escape() {
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../../x",
            "a/./b",
            "a//b",
            "a\0b",
            "a\\..\\b",
            "a/",
            "..",
            "a/\nb",
        ] {
            assert!(BlobKey::parse(bad).is_err(), "{bad:?} must be refused");
        }
    }
}
