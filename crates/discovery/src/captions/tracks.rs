//! Which caption track of a video to use, read from yt-dlp's info JSON (`-J`).
//!
//! YouTube lists a video's captions twice (yt-dlp's `youtube/_video.py`): `subtitles`, the
//! tracks the uploader gave, and `automatic_captions`, its speech recognition, where the track
//! in the original language is keyed `<lang>-orig` and every other key is a machine
//! translation of it (`<lang>` alone repeats the original for compatibility). Videos with
//! dubbed audio have `-orig` tracks for the dubs too (yt-dlp #3782, #17659), so the original
//! language comes first from the audio: yt-dlp marks the original audio track's formats with
//! `language_preference` 10. Only a track in that language is used, the uploader's before the
//! automatic one; a translation or a dub never is. When the original language cannot be told,
//! no captions are used and Whisper transcribes the video.

use std::collections::BTreeMap;

use scribevault_bus::contract::TranscriptSource;
use serde::Deserialize;

/// yt-dlp's `language_preference` for the original audio track (`ORIGINAL_LANG_VALUE`).
const ORIGINAL_AUDIO_PREFERENCE: i64 = 10;
/// The caption format read (`--sub-format json3`).
pub const CAPTION_FORMAT: &str = "json3";
/// The suffix yt-dlp gives the automatic track in the original language.
const ORIGINAL_SUFFIX: &str = "-orig";

/// The parts of yt-dlp's info JSON the choice reads.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct VideoInfo {
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub subtitles: BTreeMap<String, Vec<TrackFormat>>,
    #[serde(default)]
    pub automatic_captions: BTreeMap<String, Vec<TrackFormat>>,
    #[serde(default)]
    pub formats: Vec<MediaFormat>,
}

/// One format a caption track is offered in.
#[derive(Debug, Clone, Deserialize)]
pub struct TrackFormat {
    #[serde(default)]
    pub ext: String,
}

/// The language fields of one media format.
#[derive(Debug, Clone, Deserialize)]
pub struct MediaFormat {
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub language_preference: Option<i64>,
    #[serde(default)]
    pub acodec: Option<String>,
}

/// The track to fetch: its key in `subtitles` or `automatic_captions`, and which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenTrack {
    /// The key, as `--sub-langs` takes it.
    pub key: String,
    /// `CaptionsUploader` or `CaptionsAuto`.
    pub source: TranscriptSource,
    /// The original language the track is in.
    pub language: String,
}

/// The language's primary subtag, lower case (`en-US` → `en`): Whisper's code for it.
#[must_use]
pub fn primary(language: &str) -> String {
    language
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// The video's original spoken language: the original audio track's, else the one automatic
/// track marked original when there is exactly one, else what the extractor says.
#[must_use]
pub fn original_language(info: &VideoInfo) -> Option<String> {
    let from_audio = info
        .formats
        .iter()
        .filter(|format| format.acodec.as_deref() != Some("none"))
        .filter(|format| format.language_preference == Some(ORIGINAL_AUDIO_PREFERENCE))
        .find_map(|format| format.language.clone())
        .filter(|language| !language.is_empty());
    if from_audio.is_some() {
        return from_audio;
    }
    let mut originals = info
        .automatic_captions
        .keys()
        .filter_map(|key| key.strip_suffix(ORIGINAL_SUFFIX));
    if let (Some(only), None) = (originals.next(), originals.next()) {
        return Some(only.to_owned());
    }
    info.language
        .clone()
        .filter(|language| !language.is_empty())
}

fn offers_json3(formats: &[TrackFormat]) -> bool {
    formats.iter().any(|format| format.ext == CAPTION_FORMAT)
}

/// The track to use for the video, or `None` (Whisper then): the uploader's in the original
/// language (the exact code first, then the shortest of its regional variants), else the
/// automatic one marked original in that language.
#[must_use]
pub fn choose_track(info: &VideoInfo) -> Option<ChosenTrack> {
    let language = original_language(info)?;
    let wanted = primary(&language);
    let uploader = info
        .subtitles
        .iter()
        .filter(|(key, formats)| {
            key.as_str() != "live_chat" && primary(key) == wanted && offers_json3(formats)
        })
        .map(|(key, _)| key)
        .min_by_key(|key| {
            (
                **key != language,
                **key != wanted,
                key.len(),
                (*key).clone(),
            )
        });
    if let Some(key) = uploader {
        return Some(ChosenTrack {
            key: key.clone(),
            source: TranscriptSource::CaptionsUploader,
            language,
        });
    }
    info.automatic_captions
        .iter()
        .filter(|(key, formats)| {
            key.strip_suffix(ORIGINAL_SUFFIX)
                .is_some_and(|code| primary(code) == wanted)
                && offers_json3(formats)
        })
        .map(|(key, _)| key)
        .min_by_key(|key| (key.len(), (*key).clone()))
        .map(|key| ChosenTrack {
            key: key.clone(),
            source: TranscriptSource::CaptionsAuto,
            language,
        })
}

#[cfg(test)]
#[path = "tracks_tests.rs"]
mod tests;
