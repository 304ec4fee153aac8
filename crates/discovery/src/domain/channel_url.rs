//! What a user typed into the channel box, read as the YouTube list it names.
//!
//! Channels are named in many ways (`@handle`, `/channel/UC…`, `/user/…`, `/c/…`, a video of the
//! channel); reading the text here, without the network, lets the service pick the one-unit API
//! call that resolves each form and refuse what is not YouTube before spending anything.

use crate::domain::is_video_id;

/// The list a URL names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YouTubeTarget {
    /// `/channel/UC…` (or a bare `UC…` id).
    ChannelId(String),
    /// `@handle`, without the `@`, as typed (the API matches it case-insensitively).
    Handle(String),
    /// `/user/name`: a legacy username.
    Username(String),
    /// `/c/name` or `/name`: a legacy custom URL, which no lookup parameter resolves.
    CustomName(String),
    /// A video (`watch?v=`, `youtu.be/`, `/shorts/`, `/live/`, `/embed/`): its channel is meant.
    Video(String),
    /// `playlist?list=…`.
    Playlist(String),
}

/// Why a text names no YouTube list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetError {
    /// Nothing but spaces.
    Blank,
    /// Not a YouTube channel, video or playlist URL.
    NotYouTube,
}

/// First path segments that are YouTube pages, never a legacy `/name` custom URL.
const RESERVED_SEGMENTS: &[&str] = &[
    "watch",
    "results",
    "feed",
    "playlist",
    "shorts",
    "live",
    "embed",
    "v",
    "channel",
    "user",
    "c",
    "gaming",
    "premium",
    "account",
    "about",
    "t",
    "hashtag",
    "post",
    "signin",
    "logout",
    "redirect",
    "attribution_link",
    "music",
    "kids",
    "upload",
    "studio",
];

/// Reads `input` as a channel, video or playlist URL.
///
/// # Errors
/// [`TargetError::Blank`] for empty input; [`TargetError::NotYouTube`] for anything else that is
/// not one of the accepted forms.
pub fn parse(input: &str) -> Result<YouTubeTarget, TargetError> {
    let text = input.trim();
    if text.is_empty() {
        return Err(TargetError::Blank);
    }
    if let Some(handle) = text.strip_prefix('@') {
        return handle_target(handle);
    }
    if is_channel_id(text) {
        return Ok(YouTubeTarget::ChannelId(text.to_owned()));
    }
    let with_scheme = if text.contains("://") {
        text.to_owned()
    } else {
        format!("https://{text}")
    };
    let url = url::Url::parse(&with_scheme).map_err(|_| TargetError::NotYouTube)?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(TargetError::NotYouTube);
    }
    let host = url
        .host_str()
        .ok_or(TargetError::NotYouTube)?
        .to_ascii_lowercase();
    let segments: Vec<String> = url
        .path_segments()
        .map(|segments| {
            segments
                .filter(|segment| !segment.is_empty())
                .map(|segment| {
                    url::form_urlencoded::parse(format!("s={segment}").as_bytes())
                        .next()
                        .map(|(_, value)| value.into_owned())
                        .unwrap_or_default()
                })
                .collect()
        })
        .unwrap_or_default();
    let query = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    match host.as_str() {
        "youtu.be" | "www.youtu.be" => match segments.first() {
            Some(id) => video_target(id),
            None => Err(TargetError::NotYouTube),
        },
        "youtube.com" | "www.youtube.com" | "m.youtube.com" | "music.youtube.com" => {
            let first = segments.first().map(String::as_str);
            let second = segments.get(1).map(String::as_str);
            match (first, second) {
                (Some("watch"), _) => video_target(&query("v").unwrap_or_default()),
                (Some("shorts" | "live" | "embed" | "v"), Some(id)) => video_target(id),
                (Some("playlist"), _) => playlist_target(&query("list").unwrap_or_default()),
                (Some("channel"), Some(id)) if is_channel_id(id) => {
                    Ok(YouTubeTarget::ChannelId(id.to_owned()))
                }
                (Some("user"), Some(name)) => Ok(YouTubeTarget::Username(name.to_owned())),
                (Some("c"), Some(name)) => Ok(YouTubeTarget::CustomName(name.to_owned())),
                (Some(segment), _) if segment.starts_with('@') => handle_target(&segment[1..]),
                (Some(segment), _)
                    if !RESERVED_SEGMENTS.contains(&segment.to_ascii_lowercase().as_str())
                        && is_name(segment) =>
                {
                    Ok(YouTubeTarget::CustomName(segment.to_owned()))
                }
                _ => Err(TargetError::NotYouTube),
            }
        }
        _ => Err(TargetError::NotYouTube),
    }
}

/// `UC` and 22 URL-safe characters.
fn is_channel_id(text: &str) -> bool {
    text.len() == 24
        && text.starts_with("UC")
        && text
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// A handle or custom name: no spaces, slashes or control characters (non-Latin letters are
/// allowed: handles may be in any script).
fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text.chars().count() <= 100
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '/' | '?' | '#' | '@'))
}

fn handle_target(handle: &str) -> Result<YouTubeTarget, TargetError> {
    let handle = handle.split('/').next().unwrap_or_default();
    if is_name(handle) {
        Ok(YouTubeTarget::Handle(handle.to_owned()))
    } else {
        Err(TargetError::NotYouTube)
    }
}

fn video_target(id: &str) -> Result<YouTubeTarget, TargetError> {
    if is_video_id(id) {
        Ok(YouTubeTarget::Video(id.to_owned()))
    } else {
        Err(TargetError::NotYouTube)
    }
}

fn playlist_target(id: &str) -> Result<YouTubeTarget, TargetError> {
    let valid = (2..=64).contains(&id.len())
        && id
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_');
    if valid {
        Ok(YouTubeTarget::Playlist(id.to_owned()))
    } else {
        Err(TargetError::NotYouTube)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "UCX6OQ3DkcsbYNE6H8uQQuVA";

    fn handle(name: &str) -> Result<YouTubeTarget, TargetError> {
        Ok(YouTubeTarget::Handle(name.to_owned()))
    }

    #[test]
    fn every_channel_form_is_read() {
        for (input, expected) in [
            ("https://www.youtube.com/@MrBeast", handle("MrBeast")),
            (
                "  https://www.youtube.com/@MrBeast/videos  ",
                handle("MrBeast"),
            ),
            (
                "https://youtube.com/@MrBeast/featured?si=abc",
                handle("MrBeast"),
            ),
            ("https://m.youtube.com/@MrBeast", handle("MrBeast")),
            ("www.youtube.com/@MrBeast", handle("MrBeast")),
            ("@MrBeast", handle("MrBeast")),
            (
                "https://www.youtube.com/@%E3%81%82%E3%81%84",
                handle("あい"),
            ),
            (
                &format!("https://www.youtube.com/channel/{ID}"),
                Ok(YouTubeTarget::ChannelId(ID.into())),
            ),
            (
                &format!("http://youtube.com/channel/{ID}/videos?view=0"),
                Ok(YouTubeTarget::ChannelId(ID.into())),
            ),
            (ID, Ok(YouTubeTarget::ChannelId(ID.into()))),
            (
                "https://www.youtube.com/user/PewDiePie",
                Ok(YouTubeTarget::Username("PewDiePie".into())),
            ),
            (
                "https://www.youtube.com/c/Veritasium/videos",
                Ok(YouTubeTarget::CustomName("Veritasium".into())),
            ),
            (
                "https://www.youtube.com/Veritasium",
                Ok(YouTubeTarget::CustomName("Veritasium".into())),
            ),
            (
                "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
                Ok(YouTubeTarget::Video("dQw4w9WgXcQ".into())),
            ),
            (
                "https://youtu.be/dQw4w9WgXcQ?si=x",
                Ok(YouTubeTarget::Video("dQw4w9WgXcQ".into())),
            ),
            (
                "https://www.youtube.com/shorts/-bc_DEF1234",
                Ok(YouTubeTarget::Video("-bc_DEF1234".into())),
            ),
            (
                "https://www.youtube.com/live/dQw4w9WgXcQ",
                Ok(YouTubeTarget::Video("dQw4w9WgXcQ".into())),
            ),
            (
                "https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf",
                Ok(YouTubeTarget::Playlist(
                    "PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf".into(),
                )),
            ),
        ] {
            assert_eq!(parse(input), expected, "{input}");
        }
    }

    #[test]
    fn blank_and_foreign_input_is_refused() {
        assert_eq!(parse(""), Err(TargetError::Blank));
        assert_eq!(parse("   \t"), Err(TargetError::Blank));
        for input in [
            "https://vimeo.com/@someone",
            "https://www.youtube.com.evil.example/@x",
            "https://www.youtube.com/",
            "https://www.youtube.com/watch",
            "https://www.youtube.com/watch?v=short",
            "https://www.youtube.com/results?search_query=cats",
            "https://www.youtube.com/channel/not-an-id",
            "https://www.youtube.com/playlist",
            "javascript:alert(1)",
            "ftp://youtube.com/@x",
            "not a url at all",
            "@",
            "@two words",
            "https://youtu.be/",
        ] {
            assert_eq!(parse(input), Err(TargetError::NotYouTube), "{input}");
        }
    }
}
