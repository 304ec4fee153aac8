import { Check, History, LoaderCircle, Pencil, Plus, RefreshCw, RotateCw, Send, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyableSecret } from '@/components/CopyableSecret';
import { Field, FieldError } from '@/components/Field';
import { DialogForm, DoneActions, FormDialog } from '@/components/FormDialog';
import { ShownOnceDialog } from '@/components/ShownOnceDialog';
import { LoadFailed } from '@/components/LoadFailed';
import { formatDateTime } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  useCreateWebhookMutation,
  useDeleteWebhookMutation,
  useListWebhooksQuery,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
  useWebhookDeliveriesQuery,
  type NewWebhook,
  type Webhook,
  type WebhookAttempt,
  type WebhookEvent,
} from './webhooksApi';

export const WEBHOOK_ERRORS = {
  list: 'Failed to load your webhooks',
  save: 'Failed to save the webhook',
  delete: 'Failed to delete the webhook',
  update: 'Failed to change the webhook',
  test: 'Failed to send the test',
  log: 'Failed to load the delivery log',
  rotate: 'Failed to make a new secret',
  copy: 'Could not copy the secret',
} as const;

/** The events a webhook can subscribe to: every one of the contract's but 'Send test''s own. */
export type SubscribableWebhookEvent = Exclude<WebhookEvent, 'webhook.test'>;

/**
 * What each event means, in the order the dialog offers them. A Record, so an event added to the
 * contract (docs/openapi.json) fails tsc here until it has a label.
 */
export const WEBHOOK_EVENTS: Record<SubscribableWebhookEvent, string> = {
  'item.created': 'Item created in the Vault',
  'transcription.completed': 'Transcription done',
  'transcription.failed': 'Transcription failed',
  'download.completed': 'Download done',
  'sync.new_videos': 'Sync found new videos',
};
const EVENT_CHOICES = Object.entries(WEBHOOK_EVENTS) as ReadonlyArray<[SubscribableWebhookEvent, string]>;

/** Longest URL the server takes. */
const MAX_URL = 2048;

/** "200 OK in 35 ms", "No answer: could not connect". */
export function attemptSummary(attempt: WebhookAttempt): string {
  const status = attempt.statusCode == null ? 'No answer' : `HTTP ${attempt.statusCode}`;
  return attempt.error ? `${status}: ${attempt.error}` : `${status} in ${attempt.durationMs} ms`;
}

/**
 * Webhooks: URLs Scribevault calls when something happens to your work, signed the Standard
 * Webhooks way. Each shows its last delivery; its log and 'Send test' are one click away.
 */
export function WebhooksPanel() {
  const { data: webhooks = [], isLoading, error, refetch } = useListWebhooksQuery();
  const { deleting, setDeleting, remove, deleteBusy, changingId, setEnabled } = useWebhookChanges();
  const rotation = useSecretRotation();
  const { rotating, rotated } = rotation;
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const headingId = useId();

  return (
    <section className="card webhooks" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            <WebhookIcon size={18} aria-hidden="true" /> Webhooks
          </h2>
          <p className="muted card-subtitle">
            Scribevault calls these URLs when something happens, signed with <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>.
          </p>
        </div>
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setEditing('new')}>
          <Plus size={14} aria-hidden="true" /> Add webhook
        </button>
      </div>
      {isLoading ? (
        <p className="card-body muted" role="status">
          Loading...
        </p>
      ) : error && webhooks.length === 0 ? (
        <LoadFailed message={errorMessage(error, WEBHOOK_ERRORS.list)} onRetry={() => void refetch()} />
      ) : webhooks.length === 0 ? (
        <p className="card-body muted">No webhooks yet.</p>
      ) : (
        <ul className="webhook-list">
          {webhooks.map((webhook) => (
            <WebhookItem
              key={webhook.id}
              webhook={webhook}
              changing={changingId === webhook.id}
              onEnable={(enabled) => void setEnabled(webhook, enabled)}
              onEdit={() => setEditing(webhook)}
              onRotate={() => rotation.askRotate(webhook)}
              onDelete={() => setDeleting(webhook)}
            />
          ))}
        </ul>
      )}
      {editing && <WebhookDialog webhook={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title="Delete this webhook?"
          description={`${deleting.url} gets no more deliveries, and its log is deleted. This cannot be undone.`}
          confirmLabel="Delete webhook"
          busyLabel="Deleting..."
          busy={deleteBusy}
          onConfirm={() => void remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
      {rotating && (
        <ConfirmDialog
          title="Make a new signing secret?"
          description={`The current secret of ${rotating.url} stops working at once: deliveries are signed with the new one, so give it to the receiver.`}
          confirmLabel="Make new secret"
          busyLabel="Making..."
          icon={RotateCw}
          tone="primary"
          busy={rotation.rotateBusy}
          error={rotation.rotateError}
          onConfirm={() => void rotation.rotate(rotating)}
          onClose={() => rotation.setRotating(null)}
        />
      )}
      {rotated && <NewSecretDialog url={rotated.url} secret={rotated.secret} onClose={() => rotation.setRotated(null)} />}
    </section>
  );
}

/** Deleting a webhook (asked first, in a dialog) and switching one on or off. */
function useWebhookChanges() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [deleteWebhook, deleteState] = useDeleteWebhookMutation();
  const [updateWebhook] = useUpdateWebhookMutation();
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [changingId, setChangingId] = useState<string | null>(null);

  async function remove(webhook: Webhook) {
    try {
      await deleteWebhook(webhook.id).unwrap();
      dispatch(showToast({ title: 'Webhook deleted', description: webhook.url, variant: 'success' }));
    } catch (failure) {
      showError(failure, WEBHOOK_ERRORS.delete);
    }
    setDeleting(null);
  }

  async function setEnabled(webhook: Webhook, enabled: boolean) {
    setChangingId(webhook.id);
    try {
      await updateWebhook({ id: webhook.id, change: { enabled } }).unwrap();
    } catch (failure) {
      showError(failure, WEBHOOK_ERRORS.update);
    } finally {
      setChangingId(null);
    }
  }

  return { deleting, setDeleting, remove, deleteBusy: deleteState.isLoading, changingId, setEnabled };
}

/** A new signing secret: the webhook the confirm dialog asks about, its refusal, and the secret to show once. */
function useSecretRotation() {
  const [rotateSecret, rotateState] = useRotateWebhookSecretMutation();
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<{ url: string; secret: string } | null>(null);

  function askRotate(webhook: Webhook) {
    setRotateError(null);
    setRotating(webhook);
  }

  async function rotate(webhook: Webhook) {
    setRotateError(null);
    try {
      const { secret } = await rotateSecret(webhook.id).unwrap();
      setRotating(null);
      setRotated({ url: webhook.url, secret });
    } catch (failure) {
      setRotateError(errorMessage(failure, WEBHOOK_ERRORS.rotate));
    }
  }

  return { rotating, setRotating, askRotate, rotate, rotateBusy: rotateState.isLoading, rotateError, rotated, setRotated };
}

interface WebhookItemActions {
  onEnable: (enabled: boolean) => void;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

function WebhookItem({ webhook, changing, onEnable, onEdit, onRotate, onDelete }: { webhook: Webhook; changing: boolean } & WebhookItemActions) {
  const showError = useErrorToast();
  const [testWebhook, testState] = useTestWebhookMutation();
  const [result, setResult] = useState<WebhookAttempt | null>(null);
  const [showLog, setShowLog] = useState(false);
  const logId = useId();

  async function sendTest() {
    setResult(null);
    try {
      setResult(await testWebhook(webhook.id).unwrap());
    } catch (failure) {
      showError(failure, WEBHOOK_ERRORS.test);
    }
  }

  return (
    <li className="webhook-item" data-testid="webhook-item">
      <div className="webhook-main">
        <p className="webhook-url">
          {webhook.url}
          {!webhook.enabled && <span className="badge badge-neutral webhook-off">Off</span>}
        </p>
        {webhook.description && <p className="muted">{webhook.description}</p>}
        <p className="webhook-events">
          {webhook.events.map((event) => (
            <span key={event} className="badge badge-neutral">
              {event}
            </span>
          ))}
        </p>
        <LastDelivery attempt={webhook.lastAttempt} />
        {webhook.disabledReason && (
          <p className="text-danger" role="note">
            Switched off: {webhook.disabledReason}
          </p>
        )}
        {result && (
          <p role="status" className={result.succeeded ? 'text-success' : 'text-danger'}>
            Test {result.succeeded ? 'delivered' : 'failed'}: {attemptSummary(result)}
          </p>
        )}
      </div>
      <WebhookActions
        webhook={webhook}
        changing={changing}
        testing={testState.isLoading}
        onSendTest={() => void sendTest()}
        logId={logId}
        showLog={showLog}
        onToggleLog={() => setShowLog(!showLog)}
        onEnable={onEnable}
        onEdit={onEdit}
        onRotate={onRotate}
        onDelete={onDelete}
      />
      {showLog && (
        <div id={logId} className="webhook-log">
          <DeliveryLog id={webhook.id} />
        </div>
      )}
    </li>
  );
}

function LastDelivery({ attempt }: { attempt: WebhookAttempt | null | undefined }) {
  return (
    <p className="muted webhook-last">
      Last delivery:{' '}
      {attempt ? (
        <span className={attempt.succeeded ? 'text-success' : 'text-danger'}>
          {attemptSummary(attempt)}, {formatDateTime(attempt.attemptedAt)}
        </span>
      ) : (
        'none yet'
      )}
    </p>
  );
}

interface WebhookActionsProps extends WebhookItemActions {
  webhook: Webhook;
  changing: boolean;
  testing: boolean;
  onSendTest: () => void;
  /** The delivery log these buttons show and hide. */
  logId: string;
  showLog: boolean;
  onToggleLog: () => void;
}

function WebhookActions(props: WebhookActionsProps) {
  const { webhook, changing, testing, onSendTest, logId, showLog, onToggleLog, onEnable, onEdit, onRotate, onDelete } = props;
  return (
    <div className="webhook-actions">
      <label className="check webhook-enabled">
        <input type="checkbox" checked={webhook.enabled} disabled={changing} onChange={(event) => onEnable(event.target.checked)} />
        Enabled
      </label>
      <button type="button" className="btn btn-sm btn-outline" disabled={testing} onClick={onSendTest} aria-label={`Send a test to ${webhook.url}`}>
        {testing ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <Send size={14} aria-hidden="true" />}
        {testing ? 'Sending...' : 'Send test'}
      </button>
      <button type="button" className="btn btn-sm btn-outline" aria-expanded={showLog} aria-controls={logId} onClick={onToggleLog}>
        <History size={14} aria-hidden="true" /> {showLog ? 'Hide log' : 'Deliveries'}
      </button>
      <button type="button" className="btn btn-sm btn-outline" onClick={onEdit} aria-label={`Edit the webhook ${webhook.url}`}>
        <Pencil size={14} aria-hidden="true" /> Edit
      </button>
      <button type="button" className="btn btn-sm btn-outline" onClick={onRotate} aria-label={`Make a new signing secret for ${webhook.url}`}>
        <RotateCw size={14} aria-hidden="true" /> New secret
      </button>
      <button type="button" className="btn btn-sm btn-danger-outline" onClick={onDelete} aria-label={`Delete the webhook ${webhook.url}`}>
        <Trash2 size={14} aria-hidden="true" /> Delete
      </button>
    </div>
  );
}

/** The last 50 attempts, newest first. */
function DeliveryLog({ id }: { id: string }) {
  const { data: attempts = [], isLoading, error, refetch } = useWebhookDeliveriesQuery(id);
  if (isLoading) {
    return (
      <p className="muted" role="status">
        Loading...
      </p>
    );
  }
  if (error) {
    return (
      <div role="alert">
        <p className="text-danger">{errorMessage(error, WEBHOOK_ERRORS.log)}</p>
        <button type="button" className="btn btn-sm btn-outline" onClick={() => void refetch()}>
          <RefreshCw size={14} aria-hidden="true" /> Try again
        </button>
      </div>
    );
  }
  if (attempts.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="table-wrap">
      <table className="table webhook-log-table">
        <caption className="visually-hidden">Delivery log</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Response</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt.id} data-testid="webhook-attempt">
              <td data-label="Time">
                {formatDateTime(attempt.attemptedAt)}
                {attempt.attempt > 1 && <span className="muted"> (try {attempt.attempt})</span>}
              </td>
              <td data-label="Event">{attempt.event}</td>
              <td data-label="Status" className={attempt.succeeded ? 'text-success' : 'text-danger'}>
                {attempt.statusCode ?? 'No answer'}
                {attempt.nextAttemptAt && <span className="muted"> · retry {formatDateTime(attempt.nextAttemptAt)}</span>}
              </td>
              <td data-label="Duration">{attempt.durationMs} ms</td>
              <td data-label="Response">
                <code className="webhook-excerpt">{attempt.error ?? attempt.responseExcerpt ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The add/edit form's state and its submit: the URL must be http(s) and one event at least be
 * chosen; an edit closes with a toast, a create hands over the new webhook (its secret is shown).
 */
function useWebhookForm(webhook: Webhook | null, onClose: () => void) {
  const dispatch = useAppDispatch();
  const [createWebhook, createState] = useCreateWebhookMutation();
  const [updateWebhook, updateState] = useUpdateWebhookMutation();
  const saving = createState.isLoading || updateState.isLoading;
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(webhook?.events ?? ['item.created']);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [eventsError, setEventsError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<NewWebhook | null>(null);
  const urlId = useId();

  function changeUrl(next: string) {
    setUrl(next);
    setUrlError(null);
  }

  function toggle(event: WebhookEvent, on: boolean) {
    setEventsError(null);
    setEvents((current) => (on ? [...current, event] : current.filter((item) => item !== event)));
  }

  async function submit() {
    if (saving) return;
    setError(null);
    const trimmed = url.trim();
    if (!/^https?:\/\/\S+$/i.test(trimmed)) {
      setUrlError('Enter an http:// or https:// URL');
      document.getElementById(urlId)?.focus();
      return;
    }
    if (events.length === 0) {
      setEventsError('Choose at least one event');
      return;
    }
    try {
      if (webhook) {
        await updateWebhook({ id: webhook.id, change: { url: trimmed, description, events } }).unwrap();
        dispatch(showToast({ title: 'Webhook saved', description: trimmed, variant: 'success' }));
        onClose();
      } else {
        setCreated(await createWebhook({ url: trimmed, description, events }).unwrap());
      }
    } catch (failure) {
      setError(errorMessage(failure, WEBHOOK_ERRORS.save));
    }
  }

  return { url, description, events, urlError, eventsError, error, created, saving, urlId, changeUrl, setDescription, toggle, submit };
}

/** Add or edit: URL, description and events; a new webhook's secret is then shown once. */
function WebhookDialog({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const form = useWebhookForm(webhook, onClose);
  const descriptionId = useId();
  const { created, saving } = form;

  const title = created ? 'Webhook created' : webhook ? 'Edit webhook' : 'Add webhook';
  return (
    <FormDialog
      size="md"
      title={title}
      description={created ? 'Copy the signing secret now: it is shown only once.' : 'Deliveries are JSON POSTs, retried for about an hour.'}
      busy={saving}
      onClose={onClose}
    >
      {created ? (
        <>
          <SigningSecret secret={created.secret} hint="Verify deliveries with it (docs/integrations.md, Webhooks)." />
          <DoneActions />
        </>
      ) : (
        <DialogForm
          error={form.error}
          busy={saving}
          submitLabel={webhook ? 'Save webhook' : 'Add webhook'}
          busyLabel="Saving..."
          submitIcon={webhook ? Check : Plus}
          onSubmit={form.submit}
        >
          <Field id={form.urlId} label="URL" error={form.urlError}>
            {(control) => (
              <input
                {...control}
                type="url"
                inputMode="url"
                value={form.url}
                maxLength={MAX_URL}
                placeholder="https://hooks.example.com/scribevault"
                onChange={(changed) => form.changeUrl(changed.target.value)}
              />
            )}
          </Field>
          <Field id={descriptionId} label="Description (optional)">
            {(control) => <input {...control} type="text" value={form.description} maxLength={200} onChange={(changed) => form.setDescription(changed.target.value)} />}
          </Field>
          <EventChoices events={form.events} error={form.eventsError} onToggle={form.toggle} />
        </DialogForm>
      )}
    </FormDialog>
  );
}

/** The events to subscribe to, each with what it means; at least one is needed. */
function EventChoices({ events, error, onToggle }: { events: WebhookEvent[]; error: string | null; onToggle: (event: WebhookEvent, on: boolean) => void }) {
  const errorId = useId();
  return (
    <fieldset className="choice-group webhook-event-choices" aria-describedby={error ? errorId : undefined}>
      <legend>Events</legend>
      {EVENT_CHOICES.map(([event, label]) => (
        <label key={event} className="check">
          <input type="checkbox" checked={events.includes(event)} onChange={(changed) => onToggle(event, changed.target.checked)} />
          <span>
            {label} <code>{event}</code>
          </span>
        </label>
      ))}
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </fieldset>
  );
}

/** A signing secret, shown once: a new webhook's or a rotated one. */
function SigningSecret({ secret, hint }: { secret: string; hint: string }) {
  const showError = useErrorToast();
  return <CopyableSecret label="Signing secret" value={secret} noun="secret" hint={hint} onCopyFailed={() => showError(null, WEBHOOK_ERRORS.copy)} />;
}

/** A rotated secret, shown once, like a new webhook's. */
function NewSecretDialog({ url, secret, onClose }: { url: string; secret: string; onClose: () => void }) {
  return (
    <ShownOnceDialog title="New signing secret" description={`Copy it now for ${url}: it is shown only once.`} onClose={onClose}>
      <SigningSecret secret={secret} hint="The old secret no longer signs deliveries." />
    </ShownOnceDialog>
  );
}
