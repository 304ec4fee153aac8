import { AlertTriangle, Eye, FileUp, Library, LoaderCircle, Trash2, Wand2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useGetConvertTemplatesQuery } from '@/api/convertTemplatesApi';
import { MAX_FILES_PER_VAULT_SAVE, useSaveToVaultMutation } from '@/api/vaultSaveApi';
import { useAppDispatch } from '@/app/hooks';
import { DropZone } from '@/components/DropZone';
import { FormDialog } from '@/components/FormDialog';
import { MarkdownPreviewDialog } from '@/components/MarkdownPreviewDialog';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge, type BadgeTone } from '@/components/StatusBadge';
import { formatFileSize } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import { isPdfFile, ocrNotice, PDF_IMPORT_ERRORS, uploadPdf, type PdfConversion } from './pdfImport';

type ImportStatus = 'pending' | 'uploading' | 'converting' | 'completed' | 'error';

interface ImportItem {
  id: string;
  file: File;
  status: ImportStatus;
  /** Upload progress; the server converts once the upload is complete ('converting'). */
  progress: number;
  result: PdfConversion | null;
  message: string | null;
  saved: boolean;
}

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

const SAVE_ERROR = 'Failed to save to vault';

/**
 * The Vault's Import PDF dialog: PDFs dropped or picked (anything else is refused here, with the
 * names), each uploaded to `POST /api/convert/pdf` with its own progress, status and the server's
 * message; pages without a text layer are named; each result can be previewed; Save to Vault keeps
 * the converted ones (as PDF items, their original kept beside them by the server).
 */
export function ImportPdfDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const templateFieldId = useId();
  const [items, setItems] = useState<ImportItem[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [templateId, setTemplateId] = useState('');
  const [running, setRunning] = useState(false);
  const [previewId, setPreviewId] = useState<string | null>(null);
  const { data: templates = [] } = useGetConvertTemplatesQuery();
  const [saveToVault, { isLoading: saving }] = useSaveToVaultMutation();
  const nextId = useRef(0);
  const pending = items.filter((item) => item.status === 'pending' || item.status === 'error');
  const unsaved = items.filter((item) => item.status === 'completed' && !item.saved && item.result);
  const previewed = items.find((item) => item.id === previewId)?.result ?? null;
  const busy = running || saving;

  const update = (id: string, change: Partial<ImportItem>) =>
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));

  function addFiles(list: FileList | null) {
    const files = Array.from(list ?? []);
    const pdfs = files.filter(isPdfFile);
    setRefused(files.filter((file) => !isPdfFile(file)).map((file) => file.name));
    if (pdfs.length === 0) return;
    setItems((current) => [
      ...current,
      ...pdfs.map((file) => {
        nextId.current += 1;
        return { id: `pdf-${nextId.current}`, file, status: 'pending' as const, progress: 0, result: null, message: null, saved: false };
      }),
    ]);
  }

  /** One PDF at a time: a parser run is heavy, and the rows finish in order. */
  async function convertAll() {
    if (running || pending.length === 0) return;
    setRunning(true);
    const template = templates.find((candidate) => candidate.id === templateId)?.body ?? '';
    let converted = 0;
    try {
      for (const item of pending) {
        update(item.id, { status: 'uploading', progress: 0, message: null, result: null });
        const outcome = await uploadPdf({
          file: item.file,
          template,
          dispatch,
          onProgress: (percent) => update(item.id, percent >= 100 ? { progress: 100, status: 'converting' } : { progress: percent }),
        });
        if (outcome.ok) {
          converted += 1;
          update(item.id, { status: 'completed', progress: 100, result: outcome.data });
        } else {
          update(item.id, { status: 'error', progress: 0, message: outcome.message });
        }
      }
    } finally {
      setRunning(false);
    }
    const failed = pending.length - converted;
    dispatch(
      showToast(
        failed === 0
          ? { title: 'PDFs converted', description: `${converted} of ${pending.length} converted.`, variant: 'success' }
          : { title: 'Some PDFs were not converted', description: `${converted} converted, ${failed} failed.`, variant: 'warning' },
      ),
    );
  }

  async function save() {
    if (unsaved.length === 0) {
      dispatch(showToast({ title: 'No converted files to save', variant: 'warning' }));
      return;
    }
    try {
      for (let start = 0; start < unsaved.length; start += MAX_FILES_PER_VAULT_SAVE) {
        const batch = unsaved.slice(start, start + MAX_FILES_PER_VAULT_SAVE);
        await saveToVault(
          batch.map((item) => ({ title: item.result?.title || item.file.name.replace(/\.pdf$/i, ''), content: item.result?.content ?? '', path: item.result?.markdownPath ?? '' })),
        ).unwrap();
        const savedIds = new Set(batch.map((item) => item.id));
        setItems((current) => current.map((item) => (savedIds.has(item.id) ? { ...item, saved: true } : item)));
      }
      dispatch(
        showToast({
          title: 'Saved to Vault',
          description: `${unsaved.length} ${unsaved.length === 1 ? 'PDF was' : 'PDFs were'} added to your Vault.`,
          variant: 'success',
        }),
      );
    } catch (failure) {
      showError(failure, SAVE_ERROR);
    }
  }

  return (
    <FormDialog
      size="lg"
      className="import-pdf-dialog"
      testId="import-pdf-dialog"
      title="Import PDF"
      description="Convert PDFs to markdown, check them, and save them to your Vault."
      busy={busy}
      onClose={onClose}
    >
      <div className="import-pdf-body">
        <DropZone
          label="PDF drop zone"
          title="Drop PDF files here"
          hint="PDF only (.pdf). Scanned pages can be read with Premium OCR after saving."
          accept=".pdf,application/pdf"
          chooseLabel={
            <>
              <FileUp size={16} aria-hidden="true" /> Choose PDFs
            </>
          }
          onFiles={addFiles}
          disabled={busy}
          compact
          testId="pdf-dropzone"
        />

        {refused.length > 0 && (
          <p className="alert alert-error" role="alert">
            <AlertTriangle size={16} aria-hidden="true" />
            <span>
              {PDF_IMPORT_ERRORS.notPdf}. Not added: {refused.join(', ')}
            </span>
          </p>
        )}

        <div className="field field-inline">
          <label htmlFor={templateFieldId}>Template</label>
          <select id={templateFieldId} value={templateId} disabled={busy} onChange={(event) => setTemplateId(event.target.value)}>
            <option value="">Default layout</option>
            {templates.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </select>
        </div>

        {items.length > 0 && (
          <ul className="import-list" aria-label="PDF files">
            {items.map((item) => (
              <ImportRow
                key={item.id}
                item={item}
                busy={busy}
                onPreview={() => setPreviewId(item.id)}
                onRemove={() => setItems((current) => current.filter((candidate) => candidate.id !== item.id))}
              />
            ))}
          </ul>
        )}
      </div>

      <div className="dialog-actions">
        <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void save()}>
          {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Library size={16} aria-hidden="true" />}
          Save to Vault{unsaved.length > 0 ? ` (${unsaved.length})` : ''}
        </button>
        <button type="button" className="btn btn-primary" disabled={busy || pending.length === 0} onClick={() => void convertAll()}>
          {running ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Wand2 size={16} aria-hidden="true" />}
          {running ? 'Converting...' : `Convert (${pending.length})`}
        </button>
      </div>

      {previewed && (
        <MarkdownPreviewDialog title={previewed.title} subtitle={previewed.markdownPath} content={previewed.content} onClose={() => setPreviewId(null)} />
      )}
    </FormDialog>
  );
}

function ImportRow({ item, busy, onPreview, onRemove }: { item: ImportItem; busy: boolean; onPreview: () => void; onRemove: () => void }) {
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
