//! Query parameters and the checks the list methods share: parts, `maxResults`, id lists, the
//! one filter a method takes, and pages.

use serde_json::{Map, Value, json};

use super::api::Reply;
use super::errors::{incompatible, invalid_filters, no_filter, required, youtube_error};
use super::ids::Direction;

/// Query parameters; the first occurrence of a name wins.
pub(crate) struct Params<'a>(pub(crate) &'a [(String, String)]);

impl Params<'_> {
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Whether the response should be indented (the real default) or compact.
    pub(crate) fn pretty(&self) -> bool {
        self.get("prettyPrint") != Some("false")
    }
}

/// The requested parts, checked against the resource's documented part names.
pub(crate) fn parts(params: &Params<'_>, allowed: &[&str]) -> Result<Vec<String>, Reply> {
    let raw = params.get("part").unwrap_or_default();
    let parts: Vec<String> = raw
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect();
    if parts.is_empty() {
        return Err(required("part"));
    }
    if let Some(unknown) = parts.iter().find(|part| !allowed.contains(&part.as_str())) {
        return Err(youtube_error(
            400,
            unknown,
            "youtube.part",
            "unknownPart",
            Some(("part", "parameter")),
        ));
    }
    Ok(parts)
}

pub(crate) fn wants(parts: &[String], part: &str) -> bool {
    parts.iter().any(|p| p == part)
}

/// `maxResults`, 0–50, `default` when absent.
pub(crate) fn max_results(params: &Params<'_>, default: usize) -> Result<usize, Reply> {
    match params.get("maxResults") {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| *n <= 50)
            .ok_or_else(|| {
                youtube_error(
                    400,
                    &format!("Invalid value '{raw}'. Values must be within the range: [0, 50]"),
                    "global",
                    "invalidParameter",
                    Some(("maxResults", "parameter")),
                )
            }),
    }
}

/// A comma-separated id list, trimmed and de-duplicated in order; more than 50 is an error.
pub(crate) fn id_list(raw: &str) -> Result<Vec<String>, Reply> {
    let mut ids: Vec<String> = Vec::new();
    for id in raw.split(',').map(str::trim).filter(|id| !id.is_empty()) {
        if !ids.iter().any(|seen| seen == id) {
            ids.push(id.to_string());
        }
    }
    if ids.len() > 50 {
        return Err(invalid_filters());
    }
    Ok(ids)
}

/// The single filter present among `filters`, or the documented error.
pub(crate) fn one_filter<'a>(
    params: &Params<'_>,
    filters: &[&'a str],
    expected: &str,
) -> Result<&'a str, Reply> {
    let present: Vec<&str> = filters.iter().copied().filter(|f| params.has(f)).collect();
    match present.as_slice() {
        [] => Err(no_filter(expected)),
        [one] => Ok(one),
        _ => Err(incompatible(&present)),
    }
}

/// A page of `total` items at `offset`, `per_page` long: the range and the tokens around it.
pub(crate) struct Page {
    pub(crate) range: std::ops::Range<usize>,
    pub(crate) next: Option<usize>,
    pub(crate) previous: Option<usize>,
}

impl Page {
    /// `nextPageToken` and `prevPageToken`, where there is such a page, in `token`'s format.
    pub(crate) fn insert_tokens(
        &self,
        body: &mut Map<String, Value>,
        token: fn(usize, Direction) -> String,
    ) {
        if let Some(next) = self.next {
            body.insert("nextPageToken".into(), json!(token(next, Direction::Next)));
        }
        if let Some(previous) = self.previous {
            body.insert(
                "prevPageToken".into(),
                json!(token(previous, Direction::Previous)),
            );
        }
    }
}

pub(crate) fn page(total: usize, offset: usize, per_page: usize) -> Page {
    let start = offset.min(total);
    let end = start.saturating_add(per_page).min(total);
    Page {
        range: start..end,
        next: (per_page > 0 && end < total).then_some(end),
        previous: (start > 0).then(|| start.saturating_sub(per_page.max(1))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_cover_everything_once() {
        let first = page(120, 0, 50);
        assert_eq!(
            (first.range, first.next, first.previous),
            (0..50, Some(50), None)
        );
        let last = page(120, 100, 50);
        assert_eq!(
            (last.range, last.next, last.previous),
            (100..120, None, Some(50))
        );
        let none = page(3, 0, 0);
        assert_eq!((none.range, none.next), (0..0, None));
    }
}
