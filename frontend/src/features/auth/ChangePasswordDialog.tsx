import * as Dialog from '@radix-ui/react-dialog';
import { KeyRound, LoaderCircle, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { showToast } from '@/lib/toast';
import { useChangePasswordMutation } from './authApi';
import { MIN_PASSWORD_LENGTH } from './AuthPage';
import { localTokenRenewed } from './authSlice';
import { parseExpiresAt } from './localSession';

interface PasswordForm {
  current: string;
  next: string;
  confirm: string;
}

type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

export const PASSWORD_MESSAGES = {
  changed: 'Password changed',
  changedDescription: 'Your other sessions were signed out; this one goes on.',
  failed: 'Failed to change password',
} as const;

export function validatePasswordForm({ current, next, confirm }: PasswordForm): PasswordErrors {
  const errors: PasswordErrors = {};
  if (!current) errors.current = 'Current password is required';
  if (!next) errors.next = 'New password is required';
  else if (next.length < MIN_PASSWORD_LENGTH) errors.next = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (!errors.next && confirm !== next) errors.confirm = 'The passwords do not match';
  return errors;
}

/**
 * 'Change password' (local accounts): current, new and again. The server ends every other session
 * and answers a new token for this one, so the user stays signed in here. A refusal (a wrong
 * current password, a new one too short) is shown in the dialog, which stays open.
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [changePassword, { isLoading: saving }] = useChangePasswordMutation();
  const [values, setValues] = useState<PasswordForm>({ current: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const ids = {
    current: useId(),
    next: useId(),
    confirm: useId(),
    currentError: useId(),
    nextError: useId(),
    nextHint: useId(),
    confirmError: useId(),
  };

  function change(key: keyof PasswordForm, value: string) {
    setValues((previous) => ({ ...previous, [key]: value }));
    setErrors((previous) => ({ ...previous, [key]: undefined }));
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    setServerError(null);
    const found = validatePasswordForm(values);
    setErrors(found);
    const firstInvalid = (['current', 'next', 'confirm'] as const).find((key) => found[key]);
    if (firstInvalid) {
      document.getElementById(ids[firstInvalid])?.focus();
      return;
    }
    try {
      const grant = await changePassword({ currentPassword: values.current, newPassword: values.next }).unwrap();
      dispatch(localTokenRenewed({ token: grant.token, expiresAt: parseExpiresAt(grant.expiresAt) }));
      dispatch(showToast({ title: PASSWORD_MESSAGES.changed, description: PASSWORD_MESSAGES.changedDescription, variant: 'success' }));
      onClose();
    } catch (failure) {
      setServerError(errorMessage(failure, PASSWORD_MESSAGES.failed));
    }
  }

  const field = (key: keyof PasswordForm, label: string, autoComplete: string, errorId: string, hintId?: string) => {
    const error = errors[key];
    const describedBy = [error ? errorId : null, hintId ?? null].filter(Boolean).join(' ') || undefined;
    return (
      <div className="field">
        <label htmlFor={ids[key]}>{label}</label>
        <input
          id={ids[key]}
          type="password"
          autoComplete={autoComplete}
          value={values[key]}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => change(key, event.target.value)}
        />
        {error && (
          <p id={errorId} className="field-error">
            {error}
          </p>
        )}
        {hintId && !error && (
          <p id={hintId} className="field-hint">
            At least {MIN_PASSWORD_LENGTH} characters.
          </p>
        )}
      </div>
    );
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !saving && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-sm">
          <div className="dialog-header">
            <div>
              <Dialog.Title className="dialog-title">Change password</Dialog.Title>
              <Dialog.Description className="muted">
                Every other session of your account is signed out. You stay signed in here.
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button type="button" className="icon-button" aria-label="Close" disabled={saving}>
                <X size={18} aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <form className="dialog-form" noValidate onSubmit={(event) => void onSubmit(event)}>
            {serverError && (
              <div className="alert alert-error" role="alert">
                <span>{serverError}</span>
              </div>
            )}
            {field('current', 'Current password', 'current-password', ids.currentError)}
            {field('next', 'New password', 'new-password', ids.nextError, ids.nextHint)}
            {field('confirm', 'Confirm new password', 'new-password', ids.confirmError)}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn btn-outline" disabled={saving}>
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={saving}>
                {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <KeyRound size={16} aria-hidden="true" />}
                {saving ? 'Changing...' : 'Change password'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
