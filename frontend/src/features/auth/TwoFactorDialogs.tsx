import { Check, Copy, LoaderCircle, RefreshCw, ShieldCheck, ShieldOff } from 'lucide-react';
import qrcode from 'qrcode-generator';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { Field } from '@/components/Field';
import { CancelButton, DialogForm, FormDialog } from '@/components/FormDialog';
import { COPY_CONFIRMATION_MS, copyText } from '@/lib/clipboard';
import { showToast } from '@/lib/toast';
import { normalizeTotpCode, useDisableTwoFactorMutation, useEnableTwoFactorMutation, useSetupTwoFactorMutation } from './authApi';
import { validateTotpCode } from './AuthPage';

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

/** The 6-digit code field of both dialogs. */
function CodeField({ id, label, value, error, onChange }: { id: string; label: string; value: string; error: string | null; onChange: (value: string) => void }) {
  return (
    <Field id={id} label={label} error={error}>
      {(control) => (
        <input
          {...control}
          className="totp-input"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={10}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

/**
 * 'Set up' (local accounts): asks the server for a new pending secret, shows it as a QR code and
 * as text for manual entry, and turns two-factor sign-in on once a code made from it is confirmed.
 * A wrong code is shown in the dialog, which stays open. Closing it before that changes nothing.
 */
export function TwoFactorSetupDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const [setup, setupState] = useSetupTwoFactorMutation();
  const [enable, { isLoading: enabling }] = useEnableTwoFactorMutation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const started = useRef(false);
  const codeId = useId();

  useEffect(() => {
    // Once per dialog (StrictMode runs effects twice): each call makes a new pending secret.
    if (started.current) return;
    started.current = true;
    void setup();
  }, [setup]);

  const pending = setupState.data;

  async function onSubmit() {
    if (enabling || !pending) return;
    setServerError(null);
    const invalid = validateTotpCode(code);
    setCodeError(invalid);
    if (invalid) {
      document.getElementById(codeId)?.focus();
      return;
    }
    try {
      await enable({ code: normalizeTotpCode(code) }).unwrap();
      dispatch(showToast({ title: TWO_FACTOR_MESSAGES.enabled, description: TWO_FACTOR_MESSAGES.enabledDescription, variant: 'success' }));
      onClose();
    } catch (failure) {
      setServerError(errorMessage(failure, TWO_FACTOR_MESSAGES.enableFailed));
      setCode('');
      document.getElementById(codeId)?.focus();
    }
  }

  let body: ReactNode;
  if (setupState.isError) {
    body = <SetupFailed message={errorMessage(setupState.error, TWO_FACTOR_MESSAGES.setupFailed)} onRetry={() => void setup()} />;
  } else if (!pending) {
    body = (
      <p className="muted auth-notice" role="status">
        <LoaderCircle className="spin" size={16} aria-hidden="true" /> Preparing your key...
      </p>
    );
  } else {
    body = (
      <DialogForm error={serverError} busy={enabling} submitLabel="Turn on" busyLabel="Turning on..." submitIcon={ShieldCheck} onSubmit={onSubmit}>
        <p>Scan this QR code with your authenticator app, then enter the code it shows.</p>
        <div className="qr-frame">
          <QrCode value={pending.otpauthUrl} label="QR code for your authenticator app" />
        </div>
        <ManualKeyField secret={pending.secret} />
        <CodeField id={codeId} label="Code from the app" value={code} error={codeError} onChange={(value) => (setCode(value), setCodeError(null))} />
      </DialogForm>
    );
  }

  return (
    <FormDialog
      size="sm"
      title="Set up two-factor sign-in"
      description="Signing in will ask for your password and a 6-digit code from an authenticator app."
      busy={enabling}
      onClose={onClose}
    >
      {body}
    </FormDialog>
  );
}

/** The server could not make a secret: why, and Try again (a new call, a new secret). */
function SetupFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="dialog-form">
      <div className="alert alert-error" role="alert">
        <span>{message}</span>
      </div>
      <div className="dialog-actions">
        <CancelButton />
        <button type="button" className="btn btn-primary" onClick={onRetry}>
          <RefreshCw size={16} aria-hidden="true" /> Try again
        </button>
      </div>
    </div>
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
    const found = { password: password ? undefined : TWO_FACTOR_MESSAGES.passwordRequired, code: validateTotpCode(code) ?? undefined };
    setErrors(found);
    if (found.password || found.code) {
      document.getElementById(found.password ? ids.password : ids.code)?.focus();
      return;
    }
    try {
      await disable({ password, code: normalizeTotpCode(code) }).unwrap();
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
      description="Signing in will ask for your password only. Confirm with your password and a code from your authenticator app."
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
          label="Code from the app"
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
