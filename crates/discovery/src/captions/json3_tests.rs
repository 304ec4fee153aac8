//! The parser on recorded bodies: an English ASR track (`testdata/asr_en.json3`, a YouTube
//! automatic-caption body as recorded in a public caption converter's test) and the start of
//! an uploader track (`testdata/uploader_en.json3`, from a public json3→SRT converter's
//! fixture); and on a roll-up body made here in the shape of broadcast captions
//! (`testdata/rollup_en.json3`), for what neither recording has.

use super::*;

const ASR: &[u8] = include_bytes!("testdata/asr_en.json3");
const UPLOADER: &[u8] = include_bytes!("testdata/uploader_en.json3");
const ROLLUP: &[u8] = include_bytes!("testdata/rollup_en.json3");

fn words(segment: &TranscriptSegment) -> Vec<(i64, i64, &str)> {
    segment
        .words
        .iter()
        .map(|word| (word.start_ms, word.end_ms, word.text.as_str()))
        .collect()
}

#[test]
fn asr_lines_become_segments_without_the_window_or_the_line_breaks() {
    let segments = segments_from_json3(ASR).unwrap();
    let texts: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "today we're going to be talking about",
            "metric driven agent development and",
            "specifically we're going to be focusing",
            "on ragas for evaluating our agents in",
        ]
    );
}

#[test]
fn asr_words_are_timed_from_their_offsets_and_the_first_from_the_line() {
    let segments = segments_from_json3(ASR).unwrap();
    assert_eq!(
        words(&segments[0]),
        [
            (40, 280, "today"),
            (280, 440, "we're"),
            (440, 560, "going"),
            (560, 680, "to"),
            (680, 840, "be"),
            (840, 1280, "talking"),
            (1280, 1680, "about"),
        ]
    );
    assert!(segments[0].words.iter().all(|word| word.probability == 1.0));
    // The last line is not followed by another: its last word lasts until the line ends.
    assert_eq!(words(&segments[3]).last(), Some(&(10840, 13160, "in")));
}

#[test]
fn rolling_asr_lines_end_where_the_next_begins() {
    let segments = segments_from_json3(ASR).unwrap();
    let spans: Vec<(i64, i64)> = segments.iter().map(|s| (s.start_ms, s.end_ms)).collect();
    // On screen (dDurationMs) they run to 5120, 7279, 11360 and 13160.
    assert_eq!(
        spans,
        [(40, 1680), (1680, 5120), (5120, 7279), (7279, 13160)]
    );
    for pair in segments.windows(2) {
        assert!(pair[0].end_ms <= pair[1].start_ms);
    }
}

#[test]
fn uploader_lines_without_offsets_have_no_word_times_and_join_their_rows() {
    let segments = segments_from_json3(UPLOADER).unwrap();
    assert_eq!(segments.len(), 4);
    assert!(segments.iter().all(|segment| segment.words.is_empty()));
    assert_eq!(
        segments[1].text,
        "Today, I have some good news and some bad news."
    );
    assert_eq!((segments[1].start_ms, segments[1].end_ms), (4040, 9130));
    assert_eq!((segments[3].start_ms, segments[3].end_ms), (10809, 18980));
}

#[test]
fn roll_up_rows_and_growing_lines_are_not_repeated_and_censored_words_stay() {
    let segments = segments_from_json3(ROLLUP).unwrap();
    let lines: Vec<(i64, i64, &str)> = segments
        .iter()
        .map(|s| (s.start_ms, s.end_ms, s.text.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            (0, 2000, "WELCOME BACK TO THE SHOW"),
            (2000, 4500, "TONIGHT WE TALK ABOUT"),
            (4500, 7000, "THE [ __ ] WEATHER"),
            (8000, 9000, "AND MORE"),
            (9000, 10500, "NEWS"),
        ]
    );
}

#[test]
fn a_body_that_is_not_json3_is_an_error_and_an_empty_one_has_no_segments() {
    assert!(segments_from_json3(b"<transcript/>").is_err());
    assert!(segments_from_json3(br#"{"events":[]}"#).unwrap().is_empty());
    assert!(
        segments_from_json3(br#"{"wireMagic":"pb3"}"#)
            .unwrap()
            .is_empty()
    );
}
