import { describe, expect, it } from 'vitest';
import { exportFormatsFor, vaultListParams, type LibraryTranscript } from './libraryApi';
import { buildVaultQuery, EMPTY_FILTERS, groupByExport, recentSince, snippetParts, sortChoiceOf } from './vaultRules';

const item = (id: string, lastExported: string | null): LibraryTranscript => ({
  id,
  needsReview: false,
  title: id,
  author: '',
  createdAt: '2024-01-01T00:00:00Z',
  lastExported,
  isStarred: false,
  gwthLevel: null,
  sourceType: 'AUDIO',
  rating: null,
  tags: [],
  duration: null,
  sectionId: null,
});

describe('groupByExport (docs/product-spec.md §4)', () => {
  it("puts items without lastExported under 'Not Downloaded', then one group per export day, newest first", () => {
    const groups = groupByExport([
      item('a', '2024-03-01T12:00:00Z'),
      item('b', null),
      item('c', '2024-03-02T11:00:00Z'),
      item('d', '2024-03-01T13:00:00Z'),
      item('e', 'not a date'),
    ]);
    expect(groups.map((group) => [group.title, group.items.map((entry) => entry.id)])).toEqual([
      ['Not Downloaded', ['b', 'e']],
      ['Downloaded on Mar 02, 2024', ['c']],
      ['Downloaded on Mar 01, 2024', ['a', 'd']],
    ]);
  });

  it('has no Not Downloaded group when every item was exported, and no groups for no items', () => {
    expect(groupByExport([item('a', '2024-03-01T12:00:00Z')]).map((group) => group.title)).toEqual(['Downloaded on Mar 01, 2024']);
    expect(groupByExport([])).toEqual([]);
  });
});

describe('snippetParts', () => {
  it('reads only <mark> as markup and decodes the escaped text', () => {
    expect(snippetParts('a &lt;b&gt; <mark>soil</mark> &amp; <MARK>water</MARK>&#33; &#x27;x&#x27;')).toEqual([
      { text: 'a <b> ', marked: false },
      { text: 'soil', marked: true },
      { text: ' & ', marked: false },
      { text: 'water', marked: true },
      { text: "! 'x'", marked: false },
    ]);
  });

  it('keeps any other tag as literal text', () => {
    expect(snippetParts('<img src=x onerror=alert(1)><mark>hit</mark></mark>')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: 'hit', marked: true },
    ]);
  });
});

describe('the list query', () => {
  it('sends the default sort without q, and leaves sortBy out with q (relevance server-side)', () => {
    const plain = vaultListParams(buildVaultQuery('all', null, '', EMPTY_FILTERS), 1);
    expect(plain.toString()).toBe('page=1&limit=20&sortBy=createdAt&sortOrder=desc');
    const search = vaultListParams(buildVaultQuery('all', null, '  soil  ', EMPTY_FILTERS), 2);
    expect(search.toString()).toBe('page=2&limit=20&q=soil');
    expect(sortChoiceOf(EMPTY_FILTERS, true)).toBe('relevance');
    expect(sortChoiceOf(EMPTY_FILTERS, false)).toBe('createdAt:desc');
  });

  it('repeats array keys, and the tabs set createdAfter or isStarred', () => {
    const filters = { ...EMPTY_FILTERS, tags: ['b', 'a'], sourceType: ['PDF', 'AUDIO'], rating: [5, 4], isStarred: false };
    expect(vaultListParams(buildVaultQuery('all', null, '', filters), 1).toString()).toBe(
      'page=1&limit=20&sortBy=createdAt&sortOrder=desc&tags=a&tags=b&sourceType=AUDIO&sourceType=PDF&rating=4&rating=5&isStarred=false',
    );
    expect(buildVaultQuery('starred', null, '', filters).isStarred).toBe(true);
    expect(buildVaultQuery('recent', '2024-01-01T00:00:00.000Z', '', filters).createdAfter).toBe('2024-01-01T00:00:00.000Z');
    expect(buildVaultQuery('all', '2024-01-01T00:00:00.000Z', '', filters).createdAfter).toBeNull();
  });

  it("'recent' is now − 7 days", () => {
    expect(recentSince(new Date('2024-01-08T10:00:00Z'))).toBe('2024-01-01T10:00:00.000Z');
  });

  it('relevance without q falls back to the default sort', () => {
    const params = vaultListParams(buildVaultQuery('all', null, '', { ...EMPTY_FILTERS, sortBy: 'relevance' }), 1);
    expect(params.get('sortBy')).toBe('createdAt');
  });
});

describe('export formats', () => {
  it('offers srt and vtt only when every item is audio', () => {
    expect(exportFormatsFor(['AUDIO'])).toEqual(['markdown', 'txt', 'json', 'srt', 'vtt']);
    expect(exportFormatsFor(['AUDIO', 'PDF'])).toEqual(['markdown', 'txt', 'json']);
    expect(exportFormatsFor([])).toEqual(['markdown', 'txt', 'json']);
  });
});
