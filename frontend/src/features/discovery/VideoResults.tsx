import { skipToken } from '@reduxjs/toolkit/query';
import {
  Check,
  CloudUpload,
  Copy,
  Download,
  FileDown,
  FileText,
  Headphones,
  ListVideo,
  LoaderCircle,
  Music,
  Wand2,
} from 'lucide-react';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useNavigate } from 'react-router';
import { MAX_VIDEOS_PER_JOB } from '@/api/downloadJobs';
import { useCreateDownloadJobMutation } from '@/api/downloadsApi';
import { errorMessage } from '@/api/errors';
import { useGetMp3StatusForVideosQuery } from '@/api/mp3Api';
import { useCreateSourceMutation } from '@/api/sourcesApi';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge } from '@/components/StatusBadge';
import { paths } from '@/config/paths';
import { saveTextFile } from '@/lib/download';
import { formatCount, formatDate, formatDuration } from '@/lib/format';
import { HANDOFF_KEYS, writeJson } from '@/lib/storage';
import { errorToast, showToast } from '@/lib/toast';
import { useExportVideosMutation, type DiscoveryChannel, type DiscoveryVideo, type ExportType } from './discoveryApi';
import { allVideosSelected, selectDiscovery, videoSelectionToggled, type RowUpload } from './discoverySlice';
import { attachMp3ToVideo, DISCOVERY_MESSAGES } from './discoveryThunks';
import { DOWNLOAD_AUDIO_MESSAGES, downloadJobCreatedToast } from './downloadAudio';
import { firstDroppedMp3, firstVideoWithoutMp3 } from './dropRules';
import { sourceChangeErrorMessage } from './sourceErrors';
import { ChannelAvatar } from './SearchHistoryPanel';

/** The copy confirmation clears after this long (spec §9: 2 s). */
export const COPY_CONFIRMATION_MS = 2000;
/** Rows drawn at once; "Show more" draws the next ones (an "All" search can list thousands). */
export const ROWS_PER_VIEW = 500;

const notice = (message: string) => showToast({ title: message, variant: 'warning' });

export function ChannelCard({ channel, shown }: { channel: DiscoveryChannel; shown: number }) {
  const subscribers = formatCount(channel.subscriberCount);
  const videoCount = formatCount(channel.videoCount);
  return (
    <section className="card channel-card" aria-label="Channel" data-testid="channel-card">
      <ChannelAvatar src={channel.thumbnails?.high?.url} size={72} />
      <div className="channel-body">
        <h2 className="channel-title">{channel.title}</h2>
        <p className="channel-stats">
          {subscribers && <span>{subscribers} subscribers</span>}
          {videoCount && <span>{videoCount} videos</span>}
        </p>
      </div>
      <span className="badge badge-info channel-shown">{formatCount(shown)} listed</span>
    </section>
  );
}

/**
 * The video table with its selection, MP3 drop zones and actions. An MP3 dropped on the card goes
 * to the first video without one; dropped on a row, to that video. Only a drop's first file counts.
 */
export function VideoResults() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { videos, selectedIds, uploads, channel, search } = useAppSelector(selectDiscovery);
  const videoIds = useMemo(() => videos.map((video) => video.youtubeVideoId), [videos]);
  const statusQuery = useGetMp3StatusForVideosQuery(videoIds.length > 0 ? videoIds : skipToken);
  const statuses = statusQuery.data;
  const [exportVideos, { isLoading: exporting }] = useExportVideosMutation();
  const [createSource, { isLoading: addingSource }] = useCreateSourceMutation();
  const [createDownloadJob, { isLoading: creatingJob }] = useCreateDownloadJobMutation();
  const startingDownload = addingSource || creatingJob;
  const [rowsShown, setRowsShown] = useState(ROWS_PER_VIEW);
  const [cardDragging, setCardDragging] = useState(false);
  const [rowDragging, setRowDragging] = useState<string | null>(null);
  const selectAllRef = useRef<HTMLInputElement>(null);

  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const mp3PathOf = (video: DiscoveryVideo): string | null => {
    const upload = uploads[video.youtubeVideoId];
    if (upload?.status === 'done') return upload.mp3Path;
    const status = statuses?.[video.youtubeVideoId];
    return status?.hasMp3 ? (status.mp3FilePath ?? '') : null;
  };
  const hasMp3 = (video: DiscoveryVideo) => mp3PathOf(video) !== null;
  const allSelected = videos.length > 0 && selected.size === videos.length;
  const someSelected = selected.size > 0 && !allSelected;

  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = someSelected;
  }, [someSelected]);

  function dropOnCard(event: DragEvent) {
    event.preventDefault();
    setCardDragging(false);
    const files = event.dataTransfer?.files;
    if (!files || files.length === 0) return;
    const file = firstDroppedMp3(files);
    if (!file) {
      dispatch(notice(DISCOVERY_MESSAGES.dropMp3));
      return;
    }
    const target = firstVideoWithoutMp3(videos, (video) => hasMp3(video) || uploads[video.youtubeVideoId]?.status === 'uploading');
    if (!target) {
      dispatch(notice(DISCOVERY_MESSAGES.allHaveMp3));
      return;
    }
    void dispatch(attachMp3ToVideo(target, file));
  }

  // Stable, so a memoised row re-renders only when its own video, status or selection changes.
  const attachTo = useCallback(
    (video: DiscoveryVideo, files: FileList | null | undefined) => {
      setCardDragging(false);
      if (!files || files.length === 0) return;
      const file = firstDroppedMp3(files);
      if (!file) {
        dispatch(notice(DISCOVERY_MESSAGES.dropMp3));
        return;
      }
      void dispatch(attachMp3ToVideo(video, file));
    },
    [dispatch],
  );
  const toggle = useCallback((videoId: string) => dispatch(videoSelectionToggled(videoId)), [dispatch]);

  function downloadAsMp3() {
    const chosen = videos.filter((video) => selected.has(video.youtubeVideoId));
    if (chosen.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.selectToDownload));
      return;
    }
    writeJson('session', HANDOFF_KEYS.selectedVideos, chosen);
    void navigate(paths.uploads);
  }

  /**
   * 'Download audio': the channel becomes a source (or the existing one is reused, and its new
   * videos synced), then a download job takes the selected videos; /downloads shows it.
   */
  async function downloadAudio() {
    if (startingDownload) return;
    const chosen = videoIds.filter((id) => selected.has(id));
    if (chosen.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.selectToDownload));
      return;
    }
    if (chosen.length > MAX_VIDEOS_PER_JOB) {
      dispatch(notice(DOWNLOAD_AUDIO_MESSAGES.tooMany(chosen.length)));
      return;
    }
    const url = channel?.id ? `https://www.youtube.com/channel/${channel.id}` : search?.channelUrl;
    if (!url) return;
    let sourceId: string;
    let sourceTitle: string;
    try {
      const source = await createSource({ url, reuseExisting: true }).unwrap();
      sourceId = source.id;
      sourceTitle = source.title || channel?.title || '';
    } catch (error) {
      dispatch(errorToast(sourceChangeErrorMessage(error, 'Failed to create source')));
      return;
    }
    try {
      const job = await createDownloadJob({ sourceId, videoIds: chosen }).unwrap();
      dispatch(downloadJobCreatedToast(job, sourceTitle, chosen.length));
      void navigate(paths.downloads);
    } catch (error) {
      dispatch(errorToast(errorMessage(error, DOWNLOAD_AUDIO_MESSAGES.createFailed)));
    }
  }

  function createTranscripts() {
    const withMp3 = videos.filter(hasMp3);
    if (withMp3.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.noneHaveMp3));
      return;
    }
    const chosen = selected.size > 0 ? withMp3.filter((video) => selected.has(video.youtubeVideoId)) : withMp3;
    if (chosen.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.noneSelectedHaveMp3));
      return;
    }
    writeJson(
      'session',
      HANDOFF_KEYS.videosToTranscribe,
      chosen.map((video) => ({ ...video, mp3FilePath: mp3PathOf(video) || null })),
    );
    void navigate(paths.transcripts);
  }

  /** Exports the selection, or every listed video when nothing is selected. */
  async function exportAs(exportType: ExportType) {
    const ids = selected.size > 0 ? videoIds.filter((id) => selected.has(id)) : videoIds;
    if (ids.length === 0) {
      dispatch(notice(DISCOVERY_MESSAGES.nothingToExport));
      return;
    }
    try {
      const file = await exportVideos({ videoIds: ids, exportType }).unwrap();
      saveTextFile(file.filename, file.csv);
      dispatch(
        showToast({
          title: 'Export ready',
          description: `${file.filename} (${ids.length} video${ids.length === 1 ? '' : 's'})`,
          variant: 'success',
        }),
      );
    } catch (error) {
      dispatch(errorToast(errorMessage(error, DISCOVERY_MESSAGES.exportFailed)));
    }
  }

  const uploading = Object.values(uploads).some((upload) => upload.status === 'uploading');
  const withMp3Count = statuses || Object.keys(uploads).length > 0 ? videos.filter(hasMp3).length : null;

  return (
    <section
      className={`card results-card${cardDragging ? ' dragging' : ''}`}
      aria-labelledby="videos-heading"
      data-testid="videos-card"
      onDragOver={(event) => {
        event.preventDefault();
        if (!cardDragging) setCardDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setCardDragging(false);
      }}
      onDrop={dropOnCard}
    >
      <div className="card-header">
        <h2 id="videos-heading" className="card-title">
          <ListVideo size={18} aria-hidden="true" /> Videos <span className="count">{formatCount(videos.length)}</span>
        </h2>
        <span className="muted results-summary" aria-live="polite">
          {selected.size > 0 ? `${formatCount(selected.size)} selected` : 'None selected'}
          {withMp3Count !== null && ` · ${formatCount(withMp3Count)} with MP3`}
          {uploading && ' · uploading...'}
        </span>
      </div>
      <div className="results-actions button-row wrap" role="group" aria-label="Actions">
        <button type="button" className="btn btn-primary" onClick={downloadAsMp3}>
          <Download size={16} aria-hidden="true" /> Download Videos as MP3
        </button>
        <button type="button" className="btn btn-outline" disabled={startingDownload} onClick={() => void downloadAudio()}>
          {startingDownload ? (
            <LoaderCircle className="spin" size={16} aria-hidden="true" />
          ) : (
            <Headphones size={16} aria-hidden="true" />
          )}
          Download audio
        </button>
        <button type="button" className="btn btn-outline" disabled={statusQuery.isLoading} onClick={createTranscripts}>
          <Wand2 size={16} aria-hidden="true" /> Create Transcripts
        </button>
        <button type="button" className="btn btn-outline" disabled={exporting} onClick={() => void exportAs('urls')}>
          <FileDown size={16} aria-hidden="true" /> Download URLs Only
        </button>
        <button type="button" className="btn btn-outline" disabled={exporting} onClick={() => void exportAs('all')}>
          {exporting ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <FileText size={16} aria-hidden="true" />}
          Download All Data
        </button>
      </div>
      {videos.length === 0 ? (
        <div className="empty-state compact">
          <ListVideo size={28} aria-hidden="true" className="muted" />
          <p className="empty-title">{DISCOVERY_MESSAGES.noVideosFound}</p>
        </div>
      ) : (
        <>
          <div className="results-toolbar">
            <label className="check">
              <input
                ref={selectAllRef}
                type="checkbox"
                checked={allSelected}
                aria-label="Select all videos"
                onChange={(event) => dispatch(allVideosSelected(event.target.checked))}
              />
              Select all
            </label>
            <span className="muted drop-hint">
              <CloudUpload size={16} aria-hidden="true" /> Drop an MP3 on this card for the first video without one, or on a
              row.
            </span>
          </div>
          {statusQuery.isError && (
            <p className="row-error results-notice" role="status">
              The MP3 status of these videos could not be checked.
            </p>
          )}
          <div className="table-wrap">
            <table className="table video-table">
              <thead>
                <tr>
                  <th scope="col" className="cell-select">
                    <span className="visually-hidden">Selected</span>
                  </th>
                  <th scope="col">Title</th>
                  <th scope="col">URL</th>
                  <th scope="col">Released</th>
                  <th scope="col">Duration</th>
                  <th scope="col">MP3</th>
                </tr>
              </thead>
              <tbody>
                {videos.slice(0, rowsShown).map((video) => (
                  <VideoRow
                    key={video.youtubeVideoId}
                    video={video}
                    selected={selected.has(video.youtubeVideoId)}
                    hasMp3={hasMp3(video)}
                    statusKnown={Boolean(statuses) || statusQuery.isError}
                    upload={uploads[video.youtubeVideoId]}
                    dragging={rowDragging === video.youtubeVideoId}
                    onToggle={toggle}
                    onDragging={setRowDragging}
                    onFiles={attachTo}
                  />
                ))}
              </tbody>
            </table>
          </div>
          {videos.length > rowsShown && (
            <div className="center results-more">
              <button type="button" className="btn btn-outline" onClick={() => setRowsShown((shown) => shown + ROWS_PER_VIEW)}>
                Show more videos ({formatCount(videos.length - rowsShown)} more)
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

const VideoRow = memo(function VideoRow({
  video,
  selected,
  hasMp3,
  statusKnown,
  upload,
  dragging,
  onToggle,
  onDragging,
  onFiles,
}: {
  video: DiscoveryVideo;
  selected: boolean;
  hasMp3: boolean;
  statusKnown: boolean;
  upload: RowUpload | undefined;
  dragging: boolean;
  onToggle: (videoId: string) => void;
  onDragging: (videoId: string | null) => void;
  onFiles: (video: DiscoveryVideo, files: FileList | null | undefined) => void;
}) {
  const uploading = upload?.status === 'uploading';
  const videoId = video.youtubeVideoId;
  return (
    <tr
      data-testid="video-row"
      data-video-id={video.youtubeVideoId}
      className={`${selected ? 'selected' : ''}${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        event.stopPropagation();
        if (!dragging) onDragging(videoId);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onDragging(null);
      }}
      onDrop={(event) => {
        event.preventDefault();
        event.stopPropagation();
        onDragging(null);
        if (!uploading) onFiles(video, event.dataTransfer?.files);
      }}
    >
      <td className="cell-select">
        <input type="checkbox" className="row-check" checked={selected} aria-label={`Select ${video.title}`} onChange={() => onToggle(videoId)} />
      </td>
      <td className="cell-title" data-label="Title">
        <span className="file-title">{video.title}</span>
      </td>
      <td className="cell-url" data-label="URL">
        <span className="url-cell">
          <a href={video.url} target="_blank" rel="noopener noreferrer" className="video-url" title={video.url}>
            {shortUrl(video.url)}
          </a>
          <CopyUrlButton url={video.url} title={video.title} />
        </span>
      </td>
      <td data-label="Released" className="nowrap">
        {formatDate(video.publishedAt)}
      </td>
      <td data-label="Duration" className="nowrap tabular">
        {formatDuration(video.duration)}
      </td>
      <td data-label="MP3" className="cell-mp3">
        {uploading ? (
          <ProgressBar value={upload.progress} label={`Upload progress of ${video.title}`} showValue />
        ) : hasMp3 ? (
          <StatusBadge tone="success">MP3 uploaded</StatusBadge>
        ) : (
          <span className={`row-drop${dragging ? ' dragging' : ''}`}>
            <span className="row-drop-text">
              <Music size={14} aria-hidden="true" /> {statusKnown ? 'Drop MP3' : 'Checking...'}
            </span>
            <label className="btn btn-sm btn-outline">
              Attach
              <input
                className="visually-hidden"
                type="file"
                accept=".mp3,audio/mpeg"
                aria-label={`Attach MP3 to ${video.title}`}
                onChange={(event) => {
                  onFiles(video, event.target.files);
                  event.target.value = '';
                }}
              />
            </label>
          </span>
        )}
        {upload?.status === 'failed' && upload.error && <span className="row-error">{upload.error}</span>}
      </td>
    </tr>
  );
});

/** The URL without its scheme and www., so the part that tells videos apart stays visible. */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
}

function CopyUrlButton({ url, title }: { url: string; title: string }) {
  const dispatch = useAppDispatch();
  const [copiedAt, setCopiedAt] = useState<number | null>(null);

  useEffect(() => {
    if (copiedAt === null) return undefined;
    const timer = setTimeout(() => setCopiedAt(null), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copiedAt]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopiedAt(Date.now());
    } catch {
      setCopiedAt(null);
      dispatch(errorToast(DISCOVERY_MESSAGES.copyFailed));
    }
  }

  return (
    <>
      <button
        type="button"
        className={`icon-button copy-button${copiedAt !== null ? ' copied' : ''}`}
        aria-label={`Copy URL of ${title}`}
        onClick={() => void copy()}
      >
        {copiedAt !== null ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
      </button>
      <span className="copy-note" aria-live="polite">
        {copiedAt !== null ? 'Copied!' : ''}
      </span>
    </>
  );
}
