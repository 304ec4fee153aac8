import { baseApi } from '@/api/baseApi';
import type { Schema } from '@/api/types';

/** A personal API token as Settings lists it (never its secret): `GET /api/tokens`. */
export type ApiToken = Schema<'ApiTokenView'>;
/** A token just made, with its secret (`svt_…`), shown this once. */
export type NewApiToken = Schema<'NewApiTokenView'>;
export type NewApiTokenRequest = Schema<'NewApiTokenRequest'>;

/**
 * Personal API tokens (Settings → Account). The server refuses these calls when made with an API
 * token, so only a signed-in person manages them.
 */
export const tokensApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listApiTokens: build.query<ApiToken[], void>({
      query: () => '/tokens',
      transformResponse: (response: Schema<'Envelope_ApiTokensView'>) => response.data.tokens,
      providesTags: ['ApiToken'],
    }),
    createApiToken: build.mutation<NewApiToken, NewApiTokenRequest>({
      query: (body) => ({ url: '/tokens', method: 'POST', body }),
      transformResponse: (response: Schema<'Envelope_NewApiTokenView'>) => response.data,
      invalidatesTags: ['ApiToken'],
    }),
    updateApiToken: build.mutation<ApiToken, { id: string; change: Schema<'ApiTokenChange'> }>({
      query: ({ id, change }) => ({ url: `/tokens/${encodeURIComponent(id)}`, method: 'PATCH', body: change }),
      transformResponse: (response: Schema<'Envelope_ApiTokenView'>) => response.data,
      invalidatesTags: ['ApiToken'],
    }),
    revokeApiToken: build.mutation<void, string>({
      query: (id) => ({ url: `/tokens/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ApiToken'],
    }),
  }),
});

export const { useListApiTokensQuery, useCreateApiTokenMutation, useUpdateApiTokenMutation, useRevokeApiTokenMutation } = tokensApi;
