import { KeySquare, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyableSecret } from '@/components/CopyableSecret';
import { Field } from '@/components/Field';
import { DialogForm, DoneActions, FormDialog } from '@/components/FormDialog';
import { LoadFailed } from '@/components/LoadFailed';
import { formatDateTime } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  useCreateApiTokenMutation,
  useListApiTokensQuery,
  useRevokeApiTokenMutation,
  useUpdateApiTokenMutation,
  type ApiToken,
  type NewApiToken,
} from './tokensApi';

export const TOKEN_ERRORS = {
  list: 'Failed to load your API tokens',
  create: 'Failed to create the token',
  revoke: 'Failed to revoke the token',
  update: 'Failed to change the token',
  copy: 'Could not copy the token',
} as const;

/** Longest name the server takes. */
export const MAX_TOKEN_NAME = 100;

/** How long a new token lasts; `null` days: it does not expire. */
export const TOKEN_EXPIRY_CHOICES: ReadonlyArray<{ days: number | null; label: string }> = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: null, label: 'Never' },
];

/**
 * Personal API tokens: for scripts, Open WebUI or the Obsidian Whisper plugin, which call the API
 * as this account (never as an admin). A token's secret is shown once when it is made; the list
 * shows when each was last used, and a token is revoked at once.
 */
export function ApiTokensCard() {
  const { data: tokens = [], isLoading, error, refetch } = useListApiTokensQuery();
  const { revoking, setRevoking, revoke, revokeBusy, changingId, setSaveToVault } = useApiTokenActions();
  const [creating, setCreating] = useState(false);
  const headingId = useId();

  return (
    <section className="card account-card-section api-tokens" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            <KeySquare size={18} aria-hidden="true" /> API Tokens
          </h2>
          <p className="muted card-subtitle">
            Let scripts and other apps use Scribevault as you: send <code>Authorization: Bearer &lt;token&gt;</code>. A token never has admin rights.
          </p>
        </div>
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setCreating(true)}>
          <Plus size={14} aria-hidden="true" /> Create token
        </button>
      </div>
      {isLoading ? (
        <p className="card-body muted" role="status">
          Loading...
        </p>
      ) : error && tokens.length === 0 ? (
        <LoadFailed message={errorMessage(error, TOKEN_ERRORS.list)} onRetry={() => void refetch()} />
      ) : tokens.length === 0 ? (
        <p className="card-body muted">No tokens yet.</p>
      ) : (
        <ApiTokensTable
          tokens={tokens}
          changingId={changingId}
          onSaveToVault={(token, saveToVault) => void setSaveToVault(token, saveToVault)}
          onRevoke={setRevoking}
        />
      )}
      {creating && <CreateTokenDialog onClose={() => setCreating(false)} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke this token?"
          description={`Anything that uses “${revoking.name}” stops working at once. This cannot be undone.`}
          confirmLabel="Revoke token"
          busyLabel="Revoking..."
          busy={revokeBusy}
          onConfirm={() => void revoke(revoking)}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}

/** The token a confirm dialog asks to revoke, the revocation, and the one whose Vault choice is being saved. */
function useApiTokenActions() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [revokeToken, revokeState] = useRevokeApiTokenMutation();
  const [updateToken] = useUpdateApiTokenMutation();
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [changingId, setChangingId] = useState<string | null>(null);

  async function revoke(token: ApiToken) {
    try {
      await revokeToken(token.id).unwrap();
      dispatch(showToast({ title: 'Token revoked', description: `“${token.name}” no longer works.`, variant: 'success' }));
      setRevoking(null);
    } catch (failure) {
      showError(failure, TOKEN_ERRORS.revoke);
      setRevoking(null);
    }
  }

  async function setSaveToVault(token: ApiToken, saveToVault: boolean) {
    setChangingId(token.id);
    try {
      await updateToken({ id: token.id, change: { saveToVault } }).unwrap();
    } catch (failure) {
      showError(failure, TOKEN_ERRORS.update);
    } finally {
      setChangingId(null);
    }
  }

  return { revoking, setRevoking, revoke, revokeBusy: revokeState.isLoading, changingId, setSaveToVault };
}

interface ApiTokensTableProps {
  tokens: ApiToken[];
  /** The token whose Vault choice is being saved. */
  changingId: string | null;
  onSaveToVault: (token: ApiToken, saveToVault: boolean) => void;
  onRevoke: (token: ApiToken) => void;
}

function ApiTokensTable({ tokens, changingId, onSaveToVault, onRevoke }: ApiTokensTableProps) {
  return (
    <div className="table-wrap">
      <table className="table api-tokens-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Keep in Vault</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <ApiTokenRow
              key={token.id}
              token={token}
              changing={changingId === token.id}
              onSaveToVault={(saveToVault) => onSaveToVault(token, saveToVault)}
              onRevoke={() => onRevoke(token)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface ApiTokenRowProps {
  token: ApiToken;
  changing: boolean;
  onSaveToVault: (saveToVault: boolean) => void;
  onRevoke: () => void;
}

function ApiTokenRow({ token, changing, onSaveToVault, onRevoke }: ApiTokenRowProps) {
  return (
    <tr data-testid="api-token-row">
      <td data-label="Name">
        <span className="api-token-name">{token.name}</span>
        {token.expired && <span className="badge badge-neutral">Expired</span>}
      </td>
      <td data-label="Created">{formatDateTime(token.createdAt)}</td>
      <td data-label="Last used">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : <span className="muted">Never</span>}</td>
      <td data-label="Expires">{token.expiresAt ? formatDateTime(token.expiresAt) : <span className="muted">Never</span>}</td>
      <td data-label="Keep in Vault">
        <input
          type="checkbox"
          checked={token.saveToVault}
          disabled={changing}
          aria-label={`Keep transcriptions made with “${token.name}” in the Vault`}
          onChange={(event) => onSaveToVault(event.target.checked)}
        />
      </td>
      <td className="cell-actions">
        <button type="button" className="btn btn-sm btn-danger-outline" aria-label={`Revoke the token “${token.name}”`} onClick={onRevoke}>
          <Trash2 size={14} aria-hidden="true" /> Revoke
        </button>
      </td>
    </tr>
  );
}

/** The expiry a choice of days means, from now. */
function expiryFrom(days: number | null, now: number): string | null {
  return days === null ? null : new Date(now + days * 86_400_000).toISOString();
}

/** 'Create token': a name, how long it lasts, whether its transcriptions stay in the Vault; then the secret, once. */
function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const [createToken, { isLoading: saving }] = useCreateApiTokenMutation();
  const [name, setName] = useState('');
  const [days, setDays] = useState<number | null>(90);
  const [saveToVault, setSaveToVault] = useState(true);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<NewApiToken | null>(null);
  const ids = { name: useId(), expiry: useId(), vault: useId() };

  async function onSubmit() {
    if (saving) return;
    setError(null);
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Give the token a name, such as the app that will use it');
      document.getElementById(ids.name)?.focus();
      return;
    }
    try {
      setCreated(await createToken({ name: trimmed, expiresAt: expiryFrom(days, Date.now()), saveToVault }).unwrap());
    } catch (failure) {
      setError(errorMessage(failure, TOKEN_ERRORS.create));
    }
  }

  return (
    <FormDialog
      size="md"
      title={created ? 'Token created' : 'Create API token'}
      description={created ? 'Copy it now: it is shown only once.' : 'The token acts as your account on the API, never as an admin.'}
      busy={saving}
      onClose={onClose}
    >
      {created ? (
        <CreatedToken token={created} />
      ) : (
        <DialogForm error={error} busy={saving} submitLabel="Create token" busyLabel="Creating..." submitIcon={Plus} onSubmit={onSubmit}>
          <Field id={ids.name} label="Name" error={nameError}>
            {(control) => (
              <input
                {...control}
                type="text"
                value={name}
                maxLength={MAX_TOKEN_NAME}
                placeholder="Open WebUI"
                onChange={(event) => {
                  setName(event.target.value);
                  setNameError(null);
                }}
              />
            )}
          </Field>
          <div className="field field-inline">
            <label htmlFor={ids.expiry}>Expires after</label>
            <select id={ids.expiry} value={days ?? 'never'} onChange={(event) => setDays(event.target.value === 'never' ? null : Number(event.target.value))}>
              {TOKEN_EXPIRY_CHOICES.map((choice) => (
                <option key={choice.label} value={choice.days ?? 'never'}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field checkbox-field">
            <input id={ids.vault} type="checkbox" checked={saveToVault} onChange={(event) => setSaveToVault(event.target.checked)} />
            <label htmlFor={ids.vault}>Keep transcriptions made with this token in the Vault</label>
          </div>
        </DialogForm>
      )}
    </FormDialog>
  );
}

/** A new token's secret, shown this once. */
function CreatedToken({ token }: { token: NewApiToken }) {
  const showError = useErrorToast();
  return (
    <>
      <CopyableSecret
        label={`Token “${token.name}”`}
        value={token.token}
        noun="token"
        hint={token.expiresAt ? `Works until ${formatDateTime(token.expiresAt)}.` : 'It does not expire; revoke it here when it is no longer needed.'}
        onCopyFailed={() => showError(null, TOKEN_ERRORS.copy)}
      />
      <DoneActions />
    </>
  );
}
