import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import type { AppConfig } from '@/config/appConfig';
import { renderWithProviders, tokensInLocalStorage } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';

const INVITE_ONLY: AppConfig = { authMode: 'local', signup: 'invite' };
const CLOSED: AppConfig = { authMode: 'local', signup: 'closed' };
const EXPIRES_AT = '2030-01-01T12:00:00Z';
const session: Schema<'Envelope_SignedIn'> = { data: { token: 'invited-token', expiresAt: EXPIRES_AT, user: { id: 'u-7', email: 'new@example.com', isAdmin: false } } };

/** `GET /api/auth/invitations/{token}`: `valid` tokens answer 200, others 404. Records sign-up bodies. */
function invitationBackend(valid: string[]) {
  const checked: string[] = [];
  const signups: unknown[] = [];
  server.use(
    http.get('/api/auth/invitations/:token', ({ params }) => {
      checked.push(params.token as string);
      if (valid.includes(params.token as string)) return HttpResponse.json<Schema<'Envelope_OpenInvitationView'>>({ data: { expiresAt: EXPIRES_AT } });
      return errorResponse(404, 'Invitation not found');
    }),
    http.post('/api/auth/signup', async ({ request }) => {
      signups.push(await request.json());
      return HttpResponse.json<Schema<'Envelope_SignedIn'>>(session, { status: 201 });
    }),
  );
  return { checked, signups };
}

describe('sign-up by invitation', () => {
  it('checks the invitation of the link, says so, and sends it with the sign-up', async () => {
    const backend = invitationBackend(['tok-123']);
    const { user, router, store } = renderWithProviders({ route: '/sign-up?invitation=tok-123', signedIn: false, config: INVITE_ONLY });
    expect(await screen.findByText('You have been invited to Scribevault. Create your account below.')).toBeInTheDocument();
    expect(backend.checked).toEqual(['tok-123']);
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(backend.signups).toEqual([{ email: 'new@example.com', password: 'long-enough', invitation: 'tok-123' }]);
    expect(store.getState().auth.token).toBe('invited-token');
    expect(store.getState().auth.expiresAt).toBe(Date.parse(EXPIRES_AT));
    expect(tokensInLocalStorage(['invited-token'])).toEqual([]);
  });

  it('says an expired or used invitation cannot be used, and offers no form on an invite-only instance', async () => {
    const backend = invitationBackend([]);
    renderWithProviders({ route: '/sign-up?invitation=old-token', signedIn: false, config: INVITE_ONLY });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired or was already used.');
    expect(backend.checked).toEqual(['old-token']);
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    expect(screen.queryByText(/You have been invited/)).not.toBeInTheDocument();
  });

  it('on an open instance, a bad invitation leaves the plain form, which does not send it', async () => {
    const backend = invitationBackend([]);
    const { user } = renderWithProviders({ route: '/sign-up?invitation=old-token', signedIn: false });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired or was already used.');
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(backend.signups).toEqual([{ email: 'new@example.com', password: 'long-enough' }]);
  });

  it("shows the server's 403 message when sign-up needs an invitation", async () => {
    const message = 'Sign-up on this instance needs an invitation. Ask its owner for an invitation link.';
    server.use(
      http.post('/api/auth/signup', () => errorResponse(403, message)),
    );
    const { user, router, store } = renderWithProviders({ route: '/sign-up', signedIn: false });
    await user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(router.state.location.pathname).toBe('/sign-up');
    expect(store.getState().auth.token).toBeNull();
  });
});

describe('sign-up by invitation: invite-only, closed and fresh instances', () => {
  it('says an invitation is needed on an invite-only instance, from sign-in and on /sign-up', async () => {
    const { user, router } = renderWithProviders({ route: '/sign-in', signedIn: false, config: INVITE_ONLY });
    expect(await screen.findByText(/Sign-up needs an invitation\./)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Sign up with an invitation' }));
    expect(router.state.location.pathname).toBe('/sign-up');
    expect(await screen.findByRole('status')).toHaveTextContent(/Sign-up needs an invitation\. Open the invitation link you were sent/);
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
  });

  it('offers no form on /sign-up when sign-up is closed, and no way around it', async () => {
    renderWithProviders({ route: '/sign-up', signedIn: false, config: CLOSED });
    // Once the start of the visit found no session ('Loading...' is a status too until then).
    expect(await screen.findByText(/Sign-up is closed on this Scribevault\./)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Sign-up is closed on this Scribevault.');
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    // A fresh instance's first account is the server's business: its /config.json says `open` then.
    expect(screen.queryByRole('button', { name: /first account/ })).not.toBeInTheDocument();
  });

  it("shows the form on a fresh instance, whose /config.json says 'open' whatever the setting", async () => {
    const signups: unknown[] = [];
    server.use(
      http.post('/api/auth/signup', async ({ request }) => {
        signups.push(await request.json());
        return HttpResponse.json<Schema<'Envelope_SignedIn'>>(session, { status: 201 });
      }),
    );
    const { user, router } = renderWithProviders({ route: '/sign-up', signedIn: false, config: { authMode: 'local', signup: 'open' } });
    await user.type(await screen.findByLabelText('Email'), 'owner@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Find Videos' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(signups).toEqual([{ email: 'owner@example.com', password: 'long-enough' }]);
  });

  it('offers no sign-up at all when sign-up is closed', async () => {
    renderWithProviders({ route: '/sign-in', signedIn: false, config: CLOSED });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Sign up/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/have an account/)).not.toBeInTheDocument();
  });
});
