import { describe, expect, it } from 'vitest';
import {
  activeJobIds,
  CANCELLED_BY_USER,
  errorLines,
  isActiveJob,
  jobProgress,
  normalizeJob,
  normalizeJobStatus,
  withCancelledJob,
  withNewJob,
  withProgressEvent,
  withRetriedJob,
  type DownloadJob,
} from './downloadJobs';

function job(overrides: Partial<DownloadJob> = {}): DownloadJob {
  return {
    id: 'job-1',
    sourceId: 'src-1',
    sourceTitle: 'Demo Channel',
    status: 'PENDING',
    totalVideos: 3,
    processedVideos: 0,
    failedVideos: 0,
    progress: 0,
    errorMessage: null,
    startedAt: null,
    completedAt: null,
    createdAt: '2025-03-03T09:00:00Z',
    transcribe: false,
    useCaptions: false,
    currentVideo: null,
    ...overrides,
  };
}

const NOW = new Date('2025-03-03T10:00:00.000Z');
const LATER = new Date('2025-03-03T10:05:00.000Z');

describe('download job statuses (docs/product-spec.md §4)', () => {
  it('uppercases lowercase statuses and rejects anything else', () => {
    expect(normalizeJobStatus('processing')).toBe('PROCESSING');
    expect(normalizeJobStatus('Completed')).toBe('COMPLETED');
    expect(normalizeJobStatus('FAILED')).toBe('FAILED');
    expect(normalizeJobStatus('pending')).toBe('PENDING');
    expect(normalizeJobStatus('cancelled')).toBeNull();
    expect(normalizeJobStatus(undefined)).toBeNull();
    // The contract spells it upper-case; a job from an older server may not.
    const older = { ...job(), status: 'processing' } as unknown as Parameters<typeof normalizeJob>[0];
    expect(normalizeJob(older).status).toBe('PROCESSING');
  });

  it('counts PENDING and PROCESSING as active, the others not', () => {
    expect(isActiveJob(job({ status: 'PENDING' }))).toBe(true);
    expect(isActiveJob(job({ status: 'PROCESSING' }))).toBe(true);
    expect(isActiveJob(job({ status: 'COMPLETED' }))).toBe(false);
    expect(isActiveJob(job({ status: 'FAILED' }))).toBe(false);
    const jobs = [job({ id: 'a', status: 'COMPLETED' }), job({ id: 'b', status: 'PROCESSING' }), job({ id: 'c' })];
    expect(activeJobIds(jobs)).toEqual(['b', 'c']);
  });

  it('computes progress as processed / total x 100, 0 when total is 0', () => {
    expect(jobProgress(2, 3)).toBe(67);
    expect(jobProgress(3, 3)).toBe(100);
    expect(jobProgress(0, 0)).toBe(0);
    expect(jobProgress(5, 0)).toBe(0);
  });

  it('splits errorMessage into one line per failed video', () => {
    expect(errorLines('v1: Video unavailable\nv2: Private video\n')).toEqual(['v1: Video unavailable', 'v2: Private video']);
    expect(errorLines(null)).toEqual([]);
  });
});

describe('download job list rules (docs/product-spec.md §4)', () => {
  it('puts a new job at the front of the list and into the active set', () => {
    const listed = [job({ id: 'old', status: 'COMPLETED' })];
    const next = withNewJob(listed, job({ id: 'new' }));
    expect(next.map((item) => item.id)).toEqual(['new', 'old']);
    expect(activeJobIds(next)).toEqual(['new']);
    // The same job twice (say, also fetched meanwhile) is listed once.
    expect(withNewJob(next, job({ id: 'new' })).map((item) => item.id)).toEqual(['new', 'old']);
  });

  it("marks a cancelled job FAILED with 'Cancelled by user', leaving the others", () => {
    const listed = [job({ id: 'a', status: 'PROCESSING', progress: 33, currentVideo: { videoId: 'v', title: 'T', percent: 40 } }), job({ id: 'b' })];
    const next = withCancelledJob(listed, 'a');
    expect(next[0]).toMatchObject({ id: 'a', status: 'FAILED', errorMessage: CANCELLED_BY_USER, progress: 33, currentVideo: null });
    expect(next[1]).toBe(listed[1]);
    expect(activeJobIds(next)).toEqual(['b']);
  });

  it("replaces a retried job, in its place, with the server's new job at progress 0", () => {
    const listed = [job({ id: 'a' }), job({ id: 'failed', status: 'FAILED', progress: 67, errorMessage: 'v3: gone' }), job({ id: 'c' })];
    const next = withRetriedJob(listed, 'failed', job({ id: 'retry-1', status: 'PENDING', totalVideos: 1, progress: 12 }));
    expect(next.map((item) => item.id)).toEqual(['a', 'retry-1', 'c']);
    expect(next[1]).toMatchObject({ status: 'PENDING', progress: 0, totalVideos: 1, errorMessage: null });
  });

  it("takes the event's status (uppercased), counts, progress and error; startedAt the first time it processes", () => {
    const listed = [job({ id: 'other' }), job()];
    const first = withProgressEvent(
      listed,
      {
        jobId: 'job-1',
        status: 'PROCESSING',
        processedVideos: 1,
        totalVideos: 3,
        failedVideos: 0,
        progress: 33,
        error: null,
        currentVideo: { videoId: 'v2', title: 'Episode 2', percent: 45 },
      },
      NOW,
    );
    expect(first.found).toBe(true);
    expect(first.jobs[0]).toBe(listed[0]);
    expect(first.jobs[1]).toMatchObject({
      status: 'PROCESSING',
      processedVideos: 1,
      totalVideos: 3,
      progress: 33,
      startedAt: NOW.toISOString(),
      completedAt: null,
      currentVideo: { videoId: 'v2', title: 'Episode 2', percent: 45 },
    });

    const second = withProgressEvent(
      first.jobs,
      { jobId: 'job-1', status: 'PROCESSING', processedVideos: 2, totalVideos: 3, failedVideos: 1, progress: 67, error: 'v1: Video unavailable' },
      LATER,
    );
    expect(second.jobs[1]).toMatchObject({
      processedVideos: 2,
      failedVideos: 1,
      progress: 67,
      errorMessage: 'v1: Video unavailable',
      startedAt: NOW.toISOString(),
      currentVideo: null,
    });
  });

  it('sets completedAt when the event says completed', () => {
    const listed = [job({ status: 'PROCESSING', startedAt: NOW.toISOString() })];
    const { jobs } = withProgressEvent(
      listed,
      { jobId: 'job-1', status: 'COMPLETED', processedVideos: 3, totalVideos: 3, failedVideos: 0, progress: 100, error: null },
      LATER,
    );
    expect(jobs[0]).toMatchObject({ status: 'COMPLETED', progress: 100, completedAt: LATER.toISOString(), startedAt: NOW.toISOString() });
    expect(activeJobIds(jobs)).toEqual([]);
  });

  it('leaves the list alone for an event of a job it does not list, or an event without a body', () => {
    const listed = [job()];
    expect(withProgressEvent(listed, { jobId: 'elsewhere', status: 'PROCESSING', processedVideos: 0, totalVideos: 1 }).found).toBe(false);
    expect(withProgressEvent(listed, null).found).toBe(false);
    expect(withProgressEvent(listed, { jobId: 'job-1', status: 'weird' as never, processedVideos: 0, totalVideos: 1 }).jobs[0].status).toBe('PENDING');
  });
});
