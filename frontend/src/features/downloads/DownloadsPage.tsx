import { AlertCircle, Ban, Download, ListVideo, LoaderCircle, RefreshCw, RotateCcw, Search, Wand2 } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { activeJobIds, DOWNLOAD_ERRORS, errorLines, isActiveJob, type DownloadJob, type DownloadJobStatus } from '@/api/downloadJobs';
import { useCancelDownloadJobMutation, useGetDownloadJobsQuery, useRetryDownloadJobMutation } from '@/api/downloadsApi';
import { errorMessage } from '@/api/errors';
import { PageHeader } from '@/components/PageHeader';
import { ProgressBar } from '@/components/ProgressBar';
import { StatusBadge, type BadgeTone } from '@/components/StatusBadge';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { useErrorToast } from '@/lib/toast';

const STATUS_LABEL: Record<DownloadJobStatus, string> = {
  PENDING: 'Pending',
  PROCESSING: 'Processing',
  COMPLETED: 'Completed',
  FAILED: 'Failed',
};
const STATUS_TONE: Record<DownloadJobStatus, BadgeTone> = {
  PENDING: 'neutral',
  PROCESSING: 'info',
  COMPLETED: 'success',
  FAILED: 'danger',
};

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/** '2 of 3 videos', plus ' · 1 failed' when some failed. */
export function jobCountsText(job: Pick<DownloadJob, 'processedVideos' | 'totalVideos' | 'failedVideos'>): string {
  const counts = `${job.processedVideos} of ${job.totalVideos} ${plural(job.totalVideos, 'video', 'videos')}`;
  return job.failedVideos > 0 ? `${counts} · ${job.failedVideos} failed` : counts;
}

/** /downloads: the user's download jobs, newest first, following the socket's progress events. */
export default function DownloadsPage() {
  // Coming back after a while (the socket may have missed events meanwhile) asks the server again.
  const { data: jobs = [], isLoading, isFetching, error, refetch } = useGetDownloadJobsQuery(undefined, {
    refetchOnMountOrArgChange: 10,
  });
  const active = activeJobIds(jobs).length;

  return (
    <div className="page">
      <PageHeader
        title="Downloads"
        description="Audio downloads from your sources, with their progress"
        actions={
          <button type="button" className="btn btn-outline" disabled={isFetching} onClick={() => void refetch()}>
            <RefreshCw className={isFetching && !isLoading ? 'spin' : undefined} size={16} aria-hidden="true" /> Refresh
          </button>
        }
      />
      <section className="card" aria-labelledby="download-jobs-heading">
        <div className="card-header">
          <h2 id="download-jobs-heading" className="card-title">
            <Download size={18} aria-hidden="true" /> Download jobs <span className="count">{jobs.length}</span>
          </h2>
          {jobs.length > 0 && (
            <span className="muted" data-testid="active-jobs" aria-live="polite">
              {active > 0 ? `${active} active` : 'None active'}
            </span>
          )}
        </div>
        {isLoading ? (
          <p className="muted card-body" role="status">
            Loading...
          </p>
        ) : error && jobs.length === 0 ? (
          <div className="empty-state compact" role="alert">
            <AlertCircle size={28} aria-hidden="true" className="text-danger" />
            <p className="text-danger">{errorMessage(error, DOWNLOAD_ERRORS.fetch)}</p>
            <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
              <RefreshCw size={16} aria-hidden="true" /> Try again
            </button>
          </div>
        ) : jobs.length === 0 ? (
          <div className="empty-state">
            <span className="empty-icon" aria-hidden="true">
              <Download size={28} />
            </span>
            <h3 className="empty-title">No download jobs yet</h3>
            <p className="muted">
              Select videos of a source on Sources, or of a channel on Find Videos, and choose Download audio.
            </p>
            <div className="button-row wrap center">
              <Link to={paths.sources} className="btn btn-primary">
                <ListVideo size={16} aria-hidden="true" /> Go to Sources
              </Link>
              <Link to={paths.discovery} className="btn btn-outline">
                <Search size={16} aria-hidden="true" /> Find Videos
              </Link>
            </div>
          </div>
        ) : (
          <ul className="job-list" aria-label="Download jobs">
            {jobs.map((job) => (
              <JobItem key={job.id} job={job} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function JobItem({ job }: { job: DownloadJob }) {
  const titleId = useId();
  const title = job.sourceTitle || 'Download job';
  const lines = errorLines(job.errorMessage);
  const current = job.status === 'PROCESSING' ? job.currentVideo : null;
  const tone = job.status === 'FAILED' ? 'danger' : job.status === 'COMPLETED' ? 'success' : 'primary';

  return (
    <li className="job-item" data-testid="download-job" data-job-id={job.id} data-status={job.status}>
      <div className="job-head">
        <div className="job-title-row">
          <span id={titleId} className="job-title">
            {title}
          </span>
          <StatusBadge tone={STATUS_TONE[job.status]}>{STATUS_LABEL[job.status]}</StatusBadge>
          {job.transcribe && (
            <span className="tag job-tag">
              <Wand2 size={12} aria-hidden="true" /> Transcribe
            </span>
          )}
        </div>
        <JobActions job={job} titleId={titleId} />
      </div>
      <ProgressBar value={job.progress} label={`Progress of ${title}`} tone={tone} showValue />
      <p className="job-meta">
        <span className="job-counts">{jobCountsText(job)}</span>
        {job.startedAt && <span>Started {formatDateTime(job.startedAt)}</span>}
        {job.completedAt && <span>Completed {formatDateTime(job.completedAt)}</span>}
        {!job.startedAt && !job.completedAt && job.createdAt && <span>Created {formatDateTime(job.createdAt)}</span>}
      </p>
      {current && (
        <p className="job-current" data-testid="current-video">
          <LoaderCircle className="spin" size={14} aria-hidden="true" />
          <span className="job-current-title">Downloading {current.title}</span>
          <span className="tabular">{Math.round(current.percent)}%</span>
        </p>
      )}
      {lines.length > 0 && (
        <ul className="job-errors" aria-label={`Errors of ${title}`}>
          {lines.map((line, index) => (
            <li key={`${index}-${line}`}>{line}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** Cancel while the job runs, Retry once it failed; `titleId` names the job the buttons act on. */
function JobActions({ job, titleId }: { job: DownloadJob; titleId: string }) {
  const showError = useErrorToast();
  const [cancelJob, cancelState] = useCancelDownloadJobMutation();
  const [retryJob, retryState] = useRetryDownloadJobMutation();
  const active = isActiveJob(job);

  async function cancel() {
    try {
      await cancelJob(job.id).unwrap();
    } catch (failure) {
      showError(failure, DOWNLOAD_ERRORS.cancel);
    }
  }

  async function retry() {
    try {
      await retryJob(job.id).unwrap();
    } catch (failure) {
      showError(failure, DOWNLOAD_ERRORS.retry);
    }
  }

  return (
    <div className="row-actions">
      {active && (
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-describedby={titleId}
          disabled={cancelState.isLoading}
          onClick={() => void cancel()}
        >
          {cancelState.isLoading ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <Ban size={14} aria-hidden="true" />}
          Cancel
        </button>
      )}
      {job.status === 'FAILED' && (
        <button
          type="button"
          className="btn btn-sm btn-outline"
          aria-describedby={titleId}
          disabled={retryState.isLoading}
          onClick={() => void retry()}
        >
          {retryState.isLoading ? (
            <LoaderCircle className="spin" size={14} aria-hidden="true" />
          ) : (
            <RotateCcw size={14} aria-hidden="true" />
          )}
          Retry
        </button>
      )}
    </div>
  );
}
