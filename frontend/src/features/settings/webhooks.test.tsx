import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';
import type { Webhook, WebhookAttempt } from './webhooksApi';

const attempt = (overrides: Partial<WebhookAttempt> = {}): WebhookAttempt => ({
  id: 'a1',
  deliveryId: 'msg_1',
  event: 'item.created',
  attempt: 1,
  attemptedAt: '2026-11-27T09:00:00Z',
  statusCode: 200,
  durationMs: 35,
  responseExcerpt: 'ok',
  error: null,
  succeeded: true,
  nextAttemptAt: null,
  ...overrides,
});

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: 'w1',
  url: 'https://hooks.example.com/in',
  description: 'Paperless',
  events: ['item.created', 'transcription.failed'],
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-27T08:00:00Z',
  updatedAt: '2026-11-27T08:00:00Z',
  lastAttempt: attempt(),
  ...overrides,
});

/** A webhooks backend over a list the test can read. */
function webhooksBackend(initial: Webhook[]) {
  const hooks = [...initial];
  const made: Schema<'NewWebhookRequest'>[] = [];
  const changes: Schema<'WebhookChangeRequest'>[] = [];
  server.use(
    http.get('/api/webhooks', () => HttpResponse.json<Schema<'Envelope_WebhooksView'>>({ data: { webhooks: hooks } })),
    http.post('/api/webhooks', async ({ request }) => {
      const body = (await request.json()) as Schema<'NewWebhookRequest'>;
      made.push(body);
      const hook = webhook({ id: 'w2', url: body.url, events: body.events, description: body.description ?? '', lastAttempt: null });
      hooks.push(hook);
      return HttpResponse.json<Schema<'Envelope_NewWebhookView'>>({ data: { ...hook, secret: 'whsec_c2VjcmV0' } }, { status: 201 });
    }),
    http.patch('/api/webhooks/:id', async ({ request, params }) => {
      const change = (await request.json()) as Schema<'WebhookChangeRequest'>;
      changes.push(change);
      const index = hooks.findIndex((hook) => hook.id === params.id);
      hooks[index] = { ...hooks[index], ...(change.enabled == null ? {} : { enabled: change.enabled }) };
      return HttpResponse.json<Schema<'Envelope_WebhookView'>>({ data: hooks[index] });
    }),
    http.delete('/api/webhooks/:id', ({ params }) => {
      hooks.splice(
        hooks.findIndex((hook) => hook.id === params.id),
        1,
      );
      return new HttpResponse(null, { status: 204 });
    }),
    http.post('/api/webhooks/:id/test', () =>
      HttpResponse.json<Schema<'Envelope_WebhookAttemptView'>>({ data: attempt({ id: 'a9', event: 'webhook.test', statusCode: 500, succeeded: false, responseExcerpt: 'boom' }) }),
    ),
    http.get('/api/webhooks/:id/deliveries', () =>
      HttpResponse.json<Schema<'Envelope_WebhookDeliveriesView'>>({
        data: {
          attempts: [
            attempt({ id: 'a2', attempt: 2 }),
            attempt({ id: 'a1', statusCode: 500, succeeded: false, responseExcerpt: 'Internal error', nextAttemptAt: '2026-11-27T09:01:00Z' }),
          ],
        },
      }),
    ),
  );
  return { hooks, made, changes };
}

async function renderWebhooks() {
  const view = renderWithProviders({ route: '/settings?tab=webhooks' });
  await screen.findByRole('heading', { name: 'Webhooks', level: 2 });
  return view;
}

describe('Settings → Webhooks', () => {
  it('lists webhooks with their events and last delivery, and shows the log', async () => {
    webhooksBackend([webhook()]);
    const { user } = await renderWebhooks();
    const item = await screen.findByTestId('webhook-item');
    expect(within(item).getByText('https://hooks.example.com/in')).toBeInTheDocument();
    expect(within(item).getByText('transcription.failed')).toBeInTheDocument();
    expect(within(item).getByText(/HTTP 200 in 35 ms/)).toBeInTheDocument();

    await user.click(within(item).getByRole('button', { name: 'Deliveries' }));
    const rows = await screen.findAllByTestId('webhook-attempt');
    expect(rows).toHaveLength(2);
    expect(within(rows[1]).getByText('Internal error')).toBeInTheDocument();
    expect(within(rows[0]).getByText(/try 2/)).toBeInTheDocument();
  });

  it('creates a webhook and shows its secret once with a copy button', async () => {
    const backend = webhooksBackend([]);
    const { user } = await renderWebhooks();
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });
    await user.type(within(dialog).getByLabelText('URL'), 'ftp://nope');
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(within(dialog).getByText('Enter an http:// or https:// URL')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('URL'));
    await user.type(within(dialog).getByLabelText('URL'), 'https://n8n.example.com/hook');
    await user.click(within(dialog).getByLabelText(/Download done/));
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    const done = await screen.findByRole('dialog', { name: 'Webhook created' });
    expect(within(done).getByLabelText('Signing secret')).toHaveValue('whsec_c2VjcmV0');
    expect(within(done).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(backend.made).toEqual([{ url: 'https://n8n.example.com/hook', description: '', events: ['item.created', 'download.completed'] }]);
  });

  it("shows the server's refusal of a URL in the dialog", async () => {
    webhooksBackend([]);
    server.use(http.post('/api/webhooks', () => errorResponse(400, "url's host resolves to 10.0.0.5, a private or reserved address")));
    const { user } = await renderWebhooks();
    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });
    await user.type(within(dialog).getByLabelText('URL'), 'http://internal.example/hook');
    await user.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('private or reserved address');
  });
});

describe('Settings → Webhooks: tests, switching off and secrets', () => {
  it('sends a test and shows its result, switches a webhook off and deletes one after confirming', async () => {
    const backend = webhooksBackend([webhook()]);
    const { user } = await renderWebhooks();
    const item = await screen.findByTestId('webhook-item');
    await user.click(within(item).getByRole('button', { name: 'Send a test to https://hooks.example.com/in' }));
    expect(await within(item).findByText(/Test failed: HTTP 500/)).toBeInTheDocument();

    await user.click(within(item).getByLabelText('Enabled'));
    await waitFor(() => expect(backend.changes).toEqual([{ enabled: false }]));

    await user.click(within(item).getByRole('button', { name: 'Delete the webhook https://hooks.example.com/in' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete webhook' }));
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
  });

  it('makes a new signing secret after confirming and shows it once; a refusal stays in the question', async () => {
    webhooksBackend([webhook()]);
    const rotations: string[] = [];
    let refuse = true;
    server.use(
      http.post('/api/webhooks/:id/rotate-secret', ({ params }) => {
        if (refuse) return errorResponse(404, 'No such webhook');
        rotations.push(String(params.id));
        return HttpResponse.json<Schema<'Envelope_WebhookSecretView'>>({ data: { secret: 'whsec_bmV3c2VjcmV0' } });
      }),
    );
    const { user } = await renderWebhooks();
    const item = await screen.findByTestId('webhook-item');
    await user.click(within(item).getByRole('button', { name: 'Make a new signing secret for https://hooks.example.com/in' }));
    const confirm = await screen.findByRole('dialog', { name: 'Make a new signing secret?' });
    await user.click(within(confirm).getByRole('button', { name: 'Make new secret' }));
    expect(await within(confirm).findByText('No such webhook')).toBeInTheDocument();
    expect(rotations).toEqual([]);

    refuse = false;
    await user.click(within(confirm).getByRole('button', { name: 'Make new secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(shown).getByLabelText('Signing secret')).toHaveValue('whsec_bmV3c2VjcmV0');
    expect(within(shown).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(rotations).toEqual(['w1']);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
