import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DownloadJob } from '@/api/downloadJobs';
import { downloadsApi } from '@/api/downloadsApi';
import type { AppStore } from '@/app/store';
import { installFakeSockets, type FakeSocket } from '@/testing/fakeSocket';
import { renderWithProviders, TEST_TOKEN } from '@/testing/renderWithProviders';
import type { RealtimeEventName, RealtimePayload, Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';

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

/** An in-memory /api/downloads that records what the SPA asks. */
function downloadsBackend(initial: DownloadJob[]) {
  const state = {
    jobs: [...initial],
    lists: 0,
    authorizations: [] as Array<string | null>,
    cancelled: [] as string[],
    retried: [] as string[],
  };
  server.use(
    http.get('/api/downloads', ({ request }) => {
      state.lists += 1;
      state.authorizations.push(request.headers.get('Authorization'));
      return HttpResponse.json<Schema<'Envelope_Vec_DownloadJobView'>>({ data: state.jobs });
    }),
    http.delete('/api/downloads/:id', ({ params }) => {
      const id = params.id as string;
      state.cancelled.push(id);
      const found = state.jobs.find((candidate) => candidate.id === id);
      if (!found) return errorResponse(404, 'Download job not found');
      const cancelled = { ...found, status: 'FAILED' as const, errorMessage: 'Cancelled by user', completedAt: '2025-03-03T09:10:00Z' };
      state.jobs = state.jobs.map((candidate) => (candidate.id === id ? cancelled : candidate));
      return HttpResponse.json<Schema<'Envelope_DownloadJobView'>>({ data: cancelled });
    }),
    http.post('/api/downloads/:id/retry', ({ params }) => {
      const id = params.id as string;
      state.retried.push(id);
      const fresh = job({ id: `${id}-retry`, status: 'PENDING', totalVideos: 1, createdAt: '2025-03-03T09:20:00Z' });
      state.jobs = state.jobs.map((candidate) => (candidate.id === id ? fresh : candidate));
      return HttpResponse.json<Schema<'Envelope_DownloadJobView'>>({ data: fresh }, { status: 201 });
    }),
  );
  return state;
}

async function renderDownloads() {
  const sockets = installFakeSockets();
  const view = renderWithProviders({ route: '/downloads' });
  await screen.findByRole('heading', { name: 'Downloads', level: 1 });
  await waitFor(() => expect(sockets.sockets).toHaveLength(1));
  const socket = sockets.latest();
  act(() => socket.serverEmit('connect'));
  return { ...view, socket };
}

const jobItems = () => screen.queryAllByTestId('download-job');
const jobItem = (id: string) => {
  const found = jobItems().find((item) => item.dataset.jobId === id);
  if (!found) throw new Error(`no job ${id}`);
  return found;
};
const emit = <Name extends RealtimeEventName>(socket: FakeSocket, type: Name, data: RealtimePayload<Name>) =>
  act(() => socket.serverEvent(type, data));
const cached = (store: AppStore) => downloadsApi.endpoints.getDownloadJobs.select()(store.getState()).data ?? [];
const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent);

describe('/downloads list', () => {
  it('shows each job: status, progress, counts, current video, times, errors, and Cancel or Retry', async () => {
    const backend = downloadsBackend([
      job({
        id: 'running',
        sourceTitle: 'Scribevault Demo',
        status: 'PROCESSING',
        processedVideos: 2,
        failedVideos: 1,
        progress: 67,
        errorMessage: 'svdemo00001: Video unavailable',
        startedAt: '2025-03-03T09:01:00Z',
        transcribe: true,
        currentVideo: { videoId: 'svdemo00003', title: 'Scribevault Demo episode 3', percent: 45 },
      }),
      job({ id: 'waiting', sourceTitle: 'Demo playlist', totalVideos: 1 }),
      job({
        id: 'done',
        sourceTitle: 'Old Channel',
        status: 'COMPLETED',
        processedVideos: 3,
        progress: 100,
        startedAt: '2025-03-03T08:00:00Z',
        completedAt: '2025-03-03T08:05:00Z',
      }),
      job({
        id: 'broken',
        sourceTitle: 'Broken Channel',
        status: 'FAILED',
        totalVideos: 2,
        processedVideos: 2,
        failedVideos: 2,
        progress: 100,
        errorMessage: 'v1: Video unavailable\nv2: Private video',
      }),
    ]);
    await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(4));
    expect(backend.authorizations[0]).toBe(`Bearer ${TEST_TOKEN}`);
    expect(jobItems().map((item) => item.dataset.jobId)).toEqual(['running', 'waiting', 'done', 'broken']);
    expect(screen.getByTestId('active-jobs')).toHaveTextContent('2 active');

    const running = jobItem('running');
    expect(within(running).getByText('Processing')).toHaveClass('badge-info');
    expect(within(running).getByText('Transcribe')).toBeInTheDocument();
    expect(within(running).getByRole('progressbar', { name: 'Progress of Scribevault Demo' })).toHaveAttribute('aria-valuenow', '67');
    expect(within(running).getByText('2 of 3 videos · 1 failed')).toBeInTheDocument();
    expect(within(running).getByTestId('current-video')).toHaveTextContent('Downloading Scribevault Demo episode 3');
    expect(within(running).getByTestId('current-video')).toHaveTextContent('45%');
    expect(within(running).getByText(/^Started Mar 03, 2025 at /)).toBeInTheDocument();
    expect(within(running).getByRole('list', { name: 'Errors of Scribevault Demo' })).toHaveTextContent('svdemo00001: Video unavailable');
    expect(within(running).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(within(running).queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();

    const waiting = jobItem('waiting');
    expect(within(waiting).getByText('Pending')).toBeInTheDocument();
    expect(within(waiting).getByText('0 of 1 video')).toBeInTheDocument();
    expect(within(waiting).getByText(/^Created Mar 03, 2025 at /)).toBeInTheDocument();
    expect(within(waiting).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();

    const done = jobItem('done');
    expect(within(done).getByText('Completed')).toHaveClass('badge-success');
    expect(within(done).getByText('3 of 3 videos')).toBeInTheDocument();
    expect(within(done).getByText(/^Completed Mar 03, 2025 at /)).toBeInTheDocument();
    expect(within(done).queryByRole('button')).not.toBeInTheDocument();

    const broken = jobItem('broken');
    expect(within(broken).getByText('Failed')).toHaveClass('badge-danger');
    expect(within(broken).getByText('2 of 2 videos · 2 failed')).toBeInTheDocument();
    const errors = within(broken).getByRole('list', { name: 'Errors of Broken Channel' });
    expect(within(errors).getAllByRole('listitem').map((line) => line.textContent)).toEqual([
      'v1: Video unavailable',
      'v2: Private video',
    ]);
    expect(within(broken).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(within(broken).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });
});

describe('/downloads list: empty and failing', () => {
  it('points to Sources and Find Videos when there are no jobs', async () => {
    downloadsBackend([]);
    server.use(http.get('/api/sources', () => HttpResponse.json<Schema<'Envelope_Vec_SourceView'>>({ data: [] })));
    const { user, router } = await renderDownloads();
    expect(await screen.findByRole('heading', { name: 'No download jobs yet' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Find Videos' })).toHaveAttribute('href', '/youtube-discovery');
    await user.click(within(main).getByRole('link', { name: 'Go to Sources' }));
    expect(router.state.location.pathname).toBe('/sources');
    expect(await screen.findByText('No sources yet. Add a channel or playlist URL above.')).toBeInTheDocument();
  });

  it("toasts 'Failed to fetch download jobs' (the server's message first) when the list cannot be fetched", async () => {
    server.use(http.get('/api/downloads', () => new HttpResponse(null, { status: 500 })));
    const { user } = await renderDownloads();
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Failed to fetch download jobs');
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Failed to fetch download jobs')));

    server.use(http.get('/api/downloads', () => errorResponse(503, 'Downloads are unavailable')));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Downloads are unavailable')), { timeout: 5000 });
  });
});

describe('/downloads realtime (docs/product-spec.md §4)', () => {
  it('applies downloadProgress events: status, counts, progress, error, current video, startedAt once, completedAt', async () => {
    downloadsBackend([job({ id: 'job-1' }), job({ id: 'job-2', sourceTitle: 'Other' })]);
    const { socket, store } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(2));
    const item = () => jobItem('job-1');

    emit(socket, 'downloadProgress', {
      jobId: 'job-1',
      status: 'PROCESSING',
      processedVideos: 1,
      totalVideos: 3,
      failedVideos: 0,
      progress: 33,
      error: null,
      currentVideo: { videoId: 'v2', title: 'Episode 2', percent: 12 },
    });
    // RTK batches cache patches into the next frame.
    await waitFor(() => expect(item()).toHaveAttribute('data-status', 'PROCESSING'));
    expect(within(item()).getByText('Processing')).toBeInTheDocument();
    expect(within(item()).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    expect(within(item()).getByText('1 of 3 videos')).toBeInTheDocument();
    expect(within(item()).getByTestId('current-video')).toHaveTextContent('Downloading Episode 2');
    expect(within(item()).getByTestId('current-video')).toHaveTextContent('12%');
    const startedAt = cached(store)[0].startedAt;
    expect(startedAt).toEqual(expect.any(String));
    expect(within(item()).getByText(/^Started /)).toBeInTheDocument();
    // The other job is untouched.
    expect(jobItem('job-2')).toHaveAttribute('data-status', 'PENDING');

    await new Promise((resolve) => setTimeout(resolve, 5));
    emit(socket, 'downloadProgress', {
      jobId: 'job-1',
      status: 'PROCESSING',
      processedVideos: 2,
      totalVideos: 3,
      failedVideos: 1,
      progress: 67,
      error: 'v1: Video unavailable',
      currentVideo: { videoId: 'v3', title: 'Episode 3', percent: 80 },
    });
    expect(await within(item()).findByText('2 of 3 videos · 1 failed')).toBeInTheDocument();
    expect(within(item()).getByRole('list', { name: 'Errors of Demo Channel' })).toHaveTextContent('v1: Video unavailable');
    expect(within(item()).getByTestId('current-video')).toHaveTextContent('80%');
    expect(cached(store)[0].startedAt).toBe(startedAt);

    emit(socket, 'downloadProgress', {
      jobId: 'job-1',
      status: 'COMPLETED',
      processedVideos: 3,
      totalVideos: 3,
      failedVideos: 1,
      progress: 100,
      error: 'v1: Video unavailable',
      currentVideo: null,
    });
    await waitFor(() => expect(item()).toHaveAttribute('data-status', 'COMPLETED'));
    expect(within(item()).getByText('Completed', { selector: '.badge' })).toBeInTheDocument();
    expect(within(item()).queryByTestId('current-video')).not.toBeInTheDocument();
    expect(within(item()).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    expect(cached(store)[0].completedAt).toEqual(expect.any(String));
    expect(within(item()).getByText(/^Completed Mar|^Completed [A-Z][a-z]{2} \d{2}/)).toBeInTheDocument();
    expect(screen.getByTestId('active-jobs')).toHaveTextContent('1 active');
  });
});

describe('/downloads realtime (docs/product-spec.md §4): unknown and new jobs', () => {
  it('refetches the list for an event of a job it does not know (started elsewhere)', async () => {
    const backend = downloadsBackend([job()]);
    const { socket } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(1));
    backend.jobs = [job({ id: 'from-elsewhere', sourceTitle: 'Elsewhere' }), ...backend.jobs];
    emit(socket, 'downloadProgress', { jobId: 'from-elsewhere', status: 'PROCESSING', processedVideos: 0, totalVideos: 3, progress: 0 });
    await waitFor(() => expect(jobItems()).toHaveLength(2));
    expect(jobItems()[0]).toHaveAttribute('data-job-id', 'from-elsewhere');
  });

  it('puts a job created meanwhile at the front of the list, as active', async () => {
    downloadsBackend([job({ id: 'old', status: 'COMPLETED', processedVideos: 3, progress: 100 })]);
    server.use(
      http.post('/api/downloads', async ({ request }) => {
        const body = (await request.json()) as { sourceId: string; videoIds: string[] };
        return HttpResponse.json<Schema<'Envelope_DownloadJobView'>>({ data: job({ id: 'new', sourceId: body.sourceId, totalVideos: body.videoIds.length }) }, { status: 201 });
      }),
    );
    const { store } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(1));
    expect(screen.getByTestId('active-jobs')).toHaveTextContent('None active');
    await act(async () => {
      await store.dispatch(downloadsApi.endpoints.createDownloadJob.initiate({ sourceId: 'src-1', videoIds: ['a', 'b'] }));
    });
    await waitFor(() => expect(jobItems().map((item) => item.dataset.jobId)).toEqual(['new', 'old']));
    expect(within(jobItem('new')).getByText('0 of 2 videos')).toBeInTheDocument();
    expect(screen.getByTestId('active-jobs')).toHaveTextContent('1 active');
  });
});

describe('/downloads cancel and retry', () => {
  it("cancels an active job: DELETE, then FAILED with 'Cancelled by user' and Retry instead of Cancel", async () => {
    const backend = downloadsBackend([job({ id: 'job-1', status: 'PROCESSING', processedVideos: 1, progress: 33 })]);
    const { user } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(1));
    await user.click(within(jobItem('job-1')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(jobItem('job-1')).toHaveAttribute('data-status', 'FAILED'));
    expect(backend.cancelled).toEqual(['job-1']);
    expect(within(jobItem('job-1')).getByText('Cancelled by user')).toBeInTheDocument();
    expect(within(jobItem('job-1')).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(within(jobItem('job-1')).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it("marks the job locally even when the server's answer has no body", async () => {
    downloadsBackend([job({ id: 'job-1' })]);
    server.use(http.delete('/api/downloads/:id', () => new HttpResponse(null, { status: 204 })));
    const { user } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(1));
    await user.click(within(jobItem('job-1')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(jobItem('job-1')).toHaveAttribute('data-status', 'FAILED'));
    expect(within(jobItem('job-1')).getByText('Cancelled by user')).toBeInTheDocument();
  });

  it("toasts the server's message when the cancel fails (the job ended), else 'Failed to cancel job', and reloads the list", async () => {
    const backend = downloadsBackend([job({ id: 'job-1', status: 'PROCESSING' })]);
    server.use(
      http.delete('/api/downloads/:id', () =>
        errorResponse(409, 'This download job has already ended'),
      ),
    );
    const { user } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(1));
    const listsBefore = backend.lists;
    await user.click(within(jobItem('job-1')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('This download job has already ended')));
    await waitFor(() => expect(backend.lists).toBeGreaterThan(listsBefore));

    server.use(http.delete('/api/downloads/:id', () => new HttpResponse(null, { status: 500 })));
    await user.click(within(jobItem('job-1')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Failed to cancel job')));
  });

  it("retries a failed job: the server's new job replaces it in place, at progress 0", async () => {
    const backend = downloadsBackend([
      job({ id: 'first', status: 'COMPLETED', processedVideos: 3, progress: 100 }),
      job({ id: 'broken', status: 'FAILED', processedVideos: 3, failedVideos: 1, progress: 100, errorMessage: 'v1: Video unavailable' }),
      job({ id: 'last', status: 'COMPLETED', processedVideos: 3, progress: 100 }),
    ]);
    const { user } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(3));
    await user.click(within(jobItem('broken')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(jobItems().map((item) => item.dataset.jobId)).toEqual(['first', 'broken-retry', 'last']));
    expect(backend.retried).toEqual(['broken']);
    const retried = jobItem('broken-retry');
    expect(retried).toHaveAttribute('data-status', 'PENDING');
    expect(within(retried).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(within(retried).getByText('0 of 1 video')).toBeInTheDocument();
    expect(within(retried).queryByRole('list', { name: /Errors/ })).not.toBeInTheDocument();
    expect(screen.getByTestId('active-jobs')).toHaveTextContent('1 active');
  });

  it("toasts 'Failed to retry job', or the server's message, when the retry fails", async () => {
    downloadsBackend([job({ id: 'broken', status: 'FAILED' })]);
    server.use(http.post('/api/downloads/:id/retry', () => new HttpResponse(null, { status: 500 })));
    const { user } = await renderDownloads();
    await waitFor(() => expect(jobItems()).toHaveLength(1));
    await user.click(within(jobItem('broken')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Failed to retry job')));
    expect(jobItem('broken')).toHaveAttribute('data-status', 'FAILED');

    server.use(
      http.post('/api/downloads/:id/retry', () =>
        errorResponse(409, 'Only a failed job can be retried'),
      ),
    );
    await user.click(within(jobItem('broken')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Only a failed job can be retried')));
  });
});
