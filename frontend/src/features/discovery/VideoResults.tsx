import { skipToken } from '@reduxjs/toolkit/query';
import { CloudUpload, ListVideo } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type Ref } from 'react';
import { useGetMp3StatusForVideosQuery } from '@/api/mp3Api';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatCount } from '@/lib/format';
import { showToast } from '@/lib/toast';
import type { DiscoveryChannel, DiscoveryVideo } from './discoveryApi';
import { allVideosSelected, selectDiscovery, videoSelectionToggled, type RowUpload } from './discoverySlice';
import { attachMp3ToVideo, DISCOVERY_MESSAGES } from './discoveryThunks';
import { firstDroppedMp3, firstVideoWithoutMp3 } from './dropRules';
import { ChannelAvatar } from './SearchHistoryPanel';
import { VideoActions } from './VideoActions';
import { VideoRow } from './VideoRow';

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
  const { videos, selectedIds, uploads } = useAppSelector(selectDiscovery);
  const videoIds = useMemo(() => videos.map((video) => video.youtubeVideoId), [videos]);
  const statusQuery = useGetMp3StatusForVideosQuery(videoIds.length > 0 ? videoIds : skipToken);
  const statuses = statusQuery.data;
  const [rowsShown, setRowsShown] = useState(ROWS_PER_VIEW);
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

  const card = useCardDrop(videos, (video) => hasMp3(video) || uploads[video.youtubeVideoId]?.status === 'uploading');
  const uploading = Object.values(uploads).some((upload) => upload.status === 'uploading');
  const withMp3Count = statuses || Object.keys(uploads).length > 0 ? videos.filter(hasMp3).length : null;

  return (
    <section
      className={`card results-card${card.dragging ? ' dragging' : ''}`}
      aria-labelledby="videos-heading"
      data-testid="videos-card"
      onDragOver={card.onDragOver}
      onDragLeave={card.onDragLeave}
      onDrop={card.onDrop}
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
      <VideoActions videos={videos} selected={selected} mp3PathOf={mp3PathOf} statusLoading={statusQuery.isLoading} />
      {videos.length === 0 ? (
        <div className="empty-state compact">
          <ListVideo size={28} aria-hidden="true" className="muted" />
          <p className="empty-title">{DISCOVERY_MESSAGES.noVideosFound}</p>
        </div>
      ) : (
        <>
          <SelectAllBar checkboxRef={selectAllRef} checked={allSelected} onChange={(on) => dispatch(allVideosSelected(on))} />
          {statusQuery.isError && (
            <p className="row-error results-notice" role="status">
              The MP3 status of these videos could not be checked.
            </p>
          )}
          <VideoTable
            videos={videos}
            selected={selected}
            hasMp3={hasMp3}
            statusKnown={Boolean(statuses) || statusQuery.isError}
            uploads={uploads}
            rowsShown={rowsShown}
            onShowMore={() => setRowsShown((shown) => shown + ROWS_PER_VIEW)}
            onCardDragEnd={card.end}
          />
        </>
      )}
    </section>
  );
}

/**
 * The card as a drop target: its highlight while something is dragged over it, and a dropped MP3
 * for the first video without one (`taken`: has one, or is uploading one).
 */
function useCardDrop(videos: DiscoveryVideo[], taken: (video: DiscoveryVideo) => boolean) {
  const dispatch = useAppDispatch();
  const [dragging, setDragging] = useState(false);
  // Stable: the rows' memoised drop handler ends the card's highlight with it.
  const end = useCallback(() => setDragging(false), []);

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const files = event.dataTransfer?.files;
    if (!files || files.length === 0) return;
    const file = firstDroppedMp3(files);
    if (!file) {
      dispatch(notice(DISCOVERY_MESSAGES.dropMp3));
      return;
    }
    const target = firstVideoWithoutMp3(videos, taken);
    if (!target) {
      dispatch(notice(DISCOVERY_MESSAGES.allHaveMp3));
      return;
    }
    void dispatch(attachMp3ToVideo(target, file));
  }

  return {
    dragging,
    end,
    onDrop,
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      if (!dragging) setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
  };
}

/** Select all, and where MP3s can be dropped. */
function SelectAllBar({ checkboxRef, checked, onChange }: { checkboxRef: Ref<HTMLInputElement>; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <div className="results-toolbar">
      <label className="check">
        <input ref={checkboxRef} type="checkbox" checked={checked} aria-label="Select all videos" onChange={(event) => onChange(event.target.checked)} />
        Select all
      </label>
      <span className="muted drop-hint">
        <CloudUpload size={16} aria-hidden="true" /> Drop an MP3 on this card for the first video without one, or on a
        row.
      </span>
    </div>
  );
}

interface VideoTableProps {
  videos: DiscoveryVideo[];
  selected: ReadonlySet<string>;
  hasMp3: (video: DiscoveryVideo) => boolean;
  statusKnown: boolean;
  uploads: Record<string, RowUpload>;
  rowsShown: number;
  onShowMore: () => void;
  /** A drop on a row ends the card's drag highlight too. */
  onCardDragEnd: () => void;
}

/** The first ROWS_PER_VIEW videos, then "Show more" for the next ones. */
function VideoTable({ videos, selected, hasMp3, statusKnown, uploads, rowsShown, onShowMore, onCardDragEnd }: VideoTableProps) {
  const dispatch = useAppDispatch();
  const [rowDragging, setRowDragging] = useState<string | null>(null);

  // Stable, so a memoised row re-renders only when its own video, status or selection changes.
  const attachTo = useCallback(
    (video: DiscoveryVideo, files: FileList | null | undefined) => {
      onCardDragEnd();
      if (!files || files.length === 0) return;
      const file = firstDroppedMp3(files);
      if (!file) {
        dispatch(notice(DISCOVERY_MESSAGES.dropMp3));
        return;
      }
      void dispatch(attachMp3ToVideo(video, file));
    },
    [dispatch, onCardDragEnd],
  );
  const toggle = useCallback((videoId: string) => dispatch(videoSelectionToggled(videoId)), [dispatch]);

  return (
    <>
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
                statusKnown={statusKnown}
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
          <button type="button" className="btn btn-outline" onClick={onShowMore}>
            Show more videos ({formatCount(videos.length - rowsShown)} more)
          </button>
        </div>
      )}
    </>
  );
}
