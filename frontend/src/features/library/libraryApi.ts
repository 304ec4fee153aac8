import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/**
 * The Vault's REST calls (docs/vault-api.md). Every answer is `{"data": …}`; lists add `meta`.
 * Errors carry `{"error": {"message"}}`, and the screen shows that message before the spec's
 * fallback texts in VAULT_ERRORS (§8, "Library (vault client)").
 */

/** The kinds of item the Vault holds (the contract's SourceType). */
export type SourceType = Schema<'SourceType'>;

/**
 * What each kind is called, in the order the filters offer them. A Record, so a kind added to the
 * contract (docs/openapi.json) fails tsc here until it has a label.
 */
export const SOURCE_TYPE_LABELS: Record<SourceType, string> = {
  AUDIO: 'Audio',
  PDF: 'PDF',
  PDF_SOURCE: 'PDF source',
  WEBSITE: 'Website',
  WEBSITE_CONTENT: 'Website content',
  IMAGE: 'Image',
  TEXT: 'Text',
};

/** Every kind, in the order of SOURCE_TYPE_LABELS. */
export const SOURCE_TYPES = Object.keys(SOURCE_TYPE_LABELS) as readonly SourceType[];

export function sourceTypeLabel(type: string | null | undefined): string {
  if (!type) return 'Other';
  return (SOURCE_TYPE_LABELS as Record<string, string>)[type] ?? type;
}

/** ADR 0012: how far an item's knowledge has been worked through. */
export const GWTH_LEVELS: ReadonlyArray<{ level: number; label: string }> = [
  { level: 1, label: 'Captured' },
  { level: 2, label: 'Reviewed' },
  { level: 3, label: 'Understood' },
  { level: 4, label: 'Applied' },
  { level: 5, label: 'Taught' },
];

export function gwthLabel(level: number | null | undefined): string | null {
  return GWTH_LEVELS.find((candidate) => candidate.level === level)?.label ?? null;
}

/** A transcript segment that contains the searched words (AUDIO items only; seconds). */
export type SearchMatch = Schema<'SegmentMatchView'>;

/** A Vault item (`LibraryTranscript`). Its text is fetched separately. */
/**
 * `sourceType` is one of SOURCE_TYPES (the contract's SourceType); `gwthLevel` and
 * `rating` are null or 1–5; `duration` in seconds; `fileName` the transcript path the item was
 * made from. With `q` only: `highlights` (HTML-escaped snippets, the matched words in
 * `<mark>…</mark>`) and, for AUDIO items, at most 5 `matches`.
 */
export type LibraryTranscript = Schema<'TranscriptView'>;

/** `totalDuration` in seconds, `storageUsed` in bytes; `avgRating` is 0 for no rated item. */
export type LibraryStats = Schema<'LibraryStats'>;

export type LibraryTag = Schema<'TagView'>;

export type SyllabusSection = Schema<'SectionView'>;

export type Suggestions = Schema<'SuggestionsView'>;

/** What a failed suggestions fetch yields (docs/product-spec.md §8): no tags and a rating of 5. */
export const FALLBACK_SUGGESTIONS: Suggestions = { suggestedTags: [], suggestedRating: 5 };

export const EXPORT_FORMATS = ['markdown', 'txt', 'json', 'srt', 'vtt'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  markdown: 'Markdown (.md)',
  txt: 'Plain text (.txt)',
  json: 'JSON (.json)',
  srt: 'Subtitles (.srt)',
  vtt: 'Web subtitles (.vtt)',
};

/** markdown, txt and json for every item; srt and vtt only when every item is AUDIO. */
export function exportFormatsFor(sourceTypes: ReadonlyArray<string | null>): ExportFormat[] {
  const allAudio = sourceTypes.length > 0 && sourceTypes.every((type) => type === 'AUDIO');
  return allAudio ? [...EXPORT_FORMATS] : ['markdown', 'txt', 'json'];
}

export type ExportLink = Schema<'ExportLinkView'>;

/** The fields `PUT …/metadata` accepts; `tags` replaces the item's tags. */
export type MetadataChanges = Schema<'MetadataUpdate'>;

export type VaultSortBy = 'createdAt' | 'title' | 'rating' | 'lastExported' | 'relevance';
export type SortOrder = 'asc' | 'desc';

/** The list's query: every filter key of `GET /library/transcripts` the screen uses. */
export interface VaultQuery {
  /** Page size: the user's transcriptsPerPage (docs/product-spec.md §3), 20 by default. */
  limit: number;
  /** Full-text query; empty for none. */
  q: string;
  tags: string[];
  sourceType: string[];
  rating: number[];
  isStarred: boolean | null;
  /** RFC 3339; the 'recent' tab's "now − 7 days". */
  createdAfter: string | null;
  /** true: only the items marked 'Needs review' by the quality guard; null: any. */
  needsReview: boolean | null;
  /** null: the server's default (relevance with `q`, else createdAt). */
  sortBy: VaultSortBy | null;
  sortOrder: SortOrder;
}

/** Vault pagination limit (docs/product-spec.md §9) unless the user's transcriptsPerPage says otherwise. */
export const VAULT_PAGE_SIZE = 20;

/** The spec's default sort (§3): createdAt, desc. */
export const DEFAULT_SORT = { sortBy: 'createdAt', sortOrder: 'desc' } as const;

/**
 * The query string of one page: arrays as repeated keys (`tags=a&tags=b`). Without `q` the sort
 * is always sent (createdAt desc unless chosen); with `q` and no chosen sort, sortBy is left out
 * so the server ranks by relevance.
 */
export function vaultListParams(query: VaultQuery, page: number): URLSearchParams {
  const params = new URLSearchParams();
  params.set('page', String(page));
  params.set('limit', String(query.limit || VAULT_PAGE_SIZE));
  const q = query.q.trim();
  if (q) params.set('q', q);
  const sortBy = query.sortBy === 'relevance' && !q ? null : query.sortBy;
  if (sortBy) {
    params.set('sortBy', sortBy);
    params.set('sortOrder', query.sortOrder);
  } else if (!q) {
    params.set('sortBy', DEFAULT_SORT.sortBy);
    params.set('sortOrder', DEFAULT_SORT.sortOrder);
  }
  for (const tag of query.tags) params.append('tags', tag);
  for (const type of query.sourceType) params.append('sourceType', type);
  for (const rating of query.rating) params.append('rating', String(rating));
  if (query.isStarred !== null) params.set('isStarred', String(query.isStarred));
  if (query.createdAfter) params.set('createdAfter', query.createdAfter);
  if (query.needsReview !== null) params.set('needsReview', String(query.needsReview));
  return params;
}

/** Fallback texts of docs/product-spec.md §8 (vault client and vault screen); the server's message comes first. */
export const VAULT_ERRORS = {
  fetch: 'Failed to fetch transcripts',
  content: 'Failed to fetch transcript content',
  metadata: 'Failed to update metadata',
  updateContent: 'Failed to update content',
  export: 'Failed to export transcript',
  bulkExport: 'Failed to export transcripts',
  process: 'Failed to process transcripts',
  delete: 'Failed to delete transcript',
  exportSelected: 'Failed to export selected transcripts',
  reprocess: 'Failed to reprocess with premium mode',
} as const;

/** The answer of a premium (OCR) reprocessing: the item's new content and its pages. */
export type ReprocessResult = Schema<'PdfView'>;

const id = (value: string) => encodeURIComponent(value);
/** The list caches provide this tag; the library listener's bare 'Transcript' covers it too. */
const LIST = { type: 'Transcript', id: 'LIST' } as const;
// Calls that change server state are never repeated by themselves.
const once = { maxRetries: 0 };

/** The builder `injectEndpoints` hands to each group of endpoints below. */
type Builder = Parameters<Parameters<typeof baseApi.injectEndpoints>[0]['endpoints']>[0];

/** The list, one item, its text and its suggested tags and rating. */
function itemQueries(build: Builder) {
  return {
    getVaultTranscripts: build.infiniteQuery<Schema<'TranscriptPage'>, VaultQuery, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) => (lastPage.meta?.hasMore ? lastPage.meta.page + 1 : undefined),
      },
      query: ({ queryArg, pageParam }) => `/library/transcripts?${vaultListParams(queryArg, pageParam).toString()}`,
      transformResponse: (response: Schema<'TranscriptPage'>) => ({
        data: Array.isArray(response?.data) ? response.data : [],
        meta: response?.meta,
      }),
      providesTags: [LIST],
    }),
    getVaultItem: build.query<LibraryTranscript, string>({
      query: (itemId) => `/library/transcripts/${id(itemId)}`,
      transformResponse: (response: Schema<'Envelope_TranscriptView'>) => response.data,
      providesTags: (_result, _error, itemId) => [{ type: 'Transcript', id: itemId }],
    }),
    getTranscriptContent: build.query<string, string>({
      query: (itemId) => `/library/transcripts/${id(itemId)}/content`,
      transformResponse: (response: Schema<'Envelope_ContentView'>) => response.data?.content ?? '',
      providesTags: (_result, _error, itemId) => [
        { type: 'Transcript', id: itemId },
        { type: 'TranscriptContent', id: itemId },
      ],
    }),
    /** Never fails: a failed fetch yields no tags and a rating of 5 (docs/product-spec.md §8). */
    getSuggestions: build.query<Suggestions, string>({
      async queryFn(itemId, _api, _extraOptions, baseQuery) {
        const result = await baseQuery(`/library/transcripts/${id(itemId)}/suggestions`);
        if (result.error) return { data: FALLBACK_SUGGESTIONS };
        const body = (result.data as Partial<Schema<'Envelope_SuggestionsView'>> | null)?.data;
        const rating = Number(body?.suggestedRating);
        return {
          data: {
            suggestedTags: Array.isArray(body?.suggestedTags) ? body.suggestedTags.filter((tag) => typeof tag === 'string') : [],
            suggestedRating: Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : FALLBACK_SUGGESTIONS.suggestedRating,
          },
        };
      },
      providesTags: (_result, _error, itemId) => [
        { type: 'Transcript', id: itemId },
        { type: 'Suggestions', id: itemId },
      ],
    }),
  };
}

/** What the whole Vault has: its stats, tags and syllabus sections. */
function overviewQueries(build: Builder) {
  return {
    getLibraryStats: build.query<LibraryStats, void>({
      query: () => '/library/stats',
      transformResponse: (response: Schema<'Envelope_LibraryStats'>) => response.data,
      providesTags: ['LibraryStats'],
    }),
    getLibraryTags: build.query<LibraryTag[], void>({
      query: () => '/library/tags',
      transformResponse: (response: Schema<'Envelope_Vec_TagView'>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['LibraryTag'],
    }),
    getSyllabusSections: build.query<SyllabusSection[], void>({
      query: () => '/library/syllabus-sections',
      transformResponse: (response: Schema<'Envelope_Vec_SectionView'>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['SyllabusSection'],
    }),
  };
}

/** Editing and deleting one item; an edit puts the answer straight into the item's cache. */
function itemChanges(build: Builder) {
  return {
    updateMetadata: build.mutation<LibraryTranscript, { id: string; changes: MetadataChanges }>({
      query: ({ id: itemId, changes }) => ({ url: `/library/transcripts/${id(itemId)}/metadata`, method: 'PUT', body: changes }),
      transformResponse: (response: Schema<'Envelope_TranscriptView'>) => response.data,
      extraOptions: once,
      async onQueryStarted({ id: itemId }, { dispatch, queryFulfilled }) {
        const { data: item } = await queryFulfilled.catch(() => ({ data: null }));
        if (item) dispatch(libraryApi.util.updateQueryData('getVaultItem', itemId, () => item));
      },
      invalidatesTags: (_result, error) => (error ? [] : [LIST, 'LibraryStats', 'LibraryTag', 'SyllabusSection']),
    }),
    updateContent: build.mutation<LibraryTranscript, { id: string; content: string }>({
      query: ({ id: itemId, content }) => ({ url: `/library/transcripts/${id(itemId)}/content`, method: 'PUT', body: { content } }),
      transformResponse: (response: Schema<'Envelope_TranscriptView'>) => response.data,
      extraOptions: once,
      async onQueryStarted({ id: itemId, content }, { dispatch, queryFulfilled }) {
        const { data: item } = await queryFulfilled.catch(() => ({ data: null }));
        if (!item) return;
        dispatch(libraryApi.util.updateQueryData('getVaultItem', itemId, () => item));
        dispatch(libraryApi.util.updateQueryData('getTranscriptContent', itemId, () => content));
      },
      invalidatesTags: (_result, error, { id: itemId }) =>
        error ? [] : [LIST, 'LibraryStats', { type: 'Suggestions', id: itemId }],
    }),
    deleteTranscript: build.mutation<Schema<'DeletedView'>, string>({
      query: (itemId) => ({ url: `/library/transcripts/${id(itemId)}`, method: 'DELETE' }),
      transformResponse: (response: Schema<'Envelope_DeletedView'>) => response.data,
      extraOptions: once,
      invalidatesTags: (_result, error) => (error ? [] : [LIST, 'LibraryStats', 'LibraryTag', 'SyllabusSection']),
    }),
  };
}

/** Exports, batch processing, premium reprocessing and the starter tag sets. */
function exportsAndProcessing(build: Builder) {
  return {
    /** Sets lastExported: the list (grouped by it), the item and the stats are fetched again. */
    exportTranscript: build.mutation<ExportLink, { id: string; format: ExportFormat }>({
      query: ({ id: itemId, format }) => ({ url: `/library/transcripts/${id(itemId)}/export`, method: 'POST', body: { format } }),
      transformResponse: (response: Schema<'Envelope_ExportLinkView'>) => response.data,
      extraOptions: once,
      invalidatesTags: (_result, error, { id: itemId }) => (error ? [] : [LIST, 'LibraryStats', { type: 'Transcript', id: itemId }]),
    }),
    exportTranscripts: build.mutation<ExportLink, { ids: string[]; format: ExportFormat }>({
      query: (body) => ({ url: '/library/export/bulk', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_ExportLinkView'>) => response.data,
      extraOptions: once,
      invalidatesTags: (_result, error, { ids }) =>
        error ? [] : [LIST, 'LibraryStats', ...ids.map((itemId) => ({ type: 'Transcript' as const, id: itemId }))],
    }),
    processTranscripts: build.mutation<Schema<'BatchView'>, void>({
      query: () => ({ url: '/library/process/batch?limit=50', method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_BatchView'>) => response.data,
      extraOptions: once,
      invalidatesTags: (_result, error) => (error ? [] : ['Transcript', 'LibraryStats', 'LibraryTag']),
    }),
    /**
     * `POST /pdf-sources/reprocess-transcript/{id} {usePremiumMode: true}`: the server converts the
     * item's kept PDF again, with OCR on the pages without a text layer, and stores the new content.
     */
    reprocessWithPremium: build.mutation<ReprocessResult, string>({
      query: (itemId) => ({ url: `/pdf-sources/reprocess-transcript/${id(itemId)}`, method: 'POST', body: { usePremiumMode: true } }),
      transformResponse: (response: Schema<'Envelope_PdfView'>) => response.data,
      extraOptions: once,
      async onQueryStarted(itemId, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data && typeof data.content === 'string') {
          dispatch(libraryApi.util.updateQueryData('getTranscriptContent', itemId, () => data.content));
        }
      },
      invalidatesTags: (_result, error, itemId) =>
        error ? [] : [LIST, 'LibraryStats', { type: 'Suggestions', id: itemId }],
    }),
    initTags: build.mutation<Schema<'CreatedTagsView'>, 'starter' | 'gwth'>({
      query: (kind) => ({ url: kind === 'gwth' ? '/library/system/init-gwth-tags' : '/library/system/init-tags', method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_CreatedTagsView'>) => response.data,
      extraOptions: once,
      invalidatesTags: (_result, error) => (error ? [] : ['LibraryTag']),
    }),
  };
}

export const libraryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    ...itemQueries(build),
    ...overviewQueries(build),
    ...itemChanges(build),
    ...exportsAndProcessing(build),
  }),
});

export const {
  useGetVaultTranscriptsInfiniteQuery,
  useGetVaultItemQuery,
  useGetTranscriptContentQuery,
  useGetSuggestionsQuery,
  useGetLibraryStatsQuery,
  useGetLibraryTagsQuery,
  useGetSyllabusSectionsQuery,
  useUpdateMetadataMutation,
  useUpdateContentMutation,
  useDeleteTranscriptMutation,
  useExportTranscriptMutation,
  useExportTranscriptsMutation,
  useProcessTranscriptsMutation,
  useInitTagsMutation,
  useReprocessWithPremiumMutation,
} = libraryApi;
