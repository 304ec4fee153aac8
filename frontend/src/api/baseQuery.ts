import {
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { getAccessToken, renewRefusedToken } from './accessToken';
import { sessionExpiredBy } from './apiEvents';

/** Default HTTP timeout of the product spec (docs/product-spec.md §9): 120 s. */
export const API_TIMEOUT_MS = 120_000;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  timeout: API_TIMEOUT_MS,
  prepareHeaders: async (headers) => {
    const token = await getAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return headers;
  },
});

/** Calls whose 401 answers a wrong email or password rather than an ended session. */
const CREDENTIAL_CHECKS = ['/auth/login', '/auth/signup'];

/** Calls whose 401 means their session is over: a renewed token cannot change that. */
const SESSION_CALLS = ['/auth/password', '/auth/logout', '/auth/refresh'];

const startsWithAny = (url: string, paths: string[]) => paths.some((path) => url.startsWith(path));

/** The bearer token a call carried, if any. */
function bearerOf(request: Request | undefined): string | null {
  const header = request?.headers.get('Authorization');
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : null;
}

/**
 * Adds the bearer token; on a 401 renews the token once (local accounts: the refresh cookie) and
 * tries the call again, and signs the user out when that does not help; retries a failed call
 * once (docs/product-spec.md §9: "retries 1"). Client errors other than timeouts are not retried: repeating them
 * cannot help.
 */
const baseQueryWithSession: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  let result = await rawBaseQuery(args, api, extraOptions);
  const url = typeof args === 'string' ? args : args.url;
  // A 401 from sign-in or sign-up means bad credentials, not an expired session. Any other 401
  // gets one renewal and one more try (not the session's own calls, /auth/password and
  // /auth/logout*: their 401 means it has ended); a 401 after that signs out, with the server's
  // message when it says more (an admin disabled the account).
  if (result.error?.status === 401 && !startsWithAny(url, CREDENTIAL_CHECKS)) {
    if (!startsWithAny(url, SESSION_CALLS) && (await renewRefusedToken(bearerOf(result.meta?.request)))) {
      result = await rawBaseQuery(args, api, extraOptions);
    }
    if (result.error?.status === 401) {
      api.dispatch(sessionExpiredBy(result.error.data));
      retry.fail(result.error, result.meta);
    }
  }
  const status = result.error?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408) {
    retry.fail(result.error, result.meta);
  }
  return result;
};

export const baseQuery = retry(baseQueryWithSession, { maxRetries: 1 });
