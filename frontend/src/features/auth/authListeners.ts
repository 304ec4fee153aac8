import { isAnyOf, isRejectedWithValue } from '@reduxjs/toolkit';
import { sessionExpired } from '@/api/apiEvents';
import { baseApi } from '@/api/baseApi';
import type { AppStartListening } from '@/app/store';
import { localSessionRestored, localSignedIn, localTokenRenewed, signedOut } from './authSlice';
import { clearStoredSession, storeRenewedToken, storeSession } from './localSession';
import { renewAccessToken } from './sessionRenewal';

/** After a renewal that could not reach the server, try again this much later. */
export const RENEWAL_RETRY_MS = 15_000;

/** The longest delay setTimeout takes as it is. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Keeps the local session in localStorage, renews its access token before it expires, and drops
 * cached server data on sign-out.
 */
export function registerAuthListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: localSignedIn,
    effect: ({ payload }) => storeSession({ token: payload.token, user: payload.user, expiresAt: payload.expiresAt }),
  });
  startListening({
    actionCreator: localTokenRenewed,
    effect: ({ payload }, api) => {
      if (api.getState().auth.token === payload.token) storeRenewedToken(payload.token, payload.expiresAt);
    },
  });
  startListening({
    predicate: (action) => signedOut.match(action) || sessionExpired.match(action),
    effect: (_action, api) => {
      clearStoredSession();
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
        // A new token dispatched localTokenRenewed, which started a fresh wait; a 401 signed out.
        if (result !== 'failed') return;
        // The stored token of the last visit had expired and the server could not be asked:
        // sign in again rather than wait on 'Loading...'.
        if (api.getState().auth.status === 'loading') {
          api.dispatch(sessionExpired());
          return;
        }
        await api.delay(RENEWAL_RETRY_MS);
      }
    },
  });
}
