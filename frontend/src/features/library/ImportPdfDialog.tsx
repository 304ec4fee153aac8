import { AlertTriangle, FileUp, Library, LoaderCircle, Wand2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useGetConvertTemplatesQuery, type ConvertTemplate } from '@/api/convertTemplatesApi';
import { DropZone } from '@/components/DropZone';
import { FormDialog } from '@/components/FormDialog';
import { MarkdownPreviewDialog } from '@/components/MarkdownPreviewDialog';
import { ImportPdfList } from './ImportPdfList';
import { PDF_IMPORT_ERRORS } from './pdfImport';
import { usePdfConversion, usePdfImportItems, useSaveConvertedPdfs } from './usePdfImport';

/**
 * The Vault's Import PDF dialog: PDFs dropped or picked (anything else is refused here, with the
 * names), each uploaded to `POST /api/convert/pdf` with its own progress, status and the server's
 * message; pages without a text layer are named; each result can be previewed; Save to Vault keeps
 * the converted ones (as PDF items, their original kept beside them by the server).
 */
export function ImportPdfDialog({ onClose }: { onClose: () => void }) {
  const templateFieldId = useId();
  const { items, refused, addFiles, update, remove, markSaved } = usePdfImportItems();
  const [templateId, setTemplateId] = useState('');
  const [previewId, setPreviewId] = useState<string | null>(null);
  const { data: templates = [] } = useGetConvertTemplatesQuery();
  const { running, convertAll } = usePdfConversion(update);
  const { saving, save } = useSaveConvertedPdfs(markSaved);
  const pending = items.filter((item) => item.status === 'pending' || item.status === 'error');
  const unsaved = items.filter((item) => item.status === 'completed' && !item.saved && item.result);
  const previewed = items.find((item) => item.id === previewId)?.result ?? null;
  const busy = running || saving;
  const convert = () => convertAll(pending, templates.find((candidate) => candidate.id === templateId)?.body ?? '');

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
        <PdfDropZone disabled={busy} onFiles={addFiles} />
        {refused.length > 0 && <RefusedFilesAlert names={refused} />}
        <TemplateSelect id={templateFieldId} templates={templates} value={templateId} disabled={busy} onChange={setTemplateId} />
        {items.length > 0 && <ImportPdfList items={items} busy={busy} onPreview={setPreviewId} onRemove={remove} />}
      </div>

      <ImportPdfActions
        busy={busy}
        saving={saving}
        running={running}
        unsavedCount={unsaved.length}
        pendingCount={pending.length}
        onSave={() => void save(unsaved)}
        onConvert={() => void convert()}
      />

      {previewed && (
        <MarkdownPreviewDialog title={previewed.title} subtitle={previewed.markdownPath} content={previewed.content} onClose={() => setPreviewId(null)} />
      )}
    </FormDialog>
  );
}

function PdfDropZone({ disabled, onFiles }: { disabled: boolean; onFiles: (list: FileList | null) => void }) {
  return (
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
      onFiles={onFiles}
      disabled={disabled}
      compact
      testId="pdf-dropzone"
    />
  );
}

/** The files of the last pick or drop that were not PDFs, by name. */
function RefusedFilesAlert({ names }: { names: string[] }) {
  return (
    <p className="alert alert-error" role="alert">
      <AlertTriangle size={16} aria-hidden="true" />
      <span>
        {PDF_IMPORT_ERRORS.notPdf}. Not added: {names.join(', ')}
      </span>
    </p>
  );
}

/** The conversion template: the server's default layout or one of the saved templates. */
function TemplateSelect({
  id,
  templates,
  value,
  disabled,
  onChange,
}: {
  id: string;
  templates: ConvertTemplate[];
  value: string;
  disabled: boolean;
  onChange: (templateId: string) => void;
}) {
  return (
    <div className="field field-inline">
      <label htmlFor={id}>Template</label>
      <select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)}>
        <option value="">Default layout</option>
        {templates.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Save to Vault (with the count of converted, unsaved PDFs) and Convert (with the count pending). */
function ImportPdfActions({
  busy,
  saving,
  running,
  unsavedCount,
  pendingCount,
  onSave,
  onConvert,
}: {
  busy: boolean;
  saving: boolean;
  running: boolean;
  unsavedCount: number;
  pendingCount: number;
  onSave: () => void;
  onConvert: () => void;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn btn-outline" disabled={busy} onClick={onSave}>
        {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Library size={16} aria-hidden="true" />}
        Save to Vault{unsavedCount > 0 ? ` (${unsavedCount})` : ''}
      </button>
      <button type="button" className="btn btn-primary" disabled={busy || pendingCount === 0} onClick={onConvert}>
        {running ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Wand2 size={16} aria-hidden="true" />}
        {running ? 'Converting...' : `Convert (${pendingCount})`}
      </button>
    </div>
  );
}
