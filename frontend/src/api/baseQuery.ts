import {
  fetchBaseQuery,
  retry,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { getAccessToken } from './accessToken';
import { sessionExpired } from './apiEvents';

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
  // A 401 from sign-in or sign-up means bad credentials, not an expired session.
  if (result.error?.status === 401 && !url.startsWith('/auth/')) {
    api.dispatch(sessionExpired());
    retry.fail(result.error, result.meta);
  }
  const status = result.error?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && status !== 408) {
    retry.fail(result.error, result.meta);
  }
  return result;
};

export const baseQuery = retry(baseQueryWithSession, { maxRetries: 1 });
