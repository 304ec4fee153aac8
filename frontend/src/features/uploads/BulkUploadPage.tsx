import { AlertCircle, X } from 'lucide-react';
import type { Mp3Status } from '@/api/mp3Api';
import { DropZone } from '@/components/DropZone';
import { PageHeader } from '@/components/PageHeader';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge } from '@/components/StatusBadge';
import { formatDuration } from '@/lib/format';
import { MAX_FILES_PER_SELECTION, overallProgress, type SelectedVideo, type UploadItem, type UploadStatus } from './uploadItems';
import { UploadFilesCard } from './UploadFilesCard';
import { useBulkUpload, useCreateTranscriptsHandoff, useSelectedVideos } from './useBulkUpload';

export default function BulkUploadPage() {
  const { items, update, message, setMessage, isUploading, addFiles, attachToVideo, uploadAll } = useBulkUpload();
  const { selectedVideos, selectedStatuses } = useSelectedVideos();
  const createTranscripts = useCreateTranscriptsHandoff(items);

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
      {message && <UploadMessage message={message} onDismiss={() => setMessage(null)} />}
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
      <UploadFilesCard
        items={items}
        isUploading={isUploading}
        onClearAll={() => update({ type: 'clearedAll' })}
        onUploadAll={() => void uploadAll()}
        onRemove={(id) => update({ type: 'removed', id })}
        onCreateTranscripts={createTranscripts}
      />
    </div>
  );
}

/** The screen's one message line (a refused selection, nothing to upload), until dismissed or replaced. */
function UploadMessage({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      <AlertCircle size={18} aria-hidden="true" />
      <span>{message}</span>
      <button type="button" className="icon-button alert-close" aria-label="Dismiss message" onClick={onDismiss}>
        <X size={16} aria-hidden="true" />
      </button>
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
