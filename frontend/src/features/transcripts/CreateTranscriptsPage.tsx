import * as Dialog from '@radix-ui/react-dialog';
import {
  AlertTriangle,
  CalendarClock,
  CheckCircle2,
  Clock,
  Eraser,
  ExternalLink,
  FileAudio,
  FileText,
  FileType2,
  History,
  Play,
  RotateCcw,
  Square,
  Trash2,
  Upload,
  Wrench,
  X,
  XCircle,
} from 'lucide-react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { queueKey, queuedFilesByKey, useGetTranscriptionQueueQuery, type QueueBasis, type QueuedFile } from '@/api/queueApi';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { FileStatusCells } from '@/components/FileStatusCells';
import { FileTableHead } from '@/components/FileTableHead';
import { PageHeader } from '@/components/PageHeader';
import { describeBasis, QueueEta } from '@/components/QueueEta';
import type { BadgeTone } from '@/components/StatusBadge';
import { paths, vaultItemHref } from '@/config/paths';
import { formatDate, formatProcessingTime } from '@/lib/format';
import { HANDOFF_KEYS, writeJson } from '@/lib/storage';
import { useGetTranscriptionHistoryQuery, useGetVaultItemIdByPathQuery } from './transcriptsApi';
import {
  cancelFile,
  importHandedOverFiles,
  loadManualUploads,
  retryFailedFiles,
  retryFile,
  startTranscription,
  stopAll,
} from './transcriptsThunks';
import {
  completedCleared,
  DEFAULT_MAX_RETRIES,
  fileRemoved,
  isFailed,
  isInFlight,
  isStartable,
  selectActiveJobIds,
  selectIsProcessing,
  selectTranscriptionFiles,
  selectTranscriptionSettings,
  settingsChanged,
  stuckReset,
  type TranscriptionFile,
  type TranscriptionStatus,
} from './transcriptsSlice';

const STATUS_LABEL: Record<TranscriptionStatus, string> = {
  pending: 'Pending',
  transcribing: 'Processing',
  completed: 'Completed',
  error: 'Error',
  scheduled: 'Scheduled',
  retrying: 'Retrying',
  failed: 'Failed',
};
const STATUS_TONE: Record<TranscriptionStatus, BadgeTone> = {
  pending: 'neutral',
  transcribing: 'info',
  completed: 'success',
  error: 'danger',
  scheduled: 'warning',
  retrying: 'info',
  failed: 'danger',
};

export default function CreateTranscriptsPage() {
  const dispatch = useAppDispatch();
  const files = useAppSelector(selectTranscriptionFiles);
  const settings = useAppSelector(selectTranscriptionSettings);
  const isProcessing = useAppSelector(selectIsProcessing);
  const activeJobIds = useAppSelector(selectActiveJobIds);
  const [showHistory, setShowHistory] = useState(false);
  const { busy, run } = useBusyAction();

  useEffect(() => {
    void dispatch(importHandedOverFiles());
  }, [dispatch]);

  const counts = countFiles(files);
  const hasPending = files.some((file) => file.status === 'pending');
  const startDisabled = files.length === 0 || isProcessing || !hasPending || busy;
  const stopDisabled = !isProcessing && activeJobIds.length === 0 && !files.some((file) => isInFlight(file.status));

  return (
    <div className="page">
      <PageHeader
        title="Create Transcripts"
        description="Turn uploaded MP3s into transcripts with Whisper. Progress arrives in real time."
        actions={<ListActions completedCount={counts.completed} run={run} />}
      />

      <TranscriptionCounters counts={counts} />

      <section className="card" aria-labelledby="options-heading">
        <div className="card-header">
          <h2 id="options-heading" className="card-title">
            Options
          </h2>
        </div>
        <TranscriptionOptions />
        <div className="card-footer button-row wrap">
          <button
            type="button"
            className="btn btn-primary"
            disabled={startDisabled}
            onClick={() => void run(() => dispatch(startTranscription()))}
          >
            {settings.scheduleOvernight ? <CalendarClock size={16} aria-hidden="true" /> : <Play size={16} aria-hidden="true" />}
            {settings.scheduleOvernight ? 'Schedule Transcription' : 'Start Transcription'}
          </button>
          <button type="button" className="btn btn-danger-outline" disabled={stopDisabled} onClick={() => void dispatch(stopAll())}>
            <Square size={16} aria-hidden="true" /> Stop All
          </button>
          <button type="button" className="btn btn-outline" onClick={() => void run(() => dispatch(retryFailedFiles()))}>
            <RotateCcw size={16} aria-hidden="true" /> Retry Failed ({counts.failed})
          </button>
          <button
            type="button"
            className="btn btn-ghost"
            aria-expanded={showHistory}
            onClick={() => setShowHistory((shown) => !shown)}
          >
            <History size={16} aria-hidden="true" /> {showHistory ? 'Hide History' : 'Show History'}
          </button>
        </div>
      </section>

      {showHistory && <HistoryPanel files={files} />}

      <FilesCard files={files} isProcessing={isProcessing} completedCount={counts.completed} />
    </div>
  );
}

interface FileCounts {
  total: number;
  pending: number;
  completed: number;
  failed: number;
}

function countFiles(files: TranscriptionFile[]): FileCounts {
  return {
    total: files.length,
    pending: files.filter((file) => isStartable(file.status)).length,
    completed: files.filter((file) => file.status === 'completed').length,
    failed: files.filter((file) => isFailed(file.status)).length,
  };
}

/** `busy` while an action started with `run` is under way (Start waits for it). */
function useBusyAction() {
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  }

  return { busy, run };
}

/** The page header's buttons, which act on the list as a whole. */
function ListActions({ completedCount, run }: { completedCount: number; run: (action: () => Promise<unknown>) => Promise<void> }) {
  const dispatch = useAppDispatch();
  return (
    <>
      <button type="button" className="btn btn-outline" onClick={() => void run(() => dispatch(loadManualUploads()))}>
        <Upload size={16} aria-hidden="true" /> Load Manual Uploads
      </button>
      <button
        type="button"
        className="btn btn-outline"
        disabled={completedCount === 0}
        onClick={() => dispatch(completedCleared())}
      >
        <Eraser size={16} aria-hidden="true" /> Clear Completed
      </button>
      <button type="button" className="btn btn-outline" onClick={() => dispatch(stuckReset())}>
        <Wrench size={16} aria-hidden="true" /> Reset Stuck
      </button>
    </>
  );
}

function TranscriptionCounters({ counts }: { counts: FileCounts }) {
  return (
    <section className="stats-grid" aria-label="Transcription counters" aria-live="polite">
      <Counter label="Total" value={counts.total} icon={<FileAudio size={18} />} tone="neutral" />
      <Counter label="Pending" value={counts.pending} icon={<Clock size={18} />} tone="warning" />
      <Counter label="Completed" value={counts.completed} icon={<CheckCircle2 size={18} />} tone="success" />
      <Counter label="Failed" value={counts.failed} icon={<XCircle size={18} />} tone="danger" />
    </section>
  );
}

/** The speech model, markdown output and overnight scheduling of the next start. */
function TranscriptionOptions() {
  const dispatch = useAppDispatch();
  const settings = useAppSelector(selectTranscriptionSettings);
  const ids = { markdown: useId(), overnight: useId(), model: useId() };
  return (
    <div className="options-grid">
      <div className="field">
        <label htmlFor={ids.model}>Speech model</label>
        <select
          id={ids.model}
          value={settings.whisperModel}
          onChange={() => dispatch(settingsChanged({ whisperModel: 'small' }))}
        >
          <option value="small">Small (Fast)</option>
        </select>
      </div>
      <label className="check" htmlFor={ids.markdown}>
        <input
          id={ids.markdown}
          type="checkbox"
          checked={settings.outputAsMarkdown}
          onChange={(event) => dispatch(settingsChanged({ outputAsMarkdown: event.target.checked }))}
        />
        <span>Output as Markdown</span>
      </label>
      <label className="check" htmlFor={ids.overnight}>
        <input
          id={ids.overnight}
          type="checkbox"
          checked={settings.scheduleOvernight}
          onChange={(event) => dispatch(settingsChanged({ scheduleOvernight: event.target.checked }))}
        />
        <span>Schedule Overnight (1AM - 6AM)</span>
      </label>
    </div>
  );
}

function FilesCard({ files, isProcessing, completedCount }: { files: TranscriptionFile[]; isProcessing: boolean; completedCount: number }) {
  return (
    <section className="card" aria-labelledby="transcription-files-heading">
      <div className="card-header">
        <h2 id="transcription-files-heading" className="card-title">
          Files <span className="count">{files.length}</span>
        </h2>
        <div className="button-row wrap">
          {isProcessing && (
            <span className="badge badge-info" role="status">
              Transcribing...
            </span>
          )}
          {completedCount > 0 && <ConvertToMarkdownButton files={files} count={completedCount} />}
        </div>
      </div>
      {files.length === 0 ? (
        <div className="empty-state compact">
          <FileText size={28} aria-hidden="true" className="muted" />
          <p className="muted">
            No files yet. <Link to={paths.uploads}>Upload MP3 files</Link> or load your manual uploads.
          </p>
        </div>
      ) : (
        <TranscriptionTable files={files} />
      )}
    </section>
  );
}

/**
 * Hands the list over to /convert-pdf, which converts its completed rows: the list already lives
 * in session storage under `transcripts` (each row has id, title and transcriptPath), written
 * again here so the hand-off does not depend on the listener having run.
 */
function ConvertToMarkdownButton({ files, count }: { files: TranscriptionFile[]; count: number }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline"
      onClick={() => {
        writeJson('session', HANDOFF_KEYS.transcripts, files);
        void navigate(paths.convertPdf);
      }}
    >
      <FileType2 size={14} aria-hidden="true" /> Convert to Markdown ({count})
    </button>
  );
}

function Counter({ label, value, icon, tone }: { label: string; value: number; icon: ReactNode; tone: BadgeTone }) {
  return (
    <div className={`stat-card tone-${tone}`}>
      <span className="stat-icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <p className="stat-label">{label}</p>
        <p className="stat-value" data-testid={`counter-${label.toLowerCase()}`}>
          {value}
        </p>
      </div>
    </div>
  );
}

/**
 * The file table. Each waiting or running row shows its place in the server's queue and its
 * estimated start and end (`GET /api/transcription/queue`, kept current by `queueUpdate`).
 */
function TranscriptionTable({ files }: { files: TranscriptionFile[] }) {
  const { data: queue } = useGetTranscriptionQueueQuery();
  const queued = queuedFilesByKey(queue);
  // A file in error waits in the queue while its automatic retry is planned; a completed or
  // failed one has left it, whatever a queue answer from before its end said.
  const queuedOf = (file: TranscriptionFile) =>
    file.jobId && file.status !== 'completed' && file.status !== 'failed' ? queued.get(queueKey(file.jobId, file.id)) : undefined;
  const anyQueued = files.some((file) => queuedOf(file));
  return (
    <>
      {anyQueued && (
        <p className="queue-basis" data-testid="queue-basis">
          {describeBasis(queue?.basis)}
        </p>
      )}
      <div className="table-wrap">
        <table className="table">
          <FileTableHead />
          <tbody>
            {files.map((file) => (
              <TranscriptionRow key={file.id} file={file} queued={queuedOf(file)} basis={queue?.basis} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function TranscriptionRow({ file, queued, basis }: { file: TranscriptionFile; queued?: QueuedFile; basis?: QueueBasis }) {
  const dispatch = useAppDispatch();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const failed = isFailed(file.status);
  const running = isInFlight(file.status);
  return (
    <tr data-testid="transcription-row" data-status={file.status}>
      <td className="cell-title" data-label="Title">
        <span className="file-title">{file.title}</span>
        {queued && <QueueEta file={queued} basis={basis} />}
        {file.errorMessage && <span className="row-error">{file.errorMessage}</span>}
        {(failed || file.retryCount > 0) && (
          <span className="row-meta">
            Retries: {file.retryCount}/{file.maxRetries || DEFAULT_MAX_RETRIES}
            {file.lastFailedAt ? ` · last failed ${formatDate(file.lastFailedAt)}` : ''}
          </span>
        )}
        {file.status === 'completed' && file.processingTime ? (
          <span className="row-meta">Processed in {formatProcessingTime(file.processingTime)}</span>
        ) : null}
      </td>
      <FileStatusCells
        status={STATUS_LABEL[file.status]}
        tone={STATUS_TONE[file.status]}
        progress={file.progress}
        progressLabel={`Transcription progress of ${file.title}`}
      />
      <td className="cell-actions">
        <div className="row-actions">
          {isStartable(file.status) && (
            <button type="button" className="btn btn-sm btn-outline" onClick={() => void dispatch(startTranscription([file.id]))}>
              <Play size={14} aria-hidden="true" /> Start
            </button>
          )}
          {failed && (
            <button type="button" className="btn btn-sm btn-outline" onClick={() => void dispatch(retryFile(file.id))}>
              <RotateCcw size={14} aria-hidden="true" /> Retry
            </button>
          )}
          {(running || file.status === 'scheduled') && (
            <button type="button" className="btn btn-sm btn-danger-outline" onClick={() => void dispatch(cancelFile(file.id))}>
              <X size={14} aria-hidden="true" /> Cancel
            </button>
          )}
          {file.status === 'completed' && <VaultLink transcriptPath={file.transcriptPath} />}
          {!running && (
            <Dialog.Root open={confirmRemove} onOpenChange={setConfirmRemove}>
              <Dialog.Trigger asChild>
                <button type="button" className="icon-button" aria-label={`Remove ${file.title}`}>
                  <Trash2 size={16} aria-hidden="true" />
                </button>
              </Dialog.Trigger>
              <Dialog.Portal>
                <Dialog.Overlay className="dialog-overlay" />
                <Dialog.Content className="dialog dialog-sm">
                  <Dialog.Title className="dialog-title">Remove file?</Dialog.Title>
                  <Dialog.Description className="muted">
                    {file.title} will be removed from this list. Its MP3 and any transcript stay on the server.
                  </Dialog.Description>
                  <div className="dialog-actions">
                    <Dialog.Close asChild>
                      <button type="button" className="btn btn-outline">
                        Keep
                      </button>
                    </Dialog.Close>
                    <button type="button" className="btn btn-danger" onClick={() => dispatch(fileRemoved(file.id))}>
                      Remove
                    </button>
                  </div>
                </Dialog.Content>
              </Dialog.Portal>
            </Dialog.Root>
          )}
        </div>
      </td>
    </tr>
  );
}

/**
 * A completed row's link to its Vault item, found by the row's transcript path: /vault?item=<id>
 * once the Vault has the item, the Vault itself until then (or when the row has no path).
 */
function VaultLink({ transcriptPath }: { transcriptPath: string | null }) {
  const { data: itemId, isFetching } = useGetVaultItemIdByPathQuery(transcriptPath ?? skipToken);
  return (
    <Link
      className="btn btn-sm btn-outline"
      to={itemId ? vaultItemHref(itemId) : paths.vault}
      aria-busy={isFetching || undefined}
      data-item-id={itemId ?? undefined}
    >
      <ExternalLink size={14} aria-hidden="true" /> Vault
    </Link>
  );
}

function HistoryPanel({ files }: { files: TranscriptionFile[] }) {
  const jobIds = [...new Set(files.map((file) => file.jobId).filter((jobId): jobId is string => Boolean(jobId)))];
  return (
    <section className="card" aria-labelledby="history-heading">
      <div className="card-header">
        <h2 id="history-heading" className="card-title">
          Retry history
        </h2>
      </div>
      {jobIds.length === 0 ? (
        <p className="muted card-body">No transcription history yet.</p>
      ) : (
        jobIds.map((jobId) => <JobHistory key={jobId} jobId={jobId} />)
      )}
    </section>
  );
}

function JobHistory({ jobId }: { jobId: string }) {
  const { data, isLoading, isError } = useGetTranscriptionHistoryQuery(jobId);
  if (isLoading) return <p className="muted card-body">Loading...</p>;
  if (isError) {
    return (
      <p className="row-error card-body">
        <AlertTriangle size={14} aria-hidden="true" /> Could not load the history of job {jobId}.
      </p>
    );
  }
  if (!data || data.length === 0) return null;
  return (
    <ul className="history-list">
      {data.map((entry) => (
        <li key={entry.id} className="history-item">
          <span className="file-title">{entry.title}</span>
          <span className="row-meta">
            Retries: {entry.retryCount}/{entry.maxRetries || DEFAULT_MAX_RETRIES}
            {entry.lastFailedAt ? ` · last failed ${formatDate(entry.lastFailedAt)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
