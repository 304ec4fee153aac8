import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schema } from '@/api/types';
import { installFakeSockets } from '@/testing/fakeSocket';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';

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
        return HttpResponse.json<Schema<'TranscriptPage'>>({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } });
      }),
    );
    const sockets = installFakeSockets();
    renderWithProviders({ route: '/vault', config, signedIn: false });
    expect(await screen.findByText('Your Vault is empty')).toBeInTheDocument();
    expect(authorization).toBe('Bearer oidc-access-token');
    await waitFor(() => expect(sockets.sockets).toHaveLength(1));
    expect(await sockets.latest().authPayload()).toEqual({ userId: 'auth0|abc', token: 'oidc-access-token' });
  });

  it('leaves passwords, sessions and second factors to the issuer: no Change password, Sign out everywhere or Two-Factor Auth', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'auth0|abc', email: 'o@example.com' } };
    renderWithProviders({ route: '/settings?tab=account', config, signedIn: false });
    const panel = await screen.findByRole('tabpanel', { name: 'Account' });
    expect(within(panel).getByRole('region', { name: 'Privacy & Security' })).toBeInTheDocument();
    expect(within(panel).getByText('o@example.com')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Change password' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Sign out everywhere' })).not.toBeInTheDocument();
    expect(within(panel).queryByText('Two-Factor Auth')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Set up' })).not.toBeInTheDocument();
  });

  it('shows the Users tab to an admin in OIDC mode too (GET /api/account decides)', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'auth0|abc', email: 'o@example.com' } };
    server.use(
      http.get('/api/account', () => HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: { id: 'auth0|abc', email: 'o@example.com', isAdmin: true, twoFactorEnabled: false } })),
      http.get('/api/admin/users', () => HttpResponse.json<Schema<'Envelope_UsersView'>>({ data: { users: [] } })),
    );
    const { user } = renderWithProviders({ route: '/settings', config, signedIn: false });
    expect(await screen.findByRole('tab', { name: 'Users' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Preferences', 'Scheduled Syncs', 'Webhooks', 'Podcast Feeds', 'Account', 'Users']);
    // Invitations are for local accounts: the issuer decides who comes in.
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    const panel = await screen.findByRole('tabpanel', { name: 'Users' });
    expect(await within(panel).findByRole('region', { name: 'Users' })).toBeInTheDocument();
    expect(within(panel).queryByRole('region', { name: 'Invitations' })).not.toBeInTheDocument();
  });

  it('ends the issuer session on a 401 and on sign-out', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'auth0|abc' } };
    server.use(http.get('/api/library/transcripts', () => new HttpResponse(null, { status: 401 })));
    renderWithProviders({ route: '/vault', config, signedIn: false });
    await waitFor(() => expect(auth0.logout).toHaveBeenCalledWith({ logoutParams: { returnTo: `${window.location.origin}/sign-in` } }));
  });
});

describe('oidc mode: someone the instance does not allow', () => {
  const NOT_ALLOWED = 'mallory@example.org is not allowed on this instance. Ask its owner to add you.';
  const forbidden = () => errorResponse(403, NOT_ALLOWED);

  it('sees one full-page screen with the server\'s message, the email and Sign out, never the app shell', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'oidc|mallory', email: 'mallory@example.org' } };
    const calls: string[] = [];
    server.use(
      http.all('/api/*', ({ request }) => {
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        return forbidden();
      }),
    );
    const sockets = installFakeSockets();
    const { user } = renderWithProviders({ route: '/vault', config, signedIn: false });
    expect(await screen.findByRole('heading', { name: 'No access to this Scribevault', level: 1 })).toBeInTheDocument();
    const page = screen.getByTestId('not-allowed');
    expect(within(page).getByRole('alert')).toHaveTextContent(NOT_ALLOWED);
    expect(within(page).getByText('mallory@example.org', { selector: 'strong' })).toBeInTheDocument();
    // No shell: no menu, no page of the app, no other call, no socket, no error toast.
    expect(screen.queryByRole('complementary', { name: 'Main navigation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Vault' })).not.toBeInTheDocument();
    expect(calls).toEqual(['GET /api/account']);
    expect(sockets.sockets).toHaveLength(0);
    expect(document.querySelectorAll('.toast')).toHaveLength(0);

    await user.click(within(page).getByRole('button', { name: 'Sign out' }));
    expect(auth0.logout).toHaveBeenCalledWith({ logoutParams: { returnTo: `${window.location.origin}/sign-in` } });
  });

  it('replaces the shell when the server starts refusing during a session', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'oidc|mallory', email: 'mallory@example.org' } };
    let allowed = true;
    server.use(
      http.get('/api/account', () =>
        allowed ? HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: { id: 'oidc|mallory', email: 'mallory@example.org', isAdmin: false, twoFactorEnabled: false } }) : forbidden(),
      ),
      http.get('/api/library/transcripts', () => (allowed ? HttpResponse.json<Schema<'TranscriptPage'>>({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } }) : forbidden())),
      http.get('/api/library/stats', () => forbidden()),
    );
    const { user } = renderWithProviders({ route: '/', config, signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos', level: 1 })).toBeInTheDocument();
    // The owner took her off the allow-list: the next call is refused, and the account with it.
    allowed = false;
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await screen.findByRole('heading', { name: 'No access to this Scribevault', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(NOT_ALLOWED);
    expect(screen.queryByRole('complementary', { name: 'Main navigation' })).not.toBeInTheDocument();
  });

  it('keeps the shell for a 403 that is only about one action (the account is still fine)', async () => {
    auth0.state = { isLoading: false, isAuthenticated: true, user: { sub: 'auth0|abc', email: 'o@example.com' } };
    let accountCalls = 0;
    server.use(
      http.get('/api/account', () => {
        accountCalls += 1;
        return HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: { id: 'auth0|abc', email: 'o@example.com', isAdmin: false, twoFactorEnabled: false } });
      }),
      http.get('/api/library/transcripts', () =>
        errorResponse(403, 'Only an admin of this instance can do this'),
      ),
    );
    renderWithProviders({ route: '/vault', config, signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Vault', level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(accountCalls).toBe(2));
    expect(screen.getByRole('complementary', { name: 'Main navigation' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No access to this Scribevault' })).not.toBeInTheDocument();
  });
});
