import { useRef, useState } from 'react';
import { MAX_FILES_PER_VAULT_SAVE, useSaveToVaultMutation } from '@/api/vaultSaveApi';
import { useAppDispatch } from '@/app/hooks';
import { showToast, useErrorToast } from '@/lib/toast';
import { isPdfFile, uploadPdf, type PdfConversion } from './pdfImport';

/** The client state of the Import PDF dialog (ImportPdfDialog.tsx): Files stay out of Redux. */
export type ImportStatus = 'pending' | 'uploading' | 'converting' | 'completed' | 'error';

export interface ImportItem {
  id: string;
  file: File;
  status: ImportStatus;
  /** Upload progress; the server converts once the upload is complete ('converting'). */
  progress: number;
  result: PdfConversion | null;
  message: string | null;
  saved: boolean;
}

const SAVE_ERROR = 'Failed to save to vault';

/** The dialog's PDFs: added (anything else is refused, with the names), changed, removed, saved. */
export function usePdfImportItems() {
  const [items, setItems] = useState<ImportItem[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const nextId = useRef(0);

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

  const remove = (id: string) => setItems((current) => current.filter((candidate) => candidate.id !== id));

  const markSaved = (savedIds: Set<string>) =>
    setItems((current) => current.map((item) => (savedIds.has(item.id) ? { ...item, saved: true } : item)));

  return { items, refused, addFiles, update, remove, markSaved };
}

/**
 * Converts the pending (and failed) PDFs, one at a time: a parser run is heavy, and the rows
 * finish in order. Ends with a toast saying how many were converted.
 */
export function usePdfConversion(update: (id: string, change: Partial<ImportItem>) => void) {
  const dispatch = useAppDispatch();
  const [running, setRunning] = useState(false);

  async function convertAll(pending: ImportItem[], template: string) {
    if (running || pending.length === 0) return;
    setRunning(true);
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

  return { running, convertAll };
}

/** Save to Vault: the converted, unsaved PDFs, in batches the server accepts, each marked saved. */
export function useSaveConvertedPdfs(markSaved: (savedIds: Set<string>) => void) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [saveToVault, { isLoading: saving }] = useSaveToVaultMutation();

  async function save(unsaved: ImportItem[]) {
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
        markSaved(new Set(batch.map((item) => item.id)));
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

  return { saving, save };
}
