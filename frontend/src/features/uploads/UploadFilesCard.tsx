import { CheckCircle2, FileAudio, LoaderCircle, Trash2, UploadCloud, Wand2 } from 'lucide-react';
import { FileStatusCells } from '@/components/FileStatusCells';
import { FileTableHead } from '@/components/FileTableHead';
import type { BadgeTone } from '@/components/StatusBadge';
import { formatFileSize } from '@/lib/format';
import type { UploadItem, UploadStatus } from './uploadItems';

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

/** The Files card of Bulk Upload: Clear All and Upload All, the files (or a line saying there are none), Create Transcripts. */
export function UploadFilesCard({
  items,
  isUploading,
  onClearAll,
  onUploadAll,
  onRemove,
  onCreateTranscripts,
}: {
  items: UploadItem[];
  isUploading: boolean;
  onClearAll: () => void;
  onUploadAll: () => void;
  onRemove: (id: string) => void;
  onCreateTranscripts: () => void;
}) {
  const completedCount = items.filter((item) => item.status === 'completed').length;
  const pendingCount = items.filter((item) => item.status === 'pending').length;
  return (
    <section className="card" aria-labelledby="files-heading">
      <div className="card-header">
        <h2 id="files-heading" className="card-title">
          Files <span className="count">{items.length}</span>
        </h2>
        <div className="button-row">
          <button type="button" className="btn btn-outline" disabled={isUploading || items.length === 0} onClick={onClearAll}>
            <Trash2 size={16} aria-hidden="true" /> Clear All
          </button>
          <button type="button" className="btn btn-primary" disabled={isUploading} onClick={onUploadAll}>
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
        <UploadTable items={items} onRemove={onRemove} />
      )}
      <div className="card-footer">
        <button type="button" className="btn btn-primary" disabled={isUploading || completedCount === 0} onClick={onCreateTranscripts}>
          <Wand2 size={16} aria-hidden="true" /> Create Transcripts from MP3s
        </button>
      </div>
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
