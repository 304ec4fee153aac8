import { useEffect, useMemo, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { setAccessTokenGetter, setAccessTokenRenewer } from '@/api/accessToken';
import { useAppDispatch } from '@/app/hooks';
import type { RootState } from '@/app/store';
import type { SignupPolicy } from '@/config/appConfig';
import { AuthActionsContext, type AuthActions } from './authActions';
import { localSessionRestoring, signedOut } from './authSlice';
import { AUTH_USER_KEY, readStoredUser, removeLegacyTokens } from './localSession';
import { endServerSession, renewAccessToken, renewalDue, sessionCallInProgress } from './sessionRenewal';

/**
 * Built-in accounts: the short-lived access token lives in the store only. On start the session
 * is restored with the httpOnly refresh cookie (`POST /api/auth/refresh`); the token is renewed
 * the same way a minute before it expires (the store's renewal listener), when the tab comes back
 * into view close to or after expiry (timers do not run while a laptop sleeps), before any API
 * call that would otherwise carry an expired token, and once after an API call's 401.
 */
export function LocalAuthProvider({ signup = 'open', children }: { signup?: SignupPolicy; children: ReactNode }) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();

  useEffect(() => {
    const renewal = { dispatch, getState: () => store.getState() };
    setAccessTokenGetter(async () => {
      // Inside a session call (a password change) this tab holds the lock a renewal would wait for.
      if (renewalDue(store.getState()) && !sessionCallInProgress()) await renewAccessToken(renewal);
      return store.getState().auth.token;
    });
    setAccessTokenRenewer(async (refused) => {
      if (store.getState().auth.token === refused) await renewAccessToken(renewal, { refused: true });
      const { status, token } = store.getState().auth;
      return status === 'authenticated' && token !== null && token !== refused;
    });
    removeLegacyTokens();
    dispatch(localSessionRestoring());
    return () => setAccessTokenRenewer(null);
  }, [dispatch, store]);

  useEffect(() => {
    const renewal = { dispatch, getState: () => store.getState() };
    const renewIfDue = () => {
      if (document.visibilityState !== 'hidden' && renewalDue(store.getState())) void renewAccessToken(renewal);
    };
    // Back online while the start of the visit is waiting to reach the server: try now.
    const retryRestore = () => {
      if (store.getState().auth.reconnecting) dispatch(localSessionRestoring());
    };
    // Another tab signed out (or signed someone else in): this tab's session is not the
    // browser's any more. Tokens are not shared; each tab gets its own from the cookie.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== AUTH_USER_KEY && event.key !== null) return;
      const { auth } = store.getState();
      if (auth.status !== 'authenticated' || !auth.user) return;
      if (readStoredUser()?.id !== auth.user.id) dispatch(signedOut());
    };
    window.addEventListener('focus', renewIfDue);
    document.addEventListener('visibilitychange', renewIfDue);
    window.addEventListener('online', retryRestore);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('focus', renewIfDue);
      document.removeEventListener('visibilitychange', renewIfDue);
      window.removeEventListener('online', retryRestore);
      window.removeEventListener('storage', onStorage);
    };
  }, [dispatch, store]);

  const actions = useMemo<AuthActions>(
    () => ({
      mode: 'local',
      signupPolicy: signup,
      signOut: () => {
        // The server ends the session (and clears the cookie) first, best effort, then the local
        // state goes.
        void endServerSession(store.getState().auth.token).finally(() => dispatch(signedOut()));
      },
    }),
    [dispatch, store, signup],
  );
  return <AuthActionsContext.Provider value={actions}>{children}</AuthActionsContext.Provider>;
}
