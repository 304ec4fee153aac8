import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, TEST_TOKEN } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import type { Source } from '@/api/sourcesApi';
import type { Schema } from '@/api/types';

const CHANNEL: Source = {
  id: 'src-1',
  type: 'CHANNEL',
  title: 'Demo Channel',
  thumbnailUrl: 'https://img.example/channel.jpg',
  url: 'https://www.youtube.com/@demo',
  createdAt: '2026-01-01T00:00:00Z',
};
const PLAYLIST: Source = {
  id: 'src-2',
  type: 'PLAYLIST',
  title: 'Demo playlist',
  thumbnailUrl: '',
  url: 'https://www.youtube.com/playlist?list=PLdemo',
  createdAt: '2026-01-02T00:00:00Z',
};

/** An in-memory /api/sources that records the Authorization header of each list call. */
function sourcesBackend(initial: Source[] = [CHANNEL]) {
  const state = { sources: [...initial], authorizations: [] as Array<string | null>, created: [] as unknown[], deleted: [] as string[] };
  server.use(
    http.get('/api/sources', ({ request }) => {
      state.authorizations.push(request.headers.get('Authorization'));
      return HttpResponse.json<Schema<'Envelope_Vec_SourceView'>>({ data: state.sources });
    }),
    http.post('/api/sources', async ({ request }) => {
      const body = (await request.json()) as { url: string };
      state.created.push(body);
      if (state.sources.some((source) => source.url === body.url)) {
        return errorResponse(409, 'This source has already been added');
      }
      const source = { ...PLAYLIST, url: body.url };
      state.sources.push(source);
      return HttpResponse.json<Schema<'Envelope_SourceView'>>({ data: source }, { status: 201 });
    }),
    http.delete('/api/sources/:id', ({ params }) => {
      state.deleted.push(params.id as string);
      state.sources = state.sources.filter((source) => source.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

async function renderSources(route = '/sources') {
  const view = renderWithProviders({ route });
  await screen.findByRole('heading', { name: 'Sources', level: 1 });
  return view;
}

const items = () => screen.queryAllByTestId('source-item');

describe('/sources list', () => {
  it('lists the sources with thumbnail, title and type, asking with the bearer token', async () => {
    const backend = sourcesBackend([CHANNEL, PLAYLIST]);
    await renderSources();
    await waitFor(() => expect(items()).toHaveLength(2));
    const [channel, playlist] = items();
    expect(within(channel).getByText('Demo Channel')).toBeInTheDocument();
    expect(within(channel).getByText('Channel')).toBeInTheDocument();
    expect(channel.querySelector('img')).toHaveAttribute('src', 'https://img.example/channel.jpg');
    expect(within(playlist).getByText('Demo playlist')).toBeInTheDocument();
    expect(within(playlist).getByText('Playlist')).toBeInTheDocument();
    expect(within(playlist).getByRole('link', { name: PLAYLIST.url })).toHaveAttribute('target', '_blank');
    expect(backend.authorizations[0]).toBe(`Bearer ${TEST_TOKEN}`);
  });

  it('says when there are no sources yet', async () => {
    sourcesBackend([]);
    await renderSources();
    expect(await screen.findByText('No sources yet. Add a channel or playlist URL above.')).toBeInTheDocument();
  });

  it.each([
    ['the server message', () => errorResponse(403, 'Sources are unavailable'), 'Sources are unavailable'],
    ["'HTTP error! status: {code}' for a bare non-OK answer", () => new HttpResponse(null, { status: 403 }), 'HTTP error! status: 403'],
    ["'Failed to fetch sources' without an answer", () => HttpResponse.error(), 'Failed to fetch sources'],
  ])('shows %s when the list cannot be fetched', async (_name, answer, message) => {
    server.use(http.get('/api/sources', answer));
    await renderSources();
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('is in the menu right after Find Videos', async () => {
    sourcesBackend();
    const { user, router } = renderWithProviders({ route: '/' });
    await screen.findByRole('heading', { name: 'Find Videos', level: 1 });
    const nav = screen.getByRole('complementary', { name: 'Main navigation' });
    const labels = within(nav).getAllByRole('link').map((link) => link.textContent);
    expect(labels.indexOf('Sources')).toBe(labels.indexOf('Find Videos') + 1);
    await user.click(within(nav).getByRole('link', { name: 'Sources' }));
    expect(await screen.findByRole('heading', { name: 'Sources', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sources');
  });
});

describe('/sources add and delete', () => {
  it('adds a source by URL and shows it in the list', async () => {
    const backend = sourcesBackend();
    const { user } = await renderSources();
    await waitFor(() => expect(items()).toHaveLength(1));
    const add = screen.getByRole('button', { name: 'Add Source' });
    expect(add).toBeDisabled();
    const input = screen.getByLabelText('Channel or playlist URL');
    await user.type(input, '  https://www.youtube.com/playlist?list=PLnew  ');
    await user.click(add);
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(backend.created).toEqual([{ url: 'https://www.youtube.com/playlist?list=PLnew' }]);
    expect(screen.getByText('Added Demo playlist.')).toHaveAttribute('role', 'status');
    expect(input).toHaveValue('');
  });

  it('shows the 409 message when the URL is already a source, and the fallback without one', async () => {
    sourcesBackend();
    const { user } = await renderSources();
    await waitFor(() => expect(items()).toHaveLength(1));
    const input = screen.getByLabelText('Channel or playlist URL');
    await user.type(input, CHANNEL.url);
    await user.click(screen.getByRole('button', { name: 'Add Source' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This source has already been added');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(items()).toHaveLength(1);

    server.use(http.post('/api/sources', () => new HttpResponse(null, { status: 500 })));
    await user.clear(input);
    await user.type(input, 'https://www.youtube.com/@other');
    await user.click(screen.getByRole('button', { name: 'Add Source' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create source');
  });

  it("prefers the error's title, then its message (docs/product-spec.md §8)", async () => {
    sourcesBackend();
    server.use(
      http.post('/api/sources', () =>
        // Untyped: `error.title` (docs/product-spec.md §8), which the app prefers, is not in the contract's ErrorObject.
        HttpResponse.json({ error: { title: 'Channel not found', message: 'No channel at that URL' } }, { status: 404 }),
      ),
    );
    const { user } = await renderSources();
    await user.type(screen.getByLabelText('Channel or playlist URL'), 'https://www.youtube.com/@nobody');
    await user.click(screen.getByRole('button', { name: 'Add Source' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Channel not found');
  });

  it('deletes a source after confirming in a dialog; Cancel keeps it', async () => {
    const backend = sourcesBackend([CHANNEL, PLAYLIST]);
    const { user } = await renderSources();
    await waitFor(() => expect(items()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Delete Demo playlist' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete source?' });
    expect(dialog).toHaveTextContent('Demo playlist will be removed from your sources.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(backend.deleted).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Demo playlist' }));
    dialog = screen.getByRole('dialog', { name: 'Delete source?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(backend.deleted).toEqual(['src-2']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("shows 'Failed to delete source' in the dialog when the delete fails", async () => {
    sourcesBackend();
    server.use(http.delete('/api/sources/:id', () => new HttpResponse(null, { status: 500 })));
    const { user } = await renderSources();
    await user.click(await screen.findByRole('button', { name: 'Delete Demo Channel' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete source?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to delete source');
    expect(items()).toHaveLength(1);
  });
});

describe('/sources videos', () => {
  function videosPage(from: number, count: number) {
    return Array.from({ length: count }, (_, index) => ({
      youtubeVideoId: `v${from + index}`,
      title: `Playlist video ${from + index}`,
      channelTitle: 'Demo',
      duration: 90,
      publishedAt: '2024-01-05T00:00:00Z',
      url: `https://www.youtube.com/watch?v=v${from + index}`,
    }));
  }

  it("opens a source's videos, 50 a page, and 'Load more' appends the next page", async () => {
    sourcesBackend([CHANNEL, PLAYLIST]);
    const tokens: Array<string | null> = [];
    server.use(
      http.get('/api/sources/:id/videos', ({ request, params }) => {
        const token = new URL(request.url).searchParams.get('pageToken');
        tokens.push(`${params.id as string}:${token ?? ''}`);
        if (!token) return HttpResponse.json<Schema<'SourceVideosPage'>>({ data: videosPage(1, 50), meta: { nextPageToken: 'page-2', hasMore: true } });
        return HttpResponse.json<Schema<'SourceVideosPage'>>({ data: videosPage(51, 20), meta: { nextPageToken: null, hasMore: false } });
      }),
    );
    const { user, router } = await renderSources();
    await user.click(await screen.findByRole('button', { name: 'View videos of Demo playlist' }));
    const card = await screen.findByTestId('source-videos');
    expect(within(card).getByRole('heading', { name: /Videos of Demo playlist/ })).toBeInTheDocument();
    expect(await within(card).findAllByTestId('source-video-row')).toHaveLength(50);
    expect(router.state.location.search).toBe('?source=src-2');
    expect(within(card).getAllByText('Jan 05, 2024')[0]).toBeInTheDocument();
    expect(within(card).getAllByText('1:30')[0]).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(card).getAllByTestId('source-video-row')).toHaveLength(70));
    const titles = within(card)
      .getAllByTestId('source-video-row')
      .map((row) => row.querySelector('.file-title')?.textContent);
    expect(titles[0]).toBe('Playlist video 1');
    expect(titles[69]).toBe('Playlist video 70');
    expect(tokens).toEqual(['src-2:', 'src-2:page-2']);
    expect(within(card).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Close videos' }));
    expect(screen.queryByTestId('source-videos')).not.toBeInTheDocument();
  });

  it("shows the server's message, else 'Failed to fetch videos'", async () => {
    sourcesBackend();
    server.use(http.get('/api/sources/:id/videos', () => errorResponse(403, 'Playlist is private')));
    const { user } = await renderSources('/sources?source=src-1');
    const card = await screen.findByTestId('source-videos');
    expect(await within(card).findByRole('alert')).toHaveTextContent('Playlist is private');
    await user.click(within(card).getByRole('button', { name: 'Close videos' }));

    server.use(http.get('/api/sources/:id/videos', () => new HttpResponse(null, { status: 404 })));
    await user.click(screen.getByRole('button', { name: 'View videos of Demo Channel' }));
    expect(await within(await screen.findByTestId('source-videos')).findByRole('alert')).toHaveTextContent('Failed to fetch videos');
  });
});
