import { AlertTriangle, Download, Eye, FileText, Library, LoaderCircle, Wand2 } from 'lucide-react';
import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { Navigate } from 'react-router';
import { TEMPLATE_BODY_MAX_BYTES } from '@/api/convertTemplatesApi';
import { errorMessage } from '@/api/errors';
import { MAX_FILES_PER_VAULT_SAVE, useSaveToVaultMutation } from '@/api/vaultSaveApi';
import { useAppDispatch } from '@/app/hooks';
import { FileStatusCells } from '@/components/FileStatusCells';
import { FileTableHead } from '@/components/FileTableHead';
import { MarkdownPreviewDialog } from '@/components/MarkdownPreviewDialog';
import { PageHeader } from '@/components/PageHeader';
import type { BadgeTone } from '@/components/StatusBadge';
import { paths } from '@/config/paths';
import { saveTextFile } from '@/lib/download';
import { errorToast, showToast, useErrorToast } from '@/lib/toast';
import { CONVERSION_ERRORS, CONVERT_BATCH_SIZE, useConvertTranscriptsMutation } from './conversionApi';
import {
  applyBatchAnswer,
  chunk,
  markConverting,
  markdownFileName,
  markFailed,
  markSaved,
  readHandedOverTranscripts,
  rowsToConvert,
  settleConverting,
  type ConversionItem,
  type ConversionStatus,
} from './conversionItems';
import { TemplateEditor } from './TemplateEditor';

export const NO_TRANSCRIPTS_MESSAGE = 'No transcripts available for conversion';
export const NOTHING_TO_SAVE_MESSAGE = 'No converted files to save';

const STATUS_LABEL: Record<ConversionStatus, string> = {
  pending: 'Pending',
  converting: 'Converting',
  completed: 'Completed',
  error: 'Error',
};
const STATUS_TONE: Record<ConversionStatus, BadgeTone> = {
  pending: 'neutral',
  converting: 'info',
  completed: 'success',
  error: 'danger',
};

/**
 * /convert-pdf, 'PDF to Markdown' (docs/product-spec.md §2): the completed transcripts handed over in session
 * storage (`transcripts`) become markdown with an optional template, can be previewed and
 * downloaded one by one, and saved to the Vault. Without any, the user goes back to /transcripts.
 */
export default function ConvertPage() {
  const [items] = useState(readHandedOverTranscripts);
  if (items.length === 0) return <NoTranscripts />;
  return <ConvertScreen initialItems={items} />;
}

/** Says why, once (StrictMode runs effects twice), and sends the user to /transcripts. */
function NoTranscripts() {
  const dispatch = useAppDispatch();
  const toasted = useRef(false);
  useEffect(() => {
    if (toasted.current) return;
    toasted.current = true;
    dispatch(showToast({ title: NO_TRANSCRIPTS_MESSAGE, description: 'Finish some transcripts first, then convert them.', variant: 'warning' }));
  }, [dispatch]);
  return <Navigate to={paths.transcripts} replace />;
}

function ConvertScreen({ initialItems }: { initialItems: ConversionItem[] }) {
  const [items, setItems] = useState(initialItems);
  const [template, setTemplate] = useState('');
  const [previewId, setPreviewId] = useState<string | null>(null);
  const { converting, unknownPlaceholders, convert } = useConvertRun(setItems);
  const { saving, save } = useSaveConvertedToVault(setItems);
  const toConvert = rowsToConvert(items);
  const completed = items.filter((item) => item.status === 'completed');
  const failedCount = items.filter((item) => item.status === 'error').length;
  // The server refuses a template over 64 KB; the editor says so, and Convert waits.
  const templateTooLong = new TextEncoder().encode(template).length > TEMPLATE_BODY_MAX_BYTES;
  const previewed = items.find((item) => item.id === previewId && item.markdownContent !== null) ?? null;

  return (
    <div className="page convert-page">
      <PageHeader title="PDF to Markdown" description="Turn finished transcripts into markdown, check them, and keep them in your Vault." />

      <TemplateEditor template={template} onChange={setTemplate} />

      {unknownPlaceholders.length > 0 && <UnknownPlaceholdersNotice names={unknownPlaceholders} />}

      <section className="card" aria-labelledby="conversion-files-heading">
        <div className="card-header">
          <h2 id="conversion-files-heading" className="card-title">
            Files <span className="count">{items.length}</span>
          </h2>
          <p className="muted conversion-summary" aria-live="polite">
            {completed.length} converted{failedCount > 0 ? `, ${failedCount} failed` : ''}
          </p>
        </div>
        <div className="table-wrap">
          <table className="table conversion-table">
            <FileTableHead />
            <tbody>
              {items.map((item) => (
                <ConversionRow key={item.id} item={item} onPreview={() => setPreviewId(item.id)} />
              ))}
            </tbody>
          </table>
        </div>
        <div className="card-footer button-row wrap">
          <button type="button" className="btn btn-outline" disabled={saving || converting} onClick={() => void save(completed)}>
            {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Library size={16} aria-hidden="true" />}
            Save to Vault
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={converting || toConvert.length === 0 || templateTooLong}
            onClick={() => void convert(toConvert, template)}
          >
            {converting ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Wand2 size={16} aria-hidden="true" />}
            {converting ? 'Converting...' : completed.length === items.length ? 'Convert all again' : `Convert (${toConvert.length})`}
          </button>
        </div>
      </section>

      {previewed && (
        <MarkdownPreviewDialog
          title={previewed.title}
          subtitle={previewed.markdownPath ?? undefined}
          content={previewed.markdownContent ?? ''}
          actions={<DownloadButton item={previewed} />}
          onClose={() => setPreviewId(null)}
        />
      )}
    </div>
  );
}

type SetItems = Dispatch<SetStateAction<ConversionItem[]>>;

/**
 * Converts rows in batches of CONVERT_BATCH_SIZE, moving each row through its states, and keeps the
 * placeholders the server did not know in the template.
 */
function useConvertRun(setItems: SetItems) {
  const dispatch = useAppDispatch();
  const [convertTranscripts] = useConvertTranscriptsMutation();
  const [converting, setConverting] = useState(false);
  const [unknownPlaceholders, setUnknownPlaceholders] = useState<string[]>([]);

  async function convert(targets: ConversionItem[], template: string) {
    if (targets.length === 0 || converting) return;
    setConverting(true);
    setUnknownPlaceholders([]);
    const body = template.trim() ? template : undefined;
    const unknown = new Set<string>();
    let convertedCount = 0;
    let failedRows = 0;
    try {
      for (const batch of chunk(targets, CONVERT_BATCH_SIZE)) {
        const ids = new Set(batch.map((item) => item.id));
        setItems((current) => markConverting(current, ids));
        try {
          const answer = await convertTranscripts({
            transcripts: batch.map(({ id, title, transcriptPath }) => ({ id, title, transcriptPath })),
            template: body,
          }).unwrap();
          setItems((current) => applyBatchAnswer(current, ids, answer));
          answer.unknownPlaceholders.forEach((name) => unknown.add(name));
          convertedCount += answer.results.filter((result) => ids.has(result.id)).length;
          failedRows += batch.length - answer.results.filter((result) => ids.has(result.id)).length;
        } catch (failure) {
          // The call itself failed (the server is down, the template is refused): the rows of this
          // batch show why, the ones not sent yet stay pending, and the run stops.
          const message = errorMessage(failure, CONVERSION_ERRORS.convert);
          setItems((current) => settleConverting(markFailed(current, ids, message)));
          dispatch(errorToast(message));
          return;
        }
      }
      dispatch(
        showToast(
          failedRows === 0
            ? { title: 'Conversion finished', description: `${convertedCount} of ${targets.length} converted.`, variant: 'success' }
            : { title: 'Conversion finished with errors', description: `${convertedCount} converted, ${failedRows} failed.`, variant: 'warning' },
        ),
      );
    } finally {
      setUnknownPlaceholders([...unknown]);
      setConverting(false);
    }
  }

  return { converting, unknownPlaceholders, convert };
}

/** Saves the converted rows not saved yet, in batches the server takes, and marks them saved. */
function useSaveConvertedToVault(setItems: SetItems) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [saveToVault, { isLoading: saving }] = useSaveToVaultMutation();

  async function save(completed: ConversionItem[]) {
    if (completed.length === 0) {
      dispatch(showToast({ title: NOTHING_TO_SAVE_MESSAGE, variant: 'warning' }));
      return;
    }
    const unsaved = completed.filter((item) => !item.savedToVault);
    if (unsaved.length === 0) {
      dispatch(showToast({ title: 'Already in the Vault', description: 'Every converted file has been saved.', link: { label: 'Open the Vault', to: paths.vault } }));
      return;
    }
    try {
      for (const batch of chunk(unsaved, MAX_FILES_PER_VAULT_SAVE)) {
        await saveToVault(
          batch.map((item) => ({ title: item.title, content: item.markdownContent ?? '', path: item.markdownPath ?? '' })),
        ).unwrap();
        const ids = new Set(batch.map((item) => item.id));
        setItems((current) => markSaved(current, ids));
      }
      dispatch(
        showToast({
          title: 'Saved to Vault',
          description: `${unsaved.length} ${unsaved.length === 1 ? 'file was' : 'files were'} added to your Vault.`,
          variant: 'success',
          link: { label: 'Open the Vault', to: paths.vault },
        }),
      );
    } catch (failure) {
      showError(failure, CONVERSION_ERRORS.save);
    }
  }

  return { saving, save };
}

function UnknownPlaceholdersNotice({ names }: { names: string[] }) {
  return (
    <p className="alert alert-warning" role="status">
      <AlertTriangle size={16} aria-hidden="true" />
      <span>
        The template has placeholders the server does not know; they were kept as written:{' '}
        {names.map((name) => `{{${name}}}`).join(', ')}
      </span>
    </p>
  );
}

function ConversionRow({ item, onPreview }: { item: ConversionItem; onPreview: () => void }) {
  const done = item.status === 'completed' && item.markdownContent !== null;
  return (
    <tr data-testid="conversion-row" data-status={item.status}>
      <td className="cell-title" data-label="Title">
        <span className="file-title">
          <FileText size={14} aria-hidden="true" /> {item.title}
        </span>
        {item.errorMessage && <span className="row-error">{item.errorMessage}</span>}
        {item.savedToVault && <span className="row-meta">Saved to the Vault</span>}
      </td>
      <FileStatusCells
        status={STATUS_LABEL[item.status]}
        tone={STATUS_TONE[item.status]}
        progress={item.progress}
        progressLabel={`Conversion progress of ${item.title}`}
      />
      <td className="cell-actions">
        <div className="row-actions">
          <button type="button" className="btn btn-sm btn-outline" disabled={!done} aria-label={`Preview ${item.title}`} onClick={onPreview}>
            <Eye size={14} aria-hidden="true" /> Preview
          </button>
          <DownloadButton item={item} />
        </div>
      </td>
    </tr>
  );
}

/** Saves the row's markdown as `<title>.md`; only once it is converted. */
function DownloadButton({ item }: { item: ConversionItem }) {
  const content = item.status === 'completed' ? item.markdownContent : null;
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline"
      disabled={content === null}
      aria-label={`Download ${item.title} as markdown`}
      onClick={() => content !== null && saveTextFile(markdownFileName(item.title), content, 'text/markdown;charset=utf-8')}
    >
      <Download size={14} aria-hidden="true" /> Download
    </button>
  );
}
