//! The five response formats of OpenAI's transcription API, from the worker's segments.
//! Shapes from openai-python's `types/audio/transcription*.py`: `verbose_json` has `words` at the
//! top level (whisper.cpp's server nests them per segment; OpenAI's clients read the top).

use actix_web::HttpResponse;
use scribevault_bus::contract::TranscriptSegment;
use scribevault_bus::subtitles;
use serde::Serialize;
use utoipa::ToSchema;

use super::form::ResponseFormat;

/// `response_format=json`.
#[derive(Serialize, ToSchema)]
pub struct TranscriptionView {
    text: String,
}

/// One segment of `verbose_json`. The decoder statistics OpenAI reports are not kept per
/// segment here: they answer neutral values, so clients that read them still parse.
#[derive(Serialize, ToSchema)]
pub struct TranscriptionSegmentView {
    id: usize,
    seek: u64,
    /// Seconds from the start of the file.
    start: f64,
    end: f64,
    text: String,
    tokens: Vec<u32>,
    temperature: f32,
    avg_logprob: f32,
    compression_ratio: f32,
    no_speech_prob: f32,
}

/// One word of `verbose_json` (with `timestamp_granularities[]=word`).
#[derive(Serialize, ToSchema)]
pub struct TranscriptionWordView {
    word: String,
    start: f64,
    end: f64,
}

/// `response_format=verbose_json`.
#[derive(Serialize, ToSchema)]
pub struct TranscriptionVerboseView {
    task: &'static str,
    language: String,
    /// Seconds.
    duration: f64,
    text: String,
    segments: Vec<TranscriptionSegmentView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<Vec<TranscriptionWordView>>,
}

fn seconds(ms: i64) -> f64 {
    ms.max(0) as f64 / 1000.0
}

/// The whole text: segments joined as whisper spaced them.
#[must_use]
pub fn full_text(segments: &[TranscriptSegment]) -> String {
    segments
        .iter()
        .map(|segment| segment.text.trim())
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the transcription is answered as.
pub struct Rendered<'a> {
    pub segments: &'a [TranscriptSegment],
    pub language: &'a str,
    /// Seconds of audio.
    pub duration: f64,
    pub words: bool,
}

impl Rendered<'_> {
    fn verbose(&self) -> TranscriptionVerboseView {
        let segments = self
            .segments
            .iter()
            .enumerate()
            .map(|(id, segment)| TranscriptionSegmentView {
                id,
                seek: u64::try_from(segment.start_ms.max(0) / 10).unwrap_or_default(),
                start: seconds(segment.start_ms),
                end: seconds(segment.end_ms.max(segment.start_ms)),
                text: segment.text.clone(),
                tokens: Vec::new(),
                temperature: 0.0,
                avg_logprob: 0.0,
                compression_ratio: 1.0,
                no_speech_prob: 0.0,
            })
            .collect();
        let words = self.words.then(|| {
            self.segments
                .iter()
                .flat_map(|segment| &segment.words)
                .map(|word| TranscriptionWordView {
                    word: word.text.trim().to_owned(),
                    start: seconds(word.start_ms),
                    end: seconds(word.end_ms.max(word.start_ms)),
                })
                .collect()
        });
        TranscriptionVerboseView {
            task: "transcribe",
            language: self.language.to_owned(),
            duration: self.duration,
            text: full_text(self.segments),
            segments,
            words,
        }
    }

    /// The response in `format`.
    #[must_use]
    pub fn respond(&self, format: ResponseFormat) -> HttpResponse {
        match format {
            ResponseFormat::Json => HttpResponse::Ok().json(TranscriptionView {
                text: full_text(self.segments),
            }),
            ResponseFormat::VerboseJson => HttpResponse::Ok().json(self.verbose()),
            ResponseFormat::Text => HttpResponse::Ok()
                .content_type("text/plain; charset=utf-8")
                .body(full_text(self.segments)),
            ResponseFormat::Srt => HttpResponse::Ok()
                .content_type("application/x-subrip; charset=utf-8")
                .body(subtitles::srt(self.segments)),
            ResponseFormat::Vtt => HttpResponse::Ok()
                .content_type("text/vtt; charset=utf-8")
                .body(subtitles::vtt(self.segments)),
        }
    }
}
