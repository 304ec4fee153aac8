import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';
import type { DiscoveryVideo } from './discoveryApi';

const CHANNEL_URL = 'https://www.youtube.com/@demo';
const CHANNEL: Schema<'ChannelView'> = {
  id: 'UCdemo',
  title: 'Demo Channel',
  thumbnails: { high: { url: 'https://img.example/demo.jpg' } },
  subscriberCount: 12345,
  videoCount: 120,
};

function video(n: number, overrides: Partial<DiscoveryVideo> = {}): DiscoveryVideo {
  return {
    youtubeVideoId: `vid${n}`,
    title: `Episode ${n}`,
    channelTitle: 'Demo Channel',
    duration: 61 * n,
    publishedAt: '2024-01-05T12:00:00Z',
    url: `https://www.youtube.com/watch?v=vid${n}`,
    ...overrides,
  };
}

const VIDEOS = [video(1), video(2, { duration: 3723, publishedAt: '2023-12-24T08:00:00Z' }), video(3)];

interface SearchCall {
  limit: string | null;
  refresh: string | null;
  channelUrl: unknown;
}

function searchHandler({
  videos = VIDEOS,
  channel = CHANNEL,
  newCount = 0,
  calls,
  gate,
}: {
  videos?: DiscoveryVideo[];
  channel?: typeof CHANNEL;
  newCount?: number;
  calls?: SearchCall[];
  gate?: Promise<void>;
} = {}) {
  return http.post('/api/youtube-discovery/channel-videos', async ({ request }) => {
    const url = new URL(request.url);
    const body = (await request.json()) as { channelUrl?: unknown };
    calls?.push({ limit: url.searchParams.get('limit'), refresh: url.searchParams.get('refresh'), channelUrl: body.channelUrl });
    await gate;
    return HttpResponse.json<Schema<'Envelope_ChannelVideosView'>>({ data: { videos, channel, newCount } });
  });
}

type Statuses = Record<string, Schema<'Mp3StatusView'>>;

function statusHandler(statuses: Statuses = {}, calls?: string[]) {
  return http.get('/api/video-mp3/status', ({ request }) => {
    const ids = new URL(request.url).searchParams.get('videoIds') ?? '';
    calls?.push(ids);
    const asked = ids.split(',').filter(Boolean);
    return HttpResponse.json<Schema<'Envelope_BTreeMap_String_Mp3StatusView'>>({
      data: Object.fromEntries(asked.map((id) => [id, statuses[id] ?? { hasMp3: false, mp3FilePath: null }])),
    });
  });
}

async function renderFindVideos(route = '/youtube-discovery') {
  const view = renderWithProviders({ route, userOptions: { applyAccept: false } });
  await screen.findByRole('heading', { name: 'Find Videos', level: 1 });
  return view;
}

type View = Awaited<ReturnType<typeof renderFindVideos>>;

async function searchFor(view: View, url = CHANNEL_URL) {
  const input = screen.getByLabelText('YouTube channel URL');
  await view.user.clear(input);
  await view.user.type(input, `${url}{Enter}`);
}

async function searchAndWait(view: View, url = CHANNEL_URL) {
  await searchFor(view, url);
  await screen.findByTestId('channel-card');
}

const rows = () => screen.queryAllByTestId('video-row');
const rowFor = (title: string) => {
  const row = rows().find((candidate) => within(candidate).queryByText(title, { selector: '.file-title' }));
  if (!row) throw new Error(`no row for ${title}`);
  return row;
};
const mp3 = (name = 'audio.mp3', type = 'audio/mpeg') => new File([new Uint8Array([0x49, 0x44, 0x33, 0])], name, { type });
const drop = (target: Element, files: File[]) =>
  fireEvent.drop(target, { dataTransfer: { files, types: ['Files'] } });

afterEach(() => {
  vi.useRealTimers();
});

describe('Find Videos search', () => {
  it('starts with the URL input, the count selector (default 100), Search and no Refresh', async () => {
    await renderFindVideos('/');
    const count = screen.getByLabelText('Videos');
    expect(count).toHaveValue('100');
    expect(within(count).getAllByRole('option').map((option) => option.textContent)).toEqual(['100', '200', '500', 'All']);
    expect(screen.getByRole('button', { name: 'Search' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Refresh' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Previous Searches/ })).not.toBeInTheDocument();
  });

  it('asks for a channel URL when the input is blank, without calling the server', async () => {
    const calls: SearchCall[] = [];
    server.use(searchHandler({ calls }));
    const view = await renderFindVideos();
    await view.user.type(screen.getByLabelText('YouTube channel URL'), '   ');
    await view.user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a YouTube channel URL');
    expect(screen.getByLabelText('YouTube channel URL')).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);
  });

  it('searches on Enter with limit 100 and refresh=false, shows a loading state, then the channel card and the table', async () => {
    const calls: SearchCall[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(searchHandler({ calls, gate }), statusHandler({ vid1: { hasMp3: true, mp3FilePath: 'mp3/vid1.mp3' } }));
    const view = await renderFindVideos();
    await searchFor(view, `  ${CHANNEL_URL}  `);
    expect(await screen.findByText('Fetching videos...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Searching...' })).toBeDisabled();
    act(() => release());

    const card = await screen.findByTestId('channel-card');
    expect(calls).toEqual([{ limit: '100', refresh: 'false', channelUrl: CHANNEL_URL }]);
    expect(within(card).getByRole('heading', { name: 'Demo Channel' })).toBeInTheDocument();
    expect(within(card).getByText('12,345 subscribers')).toBeInTheDocument();
    expect(within(card).getByText('120 videos')).toBeInTheDocument();
    expect(card.querySelector('img')).toHaveAttribute('src', 'https://img.example/demo.jpg');
    expect(screen.queryByText('Fetching videos...')).not.toBeInTheDocument();

    expect(rows()).toHaveLength(3);
    const second = rowFor('Episode 2');
    const link = within(second).getByRole('link', { name: 'youtube.com/watch?v=vid2' });
    expect(link).toHaveAttribute('href', 'https://www.youtube.com/watch?v=vid2');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(second).getByText('Dec 24, 2023')).toBeInTheDocument();
    expect(within(second).getByText('1:02:03')).toBeInTheDocument();
    expect(within(rowFor('Episode 1')).getByText('Jan 05, 2024')).toBeInTheDocument();
    expect(within(rowFor('Episode 1')).getByText('1:01')).toBeInTheDocument();
    expect(await within(rowFor('Episode 1')).findByText('MP3 uploaded')).toBeInTheDocument();
    expect(within(rowFor('Episode 3')).getByText('Drop MP3')).toBeInTheDocument();
    expect(within(rowFor('Episode 3')).getByLabelText('Attach MP3 to Episode 3')).toBeInTheDocument();
  });
});

describe('Find Videos search: All, the quota and Refresh', () => {
  it('fetches every video with All (-1) and shows the quota left before the scan', async () => {
    const calls: SearchCall[] = [];
    const resetsAt = new Date(2030, 0, 1, 9, 0).toISOString();
    let quotaCalls = 0;
    server.use(
      searchHandler({ calls }),
      statusHandler(),
      http.get('/api/youtube-discovery/quota', () => {
        quotaCalls += 1;
        return HttpResponse.json<Schema<'Envelope_QuotaView'>>({ data: { used: 201, limit: 10000, resetsAt } });
      }),
    );
    const view = await renderFindVideos();
    expect(quotaCalls).toBe(0);
    await view.user.selectOptions(screen.getByLabelText('Videos'), 'All');
    expect(await screen.findByText('YouTube quota left today: 9,799 of 10,000 units · resets 9:00 AM')).toBeInTheDocument();
    expect(screen.getByLabelText('Videos')).toHaveAccessibleDescription(
      'YouTube quota left today: 9,799 of 10,000 units · resets 9:00 AM',
    );
    await searchAndWait(view);
    expect(calls[0]).toMatchObject({ limit: '-1', refresh: 'false' });

    await view.user.selectOptions(screen.getByLabelText('Videos'), '200');
    expect(screen.queryByText(/YouTube quota left today/)).not.toBeInTheDocument();
  });

  it('says nothing about the quota when it cannot be read', async () => {
    server.use(http.get('/api/youtube-discovery/quota', () => errorResponse(503, 'nope')));
    const view = await renderFindVideos();
    await view.user.selectOptions(screen.getByLabelText('Videos'), 'All');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText(/YouTube quota left today/)).not.toBeInTheDocument();
    expect(screen.queryByText('nope')).not.toBeInTheDocument();
  });

  it('shows Refresh after a first search; it asks again with refresh=true and says how many videos are new', async () => {
    const calls: SearchCall[] = [];
    server.use(searchHandler({ calls }), statusHandler());
    const view = await renderFindVideos();
    await view.user.selectOptions(screen.getByLabelText('Videos'), '200');
    await searchAndWait(view);
    server.use(searchHandler({ calls, videos: [video(4), ...VIDEOS], newCount: 1 }));
    await view.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('1 new video found')).toBeInTheDocument();
    expect(calls.map(({ limit, refresh }) => [limit, refresh])).toEqual([
      ['200', 'false'],
      ['200', 'true'],
    ]);
    expect(rows()).toHaveLength(4);

    server.use(searchHandler({ calls, videos: [video(4), ...VIDEOS], newCount: 0 }));
    await view.user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('No new videos found')).toBeInTheDocument();
  });
});

describe('Find Videos search: failures, empty results and coming back', () => {
  it.each([
    [400, 'Please enter a valid YouTube channel URL', 'Please enter a valid YouTube channel URL'],
    [404, 'Channel not found', 'Channel not found'],
    [429, 'YouTube quota exhausted (search): resets at 09:00 UTC', 'YouTube quota exhausted (search): resets at 09:00 UTC'],
    [502, null, 'Failed to fetch videos'],
  ])('a failed search (%d) shows the message in an error card and a toast', async (status, errorMessage, message) => {
    server.use(
      http.post('/api/youtube-discovery/channel-videos', () =>
        errorMessage ? errorResponse(status, errorMessage) : new HttpResponse(null, { status }),
      ),
    );
    const view = await renderFindVideos();
    await searchFor(view);
    const card = await screen.findByRole('alert', { name: 'Search failed' });
    expect(card).toHaveTextContent(message);
    expect(await screen.findAllByText(message)).toHaveLength(2);
    expect(screen.queryByTestId('channel-card')).not.toBeInTheDocument();
  });

  it("falls back to 'Failed to fetch videos' when the server cannot be reached", async () => {
    server.use(http.post('/api/youtube-discovery/channel-videos', () => HttpResponse.error()));
    const view = await renderFindVideos();
    await searchFor(view);
    expect(await screen.findByRole('alert', { name: 'Search failed' })).toHaveTextContent('Failed to fetch videos');
  });

  it("says 'No videos found for this channel' for an empty result", async () => {
    server.use(searchHandler({ videos: [] }));
    const view = await renderFindVideos();
    await searchAndWait(view);
    expect(screen.getByText('No videos found for this channel')).toBeInTheDocument();
    expect(rows()).toHaveLength(0);
  });

  it('keeps the results when the user leaves and comes back', async () => {
    server.use(searchHandler(), statusHandler());
    const view = await renderFindVideos();
    await searchAndWait(view);
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 2' }));
    await view.user.click(screen.getByRole('link', { name: 'Vault' }));
    server.use(http.get('/api/library/transcripts', () => HttpResponse.json<Schema<'TranscriptPage'>>({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } })));
    await screen.findByRole('heading', { name: 'Vault', level: 1 });
    await view.user.click(screen.getByRole('link', { name: 'Find Videos' }));
    expect(await screen.findAllByTestId('video-row')).toHaveLength(3);
    expect(screen.getByLabelText('YouTube channel URL')).toHaveValue(CHANNEL_URL);
    expect(screen.getByRole('checkbox', { name: 'Select Episode 2' })).toBeChecked();
  });
});

function seedHistory(count: number) {
  const entries = Array.from({ length: count }, (_, index) => ({
    id: `h${index}`,
    channelUrl: `https://www.youtube.com/@c${index}`,
    channelTitle: `Channel ${index}`,
    channelThumbnail: null,
    searchedAt: new Date(Date.UTC(2024, 0, 1, 0, index)).toISOString(),
    usageCount: index === 3 ? 9 : index === 7 ? 5 : 1,
  }));
  window.localStorage.setItem('youtubeSearchHistory', JSON.stringify(entries));
}

const stored = () => JSON.parse(window.localStorage.getItem('youtubeSearchHistory') ?? '[]') as Array<Record<string, unknown>>;

describe('Previous Searches', () => {
  it('records a successful search, counts repeats, and searches again from an entry', async () => {
    const calls: SearchCall[] = [];
    server.use(searchHandler({ calls }), statusHandler());
    const view = await renderFindVideos();
    await searchAndWait(view);
    expect(stored()).toEqual([
      {
        id: expect.any(String),
        channelUrl: CHANNEL_URL,
        channelTitle: 'Demo Channel',
        channelThumbnail: 'https://img.example/demo.jpg',
        searchedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        usageCount: 1,
      },
    ]);
    await searchAndWait(view);
    expect(stored()).toHaveLength(1);
    expect(stored()[0].usageCount).toBe(2);

    const toggle = screen.getByRole('button', { name: /Previous Searches/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await view.user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('tab', { name: 'Recently Searched', selected: true })).toBeInTheDocument();
    const entry = screen.getByTestId('history-entry');
    expect(within(entry).getByText('Demo Channel')).toBeInTheDocument();
    expect(within(entry).getByText(/2 searches/)).toBeInTheDocument();

    await view.user.clear(screen.getByLabelText('YouTube channel URL'));
    await view.user.click(within(entry).getByRole('button', { name: 'Search Demo Channel again' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]).toMatchObject({ channelUrl: CHANNEL_URL, refresh: 'false' });
    expect(screen.getByLabelText('YouTube channel URL')).toHaveValue(CHANNEL_URL);
    await waitFor(() => expect(stored()[0].usageCount).toBe(3));
  });

  it('does not record a failed search', async () => {
    server.use(http.post('/api/youtube-discovery/channel-videos', () => errorResponse(404, 'Channel not found')));
    const view = await renderFindVideos();
    await searchFor(view);
    await screen.findByRole('alert', { name: 'Search failed' });
    expect(window.localStorage.getItem('youtubeSearchHistory')).toBeNull();
  });

  it('shows 10 entries per tab, most recent first or most used first', async () => {
    seedHistory(30);
    const view = await renderFindVideos();
    await view.user.click(screen.getByRole('button', { name: /Previous Searches/ }));
    const titles = () => screen.getAllByTestId('history-entry').map((entry) => within(entry).getByText(/^Channel \d+$/).textContent);
    expect(titles()).toEqual(Array.from({ length: 10 }, (_, index) => `Channel ${29 - index}`));

    await view.user.click(screen.getByRole('tab', { name: 'Most Used' }));
    expect(screen.getByRole('tab', { name: 'Most Used' })).toHaveAttribute('aria-selected', 'true');
    expect(titles()).toHaveLength(10);
    expect(titles().slice(0, 3)).toEqual(['Channel 3', 'Channel 7', 'Channel 29']);

    // Arrow keys move between the tabs.
    await view.user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Recently Searched' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Recently Searched' })).toHaveAttribute('aria-selected', 'true');
  });

  it('keeps at most 50 entries: a new search drops the oldest', async () => {
    seedHistory(50);
    server.use(searchHandler(), statusHandler());
    const view = await renderFindVideos();
    await searchAndWait(view);
    const history = stored();
    expect(history).toHaveLength(50);
    expect(history[0].channelUrl).toBe(CHANNEL_URL);
    expect(history.map((entry) => entry.id)).not.toContain('h0');
  });

  it('removes one entry and clears the history', async () => {
    seedHistory(3);
    const view = await renderFindVideos();
    await view.user.click(screen.getByRole('button', { name: /Previous Searches/ }));
    await view.user.click(screen.getByRole('button', { name: 'Remove Channel 1 from history' }));
    expect(screen.getAllByTestId('history-entry')).toHaveLength(2);
    expect(screen.queryByText('Channel 1')).not.toBeInTheDocument();
    expect(stored().map((entry) => entry.id)).toEqual(['h2', 'h0']);

    await view.user.click(screen.getByRole('button', { name: 'Clear History' }));
    expect(screen.queryByRole('button', { name: /Previous Searches/ })).not.toBeInTheDocument();
    expect(stored()).toEqual([]);
  });
});

interface UploadCall {
  videoId: string;
  fields: Record<string, FormDataEntryValue | null>;
}

function uploadHandler(calls: UploadCall[], gate?: Promise<void>) {
  return http.post('/api/video-mp3/upload/:videoId', async ({ request, params }) => {
    const form = await request.formData();
    const fields = Object.fromEntries(['title', 'channelTitle', 'duration', 'publishedAt'].map((key) => [key, form.get(key)]));
    calls.push({ videoId: params.videoId as string, fields });
    await gate;
    const mp3Path = `mp3/${params.videoId as string}.mp3`;
    return HttpResponse.json<Schema<'Envelope_UploadView'>>({
      data: { mp3Path, mp3FilePath: mp3Path, title: fields.title as string, size: 4, videoId: params.videoId as string, deduplicated: false },
    });
  });
}

async function withUploadResults(statuses: Statuses = { vid1: { hasMp3: true, mp3FilePath: 'mp3/vid1.mp3' } }, statusCalls?: string[]) {
  server.use(searchHandler(), statusHandler(statuses, statusCalls));
  const view = await renderFindVideos();
  await searchAndWait(view);
  await within(rowFor('Episode 1')).findByText(statuses.vid1?.hasMp3 ? 'MP3 uploaded' : 'Drop MP3');
  return view;
}

describe('MP3 drops and uploads', () => {
  it('a file dropped on the card goes to the first video without an MP3, with its details, and the row turns', async () => {
    const calls: UploadCall[] = [];
    const statusCalls: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(uploadHandler(calls, gate));
    await withUploadResults(undefined, statusCalls);
    drop(screen.getByTestId('videos-card'), [mp3('anything.mp3'), new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(await within(rowFor('Episode 2')).findByRole('progressbar', { name: 'Upload progress of Episode 2' })).toBeInTheDocument();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({
      videoId: 'vid2',
      fields: { title: 'Episode 2', channelTitle: 'Demo Channel', duration: '3723', publishedAt: '2023-12-24T08:00:00Z' },
    });
    const before = statusCalls.length;
    act(() => release());
    expect(await within(rowFor('Episode 2')).findByText('MP3 uploaded')).toBeInTheDocument();
    expect(await screen.findByText('MP3 uploaded', { selector: '.toast-title' })).toBeInTheDocument();
    await waitFor(() => expect(statusCalls.length).toBeGreaterThan(before));
  });

  it("uses only a drop's first file: a non-MP3 first file is refused with 'Please drop an MP3 file'", async () => {
    const calls: UploadCall[] = [];
    server.use(uploadHandler(calls));
    await withUploadResults();
    drop(screen.getByTestId('videos-card'), [new File(['x'], 'notes.txt', { type: 'text/plain' }), mp3()]);
    expect(await screen.findByText('Please drop an MP3 file')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('recognises an MP3 by its name when the type is missing', async () => {
    const calls: UploadCall[] = [];
    server.use(uploadHandler(calls));
    await withUploadResults();
    drop(screen.getByTestId('videos-card'), [mp3('voice.MP3', '')]);
    await waitFor(() => expect(calls.map((call) => call.videoId)).toEqual(['vid2']));
  });

  it("says 'All videos already have MP3s uploaded' when none is left", async () => {
    const calls: UploadCall[] = [];
    server.use(uploadHandler(calls));
    const all = { hasMp3: true, mp3FilePath: 'x.mp3' };
    await withUploadResults({ vid1: all, vid2: all, vid3: all });
    drop(screen.getByTestId('videos-card'), [mp3()]);
    expect(await screen.findByText('All videos already have MP3s uploaded')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('MP3 drops and uploads: rows and server errors', () => {
  it('a file dropped on a row goes to that video; so does one picked with its Attach button', async () => {
    const calls: UploadCall[] = [];
    server.use(uploadHandler(calls));
    const view = await withUploadResults();
    drop(rowFor('Episode 3'), [mp3()]);
    expect(await within(rowFor('Episode 3')).findByText('MP3 uploaded')).toBeInTheDocument();
    expect(calls.map((call) => call.videoId)).toEqual(['vid3']);

    await view.user.upload(within(rowFor('Episode 2')).getByLabelText('Attach MP3 to Episode 2'), mp3());
    expect(await within(rowFor('Episode 2')).findByText('MP3 uploaded')).toBeInTheDocument();
    expect(calls.map((call) => call.videoId)).toEqual(['vid3', 'vid2']);
  });

  it("refuses a non-MP3 dropped on a row", async () => {
    const calls: UploadCall[] = [];
    server.use(uploadHandler(calls));
    await withUploadResults();
    drop(rowFor('Episode 3'), [new File(['x'], 'clip.wav', { type: 'audio/wav' })]);
    expect(await screen.findByText('Please drop an MP3 file')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message, else 'Failed to upload MP3', on the row and in a toast", async () => {
    server.use(
      http.post('/api/video-mp3/upload/:videoId', ({ params }) =>
        params.videoId === 'vid2'
          ? errorResponse(400, 'Please select MP3 files only')
          : new HttpResponse(null, { status: 500 }),
      ),
    );
    await withUploadResults();
    drop(rowFor('Episode 2'), [mp3()]);
    expect(await within(rowFor('Episode 2')).findByText('Please select MP3 files only')).toBeInTheDocument();
    drop(rowFor('Episode 3'), [mp3()]);
    expect(await within(rowFor('Episode 3')).findByText('Failed to upload MP3')).toBeInTheDocument();
    expect(screen.getByText('Failed to upload MP3', { selector: '.toast-description' })).toBeInTheDocument();
    expect(within(rowFor('Episode 3')).getByText('Drop MP3')).toBeInTheDocument();
  });
});

async function withSelectionResults(statuses: Statuses = {}) {
  server.use(searchHandler(), statusHandler(statuses));
  const view = await renderFindVideos();
  await searchAndWait(view);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Create Transcripts' })).toBeEnabled());
  return view;
}

describe('selection and hand-offs', () => {
  it('selects all and none with the select-all box, showing a partial selection', async () => {
    const view = await withSelectionResults();
    const all = screen.getByRole('checkbox', { name: 'Select all videos' });
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 1' }));
    expect(all).not.toBeChecked();
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    expect(screen.getByText(/1 selected/)).toBeInTheDocument();
    await view.user.click(all);
    expect(screen.getAllByRole('checkbox', { name: /^Select Episode/ }).every((box) => (box as HTMLInputElement).checked)).toBe(true);
    expect(screen.getByText(/3 selected/)).toBeInTheDocument();
    await view.user.click(all);
    expect(screen.getAllByRole('checkbox', { name: /^Select Episode/ }).some((box) => (box as HTMLInputElement).checked)).toBe(false);
  });

  it("'Download Videos as MP3' needs a selection, then hands it to /download-mp3 in selectedVideos", async () => {
    server.use(http.get('/api/video-mp3/status', () => HttpResponse.json<Schema<'Envelope_BTreeMap_String_Mp3StatusView'>>({ data: {} })));
    const view = await withSelectionResults();
    await view.user.click(screen.getByRole('button', { name: 'Download Videos as MP3' }));
    expect(await screen.findByText('Please select videos to download')).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/youtube-discovery');

    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 3' }));
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 1' }));
    await view.user.click(screen.getByRole('button', { name: 'Download Videos as MP3' }));
    expect(JSON.parse(window.sessionStorage.getItem('selectedVideos')!)).toEqual([VIDEOS[0], VIDEOS[2]]);
    expect(await screen.findByRole('heading', { name: 'Bulk Upload MP3 Files' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/download-mp3');
    expect(screen.getAllByTestId('selected-video').map((item) => item.querySelector('.file-title')?.textContent)).toEqual([
      'Episode 1',
      'Episode 3',
    ]);
  });
});

describe('selection and hand-offs: Create Transcripts', () => {
  it("'Create Transcripts' says so when no video has an MP3", async () => {
    const view = await withSelectionResults();
    await view.user.click(screen.getByRole('button', { name: 'Create Transcripts' }));
    expect(await screen.findByText('No videos have MP3 files uploaded. Please upload MP3 files first.')).toBeInTheDocument();
    expect(window.sessionStorage.getItem('videosToTranscribe')).toBeNull();
  });

  it("'Create Transcripts' says so when none of the selected videos has an MP3", async () => {
    const view = await withSelectionResults({ vid1: { hasMp3: true, mp3FilePath: 'mp3/vid1.mp3' } });
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 2' }));
    await view.user.click(screen.getByRole('button', { name: 'Create Transcripts' }));
    expect(await screen.findByText('None of the selected videos have MP3 files uploaded')).toBeInTheDocument();
  });

  it("'Create Transcripts' hands the selected videos with MP3s to /transcripts in videosToTranscribe", async () => {
    const view = await withSelectionResults({
      vid1: { hasMp3: true, mp3FilePath: 'mp3/vid1.mp3' },
      vid2: { hasMp3: true, mp3FilePath: 'mp3/vid2.mp3' },
    });
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 2' }));
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 3' }));
    let handedOver: unknown = null;
    const unsubscribe = view.router.subscribe(() => {
      handedOver ??= JSON.parse(window.sessionStorage.getItem('videosToTranscribe') ?? 'null');
    });
    await view.user.click(screen.getByRole('button', { name: 'Create Transcripts' }));
    unsubscribe();
    expect(handedOver).toEqual([{ ...VIDEOS[1], mp3FilePath: 'mp3/vid2.mp3' }]);
    expect(await screen.findByRole('heading', { name: 'Create Transcripts', level: 1 })).toBeInTheDocument();
    const transcriptionRows = await screen.findAllByTestId('transcription-row');
    expect(transcriptionRows).toHaveLength(1);
    expect(within(transcriptionRows[0]).getByText('Episode 2')).toBeInTheDocument();
  });

  it("'Create Transcripts' with no selection takes every video with an MP3", async () => {
    const view = await withSelectionResults({
      vid1: { hasMp3: true, mp3FilePath: 'mp3/vid1.mp3' },
      vid3: { hasMp3: true, mp3FilePath: 'mp3/vid3.mp3' },
    });
    let handedOver: Array<{ youtubeVideoId: string; mp3FilePath: string }> | null = null;
    const unsubscribe = view.router.subscribe(() => {
      handedOver ??= JSON.parse(window.sessionStorage.getItem('videosToTranscribe') ?? 'null') as typeof handedOver;
    });
    await view.user.click(screen.getByRole('button', { name: 'Create Transcripts' }));
    unsubscribe();
    expect(handedOver!.map((item) => [item.youtubeVideoId, item.mp3FilePath])).toEqual([
      ['vid1', 'mp3/vid1.mp3'],
      ['vid3', 'mp3/vid3.mp3'],
    ]);
    expect(await screen.findAllByTestId('transcription-row')).toHaveLength(2);
  });
});

interface ExportCall {
  videoIds: string[];
  exportType: string;
}

function exportHandler(calls: ExportCall[], disposition: string | null = 'attachment; filename="demo-channel-urls.csv"') {
  return http.post('/api/youtube-discovery/export', async ({ request }) => {
    calls.push((await request.json()) as ExportCall);
    const headers: Record<string, string> = { 'Content-Type': 'text/csv; charset=utf-8' };
    if (disposition) headers['Content-Disposition'] = disposition;
    return new HttpResponse('url\nhttps://www.youtube.com/watch?v=vid1\n', { headers });
  });
}

function captureDownloads() {
  const saved: Array<{ name: string; blob: Blob }> = [];
  const blobs = new Map<string, Blob>();
  let counter = 0;
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    value: (blob: Blob) => {
      counter += 1;
      const url = `blob:test/${counter}`;
      blobs.set(url, blob);
      return url;
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => {} });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}

// jsdom's Blob has no text().
const readBlob = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });

async function withExportResults(videos = VIDEOS) {
  server.use(searchHandler({ videos }), statusHandler());
  const view = await renderFindVideos();
  await searchAndWait(view);
  return view;
}

describe('exports and copying', () => {
  it('exports every listed video when none is selected, saving the file named by Content-Disposition', async () => {
    const calls: ExportCall[] = [];
    server.use(exportHandler(calls));
    const saved = captureDownloads();
    const view = await withExportResults();
    await view.user.click(screen.getByRole('button', { name: 'Download URLs Only' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(calls).toEqual([{ videoIds: ['vid1', 'vid2', 'vid3'], exportType: 'urls' }]);
    expect(saved[0].name).toBe('demo-channel-urls.csv');
    expect(await readBlob(saved[0].blob)).toBe('url\nhttps://www.youtube.com/watch?v=vid1\n');
  });

  it('exports only the selection with all data, and falls back to videos.csv without a file name', async () => {
    const calls: ExportCall[] = [];
    server.use(exportHandler(calls, null));
    const saved = captureDownloads();
    const view = await withExportResults();
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 3' }));
    await view.user.click(screen.getByRole('checkbox', { name: 'Select Episode 2' }));
    await view.user.click(screen.getByRole('button', { name: 'Download All Data' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(calls).toEqual([{ videoIds: ['vid2', 'vid3'], exportType: 'all' }]);
    expect(saved[0].name).toBe('videos.csv');
  });

  it("says 'No videos to export' when nothing is listed", async () => {
    const calls: ExportCall[] = [];
    server.use(exportHandler(calls));
    const view = await withExportResults([]);
    await view.user.click(screen.getByRole('button', { name: 'Download URLs Only' }));
    expect(await screen.findByText('No videos to export')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the server's message, else 'Failed to export videos'", async () => {
    server.use(http.post('/api/youtube-discovery/export', () => errorResponse(400, 'Too many videos')));
    const view = await withExportResults();
    await view.user.click(screen.getByRole('button', { name: 'Download All Data' }));
    expect(await screen.findByText('Too many videos')).toBeInTheDocument();

    server.use(http.post('/api/youtube-discovery/export', () => new HttpResponse(null, { status: 404 })));
    await view.user.click(screen.getByRole('button', { name: 'Download URLs Only' }));
    expect(await screen.findByText('Failed to export videos')).toBeInTheDocument();
  });

  it('copies a URL and clears the confirmation after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    const view = await withExportResults();
    const row = rowFor('Episode 2');
    await view.user.click(within(row).getByRole('button', { name: 'Copy URL of Episode 2' }));
    expect(await navigator.clipboard.readText()).toBe('https://www.youtube.com/watch?v=vid2');
    expect(within(row).getByText('Copied!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1900);
    });
    expect(within(row).getByText('Copied!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(150);
    });
    expect(within(row).queryByText('Copied!')).not.toBeInTheDocument();
  });

  it("says 'Failed to copy URL' when the clipboard refuses", async () => {
    const view = await withExportResults();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await view.user.click(within(rowFor('Episode 1')).getByRole('button', { name: 'Copy URL of Episode 1' }));
    expect(await screen.findByText('Failed to copy URL')).toBeInTheDocument();
    expect(within(rowFor('Episode 1')).queryByText('Copied!')).not.toBeInTheDocument();
  });
});

describe('large results', () => {
  it('asks for MP3 statuses in chunks of 200 ids and draws 500 rows at a time', async () => {
    const many = Array.from({ length: 520 }, (_, index) => video(index + 1));
    const statusCalls: string[] = [];
    server.use(searchHandler({ videos: many }), statusHandler({}, statusCalls));
    const view = await renderFindVideos();
    await searchAndWait(view);
    await waitFor(() => expect(statusCalls).toHaveLength(3));
    expect(statusCalls.map((ids) => ids.split(',').length).sort((a, b) => a - b)).toEqual([120, 200, 200]);
    expect(rows()).toHaveLength(500);
    expect(screen.getByText('520', { selector: '.count' })).toBeInTheDocument();
    // Role and label queries walk every row (seconds in jsdom at this size): text queries stay quick.
    await view.user.click(screen.getByText('Show more videos (20 more)'));
    expect(rows()).toHaveLength(520);
    expect(screen.queryByText(/Show more videos/)).not.toBeInTheDocument();
    await view.user.click(screen.getByText('Select all', { selector: 'label' }));
    expect(screen.getByText(/520 selected/, { selector: '.results-summary' })).toBeInTheDocument();
    // 500 rows take seconds to draw in jsdom, more on a busy machine.
  }, 40_000);
});
