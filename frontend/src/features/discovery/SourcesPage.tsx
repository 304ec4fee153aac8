import { AlertCircle, Database, ListVideo, LoaderCircle, MonitorPlay, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  sourceTypeLabel,
  useCreateSourceMutation,
  useDeleteSourceMutation,
  useGetSourcesQuery,
  type Source,
} from '@/api/sourcesApi';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { sourceChangeErrorMessage, sourcesFetchErrorMessage } from './sourceErrors';
import { SourceVideosCard } from './SourceVideosCard';

const SOURCE_PARAM = 'source';

/** /sources: the user's channels and playlists; add by URL, delete, and page through their videos. */
export default function SourcesPage() {
  const { data: sources = [], isLoading, isFetching, error, refetch } = useGetSourcesQuery();
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = searchParams.get(SOURCE_PARAM);
  const openSource = openId ? sources.find((source) => source.id === openId) : undefined;
  const [toDelete, setToDelete] = useState<Source | null>(null);

  function open(id: string | null) {
    const next = new URLSearchParams(searchParams);
    if (id) next.set(SOURCE_PARAM, id);
    else next.delete(SOURCE_PARAM);
    void setSearchParams(next, { replace: !id });
  }

  return (
    <div className="page">
      <PageHeader title="Sources" description="The YouTube channels and playlists you follow" />
      <AddSourceCard />
      <section className="card" aria-labelledby="sources-heading">
        <div className="card-header">
          <h2 id="sources-heading" className="card-title">
            <Database size={18} aria-hidden="true" /> Your sources <span className="count">{sources.length}</span>
          </h2>
          {isFetching && !isLoading && <LoaderCircle className="spin muted" size={16} aria-label="Updating" />}
        </div>
        {isLoading ? (
          <p className="muted card-body" role="status">
            Loading...
          </p>
        ) : error ? (
          <div className="empty-state compact" role="alert">
            <AlertCircle size={28} aria-hidden="true" className="text-danger" />
            <p className="text-danger">{sourcesFetchErrorMessage(error)}</p>
            <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
              <RefreshCw size={16} aria-hidden="true" /> Try again
            </button>
          </div>
        ) : sources.length === 0 ? (
          <div className="empty-state compact">
            <Database size={28} aria-hidden="true" className="muted" />
            <p className="muted">No sources yet. Add a channel or playlist URL above.</p>
          </div>
        ) : (
          <ul className="source-list" aria-label="Sources">
            {sources.map((source) => (
              <SourceItem
                key={source.id}
                source={source}
                open={source.id === openId}
                onToggleVideos={() => open(source.id === openId ? null : source.id)}
                onDelete={() => setToDelete(source)}
              />
            ))}
          </ul>
        )}
      </section>
      {openSource && <SourceVideosCard key={openSource.id} source={openSource} onClose={() => open(null)} />}
      {toDelete && (
        <DeleteSourceDialog
          source={toDelete}
          onClose={() => setToDelete(null)}
          onDeleted={() => {
            if (toDelete.id === openId) open(null);
            setToDelete(null);
          }}
        />
      )}
    </div>
  );
}

interface SourceItemProps {
  source: Source;
  /** Its videos are shown below the list. */
  open: boolean;
  onToggleVideos: () => void;
  onDelete: () => void;
}

function SourceItem({ source, open, onToggleVideos, onDelete }: SourceItemProps) {
  return (
    <li className={`source-item${open ? ' open' : ''}`} data-testid="source-item">
      <SourceThumb source={source} />
      <div className="source-body">
        <span className="source-title">{source.title}</span>
        <span className="source-meta">
          <span className="badge badge-neutral">{sourceTypeLabel(source.type)}</span>
          {source.url && (
            <a href={source.url} target="_blank" rel="noopener noreferrer" className="source-url">
              {source.url}
            </a>
          )}
        </span>
      </div>
      <div className="row-actions">
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-pressed={open}
          aria-label={`View videos of ${source.title}`}
          onClick={onToggleVideos}
        >
          <ListVideo size={14} aria-hidden="true" /> Videos
        </button>
        <button type="button" className="icon-button" aria-label={`Delete ${source.title}`} onClick={onDelete}>
          <Trash2 size={16} aria-hidden="true" />
        </button>
      </div>
    </li>
  );
}

function AddSourceCard() {
  const [url, setUrl] = useState('');
  const [createSource, { isLoading }] = useCreateSourceMutation();
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const ids = { input: useId(), error: useId() };
  const trimmed = url.trim();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!trimmed || isLoading) return;
    setError(null);
    setAdded(null);
    try {
      const source = await createSource({ url: trimmed }).unwrap();
      setUrl('');
      setAdded(source?.title ? `Added ${source.title}.` : 'Source added.');
    } catch (failure) {
      setError(sourceChangeErrorMessage(failure, 'Failed to create source'));
    }
  }

  return (
    <section className="card" aria-labelledby="add-source-heading">
      <div className="card-header">
        <h2 id="add-source-heading" className="card-title">
          <Plus size={18} aria-hidden="true" /> Add a source
        </h2>
      </div>
      <form className="card-body add-source-form" onSubmit={(event) => void onSubmit(event)} noValidate>
        <div className="field">
          <label htmlFor={ids.input}>Channel or playlist URL</label>
          <input
            id={ids.input}
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://www.youtube.com/@channel or …/playlist?list=…"
            value={url}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(event) => {
              setUrl(event.target.value);
              setError(null);
              setAdded(null);
            }}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={!trimmed || isLoading}>
          {isLoading ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Plus size={16} aria-hidden="true" />}
          {isLoading ? 'Adding...' : 'Add Source'}
        </button>
      </form>
      {error && (
        <p id={ids.error} className="field-error add-source-message" role="alert">
          {error}
        </p>
      )}
      {added && (
        <p className="field-hint add-source-message" role="status">
          {added}
        </p>
      )}
    </section>
  );
}

function SourceThumb({ source }: { source: Source }) {
  const [failed, setFailed] = useState(false);
  const Icon = source.type === 'PLAYLIST' ? ListVideo : MonitorPlay;
  if (!source.thumbnailUrl || failed) {
    return (
      <span className="source-thumb placeholder" aria-hidden="true">
        <Icon size={22} />
      </span>
    );
  }
  return (
    <img
      className="source-thumb"
      src={source.thumbnailUrl}
      alt=""
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}

function DeleteSourceDialog({ source, onClose, onDeleted }: { source: Source; onClose: () => void; onDeleted: () => void }) {
  const [deleteSource, { isLoading }] = useDeleteSourceMutation();
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setError(null);
    try {
      await deleteSource(source.id).unwrap();
      onDeleted();
    } catch (failure) {
      setError(sourceChangeErrorMessage(failure, 'Failed to delete source'));
    }
  }

  return (
    <ConfirmDialog
      title="Delete source?"
      description={`${source.title} will be removed from your sources. Its videos stay on YouTube.`}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      icon={Trash2}
      busy={isLoading}
      error={error}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
