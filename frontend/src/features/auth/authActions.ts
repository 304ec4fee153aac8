import { createContext, useContext } from 'react';
import type { AuthMode } from './authSlice';

/** What the current auth mode can do beyond reading the session from the store. */
export interface AuthActions {
  mode: AuthMode;
  /** Starts the hosted sign-in (OIDC only; local mode has its own form). */
  signInWithRedirect?: (returnTo?: string) => Promise<void>;
  /** Starts the hosted sign-up with the sign-up screen hint (OIDC only). */
  signUpWithRedirect?: (returnTo?: string) => Promise<void>;
  signOut: () => void;
}

export const AuthActionsContext = createContext<AuthActions | null>(null);

export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (!actions) throw new Error('useAuthActions must be used inside <AuthProvider>');
  return actions;
}
