import { isAnyOf, isRejectedWithValue } from '@reduxjs/toolkit';
import { sessionExpired } from '@/api/apiEvents';
import { baseApi } from '@/api/baseApi';
import type { AppStartListening } from '@/app/store';
import { localSessionReconnecting, localSessionRestored, localSessionRestoring, localSignedIn, localTokenRenewed, signedOut } from './authSlice';
import { clearStoredUser, storeUser } from './localSession';
import { renewAccessToken } from './sessionRenewal';

/** After a renewal that could not reach the server, try again this much later. */
export const RENEWAL_RETRY_MS = 15_000;

/**
 * The waits between attempts to restore the session on start while the server cannot be reached:
 * quick at first (a gateway restarting), then every half minute.
 */
export const RESTORE_RETRY_MS = [500, 1000, 2000, 4000, 8000, 15_000, 30_000] as const;

/** The longest delay setTimeout takes as it is. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Restores the local session on start (with the refresh cookie, trying again while the server
 * cannot be reached), renews its access token before it expires, keeps who signed in (never a
 * token) in localStorage, and drops cached server data on sign-out.
 */
export function registerAuthListeners(startListening: AppStartListening): void {
  startListening({
    matcher: isAnyOf(localSignedIn, localSessionRestored),
    effect: (_action, api) => {
      const { user } = api.getState().auth;
      if (user) storeUser(user);
    },
  });
  startListening({
    predicate: (action) => signedOut.match(action) || sessionExpired.match(action),
    effect: (_action, api) => {
      clearStoredUser(api.getOriginalState().auth.user?.id ?? null);
      api.dispatch(baseApi.util.resetApiState());
    },
  });

  // OIDC: a 403 may mean the instance no longer takes this person (its allow-list changed). Ask
  // `GET /api/account` again: its 403 makes the route guard show the not-allowed screen, and an
  // admin-only refusal just finds the account as it was.
  startListening({
    predicate: (action) => {
      if (!isRejectedWithValue(action)) return false;
      const payload = action.payload as { status?: unknown } | undefined;
      const arg = (action.meta as { arg?: { endpointName?: unknown } }).arg;
      return payload?.status === 403 && arg?.endpointName !== 'getAccount';
    },
    effect: (_action, api) => {
      if (api.getState().auth.mode === 'oidc') api.dispatch(baseApi.util.invalidateTags(['Account']));
    },
  });

  // Start of a visit: `POST /api/auth/refresh` says whether a session goes on. A server that cannot
  // be reached is asked again with growing waits (the screen says it is reconnecting); it never
  // signs the user out.
  startListening({
    actionCreator: localSessionRestoring,
    effect: async (_action, api) => {
      api.cancelActiveListeners();
      for (let attempt = 0; ; attempt += 1) {
        const result = await api.pause(renewAccessToken(api));
        if (result !== 'failed' || api.getState().auth.status !== 'loading') return;
        if (!api.getState().auth.reconnecting) api.dispatch(localSessionReconnecting());
        await api.delay(RESTORE_RETRY_MS[Math.min(attempt, RESTORE_RETRY_MS.length - 1)]);
      }
    },
  });

  // The renewal timer: each new token (or sign-out) replaces the previous wait.
  startListening({
    matcher: isAnyOf(localSessionRestored, localSignedIn, localTokenRenewed, signedOut, sessionExpired),
    effect: async (_action, api) => {
      api.cancelActiveListeners();
      for (;;) {
        const { mode, token, renewAt } = api.getState().auth;
        if (mode !== 'local' || !token || renewAt === null) return;
        const wait = renewAt - Date.now();
        // setTimeout fires at once for delays past 2^31-1 ms (~24.8 days): wait in steps.
        if (wait > MAX_TIMER_DELAY_MS) {
          await api.delay(MAX_TIMER_DELAY_MS);
          continue;
        }
        await api.delay(Math.max(0, wait));
        const result = await renewAccessToken(api);
        // Skipped: the timer fired a moment early (not due yet: wait again), or the token was
        // replaced meanwhile (whose action cancels this wait and starts a fresh one).
        if (result === 'skipped') continue;
        // A new token dispatched localTokenRenewed, which started a fresh wait; a 401 signed out.
        if (result !== 'failed') return;
        await api.delay(RENEWAL_RETRY_MS);
      }
    },
  });
}
