import { describe, expect, it } from 'vitest';
import {
  HISTORY_LIST_SIZE,
  MAX_HISTORY_ENTRIES,
  mostUsedSearches,
  parseSearchHistory,
  recentSearches,
  recordSearch,
  type SearchHistoryEntry,
} from './searchHistory';

const entry = (index: number, overrides: Partial<SearchHistoryEntry> = {}): SearchHistoryEntry => ({
  id: `id-${index}`,
  channelUrl: `https://www.youtube.com/@channel-${index}`,
  channelTitle: `Channel ${index}`,
  channelThumbnail: null,
  searchedAt: new Date(Date.UTC(2024, 0, 1, 0, index)).toISOString(),
  usageCount: 1,
  ...overrides,
});

describe('search history rules', () => {
  it('adds a new search at the front with usageCount 1 and an ISO searchedAt', () => {
    const now = new Date('2024-03-01T10:00:00Z');
    const history = recordSearch(
      [entry(1)],
      { channelUrl: 'https://www.youtube.com/@new', channelTitle: 'New', channelThumbnail: 'https://img/new.jpg' },
      now,
      () => 'new-id',
    );
    expect(history[0]).toEqual({
      id: 'new-id',
      channelUrl: 'https://www.youtube.com/@new',
      channelTitle: 'New',
      channelThumbnail: 'https://img/new.jpg',
      searchedAt: '2024-03-01T10:00:00.000Z',
      usageCount: 1,
    });
    expect(history).toHaveLength(2);
  });

  it('increments usageCount when the same URL is searched again (ignoring case, spaces, a trailing slash)', () => {
    const first = recordSearch([], { channelUrl: 'https://www.youtube.com/@Same', channelTitle: 'Same', channelThumbnail: null }, new Date('2024-01-01T00:00:00Z'), () => 'a');
    const again = recordSearch(first, { channelUrl: 'https://www.youtube.com/@same/', channelTitle: 'Same (renamed)', channelThumbnail: null }, new Date('2024-01-02T00:00:00Z'), () => 'b');
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: 'a', usageCount: 2, channelTitle: 'Same (renamed)', searchedAt: '2024-01-02T00:00:00.000Z' });
  });

  it('keeps at most 50 entries, dropping the least recently searched', () => {
    const fifty = Array.from({ length: MAX_HISTORY_ENTRIES }, (_, index) => entry(index));
    const history = recordSearch(fifty, { channelUrl: 'https://www.youtube.com/@51st', channelTitle: '51st', channelThumbnail: null }, new Date('2025-01-01T00:00:00Z'), () => 'x');
    expect(history).toHaveLength(50);
    expect(history[0].channelTitle).toBe('51st');
    expect(history.map((item) => item.id)).not.toContain('id-0');
    expect(history.map((item) => item.id)).toContain('id-1');
  });

  it('lists the 10 most recent and the 10 most used (more recent first on a tie)', () => {
    const history = Array.from({ length: 20 }, (_, index) => entry(index, { usageCount: index % 5 === 0 ? 7 : 1 }));
    expect(recentSearches(history).map((item) => item.id)).toEqual(
      Array.from({ length: HISTORY_LIST_SIZE }, (_, index) => `id-${19 - index}`),
    );
    const mostUsed = mostUsedSearches(history);
    expect(mostUsed).toHaveLength(10);
    expect(mostUsed.slice(0, 4).map((item) => item.id)).toEqual(['id-15', 'id-10', 'id-5', 'id-0']);
    expect(mostUsed[4].id).toBe('id-19');
  });

  it('reads stored history defensively', () => {
    expect(parseSearchHistory(null)).toEqual([]);
    expect(parseSearchHistory('nope')).toEqual([]);
    const parsed = parseSearchHistory([
      { channelUrl: 'https://www.youtube.com/@ok', channelTitle: 'OK', searchedAt: '2024-01-01T00:00:00Z', usageCount: 3, id: 'ok' },
      { channelTitle: 'no url' },
      42,
      { channelUrl: 'https://www.youtube.com/@bare' },
    ]);
    expect(parsed.map((item) => [item.id, item.usageCount])).toEqual([
      ['ok', 3],
      ['https://www.youtube.com/@bare', 1],
    ]);
    expect(parseSearchHistory(Array.from({ length: 60 }, (_, index) => entry(index)))).toHaveLength(50);
  });
});
