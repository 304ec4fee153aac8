import { createContext, useContext } from 'react';
import type { SignupPolicy } from '@/config/appConfig';
import type { AuthMode } from './authSlice';

/** What the current auth mode can do beyond reading the session from the store. */
export interface AuthActions {
  mode: AuthMode;
  /** Who may create a local account (`/config.json`'s `signup`); absent in OIDC mode. */
  signupPolicy?: SignupPolicy;
  /** Starts the hosted sign-in (OIDC only; local mode has its own form). */
  signInWithRedirect?: (returnTo?: string) => Promise<void>;
  /** Starts the hosted sign-up with the sign-up screen hint (OIDC only). */
  signUpWithRedirect?: (returnTo?: string) => Promise<void>;
  /** Ends the session (on the server too, best effort) and signs out here. */
  signOut: () => void;
}

export const AuthActionsContext = createContext<AuthActions | null>(null);

export function useAuthActions(): AuthActions {
  const actions = useContext(AuthActionsContext);
  if (!actions) throw new Error('useAuthActions must be used inside <AuthProvider>');
  return actions;
}
