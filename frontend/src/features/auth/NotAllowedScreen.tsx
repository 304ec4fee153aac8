import { AudioLines, LogOut, ShieldX } from 'lucide-react';
import { useAppSelector } from '@/app/hooks';
import { useAuthActions } from './authActions';
import { selectCurrentUser } from './authSlice';

export const NOT_ALLOWED_TITLE = 'No access to this Scribevault';
/** Shown when the refusal carries no message of its own. */
export const NOT_ALLOWED_FALLBACK = 'Your account is not allowed on this instance. Ask its owner to add you.';

/**
 * Instead of the app shell when the gateway refuses the signed-in person (OIDC: an issuer account
 * that the instance's allow-list does not take answers 403 to every call): the server's message,
 * who is signed in, and Sign out, which ends the issuer's session so another account can be used.
 */
export function NotAllowedScreen({ message }: { message: string | null }) {
  const user = useAppSelector(selectCurrentUser);
  const { signOut } = useAuthActions();
  return (
    <main className="auth-page">
      <section className="auth-card not-allowed" aria-labelledby="not-allowed-title" data-testid="not-allowed">
        <div className="auth-brand">
          <span className="brand-mark" aria-hidden="true">
            <AudioLines size={22} />
          </span>
          <span className="brand-name">Scribevault</span>
        </div>
        <h1 id="not-allowed-title" className="auth-title">
          {NOT_ALLOWED_TITLE}
        </h1>
        <div className="alert alert-error" role="alert">
          <ShieldX size={18} aria-hidden="true" />
          <span>{message ?? NOT_ALLOWED_FALLBACK}</span>
        </div>
        {user?.email && (
          <p className="muted not-allowed-who">
            Signed in as <strong className="user-email">{user.email}</strong>
          </p>
        )}
        <button type="button" className="btn btn-primary btn-block" onClick={() => signOut()}>
          <LogOut size={16} aria-hidden="true" /> Sign out
        </button>
        <p className="auth-switch">Signing out lets you sign in with another account.</p>
      </section>
    </main>
  );
}
