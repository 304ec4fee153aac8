import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/**
 * The one RTK Query API of the app. Features add their endpoints with `injectEndpoints` in their
 * own `<feature>Api.ts`. Server data is cached for 5 minutes (docs/product-spec.md §9).
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  keepUnusedDataFor: 300,
  tagTypes: [
    'Transcript',
    'TranscriptContent',
    'Suggestions',
    'LibraryStats',
    'LibraryTag',
    'SyllabusSection',
    'Source',
    'Mp3Status',
    'ManualUploads',
    'History',
    'DiscoveryQuota',
    'DownloadJob',
    'Schedule',
    'UserSettings',
    'ConvertTemplate',
    'Account',
    'AdminUser',
    'AdminInvitation',
    'ApiToken',
    'Webhook',
    'PodcastFeed',
    'TranscriptionQueue',
  ],
  endpoints: () => ({}),
});
