import { Check, Copy, ShieldCheck, ShieldOff } from 'lucide-react';
import qrcode from 'qrcode-generator';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { Field } from '@/components/Field';
import { DialogForm, FormDialog } from '@/components/FormDialog';
import { COPY_CONFIRMATION_MS, copyText } from '@/lib/clipboard';
import { showToast } from '@/lib/toast';
import {
  normalizeSecondFactorCode,
  normalizeTotpCode,
  useDisableTwoFactorMutation,
  useEnableTwoFactorMutation,
  useSetupTwoFactorMutation,
} from './authApi';
import { validateSecondFactorCode, validateTotpCode } from './AuthPage';
import { RecoveryCodesStep } from './RecoveryCodes';

export const TWO_FACTOR_MESSAGES = {
  setupFailed: 'Two-factor sign-in could not be set up',
  enableFailed: 'Two-factor sign-in could not be turned on',
  disableFailed: 'Two-factor sign-in could not be turned off',
  enabled: 'Two-factor sign-in is on',
  enabledDescription: 'Signing in now asks for a code from your authenticator app.',
  disabled: 'Two-factor sign-in is off',
  disabledDescription: 'Signing in asks for your password only.',
  passwordRequired: 'Password is required',
  copyFailed: 'The browser did not allow copying: the key is selected, copy it with Ctrl+C (or ⌘C).',
} as const;

/** How many modules of light border a QR code needs around it to scan (the standard's quiet zone). */
const QUIET_ZONE = 4;

/**
 * A QR code drawn here as an SVG (nothing is sent anywhere; no inline style, so it renders under
 * the CSP). Light background of its own, so it scans in the dark theme too.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(value);
    code.make();
    const count = code.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row += 1) {
      for (let col = 0; col < count; col += 1) {
        if (code.isDark(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { size: count + 2 * QUIET_ZONE, path: d };
  }, [value]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width={200}
      height={200}
      shapeRendering="crispEdges"
      data-qr-value={value}
    >
      <rect width={size} height={size} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}

/** The secret in groups of four, the way authenticator apps show and accept it. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The code field of both dialogs: 6 digits, or with `recovery` also a recovery code (letters, so
 * the keyboard is a text one).
 */
function CodeField({
  id,
  label,
  value,
  error,
  recovery = false,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  error: string | null;
  recovery?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={id} label={label} error={error}>
      {(control) => (
        <input
          {...control}
          className="totp-input"
          type="text"
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={recovery ? 13 : 10}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * 'Set up' (local accounts), in three steps: the password (the factor guards the account, so a
 * session alone cannot set one up); then a new pending secret as a QR code and as text, turned on
 * once a code made from it is confirmed; then the ten recovery codes, shown this once. A wrong
 * password or code is shown in the dialog, which stays open. Closing it before the code is
 * confirmed changes nothing.
 */
export function TwoFactorSetupDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [setup, setupState] = useSetupTwoFactorMutation();
  const [enable, { isLoading: enabling }] = useEnableTwoFactorMutation();
  const [password, setPassword] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const busy = enabling || setupState.isLoading;

  async function onEnable(code: string): Promise<string | null> {
    try {
      const enabled = await enable({ code }).unwrap();
      setRecoveryCodes(enabled.recoveryCodes);
      return null;
    } catch (failure) {
      return errorMessage(failure, TWO_FACTOR_MESSAGES.enableFailed);
    }
  }

  // The 'on' notice waits until the codes are put away: on a phone, toasts over the dialog would
  // hide its Done button, and the dialog itself says the factor is on.
  function close() {
    if (recoveryCodes) {
      dispatch(showToast({ title: TWO_FACTOR_MESSAGES.enabled, description: TWO_FACTOR_MESSAGES.enabledDescription, variant: 'success' }));
    }
    onClose();
  }

  let body: ReactNode;
  if (recoveryCodes) {
    body = <RecoveryCodesStep codes={recoveryCodes} />;
  } else if (setupState.data) {
    body = <ScanStep pending={setupState.data} busy={enabling} onEnable={onEnable} />;
  } else {
    body = (
      <PasswordStep
        password={password}
        busy={setupState.isLoading}
        serverError={setupState.isError ? errorMessage(setupState.error, TWO_FACTOR_MESSAGES.setupFailed) : null}
        onChange={setPassword}
        onSubmit={() => void setup({ password }).catch(() => undefined)}
      />
    );
  }

  return (
    <FormDialog
      size="sm"
      title={recoveryCodes ? 'Save your recovery codes' : 'Set up two-factor sign-in'}
      description={
        recoveryCodes
          ? 'Each code signs you in once if you lose your authenticator app. They are shown only now.'
          : 'Signing in will ask for your password and a 6-digit code from an authenticator app.'
      }
      busy={busy}
      onClose={close}
    >
      {body}
    </FormDialog>
  );
}

/** The first step: the account's password, which the server checks (and counts) before a secret is made. */
function PasswordStep({
  password,
  busy,
  serverError,
  onChange,
  onSubmit,
}: {
  password: string;
  busy: boolean;
  serverError: string | null;
  onChange: (value: string) => void;
  onSubmit: () => void;
}) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  return (
    <DialogForm
      error={serverError}
      busy={busy}
      submitLabel="Continue"
      busyLabel="Checking..."
      submitIcon={ShieldCheck}
      onSubmit={() => {
        if (!password) {
          setError(TWO_FACTOR_MESSAGES.passwordRequired);
          document.getElementById(id)?.focus();
          return;
        }
        onSubmit();
      }}
    >
      <Field id={id} label="Your password" error={error} hint="To make sure it is you, not someone at an unlocked computer.">
        {(control) => (
          <input
            {...control}
            type="password"
            autoComplete="current-password"
            // The step opens on the user's own click: the focus goes to its one field.
            autoFocus
            value={password}
            onChange={(event) => {
              onChange(event.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
    </DialogForm>
  );
}

/** The second step: the QR code and key, and the code that turns the factor on. */
function ScanStep({
  pending,
  busy,
  onEnable,
}: {
  pending: { secret: string; otpauthUrl: string };
  busy: boolean;
  onEnable: (code: string) => Promise<string | null>;
}) {
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const codeId = useId();

  async function onSubmit() {
    if (busy) return;
    setServerError(null);
    const invalid = validateTotpCode(code);
    setCodeError(invalid);
    if (invalid) {
      document.getElementById(codeId)?.focus();
      return;
    }
    const refused = await onEnable(normalizeTotpCode(code));
    if (refused) {
      setServerError(refused);
      setCode('');
      document.getElementById(codeId)?.focus();
    }
  }

  return (
    <DialogForm error={serverError} busy={busy} submitLabel="Turn on" busyLabel="Turning on..." submitIcon={ShieldCheck} onSubmit={onSubmit}>
      <p>Scan this QR code with your authenticator app, then enter the code it shows.</p>
      <div className="qr-frame">
        <QrCode value={pending.otpauthUrl} label="QR code for your authenticator app" />
      </div>
      <ManualKeyField secret={pending.secret} />
      <CodeField id={codeId} label="Code from the app" value={code} error={codeError} onChange={(value) => (setCode(value), setCodeError(null))} />
    </DialogForm>
  );
}

/** The secret as text, for apps that cannot scan, with Copy (selected for Ctrl+C when the browser refuses). */
function ManualKeyField({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  const [manualCopy, setManualCopy] = useState(false);
  const secretField = useRef<HTMLInputElement>(null);
  const ids = { secret: useId(), secretHint: useId() };

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copySecret() {
    const ok = await copyText(secret, secretField.current);
    setCopied(ok);
    setManualCopy(!ok);
  }

  return (
    <div className="field">
      <label htmlFor={ids.secret}>Or enter this key</label>
      <div className="invitation-link totp-secret">
        <input
          ref={secretField}
          id={ids.secret}
          type="text"
          readOnly
          spellCheck={false}
          value={groupSecret(secret)}
          aria-describedby={ids.secretHint}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className={`btn btn-outline${copied ? ' copied' : ''}`} onClick={() => void copySecret()}>
          {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
          {copied ? 'Copied!' : 'Copy key'}
        </button>
      </div>
      <p id={ids.secretHint} className="field-hint" aria-live="polite">
        {manualCopy ? TWO_FACTOR_MESSAGES.copyFailed : 'A time-based key (TOTP), for apps that cannot scan.'}
      </p>
    </div>
  );
}

/** 'Turn off': needs the password and a current code; a refusal is shown in the dialog. */
export function TwoFactorDisableDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [disable, { isLoading: saving }] = useDisableTwoFactorMutation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ password?: string; code?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const ids = { password: useId(), code: useId() };

  async function onSubmit() {
    if (saving) return;
    setServerError(null);
    const found = { password: password ? undefined : TWO_FACTOR_MESSAGES.passwordRequired, code: validateSecondFactorCode(code) ?? undefined };
    setErrors(found);
    if (found.password || found.code) {
      document.getElementById(found.password ? ids.password : ids.code)?.focus();
      return;
    }
    try {
      await disable({ password, code: normalizeSecondFactorCode(code) }).unwrap();
      dispatch(showToast({ title: TWO_FACTOR_MESSAGES.disabled, description: TWO_FACTOR_MESSAGES.disabledDescription, variant: 'success' }));
      onClose();
    } catch (failure) {
      setServerError(errorMessage(failure, TWO_FACTOR_MESSAGES.disableFailed));
      setCode('');
    }
  }

  return (
    <FormDialog
      size="sm"
      title="Turn off two-factor sign-in"
      description="Signing in will ask for your password only. Confirm with your password and a code from your authenticator app (or a recovery code)."
      busy={saving}
      onClose={onClose}
    >
      <DialogForm error={serverError} busy={saving} submitLabel="Turn off" busyLabel="Turning off..." submitIcon={ShieldOff} tone="danger" onSubmit={onSubmit}>
        <Field id={ids.password} label="Password" error={errors.password}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => {
                setPassword(event.target.value);
                setErrors((previous) => ({ ...previous, password: undefined }));
              }}
            />
          )}
        </Field>
        <CodeField
          id={ids.code}
          label="Code from the app or a recovery code"
          recovery
          value={code}
          error={errors.code ?? null}
          onChange={(value) => {
            setCode(value);
            setErrors((previous) => ({ ...previous, code: undefined }));
          }}
        />
      </DialogForm>
    </FormDialog>
  );
}
