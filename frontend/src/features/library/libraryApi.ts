import { baseApi, type Envelope, type PagedEnvelope } from '@/api/baseApi';

/** AUDIO, PDF, PDF_SOURCE, WEBSITE, WEBSITE_CONTENT, IMAGE or another kind. */
export type SourceType = string;

export interface LibraryTranscript {
  id: string;
  title: string;
  author: string | null;
  createdAt: string;
  lastExported: string | null;
  isStarred: boolean;
  sourceType: SourceType | null;
  rating: number | null;
  tags: string[];
  /** Seconds. */
  duration: number | null;
}

/** Vault pagination limit (spec §9). */
export const VAULT_PAGE_SIZE = 20;

export const libraryApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getVaultTranscripts: build.infiniteQuery<PagedEnvelope<LibraryTranscript>, void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage) => (lastPage.meta?.hasMore ? lastPage.meta.page + 1 : undefined),
      },
      query: ({ pageParam }) => `/library/transcripts?page=${pageParam}&limit=${VAULT_PAGE_SIZE}`,
      providesTags: ['Transcript'],
    }),
    getTranscriptContent: build.query<string, string>({
      query: (id) => `/library/transcripts/${encodeURIComponent(id)}/content`,
      transformResponse: (response: Envelope<{ content: string }>) => response.data?.content ?? '',
      providesTags: (_result, _error, id) => [{ type: 'Transcript', id }],
    }),
  }),
});

export const { useGetVaultTranscriptsInfiniteQuery, useGetTranscriptContentQuery } = libraryApi;
