import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { server } from '@/testing/server';

function transcript(id: string, title: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    title,
    author: 'Scribevault',
    createdAt: '2024-01-05T10:00:00Z',
    lastExported: null,
    isStarred: false,
    sourceType: 'AUDIO',
    rating: null,
    tags: ['talk'],
    duration: 65,
    ...extra,
  };
}

function listHandler(pages: Record<number, ReturnType<typeof transcript>[]>, total: number) {
  return http.get('/api/library/transcripts', ({ request }) => {
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page'));
    expect(url.searchParams.get('limit')).toBe('20');
    const data = pages[page] ?? [];
    return HttpResponse.json({ data, meta: { page, limit: 20, total, hasMore: Boolean(pages[page + 1]) } });
  });
}

describe('/vault', () => {
  it('lists the transcripts with title and subtitle, in list or grid view', async () => {
    server.use(listHandler({ 1: [transcript('t1', 'Welcome talk'), transcript('t2', 'Meeting notes', { isStarred: true })] }, 2));
    const { user } = renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('heading', { name: 'Vault' })).toBeInTheDocument();
    expect(screen.getByText('Your collected knowledge archive')).toBeInTheDocument();
    expect(await screen.findByText('Welcome talk')).toBeInTheDocument();
    expect(screen.getAllByText('Scribevault · Jan 05, 2024 · 1:05')).toHaveLength(2);
    const list = screen.getByRole('list', { name: 'Transcripts' });
    expect(list).toHaveClass('list');
    await user.click(screen.getByRole('radio', { name: 'Grid view' }));
    expect(list).toHaveClass('grid');
    expect(window.localStorage.getItem('vaultView')).toBe('grid');
  });

  it('opens an item and reads its content', async () => {
    server.use(
      listHandler({ 1: [transcript('t1', 'Welcome talk')] }, 1),
      http.get('/api/library/transcripts/t1/content', () => HttpResponse.json({ data: { content: 'Welcome to the show.' } })),
    );
    const { user, router } = renderWithProviders({ route: '/vault' });
    await user.click(await screen.findByRole('button', { name: /Welcome talk/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Welcome talk' });
    expect(await within(dialog).findByText('Welcome to the show.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?item=t1');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('');
  });

  it('opens the item named in ?item= directly', async () => {
    server.use(
      listHandler({ 1: [transcript('t1', 'Welcome talk'), transcript('t2', 'Second')] }, 2),
      http.get('/api/library/transcripts/t2/content', () => HttpResponse.json({ data: { content: 'Second body' } })),
    );
    renderWithProviders({ route: '/vault?item=t2' });
    const dialog = await screen.findByRole('dialog', { name: 'Second' });
    expect(await within(dialog).findByText('Second body')).toBeInTheDocument();
  });

  it('loads more pages', async () => {
    const first = Array.from({ length: 20 }, (_, index) => transcript(`a${index}`, `Item ${index}`));
    server.use(listHandler({ 1: first, 2: [transcript('b1', 'Page two item')] }, 21));
    const { user } = renderWithProviders({ route: '/vault' });
    await screen.findByText('Item 19');
    expect(screen.getByText('21 items')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Page two item')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows an empty state', async () => {
    server.use(listHandler({}, 0));
    renderWithProviders({ route: '/vault' });
    expect(await screen.findByText('Your Vault is empty')).toBeInTheDocument();
  });

  it("shows 'Error loading vault' with Refresh Page on failure", async () => {
    server.use(http.get('/api/library/transcripts', () => new HttpResponse(null, { status: 500 })));
    renderWithProviders({ route: '/vault' });
    expect(await screen.findByText('Error loading vault', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    expect(await screen.findByText('Error loading data')).toBeInTheDocument();
    expect(screen.getByText('Please refresh the page.')).toBeInTheDocument();
  });
});
