//! What a list of Vault items asks for: the page, the order and the filters, read from the
//! client's query keys. Every key is known here, and every bad value is refused naming the key,
//! so a typo never silently lists everything.

use chrono::{DateTime, NaiveDate, Utc};

use super::check_score;
use crate::search::SearchQuery;

/// Largest page a client may ask for.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Page size when the client does not say (spec §9).
pub const DEFAULT_PAGE_SIZE: u32 = 20;

/// What a list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    CreatedAt,
    Title,
    Rating,
    LastExported,
    /// Best match first; only for searches.
    Relevance,
}

/// Which way a list is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

/// Whether the items in a section, or in none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SectionFilter {
    In(String),
    None,
}

/// The filters of a list; every one given must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemFilter {
    /// Every tag must be on the item (compared case-insensitively).
    pub tags: Vec<String>,
    /// Any of these source types.
    pub source_types: Vec<String>,
    pub is_starred: Option<bool>,
    /// Any of these ratings.
    pub ratings: Vec<i32>,
    pub min_rating: Option<i32>,
    /// Any of these gwth levels.
    pub gwth_levels: Vec<i32>,
    pub exported: Option<bool>,
    pub created_after: Option<DateTime<Utc>>,
    pub created_before: Option<DateTime<Utc>>,
    pub section: Option<SectionFilter>,
    pub file_name: Option<String>,
}

/// A whole list request.
#[derive(Debug, Clone)]
pub struct ListQuery {
    /// 1-based.
    pub page: u32,
    pub limit: u32,
    pub sort: SortKey,
    pub order: SortOrder,
    pub filter: ItemFilter,
    /// The full-text part, when the client searched.
    pub search: Option<SearchQuery>,
}

impl ListQuery {
    /// Reads the client's query keys (`page`, `limit`, `sortBy`, `sortOrder`, the filters; arrays
    /// as repeated keys).
    ///
    /// # Errors
    /// An unknown key or a bad value, with a message naming the key.
    pub fn parse(params: &[(String, Vec<String>)]) -> Result<Self, String> {
        let mut page = 1;
        let mut limit = DEFAULT_PAGE_SIZE;
        let mut sort_by = None;
        let mut order = SortOrder::Desc;
        let mut filter = ItemFilter::default();
        let mut search = None;
        for (key, values) in params {
            let key = key.as_str();
            let single = || match values.as_slice() {
                [value] => Ok(value.trim()),
                _ => Err(format!("{key} must be given once")),
            };
            match key {
                "page" => page = parse_number(key, single()?, 1, u32::MAX)?,
                "limit" => limit = parse_number(key, single()?, 1, MAX_PAGE_SIZE)?,
                "sortBy" => sort_by = Some(parse_sort_key(single()?)?),
                "sortOrder" => {
                    order = match single()? {
                        "" | "desc" => SortOrder::Desc,
                        "asc" => SortOrder::Asc,
                        other => {
                            return Err(format!("sortOrder must be asc or desc, not {other:?}"));
                        }
                    };
                }
                "q" => search = SearchQuery::parse(single()?),
                "tags" => {
                    filter.tags = values
                        .iter()
                        .map(|tag| tag.trim().to_owned())
                        .filter(|tag| !tag.is_empty())
                        .collect();
                }
                "sourceType" => {
                    filter.source_types = values
                        .iter()
                        .map(|value| parse_source_type(value))
                        .collect::<Result<_, _>>()?;
                }
                "isStarred" => filter.is_starred = Some(parse_bool(key, single()?)?),
                "rating" => filter.ratings = parse_scores(key, values)?,
                "minRating" => filter.min_rating = Some(parse_score(key, single()?)?),
                "gwthLevel" => filter.gwth_levels = parse_scores(key, values)?,
                "exported" => filter.exported = Some(parse_bool(key, single()?)?),
                "createdAfter" => filter.created_after = Some(parse_time(key, single()?)?),
                "createdBefore" => filter.created_before = Some(parse_time(key, single()?)?),
                "sectionId" => {
                    filter.section = Some(match single()? {
                        "" => return Err("sectionId must not be empty".into()),
                        "none" => SectionFilter::None,
                        id => SectionFilter::In(id.to_owned()),
                    });
                }
                "path" => filter.file_name = Some(single()?.to_owned()),
                other => return Err(format!("unknown filter {other:?}")),
            }
        }
        let sort = match (sort_by, &search) {
            (Some(SortKey::Relevance), None) => {
                return Err("sortBy relevance needs a search (q)".into());
            }
            (Some(sort), _) => sort,
            (None, Some(_)) => SortKey::Relevance,
            (None, None) => SortKey::CreatedAt,
        };
        Ok(Self {
            page,
            limit,
            sort,
            order,
            filter,
            search,
        })
    }

    /// Rows before this page.
    #[must_use]
    pub fn offset(&self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.limit)
    }
}

fn parse_number(key: &str, value: &str, min: u32, max: u32) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|number| (min..=max).contains(number))
        .ok_or_else(|| {
            if max == u32::MAX {
                format!("{key} must be a positive whole number")
            } else {
                format!("{key} must be a whole number from {min} to {max}")
            }
        })
}

fn parse_sort_key(value: &str) -> Result<SortKey, String> {
    match value {
        "" | "createdAt" => Ok(SortKey::CreatedAt),
        "title" => Ok(SortKey::Title),
        "rating" => Ok(SortKey::Rating),
        "lastExported" => Ok(SortKey::LastExported),
        "relevance" => Ok(SortKey::Relevance),
        other => Err(format!(
            "sortBy must be createdAt, title, rating, lastExported or relevance, not {other:?}"
        )),
    }
}

fn parse_bool(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(format!("{key} must be true or false, not {other:?}")),
    }
}

fn parse_score(key: &str, value: &str) -> Result<i32, String> {
    value
        .parse::<i32>()
        .map_err(|_| format!("{key} must be between 1 and 5"))
        .and_then(|score| check_score(key, score))
}

fn parse_scores(key: &str, values: &[String]) -> Result<Vec<i32>, String> {
    values
        .iter()
        .map(|value| parse_score(key, value.trim()))
        .collect()
}

fn parse_source_type(value: &str) -> Result<String, String> {
    let value = value.trim();
    if !value.is_empty()
        && value.len() <= 40
        && value
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        Ok(value.to_owned())
    } else {
        Err(format!(
            "sourceType must be a source type such as AUDIO or PDF, not {value:?}"
        ))
    }
}

/// RFC 3339, or a plain date meaning its midnight UTC.
fn parse_time(key: &str, value: &str) -> Result<DateTime<Utc>, String> {
    if let Ok(at) = DateTime::parse_from_rfc3339(value) {
        return Ok(at.with_timezone(&Utc));
    }
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .ok()
        .and_then(|date| date.and_hms_opt(0, 0, 0))
        .map(|at| at.and_utc())
        .ok_or_else(|| format!("{key} must be a date (YYYY-MM-DD) or an RFC 3339 time"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &[&str])]) -> Vec<(String, Vec<String>)> {
        pairs
            .iter()
            .map(|(key, values)| {
                (
                    (*key).to_owned(),
                    values.iter().map(|v| (*v).to_owned()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn an_empty_query_is_page_one_of_twenty_newest_first() {
        let query = ListQuery::parse(&[]).unwrap();
        assert_eq!((query.page, query.limit), (1, DEFAULT_PAGE_SIZE));
        assert_eq!(
            (query.sort, query.order),
            (SortKey::CreatedAt, SortOrder::Desc)
        );
        assert_eq!(query.filter, ItemFilter::default());
    }

    #[test]
    fn a_search_sorts_by_relevance_unless_told_otherwise() {
        let query = ListQuery::parse(&params(&[("q", &["soil"])])).unwrap();
        assert_eq!(query.sort, SortKey::Relevance);
        let query = ListQuery::parse(&params(&[("q", &["soil"]), ("sortBy", &["title"])])).unwrap();
        assert_eq!(query.sort, SortKey::Title);
        assert_eq!(
            ListQuery::parse(&params(&[("sortBy", &["relevance"])])).unwrap_err(),
            "sortBy relevance needs a search (q)"
        );
    }

    #[test]
    fn every_filter_is_read_with_repeated_keys_for_arrays() {
        let query = ListQuery::parse(&params(&[
            ("tags", &["Soil", "compost"]),
            ("sourceType", &["AUDIO", "PDF"]),
            ("isStarred", &["true"]),
            ("rating", &["4", "5"]),
            ("minRating", &["3"]),
            ("gwthLevel", &["2"]),
            ("exported", &["false"]),
            ("createdAfter", &["2026-11-01"]),
            ("createdBefore", &["2026-11-23T12:00:00+01:00"]),
            ("sectionId", &["none"]),
            ("page", &["3"]),
            ("limit", &["50"]),
        ]))
        .unwrap();
        assert_eq!(query.filter.tags, ["Soil", "compost"]);
        assert_eq!(query.filter.source_types, ["AUDIO", "PDF"]);
        assert_eq!(query.filter.ratings, [4, 5]);
        assert_eq!(query.filter.min_rating, Some(3));
        assert_eq!(query.filter.gwth_levels, [2]);
        assert_eq!(query.filter.exported, Some(false));
        assert_eq!(query.filter.is_starred, Some(true));
        assert_eq!(query.filter.section, Some(SectionFilter::None));
        assert_eq!(
            query.filter.created_after.unwrap().to_rfc3339(),
            "2026-11-01T00:00:00+00:00"
        );
        assert_eq!(
            query.filter.created_before.unwrap().to_rfc3339(),
            "2026-11-23T11:00:00+00:00"
        );
        assert_eq!(query.offset(), 100);
    }

    #[test]
    fn unknown_keys_and_bad_values_name_the_key() {
        for (pairs, expected) in [
            (params(&[("colour", &["red"])]), "colour"),
            (params(&[("limit", &["500"])]), "limit"),
            (params(&[("limit", &["0"])]), "limit"),
            (params(&[("page", &["-1"])]), "page"),
            (params(&[("rating", &["6"])]), "rating"),
            (params(&[("minRating", &["x"])]), "minRating"),
            (params(&[("isStarred", &["yes"])]), "isStarred"),
            (params(&[("exported", &["1"])]), "exported"),
            (params(&[("createdAfter", &["yesterday"])]), "createdAfter"),
            (params(&[("sortBy", &["size"])]), "sortBy"),
            (params(&[("sortOrder", &["up"])]), "sortOrder"),
            (params(&[("sourceType", &["<script>"])]), "sourceType"),
            (params(&[("page", &["1", "2"])]), "page"),
        ] {
            let error = ListQuery::parse(&pairs).unwrap_err();
            assert!(error.contains(expected), "{error:?} should name {expected}");
        }
    }
}
