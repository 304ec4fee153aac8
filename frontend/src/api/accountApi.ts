import { baseApi, type Envelope } from './baseApi';

/** Who is signed in, as the gateway knows them (both auth modes): `GET /api/account`. */
export interface Account {
  id: string;
  email: string;
  isAdmin: boolean;
  /** Sign-in asks for a code from an authenticator app (local accounts; always false in OIDC mode). */
  twoFactorEnabled?: boolean;
}

/**
 * Shared because Settings decides from it whether the Users tab shows, and the admin screens use
 * it to tell the admin's own row (which cannot be disabled, demoted or deleted) from the others.
 */
export const accountApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAccount: build.query<Account, void>({
      query: () => '/account',
      transformResponse: (response: Envelope<Account>) => response.data,
      providesTags: ['Account'],
    }),
  }),
});

export const { useGetAccountQuery } = accountApi;
