import { lazy, Suspense, type ReactNode } from 'react';
import { LoadingScreen } from '@/components/LoadingScreen';
import type { AppConfig } from '@/config/appConfig';
import { LocalAuthProvider } from './LocalAuthProvider';

// The Auth0 SDK is only downloaded when the gateway runs in oidc mode.
const OidcAuthProvider = lazy(() => import(/* webpackChunkName: "oidc" */ './OidcAuthProvider'));

export function AuthProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  if (config.authMode === 'oidc') {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <OidcAuthProvider settings={config}>{children}</OidcAuthProvider>
      </Suspense>
    );
  }
  return <LocalAuthProvider signup={config.signup}>{children}</LocalAuthProvider>;
}
