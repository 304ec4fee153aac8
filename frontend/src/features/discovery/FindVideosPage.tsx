import { AlertCircle, Gauge, LoaderCircle, RefreshCw, Search } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { formatClockTime, formatCount } from '@/lib/format';
import { ALL_VIDEOS, DEFAULT_VIDEO_COUNT, useGetDiscoveryQuotaQuery, VIDEO_COUNTS, type VideoCount } from './discoveryApi';
import { historyCleared, historyEntryRemoved, selectDiscovery } from './discoverySlice';
import { DISCOVERY_MESSAGES, searchChannel } from './discoveryThunks';
import { SearchHistoryPanel } from './SearchHistoryPanel';
import { ChannelCard, VideoResults } from './VideoResults';

const COUNT_LABEL = (count: VideoCount) => (count === ALL_VIDEOS ? 'All' : String(count));

/** '/' and /youtube-discovery: find the videos of a YouTube channel and attach MP3s to them. */
export default function FindVideosPage() {
  const dispatch = useAppDispatch();
  const discovery = useAppSelector(selectDiscovery);
  const channelSearch = useChannelSearch();
  const { searching, busy, hasResults } = channelSearch;

  return (
    <div className="page">
      <PageHeader title="Find Videos" description="Find the videos of a YouTube channel and attach MP3s to them" />
      <ChannelSearchCard channelSearch={channelSearch} />

      <SearchHistoryPanel
        history={discovery.history}
        disabled={busy}
        onPick={(entry) => channelSearch.searchAgain(entry.channelUrl)}
        onRemove={(entry) => dispatch(historyEntryRemoved(entry.id))}
        onClear={() => dispatch(historyCleared())}
      />

      {discovery.error && (
        <section className="card error-card" role="alert" aria-label="Search failed">
          <AlertCircle size={20} aria-hidden="true" />
          <div>
            <h2 className="error-card-title">Search failed</h2>
            <p>{discovery.error}</p>
          </div>
        </section>
      )}

      {searching && (
        <section className="card empty-state" role="status" aria-live="polite">
          <LoaderCircle className="spin muted" size={28} aria-hidden="true" />
          <p className="empty-title">Fetching videos...</p>
          <p className="muted">
            {discovery.search?.limit === ALL_VIDEOS
              ? 'Fetching every video of the channel can take a while.'
              : 'This takes a few seconds.'}
          </p>
        </section>
      )}

      {hasResults && discovery.channel && (
        <>
          <ChannelCard channel={discovery.channel} shown={discovery.videos.length} />
          <VideoResults />
        </>
      )}
    </div>
  );
}

/**
 * The search form's channel URL and video count (both start from the last search), its check of
 * the URL, and the searches it starts: a new one, a refresh of the last, or one from the history.
 */
function useChannelSearch() {
  const dispatch = useAppDispatch();
  const discovery = useAppSelector(selectDiscovery);
  const [channelUrl, setChannelUrl] = useState(discovery.search?.channelUrl ?? '');
  const [limit, setLimit] = useState<VideoCount>(discovery.search?.limit ?? DEFAULT_VIDEO_COUNT);
  const [urlError, setUrlError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const searching = discovery.status === 'loading';
  const busy = searching || discovery.refreshing;
  const hasResults = discovery.status === 'succeeded' && discovery.channel !== null;

  function search(url: string, count: VideoCount = limit) {
    const trimmed = url.trim();
    if (!trimmed) {
      setUrlError(DISCOVERY_MESSAGES.enterChannelUrl);
      inputRef.current?.focus();
      return;
    }
    setUrlError(null);
    void dispatch(searchChannel({ channelUrl: trimmed, limit: count, refresh: false }));
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!busy) search(channelUrl);
  }

  function refresh() {
    if (!discovery.search || busy) return;
    void dispatch(searchChannel({ ...discovery.search, refresh: true }));
  }

  function changeChannelUrl(url: string) {
    setChannelUrl(url);
    if (urlError) setUrlError(null);
  }

  function searchAgain(url: string) {
    setChannelUrl(url);
    search(url);
  }

  return {
    channelUrl,
    changeChannelUrl,
    limit,
    setLimit,
    urlError,
    inputRef,
    searching,
    busy,
    refreshing: discovery.refreshing,
    hasResults,
    onSubmit,
    refresh,
    searchAgain,
  };
}

/** The channel URL, how many videos, Search and (once there are results) Refresh. */
function ChannelSearchCard({ channelSearch }: { channelSearch: ReturnType<typeof useChannelSearch> }) {
  const { channelUrl, changeChannelUrl, limit, setLimit, urlError, inputRef } = channelSearch;
  const { searching, busy, refreshing, hasResults, onSubmit, refresh } = channelSearch;
  const ids = { url: useId(), count: useId(), urlError: useId(), quota: useId() };
  return (
    <section className="card search-card" aria-label="Channel search">
      <form className="search-form" onSubmit={onSubmit} noValidate>
        <div className="field search-url">
          <label htmlFor={ids.url}>YouTube channel URL</label>
          <input
            ref={inputRef}
            id={ids.url}
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            placeholder="https://www.youtube.com/@channel"
            value={channelUrl}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? ids.urlError : undefined}
            onChange={(event) => changeChannelUrl(event.target.value)}
          />
        </div>
        <div className="field search-count">
          <label htmlFor={ids.count}>Videos</label>
          <select
            id={ids.count}
            value={limit}
            aria-describedby={limit === ALL_VIDEOS ? ids.quota : undefined}
            onChange={(event) => setLimit(Number(event.target.value) as VideoCount)}
          >
            {VIDEO_COUNTS.map((count) => (
              <option key={count} value={count}>
                {COUNT_LABEL(count)}
              </option>
            ))}
          </select>
        </div>
        <div className="search-buttons">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {searching ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Search size={16} aria-hidden="true" />}
            {searching ? 'Searching...' : 'Search'}
          </button>
          {hasResults && (
            <button type="button" className="btn btn-outline" disabled={busy} onClick={refresh}>
              <RefreshCw className={refreshing ? 'spin' : undefined} size={16} aria-hidden="true" />
              {refreshing ? 'Refreshing...' : 'Refresh'}
            </button>
          )}
        </div>
      </form>
      {urlError && (
        <p id={ids.urlError} className="field-error search-error" role="alert">
          {urlError}
        </p>
      )}
      {limit === ALL_VIDEOS && <QuotaHint id={ids.quota} />}
    </section>
  );
}

/**
 * What is left of the server's YouTube quota today, shown before an "All" scan (which can spend a
 * lot of it). Says nothing when the quota cannot be read.
 */
function QuotaHint({ id }: { id: string }) {
  const { data: quota, isError } = useGetDiscoveryQuotaQuery(undefined, { refetchOnMountOrArgChange: 30 });
  if (isError || !quota || !Number.isFinite(quota.limit) || !Number.isFinite(quota.used)) return null;
  const left = Math.max(0, quota.limit - quota.used);
  const resets = formatClockTime(quota.resetsAt);
  return (
    <p id={id} className={`quota-hint${left === 0 ? ' empty' : ''}`}>
      <Gauge size={16} aria-hidden="true" />
      <span>
        YouTube quota left today: {formatCount(left)} of {formatCount(quota.limit)} units
        {resets ? ` · resets ${resets}` : ''}
      </span>
    </p>
  );
}
