import { KeyRound } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { Field } from '@/components/Field';
import { DialogForm, FormDialog } from '@/components/FormDialog';
import { showToast } from '@/lib/toast';
import { useChangePasswordMutation } from './authApi';
import { MIN_PASSWORD_LENGTH } from './AuthPage';
import { localTokenRenewed } from './authSlice';
import { parseExpiresAt } from './localSession';
import { withSessionCall } from './sessionRenewal';

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
 * 'Change password' (local accounts): current, new and again. The server ends every session and
 * answers the token of a new one for this tab, so the user stays signed in here (other browsers
 * and devices are signed out; other tabs of this browser share the new cookie). A refusal (a wrong
 * current password, a new one too short) is shown in the dialog, which stays open.
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [changePassword, { isLoading: saving }] = useChangePasswordMutation();
  const [values, setValues] = useState<PasswordForm>({ current: '', next: '', confirm: '' });
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const ids = { current: useId(), next: useId(), confirm: useId() };

  function change(key: keyof PasswordForm, value: string) {
    setValues((previous) => ({ ...previous, [key]: value }));
    setErrors((previous) => ({ ...previous, [key]: undefined }));
  }

  async function onSubmit() {
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
      // The server ends every session, this one too, and answers the token of a new one (and its
      // cookie): the old token is refused from now on, so the answered one replaces it at once.
      // Made holding the refresh lock, so no refresh of another tab clears the new cookie.
      await withSessionCall(async () => {
        const grant = await changePassword({ currentPassword: values.current, newPassword: values.next }).unwrap();
        dispatch(localTokenRenewed({ token: grant.token, expiresAt: parseExpiresAt(grant.expiresAt) }));
      });
      dispatch(showToast({ title: PASSWORD_MESSAGES.changed, description: PASSWORD_MESSAGES.changedDescription, variant: 'success' }));
      onClose();
    } catch (failure) {
      setServerError(errorMessage(failure, PASSWORD_MESSAGES.failed));
    }
  }

  const field = (key: keyof PasswordForm, label: string, autoComplete: string, hint?: string) => (
    <Field id={ids[key]} label={label} error={errors[key]} hint={hint} hideHintOnError>
      {(control) => (
        <input {...control} type="password" autoComplete={autoComplete} value={values[key]} onChange={(event) => change(key, event.target.value)} />
      )}
    </Field>
  );

  return (
    <FormDialog
      size="sm"
      title="Change password"
      description="Every other session of your account is signed out. You stay signed in here."
      busy={saving}
      onClose={onClose}
    >
      <DialogForm
        error={serverError}
        busy={saving}
        submitLabel="Change password"
        busyLabel="Changing..."
        submitIcon={KeyRound}
        onSubmit={onSubmit}
      >
        {field('current', 'Current password', 'current-password')}
        {field('next', 'New password', 'new-password', `At least ${MIN_PASSWORD_LENGTH} characters.`)}
        {field('confirm', 'Confirm new password', 'new-password')}
      </DialogForm>
    </FormDialog>
  );
}
