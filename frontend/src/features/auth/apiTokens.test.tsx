import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';

type Token = Schema<'ApiTokenView'>;

const USED: Token = {
  id: 'tok-1',
  name: 'Open WebUI',
  createdAt: '2026-11-20T10:00:00Z',
  lastUsedAt: '2026-11-25T08:30:00Z',
  expiresAt: null,
  saveToVault: true,
  expired: false,
};

/** A token backend kept in memory, recording what the SPA sent. */
function tokensBackend(initial: Token[] = []) {
  let tokens = [...initial];
  const created: unknown[] = [];
  const patched: Array<{ id: string; body: unknown }> = [];
  const deleted: string[] = [];
  server.use(
    http.get('/api/tokens', () => HttpResponse.json<Schema<'Envelope_ApiTokensView'>>({ data: { tokens } })),
    http.post('/api/tokens', async ({ request }) => {
      const body = (await request.json()) as Schema<'NewApiTokenRequest'>;
      created.push(body);
      const token: Token = {
        id: `tok-${tokens.length + 2}`,
        name: body.name,
        createdAt: '2026-11-26T12:00:00Z',
        lastUsedAt: null,
        expiresAt: body.expiresAt ?? null,
        saveToVault: body.saveToVault ?? true,
        expired: false,
      };
      tokens = [token, ...tokens];
      return HttpResponse.json<Schema<'Envelope_NewApiTokenView'>>({ data: { ...token, token: 'svt_secret-shown-once' } }, { status: 201 });
    }),
    http.patch('/api/tokens/:id', async ({ params, request }) => {
      const body = (await request.json()) as Schema<'ApiTokenChange'>;
      patched.push({ id: String(params.id), body });
      tokens = tokens.map((token) => (token.id === params.id ? { ...token, saveToVault: body.saveToVault ?? token.saveToVault } : token));
      const changed = tokens.find((token) => token.id === params.id);
      return changed ? HttpResponse.json<Schema<'Envelope_ApiTokenView'>>({ data: changed }) : errorResponse(404, 'No such token');
    }),
    http.delete('/api/tokens/:id', ({ params }) => {
      deleted.push(String(params.id));
      tokens = tokens.filter((token) => token.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return { created, patched, deleted };
}

async function renderTokens() {
  const view = renderWithProviders({ route: '/settings?tab=account' });
  const card = (await screen.findByRole('heading', { name: 'API Tokens' })).closest('section');
  if (!card) throw new Error('the API Tokens card');
  return { ...view, card };
}

describe('Account: API tokens', () => {
  it('lists tokens with when they were last used, never a secret', async () => {
    tokensBackend([USED, { ...USED, id: 'tok-old', name: 'old script', lastUsedAt: null, expiresAt: '2026-01-01T00:00:00Z', expired: true }]);
    const { card } = await renderTokens();
    const rows = await within(card).findAllByTestId('api-token-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Open WebUI');
    expect(within(rows[0]).getByText(/Nov 25, 2026/)).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('old script');
    expect(rows[1]).toHaveTextContent('Expired');
    expect(within(rows[1]).getAllByText('Never').length).toBeGreaterThan(0);
    expect(card).not.toHaveTextContent('svt_');
  });

  it('creates a token with a name, expiry and Vault choice, and shows its secret once', async () => {
    const backend = tokensBackend();
    const { user, card } = await renderTokens();
    expect(await within(card).findByText('No tokens yet.')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    // A name is required.
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Give the token a name, such as the app that will use it')).toBeInTheDocument();
    expect(backend.created).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), '  Obsidian  ');
    await user.selectOptions(within(dialog).getByLabelText('Expires after'), 'Never');
    await user.click(within(dialog).getByLabelText('Keep transcriptions made with this token in the Vault'));
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByRole('dialog', { name: 'Token created' });
    expect(within(shown).getByDisplayValue('svt_secret-shown-once')).toBeInTheDocument();
    expect(shown).toHaveTextContent('It does not expire');
    expect(backend.created).toEqual([{ name: 'Obsidian', expiresAt: null, saveToVault: false }]);

    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe('svt_secret-shown-once');
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const rows = await within(card).findAllByTestId('api-token-row');
    expect(rows[0]).toHaveTextContent('Obsidian');
    expect(card).not.toHaveTextContent('svt_secret-shown-once');
  });

  it('sends an expiry in the future for a 90-day token', async () => {
    const backend = tokensBackend();
    const { user, card } = await renderTokens();
    await user.click(within(card).getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByLabelText('Name'), 'cron');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    await screen.findByRole('dialog', { name: 'Token created' });
    const sent = backend.created[0] as Schema<'NewApiTokenRequest'>;
    const days = (Date.parse(sent.expiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThan(91);
  });

  it('shows the server refusal in the dialog, which stays open', async () => {
    tokensBackend();
    server.use(http.post('/api/tokens', () => errorResponse(409, 'You have 50 tokens, the most one account may hold; revoke one first')));
    const { user, card } = await renderTokens();
    await user.click(within(card).getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByLabelText('Name'), 'one more');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have 50 tokens');
    expect(screen.getByRole('dialog', { name: 'Create API token' })).toBeInTheDocument();
  });
});

describe('Account: API tokens: keeping transcriptions, revoking and loading', () => {
  it('turns off keeping transcriptions and revokes a token after asking', async () => {
    const backend = tokensBackend([USED]);
    const { user, card } = await renderTokens();
    const keep = await within(card).findByRole('checkbox', { name: 'Keep transcriptions made with “Open WebUI” in the Vault' });
    expect(keep).toBeChecked();
    await user.click(keep);
    await waitFor(() => expect(backend.patched).toEqual([{ id: 'tok-1', body: { saveToVault: false } }]));
    await waitFor(() => expect(keep).not.toBeChecked());

    await user.click(within(card).getByRole('button', { name: 'Revoke the token “Open WebUI”' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this token?' });
    expect(confirm).toHaveTextContent('Anything that uses “Open WebUI” stops working at once.');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(backend.deleted).toEqual(['tok-1']));
    expect(await within(card).findByText('No tokens yet.')).toBeInTheDocument();
  });

  it('says so when the list cannot be loaded, and tries again', async () => {
    let up = false;
    server.use(
      http.get('/api/tokens', () =>
        up
          ? HttpResponse.json<Schema<'Envelope_ApiTokensView'>>({ data: { tokens: [USED] } })
          : errorResponse(400, 'Tokens are not available on this instance'),
      ),
    );
    const { user, card } = await renderTokens();
    expect(await within(card).findByRole('alert')).toHaveTextContent('Tokens are not available on this instance');
    up = true;
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByText('Open WebUI')).toBeInTheDocument();
  });
});
