import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeLocks, type FakeLocks } from '@/testing/fakeLocks';
import { installFakeSockets } from '@/testing/fakeSocket';
import type { Schema } from '@/api/types';
import { renderWithProviders, TEST_TOKEN, TEST_USER, testJwt, tokensInLocalStorage } from '@/testing/renderWithProviders';
import { EMPTY_PAGE, emptyLibraryStats, errorResponse, server } from '@/testing/server';
import { localTokenRenewed } from './authSlice';
import { AUTH_USER_KEY, LEGACY_TOKEN_KEYS } from './localSession';
import { RECONNECTING_LABEL } from './RouteGuards';
import { REFRESH_LOCK } from './sessionRenewal';

const FIFTEEN_MINUTES = 15 * 60_000;

type RefreshAnswer = { token: string; lifetimeMs?: number } | 401 | 403 | 409 | 'network';

interface RefreshCall {
  authorization: string | null;
  credentials: RequestCredentials;
  at: number;
  /** The Web Lock held (in this tab) when the request went out, with `installFakeLocks`. */
  lock: string | null;
}

/**
 * `POST /api/auth/refresh` giving `answers` in turn (the last one again after that): a token that
 * lives `lifetimeMs` (15 minutes unless said), a refusal, or a network failure. Records each call.
 */
function refreshBackend(answers: RefreshAnswer[], locks?: FakeLocks) {
  const calls: RefreshCall[] = [];
  server.use(
    http.post('/api/auth/refresh', ({ request }) => {
      calls.push({ authorization: request.headers.get('Authorization'), credentials: request.credentials, at: Date.now(), lock: locks?.held ?? null });
      const answer = answers[Math.min(calls.length, answers.length) - 1];
      if (answer === 'network') return HttpResponse.error();
      if (answer === 401) return errorResponse(401, 'Session has ended');
      if (answer === 409) return errorResponse(409, 'This session was renewed a moment ago by another tab; try again');
      if (answer === 403) return errorResponse(403, "This account is disabled. Ask the instance's owner to enable it.");
      const expiresAt = new Date(Date.now() + (answer.lifetimeMs ?? FIFTEEN_MINUTES)).toISOString();
      return HttpResponse.json<Schema<'Envelope_IssuedToken'>>({ data: { token: answer.token, expiresAt } });
    }),
  );
  return calls;
}

/** Records the bearer of each Vault list call; `refuse` answers 401 to the tokens it lists. */
function vaultBackend(refuse: string[] = []) {
  const bearers: string[] = [];
  server.use(
    http.get('/api/library/transcripts', ({ request }) => {
      const authorization = request.headers.get('Authorization') ?? '';
      bearers.push(authorization);
      if (refuse.some((token) => authorization === `Bearer ${token}`)) return errorResponse(401, 'Invalid or expired token');
      return HttpResponse.json<Schema<'TranscriptPage'>>(EMPTY_PAGE);
    }),
    emptyLibraryStats(),
  );
  return bearers;
}

/** Who signed in last, as a real sign-in leaves it (not a token). */
function rememberUser() {
  window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(TEST_USER));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const toastTexts = () =>
  screen
    .queryAllByRole('status')
    .filter((element) => element.closest('.toast'))
    .map((element) => element.textContent ?? '');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('restoring the session on start', () => {
  it('restores it with the refresh cookie alone, and API calls carry the answered token', async () => {
    const restored = testJwt(TEST_USER.id, { n: 1 });
    const refreshes = refreshBackend([{ token: restored }]);
    const vault = vaultBackend();
    rememberUser();
    const { router } = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/vault');
    expect(refreshes.map(({ authorization, credentials }) => ({ authorization, credentials }))).toEqual([
      { authorization: null, credentials: 'same-origin' },
    ]);
    expect(vault).toEqual([`Bearer ${restored}`]);
    expect(tokensInLocalStorage([restored])).toEqual([]);
  });

  it('asks who it is when the browser does not remember the user, and shows them', async () => {
    const restored = testJwt('user-9');
    refreshBackend([{ token: restored }]);
    const asked: Array<string | null> = [];
    server.use(
      http.get('/api/account', ({ request }) => {
        asked.push(request.headers.get('Authorization'));
        return HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: { id: 'user-9', email: 'grace@example.com', isAdmin: false, twoFactorEnabled: false } });
      }),
    );
    // Someone else signed in last in this browser: the stored record is not this token's user.
    rememberUser();
    renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('button', { name: 'Account: grace@example.com' })).toBeInTheDocument();
    expect(asked[0]).toBe(`Bearer ${restored}`);
    expect(JSON.parse(window.localStorage.getItem(AUTH_USER_KEY) ?? 'null')).toEqual({ id: 'user-9', email: 'grace@example.com', isAdmin: false });
  });

  it('removes the token an older version kept in localStorage, and never sends it', async () => {
    const legacy = testJwt(TEST_USER.id, { legacy: true });
    const restored = testJwt(TEST_USER.id, { n: 2 });
    window.localStorage.setItem('authToken', legacy);
    window.localStorage.setItem('authTokenExpiresAt', String(Date.now() + FIFTEEN_MINUTES));
    rememberUser();
    const refreshes = refreshBackend([{ token: restored }]);
    const vault = vaultBackend();
    renderWithProviders({ route: '/vault', signedIn: false });
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    for (const key of LEGACY_TOKEN_KEYS) expect(window.localStorage.getItem(key)).toBeNull();
    expect(refreshes.map((call) => call.authorization)).toEqual([null]);
    expect(vault).toEqual([`Bearer ${restored}`]);
  });

  it.each([
    ['Authentication required', 'no cookie'],
    ['Invalid or expired token', 'the session ended while the browser was closed'],
  ])("shows the sign-in screen, with no notice and no toast, when refresh answers 401 '%s' (%s)", async (message) => {
    const refreshes: Array<string | null> = [];
    server.use(
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes.push(request.headers.get('Authorization'));
        return errorResponse(401, message);
      }),
    );
    rememberUser();
    const { router } = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(refreshes).toEqual([null]);
    expect(screen.queryByTestId('sign-out-notice')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(toastTexts()).toEqual([]);
  });
});

describe('restoring the session on start: reconnecting and reloading', () => {
  it('tries again while the server cannot be reached, saying it is reconnecting, and does not sign out', async () => {
    const restored = testJwt(TEST_USER.id, { n: 3 });
    const refreshes = refreshBackend(['network', 'network', { token: restored }]);
    const vault = vaultBackend();
    rememberUser();
    const { router } = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await screen.findByText(RECONNECTING_LABEL)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Sign in to Scribevault' })).not.toBeInTheDocument();
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty', {}, { timeout: 8000 })).toBeInTheDocument();
    // Never sent to /sign-in (which would have landed on / after): the page asked for stays.
    expect(router.state.location.pathname).toBe('/vault');
    expect(refreshes).toHaveLength(3);
    // Back-off: the attempts are spaced out, not fired in a loop.
    expect(refreshes[2].at - refreshes[1].at).toBeGreaterThan(refreshes[1].at - refreshes[0].at);
    expect(vault).toEqual([`Bearer ${restored}`]);
    expect(screen.queryByText(RECONNECTING_LABEL)).not.toBeInTheDocument();
  });

  it('a reload (a fresh store) restores the session of a sign-in with the cookie, without an Authorization header', async () => {
    const signedIn = testJwt('u-42', { n: 'login' });
    const afterReload = testJwt('u-42', { n: 'reload' });
    // The browser has a session cookie once the sign-in answered (the gateway sets it there).
    let cookie = false;
    const refreshes: Array<string | null> = [];
    server.use(
      http.post('/api/auth/login', () => {
        cookie = true;
        return HttpResponse.json<Schema<'Envelope_SignedIn'>>({
          data: { token: signedIn, expiresAt: new Date(Date.now() + FIFTEEN_MINUTES).toISOString(), user: { id: 'u-42', email: 'new@example.com', isAdmin: false } },
        });
      }),
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes.push(request.headers.get('Authorization'));
        if (!cookie) return errorResponse(401, 'Authentication required');
        return HttpResponse.json<Schema<'Envelope_IssuedToken'>>({ data: { token: afterReload, expiresAt: new Date(Date.now() + FIFTEEN_MINUTES).toISOString() } });
      }),
    );
    const vault = vaultBackend();
    const first = renderWithProviders({ route: '/sign-in', signedIn: false });
    await first.user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await first.user.type(screen.getByLabelText('Password'), 'correct-horse');
    await first.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(tokensInLocalStorage([signedIn])).toEqual([]);
    first.unmount();

    const second = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(second.router.state.location.pathname).toBe('/vault');
    expect(second.store.getState().auth.user).toEqual({ id: 'u-42', email: 'new@example.com', isAdmin: false });
    // One refresh at each start (none at the first, answered 401; the second restored), no bearer either time.
    expect(refreshes).toEqual([null, null]);
    expect(vault).toEqual([`Bearer ${afterReload}`]);
    expect(tokensInLocalStorage([signedIn, afterReload])).toEqual([]);
  });
});

describe('renewal of the local access token', () => {
  it('asks again when another tab renewed a moment ago (409), and stays signed in', async () => {
    const token = testJwt(TEST_USER.id, { n: 'after-the-other-tab' });
    const refreshes = refreshBackend([409, { token }]);
    // Whether the screen ever said the server cannot be reached (what a failed refresh shows
    // while it backs off), watched on every change rather than timed.
    let saidReconnecting = false;
    const watcher = new MutationObserver(() => {
      saidReconnecting ||= document.body.textContent?.includes(RECONNECTING_LABEL) ?? false;
    });
    watcher.observe(document.body, { childList: true, subtree: true, characterData: true });
    rememberUser();
    renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    watcher.disconnect();
    expect(refreshes).toHaveLength(2);
    // Asked again after the short wait for the other tab, not as a server that cannot be
    // reached.
    expect(refreshes[1].at - refreshes[0].at).toBeGreaterThanOrEqual(200);
    expect(saidReconnecting).toBe(false);
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('renews before expiry with the cookie, then API calls and socket reconnects use the new token', async () => {
    const first = testJwt(TEST_USER.id, { n: 'first' });
    const renewed = testJwt(TEST_USER.id, { n: 'renewed' });
    // The restored token lives 3 s: renewal is due half-way, in ~1.5 s (a minute before expiry
    // for tokens that live two minutes or more).
    const refreshes = refreshBackend([{ token: first, lifetimeMs: 3000 }, { token: renewed }]);
    const sockets = installFakeSockets();
    rememberUser();
    const { user } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();

    await waitFor(() => expect(refreshes).toHaveLength(2), { timeout: 5000 });
    expect(refreshes[1].at - refreshes[0].at).toBeGreaterThanOrEqual(1400);
    expect(refreshes.map((call) => call.authorization)).toEqual([null, null]);
    expect(tokensInLocalStorage([first, renewed])).toEqual([]);

    // Still signed in, and the next calls carry the renewed token.
    const vault = vaultBackend();
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(vault).toEqual([`Bearer ${renewed}`]);
    // A reconnect asks socket.io's auth callback again: it gets the current token.
    expect(await sockets.latest().authPayload()).toEqual({ userId: TEST_USER.id, token: renewed });
    // The new token lives 15 minutes: no third refresh now.
    await pause(400);
    expect(refreshes).toHaveLength(2);
  });

  it('renews when the tab comes back close to expiry (timers do not run while a laptop sleeps)', async () => {
    const refreshes = refreshBackend([{ token: 'sleepy-token', lifetimeMs: 10 * 60_000 }, { token: 'after-focus' }]);
    const start = Date.now();
    rememberUser();
    const { user } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();

    // Focus while the token is still far from expiry: nothing to do.
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await pause(50);
    expect(refreshes).toHaveLength(1);

    // Nine and a half minutes later (the renewal timer slept through it), the tab gets focus.
    vi.spyOn(Date, 'now').mockReturnValue(start + 9.5 * 60_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(refreshes).toHaveLength(2));
    expect(refreshes[1].authorization).toBeNull();
    const vault = vaultBackend();
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(vault).toEqual(['Bearer after-focus']);
  });
});

describe('renewal of the local access token: triggers, 401s and other tabs', () => {
  it('makes one refresh call for renewal triggers that come at once (focus, visibility, an API call)', async () => {
    const refreshes = refreshBackend([{ token: 'due-token', lifetimeMs: 10 * 60_000 }, { token: 'only-renewal' }]);
    const start = Date.now();
    rememberUser();
    const { user } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(refreshes).toHaveLength(1);

    const vault = vaultBackend();
    vi.spyOn(Date, 'now').mockReturnValue(start + 9.5 * 60_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // An API call while that renewal is out waits for it rather than starting another.
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    await pause(100);
    expect(refreshes).toHaveLength(2);
    expect(vault).toEqual(['Bearer only-renewal']);
  });

  it.each([
    [401, 'the session has ended elsewhere'],
    [403, 'the account was disabled'],
  ] as const)('signs out when refresh answers %i (%s)', async (status, _why) => {
    const refreshes = refreshBackend([{ token: 'ending-token', lifetimeMs: 3000 }, status]);
    rememberUser();
    const { router } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' }, { timeout: 6000 })).toBeInTheDocument();
    expect(refreshes.map((call) => call.authorization)).toEqual([null, null]);
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('renews once when an API call is refused with 401, and tries the call again with the new token', async () => {
    refreshBackend([{ token: 'refused-token' }, { token: 'second-chance' }]);
    const vault = vaultBackend(['refused-token']);
    rememberUser();
    const { router } = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/vault');
    expect(vault).toEqual(['Bearer refused-token', 'Bearer second-chance']);
  });

  it('signs out when the call is refused again with the renewed token', async () => {
    const refreshes = refreshBackend([{ token: 'refused-token' }, { token: 'also-refused' }]);
    const vault = vaultBackend(['refused-token', 'also-refused']);
    rememberUser();
    const { router } = renderWithProviders({ route: '/vault', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(vault).toEqual(['Bearer refused-token', 'Bearer also-refused']);
    expect(refreshes).toHaveLength(2);
  });

  it('follows a sign-out in another tab', async () => {
    const { router } = renderWithProviders({ route: '/' });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    window.localStorage.removeItem(AUTH_USER_KEY);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: AUTH_USER_KEY, oldValue: JSON.stringify(TEST_USER), newValue: null }));
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
  });

  it('signs out here when another tab signs someone else in (the browser has their session now)', async () => {
    renderWithProviders({ route: '/' });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    const other = JSON.stringify({ id: 'user-2', email: 'bob@example.com', isAdmin: false });
    window.localStorage.setItem(AUTH_USER_KEY, other);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: AUTH_USER_KEY, oldValue: JSON.stringify(TEST_USER), newValue: other }));
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    // The other tab's record stays: it is theirs.
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBe(other);
  });
});

describe('renewals across tabs (the Web Lock)', () => {
  it(`holds the '${REFRESH_LOCK}' lock while it refreshes`, async () => {
    const locks = installFakeLocks();
    const refreshes = refreshBackend([{ token: 'locked-token' }], locks);
    rememberUser();
    renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(refreshes.map((call) => call.lock)).toEqual([REFRESH_LOCK]);
    expect(locks.requested).toEqual([REFRESH_LOCK]);
  });

  it("waits while another tab holds the lock, and refreshes after it when still due", async () => {
    const locks = installFakeLocks();
    const refreshes = refreshBackend([{ token: 'first-token', lifetimeMs: 10 * 60_000 }, { token: 'after-the-other-tab' }], locks);
    const start = Date.now();
    rememberUser();
    const { store } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();

    const release = locks.holdAsOtherTab();
    vi.spyOn(Date, 'now').mockReturnValue(start + 9.5 * 60_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await pause(100);
    // The other tab is spending the cookie: this one does not send it at the same time.
    expect(refreshes).toHaveLength(1);
    act(() => release());
    await waitFor(() => expect(refreshes).toHaveLength(2));
    await waitFor(() => expect(store.getState().auth.token).toBe('after-the-other-tab'));
  });

  it('does not refresh after the wait when its token was renewed meanwhile and is not due', async () => {
    const locks = installFakeLocks();
    const refreshes = refreshBackend([{ token: 'first-token', lifetimeMs: 10 * 60_000 }, { token: 'needless' }], locks);
    const start = Date.now();
    rememberUser();
    const { store } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();

    const release = locks.holdAsOtherTab();
    vi.spyOn(Date, 'now').mockReturnValue(start + 9.5 * 60_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await pause(50);
    // While it waits, this tab gets a new token by other means (a password change answers one).
    act(() => {
      store.dispatch(localTokenRenewed({ token: 'from-password-change', expiresAt: Date.now() + FIFTEEN_MINUTES }));
    });
    act(() => release());
    await pause(200);
    expect(refreshes).toHaveLength(1);
    expect(store.getState().auth.token).toBe('from-password-change');
  });
});

describe('sign-out', () => {
  it('ends the session on the server before clearing the local one', async () => {
    const calls: Array<{ authorization: string | null; storedUser: string | null }> = [];
    server.use(
      http.post('/api/auth/logout', ({ request }) => {
        calls.push({ authorization: request.headers.get('Authorization'), storedUser: window.localStorage.getItem(AUTH_USER_KEY) });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, router, store } = renderWithProviders({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(calls).toEqual([{ authorization: `Bearer ${TEST_TOKEN}`, storedUser: JSON.stringify(TEST_USER) }]);
    expect(store.getState().auth.token).toBeNull();
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('signs out here even when the server cannot be reached', async () => {
    server.use(http.post('/api/auth/logout', () => HttpResponse.error()));
    const { user, store } = renderWithProviders({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(store.getState().auth.token).toBeNull();
  });
});
