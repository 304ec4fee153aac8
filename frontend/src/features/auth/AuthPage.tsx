import { ArrowLeft, AudioLines, LoaderCircle, LogOut, MailCheck, MailX, Smartphone } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '@/api/errors';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import type { SignupPolicy } from '@/config/appConfig';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import type { AppDispatch } from '@/app/store';
import { showToast } from '@/lib/toast';
import {
  isRecoveryCode,
  isTotpRequired,
  normalizeSecondFactorCode,
  normalizeTotpCode,
  TOTP_CODE_LENGTH,
  toLocalSession,
  useCheckInvitationQuery,
  useLoginMutation,
  useSignupMutation,
  type AuthSession,
} from './authApi';
import { useAuthActions } from './authActions';
import { localSignedIn, selectSignOutNotice } from './authSlice';
import { withSessionCall } from './sessionRenewal';

export type AuthPageKind = 'sign-in' | 'sign-up';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;

interface FieldErrors {
  email?: string;
  password?: string;
}

export function validateCredentials(kind: AuthPageKind, email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = 'Email is required';
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = 'Please enter a valid email address';
  if (!password) errors.password = 'Password is required';
  else if (kind === 'sign-up' && password.length < MIN_PASSWORD_LENGTH) {
    errors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  return errors;
}

const COPY = {
  'sign-in': {
    title: 'Sign in to Scribevault',
    subtitle: 'Welcome back. Your transcripts are waiting in the Vault.',
    submit: 'Sign in',
    busy: 'Signing in...',
    switchText: "Don't have an account?",
    switchLink: 'Sign up',
    switchTo: paths.signUp,
    fallbackError: 'Sign in failed',
  },
  'sign-up': {
    title: 'Create your account',
    subtitle: 'Transcribe audio and keep your knowledge in one place.',
    submit: 'Create account',
    busy: 'Creating account...',
    switchText: 'Already have an account?',
    switchLink: 'Sign in',
    switchTo: paths.signIn,
    fallbackError: 'Sign up failed',
  },
} as const;

export const TOTP_MESSAGES = {
  prompt: 'Enter the 6-digit code from your authenticator app.',
  required: 'Enter the 6-digit code from your authenticator app',
  invalid: 'The code has 6 digits',
  invalidOrRecovery: 'A code has 6 digits; a recovery code looks like abcde-12345',
  recoveryHint: 'Lost your phone? Enter one of your recovery codes instead.',
  submit: 'Verify',
  busy: 'Verifying...',
  fallbackError: 'That code did not work',
} as const;

/** The query parameter of an invitation link: `/sign-up?invitation=<token>`. */
export const INVITATION_PARAM = 'invitation';

export const SIGNUP_MESSAGES = {
  invited: 'You have been invited to Scribevault. Create your account below.',
  invitationUnusable: 'This invitation has expired or was already used.',
  invitationUnchecked: 'The invitation could not be checked. You can still try to create your account.',
  inviteOnly: 'Sign-up needs an invitation. Open the invitation link you were sent, or ask the owner of this Scribevault for one.',
  closed: 'Sign-up is closed on this Scribevault. Ask its owner for an account.',
} as const;

export default function AuthPage({ kind }: { kind: AuthPageKind }) {
  const actions = useAuthActions();
  const copy = COPY[kind];
  const policy: SignupPolicy = actions.signupPolicy ?? 'open';
  const signOutNotice = useAppSelector(selectSignOutNotice);
  return (
    <main className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true">
            <AudioLines size={22} />
          </span>
          <span className="brand-name">Scribevault</span>
        </div>
        <h1 id="auth-title" className="auth-title">
          {copy.title}
        </h1>
        <p className="auth-subtitle">{copy.subtitle}</p>
        {kind === 'sign-in' && signOutNotice && (
          // Why the app signed out by itself: the server ended the session (and said why).
          <div className="alert alert-warning" role="alert" data-testid="sign-out-notice">
            <LogOut size={18} aria-hidden="true" />
            <span>{signOutNotice}</span>
          </div>
        )}
        {actions.mode === 'oidc' ? (
          <HostedAuth key={kind} kind={kind} />
        ) : kind === 'sign-up' ? (
          <LocalSignUp policy={policy} />
        ) : (
          <LocalAuthForm key={kind} kind={kind} />
        )}
        <SwitchLink kind={kind} policy={policy} />
      </section>
    </main>
  );
}

/** Under the form: the way to the other screen. A closed instance offers no sign-up at all. */
function SwitchLink({ kind, policy }: { kind: AuthPageKind; policy: SignupPolicy }) {
  const copy = COPY[kind];
  if (kind === 'sign-in' && policy === 'closed') return null;
  if (kind === 'sign-in' && policy === 'invite') {
    return (
      <p className="auth-switch">
        Don&apos;t have an account? Sign-up needs an invitation.{' '}
        <Link to={copy.switchTo}>Sign up with an invitation</Link>
      </p>
    );
  }
  return (
    <p className="auth-switch">
      {copy.switchText} <Link to={copy.switchTo}>{copy.switchLink}</Link>
    </p>
  );
}

/**
 * Local sign-up. With an invitation link the invitation is checked first (`GET
 * /api/auth/invitations/{token}`) and sent with the sign-up; without one, an `invite` or `closed`
 * instance explains how to get in instead of showing a form the server would refuse.
 */
function LocalSignUp({ policy }: { policy: SignupPolicy }) {
  const [searchParams] = useSearchParams();
  const invitation = searchParams.get(INVITATION_PARAM)?.trim() || null;
  const check = useCheckInvitationQuery(invitation ?? '', { skip: !invitation });

  if (!invitation) {
    // A fresh instance (no account yet) says `open`: its first sign-up makes the owner.
    if (policy === 'open') return <LocalAuthForm kind="sign-up" />;
    return (
      <div className="alert alert-info" role="status">
        <span>{policy === 'invite' ? SIGNUP_MESSAGES.inviteOnly : SIGNUP_MESSAGES.closed}</span>
      </div>
    );
  }
  if (check.isLoading || check.isUninitialized) {
    return (
      <p className="muted auth-notice" role="status">
        <LoaderCircle className="spin" size={16} aria-hidden="true" /> Checking your invitation...
      </p>
    );
  }
  if (check.isSuccess) {
    const until = formatDateTime(check.data.expiresAt);
    return (
      <>
        <div className="alert alert-success" role="status">
          <MailCheck size={18} aria-hidden="true" />
          <span>
            {SIGNUP_MESSAGES.invited}
            {until && <span className="alert-detail">The invitation is valid until {until}.</span>}
          </span>
        </div>
        <LocalAuthForm kind="sign-up" invitation={invitation} />
      </>
    );
  }
  const unusable = check.error && 'status' in check.error && check.error.status === 404;
  if (unusable) {
    return (
      <>
        <div className="alert alert-error" role="alert">
          <MailX size={18} aria-hidden="true" />
          <span>
            {SIGNUP_MESSAGES.invitationUnusable}
            <span className="alert-detail">Ask the person who invited you for a new link.</span>
          </span>
        </div>
        {/* An open instance does not need the invitation: the form works without it. */}
        {policy === 'open' && <LocalAuthForm kind="sign-up" />}
      </>
    );
  }
  // The check itself failed (offline, server error): the server decides at sign-up.
  return (
    <>
      <div className="alert alert-warning" role="status">
        <span>{SIGNUP_MESSAGES.invitationUnchecked}</span>
      </div>
      <LocalAuthForm kind="sign-up" invitation={invitation} />
    </>
  );
}

/** The issuer's hosted widget: we redirect to it straight away and offer a button as well. */
function HostedAuth({ kind }: { kind: AuthPageKind }) {
  const { signInWithRedirect, signUpWithRedirect } = useAuthActions();
  const start = kind === 'sign-in' ? signInWithRedirect : signUpWithRedirect;
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !start) return;
    started.current = true;
    void start(paths.home);
  }, [start]);
  return (
    <div className="auth-hosted">
      <p className="muted" role="status">
        Redirecting to the secure {kind === 'sign-in' ? 'sign-in' : 'sign-up'} page...
      </p>
      <button type="button" className="btn btn-primary btn-block" onClick={() => void start?.(paths.home)}>
        {COPY[kind].submit}
      </button>
    </div>
  );
}

/**
 * The email and password form. Signing in to an account with two-factor sign-in on takes a second
 * step: the server refuses the password alone with a 401 that says `totpRequired`, and the form
 * then asks for the code of the authenticator app (the email and password are kept and sent again
 * with it).
 */
function LocalAuthForm({ kind, invitation }: { kind: AuthPageKind; invitation?: string }) {
  const copy = COPY[kind];
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, fieldErrors, serverError, totpPrompt, submitCredentials, submitCode, backToCredentials } = useLocalAuth(kind, invitation);
  const ids = { email: useId(), password: useId(), emailError: useId(), passwordError: useId() };

  if (kind === 'sign-in' && totpPrompt !== null) {
    return <TotpStep prompt={totpPrompt} busy={busy} onSubmit={(code) => submitCode(email, password, code)} onBack={backToCredentials} />;
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submitCredentials(email, password);
  }

  return (
    <form className="auth-form" noValidate onSubmit={onSubmit}>
      {serverError && (
        <div className="alert alert-error" role="alert">
          {serverError}
        </div>
      )}
      <div className="field">
        <label htmlFor={ids.email}>Email</label>
        <input
          id={ids.email}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={fieldErrors.email ? true : undefined}
          aria-describedby={fieldErrors.email ? ids.emailError : undefined}
        />
        {fieldErrors.email && (
          <p id={ids.emailError} className="field-error">
            {fieldErrors.email}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={ids.password}>Password</label>
        <input
          id={ids.password}
          type="password"
          autoComplete={kind === 'sign-in' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={fieldErrors.password ? true : undefined}
          aria-describedby={fieldErrors.password ? ids.passwordError : undefined}
        />
        {fieldErrors.password ? (
          <p id={ids.passwordError} className="field-error">
            {fieldErrors.password}
          </p>
        ) : (
          kind === 'sign-up' && <p className="field-hint">At least {MIN_PASSWORD_LENGTH} characters.</p>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy && <LoaderCircle className="spin" size={16} aria-hidden="true" />}
        {busy ? copy.busy : copy.submit}
      </button>
    </form>
  );
}

/**
 * Signing in or up with a password, and the code step a two-factor account adds to signing in:
 * `totpPrompt` is set once the server asked for a code, with what it said.
 */
function useLocalAuth(kind: AuthPageKind, invitation: string | undefined) {
  const copy = COPY[kind];
  const dispatch = useAppDispatch();
  const [login, loginState] = useLoginMutation();
  const [signup, signupState] = useSignupMutation();
  const busy = loginState.isLoading || signupState.isLoading;
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [totpPrompt, setTotpPrompt] = useState<string | null>(null);

  function signedIn(session: AuthSession) {
    dispatch(localSignedIn(toLocalSession(session)));
    announceSignIn(dispatch, session);
  }

  async function submitCredentials(email: string, password: string) {
    setServerError(null);
    const errors = validateCredentials(kind, email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    const credentials = { email: email.trim(), password };
    try {
      // Sign-in and sign-up set the browser's refresh cookie: made holding the refresh lock, so no
      // refresh of another tab clears it while the call is out.
      signedIn(
        await withSessionCall(() =>
          (kind === 'sign-in' ? login(credentials) : signup(invitation ? { ...credentials, invitation } : credentials)).unwrap(),
        ),
      );
    } catch (error) {
      if (kind === 'sign-in' && isTotpRequired(error)) {
        setTotpPrompt(errorMessage(error, TOTP_MESSAGES.prompt));
        return;
      }
      setServerError(errorMessage(error, copy.fallbackError));
    }
  }

  /** Answers the server's message for a wrong code, for the code step to show. */
  async function submitCode(email: string, password: string, code: string): Promise<string | null> {
    try {
      signedIn(await withSessionCall(() => login({ email: email.trim(), password, code }).unwrap()));
      return null;
    } catch (error) {
      if (isTotpRequired(error)) return errorMessage(error, TOTP_MESSAGES.fallbackError);
      // Anything else (the password no longer works, too many attempts): back to the first
      // step with what the server said.
      setServerError(errorMessage(error, copy.fallbackError));
      setTotpPrompt(null);
      return null;
    }
  }

  function backToCredentials() {
    setServerError(null);
    setTotpPrompt(null);
  }

  return { busy, fieldErrors, serverError, totpPrompt, submitCredentials, submitCode, backToCredentials };
}

/** Checks a typed code before it is sent: null when it is 6 digits. */
export function validateTotpCode(value: string): string | null {
  const digits = normalizeTotpCode(value);
  if (!digits) return TOTP_MESSAGES.required;
  if (digits.length !== TOTP_CODE_LENGTH) return TOTP_MESSAGES.invalid;
  return null;
}

/**
 * What a sign-in has to tell beyond itself: that it used up a recovery code (and how many are
 * left), and that the second factor changed since the last sign-in, so a change the member did
 * not make does not go unseen.
 */
function announceSignIn(dispatch: AppDispatch, session: AuthSession) {
  if (session.recoveryCodesLeft != null) {
    const left = session.recoveryCodesLeft;
    dispatch(
      showToast({
        title: 'Signed in with a recovery code',
        description: `${left} recovery code${left === 1 ? '' : 's'} left. If you lost your authenticator app, turn two-factor sign-in off and set it up again in Settings → Account.`,
        variant: 'warning',
        link: { label: 'Open Settings', to: paths.settings },
      }),
    );
  }
  if (session.secondFactorChangedAt) {
    const when = formatDateTime(session.secondFactorChangedAt);
    dispatch(
      showToast({
        title: 'Your two-factor sign-in changed',
        description: `It was turned on or replaced on ${when}. If that was not you, change your password now and set up two-factor sign-in again.`,
        variant: 'warning',
        link: { label: 'Open Settings', to: paths.settings },
      }),
    );
  }
}

/** Checks a code that may also be a recovery code (sign-in, turning the factor off). */
export function validateSecondFactorCode(value: string): string | null {
  if (isRecoveryCode(value)) return null;
  const invalid = validateTotpCode(value);
  return invalid === TOTP_MESSAGES.invalid ? TOTP_MESSAGES.invalidOrRecovery : invalid;
}

/**
 * The second step of signing in: the code of the authenticator app. `onSubmit` answers the
 * server's message for a wrong code (null when there is nothing to show here).
 */
function TotpStep({
  prompt,
  busy,
  onSubmit,
  onBack,
}: {
  prompt: string;
  busy: boolean;
  onSubmit: (code: string) => Promise<string | null>;
  onBack: () => void;
}) {
  const { ids, code, changeCode, fieldError, serverError, recovery, chooseRecoveryCode, submit } = useTotpEntry(busy, onSubmit);

  return (
    <form className="auth-form" noValidate aria-label="Two-factor code" onSubmit={(event) => void submit(event)}>
      {serverError ? (
        <div className="alert alert-error" role="alert">
          {serverError}
        </div>
      ) : (
        <div className="alert alert-info" role="status" id={ids.prompt}>
          <Smartphone size={18} aria-hidden="true" />
          <span>{prompt}</span>
        </div>
      )}
      <div className="field">
        <label htmlFor={ids.code}>{recovery ? 'Recovery code' : 'Authentication code'}</label>
        <input
          id={ids.code}
          className="totp-input"
          type="text"
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={13}
          // The field appears in answer to the user's own submit: focus moves to it.
          autoFocus
          value={code}
          onChange={(event) => changeCode(event.target.value)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? ids.error : serverError ? undefined : ids.prompt}
        />
        {fieldError && (
          <p id={ids.error} className="field-error">
            {fieldError}
          </p>
        )}
        {!recovery && (
          <button type="button" className="btn btn-link field-hint" onClick={chooseRecoveryCode}>
            {TOTP_MESSAGES.recoveryHint}
          </button>
        )}
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy && <LoaderCircle className="spin" size={16} aria-hidden="true" />}
        {busy ? TOTP_MESSAGES.busy : TOTP_MESSAGES.submit}
      </button>
      <button type="button" className="btn btn-ghost btn-block" onClick={onBack} disabled={busy}>
        <ArrowLeft size={16} aria-hidden="true" /> Back
      </button>
    </form>
  );
}

/** The code as typed, its check before it is sent, and the server's refusal of it. */
function useTotpEntry(busy: boolean, onSubmit: (code: string) => Promise<string | null>) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  /** The member chose to type a recovery code: a text keyboard on phones. */
  const [recovery, setRecovery] = useState(false);
  const ids = { code: useId(), prompt: useId(), error: useId() };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setServerError(null);
    const invalid = validateSecondFactorCode(code);
    setFieldError(invalid);
    if (invalid) {
      document.getElementById(ids.code)?.focus();
      return;
    }
    const refused = await onSubmit(normalizeSecondFactorCode(code));
    if (refused) {
      setServerError(refused);
      setCode('');
      document.getElementById(ids.code)?.focus();
    }
  }

  function changeCode(value: string) {
    setCode(value);
    setFieldError(null);
  }

  function chooseRecoveryCode() {
    setRecovery(true);
    document.getElementById(ids.code)?.focus();
  }

  return { ids, code, changeCode, fieldError, serverError, recovery, chooseRecoveryCode, submit };
}
