import { sessionExpired } from '@/api/apiEvents';
import { baseApi } from '@/api/baseApi';
import type { AppStartListening } from '@/app/store';
import { localSignedIn, signedOut } from './authSlice';
import { clearStoredSession, storeSession } from './localSession';

/** Keeps the local session in localStorage and drops cached server data on sign-out. */
export function registerAuthListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: localSignedIn,
    effect: ({ payload }) => storeSession(payload.token, payload.user),
  });
  startListening({
    predicate: (action) => signedOut.match(action) || sessionExpired.match(action),
    effect: (_action, api) => {
      clearStoredSession();
      api.dispatch(baseApi.util.resetApiState());
    },
  });
}
