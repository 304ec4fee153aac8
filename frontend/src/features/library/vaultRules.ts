import { formatDate } from '@/lib/format';
import { VAULT_PAGE_SIZE, type LibraryTranscript, type SortOrder, type VaultQuery, type VaultSortBy } from './libraryApi';

/** The filter tabs of docs/product-spec.md §4. */
export type VaultTab = 'all' | 'recent' | 'starred';
export const VAULT_TABS: ReadonlyArray<{ id: VaultTab; label: string }> = [
  { id: 'all', label: 'All' },
  { id: 'recent', label: 'Recent' },
  { id: 'starred', label: 'Starred' },
];

/** 'recent' means created within the last 7 days (docs/product-spec.md §9). */
export const RECENT_DAYS = 7;

/** createdAfter for the 'recent' tab: now − 7 days, RFC 3339. */
export function recentSince(now: Date = new Date()): string {
  return new Date(now.getTime() - RECENT_DAYS * 86_400_000).toISOString();
}

/** The filters a user sets in the panel (the tab and the search box are kept apart). */
export interface VaultFilters {
  tags: string[];
  sourceType: string[];
  rating: number[];
  /** null: any. The Starred tab overrides it. */
  isStarred: boolean | null;
  /** Only the items the quality guard marked 'Needs review'. */
  needsReview: boolean;
  sortBy: VaultSortBy | null;
  sortOrder: SortOrder;
}

export const EMPTY_FILTERS: VaultFilters = {
  tags: [],
  sourceType: [],
  rating: [],
  isStarred: null,
  needsReview: false,
  sortBy: null,
  sortOrder: 'desc',
};

/** How many filters of the panel narrow the list (the sort does not). */
export function activeFilterCount(filters: VaultFilters): number {
  return (
    filters.tags.length + filters.sourceType.length + filters.rating.length + (filters.isStarred === null ? 0 : 1) + (filters.needsReview ? 1 : 0)
  );
}

/** The list query for a tab, the search text and the panel's filters. Arrays are sorted so equal filters share a cache entry. */
export function buildVaultQuery(
  tab: VaultTab,
  since: string | null,
  q: string,
  filters: VaultFilters,
  limit: number = VAULT_PAGE_SIZE,
): VaultQuery {
  return {
    limit,
    q: q.trim(),
    tags: [...filters.tags].sort(),
    sourceType: [...filters.sourceType].sort(),
    rating: [...filters.rating].sort((a, b) => a - b),
    isStarred: tab === 'starred' ? true : filters.isStarred,
    createdAfter: tab === 'recent' ? since : null,
    needsReview: filters.needsReview ? true : null,
    sortBy: filters.sortBy,
    sortOrder: filters.sortOrder,
  };
}

/** Adds `value` to the list, or takes it out. */
export function toggled<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((entry) => entry !== value) : [...list, value];
}

/** The sort choices of the toolbar, as `sortBy:sortOrder` ('relevance' only while searching). */
export const SORT_CHOICES: ReadonlyArray<{ value: string; label: string; sortBy: VaultSortBy; sortOrder: SortOrder }> = [
  { value: 'relevance', label: 'Relevance', sortBy: 'relevance', sortOrder: 'desc' },
  { value: 'createdAt:desc', label: 'Newest first', sortBy: 'createdAt', sortOrder: 'desc' },
  { value: 'createdAt:asc', label: 'Oldest first', sortBy: 'createdAt', sortOrder: 'asc' },
  { value: 'title:asc', label: 'Title A–Z', sortBy: 'title', sortOrder: 'asc' },
  { value: 'title:desc', label: 'Title Z–A', sortBy: 'title', sortOrder: 'desc' },
  { value: 'rating:desc', label: 'Highest rated', sortBy: 'rating', sortOrder: 'desc' },
  { value: 'rating:asc', label: 'Lowest rated', sortBy: 'rating', sortOrder: 'asc' },
  { value: 'lastExported:desc', label: 'Recently downloaded', sortBy: 'lastExported', sortOrder: 'desc' },
];

/** The sort choice shown for the filters: the server's default when none was chosen. */
export function sortChoiceOf(filters: VaultFilters, searching: boolean): string {
  if (!filters.sortBy) return searching ? 'relevance' : 'createdAt:desc';
  if (filters.sortBy === 'relevance') return searching ? 'relevance' : 'createdAt:desc';
  return `${filters.sortBy}:${filters.sortOrder}`;
}

export interface VaultGroup {
  /** 'not-downloaded' or the export day, YYYY-MM-DD in the browser's zone. */
  key: string;
  title: string;
  items: LibraryTranscript[];
}

export const NOT_DOWNLOADED = 'not-downloaded';

function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Spec §4: items without lastExported go under 'Not Downloaded' (first), the others under
 * 'Downloaded on {date}', one group per day, newest first. Items keep the server's order inside
 * a group.
 */
export function groupByExport(items: readonly LibraryTranscript[]): VaultGroup[] {
  const notDownloaded: LibraryTranscript[] = [];
  const byDay = new Map<string, { latest: number; date: Date; items: LibraryTranscript[] }>();
  for (const item of items) {
    const exported = item.lastExported ? new Date(item.lastExported) : null;
    if (!exported || Number.isNaN(exported.getTime())) {
      notDownloaded.push(item);
      continue;
    }
    const key = localDay(exported);
    const group = byDay.get(key) ?? { latest: 0, date: exported, items: [] };
    group.latest = Math.max(group.latest, exported.getTime());
    group.items.push(item);
    byDay.set(key, group);
  }
  const groups: VaultGroup[] = [];
  if (notDownloaded.length > 0) groups.push({ key: NOT_DOWNLOADED, title: 'Not Downloaded', items: notDownloaded });
  const days = [...byDay.entries()].sort((a, b) => b[1].latest - a[1].latest);
  for (const [key, group] of days) groups.push({ key, title: `Downloaded on ${formatDate(group.date)}`, items: group.items });
  return groups;
}

/** A piece of a search snippet: plain text, marked when the server wrapped it in `<mark>`. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * Sanitises a highlight snippet (HTML with only `<mark>` tags) into text parts. Only `<mark>` and
 * `</mark>` are read as markup; anything else that looks like a tag stays literal text, and the
 * parts are rendered as React text nodes, so no markup of the snippet reaches the DOM.
 */
export function snippetParts(html: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let depth = 0;
  for (const token of html.split(/(<mark>|<\/mark>)/i)) {
    if (/^<mark>$/i.test(token)) {
      depth += 1;
      continue;
    }
    if (/^<\/mark>$/i.test(token)) {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (!token) continue;
    const text = decodeEntities(token);
    const marked = depth > 0;
    const last = parts.at(-1);
    if (last && last.marked === marked) last.text += text;
    else parts.push({ text, marked });
  }
  return parts;
}

export type VaultView = 'list' | 'grid';

/**
 * The Vault's view memory (localStorage `vaultView`): the view last picked with the toggle and the
 * `defaultView` setting in force when it was picked. The setting is the default; a pick overrides
 * it until the setting changes, so changing Default view in Settings always shows on the next
 * visit. The old plain 'list'/'grid' value counts as picked under the old default, list.
 */
export function rememberedView(stored: string | null, defaultView: VaultView): VaultView {
  if (!stored) return defaultView;
  if (stored === 'list' || stored === 'grid') return defaultView === 'list' ? stored : defaultView;
  try {
    const memory = JSON.parse(stored) as { view?: unknown; defaultView?: unknown };
    const picked = memory.view === 'grid' || memory.view === 'list' ? memory.view : null;
    return picked && memory.defaultView === defaultView ? picked : defaultView;
  } catch {
    return defaultView;
  }
}

export function viewMemory(view: VaultView, defaultView: VaultView): string {
  return JSON.stringify({ view, defaultView });
}
