//! A video's own captions with yt-dlp, in two runs under the same process rules as a download
//! (`child.rs`): `-J` lists the video's tracks (its info JSON), the track in the original
//! language is chosen (`captions/tracks.rs`), and `--load-info-json` fetches that one track as
//! json3 from the listing, without reading the video's page again. The info handed to the
//! second run names only the chosen track and no page (`webpage_url`): yt-dlp retries a failed
//! download from the page when it has one, which would read the page again and hide the error.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::child::{OutputLines, run};
use super::failure::classify;
use super::{CaptionFailure, CaptionFetcher, FetchFailure, YtDlp};
use crate::captions::{
    CAPTION_FORMAT, CaptionTranscript, ChosenTrack, VideoInfo, choose_track, segments_from_json3,
};
use scribevault_bus::contract::TranscriptSource;

/// The fields of the info JSON the fetch keeps (what `--load-info-json` needs to name the
/// video and its files).
const KEPT_FIELDS: [&str; 5] = ["id", "title", "extractor", "extractor_key", "display_id"];

/// `-J`'s stdout: the info JSON, on one line.
#[derive(Default)]
struct InfoOutput {
    json: String,
}

impl OutputLines for InfoOutput {
    fn line(&mut self, line: String) {
        if line.starts_with('{') {
            self.json = line;
        }
    }
}

/// Output nobody reads.
struct Ignored;

impl OutputLines for Ignored {
    fn line(&mut self, _line: String) {}
}

impl From<FetchFailure> for CaptionFailure {
    fn from(failure: FetchFailure) -> Self {
        match failure {
            FetchFailure::Stopped => Self::Stopped,
            FetchFailure::Refused(reason) if reason.contains("HTTP Error 429") => {
                Self::RateLimited(reason)
            }
            other => Self::Failed(other.to_string()),
        }
    }
}

/// The info the fetch runs on: the video's names and the chosen track alone.
fn info_for_fetch(info: &Map<String, Value>, track: &ChosenTrack) -> Value {
    let mut kept: Map<String, Value> = KEPT_FIELDS
        .iter()
        .filter_map(|field| Some(((*field).to_owned(), info.get(*field)?.clone())))
        .collect();
    let list = match track.source {
        TranscriptSource::CaptionsUploader => "subtitles",
        _ => "automatic_captions",
    };
    let formats = info
        .get(list)
        .and_then(|tracks| tracks.get(&track.key))
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    kept.insert(
        list.to_owned(),
        Value::Object(Map::from_iter([(track.key.clone(), formats)])),
    );
    Value::Object(kept)
}

impl YtDlp {
    /// `-J` for one video: its info JSON.
    fn listing_arguments(&self, video_id: &str) -> Vec<OsString> {
        let mut args: Vec<OsString> = [
            "--ignore-config",
            "--no-cache-dir",
            "--no-playlist",
            "--skip-download",
            "--dump-json",
            "--socket-timeout",
            "30",
            "--",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        args.push(self.watch_url(video_id).into());
        args
    }

    /// Fetches one track of `info_path` as json3 into `work_dir`, as `captions.<key>.json3`.
    fn fetch_arguments(
        &self,
        info_path: &Path,
        track: &ChosenTrack,
        work_dir: &Path,
    ) -> Vec<OsString> {
        let which = match track.source {
            TranscriptSource::CaptionsUploader => "--write-subs",
            _ => "--write-auto-subs",
        };
        let mut args: Vec<OsString> = vec![
            "--ignore-config".into(),
            "--no-cache-dir".into(),
            // Report the failure of the track's download (a 429) as an error, not in silence.
            "--abort-on-error".into(),
            "--skip-download".into(),
            "--ignore-no-formats-error".into(),
            "--load-info-json".into(),
            info_path.as_os_str().to_owned(),
            which.into(),
            "--sub-langs".into(),
            // The exact key: a pattern could match translations or dubs.
            format!("^{}$", regex_escape(&track.key)).into(),
            "--sub-format".into(),
            CAPTION_FORMAT.into(),
            "--socket-timeout".into(),
            "30".into(),
            "-R".into(),
            self.options.retries.to_string().into(),
            "-P".into(),
            work_dir.as_os_str().to_owned(),
            "-o".into(),
            "captions.%(ext)s".into(),
        ];
        let sleep = self.options.captions_sleep.as_secs();
        if sleep > 0 {
            args.push("--sleep-subtitles".into());
            args.push(sleep.to_string().into());
        }
        args
    }

    /// The video's info JSON, from `-J`.
    async fn list_tracks(
        &self,
        video_id: &str,
        work_dir: &Path,
        stop: &CancellationToken,
    ) -> Result<Map<String, Value>, CaptionFailure> {
        let finished = run(
            &self.launcher,
            self.listing_arguments(video_id),
            work_dir,
            InfoOutput::default(),
            stop,
            self.options.timeout,
        )
        .await?;
        if !finished.status.success() {
            return Err(classify(finished.status.code(), &finished.stderr).into());
        }
        let json = finished
            .stdout
            .map(|output| output.json)
            .unwrap_or_default();
        serde_json::from_str(&json).map_err(|error| {
            CaptionFailure::Failed(format!("yt-dlp's video info is not JSON: {error}"))
        })
    }

    /// Fetches `track` of the listed video and reads it.
    async fn fetch_track(
        &self,
        info: &Map<String, Value>,
        track: &ChosenTrack,
        work_dir: &Path,
        stop: &CancellationToken,
    ) -> Result<Vec<scribevault_bus::contract::TranscriptSegment>, CaptionFailure> {
        let info_path = work_dir.join("captions.info.json");
        let body = serde_json::to_vec(&info_for_fetch(info, track))
            .map_err(|error| CaptionFailure::Failed(error.to_string()))?;
        tokio::fs::write(&info_path, body)
            .await
            .map_err(|error| CaptionFailure::Failed(format!("work directory: {error}")))?;
        let written: PathBuf = work_dir.join(format!("captions.{}.{CAPTION_FORMAT}", track.key));
        let finished = run(
            &self.launcher,
            self.fetch_arguments(&info_path, track, work_dir),
            work_dir,
            Ignored,
            stop,
            self.options.timeout,
        )
        .await;
        let _ = tokio::fs::remove_file(&info_path).await;
        let finished = finished?;
        let body = tokio::fs::read(&written).await;
        let _ = tokio::fs::remove_file(&written).await;
        if !finished.status.success() {
            return Err(classify(finished.status.code(), &finished.stderr).into());
        }
        let body = body.map_err(|error| {
            CaptionFailure::Failed(format!("yt-dlp wrote no {} track: {error}", track.key))
        })?;
        segments_from_json3(&body).map_err(|error| CaptionFailure::Failed(error.to_string()))
    }
}

/// `text` with the characters a Python regular expression treats specially escaped.
fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let special = !(c.is_ascii_alphanumeric() || c == '-' || c == '_');
            special
                .then_some('\\')
                .into_iter()
                .chain(std::iter::once(c))
        })
        .collect()
}

#[async_trait]
impl CaptionFetcher for YtDlp {
    async fn fetch_captions(
        &self,
        video_id: &str,
        work_dir: &Path,
        stop: CancellationToken,
    ) -> Result<Option<CaptionTranscript>, CaptionFailure> {
        let info = self.list_tracks(video_id, work_dir, &stop).await?;
        let typed: VideoInfo = serde_json::from_value(Value::Object(info.clone()))
            .map_err(|error| CaptionFailure::Failed(format!("yt-dlp's video info: {error}")))?;
        let Some(track) = choose_track(&typed) else {
            return Ok(None);
        };
        let segments = self.fetch_track(&info, &track, work_dir, &stop).await?;
        if segments.is_empty() {
            return Ok(None);
        }
        Ok(Some(CaptionTranscript {
            source: track.source,
            language: track.language,
            segments,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_fetch_is_given_the_chosen_track_alone_and_no_page() {
        let info = json!({
            "id": "abc", "title": "A talk", "extractor": "youtube", "extractor_key": "Youtube",
            "webpage_url": "https://www.youtube.com/watch?v=abc",
            "subtitles": { "en": [{ "ext": "json3", "url": "u" }] },
            "automatic_captions": { "en-orig": [{ "ext": "json3", "url": "a" }], "de": [] },
            "formats": [{ "url": "f" }],
        });
        let track = ChosenTrack {
            key: "en-orig".into(),
            source: TranscriptSource::CaptionsAuto,
            language: "en".into(),
        };
        let kept = info_for_fetch(info.as_object().unwrap(), &track);
        assert_eq!(
            kept,
            json!({ "id": "abc", "title": "A talk", "extractor": "youtube",
                "extractor_key": "Youtube",
                "automatic_captions": { "en-orig": [{ "ext": "json3", "url": "a" }] } })
        );
    }

    #[test]
    fn a_429_is_rate_limiting_and_a_stop_stays_a_stop() {
        let limited = CaptionFailure::from(FetchFailure::Refused(
            "Unable to download video subtitles for 'en-orig': HTTP Error 429: Too Many Requests"
                .into(),
        ));
        assert!(matches!(limited, CaptionFailure::RateLimited(_)));
        assert_eq!(
            CaptionFailure::from(FetchFailure::Stopped),
            CaptionFailure::Stopped
        );
        assert!(matches!(
            CaptionFailure::from(FetchFailure::TimedOut(60)),
            CaptionFailure::Failed(_)
        ));
        assert_eq!(regex_escape("en-orig"), "en-orig");
        assert_eq!(regex_escape("zh.Hans"), "zh\\.Hans");
    }
}
