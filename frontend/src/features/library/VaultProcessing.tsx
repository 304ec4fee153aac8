import { Loader2 } from 'lucide-react';
import { useGetTranscriptionQueueQuery, type QueuedFile } from '@/api/queueApi';
import { describeBasis, QueueEta } from '@/components/QueueEta';
import { StatusBadge, type BadgeTone } from '@/components/StatusBadge';

const STATUS: Record<QueuedFile['status'], { label: string; tone: BadgeTone }> = {
  pending: { label: 'Waiting', tone: 'neutral' },
  scheduled: { label: 'Scheduled', tone: 'warning' },
  transcribing: { label: 'Processing', tone: 'info' },
  retrying: { label: 'Retrying', tone: 'info' },
  error: { label: 'Retry planned', tone: 'warning' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

/**
 * The items on their way into the Vault: the user's files that wait for a worker or are being
 * transcribed, each with its place in the queue and estimated times (the same cached answer as
 * /transcripts, kept current by `queueUpdate`). Nothing is shown while nothing is queued.
 */
export function VaultProcessing() {
  const { data: queue } = useGetTranscriptionQueueQuery();
  const files = queue?.files ?? [];
  if (files.length === 0) return null;
  return (
    <section className="card" aria-labelledby="vault-processing-heading" data-testid="vault-processing">
      <div className="card-header">
        <h2 id="vault-processing-heading" className="card-title">
          <Loader2 size={16} aria-hidden="true" /> Processing <span className="count">{files.length}</span>
        </h2>
      </div>
      <p className="queue-basis">{describeBasis(queue?.basis)}</p>
      <ul className="vault-processing-list">
        {files.map((file) => (
          <li key={`${file.jobId}/${file.fileId}`} className="vault-processing-item" data-testid="processing-item">
            <div>
              <span className="file-title">{file.title}</span>
              <QueueEta file={file} basis={queue?.basis} />
            </div>
            <StatusBadge tone={STATUS[file.status].tone}>{STATUS[file.status].label}</StatusBadge>
          </li>
        ))}
      </ul>
    </section>
  );
}
