import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { installFakeLocks } from '@/testing/fakeLocks';
import { installFakeSockets } from '@/testing/fakeSocket';
import { renderWithProviders, TEST_TOKEN, TEST_USER, tokensInLocalStorage } from '@/testing/renderWithProviders';
import { browserSession, EMPTY_PAGE, emptyLibraryStats, errorResponse, server } from '@/testing/server';
import { AUTH_USER_KEY } from './localSession';
import { REFRESH_LOCK } from './sessionRenewal';

async function renderAccount() {
  const view = renderWithProviders({ route: '/settings?tab=account' });
  const panel = await screen.findByRole('tabpanel', { name: 'Account' });
  return { ...view, panel };
}

const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');

describe('Account: Sign out everywhere', () => {
  it('asks first, ends every session on the server, then goes to /sign-in', async () => {
    const calls: Array<string | null> = [];
    server.use(
      http.post('/api/auth/logout-all', ({ request }) => {
        calls.push(request.headers.get('Authorization'));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, router, panel } = await renderAccount();

    // Cancel changes nothing.
    await user.click(within(panel).getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    expect(dialog).toHaveTextContent('This ends every session of your account, on this device and on all others.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Sign out everywhere' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Scribevault' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(calls).toEqual([`Bearer ${TEST_TOKEN}`]);
    expect(window.localStorage.getItem(AUTH_USER_KEY)).toBeNull();
  });

  it('stays signed in and says so when the call fails', async () => {
    server.use(
      http.post('/api/auth/logout-all', () =>
        errorResponse(500, 'Sessions could not be ended'),
      ),
    );
    const { user, router, panel, store } = await renderAccount();
    await user.click(within(panel).getByRole('button', { name: 'Sign out everywhere' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(toastTexts().some((text) => /Error\s*Sessions could not be ended/.test(text))).toBe(true), { timeout: 3000 });
    expect(router.state.location.pathname).toBe('/settings');
    expect(store.getState().auth.token).toBe(TEST_TOKEN);
  });
});

const NEW_SESSION_TOKEN = 'token-after-change';

/**
 * `POST /api/auth/password` as the gateway answers it: every session ends (the old token is
 * refused from then on) and the answer is the token of a new one, whose cookie it sets.
 */
function passwordBackend(answer: 'ok' | 'wrong-current', locks?: ReturnType<typeof installFakeLocks>) {
  const bodies: unknown[] = [];
  const heldLocks: Array<string | null> = [];
  server.use(
    http.post('/api/auth/password', async ({ request }) => {
      bodies.push(await request.json());
      heldLocks.push(locks?.held ?? null);
      if (answer === 'wrong-current') {
        return errorResponse(400, 'Current password is incorrect');
      }
      browserSession.token = NEW_SESSION_TOKEN;
      return HttpResponse.json<Schema<'Envelope_IssuedToken'>>({ data: { token: NEW_SESSION_TOKEN, expiresAt: '2030-01-01T00:00:00Z' } });
    }),
  );
  return { bodies, heldLocks };
}

/** The Vault's list, which refuses the old session's token once the password changed. */
function vaultBackend() {
  const bearers: string[] = [];
  server.use(
    http.get('/api/library/transcripts', ({ request }) => {
      const authorization = request.headers.get('Authorization') ?? '';
      bearers.push(authorization);
      if (authorization !== `Bearer ${NEW_SESSION_TOKEN}`) return errorResponse(401, 'Invalid or expired token');
      return HttpResponse.json<Schema<'TranscriptPage'>>(EMPTY_PAGE);
    }),
    emptyLibraryStats(),
  );
  return bearers;
}

async function fillPasswordDialog(user: ReturnType<typeof renderWithProviders>['user'], current: string, next: string, confirm = next) {
  const dialog = await screen.findByRole('dialog', { name: 'Change password' });
  await user.type(within(dialog).getByLabelText('Current password'), current);
  await user.type(within(dialog).getByLabelText('New password'), next);
  await user.type(within(dialog).getByLabelText('Confirm new password'), confirm);
  await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
  return dialog;
}

describe('Account: Change password', () => {
  it('changes the password, goes on at once with the answered token (next API call, socket) and says so', async () => {
    const locks = installFakeLocks();
    const { bodies, heldLocks } = passwordBackend('ok', locks);
    const vault = vaultBackend();
    const sockets = installFakeSockets();
    const { user, panel, router, store } = await renderAccount();
    await user.click(within(panel).getByRole('button', { name: 'Change password' }));
    await fillPasswordDialog(user, 'old-password', 'new-password-1');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ currentPassword: 'old-password', newPassword: 'new-password-1' }]);
    // Made holding the refresh lock: no other tab's refresh spends or clears the new cookie meanwhile.
    expect(heldLocks).toEqual([REFRESH_LOCK]);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Password changed'))).toBe(true));
    expect(store.getState().auth.token).toBe(NEW_SESSION_TOKEN);
    expect(store.getState().auth.expiresAt).toBe(Date.parse('2030-01-01T00:00:00Z'));
    expect(tokensInLocalStorage([NEW_SESSION_TOKEN, TEST_TOKEN])).toEqual([]);
    expect(router.state.location.pathname).toBe('/settings');

    // The old token is refused from now on: the next call carries the answered one, and so does
    // the socket when it connects again (the server closes the old session's connection).
    await user.click(screen.getByRole('link', { name: 'Vault' }));
    expect(await within(await screen.findByRole('main')).findByText('Your Vault is empty')).toBeInTheDocument();
    expect(vault).toEqual([`Bearer ${NEW_SESSION_TOKEN}`]);
    expect(await sockets.latest().authPayload()).toEqual({ userId: TEST_USER.id, token: NEW_SESSION_TOKEN });
    expect(router.state.location.pathname).toBe('/vault');
  });

  it("shows the server's message for a wrong current password and keeps the dialog open", async () => {
    const { bodies } = passwordBackend('wrong-current');
    const { user, panel, store } = await renderAccount();
    await user.click(within(panel).getByRole('button', { name: 'Change password' }));
    const dialog = await fillPasswordDialog(user, 'not-my-password', 'new-password-1');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(bodies).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Change password' })).toBeInTheDocument();
    expect(store.getState().auth.token).toBe(TEST_TOKEN);
    expect(toastTexts().some((text) => text.includes('Password changed'))).toBe(false);
  });

  it('checks the new password before calling the server', async () => {
    const { bodies } = passwordBackend('ok');
    const { user, panel } = await renderAccount();
    await user.click(within(panel).getByRole('button', { name: 'Change password' }));
    const dialog = await fillPasswordDialog(user, 'old-password', 'short');
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('New password'));
    await user.type(within(dialog).getByLabelText('New password'), 'long-enough-1');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByText('The passwords do not match')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });
});
