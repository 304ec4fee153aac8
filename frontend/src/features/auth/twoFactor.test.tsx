import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, TEST_TOKEN, tokensInLocalStorage } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import type { Schema } from '@/api/types';
import { groupSecret } from './TwoFactorDialogs';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH_URL = `otpauth://totp/Scribevault:ada%40example.com?secret=${SECRET}&issuer=Scribevault&algorithm=SHA1&digits=6&period=30`;
const RIGHT_CODE = '123456';
const WRONG_CODE_MESSAGE = 'That code is not right. Check the time on your device and try again.';
const WRONG_PASSWORD_MESSAGE = 'The password is not right.';
const RECOVERY_CODES = Array.from({ length: 10 }, (_, index) => `abcd${index}-efgh${index}`);

/** The server's side of the account: 2FA state, the pending secret and what each call was sent. */
function twoFactorBackend(initiallyEnabled: boolean) {
  const state = {
    enabled: initiallyEnabled,
    pending: null as string | null,
    setups: [] as unknown[],
    enables: [] as unknown[],
    disables: [] as unknown[],
  };
  server.use(
    http.get('/api/account', () =>
      HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: { id: 'user-1', email: 'ada@example.com', isAdmin: false, twoFactorEnabled: state.enabled } }),
    ),
    http.post('/api/auth/2fa/setup', async ({ request }) => {
      expect(request.headers.get('Authorization')).toBe(`Bearer ${TEST_TOKEN}`);
      const body = (await request.json()) as { password?: string };
      state.setups.push(body);
      if (body.password !== 'correct-horse') return errorResponse(400, WRONG_PASSWORD_MESSAGE);
      state.pending = SECRET;
      return HttpResponse.json<Schema<'Envelope_TwoFactorSetupView'>>({ data: { secret: SECRET, otpauthUrl: OTPAUTH_URL } });
    }),
    http.post('/api/auth/2fa/enable', async ({ request }) => {
      const body = (await request.json()) as { code?: string };
      state.enables.push(body);
      if (!state.pending || body.code !== RIGHT_CODE) {
        return errorResponse(400, WRONG_CODE_MESSAGE);
      }
      state.enabled = true;
      state.pending = null;
      return HttpResponse.json<Schema<'Envelope_TwoFactorEnabledView'>>({ data: { twoFactorEnabled: true, recoveryCodes: RECOVERY_CODES } });
    }),
    http.post('/api/auth/2fa/disable', async ({ request }) => {
      const body = (await request.json()) as { password?: string; code?: string };
      state.disables.push(body);
      if (body.password !== 'correct-horse') {
        return errorResponse(400, WRONG_PASSWORD_MESSAGE);
      }
      if (body.code !== RIGHT_CODE) {
        return errorResponse(400, WRONG_CODE_MESSAGE);
      }
      state.enabled = false;
      return HttpResponse.json<Schema<'Envelope_TwoFactorView'>>({ data: { twoFactorEnabled: false } });
    }),
  );
  return state;
}

async function renderAccount() {
  const view = renderWithProviders({ route: '/settings?tab=account' });
  const panel = await screen.findByRole('tabpanel', { name: 'Account' });
  return { ...view, panel };
}

const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');

describe('Account: two-factor sign-in', () => {
  it('sets up: asks the password, shows the QR code and key, refuses a wrong code, turns on and shows the recovery codes once', async () => {
    const backend = twoFactorBackend(false);
    const { user, panel } = await renderAccount();
    expect(await within(panel).findByTestId('two-factor-status')).toHaveTextContent('Off');

    await user.click(within(panel).getByRole('button', { name: 'Set up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor sign-in' });
    // A session alone does not set up a factor: the password first, checked by the server.
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();
    expect(backend.setups).toEqual([]);
    await user.type(within(dialog).getByLabelText('Your password'), 'a-guess');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(WRONG_PASSWORD_MESSAGE);
    await user.clear(within(dialog).getByLabelText('Your password'));
    await user.type(within(dialog).getByLabelText('Your password'), 'correct-horse');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    const qr = await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' });
    expect(backend.setups).toEqual([{ password: 'a-guess' }, { password: 'correct-horse' }]);
    // Drawn here from the otpauth URL: an SVG with modules, nothing loaded from elsewhere.
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr).toHaveAttribute('data-qr-value', OTPAUTH_URL);
    expect(qr.querySelector('path')?.getAttribute('d')?.length ?? 0).toBeGreaterThan(100);
    expect(within(dialog).getByLabelText('Or enter this key')).toHaveValue(groupSecret(SECRET));
    expect(groupSecret(SECRET)).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    await user.click(within(dialog).getByRole('button', { name: 'Copy key' }));
    expect(await within(dialog).findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(SECRET);

    const codeField = within(dialog).getByLabelText('Code from the app');
    expect(codeField).toHaveAttribute('inputmode', 'numeric');
    expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');

    // Too short: checked here, nothing sent.
    await user.type(codeField, '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(within(dialog).getByText('The code has 6 digits')).toBeInTheDocument();
    expect(backend.enables).toEqual([]);

    // Wrong: the server's message, the dialog stays open, still off.
    await user.clear(codeField);
    await user.type(codeField, '000000');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(WRONG_CODE_MESSAGE);
    expect(screen.getByRole('dialog', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(within(panel).getByTestId('two-factor-status')).toHaveTextContent('Off');

    // Right (typed with a space, as apps show it): on, and the recovery codes, shown once.
    await user.type(within(dialog).getByLabelText('Code from the app'), '123 456');
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    const codesDialog = await screen.findByRole('dialog', { name: 'Save your recovery codes' });
    const codes = within(codesDialog).getByRole('list', { name: 'Recovery codes' });
    expect(within(codes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(RECOVERY_CODES);
    await user.click(within(codesDialog).getByRole('button', { name: 'Copy all' }));
    expect(await navigator.clipboard.readText()).toBe(RECOVERY_CODES.join('\n'));
    // Not while the codes are shown: on a phone the toast would cover the dialog's Done.
    expect(toastTexts().some((text) => text.includes('Two-factor sign-in is on'))).toBe(false);
    await user.click(within(codesDialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 3000 });
    expect(backend.enables).toEqual([{ code: '000000' }, { code: RIGHT_CODE }]);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Two-factor sign-in is on'))).toBe(true), { timeout: 3000 });
    await waitFor(() => expect(within(panel).getByTestId('two-factor-status')).toHaveTextContent('On'), { timeout: 3000 });
    expect(within(panel).getByRole('button', { name: 'Turn off' })).toBeEnabled();
    expect(within(panel).queryByRole('button', { name: 'Set up' })).not.toBeInTheDocument();
  });

  it('shows why when the setup call fails, and tries again', async () => {
    const backend = twoFactorBackend(false);
    let fail = true;
    server.use(
      http.post('/api/auth/2fa/setup', () => {
        if (!fail) return;
        fail = false;
        return errorResponse(500, 'The secret could not be made');
      }),
    );
    const { user, panel } = await renderAccount();
    await user.click(await within(panel).findByRole('button', { name: 'Set up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor sign-in' });
    await user.type(within(dialog).getByLabelText('Your password'), 'correct-horse');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByRole('alert', {}, { timeout: 4000 })).toHaveTextContent('The secret could not be made');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByRole('img', { name: 'QR code for your authenticator app' })).toBeInTheDocument();
    expect(backend.setups).toEqual([{ password: 'correct-horse' }]);
  });
});

describe('Account: two-factor sign-in: turning off', () => {
  it('turns off with the password and a current code; a wrong password is shown', async () => {
    const backend = twoFactorBackend(true);
    const { user, panel } = await renderAccount();
    expect(await within(panel).findByTestId('two-factor-status')).toHaveTextContent('On');

    await user.click(within(panel).getByRole('button', { name: 'Turn off' }));
    let dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in' });
    // Both are needed before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(backend.disables).toEqual([]);

    await user.type(within(dialog).getByLabelText('Password'), 'not-my-password');
    await user.type(within(dialog).getByLabelText('Code from the app or a recovery code'), RIGHT_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(WRONG_PASSWORD_MESSAGE);
    expect(within(panel).getByTestId('two-factor-status')).toHaveTextContent('On');

    // Cancel changes nothing; the second try works.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 3000 });
    await user.click(within(panel).getByRole('button', { name: 'Turn off' }));
    dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in' });
    await user.type(within(dialog).getByLabelText('Password'), 'correct-horse');
    await user.type(within(dialog).getByLabelText('Code from the app or a recovery code'), RIGHT_CODE);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), { timeout: 3000 });
    expect(backend.disables).toEqual([
      { password: 'not-my-password', code: RIGHT_CODE },
      { password: 'correct-horse', code: RIGHT_CODE },
    ]);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Two-factor sign-in is off'))).toBe(true), { timeout: 3000 });
    await waitFor(() => expect(within(panel).getByTestId('two-factor-status')).toHaveTextContent('Off'), { timeout: 3000 });
    expect(within(panel).getByRole('button', { name: 'Set up' })).toBeEnabled();
  });
});

const session: Schema<'Envelope_SignedIn'> = {
  data: { token: 'jwt-after-2fa', expiresAt: '2030-01-01T00:00:00Z', user: { id: 'u-7', email: 'ada@example.com', isAdmin: false } },
};
const CODE_PROMPT = 'Enter the code from your authenticator app.';

function loginBackend() {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/auth/login', async ({ request }) => {
      const body = (await request.json()) as { email: string; password: string; code?: string };
      bodies.push(body);
      if (body.password !== 'correct-horse') {
        return errorResponse(401, 'Invalid email or password');
      }
      if (body.code === undefined) {
        // Untyped: the gateway adds `totpRequired` to this 401, but the contract's ErrorObject does not declare it yet.
        return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: CODE_PROMPT, totpRequired: true } }, { status: 401 });
      }
      if (body.code !== RIGHT_CODE) {
        // Untyped: as above, `totpRequired` is not in the contract's ErrorObject yet.
        return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: WRONG_CODE_MESSAGE, totpRequired: true } }, { status: 401 });
      }
      return HttpResponse.json<Schema<'Envelope_SignedIn'>>(session);
    }),
  );
  return bodies;
}

async function signInFirstStep(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct-horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return screen.findByLabelText('Authentication code');
}

describe('sign-in with two-factor sign-in on', () => {
  it('asks for the code, shows a wrong one refused, signs in with the right one', async () => {
    const bodies = loginBackend();
    const { user, router, store } = renderWithProviders({ route: '/sign-in', signedIn: false });
    const codeField = await signInFirstStep(user);
    expect(codeField).toHaveAttribute('inputmode', 'numeric');
    expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
    expect(codeField).toHaveFocus();
    expect(screen.getByText(CODE_PROMPT)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-in');

    await user.type(codeField, '111111');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(WRONG_CODE_MESSAGE);
    expect(screen.getByLabelText('Authentication code')).toHaveValue('');
    expect(store.getState().auth.token).toBeNull();

    await user.type(screen.getByLabelText('Authentication code'), RIGHT_CODE);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().auth.token).toBe('jwt-after-2fa');
    expect(tokensInLocalStorage(['jwt-after-2fa'])).toEqual([]);
    expect(bodies).toEqual([
      { email: 'ada@example.com', password: 'correct-horse' },
      { email: 'ada@example.com', password: 'correct-horse', code: '111111' },
      { email: 'ada@example.com', password: 'correct-horse', code: RIGHT_CODE },
    ]);
  });

  it('signs in with a recovery code, says how many are left and that the factor changed', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/auth/login', async ({ request }) => {
        const body = (await request.json()) as { code?: string };
        bodies.push(body);
        if (body.code === undefined) {
          return HttpResponse.json({ error: { code: 'UNAUTHENTICATED', message: CODE_PROMPT, totpRequired: true } }, { status: 401 });
        }
        return HttpResponse.json<Schema<'Envelope_SignedIn'>>({
          data: { ...session.data, recoveryCodesLeft: 9, secondFactorChangedAt: '2026-12-01T10:00:00Z' },
        });
      }),
    );
    const { user } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await signInFirstStep(user);
    await user.click(screen.getByRole('button', { name: 'Lost your phone? Enter one of your recovery codes instead.' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field).toHaveAttribute('inputmode', 'text');
    await user.type(field, ' ABCD3-EFGH3 ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(bodies[1]).toEqual({ email: 'ada@example.com', password: 'correct-horse', code: 'abcd3-efgh3' });
    await waitFor(() => expect(toastTexts().some((text) => text.includes('9 recovery codes left'))).toBe(true), { timeout: 3000 });
    expect(toastTexts().some((text) => text.includes('Your two-factor sign-in changed'))).toBe(true);
  });
});

describe('sign-in with two-factor sign-in on: checks, Back and a wrong password', () => {
  it('checks the code before sending it', async () => {
    const bodies = loginBackend();
    const { user } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await signInFirstStep(user);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), '12a4');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('A code has 6 digits; a recovery code looks like abcde-12345')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
  });

  it('Back returns to the first step with the email and password kept', async () => {
    const bodies = loginBackend();
    const { user } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await signInFirstStep(user);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('correct-horse');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByLabelText('Authentication code')).toBeInTheDocument();
    expect(bodies).toEqual([
      { email: 'ada@example.com', password: 'correct-horse' },
      { email: 'ada@example.com', password: 'correct-horse' },
    ]);
  });

  it('stays on the first step for a wrong password (a 401 without totpRequired)', async () => {
    loginBackend();
    const { user } = renderWithProviders({ route: '/sign-in', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
  });
});
