import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeSockets } from '@/testing/fakeSocket';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { server } from '@/testing/server';

// The Auth0 SDK talks to the issuer; here a controllable stand-in plays it.
const auth0 = vi.hoisted(() => ({
  state: {
    isLoading: false,
    isAuthenticated: false,
    user: undefined as { sub: string; email?: string } | undefined,
  },
  providerProps: null as Record<string, unknown> | null,
  loginWithRedirect: vi.fn(() => Promise.resolve()),
  logout: vi.fn(() => Promise.resolve()),
  getAccessTokenSilently: vi.fn(() => Promise.resolve('oidc-access-token')),
}));

vi.mock('@auth0/auth0-react', () => ({
  Auth0Provider: ({ children, ...props }: { children: ReactNode }) => {
    auth0.providerProps = props;
    return children;
  },
  useAuth0: () => ({
    ...auth0.state,
    loginWithRedirect: auth0.loginWithRedirect,
    logout: auth0.logout,
    getAccessTokenSilently: auth0.getAccessTokenSilently,
  }),
}));

const config = { authMode: 'oidc' as const, domain: 'tenant.example.com', clientId: 'client-1', audience: 'https://api.scribevault' };

beforeEach(() => {
  auth0.state = { isLoading: false, isAuthenticated: false, user: undefined };
  auth0.providerProps = null;
  auth0.loginWithRedirect.mockClear();
  auth0.logout.mockClear();
});

describe('oidc mode', () => {
  it("shows 'Loading...' while the issuer session loads", async () => {
    auth0.state.isLoading = true;
    renderWithProviders({ route: '/transcripts', config, signedIn: false });
    await waitFor(() => expect(auth0.providerProps).not.toBeNull());
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(auth0.providerProps).toMatchObject({
      domain: 'tenant.example.com',
      clientId: 'client-1',
      authorizationParams: { audience: 'https://api.scribevault', redirect_uri: window.location.origin },
    });
  });

  it('redirects to the hosted sign-in, and to sign-up with the screen hint', async () => {
    const { router } = renderWithProviders({ route: '/vault', config, signedIn: false });
    await waitFor(() => expect(auth0.loginWithRedirect).toHaveBeenCalledTimes(1));
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(auth0.loginWithRedirect).toHaveBeenCalledWith({ appState: { returnTo: '/' } });

    await router.navigate('/sign-up');
    await waitFor(() => expect(auth0.loginWithRedirect).toHaveBeenCalledTimes(2));
    expect(auth0.loginWithRedirect).toHaveBeenLastCalledWith({
      appState: { returnTo: '/' },
      authorizationParams: { screen_hint: 'signup' },
    });
  });

  it('uses user.sub as the user id and the issuer token for the API and the socket', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'auth0|abc', email: 'o@example.com' } };
    let authorization: string | null = null;
    server.use(
      http.get('/api/library/transcripts', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } });
      }),
    );
    const sockets = installFakeSockets();
    renderWithProviders({ route: '/vault', config, signedIn: false });
    expect(await screen.findByText('Your Vault is empty')).toBeInTheDocument();
    expect(authorization).toBe('Bearer oidc-access-token');
    await waitFor(() => expect(sockets.sockets).toHaveLength(1));
    expect(sockets.latest().options.auth).toEqual({ userId: 'auth0|abc', token: 'oidc-access-token' });
  });

  it('ends the issuer session on a 401 and on sign-out', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'auth0|abc' } };
    server.use(http.get('/api/library/transcripts', () => new HttpResponse(null, { status: 401 })));
    renderWithProviders({ route: '/vault', config, signedIn: false });
    await waitFor(() => expect(auth0.logout).toHaveBeenCalledWith({ logoutParams: { returnTo: `${window.location.origin}/sign-in` } }));
  });
});
