import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ErrorBody, Schema } from '@/api/types';
import { DEFAULT_USER_SETTINGS } from '@/api/userSettingsApi';

/** Who is signed in unless a test says otherwise (`GET /api/account`). */
export const TEST_ACCOUNT: Schema<'AccountView'> = { id: 'user-1', email: 'ada@example.com', isAdmin: false, twoFactorEnabled: false };

/** Part of Whisper's languages, in its order (`GET /api/transcription/languages`). */
export const TEST_LANGUAGES: Schema<'LanguageView'>[] = [
  { code: 'en', name: 'English' },
  { code: 'zh', name: 'Chinese' },
  { code: 'de', name: 'German' },
  { code: 'es', name: 'Spanish' },
  { code: 'fr', name: 'French' },
];

/**
 * The gateway's error answer, `{"error": {"message", "code"}}` (the contract's ErrorBody). The
 * code defaults to the one the gateway gives the status. A plain Response, so a handler's typed
 * success body stays what MSW checks.
 */
export function errorResponse(status: number, message: string, code: ErrorBody['error']['code'] = codeFor(status)): Response {
  return HttpResponse.json<ErrorBody>({ error: { message, code } }, { status });
}

function codeFor(status: number): ErrorBody['error']['code'] {
  const codes: Record<number, ErrorBody['error']['code']> = {
    400: 'BAD_REQUEST',
    401: 'UNAUTHENTICATED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: 'UNPROCESSABLE',
    429: 'TOO_MANY_REQUESTS',
    502: 'BAD_GATEWAY',
    503: 'UNAVAILABLE',
    507: 'INSUFFICIENT_STORAGE',
  };
  return codes[status] ?? 'INTERNAL';
}

/**
 * The browser's refresh cookie as the tests play it (httpOnly: the app never sees it). While
 * `token` is set, the default `POST /api/auth/refresh` answers it (as the gateway answers a live
 * session's cookie); without it the refresh is refused with 401, as for a browser that has no
 * session. `signInAsTestUser` sets it; every test starts without one.
 */
export const browserSession: { token: string | null } = { token: null };

/** How long the tokens of the default refresh answer live. */
export const TEST_TOKEN_LIFETIME_MS = 15 * 60_000;

/**
 * Handlers every test has: the app shell loads the user's settings as soon as someone is signed
 * in, so each test starts with the defaults stored; Settings asks who is signed in (not an admin
 * unless a test says so); the refresh cookie restores the session of `browserSession`; sign-out
 * ends the session on the server. A test overrides them with
 * `server.use`. Bodies are typed by the contract (src/api/types.ts), as test handlers should be:
 * `HttpResponse.json<Schema<'Envelope_…'>>(…)`.
 */
/** An empty Vault's first page and statistics, for tests that only need the Vault to load. */
export const EMPTY_PAGE: Schema<'TranscriptPage'> = { data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } };
export const EMPTY_LIBRARY_STATS: Schema<'LibraryStats'> = {
  totalTranscripts: 0,
  totalDuration: 0,
  storageUsed: 0,
  avgRating: 0,
  thisMonth: 0,
  export: { totalExported: 0, topRatedCount: 0, byGwthLevel: {}, bySourceType: {} },
  distributions: { rating: {}, gwthLevel: {}, sourceType: {} },
};

/** `GET /api/library/stats` of an empty Vault. */
export const emptyLibraryStats = () =>
  http.get('/api/library/stats', () => HttpResponse.json<Schema<'Envelope_LibraryStats'>>({ data: EMPTY_LIBRARY_STATS }));

export const defaultHandlers = [
  http.get('/api/user/settings', () => HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: DEFAULT_USER_SETTINGS })),
  http.get('/api/account', () => HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: TEST_ACCOUNT })),
  http.post('/api/auth/refresh', () => {
    if (!browserSession.token) return errorResponse(401, 'Authentication required');
    return HttpResponse.json<Schema<'Envelope_IssuedToken'>>({
      data: { token: browserSession.token, expiresAt: new Date(Date.now() + TEST_TOKEN_LIFETIME_MS).toISOString() },
    });
  }),
  http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/tokens', () => HttpResponse.json<Schema<'Envelope_ApiTokensView'>>({ data: { tokens: [] } })),
  // Settings and the Vault name languages from the server's list.
  http.get('/api/transcription/languages', () =>
    HttpResponse.json<Schema<'Envelope_LanguagesView'>>({ data: { languages: TEST_LANGUAGES } }),
  ),
  // /transcripts and the Vault read the transcription queue: empty unless a test says otherwise.
  http.get('/api/transcription/queue', () =>
    HttpResponse.json<Schema<'Envelope_QueueView'>>({ data: { files: [], basis: { realTimeFactor: 1, measuredFiles: 0, workers: 1 } } }),
  ),
];

/** MSW server shared by all tests; each test adds its handlers with `server.use(...)`. */
export const server = setupServer(...defaultHandlers);
