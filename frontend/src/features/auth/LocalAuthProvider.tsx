import { useEffect, useMemo, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { setAccessTokenGetter } from '@/api/accessToken';
import { useAppDispatch } from '@/app/hooks';
import type { RootState } from '@/app/store';
import type { SignupPolicy } from '@/config/appConfig';
import { AuthActionsContext, type AuthActions } from './authActions';
import { localSessionRestored, localTokenRenewed, signedOut } from './authSlice';
import { AUTH_TOKEN_KEY, readStoredSession } from './localSession';
import { endServerSession, renewAccessToken, renewalDue } from './sessionRenewal';

/**
 * Built-in accounts: the short-lived access token from /api/auth/* lives in the store and in
 * localStorage, and is renewed a minute before it expires (the store's renewal listener), when the
 * tab comes back into view close to or after expiry (timers do not run while a laptop sleeps), and
 * before any API call that would otherwise carry an expired token.
 */
export function LocalAuthProvider({ signup = 'open', children }: { signup?: SignupPolicy; children: ReactNode }) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();

  useEffect(() => {
    const renewal = { dispatch, getState: () => store.getState() };
    setAccessTokenGetter(async () => {
      if (renewalDue(store.getState())) await renewAccessToken(renewal);
      return store.getState().auth.token;
    });
    const session = readStoredSession();
    const renewing = session !== null && session.expiresAt !== null && session.expiresAt <= Date.now();
    dispatch(localSessionRestored({ session, renewing }));
  }, [dispatch, store]);

  useEffect(() => {
    const renewal = { dispatch, getState: () => store.getState() };
    const renewIfDue = () => {
      if (document.visibilityState !== 'hidden' && renewalDue(store.getState())) void renewAccessToken(renewal);
    };
    // Another tab renewed the token or signed out: follow it instead of renewing twice.
    const onStorage = (event: StorageEvent) => {
      if (event.key !== AUTH_TOKEN_KEY && event.key !== null) return;
      const { auth } = store.getState();
      const stored = readStoredSession();
      if (!stored) {
        if (auth.status !== 'unauthenticated') dispatch(signedOut());
      } else if (stored.token !== auth.token && stored.user.id === auth.user?.id) {
        dispatch(localTokenRenewed({ token: stored.token, expiresAt: stored.expiresAt }));
      }
    };
    window.addEventListener('focus', renewIfDue);
    document.addEventListener('visibilitychange', renewIfDue);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('focus', renewIfDue);
      document.removeEventListener('visibilitychange', renewIfDue);
      window.removeEventListener('storage', onStorage);
    };
  }, [dispatch, store]);

  const actions = useMemo<AuthActions>(
    () => ({
      mode: 'local',
      signupPolicy: signup,
      signOut: () => {
        // The server ends the session first (best effort), then the local state goes.
        void endServerSession(store.getState().auth.token).finally(() => dispatch(signedOut()));
      },
    }),
    [dispatch, store, signup],
  );
  return <AuthActionsContext.Provider value={actions}>{children}</AuthActionsContext.Provider>;
}
