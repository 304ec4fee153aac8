import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { server } from '@/testing/server';
import type { LibraryTranscript } from './libraryApi';
import type { TimedSegment } from './playerApi';
import { activeCueIndex, cuesOf } from './playerRules';

const ITEM: LibraryTranscript = {
  id: 'a1',
  title: 'Welcome talk',
  author: 'Scribevault',
  createdAt: '2024-01-05T10:00:00Z',
  lastExported: null,
  isStarred: false,
  gwthLevel: null,
  sourceType: 'AUDIO',
  rating: null,
  tags: [],
  duration: 12,
  sectionId: null,
  fileName: 'transcripts/j/a1.txt',
  sourceUrl: null,
  needsReview: false,
};

const word = (text: string, startMs: number, endMs: number) => ({ text, startMs, endMs, probability: 0.9 });

const SEGMENTS: TimedSegment[] = [
  { startMs: 0, endMs: 2500, text: 'Welcome to the garden.', words: [word(' Welcome', 0, 800), word(' to', 800, 1000), word(' the', 1000, 1300), word(' garden.', 1300, 2500)] },
  { startMs: 3000, endMs: 6000, text: 'Soil comes first.', words: [word(' Soil', 3000, 3600), word(' comes', 3600, 4200), word(' first.', 4200, 6000)] },
  { startMs: 7000, endMs: 9000, text: 'A segment without word times.', words: [] },
];

const LINK = '/api/library/audio/a1?expires=4102444800&signature=sig';

/** The media element as jsdom cannot play it: time and paused state kept by hand. */
function fakeMedia() {
  const state = { time: 0, paused: true, plays: 0, pauses: 0 };
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'get').mockImplementation(() => state.time);
  vi.spyOn(HTMLMediaElement.prototype, 'currentTime', 'set').mockImplementation((value: number) => {
    state.time = value;
  });
  vi.spyOn(HTMLMediaElement.prototype, 'duration', 'get').mockImplementation(() => 12);
  vi.spyOn(HTMLMediaElement.prototype, 'paused', 'get').mockImplementation(() => state.paused);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => {
    state.paused = false;
    state.plays += 1;
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {
    state.paused = true;
    state.pauses += 1;
  });
  return state;
}

function backend(sourceType: LibraryTranscript['sourceType'] = 'AUDIO') {
  const item = { ...ITEM, sourceType };
  server.use(
    http.get('/api/library/transcripts', () => HttpResponse.json<Schema<'TranscriptPage'>>({ data: [item], meta: { page: 1, limit: 20, total: 1, hasMore: false } })),
    http.get('/api/library/transcripts/:id', () => HttpResponse.json<Schema<'Envelope_TranscriptView'>>({ data: item })),
    http.get('/api/library/transcripts/:id/content', () => HttpResponse.json<Schema<'Envelope_ContentView'>>({ data: { content: 'Welcome to the garden.' } })),
    http.get('/api/library/transcripts/:id/suggestions', () =>
      HttpResponse.json<Schema<'Envelope_SuggestionsView'>>({ data: { suggestedTags: [], suggestedRating: 3 } }),
    ),
    http.get('/api/library/transcripts/:id/audio-link', () =>
      HttpResponse.json<Schema<'Envelope_AudioLinkView'>>({ data: { url: LINK, expiresAt: '2100-01-01T00:00:00Z' } }),
    ),
    http.get('/api/library/transcripts/:id/segments', () => HttpResponse.json<Schema<'Envelope_SegmentsView'>>({ data: { segments: SEGMENTS } })),
    http.get('/api/library/stats', () =>
      HttpResponse.json<Schema<'Envelope_LibraryStats'>>({
        data: {
          totalTranscripts: 1,
          totalDuration: 12,
          storageUsed: 0,
          avgRating: 0,
          thisMonth: 1,
          export: { totalExported: 0, topRatedCount: 0, byGwthLevel: {}, bySourceType: {} },
          distributions: { rating: {}, gwthLevel: {}, sourceType: {} },
        },
      }),
    ),
    http.get('/api/library/tags', () => HttpResponse.json<Schema<'Envelope_Vec_TagView'>>({ data: [] })),
    http.get('/api/library/syllabus-sections', () => HttpResponse.json<Schema<'Envelope_Vec_SectionView'>>({ data: [] })),
  );
}

async function openPlayer(route = '/vault?item=a1') {
  const rendered = renderWithProviders({ route });
  const player = await screen.findByTestId('item-player');
  await within(player).findByRole('list', { name: 'Transcript of Welcome talk' });
  const audio = within(player).getByLabelText<HTMLAudioElement>('Recording of Welcome talk');
  await waitFor(() => expect(audio.getAttribute('src')).toBe(LINK));
  return { ...rendered, player, audio };
}

/** Moves playback to `seconds` as the browser reports it. */
function playTo(audio: HTMLAudioElement, media: { time: number }, seconds: number) {
  media.time = seconds;
  act(() => {
    fireEvent.timeUpdate(audio);
  });
}

const activeWords = (player: HTMLElement) => Array.from(player.querySelectorAll('.player-word.active')).map((node) => node.textContent);
const activeSegments = (player: HTMLElement) => Array.from(player.querySelectorAll('.player-segment.active'));

describe('item player', () => {
  let media: ReturnType<typeof fakeMedia>;
  beforeEach(() => {
    media = fakeMedia();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('finds the cue being spoken by binary search', () => {
    const cues = cuesOf(SEGMENTS);
    expect(cues).toHaveLength(8);
    expect(activeCueIndex(cues, -1)).toBe(-1);
    expect(activeCueIndex(cues, 0)).toBe(0);
    expect(cues[activeCueIndex(cues, 1.1)]).toEqual({ start: 1, segment: 0, word: 2 });
    expect(cues[activeCueIndex(cues, 2.9)]).toEqual({ start: 1.3, segment: 0, word: 3 });
    expect(cues[activeCueIndex(cues, 8)]).toEqual({ start: 7, segment: 2, word: -1 });
    expect(activeCueIndex([], 3)).toBe(-1);
  });

  it('plays an AUDIO item by its signed link and highlights the word being spoken', async () => {
    backend();
    const { player, audio } = await openPlayer();
    // At 0 s the first word is the one being spoken.
    expect(activeWords(player)).toEqual(['Welcome']);

    playTo(audio, media, 1.1);
    expect(activeWords(player)).toEqual(['the']);
    expect(activeSegments(player)).toHaveLength(1);
    expect(activeSegments(player)[0]).toHaveAttribute('aria-current', 'true');

    playTo(audio, media, 3.7);
    expect(activeWords(player)).toEqual(['comes']);
    expect(activeSegments(player)[0]).toHaveTextContent(/Soil comes first\./);

    // A segment without word times is highlighted whole.
    playTo(audio, media, 7.5);
    expect(activeWords(player)).toEqual([]);
    expect(activeSegments(player)[0]).toHaveTextContent(/A segment without word times\./);
  });

  it('seeks when a word or a segment time is clicked', async () => {
    backend();
    const { user, player } = await openPlayer();
    await user.click(within(player).getByRole('button', { name: 'comes' }));
    expect(media.time).toBe(3.6);
    expect(media.plays).toBe(1);
    expect(activeWords(player)).toEqual(['comes']);

    await user.click(within(player).getByRole('button', { name: 'Play from 0:07' }));
    expect(media.time).toBe(7);
  });
});

describe('item player: the keyboard and the address', () => {
  let media: ReturnType<typeof fakeMedia>;
  beforeEach(() => {
    media = fakeMedia();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('plays, pauses and skips with the keyboard inside the player, never while typing', async () => {
    backend();
    const { user, player } = await openPlayer();
    within(player).getByRole('button', { name: 'Play from 0:03' }).focus();

    await user.keyboard(' ');
    expect(media.paused).toBe(false);
    expect(media.time).toBe(0); // space played; it did not press the focused time button
    await user.keyboard(' ');
    expect(media.paused).toBe(true);

    media.time = 6;
    await user.keyboard('{ArrowRight}');
    expect(media.time).toBe(11);
    await user.keyboard('{ArrowRight}');
    expect(media.time).toBe(12); // not past the end
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(media.time).toBe(0); // not before the start

    // Typing in a field elsewhere in the dialog leaves playback alone.
    const tagInput = screen.getByPlaceholderText('Add a tag');
    await user.click(tagInput);
    await user.keyboard(' {ArrowRight}');
    expect(media.paused).toBe(true);
    expect(media.time).toBe(0);
    expect(tagInput).toHaveValue(' ');
  });

  it('starts from a search hit time given in the address', async () => {
    backend();
    const { audio } = await openPlayer('/vault?item=a1&t=3.2');
    act(() => {
      fireEvent.loadedMetadata(audio);
    });
    expect(media.time).toBe(3.2);
    expect(media.plays).toBe(0);
  });

  it('has no player for items that are not audio', async () => {
    backend('TEXT');
    renderWithProviders({ route: '/vault?item=a1' });
    expect(await screen.findByTestId('transcript-content')).toBeInTheDocument();
    expect(screen.queryByTestId('item-player')).not.toBeInTheDocument();
  });
});
