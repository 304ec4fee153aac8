import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/** A podcast feed as Settings lists it (never its URL, whose secret the server does not keep). */
export type PodcastFeed = Schema<'FeedView'>;
/** A feed just made or rotated, with its secret URL, shown this once. */
export type NewPodcastFeed = Schema<'NewFeedView'>;
export type NewPodcastFeedRequest = Schema<'NewFeedRequest'>;
export type PodcastFeedScope = Schema<'FeedScopeKind'>;
/** A Vault tag, for the tag a feed publishes. */
export type FeedTag = Schema<'TagView'>;

// Creating, rotating or revoking changes server state: never repeated by itself.
const once = { maxRetries: 0 };

/**
 * Private podcast feeds (Settings → Podcast Feeds): the whole Vault, one source or one tag as a
 * feed a podcast app subscribes to by its secret URL.
 */
export const feedsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listPodcastFeeds: build.query<PodcastFeed[], void>({
      query: () => '/feeds',
      transformResponse: (response: Schema<'Envelope_FeedsView'>) => response.data.feeds,
      providesTags: ['PodcastFeed'],
    }),
    createPodcastFeed: build.mutation<NewPodcastFeed, NewPodcastFeedRequest>({
      query: (body) => ({ url: '/feeds', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_NewFeedView'>) => response.data,
      invalidatesTags: ['PodcastFeed'],
      extraOptions: once,
    }),
    rotatePodcastFeed: build.mutation<NewPodcastFeed, string>({
      query: (id) => ({ url: `/feeds/${encodeURIComponent(id)}/rotate`, method: 'POST' }),
      transformResponse: (response: Schema<'Envelope_NewFeedView'>) => response.data,
      invalidatesTags: ['PodcastFeed'],
      extraOptions: once,
    }),
    revokePodcastFeed: build.mutation<void, string>({
      query: (id) => ({ url: `/feeds/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['PodcastFeed'],
      extraOptions: once,
    }),
    // The Vault's tags, for the tag picker (the library feature's own query is not importable here).
    listFeedTags: build.query<FeedTag[], void>({
      query: () => '/library/tags',
      transformResponse: (response: Schema<'Envelope_Vec_TagView'>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['LibraryTag'],
    }),
  }),
});

export const {
  useListPodcastFeedsQuery,
  useCreatePodcastFeedMutation,
  useRotatePodcastFeedMutation,
  useRevokePodcastFeedMutation,
  useListFeedTagsQuery,
} = feedsApi;
