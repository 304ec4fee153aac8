//! The Vault list's query string read into the library's typed request. The gateway checks
//! the shape of every value (a number, a date, a known source type, a key given once) and
//! names the key it refuses; the library checks the values against its limits (page sizes,
//! scores 1–5), so each rule lives in one place.

use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};
use scribevault_bus::contract::SourceType;
use scribevault_proto::library::v1 as pb;

use crate::error::ApiError;

/// Reads a raw query string (arrays as repeated keys: `tags=a&tags=b`).
///
/// # Errors
/// An unknown key, a single-valued key given twice, or a value of the wrong shape: 400 naming
/// the key.
pub(super) fn list_request(query: &str) -> Result<pb::ListTranscriptsRequest, ApiError> {
    let mut request = pb::ListTranscriptsRequest::default();
    let mut filter = pb::ItemFilter::default();
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
        let key = key.as_ref();
        let value = value.trim();
        if !REPEATABLE.contains(&key) {
            if seen.iter().any(|given| given == key) {
                return Err(refused(format!("{key} must be given once")));
            }
            seen.push(key.to_owned());
        }
        match key {
            "page" => {
                request.page = Some(
                    value
                        .parse()
                        .map_err(|_| refused("page must be a positive whole number"))?,
                );
            }
            "limit" => {
                request.limit = Some(value.parse().map_err(|_| {
                    refused("limit must be a whole number from 1 to 100".to_owned())
                })?);
            }
            "sortBy" => request.sort_by = sort_key(value)?.into(),
            "sortOrder" => request.sort_order = sort_order(value)?.into(),
            "q" => request.search = Some(value.to_owned()),
            "searchMode" => request.search_mode = search_mode(value)?.into(),
            "tags" => filter.tags.push(value.to_owned()),
            "sourceType" => filter
                .source_types
                .push(pb::SourceType::from(source_type(value)?).into()),
            "isStarred" => filter.is_starred = Some(boolean(key, value)?),
            "rating" => filter.ratings.push(score(key, value)?),
            "minRating" => filter.min_rating = Some(score(key, value)?),
            "gwthLevel" => filter.gwth_levels.push(score(key, value)?),
            "exported" => filter.exported = Some(boolean(key, value)?),
            "createdAfter" => filter.created_after = Some(time(key, value)?),
            "createdBefore" => filter.created_before = Some(time(key, value)?),
            "sectionId" => {
                filter.section = Some(match value {
                    "" => return Err(refused("sectionId must not be empty")),
                    "none" => pb::item_filter::Section::InNoSection(pb::InNoSection {}),
                    id => pb::item_filter::Section::SectionId(id.to_owned()),
                });
            }
            "path" => filter.file_name = Some(value.to_owned()),
            "needsReview" => filter.needs_review = Some(boolean(key, value)?),
            other => return Err(refused(format!("unknown filter {other:?}"))),
        }
    }
    request.filter = Some(filter);
    Ok(request)
}

/// The keys that carry a list (any of these values, or every one for tags).
const REPEATABLE: [&str; 4] = ["tags", "sourceType", "rating", "gwthLevel"];

fn refused(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(message)
}

fn sort_key(value: &str) -> Result<pb::SortKey, ApiError> {
    match value {
        "" | "createdAt" => Ok(pb::SortKey::CreatedAt),
        "title" => Ok(pb::SortKey::Title),
        "rating" => Ok(pb::SortKey::Rating),
        "lastExported" => Ok(pb::SortKey::LastExported),
        "relevance" => Ok(pb::SortKey::Relevance),
        other => Err(refused(format!(
            "sortBy must be createdAt, title, rating, lastExported or relevance, not {other:?}"
        ))),
    }
}

fn sort_order(value: &str) -> Result<pb::SortOrder, ApiError> {
    match value {
        "" | "desc" => Ok(pb::SortOrder::Descending),
        "asc" => Ok(pb::SortOrder::Ascending),
        other => Err(refused(format!(
            "sortOrder must be asc or desc, not {other:?}"
        ))),
    }
}

fn search_mode(value: &str) -> Result<pb::SearchMode, ApiError> {
    match value {
        "" => Ok(pb::SearchMode::Unspecified),
        "keyword" => Ok(pb::SearchMode::Keyword),
        "semantic" => Ok(pb::SearchMode::Semantic),
        "hybrid" => Ok(pb::SearchMode::Hybrid),
        other => Err(refused(format!(
            "searchMode must be keyword, semantic or hybrid, not {other:?}"
        ))),
    }
}

fn source_type(value: &str) -> Result<SourceType, ApiError> {
    SourceType::parse(value).ok_or_else(|| {
        let known: Vec<&str> = SourceType::ALL.iter().map(|kind| kind.as_str()).collect();
        refused(format!(
            "sourceType must be one of {}, not {value:?}",
            known.join(", ")
        ))
    })
}

fn boolean(key: &str, value: &str) -> Result<bool, ApiError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(refused(format!(
            "{key} must be true or false, not {other:?}"
        ))),
    }
}

/// A whole number; the library checks that it is 1–5.
fn score(key: &str, value: &str) -> Result<i32, ApiError> {
    value
        .parse()
        .map_err(|_| refused(format!("{key} must be between 1 and 5")))
}

/// RFC 3339, or a plain date meaning its midnight UTC; sent on as RFC 3339.
fn time(key: &str, value: &str) -> Result<String, ApiError> {
    let at = DateTime::parse_from_rfc3339(value)
        .map(|at| at.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            NaiveDate::parse_from_str(value, "%Y-%m-%d")
                .ok()
                .and_then(|date| date.and_hms_opt(0, 0, 0))
                .map(|at| at.and_utc())
        })
        .ok_or_else(|| {
            refused(format!(
                "{key} must be a date (YYYY-MM-DD) or an RFC 3339 time"
            ))
        })?;
    Ok(at.to_rfc3339_opts(SecondsFormat::AutoSi, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(query: &str) -> String {
        list_request(query).unwrap_err().body()["message"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn every_key_is_read_into_its_typed_field_with_repeated_keys_for_arrays() {
        let request = list_request(
            "tags=Soil&tags=compost&sourceType=AUDIO&sourceType=PDF_SOURCE&isStarred=true\
             &rating=4&rating=5&minRating=3&gwthLevel=2&exported=false&createdAfter=2026-11-01\
             &createdBefore=2026-11-23T12:00:00%2B01:00&sectionId=none&page=3&limit=50\
             &sortBy=title&sortOrder=asc&q=two%20words&path=notes/a.md&needsReview=true\
             &searchMode=semantic",
        )
        .unwrap();
        assert_eq!(
            request,
            pb::ListTranscriptsRequest {
                page: Some(3),
                limit: Some(50),
                sort_by: pb::SortKey::Title.into(),
                sort_order: pb::SortOrder::Ascending.into(),
                search: Some("two words".into()),
                search_mode: pb::SearchMode::Semantic.into(),
                filter: Some(pb::ItemFilter {
                    tags: vec!["Soil".into(), "compost".into()],
                    source_types: vec![
                        pb::SourceType::Audio.into(),
                        pb::SourceType::PdfSource.into()
                    ],
                    is_starred: Some(true),
                    ratings: vec![4, 5],
                    min_rating: Some(3),
                    gwth_levels: vec![2],
                    exported: Some(false),
                    created_after: Some("2026-11-01T00:00:00Z".into()),
                    created_before: Some("2026-11-23T11:00:00Z".into()),
                    section: Some(pb::item_filter::Section::InNoSection(pb::InNoSection {})),
                    file_name: Some("notes/a.md".into()),
                    needs_review: Some(true),
                }),
            }
        );
    }

    #[test]
    fn an_empty_query_asks_for_the_defaults() {
        let request = list_request("").unwrap();
        assert_eq!((request.page, request.limit), (None, None));
        assert_eq!(request.sort_by(), pb::SortKey::Unspecified);
        assert_eq!(request.filter, Some(pb::ItemFilter::default()));
    }

    #[test]
    fn unknown_keys_and_values_of_the_wrong_shape_name_the_key() {
        for (query, expected) in [
            ("colour=red", "colour"),
            ("page=-1", "page"),
            ("page=abc", "page must be a positive whole number"),
            ("limit=many", "limit"),
            ("rating=high", "rating"),
            ("minRating=x", "minRating"),
            ("isStarred=yes", "isStarred"),
            ("exported=1", "exported"),
            ("needsReview=yes", "needsReview"),
            ("createdAfter=yesterday", "createdAfter"),
            ("sortBy=size", "sortBy"),
            ("sortOrder=up", "sortOrder"),
            ("sourceType=%3Cscript%3E", "sourceType"),
            ("sourceType=audio", "sourceType"),
            ("sectionId=", "sectionId"),
            ("page=1&page=2", "page must be given once"),
        ] {
            let error = message(query);
            assert!(
                error.contains(expected),
                "{query}: {error:?} should name {expected}"
            );
        }
    }
}
