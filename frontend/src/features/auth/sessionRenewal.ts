import { sessionExpired, sessionExpiredBy } from '@/api/apiEvents';
import { serverMessage } from '@/api/errors';
import type { Schema } from '@/api/types';
import type { AppDispatch, RootState } from '@/app/store';
import {
  localSessionRestored,
  localTokenRenewed,
  SESSION_ENDED_NOTICE,
  signOutNoticeFor,
  type AccessTokenGrant,
  type AuthUser,
} from './authSlice';
import { jwtSubject, parseExpiresAt, readStoredUser, tokenExpiry } from './localSession';

/*
 * The session of a local account is an httpOnly cookie, `scribevault_refresh`, that the browser
 * sends to `POST /api/auth/refresh` only. Each refresh spends it and answers a short-lived access
 * token (kept in the store, nowhere else) and a new cookie. A cookie sent again more than a few
 * seconds after it was spent ends the session on the server (within them it is answered 409 and
 * asked again), so refreshes do not overlap: one at a time per tab (`inFlight`), and one at a time
 * across the tabs of the browser, which share the cookie (the `scribevault-refresh` Web Lock).
 * Calls that replace the cookie (sign-in, sign-up, password change) take the same lock.
 *
 * These calls use fetch directly, not RTK Query: every RTK Query call first asks the access-token
 * getter, which itself waits for a renewal in progress, so a renewal made through it would wait
 * for itself.
 */

/** The Web Lock every tab of the browser holds while it spends or replaces the refresh cookie. */
export const REFRESH_LOCK = 'scribevault-refresh';

/** How long sign-out waits for the server to end the session before it signs out anyway. */
export const LOGOUT_WAIT_MS = 3000;

type RefreshOutcome =
  | { kind: 'renewed'; grant: AccessTokenGrant }
  // `body` is the refusal's body: its message says why when it is more than an ended session.
  | { kind: 'ended'; body: unknown }
  | { kind: 'failed' };

function apiUrl(path: string): string {
  return new URL(`/api${path}`, window.location.origin).toString();
}

/**
 * How long a tab waits before asking again when another tab swapped the cookie a moment ago
 * (409): the browser sends the new cookie then. Over plain http on a LAN address there is no
 * Web Lock, and this is what keeps two tabs from ending their own session.
 */
export const RENEWED_ELSEWHERE_RETRY_MS = 250;
const RENEWED_ELSEWHERE_TRIES = 3;

async function postRefresh(): Promise<RefreshOutcome> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await postRefreshOnce();
    if (outcome.kind !== 'renewed-elsewhere') return outcome;
    if (attempt >= RENEWED_ELSEWHERE_TRIES) return { kind: 'failed' };
    await new Promise((resolve) => setTimeout(resolve, RENEWED_ELSEWHERE_RETRY_MS));
  }
}

async function postRefreshOnce(): Promise<RefreshOutcome | { kind: 'renewed-elsewhere' }> {
  try {
    // The cookie is the credential: no Authorization header, whatever token this tab holds.
    const response = await fetch(apiUrl('/auth/refresh'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
    // No session in this browser (no cookie, signed out, past its lifetime, a spent cookie sent
    // again), or it may not go on (the account was disabled: 401 with a message that says so;
    // 403 from an older gateway).
    if (response.status === 401 || response.status === 403) {
      return { kind: 'ended', body: await response.json().catch(() => null) };
    }
    // Another tab of this browser spent the same cookie a moment ago; the session goes on.
    if (response.status === 409) return { kind: 'renewed-elsewhere' };
    if (!response.ok) return { kind: 'failed' };
    const body = (await response.json()) as Partial<Schema<'Envelope_IssuedToken'>>;
    const token = body.data?.token;
    if (typeof token !== 'string' || !token) return { kind: 'failed' };
    return { kind: 'renewed', grant: { token, expiresAt: tokenExpiry(token, parseExpiresAt(body.data?.expiresAt)) } };
  } catch {
    return { kind: 'failed' };
  }
}

type Lookup = { kind: 'found'; user: AuthUser } | { kind: 'ended'; body: unknown } | { kind: 'failed' };

/**
 * Who a restored token belongs to: the user this browser keeps when the token is theirs (or does
 * not say), else what `GET /api/account` answers.
 */
async function whoseToken(token: string): Promise<Lookup> {
  const subject = jwtSubject(token);
  const stored = readStoredUser();
  if (stored && (subject === null || stored.id === subject)) return { kind: 'found', user: stored };
  try {
    const response = await fetch(apiUrl('/account'), {
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
    if (response.status === 401 || response.status === 403) {
      return { kind: 'ended', body: await response.json().catch(() => null) };
    }
    if (!response.ok) return { kind: 'failed' };
    const account = ((await response.json()) as Partial<Schema<'Envelope_AccountView'>>).data;
    if (!account || typeof account.id !== 'string') return { kind: 'failed' };
    return { kind: 'found', user: { id: account.id, email: account.email, isAdmin: account.isAdmin === true } };
  } catch {
    return { kind: 'failed' };
  }
}

/** Calls of this tab inside the lock that are not renewals (sign-in, sign-up, password change). */
let sessionCallsHere = 0;

function lockManager(): LockManager | null {
  try {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks && typeof locks.request === 'function' ? locks : null;
  } catch {
    return null;
  }
}

/**
 * Runs `task` holding the browser-wide refresh lock, where the Web Locks API exists (secure
 * contexts: https, or http on localhost); without it, at once (one tab at a time is then up to
 * the in-tab de-duplication alone).
 */
export async function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = lockManager();
  if (!locks) return task();
  let started = false;
  try {
    return await locks.request(REFRESH_LOCK, () => {
      started = true;
      return task();
    });
  } catch (error) {
    // The lock itself was refused (a sandboxed or opaque origin): go on without it.
    if (started) throw error;
    return task();
  }
}

/**
 * A call that replaces the browser's refresh cookie (sign-in, sign-up, password change), made
 * holding the refresh lock so that no refresh of another tab spends or clears the cookie while it
 * is out.
 */
export function withSessionCall<T>(task: () => Promise<T>): Promise<T> {
  return withRefreshLock(async () => {
    sessionCallsHere += 1;
    try {
      return await task();
    } finally {
      sessionCallsHere -= 1;
    }
  });
}

/**
 * Whether this tab holds the lock for a session call: its own API call must not wait for a
 * renewal then (the renewal waits for the lock, which waits for the call).
 */
export function sessionCallInProgress(): boolean {
  return sessionCallsHere > 0;
}

export interface RenewalStore {
  dispatch: AppDispatch;
  getState: () => RootState;
}

/** What a renewal ended in: a new token, the session ended (signed out), or it could not be asked. */
export type RenewalResult = RefreshOutcome['kind'] | 'skipped';

export interface RenewalOptions {
  /**
   * An API call was refused (401) with the token the store holds now: renew even though it is not
   * due, unless another has replaced it by the time the lock is ours.
   */
  refused?: boolean;
}

// One renewal at a time in this tab: the timer, a focus event and API calls may all ask at once.
let inFlight: Promise<RenewalResult> | null = null;

/**
 * Gets a new access token with the refresh cookie: on start (the store has none yet), when the
 * token is due (see `renewalDue`), or after a 401. A 401 or 403 ends the session (signed out, or
 * on start the sign-in screen); a network or server failure leaves things as they are, to be tried
 * again.
 */
export function renewAccessToken(store: RenewalStore, options: RenewalOptions = {}): Promise<RenewalResult> {
  if (store.getState().auth.mode !== 'local') return Promise.resolve('skipped');
  if (inFlight) return inFlight;
  const before = store.getState().auth.token;
  const renewal = withRefreshLock(() => renewHoldingLock(store, before, options.refused === true)).finally(() => {
    inFlight = null;
  });
  inFlight = renewal;
  return renewal;
}

async function renewHoldingLock(store: RenewalStore, before: string | null, refused: boolean): Promise<RenewalResult> {
  const state = store.getState();
  const { auth } = state;
  if (auth.mode !== 'local' || auth.status === 'unauthenticated') return 'skipped';
  // Waiting for the lock took a while: the token may have been replaced meanwhile (a password
  // change), or this tab's clock may say it is not due after all. Then there is nothing to do.
  const due = auth.token === null || renewalDue(state);
  if (!due && (auth.token !== before || !refused)) return 'skipped';

  const outcome = await postRefresh();
  const now = store.getState().auth;
  // Signed out, or signed in anew, while the call was out: its answer is not for this session.
  if (now.status === 'unauthenticated' || now.token !== auth.token) return 'skipped';
  const restoring = auth.user === null;

  if (outcome.kind === 'ended') {
    if (restoring) {
      // Start of a visit without a session: the sign-in screen, saying why only when the server
      // said more than that there is none (a disabled account).
      const notice = signOutNoticeFor(serverMessage(outcome.body));
      store.dispatch(localSessionRestored({ session: null, notice: notice === SESSION_ENDED_NOTICE ? null : notice }));
    } else {
      store.dispatch(sessionExpiredBy(outcome.body));
    }
    return 'ended';
  }
  if (outcome.kind === 'failed') return 'failed';

  const { grant } = outcome;
  if (auth.user) {
    // The browser's session is now someone else's (they signed in in another tab): this tab's
    // user is signed out rather than shown the other account's data under their name.
    const subject = jwtSubject(grant.token);
    if (subject !== null && subject !== auth.user.id) {
      store.dispatch(sessionExpired());
      return 'ended';
    }
    store.dispatch(localTokenRenewed(grant));
    return 'renewed';
  }
  const found = await whoseToken(grant.token);
  if (found.kind === 'failed') return 'failed';
  if (found.kind === 'ended') {
    store.dispatch(localSessionRestored({ session: null, notice: null }));
    return 'ended';
  }
  store.dispatch(localSessionRestored({ session: { token: grant.token, user: found.user, expiresAt: grant.expiresAt } }));
  return 'renewed';
}

/** Whether the current access token is due for renewal (a minute before expiry, or past it). */
export function renewalDue(state: RootState, now = Date.now()): boolean {
  const { mode, token, renewAt } = state.auth;
  return mode === 'local' && token !== null && renewAt !== null && now >= renewAt;
}

/**
 * Ends the session on the server, which also clears the refresh cookie (best effort: sign-out goes
 * on whatever the answer, and after at most `LOGOUT_WAIT_MS`).
 */
export async function endServerSession(token: string | null): Promise<void> {
  if (!token) return;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LOGOUT_WAIT_MS);
  try {
    await fetch(apiUrl('/auth/logout'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Authorization: `Bearer ${token}` },
      signal: controller.signal,
      keepalive: true,
    });
  } catch {
    // Offline or slow: the access token expires by itself within minutes; the cookie's session
    // is ended by the server's lifetime or the next sign-out.
  } finally {
    clearTimeout(timer);
  }
}
