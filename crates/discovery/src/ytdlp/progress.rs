//! yt-dlp's machine-readable output: the lines our `--progress-template` and `--print` ask for.

use serde::Deserialize;

/// Prefix of a download progress line (`--progress-template 'download:SVDL %(progress)j'`).
pub const DOWNLOAD_PREFIX: &str = "SVDL ";
/// Prefix of the final file's path (`--print 'after_move:SVFILE %(filepath)s'`).
pub const FILE_PREFIX: &str = "SVFILE ";

#[derive(Debug, Deserialize)]
struct DownloadProgress {
    #[serde(default)]
    downloaded_bytes: Option<f64>,
    #[serde(default)]
    total_bytes: Option<f64>,
    #[serde(default)]
    total_bytes_estimate: Option<f64>,
    #[serde(default)]
    status: Option<String>,
}

/// What one stdout line says.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputLine {
    /// Percent of the file downloaded (0-99: converting and storing come after).
    Downloading(u32),
    /// The finished file.
    File(String),
    /// Anything else.
    Other,
}

/// Reads one stdout line.
#[must_use]
pub fn read_line(line: &str) -> OutputLine {
    if let Some(path) = line.strip_prefix(FILE_PREFIX) {
        return OutputLine::File(path.trim_end().to_owned());
    }
    let Some(json) = line.strip_prefix(DOWNLOAD_PREFIX) else {
        return OutputLine::Other;
    };
    let Ok(progress) = serde_json::from_str::<DownloadProgress>(json) else {
        return OutputLine::Other;
    };
    if progress.status.as_deref() == Some("finished") {
        return OutputLine::Downloading(99);
    }
    // `total_bytes` is null when the server sends no length; yt-dlp then estimates.
    let total = progress.total_bytes.or(progress.total_bytes_estimate);
    match (progress.downloaded_bytes, total) {
        (Some(done), Some(total)) if total > 0.0 => {
            let percent = (done / total * 100.0).clamp(0.0, 99.0);
            // Truncation is intended: a whole percent, never 100 before the file is there.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            OutputLine::Downloading(percent as u32)
        }
        _ => OutputLine::Downloading(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines_give_a_percent() {
        // As yt-dlp 2026.10.26 prints it (dependencies-wave2 §3).
        let line = r#"SVDL {"status":"downloading","downloaded_bytes":7168,"total_bytes":65132,"eta":2,"speed":20429.0,"elapsed":0.35,"tmpfilename":"x.part"}"#;
        assert_eq!(read_line(line), OutputLine::Downloading(11));
        let estimate = r#"SVDL {"status":"downloading","downloaded_bytes":500,"total_bytes":null,"total_bytes_estimate":1000}"#;
        assert_eq!(read_line(estimate), OutputLine::Downloading(50));
        let unknown = r#"SVDL {"status":"downloading","downloaded_bytes":500,"total_bytes":null}"#;
        assert_eq!(read_line(unknown), OutputLine::Downloading(0));
        let finished = r#"SVDL {"status":"finished","downloaded_bytes":65132,"total_bytes":65132}"#;
        assert_eq!(read_line(finished), OutputLine::Downloading(99));
    }

    #[test]
    fn the_file_line_names_the_mp3_and_other_lines_are_ignored() {
        assert_eq!(
            read_line("SVFILE /data/dl/j/ep42.mp3"),
            OutputLine::File("/data/dl/j/ep42.mp3".into())
        );
        assert_eq!(
            read_line("[generic] ep42: Downloading webpage"),
            OutputLine::Other
        );
        assert_eq!(read_line("SVDL not json"), OutputLine::Other);
    }
}
