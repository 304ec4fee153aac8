import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import { cardOf, cardTitles, lastList, openDetail, transcript, vaultBackend } from '@/testing/vaultBackend';
import type { ItemReview } from './ReviewPanel';

/** What the quality guard left on a looped recording: a repetition and an unlikely stretch. */
const REVIEW: ItemReview = {
  reasons: ['repetition', 'lowConfidence'],
  ranges: [
    { start: 1.09, end: 4.72, reason: 'repetition' },
    { start: 62, end: 75.5, reason: 'lowConfidence' },
  ],
};

const LINK = '/api/library/audio/r1?expires=4102444800&signature=sig';

/** The media element as jsdom cannot play it: the time set and the plays asked for. */
function fakeMedia() {
  const state = { time: 0, plays: 0 };
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => state.time);
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'set').mockImplementation((value: number) => {
    state.time = value;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => 80);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => {
    state.plays += 1;
    return Promise.resolve();
  });
  return state;
}

/**
 * `DELETE …/review` on `backend`'s items: drops the item's review once `gate` opens (so the
 * pending state can be seen), or answers `failure` when one is given.
 */
function reviewBackend(backend: ReturnType<typeof vaultBackend>, options: { failure?: Response } = {}) {
  const calls: string[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  server.use(
    http.delete('/api/library/transcripts/:id/review', async ({ params }) => {
      calls.push(params.id as string);
      await gate;
      if (options.failure) return options.failure.clone();
      const entry = backend.items.find((candidate) => candidate.id === params.id);
      if (!entry) return errorResponse(404, 'Transcript not found');
      entry.needsReview = false;
      entry.review = null;
      return HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: { ...entry } });
    }),
  );
  return { calls, open: () => open() };
}

/** The player's own calls, for an AUDIO item. */
function playerBackend() {
  server.use(
    http.get('/api/library/transcripts/:id/audio-link', () =>
      HttpResponse.json<Schema<'Envelope_AudioLinkView'>>({ data: { url: LINK, expiresAt: '2100-01-01T00:00:00Z' } }),
    ),
    http.get('/api/library/transcripts/:id/segments', () =>
      HttpResponse.json<Schema<'Envelope_SegmentsView'>>({
        data: {
          segments: [
            { startMs: 0, endMs: 2540, text: 'Please be in the middle of the year.', words: [] },
            { startMs: 2540, endMs: 4720, text: 'Be in the middle of the year.', words: [] },
          ],
        },
      }),
    ),
  );
}

describe("'Needs review'", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('marks the flagged items of the list, and the filter asks for them alone', async () => {
    const backend = vaultBackend([
      transcript('r1', 'Looped talk', { needsReview: true, review: REVIEW }),
      transcript('c1', 'Clean talk'),
    ]);
    const { user } = renderWithProviders({ route: '/vault' });
    await waitFor(() => expect(cardTitles()).toEqual(['Looped talk', 'Clean talk']));
    expect(within(cardOf('Looped talk')).getByTestId('needs-review')).toHaveTextContent('Needs review');
    expect(within(cardOf('Clean talk')).queryByTestId('needs-review')).not.toBeInTheDocument();
    expect(lastList(backend).get('needsReview')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    await user.click(within(panel).getByRole('checkbox', { name: 'Needs review' }));
    await waitFor(() => expect(lastList(backend).get('needsReview')).toBe('true'));
    await waitFor(() => expect(cardTitles()).toEqual(['Looped talk']));
    expect(screen.getByRole('button', { name: /Filters/ })).toHaveTextContent('Filters1');

    await user.click(within(panel).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastList(backend).get('needsReview')).toBeNull());
    await waitFor(() => expect(cardTitles()).toEqual(['Looped talk', 'Clean talk']));
  });

  it('shows why and where on the item, and each stretch plays the recording from its start', async () => {
    const media = fakeMedia();
    vaultBackend([transcript('r1', 'Looped talk', { needsReview: true, review: REVIEW, duration: 80 })]);
    playerBackend();
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Looped talk');
    expect(within(dialog).getByTestId('needs-review')).toBeInTheDocument();
    const panel = within(dialog).getByTestId('review-panel');
    expect(within(panel).getByRole('heading', { name: 'Needs review' })).toBeInTheDocument();
    const reasons = within(within(panel).getByRole('list', { name: 'Reasons' })).getAllByRole('listitem');
    expect(reasons.map((reason) => reason.textContent)).toEqual([
      'Repeated phrase: The same phrase over and over: Whisper may have looped instead of following the speech.',
      'Low confidence: Whisper was unsure of these words: they may be misheard or invented.',
    ]);
    const ranges = within(panel).getByRole('list', { name: 'Stretches to check' });
    expect(within(ranges).getAllByRole('listitem').map((range) => range.textContent)).toEqual([
      '0:01–0:04Repeated phrase',
      '1:02–1:15Low confidence',
    ]);

    const player = within(dialog).getByTestId('item-player');
    const audio = within(player).getByLabelText<HTMLAudioElement>('Recording of Looped talk');
    await waitFor(() => expect(audio.getAttribute('src')).toBe(LINK));
    await user.click(within(ranges).getByRole('button', { name: 'Play from 1:02: low confidence until 1:15' }));
    expect(media.time).toBe(62);
    expect(media.plays).toBe(1);
    await user.click(within(ranges).getByRole('button', { name: 'Play from 0:01: repeated phrase until 0:04' }));
    expect(media.time).toBe(1.09);
  });

  it('says nothing on an item that needs no review', async () => {
    vaultBackend([transcript('c1', 'Clean talk')]);
    playerBackend();
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Clean talk');
    expect(await within(dialog).findByTestId('item-player')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('review-panel')).not.toBeInTheDocument();
    expect(within(dialog).queryByTestId('needs-review')).not.toBeInTheDocument();
  });
});

describe("'Needs review': marking as reviewed", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("'Mark as reviewed' waits for the server, then the badge, the panel and the filtered card go", async () => {
    const backend = vaultBackend([
      transcript('r1', 'Looped talk', { needsReview: true, review: REVIEW }),
      transcript('c1', 'Clean talk'),
    ]);
    playerBackend();
    const review = reviewBackend(backend);
    const { user } = renderWithProviders({ route: '/vault' });
    await waitFor(() => expect(cardTitles()).toEqual(['Looped talk', 'Clean talk']));
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    await user.click(within(screen.getByRole('region', { name: 'Filters' })).getByRole('checkbox', { name: 'Needs review' }));
    await waitFor(() => expect(cardTitles()).toEqual(['Looped talk']));

    const dialog = await openDetail(user, 'Looped talk');
    const panel = within(dialog).getByTestId('review-panel');
    await user.click(within(panel).getByRole('button', { name: 'Mark as reviewed' }));
    const pending = await within(panel).findByRole('button', { name: 'Marking as reviewed...' });
    expect(pending).toBeDisabled();
    expect(review.calls).toEqual(['r1']);

    review.open();
    await waitFor(() => expect(within(dialog).queryByTestId('review-panel')).not.toBeInTheDocument());
    expect(within(dialog).queryByTestId('needs-review')).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('item-player')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list is asked again with the filter on, and the item is no longer in it.
    await waitFor(() => expect(cardTitles()).toEqual([]));
    expect(lastList(backend).get('needsReview')).toBe('true');
    expect(review.calls).toEqual(['r1']);
  });

  it("a failed 'Mark as reviewed' says why and keeps the panel, ready to try again", async () => {
    const backend = vaultBackend([transcript('r1', 'Looped talk', { needsReview: true, review: REVIEW })]);
    playerBackend();
    const review = reviewBackend(backend, { failure: errorResponse(503, 'The library is not reachable') });
    review.open();
    const { user } = renderWithProviders({ route: '/vault' });
    const dialog = await openDetail(user, 'Looped talk');
    const panel = within(dialog).getByTestId('review-panel');
    await user.click(within(panel).getByRole('button', { name: 'Mark as reviewed' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent('The library is not reachable');
    expect(within(dialog).getByTestId('needs-review')).toBeInTheDocument();
    expect(within(panel).getByRole('list', { name: 'Stretches to check' })).toBeInTheDocument();
    const again = within(panel).getByRole('button', { name: 'Mark as reviewed' });
    expect(again).toBeEnabled();
    expect(review.calls).toEqual(['r1']);
    expect(backend.items[0].needsReview).toBe(true);
  });
});
