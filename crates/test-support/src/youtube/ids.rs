//! Identifiers, etags and page tokens shaped like YouTube's.
//!
//! Video ids are 11 characters of URL-safe base64 holding 64 bits, so the last character is one
//! of `AEIMQUYcgkosw048`; channel ids are `UC` and 22 characters holding 128 bits, the last one
//! of `AQgw`. Page tokens copy the structure of the real ones (`EAAaBlBUOkNESQ` is the second
//! page of 50 playlist items, `CAUQAA` the second page of 5 search results) so that clients
//! treat them as the opaque strings they are.

const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 of `bytes` in `alphabet`, `=`-padded when `pad`.
fn encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let sextets = [n >> 18, n >> 12, n >> 6, n];
        for (i, sextet) in sextets.iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(alphabet[(sextet & 63) as usize]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// URL-safe base64 without padding, as YouTube's ids, etags and page tokens use.
pub(crate) fn base64_url(bytes: &[u8]) -> String {
    encode(bytes, URL_SAFE, false)
}

/// Standard padded base64, as in playlist item ids.
pub(crate) fn base64_standard(bytes: &[u8]) -> String {
    encode(bytes, STANDARD, true)
}

/// Decodes unpadded URL-safe base64; `None` for anything else.
fn decode_base64_url(text: &str) -> Option<Vec<u8>> {
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for byte in text.bytes() {
        let value = URL_SAFE.iter().position(|&c| c == byte)?;
        acc = (acc << 6) | u32::try_from(value).ok()?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(u8::try_from((acc >> bits) & 0xff).ok()?);
        }
    }
    // Leftover bits must be zero, or two spellings would decode to one token.
    if acc & ((1 << bits) - 1) != 0 {
        return None;
    }
    Some(out)
}

/// The splitmix64 finaliser: a bijection on `u64`, so distinct inputs stay distinct.
pub(crate) fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// FNV-1a over `bytes`, starting from `basis`.
pub(crate) fn fnv1a(bytes: &[u8], basis: u64) -> u64 {
    bytes.iter().fold(basis, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A stable 64-bit hash of a string.
pub(crate) fn hash_str(text: &str) -> u64 {
    mix64(fnv1a(text.as_bytes(), 0xcbf2_9ce4_8422_2325))
}

const MASK58: u64 = (1 << 58) - 1;

/// A bijection on 58-bit values (odd multipliers and right xorshifts are invertible mod 2^58).
fn mix58(mut x: u64) -> u64 {
    x &= MASK58;
    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15) & MASK58;
    x ^= x >> 29;
    x = x.wrapping_mul(0xd6e8_feb8_6659_fd93) & MASK58;
    x ^ (x >> 31)
}

/// An 11-character video id whose low 58 bits are `mix58(low)` and whose first character is
/// chosen by `top`, never `-` (index 62), so ids never look like command-line options.
fn video_id_from(top: u64, low: u64) -> String {
    let mut first = top % 63;
    if first == 62 {
        first = 63;
    }
    base64_url(&((first << 58) | mix58(low)).to_be_bytes())
}

/// A deterministic, valid channel id (`UC` + 22 characters); distinct seeds give distinct ids.
#[must_use]
pub fn channel_id(seed: u32) -> String {
    let seed = u64::from(seed);
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&mix64(seed ^ 0x5343_5242_5641_554c).to_be_bytes());
    bytes[8..].copy_from_slice(&mix64(seed.wrapping_add(0x9e37_79b9_7f4a_7c15)).to_be_bytes());
    format!("UC{}", base64_url(&bytes))
}

/// A deterministic, valid 11-character video id; distinct seeds give distinct ids, and none
/// starts with `-`.
#[must_use]
pub fn video_id(seed: u32) -> String {
    let seed = u64::from(seed);
    video_id_from(mix64(seed ^ 0x7669_6465_6f00_0001) >> 58, seed)
}

/// The id of the `index`th generated video of `channel`: distinct for distinct indexes of one
/// channel, and (by hashing) of different channels.
pub(crate) fn generated_video_id(channel: &str, index: u64) -> String {
    let hash = hash_str(channel);
    video_id_from(mix64(hash ^ index) >> 58, hash ^ index)
}

/// A 27-character etag (20 bytes of URL-safe base64), like the real ones, derived from `content`
/// so that it changes when the content does.
pub(crate) fn etag(content: &str) -> String {
    let bytes = content.as_bytes();
    let mut digest = Vec::with_capacity(24);
    for basis in [
        0xcbf2_9ce4_8422_2325_u64,
        0x6a09_e667_f3bc_c908,
        0xbb67_ae85_84ca_a73b,
    ] {
        digest.extend_from_slice(&mix64(fnv1a(bytes, basis)).to_be_bytes());
    }
    base64_url(&digest[..20])
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let low = u8::try_from(value & 0x7f).unwrap_or(0);
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn read_varint(bytes: &[u8]) -> Option<(u64, &[u8])> {
    let mut value = 0u64;
    for (i, &byte) in bytes.iter().enumerate().take(10) {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((value, &bytes[i + 1..]));
        }
    }
    None
}

/// Which way a token points; the real tokens carry it, the offset alone decides the page here.
#[derive(Clone, Copy)]
pub(crate) enum Direction {
    Next,
    Previous,
}

impl Direction {
    fn flag(self) -> u8 {
        match self {
            Self::Next => 0,
            Self::Previous => 1,
        }
    }
}

/// A playlist-style page token (`playlistItems`, `playlists`) for the page starting at `offset`.
pub(crate) fn list_token(offset: usize, direction: Direction) -> String {
    let mut inner = vec![0x08];
    push_varint(&mut inner, offset as u64);
    let inner = format!("PT:{}", base64_url(&inner));
    let mut outer = vec![0x10, direction.flag(), 0x1a];
    outer.push(u8::try_from(inner.len()).unwrap_or(u8::MAX));
    outer.extend_from_slice(inner.as_bytes());
    base64_url(&outer)
}

/// The offset a [`list_token`] points at; `None` when `token` is not one.
pub(crate) fn parse_list_token(token: &str) -> Option<usize> {
    let bytes = decode_base64_url(token)?;
    let [0x10, 0 | 1, 0x1a, len, rest @ ..] = bytes.as_slice() else {
        return None;
    };
    if usize::from(*len) != rest.len() {
        return None;
    }
    let inner = std::str::from_utf8(rest).ok()?.strip_prefix("PT:")?;
    let inner = decode_base64_url(inner)?;
    let [0x08, varint @ ..] = inner.as_slice() else {
        return None;
    };
    let (offset, tail) = read_varint(varint)?;
    if !tail.is_empty() {
        return None;
    }
    usize::try_from(offset).ok()
}

/// A search page token for the page starting at `offset`.
pub(crate) fn search_token(offset: usize, direction: Direction) -> String {
    let mut bytes = vec![0x08];
    push_varint(&mut bytes, offset as u64);
    bytes.extend_from_slice(&[0x10, direction.flag()]);
    base64_url(&bytes)
}

/// The offset a [`search_token`] points at; `None` when `token` is not one.
pub(crate) fn parse_search_token(token: &str) -> Option<usize> {
    let bytes = decode_base64_url(token)?;
    let [0x08, rest @ ..] = bytes.as_slice() else {
        return None;
    };
    let (offset, tail) = read_varint(rest)?;
    if !matches!(tail, [0x10, 0 | 1]) {
        return None;
    }
    usize::try_from(offset).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_match_the_real_spelling_and_round_trip() {
        assert_eq!(list_token(50, Direction::Next), "EAAaBlBUOkNESQ");
        assert_eq!(search_token(5, Direction::Next), "CAUQAA");
        for offset in [0, 1, 5, 49, 50, 127, 128, 300, 20_000] {
            assert_eq!(
                parse_list_token(&list_token(offset, Direction::Next)),
                Some(offset)
            );
            assert_eq!(
                parse_list_token(&list_token(offset, Direction::Previous)),
                Some(offset)
            );
            assert_eq!(
                parse_search_token(&search_token(offset, Direction::Next)),
                Some(offset)
            );
        }
        for bad in ["", "50", "abc", "EAAaBlBUOkNESQx", "CAUQAA", "!!!!"] {
            assert_eq!(parse_list_token(bad), None, "{bad}");
        }
        assert_eq!(parse_search_token("EAAaBlBUOkNESQ"), None);
    }

    #[test]
    fn base64_matches_known_values() {
        assert_eq!(base64_standard(b"UU.q"), "VVUucQ==");
        assert_eq!(base64_url(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode_base64_url("-_8"), Some(vec![0xfb, 0xff]));
        assert_eq!(decode_base64_url("-_9"), None);
    }

    #[test]
    fn ids_have_the_real_alphabet_and_shape() {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..5_000 {
            let video = video_id(seed);
            assert_eq!(video.len(), 11);
            assert!(!video.starts_with('-'));
            assert!("AEIMQUYcgkosw048".contains(&video[10..]), "{video}");
            assert!(seen.insert(video));
            let channel = channel_id(seed);
            assert_eq!(channel.len(), 24);
            assert!(channel.starts_with("UC"));
            assert!("AQgw".contains(&channel[23..]), "{channel}");
            assert!(seen.insert(channel));
        }
        assert_eq!(etag("x").len(), 27);
    }
}
