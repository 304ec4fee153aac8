//! What a list of Vault items asks for: the page, the order and the filters. The wire brings
//! them typed (the gateway reads the client's query string); here every value is checked
//! against the Vault's limits and refused naming the client's key, so a bad value never
//! silently lists everything.

use chrono::{DateTime, Utc};

use super::{SourceType, check_score};
use crate::search::SearchQuery;

/// Largest page a client may ask for.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Page size when the client does not say (docs/product-spec.md §9).
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

/// How a search finds items (docs/adr/0026-meaning-search.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SearchMode {
    /// The words as typed, by the full-text index.
    Keyword,
    /// By meaning alone: the query's vector against each item's chunks.
    Semantic,
    /// Both rankings fused (reciprocal rank fusion); keyword alone while an item's vectors
    /// are missing or search by meaning is off.
    #[default]
    Hybrid,
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
    pub source_types: Vec<SourceType>,
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
    /// Items the quality guard marked 'Needs review' (true), or not (false).
    pub needs_review: Option<bool>,
}

/// A list request as the client made it: typed, not yet checked. Absent means the default.
#[derive(Debug, Clone, Default)]
pub struct ListRequest {
    pub page: Option<u32>,
    pub limit: Option<u32>,
    pub sort: Option<SortKey>,
    pub order: Option<SortOrder>,
    /// The full-text part as typed; blank is no search.
    pub search: Option<String>,
    /// How the search finds items; absent is [`SearchMode::Hybrid`].
    pub search_mode: Option<SearchMode>,
    pub filter: ItemFilter,
}

/// A whole list request, checked.
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
    /// The search as typed, for its vector.
    pub search_text: Option<String>,
    pub search_mode: SearchMode,
}

impl ListQuery {
    /// Checks `request` against the Vault's limits and fills in the defaults.
    ///
    /// # Errors
    /// A value out of range, named by the client's query key.
    pub fn check(request: ListRequest) -> Result<Self, String> {
        let page = match request.page {
            None => 1,
            Some(0) => return Err("page must be a positive whole number".into()),
            Some(page) => page,
        };
        let limit = match request.limit {
            None => DEFAULT_PAGE_SIZE,
            Some(limit @ 1..=MAX_PAGE_SIZE) => limit,
            Some(_) => {
                return Err(format!(
                    "limit must be a whole number from 1 to {MAX_PAGE_SIZE}"
                ));
            }
        };
        let mut filter = request.filter;
        filter.tags = filter
            .tags
            .iter()
            .map(|tag| tag.trim().to_owned())
            .filter(|tag| !tag.is_empty())
            .collect();
        for rating in &filter.ratings {
            check_score("rating", *rating)?;
        }
        if let Some(min) = filter.min_rating {
            check_score("minRating", min)?;
        }
        for level in &filter.gwth_levels {
            check_score("gwthLevel", *level)?;
        }
        if let Some(SectionFilter::In(id)) = &filter.section
            && id.trim().is_empty()
        {
            return Err("sectionId must not be empty".into());
        }
        let search = request.search.as_deref().and_then(SearchQuery::parse);
        let search_text = search
            .as_ref()
            .and(request.search.as_deref())
            .map(|text| text.trim().to_owned());
        let sort = match (request.sort, &search) {
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
            order: request.order.unwrap_or(SortOrder::Desc),
            filter,
            search,
            search_text,
            search_mode: request.search_mode.unwrap_or_default(),
        })
    }

    /// Rows before this page.
    #[must_use]
    pub fn offset(&self) -> u64 {
        u64::from(self.page - 1) * u64::from(self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_request_is_page_one_of_twenty_newest_first() {
        let query = ListQuery::check(ListRequest::default()).unwrap();
        assert_eq!((query.page, query.limit), (1, DEFAULT_PAGE_SIZE));
        assert_eq!(
            (query.sort, query.order),
            (SortKey::CreatedAt, SortOrder::Desc)
        );
        assert_eq!(query.filter, ItemFilter::default());
    }

    #[test]
    fn a_search_sorts_by_relevance_unless_told_otherwise() {
        let searching = |sort| ListRequest {
            search: Some("soil".into()),
            sort,
            ..ListRequest::default()
        };
        assert_eq!(
            ListQuery::check(searching(None)).unwrap().sort,
            SortKey::Relevance
        );
        assert_eq!(
            ListQuery::check(searching(Some(SortKey::Title)))
                .unwrap()
                .sort,
            SortKey::Title
        );
        let blank = ListRequest {
            search: Some("  ".into()),
            ..ListRequest::default()
        };
        assert_eq!(ListQuery::check(blank).unwrap().sort, SortKey::CreatedAt);
        let relevance_alone = ListRequest {
            sort: Some(SortKey::Relevance),
            ..ListRequest::default()
        };
        assert_eq!(
            ListQuery::check(relevance_alone).unwrap_err(),
            "sortBy relevance needs a search (q)"
        );
    }

    #[test]
    fn tags_are_trimmed_and_blank_ones_dropped() {
        let request = ListRequest {
            filter: ItemFilter {
                tags: vec![" Soil ".into(), String::new(), "compost".into()],
                ..ItemFilter::default()
            },
            page: Some(3),
            limit: Some(50),
            ..ListRequest::default()
        };
        let query = ListQuery::check(request).unwrap();
        assert_eq!(query.filter.tags, ["Soil", "compost"]);
        assert_eq!(query.offset(), 100);
    }

    #[test]
    fn values_out_of_range_name_the_client_key() {
        let filtered = |filter| ListRequest {
            filter,
            ..ListRequest::default()
        };
        for (request, expected) in [
            (
                ListRequest {
                    limit: Some(500),
                    ..ListRequest::default()
                },
                "limit",
            ),
            (
                ListRequest {
                    limit: Some(0),
                    ..ListRequest::default()
                },
                "limit",
            ),
            (
                ListRequest {
                    page: Some(0),
                    ..ListRequest::default()
                },
                "page",
            ),
            (
                filtered(ItemFilter {
                    ratings: vec![4, 6],
                    ..ItemFilter::default()
                }),
                "rating",
            ),
            (
                filtered(ItemFilter {
                    min_rating: Some(0),
                    ..ItemFilter::default()
                }),
                "minRating",
            ),
            (
                filtered(ItemFilter {
                    gwth_levels: vec![9],
                    ..ItemFilter::default()
                }),
                "gwthLevel",
            ),
            (
                filtered(ItemFilter {
                    section: Some(SectionFilter::In(" ".into())),
                    ..ItemFilter::default()
                }),
                "sectionId",
            ),
        ] {
            let error = ListQuery::check(request).unwrap_err();
            assert!(error.contains(expected), "{error:?} should name {expected}");
        }
    }
}
