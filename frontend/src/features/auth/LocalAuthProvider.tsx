import { useEffect, useMemo, type ReactNode } from 'react';
import { useStore } from 'react-redux';
import { setAccessTokenGetter } from '@/api/accessToken';
import { useAppDispatch } from '@/app/hooks';
import type { RootState } from '@/app/store';
import { AuthActionsContext, type AuthActions } from './authActions';
import { localSessionRestored, signedOut } from './authSlice';
import { readStoredSession } from './localSession';

/** Built-in accounts: the JWT from /api/auth/* lives in the store and in localStorage. */
export function LocalAuthProvider({ children }: { children: ReactNode }) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();

  useEffect(() => {
    setAccessTokenGetter(() => store.getState().auth.token);
    dispatch(localSessionRestored(readStoredSession()));
  }, [dispatch, store]);

  const actions = useMemo<AuthActions>(
    () => ({ mode: 'local', signOut: () => dispatch(signedOut()) }),
    [dispatch],
  );
  return <AuthActionsContext.Provider value={actions}>{children}</AuthActionsContext.Provider>;
}
