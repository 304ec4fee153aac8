import { Download, ListVideo, LoaderCircle, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { MAX_VIDEOS_PER_JOB } from '@/api/downloadJobs';
import { useCreateDownloadJobMutation } from '@/api/downloadsApi';
import { errorMessage } from '@/api/errors';
import type { Source } from '@/api/sourcesApi';
import { useUserSettings } from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { formatCount, formatDate, formatDuration } from '@/lib/format';
import { useErrorToast } from '@/lib/toast';
import { useGetSourceVideosInfiniteQuery, type DiscoveryVideo } from './discoveryApi';
import { DOWNLOAD_AUDIO_MESSAGES, downloadJobCreatedToast, transcribeOptions } from './downloadAudio';

/**
 * The videos of one source, 50 a page, with a selection for 'Download audio': a job takes at most
 * 100 videos, and "Transcribe after download" sends the default model and markdown output.
 * "Use YouTube captions when available" starts as the user's default (Settings).
 */
export function SourceVideosCard({ source, onClose }: { source: Source; onClose: () => void }) {
  const { data, isLoading, error, hasNextPage, fetchNextPage, isFetchingNextPage } = useGetSourceVideosInfiniteQuery(source.id);
  const videos = useMemo(() => data?.pages.flatMap((page) => page.data ?? []) ?? [], [data]);
  const heading = useRef<HTMLHeadingElement>(null);
  const selection = useVideoSelection(videos);
  const downloadJob = useSourceDownloadJob(source);

  useEffect(() => {
    heading.current?.focus();
  }, []);

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
          <DownloadAudioBar videos={videos} selection={selection} downloadJob={downloadJob} />
          <SourceVideosTable videos={videos} selected={selection.selected} onToggle={selection.toggle} />
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

/** The ids of the ticked videos among those loaded. */
function useVideoSelection(videos: DiscoveryVideo[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const allSelected = videos.length > 0 && videos.every((video) => selected.has(video.youtubeVideoId));

  function toggle(videoId: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(videoId)) next.delete(videoId);
      else next.add(videoId);
      return next;
    });
  }

  function selectAll(all: boolean) {
    setSelected(all ? new Set(videos.map((video) => video.youtubeVideoId)) : new Set());
  }

  return { selected, allSelected, someSelected: selected.size > 0 && !allSelected, toggle, selectAll };
}

type VideoSelection = ReturnType<typeof useVideoSelection>;

/**
 * The download job's choices and its creation: on success a toast and /downloads. The captions
 * choice is the user's default until they tick or untick it here.
 */
function useSourceDownloadJob(source: Source) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const navigate = useNavigate();
  const [transcribe, setTranscribe] = useState(false);
  const { settings } = useUserSettings();
  const [captionsChoice, setCaptionsChoice] = useState<boolean | null>(null);
  const useCaptions = captionsChoice ?? settings.useCaptions;
  const [createJob, { isLoading: creating }] = useCreateDownloadJobMutation();

  async function downloadAudio(videoIds: string[]) {
    try {
      const job = await createJob({ sourceId: source.id, videoIds, useCaptions, ...(transcribe ? transcribeOptions() : {}) }).unwrap();
      dispatch(downloadJobCreatedToast(job, source.title, videoIds.length));
      void navigate(paths.downloads);
    } catch (failure) {
      showError(failure, DOWNLOAD_AUDIO_MESSAGES.createFailed);
    }
  }

  return { transcribe, setTranscribe, useCaptions, setCaptionsChoice, creating, downloadAudio };
}

type SourceDownloadJob = ReturnType<typeof useSourceDownloadJob>;

/** Select all, what is selected, the job's choices and 'Download audio'. */
interface DownloadAudioBarProps {
  videos: DiscoveryVideo[];
  selection: VideoSelection;
  downloadJob: SourceDownloadJob;
}

function DownloadAudioBar({ videos, selection, downloadJob }: DownloadAudioBarProps) {
  const { selected, allSelected, someSelected, selectAll } = selection;
  const { transcribe, setTranscribe, useCaptions, setCaptionsChoice, creating, downloadAudio } = downloadJob;
  const selectAllRef = useRef<HTMLInputElement>(null);
  const limitId = useId();
  const tooMany = selected.size > MAX_VIDEOS_PER_JOB;

  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = someSelected;
  }, [someSelected]);

  function onDownload() {
    const videoIds = videos.map((video) => video.youtubeVideoId).filter((id) => selected.has(id));
    if (videoIds.length === 0 || tooMany || creating) return;
    void downloadAudio(videoIds);
  }

  return (
    <div className="download-bar" role="group" aria-label="Download audio">
      <label className="check">
        <input
          ref={selectAllRef}
          type="checkbox"
          checked={allSelected}
          aria-label="Select all loaded videos"
          onChange={(event) => selectAll(event.target.checked)}
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
        onClick={onDownload}
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
  );
}

interface SourceVideosTableProps {
  videos: DiscoveryVideo[];
  selected: ReadonlySet<string>;
  onToggle: (videoId: string) => void;
}

function SourceVideosTable({ videos, selected, onToggle }: SourceVideosTableProps) {
  return (
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
            <SourceVideoRow
              key={video.youtubeVideoId}
              video={video}
              selected={selected.has(video.youtubeVideoId)}
              onToggle={() => onToggle(video.youtubeVideoId)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SourceVideoRow({ video, selected, onToggle }: { video: DiscoveryVideo; selected: boolean; onToggle: () => void }) {
  return (
    <tr data-testid="source-video-row" className={selected ? 'selected' : undefined}>
      <td className="cell-select">
        <input type="checkbox" className="row-check" checked={selected} aria-label={`Select ${video.title}`} onChange={onToggle} />
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
  );
}
