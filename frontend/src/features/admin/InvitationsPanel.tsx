import { LoaderCircle, MailPlus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyableSecret } from '@/components/CopyableSecret';
import { DialogForm, DoneActions, FormDialog } from '@/components/FormDialog';
import { LoadFailed } from '@/components/LoadFailed';
import { formatDateTime } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  ADMIN_ERRORS,
  DEFAULT_INVITATION_HOURS,
  INVITATION_EXPIRY_CHOICES,
  invitationStatus,
  useCreateInvitationMutation,
  useGetInvitationsQuery,
  useRevokeInvitationMutation,
  type CreatedInvitation,
  type Invitation,
  type InvitationStatus,
} from './adminApi';

const STATUS_BADGE: Record<InvitationStatus, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'badge-info' },
  used: { label: 'Used', className: 'badge-success' },
  expired: { label: 'Expired', className: 'badge-neutral' },
};

/** Invitations: create one (its link is shown once), see which are pending, used or expired, revoke. */
export function InvitationsPanel() {
  const { data: invitations = [], isLoading, error, refetch, fulfilledTimeStamp } = useGetInvitationsQuery();
  const { revoking, setRevoking, removingId, remove, revokeBusy } = useInvitationRemoval();
  const [creating, setCreating] = useState(false);
  const headingId = useId();
  // Pending or expired as of the list's answer (a render must not read the clock).
  const asOf = fulfilledTimeStamp ?? 0;

  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            Invitations
          </h2>
          <p className="muted card-subtitle">An invitation link lets one person create an account.</p>
        </div>
        <button type="button" className="btn btn-sm btn-primary" onClick={() => setCreating(true)}>
          <MailPlus size={14} aria-hidden="true" /> Create invitation
        </button>
      </div>
      {isLoading ? (
        <p className="card-body muted" role="status">
          Loading...
        </p>
      ) : error && invitations.length === 0 ? (
        <LoadFailed message={errorMessage(error, ADMIN_ERRORS.fetchInvitations)} onRetry={() => void refetch()} />
      ) : invitations.length === 0 ? (
        <p className="card-body muted">No invitations yet.</p>
      ) : (
        <InvitationsTable
          invitations={invitations}
          asOf={asOf}
          removingId={removingId}
          onRevoke={setRevoking}
          onRemove={(invitation) => void remove(invitation, false)}
        />
      )}
      {creating && <CreateInvitationDialog onClose={() => setCreating(false)} />}
      {revoking && (
        <ConfirmDialog
          title="Revoke this invitation?"
          description={`The link created ${formatDateTime(revoking.createdAt)} stops working; nobody can sign up with it any more.`}
          confirmLabel="Revoke invitation"
          busyLabel="Revoking..."
          busy={revokeBusy}
          onConfirm={() => void remove(revoking, true)}
          onClose={() => setRevoking(null)}
        />
      )}
    </section>
  );
}

/**
 * The invitation a confirm dialog asks about, the one being removed, and the removal itself: a
 * pending invitation is revoked after the dialog, a used or expired one is removed at once.
 */
function useInvitationRemoval() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [revokeInvitation, revokeState] = useRevokeInvitationMutation();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const [removingId, setRemovingId] = useState<string | null>(null);

  async function remove(invitation: Invitation, pending: boolean) {
    setRemovingId(invitation.id);
    try {
      await revokeInvitation(invitation.id).unwrap();
      dispatch(showToast({ title: pending ? 'Invitation revoked' : 'Invitation removed', variant: 'success' }));
    } catch (failure) {
      showError(failure, ADMIN_ERRORS.revokeInvitation);
    } finally {
      setRemovingId(null);
      if (pending) setRevoking(null);
    }
  }

  return { revoking, setRevoking, removingId, remove, revokeBusy: revokeState.isLoading };
}

interface InvitationsTableProps {
  invitations: Invitation[];
  /** The time the list was answered, which decides pending or expired. */
  asOf: number;
  removingId: string | null;
  onRevoke: (invitation: Invitation) => void;
  onRemove: (invitation: Invitation) => void;
}

function InvitationsTable({ invitations, asOf, removingId, onRevoke, onRemove }: InvitationsTableProps) {
  return (
    <div className="table-wrap">
      <table className="table invitations-table">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col">Used by</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <InvitationRow
              key={invitation.id}
              invitation={invitation}
              status={invitationStatus(invitation, asOf)}
              busy={removingId === invitation.id}
              onRevoke={() => onRevoke(invitation)}
              onRemove={() => onRemove(invitation)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface InvitationRowProps {
  invitation: Invitation;
  status: InvitationStatus;
  busy: boolean;
  onRevoke: () => void;
  onRemove: () => void;
}

function InvitationRow({ invitation, status, busy, onRevoke, onRemove }: InvitationRowProps) {
  const badge = STATUS_BADGE[status];
  const created = formatDateTime(invitation.createdAt);
  return (
    <tr data-testid="invitation-row" data-invitation-id={invitation.id}>
      <td data-label="Created">{created}</td>
      <td data-label="Expires">{formatDateTime(invitation.expiresAt)}</td>
      <td data-label="Status">
        <span className={`badge ${badge.className}`}>{badge.label}</span>
      </td>
      <td data-label="Used by">
        {invitation.usedBy ? <span className="user-email">{invitation.usedBy}</span> : <span className="muted">-</span>}
      </td>
      <td className="cell-actions">
        {status === 'pending' ? (
          <button
            type="button"
            className="btn btn-sm btn-danger-outline"
            aria-label={`Revoke the invitation created ${created}`}
            disabled={busy}
            onClick={onRevoke}
          >
            <Trash2 size={14} aria-hidden="true" /> Revoke
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-sm btn-outline"
            aria-label={`Remove the invitation created ${created}`}
            disabled={busy}
            onClick={onRemove}
          >
            {busy ? <LoaderCircle className="spin" size={14} aria-hidden="true" /> : <Trash2 size={14} aria-hidden="true" />} Remove
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * 'Create invitation': choose how long it lasts, then the link is shown this once with a Copy
 * button. It cannot be shown again (the server keeps only a hash of its token).
 */
function CreateInvitationDialog({ onClose }: { onClose: () => void }) {
  const showError = useErrorToast();
  const [createInvitation, { isLoading: saving }] = useCreateInvitationMutation();
  const [hours, setHours] = useState(DEFAULT_INVITATION_HOURS);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = { expiry: useId() };

  async function onSubmit() {
    if (saving) return;
    setError(null);
    try {
      setCreated(await createInvitation({ expiresInHours: hours }).unwrap());
    } catch (failure) {
      setError(errorMessage(failure, ADMIN_ERRORS.createInvitation));
    }
  }

  return (
    <FormDialog
      size="md"
      className="invitation-dialog"
      title={created ? 'Invitation created' : 'Create invitation'}
      description={
        created ? 'Send this link to the person you invite. Copy it now: it is shown only once.' : 'The link lets one person create an account, until it expires.'
      }
      busy={saving}
      onClose={onClose}
    >
      {created ? (
        <>
          <CopyableSecret
            label="Invitation link"
            value={created.url}
            noun="link"
            hint={`Valid until ${formatDateTime(created.expiresAt)}. It works once.`}
            onCopyFailed={() => showError(null, ADMIN_ERRORS.copyLink)}
          />
          <DoneActions />
        </>
      ) : (
        <DialogForm error={error} busy={saving} submitLabel="Create invitation" busyLabel="Creating..." submitIcon={MailPlus} onSubmit={onSubmit}>
          <div className="field field-inline">
            <label htmlFor={ids.expiry}>Expires after</label>
            <select id={ids.expiry} value={hours} onChange={(event) => setHours(Number(event.target.value))}>
              {INVITATION_EXPIRY_CHOICES.map((choice) => (
                <option key={choice.hours} value={choice.hours}>
                  {choice.label}
                </option>
              ))}
            </select>
          </div>
        </DialogForm>
      )}
    </FormDialog>
  );
}
