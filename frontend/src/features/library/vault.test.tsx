import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { installFakeSockets } from '@/testing/fakeSocket';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { server } from '@/testing/server';

import { captureDownloads, cardOf, cardTitles, cards, lastList, toasts, transcript, vaultBackend } from '@/testing/vaultBackend';

describe('/vault list', () => {
  it('shows the title, the stats (This Week is thisMonth) and the items in list view by default, with a grid toggle', async () => {
    vaultBackend([transcript('t1', 'Welcome talk'), transcript('t2', 'Meeting notes', { isStarred: true, rating: 4, gwthLevel: 2 })]);
    const { user } = renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('heading', { name: 'Vault', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Your collected knowledge archive')).toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.getByTestId('stat-this-week')).toHaveTextContent('This Week4');
    expect(screen.getByTestId('stat-total-transcripts')).toHaveTextContent('12');
    expect(screen.getByTestId('stat-total-transcripts')).toHaveTextContent('1:02:05 of audio');
    expect(screen.getByTestId('stat-average-rating')).toHaveTextContent('3.5');
    expect(screen.getByTestId('stat-storage-used')).toHaveTextContent('2 KB');
    expect(screen.getAllByText('Scribevault · Jan 05, 2024 · 1:05')).toHaveLength(2);
    const notes = cardOf('Meeting notes');
    expect(within(notes).getByRole('button', { name: 'Star Meeting notes' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(notes).getByTestId('item-rating')).toHaveTextContent('4 of 5 stars');
    expect(within(notes).getByText('Reviewed')).toBeInTheDocument();
    expect(screen.getByText('2 items')).toBeInTheDocument();

    const list = screen.getByRole('list', { name: 'Not Downloaded' });
    expect(list).toHaveClass('list');
    expect(screen.getByRole('radio', { name: 'List view' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('radio', { name: 'Grid view' }));
    expect(screen.getByRole('list', { name: 'Not Downloaded' })).toHaveClass('grid');
    // Remembered with the default view it overrides (see vaultRules.rememberedView).
    expect(JSON.parse(window.localStorage.getItem('vaultView')!)).toEqual({ view: 'grid', defaultView: 'list' });
  });

  it('shows skeletons while the first page loads', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    vaultBackend([transcript('t1', 'Welcome talk')]);
    server.use(
      http.get('/api/library/transcripts', async () => {
        await gate;
        return HttpResponse.json<Schema<'TranscriptPage'>>({ data: [transcript('t1', 'Welcome talk')], meta: { page: 1, limit: 20, total: 1, hasMore: false } });
      }),
    );
    renderWithProviders({ route: '/vault' });
    expect(await screen.findByLabelText('Loading transcripts')).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByRole('button', { name: 'Welcome talk' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Loading transcripts')).not.toBeInTheDocument();
  });

  it('says when a search matched more than the server lists', async () => {
    vaultBackend([transcript('t1', 'Welcome talk')]);
    server.use(
      http.get('/api/library/transcripts', ({ request }) => {
        const searching = new URL(request.url).searchParams.get('q') !== null;
        return HttpResponse.json<Schema<'TranscriptPage'>>({
          data: [transcript('t1', 'Welcome talk')],
          meta: searching
            ? { page: 1, limit: 20, total: 1000, hasMore: true, totalCapped: true }
            : { page: 1, limit: 20, total: 1, hasMore: false },
        });
      }),
    );
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    await user.type(screen.getByRole('searchbox', { name: 'Search the Vault' }), 'garden');
    expect(
      await screen.findByText('More than 1,000 results for “garden”: showing the newest 1,000. Add words to narrow it.'),
    ).toBeInTheDocument();
  });
});

describe('/vault list: errors, the empty Vault and the download groups', () => {
  it("shows 'Error loading vault' with Refresh Page, the toast and 'Failed to fetch transcripts' when the list fails", async () => {
    const backend = vaultBackend([]);
    backend.fail.list = { status: 500 };
    const { store } = renderWithProviders({ route: '/vault' });
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(within(alert).getByRole('heading', { name: 'Error loading vault' })).toBeInTheDocument();
    expect(within(alert).getByText('Failed to fetch transcripts')).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error loading data', description: 'Please refresh the page.' }));
    expect(toasts(store)).toHaveLength(1);
  });

  it("prefers the server's message under 'Error loading vault'", async () => {
    const backend = vaultBackend([]);
    backend.fail.list = { status: 400, message: 'Unknown query parameter "foo"' };
    renderWithProviders({ route: '/vault' });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unknown query parameter "foo"')).toBeInTheDocument();
  });

  it('says the Vault is empty, and that nothing matches when a tab or filter narrows it', async () => {
    vaultBackend([]);
    const { user } = renderWithProviders({ route: '/vault' });
    expect(await screen.findByText('Your Vault is empty')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Starred' }));
    expect(await screen.findByText('No transcripts match')).toBeInTheDocument();
  });

  it("groups by lastExported: 'Not Downloaded' first and expanded, then 'Downloaded on {date}' newest first, collapsed", async () => {
    vaultBackend([
      transcript('a', 'Old export', { lastExported: '2024-01-05T12:00:00Z' }),
      transcript('b', 'Never exported'),
      transcript('c', 'New export', { lastExported: '2024-01-06T12:00:00Z' }),
      transcript('d', 'Also new', { lastExported: '2024-01-06T13:00:00Z' }),
    ]);
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Never exported' });
    const groups = screen.getAllByTestId('vault-group');
    expect(groups.map((group) => group.querySelector('.vault-group-toggle')?.textContent)).toEqual([
      'Not Downloaded1',
      'Downloaded on Jan 06, 20242',
      'Downloaded on Jan 05, 20241',
    ]);
    expect(within(groups[0]).getByRole('button', { name: /Not Downloaded/ })).toHaveAttribute('aria-expanded', 'true');
    expect(within(groups[1]).getByRole('button', { name: /Downloaded on Jan 06, 2024/ })).toHaveAttribute('aria-expanded', 'false');
    expect(cardTitles()).toEqual(['Never exported']);
    await user.click(within(groups[1]).getByRole('button', { name: /Downloaded on Jan 06, 2024/ }));
    expect(cardTitles()).toEqual(['Never exported', 'New export', 'Also new']);
    await user.click(within(groups[0]).getByRole('button', { name: /Not Downloaded/ }));
    expect(cardTitles()).toEqual(['New export', 'Also new']);
  });
});

describe('/vault list: paging and tabs', () => {
  it('loads more: page 1 replaces, later pages append', async () => {
    const first = Array.from({ length: 20 }, (_, index) => transcript(`a${index}`, `Item ${index}`));
    const backend = vaultBackend([...first, transcript('b1', 'Page two item')]);
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Item 19' });
    expect(screen.getByText('21 items')).toBeInTheDocument();
    expect(lastList(backend).get('page')).toBe('1');
    expect(lastList(backend).get('limit')).toBe('20');
    expect(lastList(backend).get('sortBy')).toBe('createdAt');
    expect(lastList(backend).get('sortOrder')).toBe('desc');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('button', { name: 'Page two item' })).toBeInTheDocument();
    expect(lastList(backend).get('page')).toBe('2');
    expect(cards()).toHaveLength(21);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("a failed later page toasts 'Failed to fetch transcripts' and keeps what is listed", async () => {
    const first = Array.from({ length: 20 }, (_, index) => transcript(`a${index}`, `Item ${index}`));
    const backend = vaultBackend([...first, transcript('b1', 'Page two item')]);
    const { user, store } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Item 19' });
    backend.fail.list = { status: 404 };
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'Failed to fetch transcripts' }));
    expect(cards()).toHaveLength(20);
    expect(screen.queryByText('Error loading vault')).not.toBeInTheDocument();
  });

  it("a filter whose first page fails shows 'Error loading vault', not the previous list", async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    backend.fail.list = { status: 400, message: 'createdAfter must be an RFC 3339 date-time or YYYY-MM-DD' };
    await user.click(screen.getByRole('tab', { name: 'Recent' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error loading vault' })).toBeInTheDocument();
    expect(within(alert).getByText('createdAfter must be an RFC 3339 date-time or YYYY-MM-DD')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Welcome talk' })).not.toBeInTheDocument();
    // The tabs stay usable: back to All lists again.
    delete backend.fail.list;
    await user.click(screen.getByRole('tab', { name: 'All' }));
    expect(await screen.findByRole('button', { name: 'Welcome talk' })).toBeInTheDocument();
  });

  it('tabs: recent asks createdAfter = now − 7 days, starred asks isStarred=true, all neither', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk', { isStarred: true })]);
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');

    const before = Date.now();
    await user.click(screen.getByRole('tab', { name: 'Recent' }));
    await waitFor(() => expect(lastList(backend).get('createdAfter')).not.toBeNull());
    const since = Date.parse(lastList(backend).get('createdAfter')!);
    expect(Math.abs(since - (before - 7 * 86_400_000))).toBeLessThan(5000);
    expect(lastList(backend).get('page')).toBe('1');
    expect(lastList(backend).get('isStarred')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Recent' })).toHaveAttribute('aria-selected', 'true');

    await user.click(screen.getByRole('tab', { name: 'Starred' }));
    await waitFor(() => expect(lastList(backend).get('isStarred')).toBe('true'));
    expect(lastList(backend).get('createdAfter')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Welcome talk' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => {
      expect(lastList(backend).get('isStarred')).toBeNull();
      expect(lastList(backend).get('createdAfter')).toBeNull();
    });
  });
});

describe('/vault list: filters', () => {
  it('filters: repeated keys from the tag list, source types, ratings and starred; each change goes back to page 1', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      transcript(`a${index}`, `Item ${index}`, index < 2 ? { tags: ['talk', 'soil'], sourceType: index === 0 ? 'PDF' : 'AUDIO', rating: 4 } : {}),
    );
    const backend = vaultBackend([...first, transcript('b1', 'Page two item')]);
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Item 19' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('button', { name: 'Page two item' });

    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    await user.click(await within(panel).findByRole('checkbox', { name: /soil/ }));
    await waitFor(() => expect(lastList(backend).getAll('tags')).toEqual(['soil']));
    expect(lastList(backend).get('page')).toBe('1');
    await waitFor(() => expect(cardTitles()).toEqual(['Item 0', 'Item 1']));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Filters/ })).toHaveTextContent('Filters1');

    await user.click(within(panel).getByRole('checkbox', { name: 'Audio' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'PDF' }));
    await waitFor(() => expect(lastList(backend).getAll('sourceType')).toEqual(['AUDIO', 'PDF']));
    await user.click(within(panel).getByRole('checkbox', { name: '4 stars' }));
    await user.click(within(panel).getByRole('checkbox', { name: '5 stars' }));
    await waitFor(() => expect(lastList(backend).getAll('rating')).toEqual(['4', '5']));
    await user.selectOptions(within(panel).getByLabelText('Starred'), 'Not starred');
    await waitFor(() => expect(lastList(backend).get('isStarred')).toBe('false'));
    expect(lastList(backend).get('page')).toBe('1');
    expect(lastList(backend).toString()).toContain('tags=soil');

    await user.selectOptions(screen.getByLabelText('Sort by'), 'Title A–Z');
    await waitFor(() => expect(lastList(backend).get('sortBy')).toBe('title'));
    expect(lastList(backend).get('sortOrder')).toBe('asc');

    // Clearing the filters restores the default sort (docs/product-spec.md §4).
    await user.click(within(panel).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastList(backend).getAll('tags')).toEqual([]));
    const cleared = lastList(backend);
    expect([cleared.get('sortBy'), cleared.get('sortOrder'), cleared.get('isStarred'), cleared.getAll('sourceType')]).toEqual([
      'createdAt',
      'desc',
      null,
      [],
    ]);
  });

  it('going back to an earlier filter starts again at page 1 and reloads it', async () => {
    const first = Array.from({ length: 20 }, (_, index) => transcript(`a${index}`, `Item ${index}`));
    const backend = vaultBackend([...first, transcript('b1', 'Page two item')]);
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Item 19' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('button', { name: 'Page two item' });
    await user.click(screen.getByRole('tab', { name: 'Starred' }));
    await screen.findByText('No transcripts match');
    const asked = backend.lists.length;
    await user.click(screen.getByRole('tab', { name: 'All' }));
    await screen.findByRole('button', { name: 'Item 0' });
    expect(screen.queryByRole('button', { name: 'Page two item' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Load more' })).toBeInTheDocument();
    await waitFor(() => expect(backend.lists.length).toBe(asked + 1));
    expect(lastList(backend).get('page')).toBe('1');
  });
});

describe('/vault list: search', () => {
  it('search: sends q without sortBy, shows sanitised highlights and the time of each audio match', async () => {
    const backend = vaultBackend(
      [transcript('t1', 'Garden talk'), transcript('t2', 'Budget meeting', { sourceType: 'PDF' })],
      {
        contents: { t1: 'Keep a small garden alive', t2: 'The garden budget' },
        hits: {
          t1: {
            highlights: ['keep a small <mark>garden</mark> alive &amp; well', '&lt;img src=x onerror=alert(1)&gt; <mark>garden</mark> <script>bad()</script>'],
            matches: [
              { start: 65.4, end: 70, text: 'keep a small garden alive' },
              { start: 3725, end: 3730, text: 'the garden again' },
            ],
          },
          t2: { highlights: ['the <mark>garden</mark> budget'] },
        },
      },
    );
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Garden talk' });
    await user.type(screen.getByRole('searchbox', { name: 'Search the Vault' }), 'garden');
    await waitFor(() => expect(lastList(backend).get('q')).toBe('garden'));
    expect(lastList(backend).get('sortBy')).toBeNull();
    expect(lastList(backend).get('page')).toBe('1');
    // Typing is debounced: one request for the whole word.
    expect(backend.lists.filter((params) => params.get('q')).map((params) => params.get('q'))).toEqual(['garden']);
    expect(await screen.findByText('2 results for “garden”')).toBeInTheDocument();
    expect(screen.getByLabelText('Sort by')).toHaveDisplayValue('Relevance');

    const card = cardOf('Garden talk');
    const snippets = within(card).getByRole('list', { name: 'Matches in Garden talk' });
    const marks = snippets.querySelectorAll('mark');
    expect([...marks].map((mark) => mark.textContent)).toEqual(['garden', 'garden']);
    expect(snippets).toHaveTextContent('keep a small garden alive & well');
    // Only <mark> becomes markup: the rest is shown as text, never as elements.
    expect(snippets).toHaveTextContent('<img src=x onerror=alert(1)> garden <script>bad()</script>');
    expect(snippets.querySelector('img, script')).toBeNull();
    const matches = within(card).getByRole('list', { name: 'Audio matches in Garden talk' });
    expect(within(matches).getAllByRole('listitem').map((line) => line.textContent)).toEqual([
      '1:05keep a small garden alive',
      '1:02:05the garden again',
    ]);
    expect(within(cardOf('Budget meeting')).queryByRole('list', { name: /Audio matches/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(lastList(backend).get('q')).toBeNull());
    expect(lastList(backend).get('sortBy')).toBe('createdAt');
  });
});

describe('/vault list: selection and export', () => {
  it('selects items and exports them as one zip through the download link; list and stats are fetched again', async () => {
    const backend = vaultBackend([
      transcript('t1', 'Welcome talk'),
      transcript('t2', 'Meeting notes'),
      transcript('t3', 'A PDF', { sourceType: 'PDF' }),
    ]);
    const downloads = captureDownloads();
    const { user, store } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    await user.click(screen.getByRole('checkbox', { name: 'Select Welcome talk' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Meeting notes' }));
    const bar = screen.getByRole('region', { name: 'Selection' });
    expect(bar).toHaveTextContent('2 selected');
    const format = within(bar).getByLabelText('Format of the selection');
    expect(within(format).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Markdown (.md)',
      'Plain text (.txt)',
      'JSON (.json)',
      'Subtitles (.srt)',
      'Web subtitles (.vtt)',
    ]);
    await user.click(screen.getByRole('checkbox', { name: 'Select A PDF' }));
    expect(within(format).getAllByRole('option')).toHaveLength(3);
    await user.selectOptions(format, 'JSON (.json)');
    const lists = backend.lists.length;
    const stats = backend.statsCalls;
    await user.click(within(bar).getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(downloads).toEqual([{ href: '/api/library/downloads/bulk-token', download: 'vault-export.zip' }]));
    expect(backend.calls).toContainEqual({ method: 'POST', path: 'bulk', body: { ids: ['t1', 't2', 't3'], format: 'json' } });
    expect(toasts(store)).toContainEqual({ title: 'Download started', description: 'vault-export.zip' });
    await waitFor(() => expect(backend.lists.length).toBeGreaterThan(lists));
    await waitFor(() => expect(backend.statsCalls).toBeGreaterThan(stats));
    // Exported items move to their 'Downloaded on' group; the selection is cleared.
    expect(await screen.findByRole('button', { name: /Downloaded on Feb 01, 2024/ })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selection' })).not.toBeInTheDocument();
  });

  it("select all takes every loaded item; a failed bulk export toasts 'Failed to export selected transcripts'", async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk'), transcript('t2', 'Meeting notes')]);
    backend.fail.bulk = { status: 500 };
    const downloads = captureDownloads();
    const { user, store } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('region', { name: 'Selection' })).toHaveTextContent('2 selected');
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() =>
      expect(toasts(store)).toContainEqual({ title: 'Failed to export selected transcripts', description: 'Failed to export transcripts' }),
    );
    expect(downloads).toEqual([]);
    expect(screen.getByRole('region', { name: 'Selection' })).toHaveTextContent('2 selected');

    backend.fail.bulk = { status: 400, message: 'ids must hold 1 to 500 ids' };
    await user.click(screen.getByRole('button', { name: 'Export selected' }));
    await waitFor(() =>
      expect(toasts(store)).toContainEqual({ title: 'Failed to export selected transcripts', description: 'ids must hold 1 to 500 ids' }),
    );
  });
});

describe('/vault list: actions, stats and live updates', () => {
  it('stars an item from its card', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    const { user } = renderWithProviders({ route: '/vault' });
    await user.click(await screen.findByRole('button', { name: 'Star Welcome talk' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Star Welcome talk' })).toHaveAttribute('aria-pressed', 'true'));
    expect(backend.calls).toContainEqual({ method: 'PUT', path: 'metadata/t1', body: { isStarred: true } });
  });

  it('Process transcripts posts the batch call and says what it did; a failure says so', async () => {
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    const { user, store } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Process transcripts' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Transcripts processed', description: '3 processed, 0 remaining' }));
    expect(backend.calls).toContainEqual({ method: 'POST', path: 'process?limit=50' });

    backend.fail.process = { status: 503 };
    await user.click(screen.getByRole('button', { name: 'More actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Process transcripts' }));
    await waitFor(() => expect(toasts(store)).toContainEqual({ title: 'Error', description: 'Failed to process transcripts' }));
  });

  it('a failed stats call is only logged: the cards show dashes and the list still loads', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    backend.fail.stats = { status: 404 };
    const { store } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    await waitFor(() => expect(warn).toHaveBeenCalledWith('library stats could not be loaded', expect.anything()));
    expect(screen.getByTestId('stat-this-week')).toHaveTextContent('This Week—');
    expect(toasts(store)).toEqual([]);
  });

  it('libraryUpdate events (created, updated, deleted) fetch the list again; only created toasts', async () => {
    const sockets = installFakeSockets();
    const backend = vaultBackend([transcript('t1', 'Welcome talk')]);
    const { store } = renderWithProviders({ route: '/vault' });
    await screen.findByRole('button', { name: 'Welcome talk' });
    await waitFor(() => expect(sockets.sockets).toHaveLength(1));
    const socket = sockets.latest();
    act(() => socket.serverEmit('connect'));
    for (const type of ['updated', 'deleted', 'created'] as const) {
      const before = backend.lists.length;
      if (type === 'created') backend.items.push(transcript('t2', 'Fresh item'));
      act(() => socket.serverEvent('libraryUpdate', { type, transcript: { id: 't2', title: 'Fresh item' } }));
      await waitFor(() => expect(backend.lists.length).toBeGreaterThan(before));
    }
    expect(await screen.findByRole('button', { name: 'Fresh item' })).toBeInTheDocument();
    expect(toasts(store).filter((toast) => toast.title === 'New Transcript')).toEqual([
      { title: 'New Transcript', description: 'Fresh item has been processed and added to your library' },
    ]);
  });
});
