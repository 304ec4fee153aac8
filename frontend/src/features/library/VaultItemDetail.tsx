import * as Dialog from '@radix-ui/react-dialog';
import { LoaderCircle, Pencil, ScanText, Star, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { DialogCloseButton, DialogShell } from '@/components/FormDialog';
import { startLinkDownload } from '@/lib/download';
import { formatDate, formatDuration } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  gwthLabel,
  sourceTypeLabel,
  useDeleteTranscriptMutation,
  useExportTranscriptMutation,
  useGetSyllabusSectionsQuery,
  useGetTranscriptContentQuery,
  useGetVaultItemQuery,
  useReprocessWithPremiumMutation,
  useUpdateContentMutation,
  useUpdateMetadataMutation,
  VAULT_ERRORS,
  type LibraryTranscript,
  type MetadataChanges,
} from './libraryApi';
import { MarkdownContent } from '@/components/MarkdownContent';
import { ExportFormatPicker, useExportFormat } from './ExportFormatPicker';
import { ItemPlayer, type PlayerControls } from './ItemPlayer';
import { useLanguageName } from './LanguageBadge';
import { MetadataForm } from './MetadataForm';
import { RatingAndTags } from './RatingAndTags';
import { NeedsReviewBadge, ReviewPanel } from './ReviewPanel';
import { TranscriptSourcePanel } from './TranscriptSourcePanel';

/** The detail view of one item (`/vault?item=<id>`, `&t=<seconds>` to play an AUDIO item from there), fetched by its id. */
export function VaultItemDetail({ itemId, startAt, onClose }: { itemId: string; startAt?: number | null; onClose: () => void }) {
  const { data: item, error, isLoading } = useGetVaultItemQuery(itemId);
  return (
    <DialogShell size="lg" className="vault-detail" testId="vault-detail" onClose={onClose}>
      {item ? (
        <DetailBody item={item} startAt={startAt} onDeleted={onClose} />
      ) : (
        <>
          <div className="dialog-header">
            <div>
              <Dialog.Title className="dialog-title">{isLoading ? 'Loading...' : 'Transcript unavailable'}</Dialog.Title>
              <Dialog.Description className={isLoading ? 'muted' : 'text-danger'} role={error ? 'alert' : undefined}>
                {error ? errorMessage(error, VAULT_ERRORS.fetch) : 'Fetching the transcript.'}
              </Dialog.Description>
            </div>
            <DialogCloseButton />
          </div>
        </>
      )}
    </DialogShell>
  );
}

function DetailBody({ item, startAt, onDeleted }: { item: LibraryTranscript; startAt?: number | null; onDeleted: () => void }) {
  const { save, saving } = useSaveMetadata(item.id);
  const [editingDetails, setEditingDetails] = useState(false);
  const player = useRef<PlayerControls>(null);
  const meta = [item.author, formatDate(item.createdAt), sourceTypeLabel(item.sourceType), item.duration ? formatDuration(item.duration) : null]
    .filter(Boolean)
    .join(' · ');

  return (
    <>
      <div className="dialog-header">
        <div className="vault-detail-heading">
          <Dialog.Title className="dialog-title">{item.title}</Dialog.Title>
          <Dialog.Description className="muted">{meta || 'Transcript'}</Dialog.Description>
          {item.needsReview && <NeedsReviewBadge />}
        </div>
        <div className="button-row">
          <button
            type="button"
            className={`icon-button${item.isStarred ? ' on' : ''}`}
            aria-label="Star"
            aria-pressed={item.isStarred}
            disabled={saving}
            onClick={() => void save({ isStarred: !item.isStarred })}
          >
            <Star size={18} className={item.isStarred ? 'star' : undefined} aria-hidden="true" />
          </button>
          <DialogCloseButton />
        </div>
      </div>

      <div className="vault-detail-body">
        <div className="vault-detail-actions">
          <ExportControl item={item} />
          <button type="button" className="btn btn-sm btn-outline" aria-expanded={editingDetails} onClick={() => setEditingDetails((open) => !open)}>
            <Pencil size={14} aria-hidden="true" /> Edit details
          </button>
          {item.sourceType === 'PDF' && <ReprocessWithOcrButton item={item} />}
          <DeleteButton item={item} onDeleted={onDeleted} />
        </div>

        {editingDetails ? (
          <MetadataForm item={item} saving={saving} onSave={save} onDone={() => setEditingDetails(false)} />
        ) : (
          <DetailMetaList item={item} />
        )}

        {item.sourceType === 'AUDIO' && <TranscriptSourcePanel item={item} />}
        {item.review && (
          <ReviewPanel
            itemId={item.id}
            review={item.review}
            onSeek={item.sourceType === 'AUDIO' ? (seconds) => player.current?.seek(seconds) : undefined}
          />
        )}
        {item.sourceType === 'AUDIO' && <ItemPlayer ref={player} itemId={item.id} title={item.title} startAt={startAt} />}
        <RatingAndTags item={item} saving={saving} onSave={save} />
        <ContentSection item={item} />
      </div>
    </>
  );
}

/** Saves an item's metadata; `save` answers false when the call failed (its message is toasted). */
function useSaveMetadata(itemId: string) {
  const failed = useErrorToast();
  const [updateMetadata, { isLoading: saving }] = useUpdateMetadataMutation();

  async function save(changes: MetadataChanges): Promise<boolean> {
    try {
      await updateMetadata({ id: itemId, changes }).unwrap();
      return true;
    } catch (failure) {
      failed(failure, VAULT_ERRORS.metadata);
      return false;
    }
  }

  return { save, saving };
}

/** The details 'Edit details' changes, as they are now. */
function DetailMetaList({ item }: { item: LibraryTranscript }) {
  const { data: sections = [] } = useGetSyllabusSectionsQuery();
  const section = sections.find((candidate) => candidate.id === item.sectionId);
  const language = useLanguageName(item.language);
  return (
    <dl className="vault-detail-meta">
      <div>
        <dt>Downloaded</dt>
        <dd>{item.lastExported ? formatDate(item.lastExported) : 'Not downloaded'}</dd>
      </div>
      <div>
        <dt>Growth level</dt>
        <dd>{gwthLabel(item.gwthLevel) ? `${item.gwthLevel} · ${gwthLabel(item.gwthLevel)}` : 'Not set'}</dd>
      </div>
      <div>
        <dt>Section</dt>
        <dd>{section?.title ?? 'None'}</dd>
      </div>
      <div>
        <dt>Author</dt>
        <dd>{item.author || 'Unknown'}</dd>
      </div>
      {item.sourceType === 'AUDIO' && (
        <div>
          <dt>Language</dt>
          <dd data-testid="detail-language">{language ?? 'Not known'}</dd>
        </div>
      )}
    </dl>
  );
}

function ExportControl({ item }: { item: LibraryTranscript }) {
  const dispatch = useAppDispatch();
  const failed = useErrorToast();
  const { formats, format, choose } = useExportFormat([item.sourceType]);
  const [exportTranscript, { isLoading }] = useExportTranscriptMutation();

  async function run() {
    try {
      const { downloadUrl, filename } = await exportTranscript({ id: item.id, format }).unwrap();
      startLinkDownload(downloadUrl, filename);
      dispatch(showToast({ title: 'Download started', description: filename, variant: 'success' }));
    } catch (failure) {
      failed(failure, VAULT_ERRORS.export);
    }
  }

  return (
    <div className="export-control">
      <ExportFormatPicker
        label="Export format"
        formats={formats}
        format={format}
        onChoose={choose}
        buttonLabel="Export"
        busy={isLoading}
        onExport={() => void run()}
      />
    </div>
  );
}

/** The pages as the notices say them: 'Page 3', 'Pages 3, 4'. */
export function pagesText(pages: number[]): string {
  return `${pages.length === 1 ? 'Page' : 'Pages'} ${pages.join(', ')}`;
}

/**
 * Premium mode for an item made from a PDF: the server reads the kept PDF again, with OCR on the
 * pages that have no text layer (scans), and the new content replaces what is shown.
 */
function ReprocessWithOcrButton({ item }: { item: LibraryTranscript }) {
  const dispatch = useAppDispatch();
  const failed = useErrorToast();
  const [reprocess, { isLoading }] = useReprocessWithPremiumMutation();

  async function run() {
    try {
      const result = await reprocess(item.id).unwrap();
      const remaining = Array.isArray(result?.ocrPages) ? result.ocrPages : [];
      dispatch(
        showToast(
          remaining.length === 0
            ? { title: 'Reprocessed with OCR', description: `${item.title}: every page has text now.`, variant: 'success' }
            : { title: 'Reprocessed with OCR', description: `${pagesText(remaining)} ${remaining.length === 1 ? 'still has' : 'still have'} no text.`, variant: 'warning' },
        ),
      );
    } catch (failure) {
      failed(failure, VAULT_ERRORS.reprocess);
    }
  }

  return (
    <button type="button" className="btn btn-sm btn-outline" disabled={isLoading} onClick={() => void run()}>
      {isLoading ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <ScanText size={14} aria-hidden="true" />}
      {isLoading ? 'Reprocessing...' : 'Reprocess with OCR (premium)'}
    </button>
  );
}

function DeleteButton({ item, onDeleted }: { item: LibraryTranscript; onDeleted: () => void }) {
  const dispatch = useAppDispatch();
  const failed = useErrorToast();
  const [open, setOpen] = useState(false);
  const dialogId = useId();
  const [deleteTranscript, { isLoading }] = useDeleteTranscriptMutation();

  async function confirm() {
    try {
      await deleteTranscript(item.id).unwrap();
      setOpen(false);
      dispatch(showToast({ title: 'Transcript deleted', description: item.title, variant: 'success' }));
      onDeleted();
    } catch (failure) {
      failed(failure, VAULT_ERRORS.delete);
    }
  }

  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-danger-outline"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? dialogId : undefined}
        onClick={() => setOpen(true)}
      >
        <Trash2 size={14} aria-hidden="true" /> Delete
      </button>
      {open && (
        <ConfirmDialog
          id={dialogId}
          title="Delete transcript?"
          description={`${item.title} will be removed from your Vault. This cannot be undone.`}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          icon={Trash2}
          busy={isLoading}
          onConfirm={() => void confirm()}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

function ContentSection({ item }: { item: LibraryTranscript }) {
  const dispatch = useAppDispatch();
  const failed = useErrorToast();
  const editorId = useId();
  const { data: content, isLoading, error } = useGetTranscriptContentQuery(item.id);
  const [updateContent, { isLoading: saving }] = useUpdateContentMutation();
  const [draft, setDraft] = useState<string | null>(null);

  async function save() {
    if (draft === null) return;
    try {
      await updateContent({ id: item.id, content: draft }).unwrap();
      setDraft(null);
      dispatch(showToast({ title: 'Content saved', description: item.title, variant: 'success' }));
    } catch (failure) {
      failed(failure, VAULT_ERRORS.updateContent);
    }
  }

  return (
    <section className="vault-content" aria-labelledby={`${editorId}-heading`}>
      <div className="vault-content-head">
        <h3 id={`${editorId}-heading`} className="group-title">
          Content
        </h3>
        {draft === null && content !== undefined && !error && (
          <button type="button" className="btn btn-sm btn-outline" onClick={() => setDraft(content)}>
            <Pencil size={14} aria-hidden="true" /> Edit content
          </button>
        )}
      </div>
      {draft !== null ? (
        <div className="content-editor">
          <label htmlFor={editorId} className="visually-hidden">
            Content (markdown)
          </label>
          <textarea id={editorId} value={draft} rows={14} onChange={(event) => setDraft(event.target.value)} />
          <div className="dialog-actions">
            <button type="button" className="btn btn-sm btn-outline" disabled={saving} onClick={() => setDraft(null)}>
              Cancel
            </button>
            <button type="button" className="btn btn-sm btn-primary" disabled={saving} onClick={() => void save()}>
              {saving && <LoaderCircle className="spin" size={14} aria-hidden="true" />}
              Save content
            </button>
          </div>
        </div>
      ) : (
        <div className="transcript-content" data-testid="transcript-content">
          {isLoading ? (
            <p className="muted" role="status">
              Loading...
            </p>
          ) : error ? (
            <p className="row-error" role="alert">
              {errorMessage(error, VAULT_ERRORS.content)}
            </p>
          ) : content ? (
            <MarkdownContent content={content} />
          ) : (
            <p className="muted">This transcript has no text.</p>
          )}
        </div>
      )}
    </section>
  );
}
