//! How a download reports its progress on stdout.
//!
//! On a terminal: an `indicatif` bar (bytes, total, rate, time left) redrawn in place. Anywhere
//! else (CI logs, `make run` piped through `tee`, an init container's log) a redrawn bar would
//! become thousands of lines, so plain lines are printed instead, one per tenth of the file (or
//! per 100 MiB when the server sends no length).

use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use indicatif::{HumanBytes, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Bar layout when the length is known.
const BAR_TEMPLATE: &str =
    "{msg} [{wide_bar}] {bytes}/{total_bytes} {binary_bytes_per_sec}, {eta} left";
/// Layout when the server sent no length: no bar, no ETA.
const SPINNER_TEMPLATE: &str = "{msg} {spinner} {bytes} {binary_bytes_per_sec}";
/// Plain-line step when the length is unknown.
const UNKNOWN_LENGTH_STEP: u64 = 100 * 1024 * 1024;

/// Progress of one download.
pub enum Progress {
    Bar(ProgressBar),
    Lines(PlainLines),
}

impl Progress {
    /// A bar when stdout is a terminal, plain lines otherwise.
    pub fn start(name: &str, total: Option<u64>) -> Self {
        if std::io::stdout().is_terminal() {
            Self::Bar(bar(name, total))
        } else {
            Self::Lines(PlainLines::new(name, total, Instant::now()))
        }
    }

    /// `written` bytes are on disk so far.
    pub fn set(&mut self, written: u64) {
        match self {
            Self::Bar(bar) => bar.set_position(written),
            Self::Lines(lines) => {
                if let Some(line) = lines.advance(written, Instant::now()) {
                    println!("{line}");
                }
            }
        }
    }

    /// The body is complete: leave the full bar on screen.
    pub fn finish(&self) {
        if let Self::Bar(bar) = self {
            bar.finish();
        }
    }

    /// The download failed: stop redrawing and leave the bar where it stopped, so the error
    /// printed next is not overdrawn.
    pub fn abandon(&self) {
        if let Self::Bar(bar) = self {
            bar.abandon();
        }
    }
}

fn bar(name: &str, total: Option<u64>) -> ProgressBar {
    let template = if total.is_some() {
        BAR_TEMPLATE
    } else {
        SPINNER_TEMPLATE
    };
    // The templates are constants covered by a test; a fallback beats failing a download.
    let style = ProgressStyle::with_template(template)
        .map(|style| style.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::with_draw_target(total, ProgressDrawTarget::stdout())
        .with_style(style)
        .with_message(format!("ggml-{name}.bin"))
}

/// Decides when to print a plain progress line and what it says.
pub struct PlainLines {
    name: String,
    total: Option<u64>,
    started: Instant,
    /// The next threshold to report: a percentage when the length is known, else bytes.
    next: u64,
}

impl PlainLines {
    pub fn new(name: &str, total: Option<u64>, started: Instant) -> Self {
        Self {
            name: name.to_owned(),
            total,
            started,
            next: if total.is_some() {
                10
            } else {
                UNKNOWN_LENGTH_STEP
            },
        }
    }

    /// The line to print once `written` bytes have arrived at `now`, if a threshold was crossed.
    pub fn advance(&mut self, written: u64, now: Instant) -> Option<String> {
        let elapsed = now.saturating_duration_since(self.started);
        let rate = rate(written, elapsed);
        match self.total {
            Some(total) => {
                let percent = written.saturating_mul(100) / total.max(1);
                if percent < self.next || written >= total {
                    return None;
                }
                self.next = (percent / 10 + 1) * 10;
                let left = total.saturating_sub(written);
                let eta = if rate > 0.0 {
                    format!(
                        ", {} left",
                        HumanDuration(Duration::from_secs_f64(left as f64 / rate))
                    )
                } else {
                    String::new()
                };
                Some(format!(
                    "{}: {percent} % ({} of {}, {}/s{eta})",
                    self.name,
                    HumanBytes(written),
                    HumanBytes(total),
                    HumanBytes(rate as u64),
                ))
            }
            None => {
                if written < self.next {
                    return None;
                }
                self.next = (written / UNKNOWN_LENGTH_STEP + 1) * UNKNOWN_LENGTH_STEP;
                Some(format!(
                    "{}: {} ({}/s)",
                    self.name,
                    HumanBytes(written),
                    HumanBytes(rate as u64)
                ))
            }
        }
    }
}

/// Average bytes per second so far.
fn rate(written: u64, elapsed: Duration) -> f64 {
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        written as f64 / seconds
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_parse() {
        assert!(ProgressStyle::with_template(BAR_TEMPLATE).is_ok());
        assert!(ProgressStyle::with_template(SPINNER_TEMPLATE).is_ok());
    }

    /// Feeds `total` bytes in 64 KiB chunks, one millisecond apart, and returns the lines.
    fn lines_for(total: Option<u64>, size: u64) -> Vec<String> {
        let start = Instant::now();
        let mut lines = PlainLines::new("tiny.en", total, start);
        let mut printed = Vec::new();
        let mut written = 0;
        let mut tick = 0;
        while written < size {
            written = (written + 64 * 1024).min(size);
            tick += 1;
            printed.extend(lines.advance(written, start + Duration::from_millis(tick)));
        }
        printed
    }

    #[test]
    fn a_known_length_gives_one_line_per_tenth_with_rate_and_time_left() {
        let size = 77_704_698;
        let lines = lines_for(Some(size), size);
        assert_eq!(lines.len(), 9, "{lines:#?}");
        assert!(lines[0].starts_with("tiny.en: 10 % ("), "{}", lines[0]);
        assert!(lines[0].contains(" of 74.10 MiB, "), "{}", lines[0]);
        assert!(
            lines[0].contains("/s, ") && lines[0].ends_with(" left)"),
            "{}",
            lines[0]
        );
        assert!(lines[8].starts_with("tiny.en: 90 % ("), "{}", lines[8]);
    }

    #[test]
    fn big_chunks_skip_tenths_without_repeating_lines() {
        let start = Instant::now();
        let mut lines = PlainLines::new("m", Some(1000), start);
        let later = start + Duration::from_secs(1);
        assert!(lines.advance(50, later).is_none());
        assert!(lines.advance(350, later).unwrap().starts_with("m: 35 % "));
        assert!(lines.advance(390, later).is_none());
        assert!(lines.advance(400, later).unwrap().starts_with("m: 40 % "));
        assert!(
            lines.advance(1000, later).is_none(),
            "the saved line says 100 %"
        );
    }

    #[test]
    fn an_unknown_length_gives_a_line_per_100_mib() {
        let lines = lines_for(None, 250 * 1024 * 1024);
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(
            lines[0].starts_with("tiny.en: 100.00 MiB ("),
            "{}",
            lines[0]
        );
    }
}
