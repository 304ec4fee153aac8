//! What a user types into the channel box. Besides not panicking, every id read is the
//! canonical one: reading it back in its own form gives the same target.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[path = "../../crates/discovery/src/domain/channel_url.rs"]
mod channel_url;
// `crate::domain` of channel_url.rs: discovery's own.
#[allow(dead_code)]
#[path = "../../crates/discovery/src/domain/catalog.rs"]
mod domain;

use channel_url::{YouTubeTarget, parse};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(target) = parse(text) else {
        return;
    };
    let again = match &target {
        YouTubeTarget::ChannelId(id) => {
            assert!(id.len() == 24 && id.starts_with("UC"), "channel id {id:?}");
            parse(id)
        }
        YouTubeTarget::Handle(handle) => {
            assert!(
                !handle.is_empty()
                    && handle.chars().count() <= 100
                    && !handle.chars().any(|c| c.is_whitespace() || c.is_control()),
                "handle {handle:?}"
            );
            parse(&format!("@{handle}"))
        }
        YouTubeTarget::Video(id) => {
            assert_eq!(id.len(), 11, "video id {id:?}");
            parse(&format!("https://youtu.be/{id}"))
        }
        YouTubeTarget::Playlist(id) => {
            parse(&format!("https://www.youtube.com/playlist?list={id}"))
        }
        YouTubeTarget::Username(_) | YouTubeTarget::CustomName(_) => return,
    };
    assert_eq!(again, Ok(target), "for input {text:?}");
});
