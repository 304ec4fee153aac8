import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { installFakeSockets } from '@/testing/fakeSocket';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { server } from '@/testing/server';
import { transcript, vaultBackend } from '@/testing/vaultBackend';
import type { TranscriptionFile } from './transcriptsSlice';

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

function queued(overrides: Partial<Schema<'QueuedFile'>> & { fileId: string }): Schema<'QueuedFile'> {
  return {
    jobId: 'job-1',
    title: overrides.fileId,
    status: 'pending',
    position: 1,
    etaSeconds: 600,
    estimatedStartAt: inMinutes(5),
    estimatedEndAt: inMinutes(10),
    waitsForWindow: false,
    ...overrides,
  };
}

const BASIS: Schema<'QueueBasis'> = { realTimeFactor: 0.5, measuredFiles: 12, workers: 1 };

/** The queue the server answers, and how often it was asked. */
function queueBackend(files: Schema<'QueuedFile'>[]) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/transcription/queue', () => {
      calls.count += 1;
      return HttpResponse.json<Schema<'Envelope_QueueView'>>({ data: { files, basis: BASIS } });
    }),
  );
  return calls;
}

function stored(id: string, title: string, status: TranscriptionFile['status']): TranscriptionFile {
  return {
    id,
    title,
    youtubeVideoId: null,
    mp3Path: `uploads/${id}.mp3`,
    status,
    progress: 0,
    errorMessage: null,
    retryCount: 0,
    maxRetries: 10,
    lastFailedAt: null,
    transcriptPath: null,
    markdownPath: null,
    processingTime: null,
    jobId: 'job-1',
  };
}

const rowFor = (title: string) => {
  const row = screen
    .queryAllByTestId('transcription-row')
    .find((candidate) => within(candidate).queryByText(title, { selector: '.file-title' }));
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};
const etaOf = (title: string) => within(rowFor(title)).queryByTestId('queue-eta')?.textContent?.replace(/\s+/g, ' ') ?? null;

describe('queue estimates on /transcripts', () => {
  it("shows each waiting or running file's place, its estimated start and end, and says it is an estimate", async () => {
    window.sessionStorage.setItem(
      'transcripts',
      JSON.stringify([stored('a', 'Keynote', 'pending'), stored('b', 'Panel', 'pending'), stored('c', 'Night file', 'scheduled'), stored('d', 'Old', 'completed')]),
    );
    queueBackend([
      queued({ fileId: 'a', status: 'transcribing', position: 0, estimatedStartAt: inMinutes(0), estimatedEndAt: inMinutes(3) }),
      queued({ fileId: 'b', position: 3, estimatedStartAt: inMinutes(12), estimatedEndAt: inMinutes(20) }),
      queued({ fileId: 'c', status: 'scheduled', position: 4, waitsForWindow: true, estimatedStartAt: '2099-03-03T01:00:00Z', estimatedEndAt: '2099-03-03T01:05:00Z' }),
    ]);
    renderWithProviders({ route: '/transcripts' });
    await waitFor(() => expect(etaOf('Keynote')).not.toBeNull());
    expect(etaOf('Keynote')).toMatch(/^Running now ≈ done in 3 min, by .+ \(estimate\)$/);
    expect(etaOf('Panel')).toMatch(/^#3 in queue ≈ starts in 12 min · done by .+ \(estimate\)$/);
    expect(etaOf('Night file')).toMatch(/^#4 in queue overnight window opens Mar \d+, \d+:\d\d [AP]M · ≈ done by .+ \(estimate\)$/);
    expect(etaOf('Old')).toBeNull();
    expect(screen.getByTestId('queue-basis')).toHaveTextContent(
      "Times are estimates from this machine's last 12 files: 0.50 s of work per second of audio, one file at a time.",
    );
  });

  it('moves with the socket’s queueUpdate, without asking the server again', async () => {
    const sockets = installFakeSockets();
    window.sessionStorage.setItem('transcripts', JSON.stringify([stored('a', 'Keynote', 'pending'), stored('b', 'Panel', 'pending')]));
    const calls = queueBackend([queued({ fileId: 'a', position: 1 }), queued({ fileId: 'b', position: 2 })]);
    renderWithProviders({ route: '/transcripts' });
    await waitFor(() => expect(etaOf('Panel')).toMatch(/^#2 in queue/));
    await waitFor(() => expect(sockets.sockets).toHaveLength(1));
    const socket = sockets.latest();
    act(() => socket.serverEmit('connect'));

    // Keynote started; Panel is next, in 2 minutes.
    act(() =>
      socket.serverEvent('queueUpdate', {
        files: [
          queued({ fileId: 'a', status: 'transcribing', position: 0, estimatedStartAt: inMinutes(0), estimatedEndAt: inMinutes(2) }),
          queued({ fileId: 'b', position: 1, estimatedStartAt: inMinutes(2), estimatedEndAt: inMinutes(7) }),
        ],
        basis: BASIS,
      }),
    );
    await waitFor(() => expect(etaOf('Panel')).toMatch(/^#1 in queue ≈ starts in 2 min/));
    expect(etaOf('Keynote')).toMatch(/^Running now ≈ done in 2 min/);

    // Keynote left the queue: its line goes.
    act(() => socket.serverEvent('queueUpdate', { files: [queued({ fileId: 'b', status: 'transcribing', position: 0 })], basis: BASIS }));
    await waitFor(() => expect(etaOf('Keynote')).toBeNull());
    expect(etaOf('Panel')).toMatch(/^Running now/);
    expect(calls.count).toBe(1);
  });
});

describe("the Vault's processing items", () => {
  it('lists the files on their way in with their estimates and follows queueUpdate', async () => {
    const sockets = installFakeSockets();
    vaultBackend([transcript('t1', 'Welcome talk')]);
    queueBackend([queued({ fileId: 'x', title: 'Lecture 7', position: 2, estimatedStartAt: inMinutes(30), estimatedEndAt: inMinutes(45) })]);
    renderWithProviders({ route: '/vault' });
    const panel = await screen.findByTestId('vault-processing');
    expect(within(panel).getByRole('heading', { name: /Processing/ })).toHaveTextContent('Processing 1');
    const item = within(panel).getByTestId('processing-item');
    expect(item).toHaveTextContent('Lecture 7');
    expect(item).toHaveTextContent('Waiting');
    expect(within(item).getByTestId('queue-eta').textContent?.replace(/\s+/g, ' ')).toMatch(/^#2 in queue ≈ starts in 30 min · done by .+ \(estimate\)$/);

    await waitFor(() => expect(sockets.sockets).toHaveLength(1));
    act(() => sockets.latest().serverEmit('connect'));
    act(() => sockets.latest().serverEvent('queueUpdate', { files: [], basis: BASIS }));
    await waitFor(() => expect(screen.queryByTestId('vault-processing')).toBeNull());
  });
});
