import { LogOut, UserRound } from 'lucide-react';
import { useAppSelector } from '@/app/hooks';
import { useAuthActions } from './authActions';
import { selectCurrentUser } from './authSlice';

/** The Account tab of /settings: who is signed in, and signing out. */
export function AccountSettings() {
  const user = useAppSelector(selectCurrentUser);
  const { signOut } = useAuthActions();
  const email = user?.email ?? null;
  const name = user?.name && user.name !== email ? user.name : null;
  return (
    <section className="card" aria-labelledby="account-heading">
      <div className="card-header">
        <h2 id="account-heading" className="card-title">
          <UserRound size={18} aria-hidden="true" /> Profile
        </h2>
      </div>
      <div className="card-body account-card">
        <span className="avatar avatar-lg" aria-hidden="true">
          {(email ?? name ?? '?').slice(0, 1).toUpperCase()}
        </span>
        <dl className="account-details">
          {name && (
            <div>
              <dt>Name</dt>
              <dd>{name}</dd>
            </div>
          )}
          <div>
            <dt>Email</dt>
            <dd>{email ?? 'Not available'}</dd>
          </div>
        </dl>
      </div>
      <div className="card-footer">
        <button type="button" className="btn btn-outline" onClick={() => signOut()}>
          <LogOut size={16} aria-hidden="true" /> Sign out
        </button>
      </div>
    </section>
  );
}
