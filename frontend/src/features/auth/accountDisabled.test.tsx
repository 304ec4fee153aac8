import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionExpired } from '@/api/apiEvents';
import type { Schema } from '@/api/types';
import { renderWithProviders, TEST_USER, tokensInLocalStorage } from '@/testing/renderWithProviders';
import { EMPTY_PAGE, emptyLibraryStats, errorResponse, server } from '@/testing/server';
import { SESSION_ENDED_NOTICE } from './authSlice';
import { AUTH_USER_KEY } from './localSession';

/** What the gateway says, with 401 UNAUTHENTICATED, to a token of a disabled account (403 at sign-in). */
const DISABLED = "This account is disabled. Ask the instance's owner to enable it.";

function refusal(status: 401 | 403, message: string) {
  return errorResponse(status, message);
}

const notice = () => screen.queryByTestId('sign-out-notice');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a disabled account', () => {
  it("is signed out by its next API call, and the sign-in screen says why in the server's words", async () => {
    server.use(http.get('/api/library/transcripts', () => refusal(401, DISABLED)));
    const { router } = renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(screen.getByRole('alert')).toHaveTextContent(DISABLED);
    expect(screen.queryByText(SESSION_ENDED_NOTICE)).not.toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('says so when the session cannot be restored on start because of it', async () => {
    const refreshes: Array<string | null> = [];
    server.use(
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes.push(request.headers.get('Authorization'));
        return refusal(401, DISABLED);
      }),
    );
    window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(TEST_USER));
    renderWithProviders({ route: '/vault', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(DISABLED);
    expect(refreshes).toEqual([null]);
  });

  it("shows the server's 403 message at sign-in and stays signed out", async () => {
    server.use(http.post('/api/auth/login', () => refusal(403, DISABLED)));
    const { user, router } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(DISABLED);
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(tokensInLocalStorage()).toEqual([]);
  });
});

describe('the notice after the server ends a session', () => {
  it("is a plain 'session ended' for the gateway's generic 401, not its wording", async () => {
    server.use(http.get('/api/library/transcripts', () => refusal(401, 'Invalid or expired token')));
    renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(SESSION_ENDED_NOTICE);
    expect(screen.queryByText('Invalid or expired token')).not.toBeInTheDocument();
  });

  it('keeps the specific reason when several calls end at once, in either order', async () => {
    const { store } = renderWithProviders({ route: '/' });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    act(() => {
      store.dispatch(sessionExpired({ message: 'Invalid or expired token' }));
      store.dispatch(sessionExpired({ message: DISABLED }));
      store.dispatch(sessionExpired());
    });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(notice()).toHaveTextContent(DISABLED);
  });

  it('is not shown after signing out on purpose, and goes once someone signs in', async () => {
    server.use(
      http.get('/api/library/transcripts', () => refusal(401, DISABLED)),
      http.post('/api/auth/login', () =>
        HttpResponse.json<Schema<'Envelope_SignedIn'>>({
          data: { token: 'next-token', expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(), user: { ...TEST_USER, isAdmin: false } },
        }),
      ),
    );
    const { user } = renderWithProviders({ route: '/vault' });
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(notice()).toHaveTextContent(DISABLED);

    // Enabled again by the owner: signing in works and the notice is gone for good.
    server.use(http.get('/api/library/transcripts', () => HttpResponse.json<Schema<'TranscriptPage'>>(EMPTY_PAGE)));
    await user.type(screen.getByLabelText('Email'), TEST_USER.email);
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Account: ${TEST_USER.email}` }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(notice()).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('renewal after the token expired (a laptop that slept)', () => {
  it('renews with the cookie when the tab gets focus again, and the next calls carry the new one', async () => {
    const refreshes: Array<string | null> = [];
    const vault: string[] = [];
    server.use(
      http.post('/api/auth/refresh', ({ request }) => {
        refreshes.push(request.headers.get('Authorization'));
        const token = refreshes.length === 1 ? 'slept-token' : 'woken-token';
        return HttpResponse.json<Schema<'Envelope_IssuedToken'>>({ data: { token, expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() } });
      }),
      http.get('/api/library/transcripts', ({ request }) => {
        vault.push(request.headers.get('Authorization') ?? '');
        return HttpResponse.json<Schema<'TranscriptPage'>>(EMPTY_PAGE);
      }),
      emptyLibraryStats(),
    );
    const start = Date.now();
    window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(TEST_USER));
    const { user } = renderWithProviders({ route: '/', signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    // The start of the visit restored the session.
    expect(refreshes).toEqual([null]);

    // The laptop slept for two hours: the renewal timer never fired and the token is long expired.
    vi.spyOn(Date, 'now').mockReturnValue(start + 2 * 60 * 60_000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(refreshes).toEqual([null, null]));
    // Still signed in, and the expired token is not sent anywhere else.
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(vault).toEqual(['Bearer woken-token']);
    expect(notice()).not.toBeInTheDocument();
  });
});
