import { Plus, Sparkles, Star, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useGetLibraryTagsQuery, useGetSuggestionsQuery, type LibraryTranscript, type MetadataChanges, type Suggestions } from './libraryApi';

const starsText = (count: number) => (count === 1 ? '1 star' : `${count} stars`);

interface MetadataEditorProps {
  item: LibraryTranscript;
  saving: boolean;
  /** Saves the change; false when it failed (its message is toasted). */
  onSave: (changes: MetadataChanges) => Promise<boolean>;
}

/** The item's rating and tags, each with what the server suggests for it. */
export function RatingAndTags({ item, saving, onSave }: MetadataEditorProps) {
  const { data: suggestions, isFetching: suggesting } = useGetSuggestionsQuery(item.id);
  return (
    <div className="vault-detail-grid">
      <RatingField item={item} saving={saving} onSave={onSave} suggestions={suggestions} />
      <TagsField item={item} saving={saving} onSave={onSave} suggestions={suggestions} suggesting={suggesting} />
    </div>
  );
}

function RatingField({ item, saving, onSave, suggestions }: MetadataEditorProps & { suggestions: Suggestions | undefined }) {
  const name = `${useId()}-rating`;
  return (
    <fieldset className="rating-field" disabled={saving}>
      <legend>Rating</legend>
      <div className="rating-stars">
        {[1, 2, 3, 4, 5].map((value) => (
          <label key={value} className="rating-star" title={starsText(value)}>
            <input
              type="radio"
              name={name}
              className="visually-hidden"
              value={value}
              checked={item.rating === value}
              onChange={() => void onSave({ rating: value })}
            />
            <Star size={22} className={item.rating != null && value <= item.rating ? 'star' : 'star-empty'} aria-hidden="true" />
            <span className="visually-hidden">{starsText(value)}</span>
          </label>
        ))}
        {item.rating != null && (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => void onSave({ rating: null })}>
            Clear rating
          </button>
        )}
      </div>
      {suggestions && (
        <p className="suggested-rating" data-testid="suggested-rating">
          <Sparkles size={14} aria-hidden="true" /> Suggested rating: {suggestions.suggestedRating}
          {item.rating !== suggestions.suggestedRating && (
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => void onSave({ rating: suggestions.suggestedRating })}>
              Use it
            </button>
          )}
        </p>
      )}
    </fieldset>
  );
}

interface TagsFieldProps extends MetadataEditorProps {
  suggestions: Suggestions | undefined;
  suggesting: boolean;
}

/** The item's tags (each removable), a field to add one (the Vault's tags offered), and the suggested ones not on it yet. */
function TagsField({ item, saving, onSave, suggestions, suggesting }: TagsFieldProps) {
  const baseId = useId();
  const { data: libraryTags = [] } = useGetLibraryTagsQuery();
  const [draft, setDraft] = useState('');
  const tags = item.tags ?? [];
  const has = (tag: string) => tags.some((existing) => existing.toLowerCase() === tag.toLowerCase());
  const suggestedTags = (suggestions?.suggestedTags ?? []).filter((tag) => !has(tag));

  async function addTag(raw: string) {
    const tag = raw.trim();
    if (!tag || has(tag)) {
      setDraft('');
      return;
    }
    if (await onSave({ tags: [...tags, tag] })) setDraft('');
  }

  return (
    <fieldset className="tags-field" disabled={saving}>
      <legend>Tags</legend>
      {tags.length > 0 ? (
        <ul className="tag-list" aria-label="Tags">
          {tags.map((tag) => (
            <li key={tag} className="tag tag-removable">
              {tag}
              <button type="button" aria-label={`Remove tag ${tag}`} onClick={() => void onSave({ tags: tags.filter((other) => other !== tag) })}>
                <X size={12} aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No tags yet.</p>
      )}
      <form
        className="tag-form"
        onSubmit={(event) => {
          event.preventDefault();
          void addTag(draft);
        }}
      >
        <label htmlFor={`${baseId}-tag`} className="visually-hidden">
          Add a tag
        </label>
        <input
          id={`${baseId}-tag`}
          className="input-sm"
          list={`${baseId}-known-tags`}
          placeholder="Add a tag"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <datalist id={`${baseId}-known-tags`}>
          {libraryTags.map((tag) => (
            <option key={tag.id} value={tag.name} />
          ))}
        </datalist>
        <button type="submit" className="btn btn-sm btn-outline" disabled={!draft.trim()}>
          <Plus size={14} aria-hidden="true" /> Add
        </button>
      </form>
      {suggesting && !suggestions ? (
        <p className="muted suggestions-note">Finding suggestions...</p>
      ) : suggestedTags.length > 0 ? (
        <SuggestedTags tags={suggestedTags} onAdd={(tag) => void addTag(tag)} />
      ) : null}
    </fieldset>
  );
}

function SuggestedTags({ tags, onAdd }: { tags: string[]; onAdd: (tag: string) => void }) {
  return (
    <div className="suggested-tags" role="group" aria-label="Suggested tags">
      <span className="muted">
        <Sparkles size={14} aria-hidden="true" /> Suggested:
      </span>
      {tags.map((tag) => (
        <button key={tag} type="button" className="tag tag-suggestion" aria-label={`Add suggested tag ${tag}`} onClick={() => onAdd(tag)}>
          <Plus size={12} aria-hidden="true" /> {tag}
        </button>
      ))}
    </div>
  );
}
