import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeSockets } from '@/testing/fakeSocket';
import type { Schema } from '@/api/types';
import { renderWithProviders, TEST_TOKEN, TEST_USER } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import { AUTH_EXPIRES_AT_KEY, AUTH_TOKEN_KEY, AUTH_USER_KEY } from './localSession';

const FIFTEEN_MINUTES = 15 * 60_000;

/** A local session as the last visit left it, whose token expires at `expiresAt` (ms). */
function storeSession(token: string, expiresAt: number) {
  window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(TEST_USER));
  window.localStorage.setItem(AUTH_EXPIRES_AT_KEY, String(expiresAt));
}

/** `POST /api/auth/refresh` answering `next` tokens in turn (or a status), recording each bearer. */
function refreshBackend(answer: { status: 200; tokens: string[] } | { status: 401 | 403 }) {
  const bearers: string[] = [];
  const times: number[] = [];
  server.use(
    http.post('/api/auth/refresh', ({ request }) => {
      bearers.push(request.headers.get('Authorization') ?? '');
      times.push(Date.now());
      if (answer.status === 401) {
        return errorResponse(401, 'Session has ended');
      }
      if (answer.status === 403) {
        return errorResponse(403, "This account is disabled. Ask the instance's owner to enable it.");
      }
      const token = ('tokens' in answer ? answer.tokens[bearers.length - 1] : undefined) ?? 'token-extra';
      return HttpResponse.json<Schema<'Envelope_IssuedToken'>>({ data: { token, expiresAt: new Date(Date.now() + FIFTEEN_MINUTES).toISOString() } });
    }),
  );
  return { bearers, times };
}

/** Records the bearer of each Vault list call. */
function vaultBackend() {
  const bearers: string[] = [];
  server.use(
    http.get('/api/library/transcripts', ({ request }) => {
      bearers.push(request.headers.get('Authorization') ?? '');
      return HttpResponse.json<Schema<'TranscriptPage'>>({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } });
    }),
    http.get('/api/library/stats', () =>
      HttpResponse.json<Schema<'Envelope_LibraryStats'>>({
          data: {
            totalTranscripts: 0,
            totalDuration: 0,
            storageUsed: 0,
            avgRating: 0,
            thisMonth: 0,
            export: { totalExported: 0, topRatedCount: 0, byGwthLevel: {}, bySourceType: {} },
            distributions: { rating: {}, gwthLevel: {}, sourceType: {} },
          },
        }),
    ),
  );
  return bearers;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('renewal of the local access token', () => {
  it('renews a minute before expiry, then API calls and socket reconnects use the new token', async () => {
    const { bearers: refreshes, times: refreshTimes } = refreshBackend({ status: 200, tokens: ['renewed-token'] });
    const sockets = installFakeSockets();
    // Expires in a minute and a second and a half: renewal is due in ~1.5 s, not at once.
    const start = Date.now();
    storeSession('first-token', start + 60_000 + 1500);
    const { user } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();

    await waitFor(() => expect(refreshes).toEqual(['Bearer first-token']), { timeout: 5000 });
    expect(refreshTimes[0] - start).toBeGreaterThanOrEqual(1400);
    await waitFor(() => expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe('renewed-token'));
    const storedExpiry = Number(window.localStorage.getItem(AUTH_EXPIRES_AT_KEY));
    expect(storedExpiry).toBeGreaterThan(Date.now() + FIFTEEN_MINUTES - 5000);

    // Still signed in, and the next calls carry the renewed token.
    const vault = vaultBackend();
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(vault).toEqual(['Bearer renewed-token']);
    // A reconnect asks socket.io's auth callback again: it gets the current token.
    expect(await sockets.latest().authPayload()).toEqual({ userId: TEST_USER.id, token: 'renewed-token' });
    // The new token lives 15 minutes: no second renewal now.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(refreshes).toHaveLength(1);
  });

  it('renews when the tab comes back close to expiry (timers do not run while a laptop sleeps)', async () => {
    const { bearers: refreshes } = refreshBackend({ status: 200, tokens: ['after-focus'] });
    const start = Date.now();
    storeSession('sleepy-token', start + 10 * 60_000);
    renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();

    // Focus while the token is still far from expiry: nothing to do.
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refreshes).toEqual([]);

    // Nine and a half minutes later (the renewal timer slept through it), the tab gets focus.
    vi.spyOn(Date, 'now').mockReturnValue(start + 9.5 * 60_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(refreshes).toEqual(['Bearer sleepy-token']));
    await waitFor(() => expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe('after-focus'));
  });

  it.each([
    [401, 'the session has ended elsewhere'],
    [403, 'the account was disabled'],
  ] as const)('signs out when refresh answers %i (%s)', async (status, _why) => {
    const { bearers: refreshes } = refreshBackend({ status });
    storeSession('ended-token', Date.now() + 60_000 + 1_500);
    const { router } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' }, { timeout: 6000 })).toBeInTheDocument();
    expect(refreshes).toEqual(['Bearer ended-token']);
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(AUTH_EXPIRES_AT_KEY)).toBeNull();
  });

  it('keeps a session whose token expired while the tab was closed, when the server still has it', async () => {
    const { bearers: refreshes } = refreshBackend({ status: 200, tokens: ['fresh-token'] });
    const vault = vaultBackend();
    storeSession('stale-token', Date.now() - 5 * 60_000);
    const { router } = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/vault');
    expect(refreshes).toEqual(['Bearer stale-token']);
    // The expired token was never sent anywhere else.
    expect(vault).toEqual(['Bearer fresh-token']);
  });

  it('follows a sign-out in another tab', async () => {
    const { router } = renderWithProviders({ route: '/' });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
    window.localStorage.removeItem(AUTH_USER_KEY);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: AUTH_TOKEN_KEY, oldValue: TEST_TOKEN, newValue: null }));
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
  });
});

describe('sign-out', () => {
  it('ends the session on the server before clearing the local one', async () => {
    const calls: Array<{ authorization: string | null; storedToken: string | null }> = [];
    server.use(
      http.post('/api/auth/logout', ({ request }) => {
        calls.push({ authorization: request.headers.get('Authorization'), storedToken: window.localStorage.getItem(AUTH_TOKEN_KEY) });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, router } = renderWithProviders({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(calls).toEqual([{ authorization: `Bearer ${TEST_TOKEN}`, storedToken: TEST_TOKEN }]);
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('signs out here even when the server cannot be reached', async () => {
    server.use(http.post('/api/auth/logout', () => HttpResponse.error()));
    const { user } = renderWithProviders({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });
});
