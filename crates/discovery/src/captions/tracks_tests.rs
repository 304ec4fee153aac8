//! The choice on info JSON shaped as yt-dlp 2026.10.26 writes it for YouTube videos.

use serde_json::{Value, json};

use super::*;

/// A track offered in YouTube's formats, as yt-dlp lists it.
fn track() -> Value {
    json!([{ "ext": "json3", "url": "https://www.youtube.com/api/timedtext?fmt=json3" },
           { "ext": "srv1" }, { "ext": "vtt" }])
}

fn info(value: Value) -> VideoInfo {
    serde_json::from_value(value).unwrap()
}

fn keys(keys: &[&str]) -> Value {
    Value::Object(
        keys.iter()
            .map(|key| ((*key).to_owned(), track()))
            .collect(),
    )
}

fn chosen(value: Value) -> Option<(String, TranscriptSource)> {
    choose_track(&info(value)).map(|track| (track.key, track.source))
}

#[test]
fn the_uploaders_track_in_the_original_language_comes_before_the_automatic_one() {
    let video = json!({
        "subtitles": keys(&["en-GB", "en", "de"]),
        "automatic_captions": keys(&["en-orig", "en", "de", "fr", "ja"]),
    });
    assert_eq!(
        chosen(video),
        Some(("en".into(), TranscriptSource::CaptionsUploader))
    );
}

#[test]
fn without_the_uploaders_the_automatic_original_is_used_never_its_translations() {
    let video = json!({ "automatic_captions": keys(&["de", "en", "en-orig", "fr"]) });
    assert_eq!(
        chosen(video),
        Some(("en-orig".into(), TranscriptSource::CaptionsAuto))
    );
}

#[test]
fn an_uploaders_translation_is_not_the_original_language() {
    // A German video whose uploader added English subtitles only.
    let video = json!({
        "subtitles": keys(&["en"]),
        "automatic_captions": keys(&["de-orig", "de", "en", "fr"]),
        "formats": [{ "acodec": "opus", "language": "de", "language_preference": 10 }],
    });
    assert_eq!(
        chosen(video),
        Some(("de-orig".into(), TranscriptSource::CaptionsAuto))
    );
}

#[test]
fn a_dubbed_video_takes_the_original_audios_language_not_a_dubs() {
    let video = json!({
        "automatic_captions": keys(&["es-orig", "es", "en-orig", "en", "fr"]),
        "formats": [
            { "acodec": "opus", "language": "es", "language_preference": -1 },
            { "acodec": "opus", "language": "en", "language_preference": 10 },
            { "acodec": "none", "vcodec": "vp9" },
        ],
    });
    assert_eq!(
        chosen(video),
        Some(("en-orig".into(), TranscriptSource::CaptionsAuto))
    );
}

#[test]
fn two_originals_and_no_audio_language_is_no_captions() {
    let video = json!({ "automatic_captions": keys(&["es-orig", "en-orig", "en", "es"]) });
    assert_eq!(original_language(&info(video.clone())), None);
    assert_eq!(chosen(video), None);
}

#[test]
fn a_regional_original_matches_the_uploaders_plain_code() {
    let video = json!({
        "subtitles": keys(&["en", "live_chat"]),
        "automatic_captions": keys(&["en-orig"]),
        "formats": [{ "acodec": "mp4a.40.2", "language": "en-US", "language_preference": 10 }],
    });
    assert_eq!(
        chosen(video),
        Some(("en".into(), TranscriptSource::CaptionsUploader))
    );
}

#[test]
fn no_captions_only_translations_or_no_json3_is_no_captions() {
    assert_eq!(chosen(json!({ "id": "x" })), None);
    assert_eq!(
        chosen(json!({ "language": "en", "automatic_captions": keys(&["de", "fr"]) })),
        None
    );
    assert_eq!(
        chosen(json!({ "subtitles": { "live_chat": track() }, "language": "en" })),
        None
    );
    let vtt_only = json!({ "language": "en", "subtitles": { "en": [{ "ext": "vtt" }] } });
    assert_eq!(chosen(vtt_only), None);
}

#[test]
fn the_extractors_language_is_used_when_the_audio_and_the_tracks_do_not_say() {
    let video = json!({ "language": "fr", "subtitles": keys(&["fr", "en"]) });
    assert_eq!(
        chosen(video),
        Some(("fr".into(), TranscriptSource::CaptionsUploader))
    );
}
