import {
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { getAccessToken } from './accessToken';
import { sessionExpiredBy } from './apiEvents';

/** Default HTTP timeout of the spec (§9): 120 s. */
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

/**
 * Adds the bearer token, signs the user out on any 401 and retries a failed call once (spec §9:
 * "retries 1"). Client errors other than timeouts are not retried: repeating them cannot help.
 */
const baseQueryWithSession: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const result = await rawBaseQuery(args, api, extraOptions);
  const url = typeof args === 'string' ? args : args.url;
  // A 401 from sign-in or sign-up means bad credentials, not an expired session. Every other 401
  // (including /auth/password and /auth/logout-all) means the session has ended; the server's
  // message says why when there is more to say (an admin disabled the account).
  if (result.error?.status === 401 && !CREDENTIAL_CHECKS.some((path) => url.startsWith(path))) {
    api.dispatch(sessionExpiredBy(result.error.data));
    retry.fail(result.error, result.meta);
  }
  const status = result.error?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408) {
    retry.fail(result.error, result.meta);
  }
  return result;
};

export const baseQuery = retry(baseQueryWithSession, { maxRetries: 1 });
