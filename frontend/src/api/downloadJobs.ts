/**
 * Download jobs (docs/product-spec.md §3) and the state rules of docs/product-spec.md §4, as pure functions over the job list
 * the SPA keeps in the RTK Query cache of `GET /api/downloads`:
 *
 * - statuses are PENDING, PROCESSING, COMPLETED, FAILED; lowercase values in events are uppercased;
 * - active jobs are PENDING or PROCESSING;
 * - a new job goes to the front of the list (and, being PENDING, into the active set);
 * - cancelling marks the job FAILED with 'Cancelled by user';
 * - retrying replaces the job with the server's returned job (progress 0);
 * - on a progress event the job takes the event's status, counts, progress and error; completedAt
 *   is set when the status is completed, startedAt the first time it becomes processing.
 */

import type { RealtimePayload, Schema } from './types';

/** The contract's DownloadStatus (the `downloadProgress` event's; a job's `status` is a string in REST). */
export type DownloadJobStatus = Schema<'DownloadStatus'>;
export const DOWNLOAD_JOB_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const satisfies readonly DownloadJobStatus[];

/** The video being fetched right now, with its own percent (0-100). */
export type CurrentVideo = Schema<'CurrentVideoView'>;

/** A job as the server sends it (`status` in any case, optional fields left out). */
export type DownloadJobView = Schema<'DownloadJobView'>;

/**
 * A job as the SPA keeps it (normalizeJob): the status one of DOWNLOAD_JOB_STATUSES and every
 * field present. `progress` is 0-100; `errorMessage` has one line per failed video.
 */
export type DownloadJob = Omit<Required<DownloadJobView>, 'status'> & { status: DownloadJobStatus };

/** The body of the socket's `downloadProgress` event. */
export type DownloadProgressEvent = RealtimePayload<'downloadProgress'>;

/** The fallbacks of docs/product-spec.md §8 for download jobs, after the server's error.message. */
export const DOWNLOAD_ERRORS = {
  fetch: 'Failed to fetch download jobs',
  create: 'Failed to create download job',
  cancel: 'Failed to cancel job',
  retry: 'Failed to retry job',
} as const;

/** The message of a job the user cancelled (docs/product-spec.md §4). */
export const CANCELLED_BY_USER = 'Cancelled by user';
/** The server takes at most this many videos in one job. */
export const MAX_VIDEOS_PER_JOB = 100;

/** 'processing' → 'PROCESSING'; null for anything that is not a job status. */
export function normalizeJobStatus(value: unknown): DownloadJobStatus | null {
  if (typeof value !== 'string') return null;
  const upper = value.trim().toUpperCase();
  return (DOWNLOAD_JOB_STATUSES as readonly string[]).includes(upper) ? (upper as DownloadJobStatus) : null;
}

export const isActiveJob = (job: Pick<DownloadJob, 'status'>) => job.status === 'PENDING' || job.status === 'PROCESSING';

/** The ids of the active jobs, in list order. */
export const activeJobIds = (jobs: readonly DownloadJob[]) => jobs.filter(isActiveJob).map((job) => job.id);

/** processed / total x 100 as an integer; 0 when total is 0. */
export function jobProgress(processed: number, total: number): number {
  if (!Number.isFinite(total) || total <= 0 || !Number.isFinite(processed)) return 0;
  return Math.max(0, Math.min(100, Math.round((processed / total) * 100)));
}

const count = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;

/** A job as the server sent it, with its status uppercased and missing fields filled in. */
export function normalizeJob(raw: DownloadJobView): DownloadJob {
  const totalVideos = count(raw.totalVideos, 0);
  const processedVideos = count(raw.processedVideos, 0);
  return {
    ...raw,
    status: normalizeJobStatus(raw.status) ?? 'PENDING',
    totalVideos,
    processedVideos,
    failedVideos: count(raw.failedVideos, 0),
    progress: typeof raw.progress === 'number' ? count(raw.progress, 0) : jobProgress(processedVideos, totalVideos),
    errorMessage: raw.errorMessage ?? null,
    startedAt: raw.startedAt ?? null,
    completedAt: raw.completedAt ?? null,
    transcribe: Boolean(raw.transcribe),
    useCaptions: Boolean(raw.useCaptions),
    currentVideo: raw.currentVideo ?? null,
  };
}

/** A new job goes to the front of the list; a job already listed (by id) is not listed twice. */
export function withNewJob(jobs: readonly DownloadJob[], job: DownloadJobView): DownloadJob[] {
  return [normalizeJob(job), ...jobs.filter((listed) => listed.id !== job.id)];
}

/** The job is FAILED with 'Cancelled by user'; the server's copy of it wins where it has one. */
export function withCancelledJob(jobs: readonly DownloadJob[], jobId: string, fromServer?: DownloadJobView | null): DownloadJob[] {
  return jobs.map((job) => {
    if (job.id !== jobId) return job;
    const merged = fromServer ? normalizeJob({ ...job, ...fromServer }) : job;
    return {
      ...merged,
      status: 'FAILED',
      errorMessage: fromServer?.errorMessage ?? CANCELLED_BY_USER,
      currentVideo: null,
    };
  });
}

/** The retried job is replaced, in its place, by the server's new job (a new id, progress 0). */
export function withRetriedJob(jobs: readonly DownloadJob[], oldJobId: string, replacement: DownloadJobView): DownloadJob[] {
  const next = { ...normalizeJob(replacement), progress: 0 };
  const index = jobs.findIndex((job) => job.id === oldJobId);
  if (index === -1) return withNewJob(jobs, next);
  return jobs.flatMap((job, at) => (at === index ? [next] : job.id === next.id ? [] : [job]));
}

/**
 * A `downloadProgress` event applied to its job: status, counts, progress and error from the
 * event; completedAt when completed; startedAt the first time it becomes processing. A job that
 * is not listed leaves the list as it is (`found: false`).
 */
export function withProgressEvent(
  jobs: readonly DownloadJob[],
  event: DownloadProgressEvent | null | undefined,
  now: Date = new Date(),
): { jobs: DownloadJob[]; found: boolean } {
  const jobId = event?.jobId;
  const index = jobId ? jobs.findIndex((job) => job.id === jobId) : -1;
  if (!event || index === -1) return { jobs: [...jobs], found: false };
  const job = jobs[index];
  const status = normalizeJobStatus(event.status) ?? job.status;
  const totalVideos = count(event.totalVideos, job.totalVideos);
  const processedVideos = count(event.processedVideos, job.processedVideos);
  const timestamp = now.toISOString();
  const updated: DownloadJob = {
    ...job,
    status,
    totalVideos,
    processedVideos,
    failedVideos: count(event.failedVideos, job.failedVideos),
    progress: typeof event.progress === 'number' ? count(event.progress, job.progress) : jobProgress(processedVideos, totalVideos),
    errorMessage: 'error' in event ? (event.error ?? null) : job.errorMessage,
    currentVideo: isActiveJob({ status }) ? (event.currentVideo ?? null) : null,
    completedAt: status === 'COMPLETED' ? (job.completedAt ?? timestamp) : job.completedAt,
    startedAt: status === 'PROCESSING' && !job.startedAt ? timestamp : job.startedAt,
  };
  const next = [...jobs];
  next[index] = updated;
  return { jobs: next, found: true };
}

/** The lines of an errorMessage (one per failed video), without blank ones. */
export function errorLines(message: string | null | undefined): string[] {
  if (!message) return [];
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
