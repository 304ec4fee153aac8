//! A line of yt-dlp's stdout: the progress JSON and the final file's path.
#![no_main]

use libfuzzer_sys::fuzz_target;
#[path = "../../crates/discovery/src/ytdlp/progress.rs"]
mod progress;

use progress::{OutputLine, read_line};

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    match read_line(line) {
        OutputLine::Downloading(percent) => assert!(percent <= 99, "{percent}% before the file"),
        OutputLine::File(path) => {
            assert!(line.starts_with("SVFILE ") && !path.ends_with(char::is_whitespace))
        }
        OutputLine::Other => {}
    }
});
