import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { realtimeEventReceived } from '@/api/realtimeSlice';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import { STATS, transcript } from '@/testing/vaultBackend';
import type { LibraryTranscript } from './libraryApi';

type Job = Schema<'TranscriptionJobView'>;
type File = Schema<'FileView'>;

const FILE: File = {
  id: 'whisper-c1',
  jobId: 'job-9',
  youtubeVideoId: '',
  title: 'Captioned talk',
  mp3Path: 'uploads/c1.mp3',
  status: 'pending',
  progress: 0,
  errorMessage: null,
  retryCount: 0,
  maxRetries: 3,
  lastFailedAt: null,
  transcriptPath: null,
  markdownPath: null,
  processingTime: null,
};

/**
 * One AUDIO item made from captions, its Whisper run (POST …/whisper makes `job`), and the
 * run's job as GET /api/transcription/jobs/{id} answers it.
 */
function backend(initial: Partial<LibraryTranscript>, options: { startFails?: boolean } = {}) {
  const state = {
    item: transcript('c1', 'Captioned talk', { transcriptSource: 'captions:auto', whisperJobId: null, ...initial }),
    job: { id: 'job-9', status: 'active', model: 'small', outputFormat: 'markdown', createdAt: '2026-01-01T00:00:00Z', files: [FILE] } as Job,
    starts: 0,
  };
  server.use(
    http.get('/api/library/transcripts', () =>
      HttpResponse.json<Schema<'TranscriptPage'>>({ data: [state.item], meta: { page: 1, limit: 20, total: 1, hasMore: false } }),
    ),
    http.get('/api/library/transcripts/:id', () => HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: state.item })),
    http.get('/api/library/transcripts/:id/content', () =>
      HttpResponse.json<Schema<'Envelope_ContentView'>>({ data: { content: 'today we are going to be talking' } }),
    ),
    http.get('/api/library/transcripts/:id/suggestions', () =>
      HttpResponse.json<Schema<'Envelope_SuggestionsView'>>({ data: { suggestedTags: [], suggestedRating: 3 } }),
    ),
    http.get('/api/library/transcripts/:id/audio-link', () =>
      HttpResponse.json<Schema<'Envelope_AudioLinkView'>>({ data: { url: '/api/library/audio/c1?expires=1&signature=s', expiresAt: '2100-01-01T00:00:00Z' } }),
    ),
    http.get('/api/library/transcripts/:id/segments', () => HttpResponse.json<Schema<'Envelope_SegmentsView'>>({ data: { segments: [] } })),
    http.get('/api/library/stats', () => HttpResponse.json<Schema<'Envelope_LibraryStats'>>({ data: STATS })),
    http.get('/api/library/syllabus-sections', () => HttpResponse.json<Schema<'Envelope_Vec_SectionView'>>({ data: [] })),
    http.get('/api/library/tags', () => HttpResponse.json<Schema<'Envelope_Vec_TagView'>>({ data: [] })),
    http.post('/api/library/transcripts/:id/whisper', () => {
      state.starts += 1;
      if (options.startFails) return errorResponse(409, 'This transcript is already Whisper\u2019s');
      state.item = { ...state.item, whisperJobId: state.job.id };
      return HttpResponse.json<Schema<'Envelope_WhisperRunView'>>(
        { data: { jobId: state.job.id, fileId: FILE.id, transcript: state.item } },
        { status: 202 },
      );
    }),
    http.get('/api/transcription/jobs/:id', () => HttpResponse.json<Schema<'Envelope_TranscriptionJobView'>>({ data: state.job })),
  );
  return state;
}

async function openItem() {
  const view = renderWithProviders({ route: '/vault?item=c1' });
  const panel = await screen.findByTestId('transcript-source');
  return { ...view, panel };
}

describe("an item's transcript source", () => {
  it("shows captions as the source and starts 'Transcribe with Whisper', then follows the run on the socket", async () => {
    const state = backend({});
    const { user, panel, store } = await openItem();
    expect(within(panel).getByTestId('transcript-source-badge')).toHaveTextContent('YouTube automatic captions');
    expect(within(panel).getByText(/no punctuation/)).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Transcribe with Whisper' }));
    expect(await within(panel).findByText('Waiting for Whisper...')).toBeInTheDocument();
    expect(state.starts).toBe(1);
    expect(within(panel).queryByRole('button', { name: 'Transcribe with Whisper' })).not.toBeInTheDocument();

    act(() => {
      store.dispatch(
        realtimeEventReceived({ type: 'transcriptionProgress', data: { jobId: 'job-9', fileId: FILE.id, progress: 40, status: 'transcribing' } }),
      );
    });
    expect(await within(panel).findByText('Whisper is transcribing: 40%')).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar', { name: 'Whisper progress' })).toHaveAttribute('value', '40');

    // The replacement lands: the item's source is Whisper's and it waits for nothing.
    state.item = { ...state.item, transcriptSource: 'whisper', whisperJobId: null };
    act(() => {
      store.dispatch(realtimeEventReceived({ type: 'libraryUpdate', data: { type: 'updated', transcript: { id: 'c1', title: 'Captioned talk' } } }));
    });
    await waitFor(() => expect(within(panel).getByTestId('transcript-source-badge')).toHaveTextContent('Whisper'));
    expect(within(panel).queryByRole('status')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows a running run after a reload, and a failed one with its reason and Try again', async () => {
    const state = backend({ transcriptSource: 'captions:uploader', whisperJobId: 'job-9' });
    state.job = { ...state.job, status: 'finished', files: [{ ...FILE, status: 'failed', errorMessage: 'The model small is not installed' }] };
    const { user, panel } = await openItem();
    expect(within(panel).getByTestId('transcript-source-badge')).toHaveTextContent("YouTube captions (the channel's)");
    expect(await within(panel).findByText('Whisper failed: The model small is not installed')).toBeInTheDocument();
    state.job = { ...state.job, status: 'active', files: [FILE] };
    await user.click(within(panel).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(state.starts).toBe(1));
  });

  it('says why a run could not start', async () => {
    backend({}, { startFails: true });
    const { user, panel } = await openItem();
    await user.click(within(panel).getByRole('button', { name: 'Transcribe with Whisper' }));
    await waitFor(() =>
      expect(screen.queryAllByRole('status').map((toast) => toast.textContent)).toContainEqual(
        expect.stringContaining('already Whisper\u2019s'),
      ),
    );
    expect(within(panel).getByRole('button', { name: 'Transcribe with Whisper' })).toBeEnabled();
  });

  it('offers nothing to replace on a Whisper transcript', async () => {
    backend({ transcriptSource: 'whisper' });
    const { panel } = await openItem();
    expect(within(panel).getByTestId('transcript-source-badge')).toHaveTextContent('Whisper');
    expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
  });
});
