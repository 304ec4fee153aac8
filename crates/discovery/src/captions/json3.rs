//! YouTube's `json3` caption format read into the Vault's timed segments.
//!
//! A body is `{events: [{tStartMs, dDurationMs, wWinId, aAppend?, segs: [{utf8, tOffsetMs?,
//! acAsrConf?}]}]}` (`notes/engine.md` §7). What real tracks do, and what is done about it:
//!
//! - Automatic (ASR) tracks give each word after the first its `tOffsetMs` from the event's
//!   start: those become word times, so the player seeks to a word without Whisper. A word
//!   lasts until the next word starts (the last one until its line ends).
//! - ASR lines roll: each line stays on screen (its `dDurationMs`) while the next is spoken, so
//!   events overlap. A line ends where the next begins.
//! - Rolling uploader captions repeat the line before and add to it; the repeated part is
//!   dropped, so no text appears twice.
//! - Window definitions (no `segs`), line breaks appended to the window (`aAppend` with `"\n"`)
//!   and events with nothing but blanks are dropped.
//! - Censored words come as `[ __ ]` and are kept as YouTube gives them.

use scribevault_bus::contract::{TranscriptSegment, TranscriptWord};
use serde::Deserialize;

/// The confidence a caption word is given: captions carry none that means anything (YouTube
/// sends `acAsrConf` 0 for every word), and Whisper's scale does not apply to them.
const CAPTION_WORD_PROBABILITY: f32 = 1.0;

#[derive(Debug, Deserialize)]
struct Body {
    #[serde(default)]
    events: Vec<Event>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    #[serde(default)]
    t_start_ms: Option<i64>,
    #[serde(default)]
    d_duration_ms: Option<i64>,
    #[serde(default)]
    segs: Option<Vec<Seg>>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Seg {
    #[serde(default)]
    utf8: String,
    #[serde(default)]
    t_offset_ms: Option<i64>,
}

/// A json3 body that is not JSON of that shape.
#[derive(Debug, thiserror::Error)]
#[error("not a json3 caption body: {0}")]
pub struct Json3Error(#[from] serde_json::Error);

/// One caption line after cleaning: its span, the rows it showed (a roll-up caption shows
/// two), the rows it added to what was on screen, and its timed words (none when the track
/// gives no word offsets).
struct Line {
    start_ms: i64,
    end_ms: i64,
    shown: Vec<String>,
    rows: Vec<String>,
    words: Vec<(i64, String)>,
}

impl Line {
    fn text(&self) -> String {
        self.rows.join(" ")
    }
}

/// Collapses runs of whitespace to one space.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A line from an event with text, or `None` for windows, line breaks and blank events.
fn line_of(event: Event) -> Option<Line> {
    let start_ms = event.t_start_ms?.max(0);
    let duration = event.d_duration_ms?.max(0);
    let segs = event.segs?;
    let joined: String = segs.iter().map(|seg| seg.utf8.as_str()).collect();
    let rows: Vec<String> = joined
        .split('\n')
        .map(squeeze)
        .filter(|row| !row.is_empty())
        .collect();
    if rows.is_empty() {
        return None;
    }
    // Word times only when the track gives offsets (ASR); the first word's is the line's start.
    let timed = segs.iter().any(|seg| seg.t_offset_ms.is_some());
    let words = if timed {
        segs.iter()
            .filter_map(|seg| {
                let word = squeeze(&seg.utf8);
                (!word.is_empty()).then(|| (start_ms + seg.t_offset_ms.unwrap_or(0).max(0), word))
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(Line {
        start_ms,
        end_ms: start_ms + duration,
        shown: rows.clone(),
        rows,
        words,
    })
}

/// Takes off `line` what it repeats of `previous`: the rows a roll-up caption carries over
/// (its first rows are the last rows the line before showed), or the words of a caption that
/// grows in place ("hello" then "hello world"). Answers whether anything is left. Timed (ASR)
/// lines never repeat the line before: a line that says the same words again was spoken again.
fn drop_repeat(previous: &Line, line: &mut Line) -> bool {
    if !line.words.is_empty() {
        return true;
    }
    let shown = &previous.shown;
    let carried = (1..=shown.len().min(line.rows.len()))
        .rev()
        .find(|&k| shown[shown.len() - k..] == line.rows[..k])
        .unwrap_or(0);
    line.rows.drain(..carried);
    let previous_text = shown.join(" ");
    if let Some(first) = line.rows.first_mut()
        && let Some(rest) = first.strip_prefix(&previous_text)
        && rest.starts_with(' ')
    {
        *first = rest.trim().to_owned();
    }
    line.rows.retain(|row| !row.is_empty());
    !line.rows.is_empty()
}

/// Reads a json3 body into segments in time order: one per caption line, with word times
/// when the track has them.
///
/// # Errors
/// The body is not json3.
pub fn segments_from_json3(body: &[u8]) -> Result<Vec<TranscriptSegment>, Json3Error> {
    let body: Body = serde_json::from_slice(body)?;
    let mut lines: Vec<Line> = body.events.into_iter().filter_map(line_of).collect();
    lines.sort_by_key(|line| line.start_ms);
    let mut kept: Vec<Line> = Vec::with_capacity(lines.len());
    for mut line in lines {
        if let Some(previous) = kept.last_mut() {
            if !drop_repeat(previous, &mut line) {
                continue;
            }
            // A line stays on screen while the next is spoken: it ends where the next begins.
            if line.start_ms < previous.end_ms {
                previous.end_ms = line.start_ms.max(previous.start_ms);
            }
        }
        kept.push(line);
    }
    Ok(kept.into_iter().map(segment_of).collect())
}

/// A line as a segment: each word lasts until the next starts, the last until the line ends.
fn segment_of(line: Line) -> TranscriptSegment {
    let text = line.text();
    let ends: Vec<i64> = line
        .words
        .iter()
        .skip(1)
        .map(|(start, _)| *start)
        .chain(std::iter::once(line.end_ms))
        .collect();
    let words = line
        .words
        .into_iter()
        .zip(ends)
        .map(|((start_ms, text), end_ms)| TranscriptWord {
            start_ms: start_ms.min(line.end_ms),
            end_ms: end_ms.clamp(start_ms.min(line.end_ms), line.end_ms),
            text,
            probability: CAPTION_WORD_PROBABILITY,
        })
        .collect();
    TranscriptSegment {
        start_ms: line.start_ms,
        end_ms: line.end_ms,
        text,
        words,
    }
}

#[cfg(test)]
#[path = "json3_tests.rs"]
mod tests;
