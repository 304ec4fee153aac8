import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useGetAccountQuery } from '@/api/accountApi';
import { errorMessage } from '@/api/errors';
import { useAppSelector } from '@/app/hooks';
import { LoadingScreen } from '@/components/LoadingScreen';
import { paths } from '@/config/paths';
import { selectAuth, selectAuthStatus, selectReconnecting } from './authSlice';
import { NotAllowedScreen } from './NotAllowedScreen';

/** What the start of a local visit says when the server cannot be reached (it keeps trying). */
export const RECONNECTING_LABEL = 'Cannot reach Scribevault. Reconnecting...';

/** 'Loading...' while auth loads; 'Reconnecting...' while the server cannot be reached. */
function AuthLoadingScreen() {
  const reconnecting = useAppSelector(selectReconnecting);
  return <LoadingScreen label={reconnecting ? RECONNECTING_LABEL : undefined} />;
}

/** Protected routes: 'Loading...' while auth loads, /sign-in when signed out. */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const mode = useAppSelector(selectAuth).mode;
  if (status === 'loading') return <AuthLoadingScreen />;
  if (status === 'unauthenticated') return <Navigate to={paths.signIn} replace />;
  if (mode === 'oidc') {
    return (
      <AccountGate>
        <Outlet />
      </AccountGate>
    );
  }
  return <Outlet />;
}

/**
 * OIDC: the issuer signs in anyone it knows, but the instance may not take them (its allow-list).
 * `GET /api/account` is asked before the app shell opens, so such a person sees one clear screen
 * instead of a shell whose every call fails. A 403 (then or later: any 403 asks again, see
 * authListeners) shows `NotAllowedScreen`; other failures leave the shell to say what went wrong.
 */
function AccountGate({ children }: { children: ReactNode }) {
  const account = useGetAccountQuery();
  if (account.isLoading) return <LoadingScreen />;
  const error = account.error;
  if (error && 'status' in error && error.status === 403) {
    return <NotAllowedScreen message={errorMessage(error, '') || null} />;
  }
  return children;
}

/** /sign-in and /sign-up: a signed-in visitor (or one who just signed in) goes to / (docs/product-spec.md §2). */
export function RedirectIfSignedIn() {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'loading') return <AuthLoadingScreen />;
  if (status === 'authenticated') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
