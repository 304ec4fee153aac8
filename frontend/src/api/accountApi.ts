import { baseApi } from './baseApi';
import type { Schema } from './types';

/** Who is signed in, as the gateway knows them (both auth modes): `GET /api/account`. */
export type Account = Schema<'AccountView'>;

/**
 * Shared because Settings decides from it whether the Users tab shows, and the admin screens use
 * it to tell the admin's own row (which cannot be disabled, demoted or deleted) from the others.
 */
export const accountApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAccount: build.query<Account, void>({
      query: () => '/account',
      transformResponse: (response: Schema<'Envelope_AccountView'>) => response.data,
      providesTags: ['Account'],
    }),
  }),
});

export const { useGetAccountQuery } = accountApi;
