import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { installFakeSockets, type FakeSocket } from '@/testing/fakeSocket';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';
import type { TranscriptionFile } from './transcriptsSlice';

interface StartBody {
  files: Array<{ id: string; mp3Path: string; title: string }>;
  model: string;
  outputFormat: string;
  startTime?: string;
  endTime?: string;
}

function handOver(titles: string[]) {
  window.sessionStorage.setItem(
    'mp3Files',
    JSON.stringify(titles.map((title) => ({ title, mp3Path: `uploads/${title}.mp3` }))),
  );
}

function storedFile(overrides: Partial<TranscriptionFile> & { id: string; title: string }): TranscriptionFile {
  return {
    youtubeVideoId: null,
    mp3Path: `uploads/${overrides.title}.mp3`,
    status: 'pending',
    progress: 0,
    errorMessage: null,
    retryCount: 0,
    maxRetries: 10,
    lastFailedAt: null,
    transcriptPath: null,
    markdownPath: null,
    processingTime: null,
    jobId: null,
    ...overrides,
  };
}

/** A file as the transcription API answers it (retry, cancel). */
function fileView(overrides: Partial<Schema<'FileView'>> & { id: string }): Schema<'FileView'> {
  return {
    jobId: 'job-1',
    youtubeVideoId: '',
    title: overrides.id,
    mp3Path: `uploads/${overrides.id}.mp3`,
    status: 'pending',
    progress: 0,
    retryCount: 0,
    maxRetries: 10,
    ...overrides,
  };
}

/** A Vault item made from a transcript (the path lookups of the rows' Vault links). */
function vaultItem(id: string, title: string): Schema<'TranscriptView'> {
  return { id, title, author: '', createdAt: '2024-01-05T10:00:00Z', isStarred: false, needsReview: false, sourceType: 'AUDIO', tags: [] };
}

const vaultPage = (data: Schema<'TranscriptView'>[]) =>
  HttpResponse.json<Schema<'TranscriptPage'>>({ data, meta: { page: 1, limit: 1, total: data.length, hasMore: false } });

function seed(files: TranscriptionFile[]) {
  window.sessionStorage.setItem('transcripts', JSON.stringify(files));
}

async function renderTranscripts() {
  const sockets = installFakeSockets();
  const view = renderWithProviders({ route: '/transcripts' });
  await screen.findByRole('heading', { name: 'Create Transcripts' });
  await waitFor(() => expect(sockets.sockets).toHaveLength(1));
  const socket = sockets.latest();
  return { ...view, socket };
}

function connect(socket: FakeSocket) {
  act(() => socket.serverEmit('connect'));
}

const rows = () => screen.queryAllByTestId('transcription-row');
const rowFor = (title: string) => {
  const row = rows().find((candidate) => within(candidate).queryByText(title, { selector: '.file-title' }));
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};
const counter = (name: string) => screen.getByTestId(`counter-${name}`).textContent;

function startHandler(jobId = 'job-1', seen?: StartBody[]) {
  return http.post('/api/transcription/start', async ({ request }) => {
    seen?.push((await request.json()) as StartBody);
    return HttpResponse.json<Schema<'Envelope_StartedView'>>({ data: { jobId, files: [] } });
  });
}

describe('/transcripts defaults and settings', () => {
  it('shows the counters, the options with their defaults and a disabled Start', async () => {
    await renderTranscripts();
    expect(counter('total')).toBe('0');
    expect(counter('pending')).toBe('0');
    expect(counter('completed')).toBe('0');
    expect(counter('failed')).toBe('0');
    const model = screen.getByLabelText('Speech model');
    expect(within(model).getAllByRole('option').map((option) => option.textContent)).toEqual(['Small (Fast)']);
    expect(screen.getByLabelText('Output as Markdown')).toBeChecked();
    expect(screen.getByLabelText('Schedule Overnight (1AM - 6AM)')).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Retry Failed (0)' })).toBeInTheDocument();
  });

  it('persists the settings in localStorage and reads them back', async () => {
    window.localStorage.setItem('transcriptionSettings', JSON.stringify({ outputAsMarkdown: false }));
    const { user } = await renderTranscripts();
    expect(screen.getByLabelText('Output as Markdown')).not.toBeChecked();
    await user.click(screen.getByLabelText('Schedule Overnight (1AM - 6AM)'));
    expect(screen.getByRole('button', { name: 'Schedule Transcription' })).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('transcriptionSettings')!)).toEqual({
      whisperModel: 'small',
      scheduleOvernight: true,
      outputAsMarkdown: false,
    });
  });
});

describe('/transcripts files from other screens', () => {
  it('takes the mp3Files hand-off from session storage', async () => {
    handOver(['One', 'Two']);
    await renderTranscripts();
    expect(await screen.findAllByTestId('transcription-row')).toHaveLength(2);
    expect(within(rowFor('One')).getByText('Pending')).toBeInTheDocument();
    expect(counter('total')).toBe('2');
    expect(counter('pending')).toBe('2');
    expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeEnabled();
    expect(window.sessionStorage.getItem('mp3Files')).toBeNull();
    const stored = JSON.parse(window.sessionStorage.getItem('transcripts')!) as TranscriptionFile[];
    expect(stored.map((file) => file.title)).toEqual(['One', 'Two']);
  });

  it('takes videosToTranscribe and looks up their MP3s', async () => {
    let asked = '';
    server.use(
      http.get('/api/video-mp3/status', ({ request }) => {
        asked = new URL(request.url).searchParams.get('videoIds') ?? '';
        return HttpResponse.json<Schema<'Envelope_BTreeMap_String_Mp3StatusView'>>({
          data: { vid1: { hasMp3: true, mp3FilePath: 'mp3/vid1.mp3' }, vid2: { hasMp3: false, mp3FilePath: null } },
        });
      }),
    );
    window.sessionStorage.setItem(
      'videosToTranscribe',
      JSON.stringify([
        { youtubeVideoId: 'vid1', title: 'Video One' },
        { youtubeVideoId: 'vid2', title: 'Video Two' },
      ]),
    );
    await renderTranscripts();
    expect(await screen.findByText('Video One')).toBeInTheDocument();
    expect(asked).toBe('vid1,vid2');
    expect(rows()).toHaveLength(1);
    expect(window.sessionStorage.getItem('videosToTranscribe')).toBeNull();
  });

  it('reports a failed discovery hand-off', async () => {
    server.use(http.get('/api/video-mp3/status', () => errorResponse(400, 'boom')));
    window.sessionStorage.setItem('videosToTranscribe', JSON.stringify([{ youtubeVideoId: 'vid1', title: 'Video One' }]));
    await renderTranscripts();
    expect(await screen.findByText('Failed to load MP3 files from YouTube discovery')).toBeInTheDocument();
  });

  it('loads manual uploads, skipping files already listed', async () => {
    server.use(
      http.get('/api/video-mp3/manual-uploads', () =>
        HttpResponse.json<Schema<'Envelope_ManualUploadsView'>>({
          data: {
            videos: [
              { youtubeVideoId: 'manual-1', title: 'Manual One', mp3FilePath: 'uploads/Manual One.mp3', size: 1024, uploadedAt: '2024-01-05T10:00:00Z' },
              { youtubeVideoId: 'manual-2', title: 'Already', mp3FilePath: 'uploads/Already.mp3', size: 2048, uploadedAt: '2024-01-05T10:00:00Z' },
            ],
          },
        }),
      ),
    );
    handOver(['Already']);
    const { user } = await renderTranscripts();
    await screen.findByText('Already');
    await user.click(screen.getByRole('button', { name: 'Load Manual Uploads' }));
    expect(await screen.findByText('Manual One')).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
    expect(screen.getByText('1 file added.')).toBeInTheDocument();
  });

  it("says 'No manual uploads found' and shows load failures", async () => {
    server.use(http.get('/api/video-mp3/manual-uploads', () => HttpResponse.json<Schema<'Envelope_ManualUploadsView'>>({ data: { videos: [] } })));
    const { user } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Load Manual Uploads' }));
    expect(await screen.findByText('No manual uploads found')).toBeInTheDocument();

    server.use(http.get('/api/video-mp3/manual-uploads', () => new HttpResponse(null, { status: 404 })));
    await user.click(screen.getByRole('button', { name: 'Load Manual Uploads' }));
    expect(await screen.findByText('Failed to load manual uploads')).toBeInTheDocument();
  });
});

describe('/transcripts running a job', () => {
  it('starts the pending files with model and output format, and warns when the socket is down', async () => {
    const seen: StartBody[] = [];
    server.use(startHandler('job-1', seen));
    handOver(['A', 'B']);
    const { user } = await renderTranscripts();
    await screen.findByText('B');
    await user.click(screen.getByLabelText('Output as Markdown'));
    await user.click(screen.getByRole('button', { name: 'Start Transcription' }));
    expect(await screen.findByText('WebSocket not connected yet. Progress updates may be delayed.')).toBeInTheDocument();
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({
      files: [
        { id: expect.any(String), mp3Path: 'uploads/A.mp3', title: 'A' },
        { id: expect.any(String), mp3Path: 'uploads/B.mp3', title: 'B' },
      ],
      model: 'small',
      outputFormat: 'txt',
    });
    expect(within(rowFor('A')).getByText('Processing')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeDisabled();
  });

  it('follows progress, completion and errors from the socket until all are done', async () => {
    const seen: StartBody[] = [];
    const lookups: string[] = [];
    server.use(
      startHandler('job-7', seen),
      http.get('/api/library/transcripts', ({ request }) => {
        const params = new URL(request.url).searchParams;
        lookups.push(params.toString());
        return vaultPage(params.get('path') === 't/a.txt' ? [vaultItem('vault-a', 'A')] : []);
      }),
    );
    handOver(['A', 'B']);
    const { user, socket } = await renderTranscripts();
    connect(socket);
    await screen.findByText('B');
    await user.click(screen.getByRole('button', { name: 'Start Transcription' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(screen.queryByText('WebSocket not connected yet. Progress updates may be delayed.')).not.toBeInTheDocument();
    const [a, b] = seen[0].files;

    act(() => socket.serverEvent('transcriptionProgress', { fileId: a.id, jobId: 'job-7', progress: 42 }));
    expect(within(rowFor('A')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
    expect(within(rowFor('A')).getByText('Processing')).toBeInTheDocument();

    act(() =>
      socket.serverEvent('transcriptionComplete', {
        fileId: a.id,
        jobId: 'job-7',
        transcriptPath: 't/a.txt',
        markdownPath: 't/a.md',
        processingTime: 12_300,
      }),
    );
    expect(within(rowFor('A')).getByText('Completed')).toBeInTheDocument();
    expect(within(rowFor('A')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    // The Vault link goes by the row's transcript path to the library item's id.
    await waitFor(() => expect(within(rowFor('A')).getByRole('link', { name: 'Vault' })).toHaveAttribute('href', '/vault?item=vault-a'));
    expect(lookups).toEqual(['path=t%2Fa.txt&limit=1']);
    expect(within(rowFor('A')).getByText('Processed in 12.3s')).toBeInTheDocument();
    expect(screen.queryByText('All transcriptions completed!')).not.toBeInTheDocument();

    act(() =>
      socket.serverEvent('transcriptionError', {
        fileId: b.id,
        jobId: 'job-7',
        error: 'Audio could not be decoded',
        status: 'failed',
        retryCount: 10,
        maxRetries: 10,
        lastFailedAt: '2024-01-05T10:00:00Z',
      }),
    );
    expect(within(rowFor('B')).getByText('Failed')).toBeInTheDocument();
    expect(within(rowFor('B')).getByText('Audio could not be decoded')).toBeInTheDocument();
    expect(within(rowFor('B')).getByText(/Retries: 10\/10/)).toBeInTheDocument();
    expect(await screen.findByText('All transcriptions completed!')).toBeInTheDocument();
    expect(counter('completed')).toBe('1');
    expect(counter('failed')).toBe('1');
    expect(screen.getByRole('button', { name: 'Retry Failed (1)' })).toBeInTheDocument();
  });
});

describe('/transcripts running a job: failures, overnight and single rows', () => {
  it("uses status 'error' when an error event names none", async () => {
    const seen: StartBody[] = [];
    server.use(startHandler('job-1', seen));
    handOver(['A']);
    const { user, socket } = await renderTranscripts();
    connect(socket);
    await user.click(await screen.findByRole('button', { name: 'Start Transcription' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    act(() =>
      socket.serverEvent('transcriptionError', { fileId: seen[0].files[0].id, jobId: 'job-1', errorMessage: 'Whisper crashed', status: 'error', retryCount: 0, maxRetries: 10 }),
    );
    expect(within(rowFor('A')).getByText('Error')).toBeInTheDocument();
    expect(within(rowFor('A')).getByText('Whisper crashed')).toBeInTheDocument();
    expect(within(rowFor('A')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  });

  it('shows a start failure and puts the files back to pending', async () => {
    server.use(
      http.post('/api/transcription/start', () =>
        errorResponse(503, 'Model small is not installed', 'UNAVAILABLE'),
      ),
    );
    handOver(['A']);
    const { user } = await renderTranscripts();
    await user.click(await screen.findByRole('button', { name: 'Start Transcription' }));
    expect(await screen.findByText('Model small is not installed')).toBeInTheDocument();
    expect(within(rowFor('A')).getByText('Pending')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeEnabled();
  });

  it("falls back to 'Failed to start transcription'", async () => {
    server.use(http.post('/api/transcription/start', () => new HttpResponse('nope', { status: 400 })));
    handOver(['A']);
    const { user } = await renderTranscripts();
    await user.click(await screen.findByRole('button', { name: 'Start Transcription' }));
    expect(await screen.findByText('Failed to start transcription')).toBeInTheDocument();
  });

  it('schedules overnight: sends the 01:00-06:00 window and marks the files scheduled', async () => {
    const seen: StartBody[] = [];
    server.use(
      http.post('/api/transcription/schedule', async ({ request }) => {
        seen.push((await request.json()) as StartBody);
        return HttpResponse.json<Schema<'Envelope_StartedView'>>({ data: { jobId: 'night-1', files: [] } });
      }),
    );
    handOver(['A', 'B']);
    const { user } = await renderTranscripts();
    await screen.findByText('B');
    await user.click(screen.getByLabelText('Schedule Overnight (1AM - 6AM)'));
    await user.click(screen.getByRole('button', { name: 'Schedule Transcription' }));
    await waitFor(() => expect(within(rowFor('B')).getByText('Scheduled')).toBeInTheDocument());
    expect(within(rowFor('A')).getByText('Scheduled')).toBeInTheDocument();
    expect(seen[0]).toMatchObject({ model: 'small', outputFormat: 'markdown', startTime: '01:00', endTime: '06:00' });
    expect(seen[0].files).toHaveLength(2);
  });

  it('starts a single row', async () => {
    const seen: StartBody[] = [];
    server.use(startHandler('job-1', seen));
    handOver(['A', 'B']);
    const { user } = await renderTranscripts();
    await user.click(within(await waitFor(() => rowFor('B'))).getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0].files.map((file) => file.title)).toEqual(['B']);
    expect(within(rowFor('A')).getByText('Pending')).toBeInTheDocument();
    expect(within(rowFor('B')).getByText('Processing')).toBeInTheDocument();
  });
});

describe('/transcripts retry, cancel and stop', () => {
  it("says 'No failed files to retry'", async () => {
    const { user } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Retry Failed (0)' }));
    expect(await screen.findByText('No failed files to retry')).toBeInTheDocument();
  });

  it('retries failed files on their job (retrying) or with a fresh start', async () => {
    const retried: unknown[] = [];
    const started: StartBody[] = [];
    seed([
      storedFile({ id: 'f1', title: 'OnJob', status: 'error', jobId: 'job-1', errorMessage: 'x' }),
      storedFile({ id: 'f2', title: 'NoJob', status: 'failed', errorMessage: 'y' }),
      storedFile({ id: 'f3', title: 'Fine', status: 'completed', progress: 100, jobId: 'job-1' }),
    ]);
    server.use(
      http.post('/api/transcription/retry', async ({ request }) => {
        retried.push(await request.json());
        return HttpResponse.json<Schema<'Envelope_FileView'>>({ data: fileView({ id: 'f1', status: 'retrying', retryCount: 1 }) });
      }),
      startHandler('job-2', started),
    );
    const { user } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Retry Failed (2)' }));
    await waitFor(() => expect(within(rowFor('OnJob')).getByText('Retrying')).toBeInTheDocument());
    expect(retried).toEqual([{ fileId: 'f1', jobId: 'job-1' }]);
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0].files).toEqual([{ id: 'f2', mp3Path: 'uploads/NoJob.mp3', title: 'NoJob' }]);
    expect(within(rowFor('NoJob')).getByText('Processing')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry Failed (0)' })).toBeInTheDocument();
  });

  it('retries a row through a fresh start when the retry call fails', async () => {
    const started: StartBody[] = [];
    seed([storedFile({ id: 'f1', title: 'A', status: 'error', jobId: 'old-job' })]);
    server.use(
      http.post('/api/transcription/retry', () => errorResponse(404, 'job gone')),
      startHandler('job-9', started),
    );
    const { user } = await renderTranscripts();
    await user.click(within(rowFor('A')).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0].files[0].id).toBe('f1');
    expect(within(rowFor('A')).getByText('Processing')).toBeInTheDocument();
  });

  it("shows 'Failed to retry' when the fresh start fails too", async () => {
    seed([storedFile({ id: 'f1', title: 'A', status: 'error' })]);
    server.use(http.post('/api/transcription/start', () => new HttpResponse(null, { status: 400 })));
    const { user } = await renderTranscripts();
    await user.click(within(rowFor('A')).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Failed to retry')).toBeInTheDocument();
  });
});

describe('/transcripts retry, cancel and stop: cancelling and Stop All', () => {
  it('cancels a running row', async () => {
    const started: StartBody[] = [];
    let cancelBody: unknown;
    server.use(
      startHandler('job-1', started),
      http.post('/api/transcription/cancel', async ({ request }) => {
        cancelBody = await request.json();
        return HttpResponse.json<Schema<'Envelope_FileView'>>({ data: fileView({ id: started[0].files[0].id, status: 'error', errorMessage: 'Cancelled by user' }) });
      }),
    );
    handOver(['A']);
    const { user, socket } = await renderTranscripts();
    connect(socket);
    await user.click(await screen.findByRole('button', { name: 'Start Transcription' }));
    await waitFor(() => expect(started).toHaveLength(1));
    await user.click(within(rowFor('A')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(rowFor('A')).getByText('Error')).toBeInTheDocument());
    expect(within(rowFor('A')).getByText('Cancelled by user')).toBeInTheDocument();
    expect(cancelBody).toEqual({ fileId: started[0].files[0].id, jobId: 'job-1' });
  });

  it("shows 'No active job for this file' and cancel failures", async () => {
    seed([
      storedFile({ id: 'f1', title: 'NoJob', status: 'scheduled' }),
      storedFile({ id: 'f2', title: 'OnJob', status: 'scheduled', jobId: 'job-3' }),
    ]);
    server.use(http.post('/api/transcription/cancel', () => new HttpResponse(null, { status: 500 })));
    const { user } = await renderTranscripts();
    await user.click(within(rowFor('NoJob')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('No active job for this file')).toBeInTheDocument();
    await user.click(within(rowFor('OnJob')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Failed to cancel transcription')).toBeInTheDocument();
  });

  it('Stop All cancels the running files and clears the jobs after 0.5 s', async () => {
    const started: StartBody[] = [];
    const cancelled: unknown[] = [];
    server.use(
      startHandler('job-1', started),
      http.post('/api/transcription/cancel', async ({ request }) => {
        cancelled.push(await request.json());
        return HttpResponse.json<Schema<'Envelope_FileView'>>({ data: fileView({ id: 'cancelled', status: 'error' }) });
      }),
    );
    handOver(['A', 'B']);
    const { user, socket } = await renderTranscripts();
    connect(socket);
    await screen.findByText('B');
    await user.click(screen.getByRole('button', { name: 'Start Transcription' }));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Stop All' })).toBeEnabled();

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Stop All' }));
      act(() => {
        vi.advanceTimersByTime(499);
      });
      expect(within(rowFor('A')).getByText('Processing')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeDisabled();
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(within(rowFor('A')).getByText('Pending')).toBeInTheDocument();
      expect(within(rowFor('B')).getByText('Pending')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(cancelled).toHaveLength(2));
    expect(cancelled).toEqual(
      expect.arrayContaining([
        { fileId: started[0].files[0].id, jobId: 'job-1' },
        { fileId: started[0].files[1].id, jobId: 'job-1' },
      ]),
    );
  });
});

describe('/transcripts housekeeping', () => {
  it("marks files that were running before a reload as failed with 'Process interrupted'", async () => {
    seed([
      storedFile({ id: 'f1', title: 'Was running', status: 'transcribing', progress: 55, jobId: 'job-1' }),
      storedFile({ id: 'f2', title: 'Was retrying', status: 'retrying', jobId: 'job-1' }),
      storedFile({ id: 'f3', title: 'Done', status: 'completed', progress: 100, jobId: 'job-1' }),
    ]);
    await renderTranscripts();
    expect(within(rowFor('Was running')).getByText('Failed')).toBeInTheDocument();
    expect(within(rowFor('Was running')).getByText('Process interrupted')).toBeInTheDocument();
    expect(within(rowFor('Was running')).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(within(rowFor('Was retrying')).getByText('Process interrupted')).toBeInTheDocument();
    expect(within(rowFor('Done')).getByText('Completed')).toBeInTheDocument();
    expect(counter('failed')).toBe('2');
    expect(screen.getByRole('button', { name: 'Retry Failed (2)' })).toBeInTheDocument();
  });

  it('clears completed rows, resets stuck ones and removes a row after confirmation', async () => {
    seed([
      storedFile({ id: 'f1', title: 'Done', status: 'completed', progress: 100 }),
      storedFile({ id: 'f2', title: 'Waiting', status: 'pending' }),
      storedFile({ id: 'f3', title: 'Broken', status: 'error', errorMessage: 'bad' }),
    ]);
    const { user } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Clear Completed' }));
    expect(screen.queryByText('Done')).not.toBeInTheDocument();
    expect(rows()).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Remove Broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(JSON.parse(window.sessionStorage.getItem('transcripts')!)).toHaveLength(1);
  });

  it('Reset Stuck puts running files back to pending', async () => {
    const started: StartBody[] = [];
    server.use(startHandler('job-1', started));
    handOver(['A']);
    const { user } = await renderTranscripts();
    await user.click(await screen.findByRole('button', { name: 'Start Transcription' }));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(within(rowFor('A')).getByText('Processing')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset Stuck' }));
    expect(within(rowFor('A')).getByText('Pending')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Transcription' })).toBeEnabled();
  });

  it('shows and hides the retry history of the jobs', async () => {
    seed([storedFile({ id: 'f1', title: 'A', status: 'error', jobId: 'job-5', retryCount: 2 })]);
    server.use(
      http.get('/api/transcription/history/job-5', () =>
        HttpResponse.json<Schema<'Envelope_Vec_HistoryEntryView'>>({
          data: [{ id: 'f1', title: 'A (history)', retryCount: 2, maxRetries: 10, lastFailedAt: '2024-01-05T10:00:00Z' }],
        }),
      ),
    );
    const { user } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Show History' }));
    expect(await screen.findByText('A (history)')).toBeInTheDocument();
    expect(screen.getAllByText('Retries: 2/10 · last failed Jan 05, 2024').length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Hide History' }));
    expect(screen.queryByText('A (history)')).not.toBeInTheDocument();
  });
});

describe('/transcripts failure messages', () => {
  it("shows 'Failed to schedule transcription'", async () => {
    server.use(http.post('/api/transcription/schedule', () => new HttpResponse(null, { status: 400 })));
    handOver(['A']);
    const { user } = await renderTranscripts();
    await waitFor(() => rowFor('A'));
    await user.click(screen.getByLabelText('Schedule Overnight (1AM - 6AM)'));
    await user.click(screen.getByRole('button', { name: 'Schedule Transcription' }));
    expect(await screen.findByText('Failed to schedule transcription')).toBeInTheDocument();
    expect(within(rowFor('A')).getByText('Pending')).toBeInTheDocument();
  });

  it("shows 'Failed to retry files' when Retry Failed cannot start them", async () => {
    seed([storedFile({ id: 'f1', title: 'A', status: 'failed' }), storedFile({ id: 'f2', title: 'B', status: 'error' })]);
    server.use(http.post('/api/transcription/start', () => new HttpResponse(null, { status: 400 })));
    const { user } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Retry Failed (2)' }));
    expect(await screen.findByText('Failed to retry files')).toBeInTheDocument();
  });

  it("shows 'Error cancelling transcription' when the cancel call cannot reach the server", async () => {
    seed([storedFile({ id: 'f1', title: 'A', status: 'scheduled', jobId: 'job-1' })]);
    server.use(http.post('/api/transcription/cancel', () => HttpResponse.error()));
    const { user } = await renderTranscripts();
    await user.click(within(rowFor('A')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Error cancelling transcription')).toBeInTheDocument();
  });

  it("shows 'Failed to stop all transcriptions' when a cancel fails", async () => {
    const started: StartBody[] = [];
    server.use(startHandler('job-1', started), http.post('/api/transcription/cancel', () => new HttpResponse(null, { status: 500 })));
    handOver(['A']);
    const { user, socket } = await renderTranscripts();
    connect(socket);
    await user.click(await screen.findByRole('button', { name: 'Start Transcription' }));
    await waitFor(() => expect(started).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Stop All' }));
    expect(await screen.findByText('Failed to stop all transcriptions')).toBeInTheDocument();
    await waitFor(() => expect(within(rowFor('A')).getByText('Pending')).toBeInTheDocument());
  });
});

describe('/transcripts Vault link', () => {
  it('links to the Vault until the library has the item, then to /vault?item=<id>; a libraryUpdate asks again', async () => {
    seed([storedFile({ id: 'f1', title: 'Done', status: 'completed', progress: 100, transcriptPath: 'transcripts/f1.txt' })]);
    let known = false;
    const lookups: Array<string | null> = [];
    server.use(
      http.get('/api/library/transcripts', ({ request }) => {
        const params = new URL(request.url).searchParams;
        lookups.push(params.get('path'));
        return vaultPage(known ? [vaultItem('item-9', 'Done')] : []);
      }),
    );
    const { socket, user, router } = await renderTranscripts();
    connect(socket);
    await waitFor(() => expect(lookups).toEqual(['transcripts/f1.txt']));
    expect(within(rowFor('Done')).getByRole('link', { name: 'Vault' })).toHaveAttribute('href', '/vault');

    known = true;
    act(() => socket.serverEvent('libraryUpdate', { type: 'created', transcript: { id: 'item-9', title: 'Done' } }));
    await waitFor(() => expect(within(rowFor('Done')).getByRole('link', { name: 'Vault' })).toHaveAttribute('href', '/vault?item=item-9'));
    server.use(
      http.get('/api/library/transcripts/item-9', () => HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: { id: 'item-9', title: 'Done', tags: [], rating: null, isStarred: false, gwthLevel: null, sectionId: null, author: '', createdAt: '2024-01-05T10:00:00Z', lastExported: null, sourceType: 'AUDIO', duration: 7, needsReview: false } })),
      http.get('/api/library/transcripts/item-9/content', () => HttpResponse.json<Schema<'Envelope_ContentView'>>({ data: { content: 'Done text' } })),
      http.get('/api/library/transcripts/item-9/suggestions', () => HttpResponse.json<Schema<'Envelope_SuggestionsView'>>({ data: { suggestedTags: [], suggestedRating: 3 } })),
      http.get('/api/library/stats', () =>
        HttpResponse.json<Schema<'Envelope_LibraryStats'>>({
          data: {
            totalTranscripts: 1,
            totalDuration: 7,
            storageUsed: 10,
            avgRating: 0,
            thisMonth: 1,
            export: { totalExported: 0, topRatedCount: 0, byGwthLevel: {}, bySourceType: {} },
            distributions: { rating: {}, gwthLevel: {}, sourceType: {} },
          },
        }),
      ),
      http.get('/api/library/tags', () => HttpResponse.json<Schema<'Envelope_Vec_TagView'>>({ data: [] })),
      http.get('/api/library/syllabus-sections', () => HttpResponse.json<Schema<'Envelope_Vec_SectionView'>>({ data: [] })),
    );
    await user.click(within(rowFor('Done')).getByRole('link', { name: 'Vault' }));
    expect(router.state.location.pathname).toBe('/vault');
    const dialog = await screen.findByRole('dialog', { name: 'Done' });
    expect(await within(dialog).findByText('Done text')).toBeInTheDocument();
  });
});

describe('/transcripts → /convert-pdf', () => {
  it("offers 'Convert to Markdown' once a row is completed and hands the list over", async () => {
    seed([
      storedFile({ id: 'done', title: 'Finished talk', status: 'completed', progress: 100, transcriptPath: 'transcripts/done.txt' }),
      storedFile({ id: 'todo', title: 'Waiting talk' }),
    ]);
    server.use(http.get('/api/convert/templates', () => HttpResponse.json<Schema<'Envelope_Vec_TemplateView'>>({ data: [] })));
    const { user, router } = await renderTranscripts();
    await user.click(screen.getByRole('button', { name: 'Convert to Markdown (1)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/convert-pdf'));
    const rows = await screen.findAllByTestId('conversion-row');
    expect(rows.map((row) => row.querySelector('.file-title')?.textContent?.trim())).toEqual(['Finished talk']);
  });
});
