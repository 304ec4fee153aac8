import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import type { NewPodcastFeed, PodcastFeed } from './feedsApi';

const feed = (overrides: Partial<PodcastFeed> = {}): PodcastFeed => ({
  id: 'f1',
  scope: 'vault',
  scopeId: null,
  name: 'Vault',
  createdAt: '2026-11-26T08:00:00Z',
  lastFetchedAt: null,
  ...overrides,
});

const SOURCE: Schema<'SourceView'> = {
  id: 's1',
  type: 'CHANNEL',
  title: 'Bread Channel',
  thumbnailUrl: 'https://i.ytimg.com/bread.jpg',
  url: 'https://www.youtube.com/@bread',
  createdAt: '2026-11-20T08:00:00Z',
};

/** A feeds backend over a list the test can read. */
function feedsBackend(initial: PodcastFeed[]) {
  const feeds = [...initial];
  const made: Schema<'NewFeedRequest'>[] = [];
  const revoked: string[] = [];
  const answer = (item: PodcastFeed): NewPodcastFeed => ({ ...item, url: `https://vault.example.com/feeds/secret-${item.id}.xml` });
  server.use(
    http.get('/api/feeds', () => HttpResponse.json<Schema<'Envelope_FeedsView'>>({ data: { feeds } })),
    http.post('/api/feeds', async ({ request }) => {
      const body = (await request.json()) as Schema<'NewFeedRequest'>;
      made.push(body);
      const name = body.scope === 'vault' ? 'Vault' : body.scope === 'tag' ? `#${body.id}` : SOURCE.title;
      const item = feed({ id: 'f2', scope: body.scope, scopeId: body.id ?? null, name });
      feeds.unshift(item);
      return HttpResponse.json<Schema<'Envelope_NewFeedView'>>({ data: answer(item) }, { status: 201 });
    }),
    http.post('/api/feeds/:id/rotate', ({ params }) => {
      const item = feeds.find((entry) => entry.id === params.id) ?? feed();
      return HttpResponse.json<Schema<'Envelope_NewFeedView'>>({ data: { ...answer(item), url: 'https://vault.example.com/feeds/rotated.xml' } });
    }),
    http.delete('/api/feeds/:id', ({ params }) => {
      revoked.push(String(params.id));
      feeds.splice(
        feeds.findIndex((entry) => entry.id === params.id),
        1,
      );
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/sources', () => HttpResponse.json<Schema<'Envelope_Vec_SourceView'>>({ data: [SOURCE] })),
    http.get('/api/library/tags', () => HttpResponse.json<Schema<'Envelope_Vec_TagView'>>({ data: [{ id: 't1', name: 'interviews', count: 3 }] })),
  );
  return { feeds, made, revoked };
}

async function renderFeeds() {
  const view = renderWithProviders({ route: '/settings?tab=feeds' });
  await screen.findByRole('heading', { name: 'Podcast Feeds', level: 2 });
  return view;
}

describe('Settings → Podcast Feeds', () => {
  it('lists feeds with what they publish and when they were last fetched, never a URL', async () => {
    feedsBackend([feed({ lastFetchedAt: '2026-11-26T09:30:00Z' }), feed({ id: 'f3', scope: 'tag', scopeId: 'talks', name: '#talks' })]);
    await renderFeeds();
    const rows = await screen.findAllByTestId('podcast-feed-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Vault')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Whole Vault')).toBeInTheDocument();
    expect(within(rows[1]).getByText('#talks')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Never')).toBeInTheDocument();
    expect(screen.queryByText(/\/feeds\//)).not.toBeInTheDocument();
  });

  it('creates a source feed and shows its URL once, with Copy and how to subscribe', async () => {
    const backend = feedsBackend([]);
    const { user } = await renderFeeds();
    expect(await screen.findByText('No feeds yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create feed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create podcast feed' });
    await user.selectOptions(within(dialog).getByLabelText('Publish'), 'source');
    // Submitting without a source says what is missing instead of calling the server.
    await user.click(within(dialog).getByRole('button', { name: 'Create feed' }));
    expect(within(dialog).getByText('Pick the source to publish')).toBeInTheDocument();
    await user.selectOptions(await within(dialog).findByLabelText('Source'), 's1');
    await user.click(within(dialog).getByRole('button', { name: 'Create feed' }));
    const done = await screen.findByRole('dialog', { name: 'Feed created' });
    expect(within(done).getByLabelText(/Feed URL of/)).toHaveValue('https://vault.example.com/feeds/secret-f2.xml');
    expect(within(done).getByRole('button', { name: 'Copy URL' })).toBeInTheDocument();
    expect(within(done).getByText(/Follow a Show by URL/)).toBeInTheDocument();
    expect(backend.made).toEqual([{ scope: 'source', id: 's1' }]);
  });

  it('creates a tag feed from a typed tag', async () => {
    const backend = feedsBackend([]);
    const { user } = await renderFeeds();
    await user.click(await screen.findByRole('button', { name: 'Create feed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create podcast feed' });
    await user.selectOptions(within(dialog).getByLabelText('Publish'), 'tag');
    await user.type(within(dialog).getByLabelText('Tag'), '  interviews ');
    await user.click(within(dialog).getByRole('button', { name: 'Create feed' }));
    await screen.findByRole('dialog', { name: 'Feed created' });
    expect(backend.made).toEqual([{ scope: 'tag', id: 'interviews' }]);
  });

  it("shows the server's refusal in the dialog", async () => {
    feedsBackend([]);
    server.use(http.post('/api/feeds', () => errorResponse(409, 'You have 50 feeds, the most one account may hold; revoke one first')));
    const { user } = await renderFeeds();
    await user.click(await screen.findByRole('button', { name: 'Create feed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create podcast feed' });
    await user.click(within(dialog).getByRole('button', { name: 'Create feed' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have 50 feeds');
  });

  it('revokes a feed after confirming', async () => {
    const backend = feedsBackend([feed()]);
    const { user } = await renderFeeds();
    await user.click(await screen.findByRole('button', { name: 'Revoke the feed “Vault”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this feed?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke feed' }));
    await waitFor(() => expect(backend.revoked).toEqual(['f1']));
    expect(await screen.findByText('No feeds yet.')).toBeInTheDocument();
  });

  it('makes a new URL after confirming and shows it', async () => {
    feedsBackend([feed()]);
    const { user } = await renderFeeds();
    await user.click(await screen.findByRole('button', { name: 'Make a new URL for “Vault”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Make a new URL?' });
    await user.click(within(confirm).getByRole('button', { name: 'Make new URL' }));
    const shown = await screen.findByRole('dialog', { name: 'New feed URL' });
    expect(within(shown).getByLabelText(/Feed URL of/)).toHaveValue('https://vault.example.com/feeds/rotated.xml');
  });
});
