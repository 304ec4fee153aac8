import { AudioLines, LoaderCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { toAuthUser, useLoginMutation, useSignupMutation } from './authApi';
import { useAuthActions } from './authActions';
import { localSignedIn } from './authSlice';

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

export default function AuthPage({ kind }: { kind: AuthPageKind }) {
  const actions = useAuthActions();
  const copy = COPY[kind];
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
        {actions.mode === 'oidc' ? <HostedAuth key={kind} kind={kind} /> : <LocalAuthForm key={kind} kind={kind} />}
        <p className="auth-switch">
          {copy.switchText}{' '}
          <Link to={copy.switchTo}>{copy.switchLink}</Link>
        </p>
      </section>
    </main>
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

function LocalAuthForm({ kind }: { kind: AuthPageKind }) {
  const copy = COPY[kind];
  const dispatch = useAppDispatch();
  const [login, loginState] = useLoginMutation();
  const [signup, signupState] = useSignupMutation();
  const busy = loginState.isLoading || signupState.isLoading;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const ids = { email: useId(), password: useId(), emailError: useId(), passwordError: useId() };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setServerError(null);
    const errors = validateCredentials(kind, email, password);
    setFieldErrors(errors);
    if (errors.email || errors.password) return;
    const credentials = { email: email.trim(), password };
    try {
      const session = await (kind === 'sign-in' ? login(credentials) : signup(credentials)).unwrap();
      dispatch(localSignedIn({ token: session.token, user: toAuthUser(session) }));
    } catch (error) {
      setServerError(errorMessage(error, copy.fallbackError));
    }
  }

  return (
    <form className="auth-form" noValidate onSubmit={(event) => void onSubmit(event)}>
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
