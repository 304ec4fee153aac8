import { AlertCircle, CheckCircle2, FileAudio, LoaderCircle, Trash2, UploadCloud, Wand2, X } from 'lucide-react';
import { useCallback, useReducer, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useNavigate } from 'react-router';
import { baseApi } from '@/api/baseApi';
import { useGetMp3StatusForVideosQuery, type Mp3Status } from '@/api/mp3Api';
import { uploadMp3 } from '@/api/mp3Upload';
import { useAppDispatch } from '@/app/hooks';
import { DropZone } from '@/components/DropZone';
import { FileStatusCells } from '@/components/FileStatusCells';
import { FileTableHead } from '@/components/FileTableHead';
import { PageHeader } from '@/components/PageHeader';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge, type BadgeTone } from '@/components/StatusBadge';
import { paths } from '@/config/paths';
import { formatDuration, formatFileSize } from '@/lib/format';
import { HANDOFF_KEYS, readJson, writeJson } from '@/lib/storage';
import { errorToast, showToast } from '@/lib/toast';
import {
  MAX_FILES_PER_SELECTION,
  MESSAGES,
  UPLOAD_BATCH_SIZE,
  inBatches,
  isMp3,
  newUploadItem,
  overallProgress,
  parseSelectedVideos,
  uploadItemsReducer,
  type SelectedVideo,
  type UploadItem,
  type UploadStatus,
} from './uploadItems';

const STATUS_LABEL: Record<UploadStatus, string> = {
  pending: 'Pending',
  uploading: 'Uploading',
  completed: 'Completed',
  error: 'Error',
};
const STATUS_TONE: Record<UploadStatus, BadgeTone> = {
  pending: 'neutral',
  uploading: 'info',
  completed: 'success',
  error: 'danger',
};

export default function BulkUploadPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [items, update] = useReducer(uploadItemsReducer, []);
  const [message, setMessage] = useState<string | null>(null);
  const [isUploading, setIsUploading] = useState(false);
  const [selectedVideos] = useState(() => parseSelectedVideos(readJson('session', HANDOFF_KEYS.selectedVideos)));
  const selectedIds = selectedVideos.map((video) => video.youtubeVideoId);
  const { data: selectedStatuses } = useGetMp3StatusForVideosQuery(selectedIds.length > 0 ? selectedIds : skipToken);

  const addFiles = useCallback((list: FileList | File[] | null) => {
    const files = list ? Array.from(list) : [];
    if (files.length === 0) return;
    if (files.length > MAX_FILES_PER_SELECTION) {
      setMessage(MESSAGES.tooMany);
      return;
    }
    const mp3s = files.filter(isMp3);
    setMessage(mp3s.length < files.length ? MESSAGES.mp3Only : null);
    if (mp3s.length > 0) update({ type: 'added', items: mp3s.map((file) => newUploadItem(file)) });
  }, []);

  function attachToVideo(video: SelectedVideo, file: File | undefined) {
    if (!file) return;
    if (!isMp3(file)) {
      setMessage(MESSAGES.mp3Only);
      return;
    }
    setMessage(null);
    update({ type: 'added', items: [newUploadItem(file, video)] });
  }

  async function uploadAll() {
    const pending = items.filter((item) => item.status === 'pending');
    if (pending.length === 0) {
      setMessage(MESSAGES.nothingToUpload);
      return;
    }
    setMessage(null);
    setIsUploading(true);
    let failed = 0;
    try {
      for (const batch of inBatches(pending, UPLOAD_BATCH_SIZE)) {
        await Promise.all(
          batch.map(async (item) => {
            update({ type: 'started', id: item.id });
            const outcome = await uploadMp3({
              file: item.file,
              title: item.title,
              video: item.video,
              dispatch,
              onProgress: (progress) => update({ type: 'progressed', id: item.id, progress }),
            });
            if (outcome.ok) update({ type: 'succeeded', id: item.id, mp3Path: outcome.data.mp3Path });
            else {
              failed += 1;
              update({ type: 'failed', id: item.id, message: outcome.message });
            }
          }),
        );
      }
      const uploaded = pending.length - failed;
      // The MP3 status of the videos (Find Videos) and the manual uploads (Create Transcripts) changed.
      if (uploaded > 0) dispatch(baseApi.util.invalidateTags(['Mp3Status', 'ManualUploads']));
      if (failed === 0) {
        dispatch(
          showToast({
            title: 'Upload complete',
            description: `${uploaded} file${uploaded === 1 ? '' : 's'} uploaded.`,
            variant: 'success',
          }),
        );
      } else {
        dispatch(
          showToast({
            title: MESSAGES.overallFailed,
            description: `${failed} of ${pending.length} file${pending.length === 1 ? '' : 's'} could not be uploaded.`,
            variant: 'destructive',
          }),
        );
      }
    } catch {
      dispatch(errorToast(MESSAGES.overallFailed));
    } finally {
      setIsUploading(false);
    }
  }

  function createTranscripts() {
    const uploaded = items.filter((item) => item.status === 'completed' && item.mp3Path);
    writeJson(
      'session',
      HANDOFF_KEYS.mp3Files,
      uploaded.map((item) => ({
        id: item.id,
        title: item.title,
        mp3Path: item.mp3Path,
        size: item.size,
        youtubeVideoId: item.video?.youtubeVideoId ?? null,
      })),
    );
    void navigate(paths.transcripts);
  }

  const completedCount = items.filter((item) => item.status === 'completed').length;
  const pendingCount = items.filter((item) => item.status === 'pending').length;

  return (
    <div className="page">
      <PageHeader
        title="Bulk Upload MP3 Files"
        description={`Upload up to ${MAX_FILES_PER_SELECTION} MP3 files at once, then turn them into transcripts.`}
      />
      <DropZone
        label="MP3 drop zone"
        title="Drag and drop MP3 files here"
        hint={`MP3 only, up to ${MAX_FILES_PER_SELECTION} files per selection.`}
        accept=".mp3,audio/mpeg"
        chooseLabel="Choose MP3 files"
        onFiles={addFiles}
        disabled={isUploading}
      />
      {message && (
        <div className="alert alert-error" role="alert">
          <AlertCircle size={18} aria-hidden="true" />
          <span>{message}</span>
          <button type="button" className="icon-button alert-close" aria-label="Dismiss message" onClick={() => setMessage(null)}>
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      )}
      {selectedVideos.length > 0 && (
        <SelectedVideosCard
          videos={selectedVideos}
          items={items}
          statuses={selectedStatuses}
          disabled={isUploading}
          onAttach={attachToVideo}
        />
      )}
      {items.length > 0 && <UploadProgressCard items={items} />}
      <section className="card" aria-labelledby="files-heading">
        <div className="card-header">
          <h2 id="files-heading" className="card-title">
            Files <span className="count">{items.length}</span>
          </h2>
          <div className="button-row">
            <button
              type="button"
              className="btn btn-outline"
              disabled={isUploading || items.length === 0}
              onClick={() => update({ type: 'clearedAll' })}
            >
              <Trash2 size={16} aria-hidden="true" /> Clear All
            </button>
            <button type="button" className="btn btn-primary" disabled={isUploading} onClick={() => void uploadAll()}>
              {isUploading ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <UploadCloud size={16} aria-hidden="true" />}
              {isUploading ? 'Uploading...' : `Upload All${pendingCount ? ` (${pendingCount})` : ''}`}
            </button>
          </div>
        </div>
        {items.length === 0 ? (
          <div className="empty-state compact">
            <FileAudio size={28} aria-hidden="true" className="muted" />
            <p className="muted">No files selected yet. Drop MP3 files above or choose them from your computer.</p>
          </div>
        ) : (
          <UploadTable items={items} onRemove={(id) => update({ type: 'removed', id })} />
        )}
        <div className="card-footer">
          <button
            type="button"
            className="btn btn-primary"
            disabled={isUploading || completedCount === 0}
            onClick={createTranscripts}
          >
            <Wand2 size={16} aria-hidden="true" /> Create Transcripts from MP3s
          </button>
        </div>
      </section>
    </div>
  );
}

function SelectedVideosCard({
  videos,
  items,
  statuses,
  disabled,
  onAttach,
}: {
  videos: SelectedVideo[];
  items: UploadItem[];
  statuses: Record<string, Mp3Status> | undefined;
  disabled: boolean;
  onAttach: (video: SelectedVideo, file: File | undefined) => void;
}) {
  const itemFor = (video: SelectedVideo) => items.find((item) => item.video?.youtubeVideoId === video.youtubeVideoId);
  return (
    <section className="card" aria-labelledby="selected-videos-heading">
      <div className="card-header">
        <h2 id="selected-videos-heading" className="card-title">
          Selected videos <span className="count">{videos.length}</span>
        </h2>
        <span className="muted">Attach the MP3 of each video you chose on Find Videos.</span>
      </div>
      <ul className="history-list">
        {videos.map((video) => {
          const item = itemFor(video);
          const uploaded = item?.status === 'completed' || (!item && statuses?.[video.youtubeVideoId]?.hasMp3);
          return (
            <li key={video.youtubeVideoId} className="history-item" data-testid="selected-video">
              <span>
                <span className="file-title">{video.title}</span>
                <span className="row-meta">
                  {[video.channelTitle, video.duration ? formatDuration(video.duration) : null].filter(Boolean).join(' · ')}
                </span>
              </span>
              {uploaded ? (
                <StatusBadge tone="success">MP3 uploaded</StatusBadge>
              ) : item ? (
                <StatusBadge tone="info">MP3 attached</StatusBadge>
              ) : (
                <label className={`btn btn-sm btn-outline${disabled ? ' disabled' : ''}`}>
                  Attach MP3
                  <input
                    className="visually-hidden"
                    type="file"
                    accept=".mp3,audio/mpeg"
                    disabled={disabled}
                    aria-label={`Attach MP3 to ${video.title}`}
                    onChange={(event) => {
                      onAttach(video, event.target.files?.[0]);
                      event.target.value = '';
                    }}
                  />
                </label>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function UploadProgressCard({ items }: { items: UploadItem[] }) {
  const count = (status: UploadStatus) => items.filter((item) => item.status === status).length;
  const completed = count('completed');
  const failed = count('error');
  const overall = overallProgress(items);
  return (
    <section className="card progress-card" aria-labelledby="upload-progress-heading">
      <div className="card-header">
        <h2 id="upload-progress-heading" className="card-title">
          Upload progress
        </h2>
        <span className="muted">
          {completed} of {items.length} uploaded
        </span>
      </div>
      <ProgressBar value={overall} label="Overall upload progress" tone={failed ? 'danger' : 'primary'} showValue />
      <dl className="stat-row">
        <div>
          <dt>Pending</dt>
          <dd>{count('pending')}</dd>
        </div>
        <div>
          <dt>Uploading</dt>
          <dd>{count('uploading')}</dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd className="text-success">{completed}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd className="text-danger">{failed}</dd>
        </div>
      </dl>
    </section>
  );
}

function UploadTable({ items, onRemove }: { items: UploadItem[]; onRemove: (id: string) => void }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <FileTableHead extraColumns={['Size']} />
        <tbody>
          {items.map((item) => (
            <tr key={item.id} data-testid="upload-row">
              <td className="cell-title" data-label="Title">
                <span className="file-title">
                  {item.status === 'completed' ? (
                    <CheckCircle2 size={16} className="text-success" aria-hidden="true" />
                  ) : (
                    <FileAudio size={16} className="muted" aria-hidden="true" />
                  )}
                  {item.title}
                </span>
                {item.errorMessage && <span className="row-error">{item.errorMessage}</span>}
              </td>
              <td data-label="Size">{formatFileSize(item.size)}</td>
              <FileStatusCells
                status={STATUS_LABEL[item.status]}
                tone={STATUS_TONE[item.status]}
                progress={item.progress}
                progressLabel={`Upload progress of ${item.title}`}
              />
              <td className="cell-actions">
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove ${item.title}`}
                  disabled={item.status === 'uploading'}
                  onClick={() => onRemove(item.id)}
                >
                  <Trash2 size={16} aria-hidden="true" />
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
