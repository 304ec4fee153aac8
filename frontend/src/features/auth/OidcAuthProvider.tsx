import { Auth0Provider, useAuth0, type AppState } from '@auth0/auth0-react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { setAccessTokenGetter } from '@/api/accessToken';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { AuthActionsContext, type AuthActions } from './authActions';
import { oidcSessionChanged, selectAuthStatus } from './authSlice';

interface OidcSettings {
  domain: string;
  clientId: string;
  audience: string;
}

function returnAfterRedirect(appState?: AppState) {
  window.history.replaceState({}, document.title, appState?.returnTo ?? paths.home);
}

/** OIDC issuer (Auth0 or compatible) with its hosted widget; loaded only in oidc mode. */
export default function OidcAuthProvider({ settings, children }: { settings: OidcSettings; children: ReactNode }) {
  return (
    <Auth0Provider
      domain={settings.domain}
      clientId={settings.clientId}
      authorizationParams={{
        redirect_uri: window.location.origin,
        ...(settings.audience ? { audience: settings.audience } : {}),
      }}
      onRedirectCallback={returnAfterRedirect}
    >
      <OidcBridge>{children}</OidcBridge>
    </Auth0Provider>
  );
}

/** Mirrors the Auth0 SDK's session into the store and hands its token to API calls. */
function OidcBridge({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated, user, getAccessTokenSilently, loginWithRedirect, logout } = useAuth0();
  const dispatch = useAppDispatch();
  const storeStatus = useAppSelector(selectAuthStatus);
  const userId = isAuthenticated ? (user?.sub ?? null) : null;

  useEffect(() => {
    setAccessTokenGetter(() => getAccessTokenSilently());
  }, [getAccessTokenSilently]);

  useEffect(() => {
    dispatch(
      oidcSessionChanged({
        isLoading,
        user: userId ? { id: userId, email: user?.email ?? null, name: user?.name ?? null, picture: user?.picture ?? null } : null,
      }),
    );
  }, [dispatch, isLoading, userId, user?.email, user?.name, user?.picture]);

  const signOutOfIssuer = useMemo(
    () => () => logout({ logoutParams: { returnTo: `${window.location.origin}${paths.signIn}` } }),
    [logout],
  );

  // A 401 from the API marks the store signed out: end the issuer session too.
  useEffect(() => {
    if (!isLoading && isAuthenticated && storeStatus === 'unauthenticated') void signOutOfIssuer();
  }, [isLoading, isAuthenticated, storeStatus, signOutOfIssuer]);

  const actions = useMemo<AuthActions>(
    () => ({
      mode: 'oidc',
      signInWithRedirect: (returnTo) => loginWithRedirect({ appState: { returnTo: returnTo ?? paths.home } }),
      signUpWithRedirect: (returnTo) =>
        loginWithRedirect({
          appState: { returnTo: returnTo ?? paths.home },
          authorizationParams: { screen_hint: 'signup' },
        }),
      signOut: () => void signOutOfIssuer(),
    }),
    [loginWithRedirect, signOutOfIssuer],
  );
  return <AuthActionsContext.Provider value={actions}>{children}</AuthActionsContext.Provider>;
}
