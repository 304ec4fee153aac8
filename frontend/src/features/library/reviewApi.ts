import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';
import { libraryApi } from './libraryApi';

/**
 * 'Mark as reviewed' (`DELETE /library/transcripts/{id}/review`): the owner checked what the
 * quality guard flagged. The answer is the item without its review; it replaces the open item
 * at once (so the badge and the panel go without waiting for a refetch), and the lists are
 * fetched again, since the `needsReview` filter no longer holds it.
 */
export const REVIEW_ERRORS = {
  markReviewed: 'Failed to mark the transcript as reviewed',
} as const;

const LIST = { type: 'Transcript', id: 'LIST' } as const;

export const reviewApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    markReviewed: build.mutation<Schema<'TranscriptView'>, string>({
      query: (itemId) => ({ url: `/library/transcripts/${encodeURIComponent(itemId)}/review`, method: 'DELETE' }),
      transformResponse: (response: Schema<'Envelope_TranscriptView'>) => response.data,
      // It changes server state: never repeated by itself.
      extraOptions: { maxRetries: 0 },
      async onQueryStarted(itemId, { dispatch, queryFulfilled }) {
        const { data: item } = await queryFulfilled.catch(() => ({ data: null }));
        if (item) dispatch(libraryApi.util.updateQueryData('getVaultItem', itemId, () => item));
      },
      invalidatesTags: (_result, error) => (error ? [] : [LIST]),
    }),
  }),
});

export const { useMarkReviewedMutation } = reviewApi;
