import { AlertTriangle, Eye, Trash2 } from 'lucide-react';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge, type BadgeTone } from '@/components/StatusBadge';
import { formatFileSize } from '@/lib/format';
import { ocrNotice } from './pdfImport';
import type { ImportItem, ImportStatus } from './usePdfImport';

const STATUS_LABEL: Record<ImportStatus, string> = {
  pending: 'Pending',
  uploading: 'Uploading',
  converting: 'Converting',
  completed: 'Converted',
  error: 'Error',
};
const STATUS_TONE: Record<ImportStatus, BadgeTone> = {
  pending: 'neutral',
  uploading: 'info',
  converting: 'info',
  completed: 'success',
  error: 'danger',
};

/** The Import PDF dialog's list of PDFs, one row each. */
export function ImportPdfList({
  items,
  busy,
  onPreview,
  onRemove,
}: {
  items: ImportItem[];
  busy: boolean;
  onPreview: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  return (
    <ul className="import-list" aria-label="PDF files">
      {items.map((item) => (
        <ImportPdfRow key={item.id} item={item} busy={busy} onPreview={() => onPreview(item.id)} onRemove={() => onRemove(item.id)} />
      ))}
    </ul>
  );
}

/** One PDF: its name, size and status, the upload's progress, the server's message or result, Preview and Remove. */
function ImportPdfRow({ item, busy, onPreview, onRemove }: { item: ImportItem; busy: boolean; onPreview: () => void; onRemove: () => void }) {
  const inFlight = item.status === 'uploading' || item.status === 'converting';
  const name = item.file.name;
  return (
    <li className="import-row" data-testid="import-row" data-status={item.status}>
      <div className="import-row-head">
        <span className="file-title">{name}</span>
        <span className="muted import-row-size">{formatFileSize(item.file.size)}</span>
        <StatusBadge tone={STATUS_TONE[item.status]}>{item.saved ? 'Saved' : STATUS_LABEL[item.status]}</StatusBadge>
      </div>
      {(inFlight || item.status === 'completed') && (
        <ProgressBar value={item.progress} label={`Upload progress of ${name}`} tone={item.status === 'completed' ? 'success' : 'primary'} showValue />
      )}
      {item.message && <p className="row-error">{item.message}</p>}
      {item.result && (
        <p className="row-meta">
          {item.result.pages} {item.result.pages === 1 ? 'page' : 'pages'} · {item.result.title}
        </p>
      )}
      {item.result && item.result.ocrPages.length > 0 && (
        <p className="field-warning" data-testid="ocr-notice">
          <AlertTriangle size={14} aria-hidden="true" /> {ocrNotice(item.result.ocrPages)}
        </p>
      )}
      <div className="row-actions">
        <button type="button" className="btn btn-sm btn-outline" disabled={!item.result} aria-label={`Preview ${name}`} onClick={onPreview}>
          <Eye size={14} aria-hidden="true" /> Preview
        </button>
        <button type="button" className="icon-button" aria-label={`Remove ${name}`} disabled={busy || inFlight} onClick={onRemove}>
          <Trash2 size={16} aria-hidden="true" />
        </button>
      </div>
    </li>
  );
}
