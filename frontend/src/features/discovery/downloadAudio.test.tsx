import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DownloadJob } from '@/api/downloadJobs';
import type { Source } from '@/api/sourcesApi';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { DEFAULT_USER_SETTINGS } from '@/api/userSettingsApi';
import { errorResponse, server } from '@/testing/server';
import type { DiscoveryVideo } from './discoveryApi';

const SOURCE: Source = {
  id: 'src-1',
  type: 'CHANNEL',
  title: 'Demo Channel',
  thumbnailUrl: '',
  url: 'https://www.youtube.com/@demo',
  createdAt: '2026-01-01T00:00:00Z',
};

function video(n: number): DiscoveryVideo {
  return {
    youtubeVideoId: `vid${n}`,
    title: `Episode ${n}`,
    channelTitle: 'Demo Channel',
    duration: 90,
    publishedAt: '2024-01-05T12:00:00Z',
    url: `https://www.youtube.com/watch?v=vid${n}`,
  };
}

type CreateBody = Schema<'NewDownloadJob'>;

/** POST and GET /api/downloads: created jobs are listed newest first. */
function downloadsBackend() {
  const state = { created: [] as CreateBody[], jobs: [] as DownloadJob[] };
  server.use(
    http.post('/api/downloads', async ({ request }) => {
      const body = (await request.json()) as CreateBody;
      state.created.push(body);
      const job: DownloadJob = {
        id: `job-${state.created.length}`,
        sourceId: body.sourceId ?? '',
        sourceTitle: 'Demo Channel',
        status: 'PENDING',
        totalVideos: body.videoIds?.length ?? 0,
        processedVideos: 0,
        failedVideos: 0,
        progress: 0,
        errorMessage: null,
        startedAt: null,
        completedAt: null,
        createdAt: new Date().toISOString(),
        transcribe: Boolean(body.transcribe),
        useCaptions: Boolean(body.useCaptions),
        currentVideo: null,
      };
      state.jobs.unshift(job);
      return HttpResponse.json<Schema<'Envelope_DownloadJobView'>>({ data: job }, { status: 201 });
    }),
    http.get('/api/downloads', () => HttpResponse.json<Schema<'Envelope_Vec_DownloadJobView'>>({ data: state.jobs })),
  );
  return state;
}

/** /api/sources with one source whose videos come 50 a page, `total` in all. */
function sourceBackend(total: number) {
  const all = Array.from({ length: total }, (_, index) => video(index + 1));
  server.use(
    http.get('/api/sources', () => HttpResponse.json<Schema<'Envelope_Vec_SourceView'>>({ data: [SOURCE] })),
    http.get('/api/sources/:id/videos', ({ request }) => {
      const start = Number(new URL(request.url).searchParams.get('pageToken') || 0);
      const hasMore = start + 50 < all.length;
      return HttpResponse.json<Schema<'SourceVideosPage'>>({
        data: all.slice(start, start + 50),
        meta: { nextPageToken: hasMore ? String(start + 50) : null, hasMore },
      });
    }),
  );
}

const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent);

async function openSourceVideos() {
  const view = renderWithProviders({ route: '/sources?source=src-1' });
  const card = await screen.findByTestId('source-videos');
  await within(card).findAllByTestId('source-video-row');
  return { ...view, card };
}

describe("/sources 'Download audio'", () => {
  it('needs a selection, then creates a job with the selected videos and shows it on /downloads', async () => {
    sourceBackend(3);
    const backend = downloadsBackend();
    const { user, card, router } = await openSourceVideos();
    const download = within(card).getByRole('button', { name: 'Download audio' });
    expect(download).toBeDisabled();
    expect(within(card).getByText('None selected')).toBeInTheDocument();

    await user.click(within(card).getByRole('checkbox', { name: 'Select Episode 3' }));
    await user.click(within(card).getByRole('checkbox', { name: 'Select Episode 1' }));
    expect(within(card).getByText('2 selected')).toBeInTheDocument();
    expect(download).toBeEnabled();
    await user.click(download);

    await waitFor(() => expect(router.state.location.pathname).toBe('/downloads'));
    expect(backend.created).toEqual([{ sourceId: 'src-1', videoIds: ['vid1', 'vid3'], useCaptions: false }]);
    const job = await screen.findByTestId('download-job');
    expect(job).toHaveAttribute('data-job-id', 'job-1');
    expect(within(job).getByText('0 of 2 videos')).toBeInTheDocument();
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Download job created')));
  });

  it("sends transcribe: true, model 'small' and markdown output with 'Transcribe after download'", async () => {
    sourceBackend(3);
    const backend = downloadsBackend();
    const { user, card, router } = await openSourceVideos();
    await user.click(within(card).getByRole('checkbox', { name: 'Select all loaded videos' }));
    expect(within(card).getByText('3 selected')).toBeInTheDocument();
    await user.click(within(card).getByRole('checkbox', { name: 'Transcribe after download' }));
    await user.click(within(card).getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/downloads'));
    expect(backend.created).toEqual([
      {
        sourceId: 'src-1',
        videoIds: ['vid1', 'vid2', 'vid3'],
        useCaptions: false,
        transcribe: true,
        model: 'small',
        outputFormat: 'markdown',
      },
    ]);
    expect(within(await screen.findByTestId('download-job')).getByText('Transcribe')).toBeInTheDocument();
  });

  it("starts 'Use YouTube captions when available' from the Settings default and sends the choice made", async () => {
    sourceBackend(2);
    server.use(
      http.get('/api/user/settings', () =>
        HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: { ...DEFAULT_USER_SETTINGS, useCaptions: true } }),
      ),
    );
    const backend = downloadsBackend();
    const { user, card, router } = await openSourceVideos();
    const captions = within(card).getByRole('checkbox', { name: 'Use YouTube captions when available' });
    await waitFor(() => expect(captions).toBeChecked());
    await user.click(within(card).getByRole('checkbox', { name: 'Select Episode 1' }));
    await user.click(within(card).getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/downloads'));
    expect(backend.created).toEqual([{ sourceId: 'src-1', videoIds: ['vid1'], useCaptions: true }]);
  });
});

describe("/sources 'Download audio': captions, select all and refusals", () => {
  it("sends useCaptions: false when the user unticks 'Use YouTube captions when available'", async () => {
    sourceBackend(2);
    server.use(
      http.get('/api/user/settings', () =>
        HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: { ...DEFAULT_USER_SETTINGS, useCaptions: true } }),
      ),
    );
    const backend = downloadsBackend();
    const { user, card, router } = await openSourceVideos();
    const captions = within(card).getByRole('checkbox', { name: 'Use YouTube captions when available' });
    await waitFor(() => expect(captions).toBeChecked());
    await user.click(captions);
    expect(captions).not.toBeChecked();
    await user.click(within(card).getByRole('checkbox', { name: 'Select Episode 2' }));
    await user.click(within(card).getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/downloads'));
    expect(backend.created).toEqual([{ sourceId: 'src-1', videoIds: ['vid2'], useCaptions: false }]);
  });

  it('selects every loaded video, and says a job takes at most 100 when more are selected', async () => {
    sourceBackend(120);
    downloadsBackend();
    const { user, card } = await openSourceVideos();
    await user.click(within(card).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(card).getAllByTestId('source-video-row')).toHaveLength(100));
    await user.click(within(card).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(card).getAllByTestId('source-video-row')).toHaveLength(120));

    const all = within(card).getByRole('checkbox', { name: 'Select all loaded videos' });
    await user.click(all);
    expect(within(card).getByText('120 selected')).toBeInTheDocument();
    const download = within(card).getByRole('button', { name: 'Download audio' });
    expect(download).toBeDisabled();
    expect(within(card).getByRole('alert')).toHaveTextContent('A download job takes at most 100 videos; 120 are selected.');

    await user.click(within(card).getByRole('checkbox', { name: 'Select Episode 120' }));
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    expect(within(card).getByText('119 selected')).toBeInTheDocument();
    await user.click(all);
    expect(within(card).getByText('120 selected')).toBeInTheDocument();
    await user.click(all);
    expect(within(card).getByText('None selected')).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  }, 30_000);

  it("toasts the server's message, else 'Failed to create download job', and stays", async () => {
    sourceBackend(3);
    server.use(http.post('/api/downloads', () => errorResponse(404, 'Source not found')));
    const { user, card, router } = await openSourceVideos();
    await user.click(within(card).getByRole('checkbox', { name: 'Select Episode 2' }));
    await user.click(within(card).getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Source not found')));
    expect(router.state.location.pathname).toBe('/sources');

    server.use(http.post('/api/downloads', () => new HttpResponse(null, { status: 500 })));
    await user.click(within(card).getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Failed to create download job')));
  });
});

const CHANNEL: Schema<'ChannelView'> = {
  id: 'UCdemo123',
  title: 'Demo Channel',
  thumbnails: { high: { url: 'https://img.example/demo.jpg' } },
  subscriberCount: 10,
  videoCount: 3,
};

function discoveryBackend(channel: Partial<typeof CHANNEL> = CHANNEL) {
  const state = { sourceBodies: [] as unknown[] };
  server.use(
    // Untyped: one test answers a channel without its (required) id, outside the contract, to check the fallback.
    http.post('/api/youtube-discovery/channel-videos', () =>
      HttpResponse.json({ data: { videos: [video(1), video(2), video(3)], channel, newCount: 0 } }),
    ),
    http.get('/api/video-mp3/status', () => HttpResponse.json<Schema<'Envelope_BTreeMap_String_Mp3StatusView'>>({ data: {} })),
    http.post('/api/sources', async ({ request }) => {
      state.sourceBodies.push(await request.json());
      return HttpResponse.json<Schema<'Envelope_SourceView'>>({ data: { ...SOURCE, id: 'src-found' } });
    }),
  );
  return state;
}

async function searchChannel() {
  const view = renderWithProviders({ route: '/' });
  await screen.findByRole('heading', { name: 'Find Videos', level: 1 });
  await view.user.type(screen.getByLabelText('YouTube channel URL'), 'https://www.youtube.com/@demo{Enter}');
  await screen.findByTestId('channel-card');
  return view;
}

describe("Find Videos 'Download audio'", () => {
  it("needs a selection ('Please select videos to download')", async () => {
    const sources = discoveryBackend();
    const backend = downloadsBackend();
    const { user, router } = await searchChannel();
    await user.click(screen.getByRole('button', { name: 'Download audio' }));
    expect(await screen.findByText('Please select videos to download')).toBeInTheDocument();
    expect(sources.sourceBodies).toEqual([]);
    expect(backend.created).toEqual([]);
    expect(router.state.location.pathname).toBe('/');
  });

  it('adds (or reuses) the channel as a source by its id, then creates the job and shows it on /downloads', async () => {
    const sources = discoveryBackend();
    const backend = downloadsBackend();
    const { user, router } = await searchChannel();
    await user.click(screen.getByRole('checkbox', { name: 'Select Episode 2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Episode 3' }));
    await user.click(screen.getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/downloads'));
    expect(sources.sourceBodies).toEqual([{ url: 'https://www.youtube.com/channel/UCdemo123', reuseExisting: true }]);
    expect(backend.created).toEqual([{ sourceId: 'src-found', videoIds: ['vid2', 'vid3'] }]);
    expect(await screen.findByTestId('download-job')).toHaveAttribute('data-status', 'PENDING');
  });

  it('uses the searched URL when the answer has no channel id', async () => {
    const { id: _id, ...withoutId } = CHANNEL;
    const sources = discoveryBackend(withoutId);
    downloadsBackend();
    const { user, router } = await searchChannel();
    await user.click(screen.getByRole('checkbox', { name: 'Select Episode 1' }));
    await user.click(screen.getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/downloads'));
    expect(sources.sourceBodies).toEqual([{ url: 'https://www.youtube.com/@demo', reuseExisting: true }]);
    expect(await screen.findByTestId('download-job')).toBeInTheDocument();
  });

  it("toasts 'Failed to create source' or 'Failed to create download job' (server messages first) and stays", async () => {
    discoveryBackend();
    server.use(http.post('/api/sources', () => new HttpResponse(null, { status: 500 })));
    const backend = downloadsBackend();
    const { user, router } = await searchChannel();
    await user.click(screen.getByRole('checkbox', { name: 'Select Episode 1' }));
    await user.click(screen.getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Failed to create source')));
    expect(backend.created).toEqual([]);

    server.use(
      http.post('/api/sources', () => HttpResponse.json<Schema<'Envelope_SourceView'>>({ data: SOURCE })),
      http.post('/api/downloads', () =>
        errorResponse(400, 'Video vid1 is not in this source'),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Download audio' }));
    await waitFor(() => expect(toastTexts()).toContainEqual(expect.stringContaining('Video vid1 is not in this source')));
    expect(router.state.location.pathname).toBe('/');
  });
});
