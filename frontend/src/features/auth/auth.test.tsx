import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders, TEST_TOKEN, testJwt, tokensInLocalStorage } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import { AUTH_USER_KEY } from './localSession';

const SIGNED_IN_TOKEN = testJwt('u-42', { exp: Date.parse('2030-01-01T00:00:00Z') / 1000 });
const session: Schema<'Envelope_SignedIn'> = {
  data: { token: SIGNED_IN_TOKEN, expiresAt: '2030-01-01T00:00:00Z', user: { id: 'u-42', email: 'new@example.com', isAdmin: false } },
};

describe('routes and guards (local auth)', () => {
  it('goes to / after signing in, even when a protected page sent the visitor', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.json<Schema<'Envelope_SignedIn'>>(session)));
    const { user, router } = renderWithProviders({ route: '/vault', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a signed-out visitor of a protected route to /sign-in', async () => {
    const { router } = renderWithProviders({ route: '/transcripts', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
  });

  it('sends a signed-in visitor of /sign-in and /sign-up to /', async () => {
    const { router } = renderWithProviders({ route: '/sign-in' });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    await router.navigate('/sign-up');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('redirects unknown paths to /', async () => {
    const { router } = renderWithProviders({ route: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('treats a visit whose session has ended as signed out, whatever an older version left in localStorage', async () => {
    const expired = `x.${btoa(JSON.stringify({ sub: 'u', exp: 1000 }))}.y`;
    const refreshes: Array<string | null> = [];
    server.use(
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes.push(request.headers.get('Authorization'));
        return errorResponse(401, 'Invalid or expired token');
      }),
    );
    window.localStorage.setItem('authToken', expired);
    window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify({ id: 'u', email: 'e@x.io' }));
    renderWithProviders({ route: '/vault', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    // The cookie alone asks: the old token is neither sent nor kept.
    expect(refreshes).toEqual([null]);
    expect(window.localStorage.getItem('authToken')).toBeNull();
  });
});

describe('sign-in form', () => {
  it('validates inline before calling the server', async () => {
    const { user } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it("shows the server's error message for bad credentials and stays signed out", async () => {
    server.use(
      http.post('/api/auth/login', () =>
        errorResponse(401, 'Invalid email or password'),
      ),
    );
    const { user, router } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(router.state.location.pathname).toBe('/sign-in');
  });

  it('shows the rate-limit message of a 429', async () => {
    server.use(
      http.post('/api/auth/login', () =>
        errorResponse(429, 'Too many attempts, try again later'),
      ),
    );
    const { user } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts, try again later');
  });

  it('signs in, keeps the token in memory only, lands on / and sends the token on later calls', async () => {
    let loginBody: unknown;
    let authorization: string | null = null;
    server.use(
      http.post('/api/auth/login', async ({ request }) => {
        loginBody = await request.json();
        return HttpResponse.json<Schema<'Envelope_SignedIn'>>(session);
      }),
      http.get('/api/library/transcripts', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json<Schema<'TranscriptPage'>>({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } });
      }),
    );
    const { user, router } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), ' new@example.com ');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(loginBody).toEqual({ email: 'new@example.com', password: 'correct-horse' });
    // Nothing that can act as the user is written to localStorage, only who signed in.
    expect(tokensInLocalStorage([SIGNED_IN_TOKEN])).toEqual([]);
    expect(JSON.parse(window.localStorage.getItem(AUTH_USER_KEY)!)).toEqual({ id: 'u-42', email: 'new@example.com', isAdmin: false });

    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await screen.findByText('Your Vault is empty')).toBeInTheDocument();
    expect(authorization).toBe(`Bearer ${SIGNED_IN_TOKEN}`);
  });
});

describe('sign-up form', () => {
  it('requires a password of at least 8 characters', async () => {
    const { user } = renderWithProviders({ route: '/sign-up', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('shows the 409 message for a taken email', async () => {
    server.use(
      http.post('/api/auth/signup', () =>
        errorResponse(409, 'Email already registered'),
      ),
    );
    const { user } = renderWithProviders({ route: '/sign-up', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email already registered');
  });

  it('creates the account and signs in', async () => {
    server.use(http.post('/api/auth/signup', () => HttpResponse.json<Schema<'Envelope_SignedIn'>>(session, { status: 201 })));
    const { user, router } = renderWithProviders({ route: '/sign-up', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(JSON.parse(window.localStorage.getItem(AUTH_USER_KEY)!)).toEqual({ id: 'u-42', email: 'new@example.com', isAdmin: false });
  });

  it('links between sign-in and sign-up', async () => {
    const { user, router } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.click(await screen.findByRole('link', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-up');
  });
});

describe('session end', () => {
  it('signs out cleanly on any 401 from the API', async () => {
    server.use(
      http.get('/api/library/transcripts', () =>
        errorResponse(401, 'Token expired'),
      ),
    );
    const { router } = renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('signs out from the account menu and goes to /sign-in', async () => {
    const { user, router, store } = renderWithProviders({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(store.getState().auth.token).toBeNull();
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('sends the token the refresh cookie restored on API calls', async () => {
    let authorization: string | null = null;
    server.use(
      http.get('/api/library/transcripts', ({ request }) => {
        authorization = request.headers.get('Authorization');
        return HttpResponse.json<Schema<'TranscriptPage'>>({ data: [], meta: { page: 1, limit: 20, total: 0, hasMore: false } });
      }),
    );
    renderWithProviders({ route: '/vault' });
    const main = await screen.findByRole('main');
    expect(await within(main).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });
});
