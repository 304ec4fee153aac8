import { Check, Copy, Music } from 'lucide-react';
import { memo, useEffect, useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge } from '@/components/StatusBadge';
import { COPY_CONFIRMATION_MS } from '@/lib/clipboard';
import { formatDate, formatDuration } from '@/lib/format';
import { errorToast } from '@/lib/toast';
import type { DiscoveryVideo } from './discoveryApi';
import type { RowUpload } from './discoverySlice';
import { DISCOVERY_MESSAGES } from './discoveryThunks';

/**
 * One video of the table: selection, title, URL with Copy, dates, and its MP3 (uploaded, uploading,
 * or a drop target with Attach). Memoised: it re-renders only when its own props change.
 */
export const VideoRow = memo(function VideoRow({
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
        <Mp3Cell video={video} hasMp3={hasMp3} statusKnown={statusKnown} upload={upload} dragging={dragging} onFiles={onFiles} />
      </td>
    </tr>
  );
});

/** The MP3 of a row: its upload's progress, 'MP3 uploaded', or where to drop or attach one; and a failed upload's message. */
function Mp3Cell({
  video,
  hasMp3,
  statusKnown,
  upload,
  dragging,
  onFiles,
}: {
  video: DiscoveryVideo;
  hasMp3: boolean;
  statusKnown: boolean;
  upload: RowUpload | undefined;
  dragging: boolean;
  onFiles: (video: DiscoveryVideo, files: FileList | null | undefined) => void;
}) {
  const uploading = upload?.status === 'uploading';
  return (
    <>
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
    </>
  );
}

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
