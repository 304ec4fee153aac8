import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { server } from '@/testing/server';
import { openDetail, transcript, vaultBackend } from '@/testing/vaultBackend';

// An AUDIO item's detail has its player: a recording without segments.
beforeEach(() => {
  server.use(
    http.get('/api/library/transcripts/:id/audio-link', () =>
      HttpResponse.json<Schema<'Envelope_AudioLinkView'>>({ data: { url: '/api/library/audio/t1?expires=1&signature=s', expiresAt: '2100-01-01T00:00:00Z' } }),
    ),
    http.get('/api/library/transcripts/:id/segments', () => HttpResponse.json<Schema<'Envelope_SegmentsView'>>({ data: { segments: [] } })),
  );
});

describe('/vault transcript language', () => {
  it("names each AUDIO item's language on its card and in its detail; an unknown one shows none", async () => {
    vaultBackend([
      transcript('t1', 'Wetterbericht', { language: 'de' }),
      transcript('t2', 'Old talk', { language: null }),
      // A code the server's list (here a part of it) lacks is named by the browser.
      transcript('t3', 'Aloha', { language: 'haw' }),
    ]);
    const { user } = renderWithProviders({ route: '/vault' });
    const card = (title: string) => screen.getByRole('article', { name: title });
    expect(await within(await screen.findByRole('article', { name: 'Wetterbericht' })).findByTestId('item-language')).toHaveTextContent(
      'German transcript',
    );
    expect(within(card('Old talk')).queryByTestId('item-language')).not.toBeInTheDocument();
    expect(within(card('Aloha')).getByTestId('item-language')).toHaveTextContent('Hawaiian');

    const dialog = await openDetail(user, 'Wetterbericht');
    expect(await within(dialog).findByTestId('detail-language')).toHaveTextContent('German');
  });

  it('says the language is not known in the detail of an AUDIO item without one', async () => {
    vaultBackend([transcript('t2', 'Old talk', { language: null })]);
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Old talk');
    expect(within(dialog).getByTestId('detail-language')).toHaveTextContent('Not known');
  });
});
