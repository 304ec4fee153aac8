import { Navigate, Outlet } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { LoadingScreen } from '@/components/LoadingScreen';
import { paths } from '@/config/paths';
import { selectAuthStatus } from './authSlice';

/** Protected routes: 'Loading...' while auth loads, /sign-in when signed out. */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'unauthenticated') return <Navigate to={paths.signIn} replace />;
  return <Outlet />;
}

/** /sign-in and /sign-up: a signed-in visitor (or one who just signed in) goes to / (spec §2). */
export function RedirectIfSignedIn() {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'authenticated') return <Navigate to={paths.home} replace />;
  return <Outlet />;
}
