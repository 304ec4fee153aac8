/**
 * The search history of Find Videos (docs/product-spec.md §3, §9): kept in localStorage, at most 50 entries; the
 * lists show 10; searching the same URL again increments usageCount.
 */
export interface SearchHistoryEntry {
  id: string;
  channelUrl: string;
  channelTitle: string;
  channelThumbnail: string | null;
  /** ISO 8601. */
  searchedAt: string;
  usageCount: number;
}

export const SEARCH_HISTORY_STORAGE_KEY = 'youtubeSearchHistory';
export const MAX_HISTORY_ENTRIES = 50;
export const HISTORY_LIST_SIZE = 10;

/** Two URLs that differ only in case, surrounding space or a trailing slash are the same search. */
export function sameChannelUrl(a: string, b: string): boolean {
  const normalise = (url: string) => url.trim().replace(/\/+$/, '').toLowerCase();
  return normalise(a) === normalise(b);
}

/**
 * The history after a successful search: the entry for the URL is refreshed (title, thumbnail,
 * time) with usageCount + 1, or a new entry is added; beyond 50 the least recently searched go.
 */
export function recordSearch(
  history: readonly SearchHistoryEntry[],
  search: { channelUrl: string; channelTitle: string; channelThumbnail: string | null },
  now: Date,
  newId: () => string,
): SearchHistoryEntry[] {
  const existing = history.find((entry) => sameChannelUrl(entry.channelUrl, search.channelUrl));
  const entry: SearchHistoryEntry = existing
    ? {
        ...existing,
        channelUrl: search.channelUrl,
        channelTitle: search.channelTitle || existing.channelTitle,
        channelThumbnail: search.channelThumbnail ?? existing.channelThumbnail,
        searchedAt: now.toISOString(),
        usageCount: existing.usageCount + 1,
      }
    : { id: newId(), ...search, searchedAt: now.toISOString(), usageCount: 1 };
  const others = history.filter((candidate) => candidate !== existing);
  return byMostRecent([entry, ...others]).slice(0, MAX_HISTORY_ENTRIES);
}

function byMostRecent(entries: SearchHistoryEntry[]): SearchHistoryEntry[] {
  return [...entries].sort((a, b) => Date.parse(b.searchedAt) - Date.parse(a.searchedAt));
}

/** 'Recently Searched': the 10 most recent. */
export function recentSearches(history: readonly SearchHistoryEntry[]): SearchHistoryEntry[] {
  return byMostRecent([...history]).slice(0, HISTORY_LIST_SIZE);
}

/** 'Most Used': the 10 with the highest usageCount, the more recent first on a tie. */
export function mostUsedSearches(history: readonly SearchHistoryEntry[]): SearchHistoryEntry[] {
  return byMostRecent([...history])
    .sort((a, b) => b.usageCount - a.usageCount)
    .slice(0, HISTORY_LIST_SIZE);
}

/** Reads what localStorage holds, dropping anything malformed (an older version's data, say). */
export function parseSearchHistory(raw: unknown): SearchHistoryEntry[] {
  if (!Array.isArray(raw)) return [];
  const entries = raw.flatMap((value): SearchHistoryEntry[] => {
    if (!value || typeof value !== 'object') return [];
    const entry = value as Partial<SearchHistoryEntry>;
    if (typeof entry.channelUrl !== 'string' || !entry.channelUrl.trim()) return [];
    const searchedAt = typeof entry.searchedAt === 'string' && !Number.isNaN(Date.parse(entry.searchedAt)) ? entry.searchedAt : new Date(0).toISOString();
    return [
      {
        id: typeof entry.id === 'string' && entry.id ? entry.id : entry.channelUrl,
        channelUrl: entry.channelUrl,
        channelTitle: typeof entry.channelTitle === 'string' ? entry.channelTitle : '',
        channelThumbnail: typeof entry.channelThumbnail === 'string' ? entry.channelThumbnail : null,
        searchedAt,
        usageCount: typeof entry.usageCount === 'number' && entry.usageCount > 0 ? Math.floor(entry.usageCount) : 1,
      },
    ];
  });
  return byMostRecent(entries).slice(0, MAX_HISTORY_ENTRIES);
}
