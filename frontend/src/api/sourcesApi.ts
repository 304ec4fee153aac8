import { baseApi } from './baseApi';
import type { Schema } from './types';

/**
 * The user's sources (channels and playlists). Shared: /sources and Find Videos add them, and the
 * Scheduled Syncs tab of /settings picks one for a schedule, so they live here rather than in a
 * feature's own `<feature>Api.ts`.
 */
export type Source = Schema<'SourceView'>;

/**
 * With `reuseExisting: true` the server answers an already added source (200) instead of a 409,
 * and syncs its new videos: Find Videos uses it to download from the channel it searched.
 */
export type CreateSourceRequest = Schema<'NewSource'>;

// Creating or deleting changes server state: never repeated by itself.
const once = { maxRetries: 0 };

export const sourcesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSources: build.query<Source[], void>({
      query: () => '/sources',
      transformResponse: (response: Schema<'Envelope_Vec_SourceView'>) => (Array.isArray(response?.data) ? response.data : []),
      providesTags: ['Source'],
    }),
    createSource: build.mutation<Source, CreateSourceRequest>({
      query: (body) => ({ url: '/sources', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_SourceView'>) => response.data,
      invalidatesTags: ['Source'],
      extraOptions: once,
    }),
    deleteSource: build.mutation<void, string>({
      query: (id) => ({ url: `/sources/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Source'],
      extraOptions: once,
    }),
  }),
});

export const { useGetSourcesQuery, useCreateSourceMutation, useDeleteSourceMutation } = sourcesApi;

/** 'CHANNEL' → 'Channel'; 'Source' for a missing type. */
export function sourceTypeLabel(type: string | null | undefined): string {
  if (!type) return 'Source';
  return type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();
}
