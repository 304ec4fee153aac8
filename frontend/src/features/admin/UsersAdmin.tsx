import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { HardDrive, LoaderCircle, MoreVertical, RefreshCw, Save, ShieldCheck, ShieldOff, Trash2, UserCheck, UserX } from 'lucide-react';
import { useId, useState } from 'react';
import { useGetAccountQuery } from '@/api/accountApi';
import { errorMessage } from '@/api/errors';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { Field } from '@/components/Field';
import { DialogForm, FormDialog } from '@/components/FormDialog';
import { LoadFailed } from '@/components/LoadFailed';
import { formatCount, formatDate, formatDateTime, formatFileSize, formatRelativeTime } from '@/lib/format';
import { showToast, useErrorToast } from '@/lib/toast';
import {
  ADMIN_ERRORS,
  useDeleteAdminUserMutation,
  useGetAdminUsersQuery,
  useUpdateAdminUserMutation,
  type AdminUser,
  type AdminUserChanges,
} from './adminApi';
import { InvitationsPanel } from './InvitationsPanel';

/** Why the admin's own row cannot be disabled, demoted or deleted (the server refuses it too). */
const NOT_ON_YOURSELF = 'You cannot do this to your own account';

type UserDialog = { kind: 'cap'; user: AdminUser } | { kind: 'delete'; user: AdminUser } | null;

/**
 * The Users tab of /settings, for admins only: every account with its use of the instance, what an
 * admin may change of it, and the invitations that let new people in.
 */
export default function UsersAdmin() {
  // Invitations are for local accounts; with OIDC the issuer (and its allow-list) decides.
  const localAccounts = useAppSelector((state) => state.auth.mode) === 'local';
  return (
    <div className="admin-settings">
      <UsersSection />
      {localAccounts && <InvitationsPanel />}
    </div>
  );
}

/** The largest cap the server takes (a 32-bit count of GB). */
const MAX_STORAGE_CAP_GB = 4_294_967_295;
export const STORAGE_CAP_ERROR = 'Enter a whole number of GB (1 or more), or leave it empty for no cap';

/** The storage cap as typed: empty is "no cap", else a whole number of GB from 1. */
export function parseStorageCap(text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { value: null };
  const value = Number(trimmed);
  if (!Number.isInteger(value) || value < 1 || value > MAX_STORAGE_CAP_GB) return { error: STORAGE_CAP_ERROR };
  return { value };
}

function UsersSection() {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const { data: users = [], isLoading, error, refetch, isFetching } = useGetAdminUsersQuery();
  const { data: account } = useGetAccountQuery();
  const [updateUser] = useUpdateAdminUserMutation();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<UserDialog>(null);
  const headingId = useId();

  async function change(user: AdminUser, changes: AdminUserChanges, done: string) {
    setPendingId(user.id);
    try {
      await updateUser({ id: user.id, changes }).unwrap();
      dispatch(showToast({ title: done, description: user.email, variant: 'success' }));
    } catch (failure) {
      showError(failure, ADMIN_ERRORS.updateUser);
    } finally {
      setPendingId(null);
    }
  }

  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            Users
          </h2>
          <p className="muted card-subtitle">Every account on this Scribevault.</p>
        </div>
        <button type="button" className="btn btn-sm btn-outline" onClick={() => void refetch()} disabled={isFetching}>
          <RefreshCw size={14} aria-hidden="true" className={isFetching ? 'spin' : undefined} /> Refresh
        </button>
      </div>
      {isLoading ? (
        <p className="card-body muted" role="status">
          Loading...
        </p>
      ) : error && users.length === 0 ? (
        <LoadFailed message={errorMessage(error, ADMIN_ERRORS.fetchUsers)} onRetry={() => void refetch()} />
      ) : (
        <div className="table-wrap">
          <table className="table users-table">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Created</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">Storage used</th>
                <th scope="col">Vault items</th>
                <th scope="col">Jobs waiting</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  isSelf={user.id === account?.id}
                  busy={pendingId === user.id}
                  onChange={(changes, done) => void change(user, changes, done)}
                  onEditCap={() => setDialog({ kind: 'cap', user })}
                  onDelete={() => setDialog({ kind: 'delete', user })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {dialog?.kind === 'cap' && <StorageCapDialog user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'delete' && <DeleteUserDialog user={dialog.user} onClose={() => setDialog(null)} />}
    </section>
  );
}

interface UserRowProps {
  user: AdminUser;
  isSelf: boolean;
  busy: boolean;
  onChange: (changes: AdminUserChanges, done: string) => void;
  onEditCap: () => void;
  onDelete: () => void;
}

function UserRow({ user, isSelf, busy, onChange, onEditCap, onDelete }: UserRowProps) {
  return (
    <tr data-testid="user-row" data-user-id={user.id} className={user.disabled ? 'row-disabled' : undefined}>
      <td className="cell-title" data-label="Email">
        <span className="user-email">{user.email}</span>
        {isSelf && <span className="muted"> (you)</span>}
      </td>
      <td data-label="Created">
        <time dateTime={user.createdAt} title={formatDateTime(user.createdAt)}>
          {formatDate(user.createdAt)}
        </time>
      </td>
      <td data-label="Last sign-in">
        {user.lastSignInAt ? (
          <time dateTime={user.lastSignInAt} title={formatDateTime(user.lastSignInAt)}>
            {formatRelativeTime(user.lastSignInAt)}
          </time>
        ) : (
          <span className="muted">Never</span>
        )}
      </td>
      <td data-label="Storage used" className="nowrap">
        <span className="user-storage">
          <span className="tabular">{formatFileSize(user.storageUsedBytes)}</span>
          <span className="muted user-cap">{user.storageCapGB == null ? 'No cap' : `of ${formatCount(user.storageCapGB)} GB`}</span>
        </span>
      </td>
      <td data-label="Vault items" className="tabular">
        {formatCount(user.vaultItems)}
      </td>
      <td data-label="Jobs waiting" className="tabular">
        {formatCount(user.jobsWaiting)}
      </td>
      <td data-label="Role">
        <span className={`badge ${user.isAdmin ? 'badge-info' : 'badge-neutral'}`}>{user.isAdmin ? 'Admin' : 'User'}</span>
      </td>
      <td data-label="Status">
        <span className={`badge ${user.disabled ? 'badge-danger' : 'badge-success'}`}>{user.disabled ? 'Disabled' : 'Active'}</span>
      </td>
      <td className="cell-actions">
        <UserActionsMenu user={user} isSelf={isSelf} busy={busy} onChange={onChange} onEditCap={onEditCap} onDelete={onDelete} />
      </td>
    </tr>
  );
}

/** The row's ⋮ menu; on the admin's own row only the storage cap can be changed. */
function UserActionsMenu({ user, isSelf, busy, onChange, onEditCap, onDelete }: UserRowProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="icon-button" aria-label={`Actions for ${user.email}`} disabled={busy}>
          {busy ? <LoaderCircle className="spin" size={18} aria-hidden="true" /> : <MoreVertical size={18} aria-hidden="true" />}
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="end" sideOffset={4}>
          {isSelf && <DropdownMenu.Label className="menu-label">{NOT_ON_YOURSELF}: only the storage cap</DropdownMenu.Label>}
          <DropdownMenu.Item
            className="menu-item"
            disabled={isSelf}
            onSelect={() => onChange({ disabled: !user.disabled }, user.disabled ? 'User enabled' : 'User disabled')}
          >
            {user.disabled ? <UserCheck size={16} aria-hidden="true" /> : <UserX size={16} aria-hidden="true" />}
            {user.disabled ? 'Enable' : 'Disable'}
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="menu-item"
            disabled={isSelf}
            onSelect={() => onChange({ isAdmin: !user.isAdmin }, user.isAdmin ? 'Admin rights removed' : 'Admin rights given')}
          >
            {user.isAdmin ? <ShieldOff size={16} aria-hidden="true" /> : <ShieldCheck size={16} aria-hidden="true" />}
            {user.isAdmin ? 'Remove admin' : 'Make admin'}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={onEditCap}>
            <HardDrive size={16} aria-hidden="true" /> Storage cap...
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="menu-separator" />
          <DropdownMenu.Item className="menu-item menu-item-danger" disabled={isSelf} onSelect={onDelete}>
            <Trash2 size={16} aria-hidden="true" /> Delete user
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** 'Storage cap' of one account in GB; empty means none. */
function StorageCapDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [updateUser, { isLoading: saving }] = useUpdateAdminUserMutation();
  const [text, setText] = useState(user.storageCapGB == null ? '' : String(user.storageCapGB));
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  async function onSubmit() {
    if (saving) return;
    const parsed = parseStorageCap(text);
    if ('error' in parsed) {
      setError(parsed.error);
      document.getElementById(inputId)?.focus();
      return;
    }
    try {
      await updateUser({ id: user.id, changes: { storageCapGB: parsed.value } }).unwrap();
      dispatch(
        showToast({
          title: 'Storage cap saved',
          description: parsed.value === null ? `${user.email}: no cap` : `${user.email}: ${parsed.value} GB`,
          variant: 'success',
        }),
      );
      onClose();
    } catch (failure) {
      setError(errorMessage(failure, ADMIN_ERRORS.updateUser));
    }
  }

  return (
    <FormDialog size="sm" title="Storage cap" description={`How much ${user.email} may keep on this Scribevault.`} busy={saving} onClose={onClose}>
      <DialogForm busy={saving} submitLabel="Save cap" submitIcon={Save} onSubmit={onSubmit}>
        <Field
          id={inputId}
          label="Storage cap (GB)"
          className="field field-number"
          error={error}
          announceError
          hint={`Leave it empty for no cap. Now used: ${formatFileSize(user.storageUsedBytes)}.`}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
      </DialogForm>
    </FormDialog>
  );
}

function DeleteUserDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const [deleteUser, { isLoading }] = useDeleteAdminUserMutation();

  async function confirm() {
    try {
      await deleteUser(user.id).unwrap();
      dispatch(showToast({ title: 'User deleted', description: user.email, variant: 'success' }));
    } catch (failure) {
      showError(failure, ADMIN_ERRORS.deleteUser);
    }
    onClose();
  }

  return (
    <ConfirmDialog
      title={`Delete ${user.email}?`}
      description={
        <>
          The account <strong>{user.email}</strong> and everything it owns are deleted: its Vault items, transcripts, uploads, sources,
          schedules, jobs and settings. This cannot be undone.
        </>
      }
      confirmLabel="Delete user"
      busyLabel="Deleting..."
      busy={isLoading}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
