import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/testing/renderWithProviders';
import type { Schema } from '@/api/types';
import { errorResponse, server } from '@/testing/server';
import type { AdminUser, Invitation } from './adminApi';

const HOUR = 3_600_000;

function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'user-1',
    email: 'ada@example.com',
    isAdmin: true,
    disabled: false,
    createdAt: '2025-01-05T10:00:00Z',
    lastSignInAt: new Date(Date.now() - 2 * HOUR).toISOString(),
    storageUsedBytes: 1_610_612_736,
    vaultItems: 1234,
    jobsWaiting: 2,
    storageCapGB: null,
    ...overrides,
  };
}

const ADA = adminUser();
const BOB = adminUser({
  id: 'user-2',
  email: 'bob@example.com',
  isAdmin: false,
  createdAt: '2025-02-10T10:00:00Z',
  lastSignInAt: null,
  storageUsedBytes: 5_242_880,
  vaultItems: 7,
  jobsWaiting: 0,
  storageCapGB: 10,
});

/**
 * An in-memory admin back end: `/api/account` says who is signed in, `/api/admin/users` and
 * `/api/admin/invitations` keep their lists and record every change.
 */
function adminBackend({ isAdmin = true, invitations = [] as Invitation[] } = {}) {
  const state = {
    users: [ADA, BOB],
    invitations: [...invitations],
    patched: [] as Array<{ id: string; body: unknown }>,
    deleted: [] as string[],
    created: [] as unknown[],
    revoked: [] as string[],
    usersAsked: 0,
  };
  server.use(
    http.get('/api/account', () => HttpResponse.json<Schema<'Envelope_AccountView'>>({ data: { id: ADA.id, email: ADA.email, isAdmin, twoFactorEnabled: false } })),
    http.get('/api/admin/users', () => {
      state.usersAsked += 1;
      if (!isAdmin) return errorResponse(403, 'Admins only', 'FORBIDDEN');
      return HttpResponse.json<Schema<'Envelope_UsersView'>>({ data: { users: state.users } });
    }),
    http.patch('/api/admin/users/:id', async ({ params, request }) => {
      const id = params.id as string;
      const body = (await request.json()) as Partial<AdminUser>;
      state.patched.push({ id, body });
      if (id === ADA.id && (body.disabled === true || body.isAdmin === false)) {
        return errorResponse(400, 'You cannot disable or demote yourself', 'BAD_REQUEST');
      }
      state.users = state.users.map((user) => (user.id === id ? { ...user, ...body } : user));
      return HttpResponse.json<Schema<'Envelope_UserView'>>({ data: state.users.find((user) => user.id === id)! });
    }),
    http.delete('/api/admin/users/:id', ({ params }) => {
      state.deleted.push(params.id as string);
      state.users = state.users.filter((user) => user.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/admin/invitations', () => HttpResponse.json<Schema<'Envelope_InvitationsView'>>({ data: { invitations: state.invitations } })),
    http.post('/api/admin/invitations', async ({ request }) => {
      const body = (await request.json()) as { expiresInHours?: number };
      state.created.push(body);
      const id = `inv-new-${state.created.length}`;
      const expiresAt = new Date(Date.now() + (body.expiresInHours ?? 72) * HOUR).toISOString();
      state.invitations.unshift({ id, createdAt: new Date().toISOString(), expiresAt, usedAt: null, usedBy: null });
      return HttpResponse.json<Schema<'Envelope_NewInvitationView'>>({ data: { id, url: `${window.location.origin}/sign-up?invitation=secret-token-${id}`, expiresAt } }, { status: 201 });
    }),
    http.delete('/api/admin/invitations/:id', ({ params }) => {
      state.revoked.push(params.id as string);
      state.invitations = state.invitations.filter((invitation) => invitation.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

async function renderUsersTab() {
  const view = renderWithProviders({ route: '/settings?tab=users' });
  const panel = await screen.findByRole('tabpanel', { name: 'Users' });
  await within(panel).findAllByTestId('user-row');
  return { ...view, panel };
}

const rowOf = (email: string) => {
  const row = screen.getAllByTestId('user-row').find((candidate) => within(candidate).queryByText(email));
  if (!row) throw new Error(`no row for ${email}`);
  return row;
};
const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');

async function chooseAction(user: ReturnType<typeof renderWithProviders>['user'], email: string, item: string) {
  await user.click(within(rowOf(email)).getByRole('button', { name: `Actions for ${email}` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Settings: the Users tab', () => {
  it('is not there for someone who is not an admin, not even by its link', async () => {
    const backend = adminBackend({ isAdmin: false });
    renderWithProviders({ route: '/settings?tab=users' });
    expect(await screen.findByRole('tabpanel', { name: 'Preferences' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Preferences', 'Scheduled Syncs', 'Webhooks', 'Podcast Feeds', 'Account']);
    expect(screen.queryByRole('tab', { name: 'Users' })).not.toBeInTheDocument();
    expect(backend.usersAsked).toBe(0);
  });

  it('is there for an admin, last, and lists every account', async () => {
    adminBackend();
    const { user, router, panel } = await renderUsersTab();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Preferences', 'Scheduled Syncs', 'Webhooks', 'Podcast Feeds', 'Account', 'Users']);
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');

    const bob = rowOf('bob@example.com');
    expect(within(bob).getByText('Feb 10, 2025')).toBeInTheDocument();
    expect(within(bob).getByText('Never')).toBeInTheDocument();
    expect(within(bob).getByText('5 MB')).toBeInTheDocument();
    expect(within(bob).getByText('of 10 GB')).toBeInTheDocument();
    expect(within(bob).getByText('7')).toBeInTheDocument();
    expect(within(bob).getByText('User')).toBeInTheDocument();
    expect(within(bob).getByText('Active')).toBeInTheDocument();

    const ada = rowOf('ada@example.com');
    expect(within(ada).getByText('(you)')).toBeInTheDocument();
    expect(within(ada).getByText('1.5 GB')).toBeInTheDocument();
    expect(within(ada).getByText('No cap')).toBeInTheDocument();
    expect(within(ada).getByText('1,234')).toBeInTheDocument();
    expect(within(ada).getByText('2 hours ago')).toBeInTheDocument();
    expect(within(ada).getByText('Admin')).toBeInTheDocument();
    expect(within(panel).getByRole('region', { name: 'Invitations' })).toBeInTheDocument();

    // The tab is reachable from the others like the rest.
    await user.click(screen.getByRole('tab', { name: 'Account' }));
    await user.keyboard('{ArrowRight}');
    expect(router.state.location.search).toBe('?tab=users');
  });

  it('disables and enables an account', async () => {
    const backend = adminBackend();
    const { user } = await renderUsersTab();
    await chooseAction(user, 'bob@example.com', 'Disable');
    await waitFor(() => expect(within(rowOf('bob@example.com')).getByText('Disabled')).toBeInTheDocument());
    expect(backend.patched).toEqual([{ id: 'user-2', body: { disabled: true } }]);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('User disabled'))).toBe(true));

    await chooseAction(user, 'bob@example.com', 'Enable');
    await waitFor(() => expect(within(rowOf('bob@example.com')).getByText('Active')).toBeInTheDocument());
    expect(backend.patched).toEqual([
      { id: 'user-2', body: { disabled: true } },
      { id: 'user-2', body: { disabled: false } },
    ]);
  });

  it('makes an admin and removes the role again', async () => {
    const backend = adminBackend();
    const { user } = await renderUsersTab();
    await chooseAction(user, 'bob@example.com', 'Make admin');
    await waitFor(() => expect(within(rowOf('bob@example.com')).getByText('Admin')).toBeInTheDocument());
    await chooseAction(user, 'bob@example.com', 'Remove admin');
    await waitFor(() => expect(within(rowOf('bob@example.com')).getByText('User')).toBeInTheDocument());
    expect(backend.patched.map((change) => change.body)).toEqual([{ isAdmin: true }, { isAdmin: false }]);
  });

  it("does not offer to disable, demote or delete the admin's own account", async () => {
    const backend = adminBackend();
    const { user } = await renderUsersTab();
    await user.click(within(rowOf('ada@example.com')).getByRole('button', { name: 'Actions for ada@example.com' }));
    for (const item of ['Disable', 'Remove admin', 'Delete user']) {
      expect(await screen.findByRole('menuitem', { name: item })).toHaveAttribute('aria-disabled', 'true');
    }
    expect(screen.getByRole('menuitem', { name: 'Storage cap...' })).not.toHaveAttribute('aria-disabled');
    await user.click(screen.getByRole('menuitem', { name: 'Disable' }));
    expect(backend.patched).toEqual([]);
  });
});

describe('Settings: the Users tab: storage caps, refusals and deletion', () => {
  it('sets a storage cap and removes it with an empty field', async () => {
    const backend = adminBackend();
    const { user } = await renderUsersTab();
    await chooseAction(user, 'bob@example.com', 'Storage cap...');
    let dialog = await screen.findByRole('dialog', { name: 'Storage cap' });
    const field = within(dialog).getByLabelText('Storage cap (GB)');
    expect(field).toHaveValue(10);
    for (const wrong of ['-3', '2.5', '0']) {
      await user.clear(field);
      await user.type(field, wrong);
      await user.click(within(dialog).getByRole('button', { name: 'Save cap' }));
      expect(within(dialog).getByRole('alert')).toHaveTextContent('Enter a whole number of GB (1 or more), or leave it empty for no cap');
    }
    expect(backend.patched).toEqual([]);

    await user.clear(field);
    await user.type(field, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save cap' }));
    await waitFor(() => expect(within(rowOf('bob@example.com')).getByText('of 25 GB')).toBeInTheDocument());

    await chooseAction(user, 'bob@example.com', 'Storage cap...');
    dialog = await screen.findByRole('dialog', { name: 'Storage cap' });
    await user.clear(within(dialog).getByLabelText('Storage cap (GB)'));
    await user.click(within(dialog).getByRole('button', { name: 'Save cap' }));
    await waitFor(() => expect(within(rowOf('bob@example.com')).getByText('No cap')).toBeInTheDocument());
    expect(backend.patched.map((change) => change.body)).toEqual([{ storageCapGB: 25 }, { storageCapGB: null }]);
  });

  it("shows the server's refusal as an error toast", async () => {
    adminBackend();
    server.use(
      http.patch('/api/admin/users/:id', () =>
        errorResponse(400, 'The last admin cannot be demoted', 'BAD_REQUEST'),
      ),
    );
    const { user } = await renderUsersTab();
    await chooseAction(user, 'bob@example.com', 'Disable');
    await waitFor(() => expect(toastTexts().some((text) => /Error\s*The last admin cannot be demoted/.test(text))).toBe(true));
    expect(within(rowOf('bob@example.com')).getByText('Active')).toBeInTheDocument();
  });

  it('deletes an account only after a confirmation that names it and what goes with it', async () => {
    const backend = adminBackend();
    const { user } = await renderUsersTab();
    await chooseAction(user, 'bob@example.com', 'Delete user');
    let dialog = await screen.findByRole('dialog', { name: 'Delete bob@example.com?' });
    expect(dialog).toHaveTextContent('The account bob@example.com and everything it owns are deleted');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(backend.deleted).toEqual([]);

    await chooseAction(user, 'bob@example.com', 'Delete user');
    dialog = await screen.findByRole('dialog', { name: 'Delete bob@example.com?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(1));
    expect(backend.deleted).toEqual(['user-2']);
    expect(within(screen.getByTestId('user-row')).getByText('ada@example.com')).toBeInTheDocument();
    await waitFor(() => expect(toastTexts().some((text) => text.includes('User deleted'))).toBe(true));
  });
});

describe('Settings: invitations', () => {
  const now = Date.now();
  const INVITATIONS: Invitation[] = [
    { id: 'inv-pending', createdAt: new Date(now - HOUR).toISOString(), expiresAt: new Date(now + 71 * HOUR).toISOString(), usedAt: null, usedBy: null },
    {
      id: 'inv-used',
      createdAt: new Date(now - 48 * HOUR).toISOString(),
      expiresAt: new Date(now + 24 * HOUR).toISOString(),
      usedAt: new Date(now - 47 * HOUR).toISOString(),
      usedBy: 'bob@example.com',
    },
    { id: 'inv-expired', createdAt: new Date(now - 100 * HOUR).toISOString(), expiresAt: new Date(now - 28 * HOUR).toISOString(), usedAt: null, usedBy: null },
  ];
  const invitationRow = (id: string) => {
    const row = screen.getAllByTestId('invitation-row').find((candidate) => candidate.dataset.invitationId === id);
    if (!row) throw new Error(`no row for ${id}`);
    return row;
  };

  it('lists invitations as pending, used (by whom) or expired', async () => {
    adminBackend({ invitations: INVITATIONS });
    await renderUsersTab();
    await screen.findAllByTestId('invitation-row');
    expect(within(invitationRow('inv-pending')).getByText('Pending')).toBeInTheDocument();
    expect(within(invitationRow('inv-used')).getByText('Used')).toBeInTheDocument();
    expect(within(invitationRow('inv-used')).getByText('bob@example.com')).toBeInTheDocument();
    expect(within(invitationRow('inv-expired')).getByText('Expired')).toBeInTheDocument();
    expect(within(invitationRow('inv-pending')).getByRole('button', { name: /^Revoke the invitation created/ })).toBeInTheDocument();
    expect(within(invitationRow('inv-used')).getByRole('button', { name: /^Remove the invitation created/ })).toBeInTheDocument();
  });

  it('creates an invitation, shows its link once and copies it', async () => {
    const backend = adminBackend();
    const { user, panel } = await renderUsersTab();
    expect(await within(panel).findByText('No invitations yet.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Create invitation' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create invitation' });
    expect(within(dialog).getByLabelText('Expires after')).toHaveValue('72');
    await user.selectOptions(within(dialog).getByLabelText('Expires after'), '7 days');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));

    dialog = await screen.findByRole('dialog', { name: 'Invitation created' });
    expect(backend.created).toEqual([{ expiresInHours: 168 }]);
    const link = `${window.location.origin}/sign-up?invitation=secret-token-inv-new-1`;
    expect(within(dialog).getByLabelText('Invitation link')).toHaveValue(link);
    expect(dialog).toHaveTextContent('it is shown only once');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await within(dialog).findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list has the new invitation, pending; the link is nowhere any more.
    expect(await within(invitationRow('inv-new-1')).findByText('Pending')).toBeInTheDocument();
    expect(screen.queryByDisplayValue(link)).not.toBeInTheDocument();
  });

  it('copies with the older copy command where the Clipboard API is missing (plain http)', async () => {
    adminBackend();
    const { user, panel } = await renderUsersTab();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const execCommand = vi.fn((_command: string) => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    await user.click(within(panel).getByRole('button', { name: 'Create invitation' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Create invitation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation created' });
    const field = within(dialog).getByLabelText<HTMLInputElement>('Invitation link');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await within(dialog).findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(execCommand).toHaveBeenCalledWith('copy');
    // The whole link was selected for the copy.
    expect(field.selectionStart).toBe(0);
    expect(field.selectionEnd).toBe(field.value.length);
  });

  it('revokes a pending invitation after asking', async () => {
    const backend = adminBackend({ invitations: INVITATIONS });
    const { user } = await renderUsersTab();
    await screen.findAllByTestId('invitation-row');
    await user.click(within(invitationRow('inv-pending')).getByRole('button', { name: /^Revoke the invitation created/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this invitation?' });
    expect(backend.revoked).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke invitation' }));
    await waitFor(() => expect(screen.queryAllByTestId('invitation-row')).toHaveLength(2));
    expect(backend.revoked).toEqual(['inv-pending']);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Invitation revoked'))).toBe(true));
  });
});
