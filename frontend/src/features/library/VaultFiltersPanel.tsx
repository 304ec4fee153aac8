import { LoaderCircle, Star, Tags, X } from 'lucide-react';
import { useId } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { showToast, useErrorToast } from '@/lib/toast';
import { SOURCE_TYPE_LABELS, SOURCE_TYPES, useGetLibraryTagsQuery, useInitTagsMutation } from './libraryApi';
import { activeFilterCount, toggled, type VaultFilters } from './vaultRules';

/**
 * The filters of the list: tags (from GET /library/tags), source types, ratings, 'Needs review'
 * and starred.
 * Every change goes through `onChange`, which starts the list again at page 1.
 */
export function VaultFiltersPanel({
  id,
  filters,
  starredTab,
  onChange,
  onClear,
}: {
  id: string;
  filters: VaultFilters;
  /** The Starred tab already narrows to starred items. */
  starredTab: boolean;
  onChange: (filters: VaultFilters) => void;
  onClear: () => void;
}) {
  return (
    <section id={id} className="vault-filters" aria-label="Filters">
      <TagFilter filters={filters} onChange={onChange} />

      <fieldset className="filter-group">
        <legend>Source type</legend>
        <div className="filter-options">
          {SOURCE_TYPES.map((type) => (
            <label key={type} className="check filter-check">
              <input
                type="checkbox"
                checked={filters.sourceType.includes(type)}
                onChange={() => onChange({ ...filters, sourceType: toggled(filters.sourceType, type) })}
              />
              <span>{SOURCE_TYPE_LABELS[type]}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <RatingFilter filters={filters} onChange={onChange} />

      <fieldset className="filter-group">
        <legend>Quality</legend>
        <div className="filter-options">
          <label className="check filter-check">
            <input type="checkbox" checked={filters.needsReview} onChange={() => onChange({ ...filters, needsReview: !filters.needsReview })} />
            <span>Needs review</span>
          </label>
        </div>
        <p className="field-hint">Transcripts where Whisper may have invented or repeated text.</p>
      </fieldset>

      <StarredFilter filters={filters} starredTab={starredTab} onChange={onChange} />

      <div className="filter-actions">
        <button type="button" className="btn btn-sm btn-ghost" disabled={activeFilterCount(filters) === 0 && !filters.sortBy} onClick={onClear}>
          <X size={14} aria-hidden="true" /> Clear filters
        </button>
      </div>
    </section>
  );
}

interface FilterProps {
  filters: VaultFilters;
  onChange: (filters: VaultFilters) => void;
}

/** The user's tags with their item counts; with none yet, a way to add the starter set. */
function TagFilter({ filters, onChange }: FilterProps) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const { data: tags = [], isLoading: tagsLoading, error: tagsError } = useGetLibraryTagsQuery();
  const [initTags, { isLoading: initialising }] = useInitTagsMutation();
  // A tag filtered on that no item carries any more stays listed, so it can be unticked.
  const tagNames = [...new Set([...tags.map((tag) => tag.name), ...filters.tags])];
  const counts = new Map(tags.map((tag) => [tag.name, tag.count]));

  async function addStarterTags() {
    try {
      const { created } = await initTags('starter').unwrap();
      dispatch(showToast({ title: 'Starter tags added', description: `${created} new ${created === 1 ? 'tag' : 'tags'}`, variant: 'success' }));
    } catch (failure) {
      showError(failure, 'Failed to add the starter tags');
    }
  }

  return (
    <fieldset className="filter-group">
      <legend>Tags</legend>
      {tagsLoading ? (
        <p className="muted filter-note">Loading...</p>
      ) : tagsError ? (
        <p className="muted filter-note">{errorMessage(tagsError, 'Tags could not be loaded')}</p>
      ) : tagNames.length === 0 ? (
        <div className="filter-note">
          <p className="muted">No tags yet.</p>
          <button type="button" className="btn btn-sm btn-outline" disabled={initialising} onClick={() => void addStarterTags()}>
            {initialising ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <Tags size={14} aria-hidden="true" />}
            Add starter tags
          </button>
        </div>
      ) : (
        <div className="filter-options filter-tags">
          {tagNames.map((name) => (
            <label key={name} className="check filter-check">
              <input
                type="checkbox"
                checked={filters.tags.includes(name)}
                onChange={() => onChange({ ...filters, tags: toggled(filters.tags, name) })}
              />
              <span>{name}</span>
              {counts.has(name) && <span className="count">{counts.get(name)}</span>}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

function RatingFilter({ filters, onChange }: FilterProps) {
  return (
    <fieldset className="filter-group">
      <legend>Rating</legend>
      <div className="filter-options">
        {[5, 4, 3, 2, 1].map((rating) => (
          <label key={rating} className="check filter-check">
            <input
              type="checkbox"
              checked={filters.rating.includes(rating)}
              onChange={() => onChange({ ...filters, rating: toggled(filters.rating, rating) })}
            />
            <span className="filter-stars" aria-hidden="true">
              {Array.from({ length: rating }, (_, index) => (
                <Star key={index} size={13} className="star" />
              ))}
            </span>
            <span className="visually-hidden">{rating === 1 ? '1 star' : `${rating} stars`}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function StarredFilter({ filters, starredTab, onChange }: FilterProps & { starredTab: boolean }) {
  const starredId = useId();
  return (
    <div className="filter-group field">
      <label htmlFor={starredId}>Starred</label>
      <select
        id={starredId}
        value={starredTab ? 'true' : filters.isStarred === null ? 'any' : String(filters.isStarred)}
        disabled={starredTab}
        onChange={(event) => {
          const value = event.target.value;
          onChange({ ...filters, isStarred: value === 'any' ? null : value === 'true' });
        }}
      >
        <option value="any">Any</option>
        <option value="true">Starred only</option>
        <option value="false">Not starred</option>
      </select>
      {starredTab && <p className="field-hint">The Starred tab shows starred items only.</p>}
    </div>
  );
}
