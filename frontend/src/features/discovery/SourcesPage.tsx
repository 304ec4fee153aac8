import { AlertCircle, Database, Download, ListVideo, LoaderCircle, MonitorPlay, Plus, RefreshCw, Trash2, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { MAX_VIDEOS_PER_JOB } from '@/api/downloadJobs';
import { useCreateDownloadJobMutation } from '@/api/downloadsApi';
import { errorMessage } from '@/api/errors';
import {
  sourceTypeLabel,
  useCreateSourceMutation,
  useDeleteSourceMutation,
  useGetSourcesQuery,
  type Source,
} from '@/api/sourcesApi';
import { useUserSettings } from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { paths } from '@/config/paths';
import { formatCount, formatDate, formatDuration } from '@/lib/format';
import { useErrorToast } from '@/lib/toast';
import { useGetSourceVideosInfiniteQuery } from './discoveryApi';
import { DOWNLOAD_AUDIO_MESSAGES, downloadJobCreatedToast, transcribeOptions } from './downloadAudio';
import { sourceChangeErrorMessage, sourcesFetchErrorMessage } from './sourceErrors';

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
              <li key={source.id} className={`source-item${source.id === openId ? ' open' : ''}`} data-testid="source-item">
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
                    aria-pressed={source.id === openId}
                    aria-label={`View videos of ${source.title}`}
                    onClick={() => open(source.id === openId ? null : source.id)}
                  >
                    <ListVideo size={14} aria-hidden="true" /> Videos
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Delete ${source.title}`}
                    onClick={() => setToDelete(source)}
                  >
                    <Trash2 size={16} aria-hidden="true" />
                  </button>
                </div>
              </li>
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

/**
 * The videos of one source, 50 a page, with a selection for 'Download audio': a job takes at most
 * 100 videos, and "Transcribe after download" sends the default model and markdown output.
 * "Use YouTube captions when available" starts as the user's default (Settings).
 */
function SourceVideosCard({ source, onClose }: { source: Source; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const navigate = useNavigate();
  const { data, isLoading, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useGetSourceVideosInfiniteQuery(source.id);
  const videos = useMemo(() => data?.pages.flatMap((page) => page.data ?? []) ?? [], [data]);
  const heading = useRef<HTMLHeadingElement>(null);
  const selectAllRef = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [transcribe, setTranscribe] = useState(false);
  // The user's default until they tick or untick it here.
  const { settings } = useUserSettings();
  const [captionsChoice, setCaptionsChoice] = useState<boolean | null>(null);
  const useCaptions = captionsChoice ?? settings.useCaptions;
  const [createJob, { isLoading: creating }] = useCreateDownloadJobMutation();
  const limitId = useId();
  const allSelected = videos.length > 0 && videos.every((video) => selected.has(video.youtubeVideoId));
  const someSelected = selected.size > 0 && !allSelected;
  const tooMany = selected.size > MAX_VIDEOS_PER_JOB;

  useEffect(() => {
    heading.current?.focus();
  }, []);

  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = someSelected;
  }, [someSelected]);

  function toggle(videoId: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(videoId)) next.delete(videoId);
      else next.add(videoId);
      return next;
    });
  }

  async function downloadAudio() {
    const videoIds = videos.map((video) => video.youtubeVideoId).filter((id) => selected.has(id));
    if (videoIds.length === 0 || tooMany || creating) return;
    try {
      const job = await createJob({ sourceId: source.id, videoIds, useCaptions, ...(transcribe ? transcribeOptions() : {}) }).unwrap();
      dispatch(downloadJobCreatedToast(job, source.title, videoIds.length));
      void navigate(paths.downloads);
    } catch (failure) {
      showError(failure, DOWNLOAD_AUDIO_MESSAGES.createFailed);
    }
  }

  return (
    <section className="card" aria-labelledby="source-videos-heading" data-testid="source-videos">
      <div className="card-header nowrap-header">
        <h2 id="source-videos-heading" ref={heading} tabIndex={-1} className="card-title">
          <ListVideo size={18} aria-hidden="true" /> Videos of {source.title}
          {videos.length > 0 && <span className="count">{formatCount(videos.length)}</span>}
        </h2>
        <button type="button" className="icon-button" aria-label="Close videos" onClick={onClose}>
          <X size={18} aria-hidden="true" />
        </button>
      </div>
      {isLoading ? (
        <p className="muted card-body" role="status">
          Loading...
        </p>
      ) : error ? (
        <p className="row-error card-body" role="alert">
          {errorMessage(error, 'Failed to fetch videos')}
        </p>
      ) : videos.length === 0 ? (
        <p className="muted card-body">This source has no videos.</p>
      ) : (
        <>
          <div className="download-bar" role="group" aria-label="Download audio">
            <label className="check">
              <input
                ref={selectAllRef}
                type="checkbox"
                checked={allSelected}
                aria-label="Select all loaded videos"
                onChange={(event) =>
                  setSelected(event.target.checked ? new Set(videos.map((video) => video.youtubeVideoId)) : new Set())
                }
              />
              Select all
            </label>
            <span className="muted download-summary" aria-live="polite">
              {selected.size > 0 ? `${formatCount(selected.size)} selected` : 'None selected'}
            </span>
            <label className="check">
              <input type="checkbox" checked={transcribe} onChange={(event) => setTranscribe(event.target.checked)} />
              Transcribe after download
            </label>
            <label className="check" title="A video with captions in its original language becomes a Vault item at once; one without is transcribed by Whisper.">
              <input type="checkbox" checked={useCaptions} onChange={(event) => setCaptionsChoice(event.target.checked)} />
              Use YouTube captions when available
            </label>
            <button
              type="button"
              className="btn btn-primary"
              disabled={selected.size === 0 || tooMany || creating}
              aria-describedby={tooMany ? limitId : undefined}
              onClick={() => void downloadAudio()}
            >
              {creating ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Download size={16} aria-hidden="true" />}
              {creating ? 'Creating...' : 'Download audio'}
            </button>
            {tooMany && (
              <p id={limitId} className="field-error" role="alert">
                {DOWNLOAD_AUDIO_MESSAGES.tooMany(selected.size)}
              </p>
            )}
          </div>
          <div className="table-wrap">
            <table className="table video-table">
              <thead>
                <tr>
                  <th scope="col" className="cell-select">
                    <span className="visually-hidden">Selected</span>
                  </th>
                  <th scope="col">Title</th>
                  <th scope="col">Released</th>
                  <th scope="col">Duration</th>
                </tr>
              </thead>
              <tbody>
                {videos.map((video) => (
                  <tr
                    key={video.youtubeVideoId}
                    data-testid="source-video-row"
                    className={selected.has(video.youtubeVideoId) ? 'selected' : undefined}
                  >
                    <td className="cell-select">
                      <input
                        type="checkbox"
                        className="row-check"
                        checked={selected.has(video.youtubeVideoId)}
                        aria-label={`Select ${video.title}`}
                        onChange={() => toggle(video.youtubeVideoId)}
                      />
                    </td>
                    <td className="cell-title" data-label="Title">
                      <a href={video.url} target="_blank" rel="noopener noreferrer" className="file-title">
                        {video.title}
                      </a>
                    </td>
                    <td data-label="Released" className="nowrap">
                      {formatDate(video.publishedAt)}
                    </td>
                    <td data-label="Duration" className="nowrap tabular">
                      {formatDuration(video.duration)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {hasNextPage && (
            <div className="card-footer center-footer">
              <button type="button" className="btn btn-outline" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                {isFetchingNextPage ? 'Loading...' : 'Load more'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
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
