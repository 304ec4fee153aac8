import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders, TEST_TOKEN } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from './localSession';

const session: Schema<'Envelope_SignedIn'> = {
  data: { token: 'jwt-from-server', expiresAt: '2030-01-01T00:00:00Z', user: { id: 'u-42', email: 'new@example.com', isAdmin: false } },
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

  it('treats an expired stored token as signed out when the server has ended its session', async () => {
    const expired = `x.${btoa(JSON.stringify({ sub: 'u', exp: 1000 }))}.y`;
    const refreshes: Array<string | null> = [];
    server.use(
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes.push(request.headers.get('Authorization'));
        return errorResponse(401, 'Session has ended');
      }),
    );
    window.localStorage.setItem(AUTH_TOKEN_KEY, expired);
    window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify({ id: 'u', email: 'e@x.io' }));
    renderWithProviders({ route: '/vault', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(refreshes).toEqual([`Bearer ${expired}`]);
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
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

  it('signs in, stores the token, lands on / and sends the token on later calls', async () => {
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
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe('jwt-from-server');

    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await screen.findByText('Your Vault is empty')).toBeInTheDocument();
    expect(authorization).toBe('Bearer jwt-from-server');
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
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('signs out from the account menu and goes to /sign-in', async () => {
    const { user, router } = renderWithProviders({ route: '/' });
    await user.click(await screen.findByRole('button', { name: 'Account: ada@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('keeps the stored token for API calls', async () => {
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
