//! A search that uses meaning (docs/adr/0026-meaning-search.md): the items whose chunks are
//! nearest the query's vector, alone (`semantic`) or fused with the keyword ranking by
//! reciprocal rank fusion (`hybrid`). Filters, sorts and pages hold as for a keyword search.

use std::collections::{HashMap, HashSet};

use sea_orm::DbErr;
use sea_orm::sea_query::{Expr, ExprTrait as _, Query};

use super::LibraryStore;
use super::items::{ItemRow, StoredItem, row_select};
use super::listing::PageTotal;
use super::vectors::NearChunk;
use crate::domain::listing::{ListQuery, SearchMode, SortKey, SortOrder};
use crate::entity::library_item::{Column, Entity as Items};
use crate::search::SearchQuery;

/// Reciprocal rank fusion's constant: a hit at rank r adds 1 / (60 + r) (Cormack et al.,
/// 2009); 60 keeps one ranking's top hit from drowning the other's.
const RRF_K: f64 = 60.0;

/// Why each listed item was found.
#[derive(Debug, Default)]
pub struct MeaningHits {
    /// The nearest chunk of every item found by meaning.
    pub nearest: HashMap<i64, NearChunk>,
    /// The items the keyword ranking found.
    pub by_keyword: HashSet<i64>,
}

/// The two rankings fused: each item scores the sum of 1 / (60 + rank) over the rankings it is
/// in, best first; ties go to the newer item.
#[must_use]
pub fn fuse(keyword: &[i64], meaning: &[i64]) -> Vec<i64> {
    let mut scores: HashMap<i64, f64> = HashMap::new();
    for ranking in [keyword, meaning] {
        for (rank, seq) in ranking.iter().enumerate() {
            #[allow(clippy::cast_precision_loss)]
            let score = 1.0 / (RRF_K + rank as f64 + 1.0);
            *scores.entry(*seq).or_default() += score;
        }
    }
    let mut fused: Vec<i64> = scores.keys().copied().collect();
    fused.sort_by(|a, b| scores[b].total_cmp(&scores[a]).then(b.cmp(a)));
    fused
}

impl LibraryStore {
    /// One page of a search by meaning (or hybrid), given the chunks nearest the query.
    ///
    /// # Errors
    /// Database failure.
    pub async fn page_with_meaning(
        &self,
        user_id: &str,
        query: &ListQuery,
        search: &SearchQuery,
        near: Vec<NearChunk>,
    ) -> Result<(Vec<StoredItem>, PageTotal, MeaningHits), DbErr> {
        let nearest = self.nearest_per_item(user_id, query, near).await?;
        let meaning: Vec<i64> = nearest.iter().map(|chunk| chunk.item_seq).collect();
        let (keyword, capped) = if query.search_mode == SearchMode::Hybrid {
            self.keyword_ranking(user_id, &query.filter, search).await?
        } else {
            (Vec::new(), false)
        };
        let mut order = match query.search_mode {
            SearchMode::Semantic => meaning,
            _ => fuse(&keyword, &meaning),
        };
        let total = PageTotal {
            count: order.len() as u64,
            capped,
        };
        let hits = MeaningHits {
            nearest: nearest
                .into_iter()
                .map(|chunk| (chunk.item_seq, chunk))
                .collect(),
            by_keyword: keyword.into_iter().collect(),
        };
        let offset = usize::try_from(query.offset()).unwrap_or(usize::MAX);
        if offset >= order.len() {
            return Ok((Vec::new(), total, hits));
        }
        let mut select = row_select();
        if query.sort == SortKey::Relevance {
            if query.order == SortOrder::Asc {
                order.reverse();
            }
            let page: Vec<i64> = order
                .into_iter()
                .skip(offset)
                .take(query.limit as usize)
                .collect();
            select.and_where(Expr::col((Items, Column::Seq)).is_in(page.iter().copied()));
            let mut rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
            rows.sort_by_key(|row| page.iter().position(|seq| *seq == row.seq));
            return Ok((Self::with_tags(&self.db, rows).await?, total, hits));
        }
        select.and_where(Expr::col((Items, Column::Seq)).is_in(order.iter().copied()));
        super::listing::order_page(&mut select, query);
        let rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
        Ok((Self::with_tags(&self.db, rows).await?, total, hits))
    }

    /// The nearest chunk of each item `near` reaches, nearest first, of the items the query's
    /// filters keep.
    async fn nearest_per_item(
        &self,
        user_id: &str,
        query: &ListQuery,
        near: Vec<NearChunk>,
    ) -> Result<Vec<NearChunk>, DbErr> {
        let mut seen = HashSet::new();
        let nearest: Vec<NearChunk> = near
            .into_iter()
            .filter(|chunk| seen.insert(chunk.item_seq))
            .collect();
        if nearest.is_empty() {
            return Ok(nearest);
        }
        #[derive(sea_orm::FromQueryResult)]
        struct Seq {
            seq: i64,
        }
        let mut kept = Query::select();
        kept.column((Items, Column::Seq)).from(Items);
        super::filters::apply(&mut kept, user_id, &query.filter);
        kept.and_where(
            Expr::col((Items, Column::Seq)).is_in(nearest.iter().map(|chunk| chunk.item_seq)),
        );
        let kept: HashSet<i64> = Self::rows::<Seq>(&self.db, &kept)
            .await?
            .into_iter()
            .map(|row| row.seq)
            .collect();
        Ok(nearest
            .into_iter()
            .filter(|chunk| kept.contains(&chunk.item_seq))
            .collect())
    }
}

impl LibraryStore {
    /// The `count` items nearest by meaning to the user's item `seq`: nearest to the mean of
    /// its chunks' vectors. Empty while the item has none.
    ///
    /// # Errors
    /// Database failure.
    pub async fn related_items(
        &self,
        user_id: &str,
        seq: i64,
        count: usize,
    ) -> Result<Vec<StoredItem>, DbErr> {
        let vectors = self.item_vectors(seq).await?;
        let Some(centroid) = centroid(&vectors) else {
            return Ok(Vec::new());
        };
        let wanted = Ord::max(u32::try_from(count * 20).unwrap_or(u32::MAX), 50);
        let mut seen = HashSet::from([seq]);
        let nearest: Vec<i64> = self
            .nearest_chunks(user_id, &centroid, wanted)
            .await?
            .into_iter()
            .map(|chunk| chunk.item_seq)
            .filter(|item| seen.insert(*item))
            .take(count)
            .collect();
        if nearest.is_empty() {
            return Ok(Vec::new());
        }
        let mut select = row_select();
        select.and_where(Expr::col((Items, Column::Seq)).is_in(nearest.iter().copied()));
        select.and_where(Expr::col((Items, Column::UserId)).eq(user_id));
        let mut rows: Vec<ItemRow> = Self::rows(&self.db, &select).await?;
        rows.sort_by_key(|row| nearest.iter().position(|seq| *seq == row.seq));
        Self::with_tags(&self.db, rows).await
    }
}

/// The unit-length mean of `vectors`, or `None` when there are none.
fn centroid(vectors: &[Vec<f32>]) -> Option<Vec<f32>> {
    let first = vectors.first()?;
    let mut sum = vec![0.0_f32; first.len()];
    for vector in vectors {
        for (total, x) in sum.iter_mut().zip(vector) {
            *total += x;
        }
    }
    let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm <= f32::EPSILON {
        return None;
    }
    Some(sum.into_iter().map(|x| x / norm).collect())
}

#[cfg(test)]
mod tests {
    use super::{centroid, fuse};

    #[test]
    fn the_centroid_is_the_unit_mean_and_nothing_has_none() {
        let mean = centroid(&[vec![1.0, 0.0], vec![0.0, 1.0]]).unwrap();
        assert!(
            (mean[0] - mean[1]).abs() < 1e-6
                && (mean[0] - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-5
        );
        assert!(centroid(&[]).is_none());
        assert!(centroid(&[vec![0.0, 0.0]]).is_none());
    }

    #[test]
    fn an_item_both_rankings_found_comes_before_one_either_found_alone() {
        assert_eq!(fuse(&[1, 2, 3], &[3, 4]), [3, 1, 4, 2]);
    }

    #[test]
    fn one_ranking_alone_keeps_its_order() {
        assert_eq!(fuse(&[5, 9, 2], &[]), [5, 9, 2]);
        assert_eq!(fuse(&[], &[7, 1]), [7, 1]);
    }
}
