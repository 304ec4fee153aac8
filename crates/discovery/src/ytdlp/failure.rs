//! Turning yt-dlp's stderr into a reason a user can act on. yt-dlp exits 1 for every kind of
//! failure, so the `ERROR:` line is what says which (as Pinchflat and Tube Archivist read it).

use super::FetchFailure;

/// What to tell the operator when ffmpeg is missing (yt-dlp needs it to extract MP3).
pub const FFMPEG_MISSING: &str = "ffmpeg is not installed: yt-dlp needs ffmpeg and ffprobe to extract MP3 audio. Install Debian's ffmpeg package (apt-get install ffmpeg)";

/// Longest reason kept from an `ERROR:` line.
const MAX_REASON_CHARS: usize = 300;

/// The failure a finished yt-dlp run with exit `status` and these stderr lines stands for.
#[must_use]
pub fn classify(status: Option<i32>, stderr: &[String]) -> FetchFailure {
    if stderr.iter().any(|line| {
        line.contains("ffprobe and ffmpeg not found") || line.contains("ffmpeg not found")
    }) {
        return FetchFailure::NotInstalled(FFMPEG_MISSING.to_owned());
    }
    let reason = stderr
        .iter()
        .rev()
        .find_map(|line| line.trim().strip_prefix("ERROR:"))
        .map(|reason| {
            reason
                .trim()
                .chars()
                .take(MAX_REASON_CHARS)
                .collect::<String>()
        });
    match (reason, status) {
        (Some(reason), _) => FetchFailure::Refused(reason),
        (None, Some(code)) => FetchFailure::Refused(format!("yt-dlp exited with status {code}")),
        (None, None) => FetchFailure::Refused("yt-dlp was killed by a signal".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn the_error_line_is_the_reason() {
        let stderr = lines(
            "WARNING: [generic] Falling back on generic information extractor\nERROR: [generic] missing: Unable to download webpage: HTTP Error 404: File not found",
        );
        assert_eq!(
            classify(Some(1), &stderr),
            FetchFailure::Refused(
                "[generic] missing: Unable to download webpage: HTTP Error 404: File not found"
                    .into()
            )
        );
    }

    #[test]
    fn a_missing_ffmpeg_says_what_to_install() {
        let stderr = lines(
            "ERROR: Postprocessing: ffprobe and ffmpeg not found. Please install or provide the path using --ffmpeg-location",
        );
        assert_eq!(
            classify(Some(1), &stderr),
            FetchFailure::NotInstalled(FFMPEG_MISSING.into())
        );
    }

    #[test]
    fn without_an_error_line_the_status_is_given() {
        assert_eq!(
            classify(Some(2), &lines("Usage: yt-dlp [OPTIONS] URL")),
            FetchFailure::Refused("yt-dlp exited with status 2".into())
        );
        assert_eq!(
            classify(None, &[]),
            FetchFailure::Refused("yt-dlp was killed by a signal".into())
        );
    }
}
