import { sessionExpiredBy } from '@/api/apiEvents';
import type { Schema } from '@/api/types';
import type { AppDispatch, RootState } from '@/app/store';
import { localTokenRenewed, type AccessTokenGrant } from './authSlice';
import { parseExpiresAt } from './localSession';

/*
 * Renewal of a local account's short-lived access token (`POST /api/auth/refresh`) and the end of
 * its session (`POST /api/auth/logout`). These two calls use fetch directly, not RTK Query: every
 * RTK Query call first asks the access-token getter, which itself waits for a renewal in progress,
 * so a renewal made through it would wait for itself.
 */

type RefreshOutcome =
  | { kind: 'renewed'; grant: AccessTokenGrant }
  // `body` is the refusal's body: its message says why when it is more than an ended session.
  | { kind: 'ended'; body: unknown }
  | { kind: 'failed' };

/** How long sign-out waits for the server to end the session before it signs out anyway. */
export const LOGOUT_WAIT_MS = 3000;

function apiUrl(path: string): string {
  return new URL(`/api${path}`, window.location.origin).toString();
}

async function postRefresh(token: string): Promise<RefreshOutcome> {
  try {
    const response = await fetch(apiUrl('/auth/refresh'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    });
    // The session has ended (signed out elsewhere, past its lifetime) or may not go on (the
    // account was disabled: 401 with a message that says so; 403 from an older gateway). An
    // access token past its expiry is fine here as long as its session lives.
    if (response.status === 401 || response.status === 403) {
      return { kind: 'ended', body: await response.json().catch(() => null) };
    }
    if (!response.ok) return { kind: 'failed' };
    const body = (await response.json()) as Partial<Schema<'Envelope_IssuedToken'>>;
    const next = body.data?.token;
    if (typeof next !== 'string' || !next) return { kind: 'failed' };
    return { kind: 'renewed', grant: { token: next, expiresAt: parseExpiresAt(body.data?.expiresAt) } };
  } catch {
    return { kind: 'failed' };
  }
}

export interface RenewalStore {
  dispatch: AppDispatch;
  getState: () => RootState;
}

/** What a renewal ended in: a new token, the session ended (signed out), or it could not be asked. */
export type RenewalResult = RefreshOutcome['kind'] | 'skipped';

// One renewal at a time per token: the timer, a focus event and API calls may all ask at once.
const inFlight = new Map<string, Promise<RenewalResult>>();

/**
 * Swaps the current access token for a new one of the same session. A 401 or 403 ends the session
 * (signed out, as any 401 does); a network or server failure leaves the token as it is, to be tried
 * again.
 */
export function renewAccessToken(store: RenewalStore): Promise<RenewalResult> {
  const { token, mode } = store.getState().auth;
  if (mode !== 'local' || !token) return Promise.resolve('skipped');
  const running = inFlight.get(token);
  if (running) return running;
  const renewal = (async (): Promise<RenewalResult> => {
    const outcome = await postRefresh(token);
    // Signed out, or renewed by another tab, while the call was out: its answer is stale.
    if (store.getState().auth.token !== token) return 'skipped';
    if (outcome.kind === 'renewed') store.dispatch(localTokenRenewed(outcome.grant));
    else if (outcome.kind === 'ended') store.dispatch(sessionExpiredBy(outcome.body));
    return outcome.kind;
  })().finally(() => inFlight.delete(token));
  inFlight.set(token, renewal);
  return renewal;
}

/** Whether the current access token is due for renewal (a minute before expiry, or past it). */
export function renewalDue(state: RootState, now = Date.now()): boolean {
  const { mode, token, renewAt } = state.auth;
  return mode === 'local' && token !== null && renewAt !== null && now >= renewAt;
}

/**
 * Ends the session on the server (best effort: sign-out goes on whatever the answer, and after at
 * most `LOGOUT_WAIT_MS`).
 */
export async function endServerSession(token: string | null): Promise<void> {
  if (!token) return;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), LOGOUT_WAIT_MS);
  try {
    await fetch(apiUrl('/auth/logout'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      signal: controller.signal,
      keepalive: true,
    });
  } catch {
    // Offline or slow: the token expires by itself within minutes.
  } finally {
    clearTimeout(timer);
  }
}
