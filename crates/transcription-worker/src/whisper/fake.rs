//! [`Transcribe`] without whisper, for tests: no model file, no native code, and what it hears
//! is written by the test. It honours the abort flag and reports progress the way whisper does,
//! so the worker's control flow around it is the production one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::{Transcribe, WindowTranscriber};
use crate::audio::WHISPER_SAMPLE_RATE;
use crate::language::LanguagePlan;
use crate::whisper::{DecodeOptions, Decoded, EngineError, Pass, ProgressSpan, Segment, Word};

/// Progress steps through one window.
const STEPS: u32 = 10;
/// How often a window that runs until stopped looks at its abort flag.
const POLL: Duration = Duration::from_millis(10);
/// How long a window that runs until stopped waits for the stop: a test that forgets to stop
/// it fails instead of hanging (the runtime waits for blocking threads when it shuts down).
const NEVER_STOPPED: Duration = Duration::from_secs(30);

/// A scripted speech-to-text engine. Clones share what they have seen.
#[derive(Clone)]
pub struct FakeWhisper {
    text: String,
    /// What a [`Pass::Retry`] hears instead (`None`: the same text).
    retry_text: Option<String>,
    per_window: Duration,
    failing_files: u32,
    until_stopped: bool,
    /// The language it "detects" when a file asks for `auto`.
    detects: String,
    calls: Arc<Mutex<WhisperCalls>>,
    /// The language each file was started with, in order.
    asked: Arc<Mutex<Vec<String>>>,
}

/// What the engine was asked to do so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WhisperCalls {
    /// Files started.
    pub files: u32,
    /// Windows begun.
    pub begun: u32,
    /// Windows transcribed to the end.
    pub windows: u32,
    /// Windows that ended because the abort flag was set.
    pub stopped: u32,
    /// Calls that were the quality guard's re-decodes ([`Pass::Retry`]).
    pub retries: u32,
}

impl FakeWhisper {
    /// Hears `text` in every window, at once.
    #[must_use]
    pub fn saying(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            retry_text: None,
            per_window: Duration::ZERO,
            failing_files: 0,
            until_stopped: false,
            detects: "en".to_owned(),
            calls: Arc::default(),
            asked: Arc::default(),
        }
    }

    /// Detects `language` in files started with `auto` (English unless told).
    #[must_use]
    pub fn detecting(mut self, language: &str) -> Self {
        language.clone_into(&mut self.detects);
        self
    }

    /// The language each file was started with so far (`auto` or a code), in order.
    #[must_use]
    pub fn languages_asked(&self) -> Vec<String> {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Hears `text` when the quality guard decodes a stretch again.
    #[must_use]
    pub fn retrying_with(mut self, text: &str) -> Self {
        self.retry_text = Some(text.to_owned());
        self
    }

    /// Takes `per_window` for each window, its progress moving in tenths.
    #[must_use]
    pub fn taking(mut self, per_window: Duration) -> Self {
        self.per_window = per_window;
        self
    }

    /// The first `files` files fail in their first window, as whisper.cpp fails (a retry may
    /// work).
    #[must_use]
    pub fn failing_first(mut self, files: u32) -> Self {
        self.failing_files = files;
        self
    }

    /// Never finishes a window: it runs, its progress creeping up, until it is stopped.
    #[must_use]
    pub fn until_stopped(mut self) -> Self {
        self.until_stopped = true;
        self
    }

    /// What it has done so far.
    #[must_use]
    pub fn calls(&self) -> WhisperCalls {
        *self.calls.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn note(&self, change: impl FnOnce(&mut WhisperCalls)) {
        change(&mut self.calls.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

impl Transcribe for FakeWhisper {
    fn start(
        &self,
        _model: &str,
        options: &DecodeOptions,
    ) -> Result<Box<dyn WindowTranscriber>, EngineError> {
        let mut number = 0;
        self.note(|seen| {
            number = seen.files;
            seen.files += 1;
        });
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(options.language.clone());
        Ok(Box::new(FakeFile {
            engine: self.clone(),
            fails: number < self.failing_files,
            // As a multilingual model does.
            language: LanguagePlan::new(&options.language, true),
        }))
    }
}

/// One file of the fake.
struct FakeFile {
    engine: FakeWhisper,
    fails: bool,
    language: LanguagePlan,
}

impl FakeFile {
    fn stopped(&self) -> EngineError {
        self.engine.note(|seen| seen.stopped += 1);
        EngineError::Aborted
    }
}

impl WindowTranscriber for FakeFile {
    fn transcribe(
        &mut self,
        pcm: &[f32],
        pass: Pass,
        progress: ProgressSpan,
        abort: Arc<AtomicBool>,
    ) -> Result<Vec<Decoded>, EngineError> {
        self.engine.note(|calls| calls.begun += 1);
        if pass == Pass::Retry {
            self.engine.note(|calls| calls.retries += 1);
        }
        if self.fails {
            return Err(EngineError::Whisper("the fake engine failed".to_owned()));
        }
        if self.engine.until_stopped {
            let started = Instant::now();
            let mut percent = 0;
            while !abort.load(Ordering::Relaxed) {
                if started.elapsed() > NEVER_STOPPED {
                    return Err(EngineError::Whisper(
                        "the fake engine was never stopped".to_owned(),
                    ));
                }
                progress.report(percent);
                percent = (percent + 1).min(99);
                std::thread::sleep(POLL);
            }
            return Err(self.stopped());
        }
        for step in 0..STEPS {
            if abort.load(Ordering::Relaxed) {
                return Err(self.stopped());
            }
            std::thread::sleep(self.engine.per_window / STEPS);
            progress.report(i32::try_from(step * 100 / STEPS).unwrap_or(100));
        }
        progress.report(100);
        self.engine.note(|seen| seen.windows += 1);
        let end_ms = i64::try_from(pcm.len() as u64 * 1000 / u64::from(WHISPER_SAMPLE_RATE))
            .unwrap_or(i64::MAX);
        let text = match (pass, &self.engine.retry_text) {
            (Pass::Retry, Some(text)) => text,
            _ => &self.engine.text,
        };
        self.language
            .after_window(Some(&self.engine.detects), !text.trim().is_empty());
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        Ok(vec![Decoded {
            segment: segment(text, end_ms),
            avg_logprob: -0.2,
            tokens: u32::try_from(text.split_whitespace().count()).unwrap_or(u32::MAX),
            no_speech_prob: 0.0,
        }])
    }

    fn language(&self) -> Option<String> {
        self.language.language().map(str::to_owned)
    }
}

/// `text` heard from 0 to `end_ms`, its words spread evenly.
fn segment(text: &str, end_ms: i64) -> Segment {
    let spoken: Vec<&str> = text.split_whitespace().collect();
    let each = end_ms / i64::try_from(spoken.len().max(1)).unwrap_or(1);
    let words = (0_i64..)
        .zip(&spoken)
        .map(|(index, word)| Word {
            start_ms: index * each,
            end_ms: (index + 1) * each,
            text: (*word).to_owned(),
            probability: 1.0,
        })
        .collect();
    Segment {
        start_ms: 0,
        end_ms,
        text: text.to_owned(),
        words,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;

    fn run(engine: &FakeWhisper, abort: bool) -> Result<Vec<Segment>, EngineError> {
        let mut file = engine.start("tiny.en", &DecodeOptions::new(1, "en"))?;
        let decoded = file.transcribe(
            &vec![0.0; 16_000 * 2],
            Pass::First,
            ProgressSpan::whole(Arc::new(AtomicU32::new(0))),
            Arc::new(AtomicBool::new(abort)),
        )?;
        Ok(decoded.into_iter().map(|decoded| decoded.segment).collect())
    }

    #[test]
    fn it_hears_its_script_over_the_whole_window_and_fails_only_the_files_it_is_told_to() {
        let engine = FakeWhisper::saying("one two").failing_first(1);
        assert!(matches!(run(&engine, false), Err(EngineError::Whisper(_))));
        let heard = run(&engine, false).unwrap();
        assert_eq!(heard[0].text, "one two");
        assert_eq!(heard[0].end_ms, 2000);
        assert_eq!(heard[0].words[1].start_ms, 1000);
        assert!(matches!(run(&engine, true), Err(EngineError::Aborted)));
        assert_eq!(
            engine.calls(),
            WhisperCalls {
                files: 3,
                begun: 3,
                windows: 1,
                stopped: 1,
                retries: 0,
            }
        );
    }
}
