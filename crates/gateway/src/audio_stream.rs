//! Range-capable answers for stored audio: what `<audio>` elements, podcast apps and download
//! managers need to seek without fetching a whole file.
//!
//! [`stream_audio`] answers `GET` and `HEAD` for one of the caller's stored MP3s:
//!
//! - every answer carries `Accept-Ranges: bytes`, `Content-Type: audio/mpeg`, `Content-Length`,
//!   `ETag` and `Last-Modified` (when the blob store knows when the file was written) and
//!   `Cache-Control: private` (the audio is one user's);
//! - one byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) is answered `206 Partial Content` with
//!   `Content-Range: bytes a-b/size`, and storage reads only that range from the blob store;
//! - a range that cannot be satisfied (it starts at or past the end, `bytes=-0`, an empty file) is
//!   answered `416` with `Content-Range: bytes */size`;
//! - **several ranges are answered with the whole file (`200`)**: RFC 9110 §14.2 lets a server
//!   ignore `Range`, and no player asks for more than one; `multipart/byteranges` is not worth
//!   its complexity here. A `Range` that does not parse, or in another unit, is ignored the same
//!   way;
//! - `If-Range` with a validator that is not the current `ETag` (strong comparison) or
//!   `Last-Modified` date also gets the whole file, so a client never splices two versions.
//!
//! The Range header is parsed by actix-web's own [`Range`]/[`ByteRangeSpec`]; this module only
//! decides what to answer.
//!
//! It is independent of how the caller was authorised: the handler decides whose clients to
//! pass (the signed-in caller's, or the owner named by a checked signed link).

use actix_web::http::header::{self, ByteRangeSpec, HttpDate, Range};
use actix_web::http::{Method, StatusCode};
use actix_web::{HttpRequest, HttpResponse};
use futures::StreamExt as _;
use scribevault_proto::storage::v1 as pb;

use crate::clients::UserClients;
use crate::error::ApiError;

/// The content type of every answer: storage only keeps MP3 audio.
pub const AUDIO_MPEG: &str = "audio/mpeg";

/// What a request asked for, once its `Range` and `If-Range` are read against the file's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeAnswer {
    /// The whole file (no `Range`, several ranges, an unparsable one, a stale `If-Range`).
    Whole,
    /// Bytes `first..=last` of the file.
    Partial { first: u64, last: u64 },
    /// Nothing in the file matches the range.
    Unsatisfiable,
}

/// The validators of one stored file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validators {
    /// A strong entity tag (`"<size>-<modified>"`), so `If-Range` can compare it.
    pub etag: Option<header::EntityTag>,
    /// When the file was written.
    pub last_modified: Option<HttpDate>,
}

impl Validators {
    /// The validators of a file of `size` bytes written at `modified_unix` (when known). The
    /// stored MP3s are never rewritten in place (a new upload is a new path), so size and time
    /// name one version.
    #[must_use]
    pub fn of(size: u64, modified_unix: Option<i64>) -> Self {
        let modified = modified_unix
            .and_then(|seconds| u64::try_from(seconds).ok())
            .map(|seconds| std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds));
        Self {
            etag: modified_unix
                .map(|seconds| header::EntityTag::new_strong(format!("{size:x}-{seconds:x}"))),
            last_modified: modified.map(HttpDate::from),
        }
    }

    /// Whether an `If-Range` value still names this version (RFC 9110 §13.1.5: an entity tag
    /// compared strongly, or a date equal to `Last-Modified`).
    fn if_range_holds(&self, if_range: &header::IfRange) -> bool {
        match if_range {
            header::IfRange::EntityTag(tag) => self
                .etag
                .as_ref()
                .is_some_and(|current| current.strong_eq(tag)),
            header::IfRange::Date(date) => self.last_modified.as_ref() == Some(date),
        }
    }
}

/// Decides the answer to a request's `Range` (and `If-Range`) for a file of `size` bytes.
#[must_use]
pub fn range_answer(request: &HttpRequest, size: u64, validators: &Validators) -> RangeAnswer {
    let Some(raw) = request.headers().get(header::RANGE) else {
        return RangeAnswer::Whole;
    };
    if let Some(if_range) = request.headers().get(header::IF_RANGE) {
        let holds = if_range
            .to_str()
            .ok()
            .and_then(parse_if_range)
            .is_some_and(|if_range| validators.if_range_holds(&if_range));
        if !holds {
            return RangeAnswer::Whole;
        }
    }
    let Some(Range::Bytes(specs)) = raw.to_str().ok().and_then(|raw| raw.parse::<Range>().ok())
    else {
        return RangeAnswer::Whole;
    };
    match specs.as_slice() {
        [spec] => one_range(spec, size),
        _ => RangeAnswer::Whole,
    }
}

fn one_range(spec: &ByteRangeSpec, size: u64) -> RangeAnswer {
    match spec.to_satisfiable_range(size) {
        Some((first, last)) => RangeAnswer::Partial { first, last },
        None => RangeAnswer::Unsatisfiable,
    }
}

fn parse_if_range(value: &str) -> Option<header::IfRange> {
    let value = value.trim();
    if value.starts_with('"') || value.starts_with("W/") {
        value.parse().ok().map(header::IfRange::EntityTag)
    } else {
        value.parse().ok().map(header::IfRange::Date)
    }
}

/// Answers `request` (`GET` or `HEAD`, with its `Range` and `If-Range`) with the stored MP3 at
/// `path`, read from storage as `clients`' user: only that user's files exist for it (another
/// user's path is `404`).
///
/// # Errors
/// The file is not the user's (`404`), or storage cannot be reached.
pub async fn stream_audio(
    clients: &UserClients,
    path: &str,
    request: &HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let mut storage = clients.storage();
    let stat = storage
        .stat_blob(pb::StatBlobRequest {
            path: path.to_owned(),
        })
        .await?
        .into_inner();
    let size = stat.size;
    let validators = Validators::of(size, stat.modified_unix);
    let answer = range_answer(request, size, &validators);

    let mut response = match answer {
        RangeAnswer::Unsatisfiable => {
            return Ok(HttpResponse::RangeNotSatisfiable()
                .insert_header((header::CONTENT_RANGE, format!("bytes */{size}")))
                .insert_header((header::ACCEPT_RANGES, "bytes"))
                .insert_header((header::CACHE_CONTROL, "private"))
                .finish());
        }
        RangeAnswer::Whole => HttpResponse::Ok(),
        RangeAnswer::Partial { first, last } => {
            let mut partial = HttpResponse::build(StatusCode::PARTIAL_CONTENT);
            partial.insert_header((
                header::CONTENT_RANGE,
                format!("bytes {first}-{last}/{size}"),
            ));
            partial
        }
    };
    response
        .content_type(AUDIO_MPEG)
        .insert_header((header::ACCEPT_RANGES, "bytes"))
        .insert_header((header::CACHE_CONTROL, "private"))
        .insert_header(("X-Content-Type-Options", "nosniff"));
    if let Some(etag) = validators.etag {
        response.insert_header(header::ETag(etag));
    }
    if let Some(modified) = validators.last_modified {
        response.insert_header(header::LastModified(modified));
    }

    let (offset, length) = match answer {
        RangeAnswer::Partial { first, last } => (first, last - first + 1),
        _ => (0, size),
    };
    if request.method() == Method::HEAD {
        // actix-http writes a sized body's length as Content-Length and sends no body for HEAD
        // (a header set by hand would be replaced by the empty body's 0).
        let nothing = futures::stream::empty::<Result<bytes::Bytes, actix_web::Error>>();
        return Ok(response.no_chunking(length).streaming(nothing));
    }
    if length == 0 {
        return Ok(response.no_chunking(0).finish());
    }
    let body = storage
        .download_blob(pb::DownloadBlobRequest {
            path: path.to_owned(),
            offset: Some(offset),
            length: Some(length),
        })
        .await?
        .into_inner()
        .map(|chunk| {
            chunk.map(|chunk| chunk.chunk).map_err(|status| {
                actix_web::error::ErrorServiceUnavailable(status.message().to_owned())
            })
        });
    Ok(response.no_chunking(length).streaming(body))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    fn validators() -> Validators {
        Validators::of(1000, Some(1_700_000_000))
    }

    fn answer(headers: &[(&str, &str)]) -> RangeAnswer {
        let mut request = TestRequest::get();
        for &(name, value) in headers {
            request = request.insert_header((name, value));
        }
        range_answer(&request.to_http_request(), 1000, &validators())
    }

    #[test]
    fn one_range_of_each_form_is_partial() {
        assert_eq!(answer(&[]), RangeAnswer::Whole);
        assert_eq!(
            answer(&[("Range", "bytes=0-99")]),
            RangeAnswer::Partial { first: 0, last: 99 }
        );
        assert_eq!(
            answer(&[("Range", "bytes=900-")]),
            RangeAnswer::Partial {
                first: 900,
                last: 999
            }
        );
        assert_eq!(
            answer(&[("Range", "bytes=-10")]),
            RangeAnswer::Partial {
                first: 990,
                last: 999
            }
        );
        // An end past the file is the file's end; a suffix longer than the file is all of it.
        assert_eq!(
            answer(&[("Range", "bytes=500-5000")]),
            RangeAnswer::Partial {
                first: 500,
                last: 999
            }
        );
        assert_eq!(
            answer(&[("Range", "bytes=-5000")]),
            RangeAnswer::Partial {
                first: 0,
                last: 999
            }
        );
    }

    #[test]
    fn ranges_outside_the_file_are_unsatisfiable() {
        assert_eq!(
            answer(&[("Range", "bytes=1000-")]),
            RangeAnswer::Unsatisfiable
        );
        assert_eq!(
            answer(&[("Range", "bytes=2000-3000")]),
            RangeAnswer::Unsatisfiable
        );
        assert_eq!(answer(&[("Range", "bytes=-0")]), RangeAnswer::Unsatisfiable);
        let empty = range_answer(
            &TestRequest::get()
                .insert_header(("Range", "bytes=0-"))
                .to_http_request(),
            0,
            &validators(),
        );
        assert_eq!(empty, RangeAnswer::Unsatisfiable);
    }

    #[test]
    fn several_or_foreign_or_garbled_ranges_get_the_whole_file() {
        assert_eq!(answer(&[("Range", "bytes=0-1,5-9")]), RangeAnswer::Whole);
        assert_eq!(answer(&[("Range", "items=0-1")]), RangeAnswer::Whole);
        assert_eq!(answer(&[("Range", "bytes")]), RangeAnswer::Whole);
        assert_eq!(answer(&[("Range", "bytes=x-y")]), RangeAnswer::Whole);
    }

    #[test]
    fn a_stale_if_range_gets_the_whole_file() {
        let current = validators();
        let etag = current.etag.clone().unwrap().to_string();
        let date = current.last_modified.unwrap().to_string();
        assert_eq!(
            answer(&[("Range", "bytes=0-9"), ("If-Range", &etag)]),
            RangeAnswer::Partial { first: 0, last: 9 }
        );
        assert_eq!(
            answer(&[("Range", "bytes=0-9"), ("If-Range", &date)]),
            RangeAnswer::Partial { first: 0, last: 9 }
        );
        assert_eq!(
            answer(&[("Range", "bytes=0-9"), ("If-Range", "\"other\"")]),
            RangeAnswer::Whole
        );
        // A weak tag never matches in If-Range.
        assert_eq!(
            answer(&[("Range", "bytes=0-9"), ("If-Range", &format!("W/{etag}"))]),
            RangeAnswer::Whole
        );
        assert_eq!(
            answer(&[
                ("Range", "bytes=0-9"),
                ("If-Range", "Wed, 21 Oct 2015 07:28:00 GMT")
            ]),
            RangeAnswer::Whole
        );
    }
}
