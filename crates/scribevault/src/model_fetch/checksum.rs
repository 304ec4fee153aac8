//! What a downloaded model must hash to, and the hashing done while it streams.
//!
//! whisper.cpp publishes a SHA-1 for each model it hosts (its `models/README.md`). A model whose
//! bytes were cut short, swapped by a proxy, or served from a stale mirror would still start with
//! the ggml magic and could still have the announced length, so only a digest says it is the
//! file the operator asked for. Names outside the table can bring their own digest on the
//! command line.

use sha1::Digest as _;

/// SHA-1 of each `ggml-<name>.bin` as whisper.cpp publishes it (`models/README.md`).
const PUBLISHED_SHA1: &[(&str, &str)] = &[
    ("tiny", "bd577a113a864445d4c299885e0cb97d4ba92b5f"),
    ("tiny.en", "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"),
    ("base", "465707469ff3a37a2b9b8d8f89f2f99de7299dac"),
    ("base.en", "137c40403d78fd54d454da0f9bd998f78703390c"),
    ("small", "55356645c2b361a969dfd0ef2c5a50d530afd8d5"),
    ("small.en", "db8a495a91d927739e50b3fc1cc4c6b8f6c2d022"),
    ("small.en-tdrz", "b6c6e7e89af1a35c08e6de56b66ca6a02a2fdfa1"),
    ("medium", "fd9727b6e1217c2f614f9b698455c4ffd82463b4"),
    ("medium.en", "8c30f0e44ce9560643ebd10bbe50cd20eafd3723"),
    ("large-v1", "b1caaf735c4cc1429223d5a74f0f4d0b9b59a299"),
    ("large-v2", "0f4c8e34f21cf1a914c59d8b3ce882345ad349d6"),
    ("large-v2-q5_0", "00e39f2196344e901b3a2bd5814807a769bd1630"),
    ("large-v3", "ad82bf6a9043ceed055076d0fd39f5f186ff8062"),
    ("large-v3-q5_0", "e6e2ed78495d403bef4b7cff42ef4aaadcfea8de"),
    ("large-v3-turbo", "4af2b29d7ec73d781377bfd1758ca957a807e941"),
    (
        "large-v3-turbo-q5_0",
        "e050f7970618a659205450ad97eb95a18d69c9ee",
    ),
];

/// A digest algorithm the command accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Sha1,
    Sha256,
}

impl Algorithm {
    /// Hex digits in a digest of this algorithm.
    const fn hex_len(self) -> usize {
        match self {
            Self::Sha1 => 40,
            Self::Sha256 => 64,
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Sha1 => "SHA-1",
            Self::Sha256 => "SHA-256",
        })
    }
}

/// Where an expected digest came from; said in messages so a mismatch can be traced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// whisper.cpp's published table.
    Published,
    /// `--sha1` / `--sha256` on the command line.
    CommandLine,
}

/// The digest a download must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    pub algorithm: Algorithm,
    /// Lower-case hex.
    pub hex: String,
    pub origin: Origin,
}

impl Expected {
    /// The digest to check for `name`: one given on the command line wins (a mirror may serve
    /// its own build of a model), else whisper.cpp's published SHA-1, else none.
    pub fn for_model(name: &str, sha1: Option<&str>, sha256: Option<&str>) -> Option<Self> {
        let given = |algorithm, hex: &str| Self {
            algorithm,
            hex: hex.to_ascii_lowercase(),
            origin: Origin::CommandLine,
        };
        if let Some(hex) = sha256 {
            return Some(given(Algorithm::Sha256, hex));
        }
        if let Some(hex) = sha1 {
            return Some(given(Algorithm::Sha1, hex));
        }
        PUBLISHED_SHA1
            .iter()
            .find(|(published, _)| *published == name)
            .map(|(_, hex)| Self {
                algorithm: Algorithm::Sha1,
                hex: (*hex).to_owned(),
                origin: Origin::Published,
            })
    }

    /// A hasher for this digest's algorithm.
    pub fn hasher(&self) -> Hasher {
        match self.algorithm {
            Algorithm::Sha1 => Hasher::Sha1(sha1::Sha1::new()),
            Algorithm::Sha256 => Hasher::Sha256(sha2::Sha256::new()),
        }
    }
}

/// Hashes the body chunk by chunk as it is written, so checking costs no second read of a
/// file that can be 3 GB.
pub enum Hasher {
    Sha1(sha1::Sha1),
    Sha256(sha2::Sha256),
}

impl Hasher {
    pub fn update(&mut self, bytes: &[u8]) {
        match self {
            Self::Sha1(hasher) => hasher.update(bytes),
            Self::Sha256(hasher) => hasher.update(bytes),
        }
    }

    /// The digest in lower-case hex.
    pub fn finish(self) -> String {
        match self {
            Self::Sha1(hasher) => hex::encode(hasher.finalize()),
            Self::Sha256(hasher) => hex::encode(hasher.finalize()),
        }
    }
}

/// clap value parser for `--sha1`: 40 hex digits.
pub fn parse_sha1(value: &str) -> Result<String, String> {
    parse_hex(value, Algorithm::Sha1)
}

/// clap value parser for `--sha256`: 64 hex digits.
pub fn parse_sha256(value: &str) -> Result<String, String> {
    parse_hex(value, Algorithm::Sha256)
}

/// Rejects a digest of the wrong length or with non-hex characters when the command is parsed,
/// rather than after a multi-gigabyte download that could never match it.
fn parse_hex(value: &str, algorithm: Algorithm) -> Result<String, String> {
    let value = value.trim();
    if value.len() != algorithm.hex_len() || !value.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!(
            "a {algorithm} digest is {} hex digits",
            algorithm.hex_len()
        ));
    }
    Ok(value.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_sha1_is_used_for_a_known_name() {
        let expected = Expected::for_model("small", None, None).unwrap();
        assert_eq!(expected.algorithm, Algorithm::Sha1);
        assert_eq!(expected.hex, "55356645c2b361a969dfd0ef2c5a50d530afd8d5");
        assert_eq!(expected.origin, Origin::Published);
    }

    #[test]
    fn a_digest_on_the_command_line_wins_over_the_table() {
        let sha256 = "AB".repeat(32);
        let expected = Expected::for_model("small", None, Some(&sha256)).unwrap();
        assert_eq!(expected.algorithm, Algorithm::Sha256);
        assert_eq!(expected.hex, "ab".repeat(32));
        assert_eq!(expected.origin, Origin::CommandLine);
    }

    #[test]
    fn an_unknown_name_without_a_digest_has_none() {
        assert_eq!(Expected::for_model("small-custom", None, None), None);
    }

    #[test]
    fn the_table_has_no_duplicate_and_only_well_formed_digests() {
        for (index, (name, hex)) in PUBLISHED_SHA1.iter().enumerate() {
            assert_eq!(parse_sha1(hex).as_deref(), Ok(*hex), "{name}");
            assert!(
                !PUBLISHED_SHA1[..index]
                    .iter()
                    .any(|(other, _)| other == name)
            );
        }
    }

    #[test]
    fn hex_options_are_checked_for_length_and_digits() {
        assert!(parse_sha1(&"0".repeat(40)).is_ok());
        assert!(parse_sha1(&"0".repeat(64)).is_err());
        assert!(parse_sha256(&"0".repeat(40)).is_err());
        assert!(parse_sha256(&"g".repeat(64)).is_err());
    }

    #[test]
    fn hashers_match_known_digests() {
        let digest = |algorithm| {
            let mut hasher = Expected {
                algorithm,
                hex: String::new(),
                origin: Origin::CommandLine,
            }
            .hasher();
            hasher.update(b"a");
            hasher.update(b"bc");
            hasher.finish()
        };
        assert_eq!(
            digest(Algorithm::Sha1),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
        assert_eq!(
            digest(Algorithm::Sha256),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
