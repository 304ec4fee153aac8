import { FileAudio, FileImage, FileText, Globe, LoaderCircle, Star, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { formatDate, formatDuration } from '@/lib/format';
import { useErrorToast } from '@/lib/toast';
import { gwthLabel, sourceTypeLabel, useUpdateMetadataMutation, VAULT_ERRORS, type LibraryTranscript } from './libraryApi';
import { LanguageBadge } from './LanguageBadge';
import { NeedsReviewBadge } from './ReviewPanel';
import { snippetParts } from './vaultRules';

const ICONS: Record<string, LucideIcon> = {
  AUDIO: FileAudio,
  IMAGE: FileImage,
  WEBSITE: Globe,
  WEBSITE_CONTENT: Globe,
};

export function SourceTypeIcon({ type, size = 20 }: { type: string | null; size?: number }) {
  const Icon = (type && ICONS[type]) || FileText;
  return <Icon size={size} aria-hidden="true" />;
}

/** A search snippet: only its `<mark>` tags become markup, everything else is text. */
export function Snippet({ html }: { html: string }) {
  return (
    <>
      {snippetParts(html).map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  );
}

/** One item of the list or the grid: select box, title (opens the detail), quick star, what a search found. */
export function VaultItemCard({
  item,
  selected,
  onSelect,
  onOpen,
}: {
  item: LibraryTranscript;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  /** Opens the detail; `at` (seconds) plays an AUDIO item's recording from there. */
  onOpen: (at?: number) => void;
}) {
  const titleId = useId();
  const meta = [item.author, formatDate(item.createdAt), item.duration ? formatDuration(item.duration) : null].filter(Boolean).join(' · ');
  const level = gwthLabel(item.gwthLevel);

  return (
    <article
      className={`card vault-card${selected ? ' selected' : ''}`}
      aria-labelledby={titleId}
      data-testid="vault-item"
      data-item-id={item.id}
    >
      <div className="vault-card-head">
        <input
          type="checkbox"
          className="row-check vault-card-check"
          checked={selected}
          onChange={(event) => onSelect(event.target.checked)}
          aria-label={`Select ${item.title}`}
        />
        <span className="vault-card-icon" aria-hidden="true">
          <SourceTypeIcon type={item.sourceType} />
        </span>
        <h3 className="vault-card-title">
          <button type="button" id={titleId} className="vault-card-open" onClick={() => onOpen()}>
            {item.title}
          </button>
        </h3>
        <QuickStarButton item={item} />
      </div>
      <div className="vault-card-body">
        {meta && <p className="vault-card-meta">{meta}</p>}
        <p className="vault-card-tags">
          <span className="badge badge-neutral">{sourceTypeLabel(item.sourceType)}</span>
          <LanguageBadge code={item.language} />
          {item.needsReview && <NeedsReviewBadge />}
          {level && <span className="badge badge-info">{level}</span>}
          {item.rating ? (
            <span className="badge badge-warning" data-testid="item-rating">
              <Star size={12} className="star" aria-hidden="true" /> {item.rating}
              <span className="visually-hidden"> of 5 stars</span>
            </span>
          ) : null}
          {(item.tags ?? []).slice(0, 6).map((tag) => (
            <span key={tag} className="tag">
              {tag}
            </span>
          ))}
        </p>
        <SearchFindings item={item} onOpen={onOpen} />
      </div>
    </article>
  );
}

function QuickStarButton({ item }: { item: LibraryTranscript }) {
  const showError = useErrorToast();
  const [updateMetadata, { isLoading: starring }] = useUpdateMetadataMutation();

  async function toggleStar() {
    try {
      await updateMetadata({ id: item.id, changes: { isStarred: !item.isStarred } }).unwrap();
    } catch (failure) {
      showError(failure, VAULT_ERRORS.metadata);
    }
  }

  return (
    <button
      type="button"
      className={`icon-button vault-card-star${item.isStarred ? ' on' : ''}`}
      aria-label={`Star ${item.title}`}
      aria-pressed={item.isStarred}
      disabled={starring}
      onClick={() => void toggleStar()}
    >
      {starring ? (
        <LoaderCircle className="spin" size={16} aria-hidden="true" />
      ) : (
        <Star size={16} className={item.isStarred ? 'star' : undefined} aria-hidden="true" />
      )}
    </button>
  );
}

/** What a search found in the item: text snippets, and the times an AUDIO item's words were spoken. */
function SearchFindings({ item, onOpen }: { item: LibraryTranscript; onOpen: (at?: number) => void }) {
  const highlights = item.highlights ?? [];
  const matches = item.matches ?? [];
  return (
    <>
      {highlights.length > 0 && (
        <ul className="vault-snippets" aria-label={`Matches in ${item.title}`}>
          {highlights.map((html, index) => (
            <li key={index}>
              <Snippet html={html} />
            </li>
          ))}
        </ul>
      )}
      {matches.length > 0 && (
        <ul className="vault-matches" aria-label={`Audio matches in ${item.title}`}>
          {matches.map((match, index) => (
            <li key={`${match.start}-${index}`}>
              <button
                type="button"
                className="match-time tabular"
                aria-label={`Play ${item.title} from ${formatDuration(match.start)}`}
                onClick={() => onOpen(match.start)}
              >
                {formatDuration(match.start)}
              </button>
              <span className="match-text">{match.text}</span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
