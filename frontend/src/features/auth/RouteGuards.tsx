import { Navigate, Outlet, useLocation } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { LoadingScreen } from '@/components/LoadingScreen';
import { paths } from '@/config/paths';
import { selectAuthStatus } from './authSlice';

/** Protected routes: 'Loading...' while auth loads, /sign-in when signed out. */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'unauthenticated') {
    return <Navigate to={paths.signIn} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return <Outlet />;
}

/** /sign-in and /sign-up: a signed-in visitor goes to / (or back to the page that sent them). */
export function RedirectIfSignedIn() {
  const status = useAppSelector(selectAuthStatus);
  const returnPath = useReturnPath();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'authenticated') return <Navigate to={returnPath} replace />;
  return <Outlet />;
}

/** Where to go after signing in: the protected page that sent the visitor here, else /. */
export function useReturnPath(): string {
  const location = useLocation();
  const from = (location.state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('/sign-') ? from : paths.home;
}
