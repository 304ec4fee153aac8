import {
  AlertTriangle,
  CreditCard,
  Download,
  HardDrive,
  KeyRound,
  LockKeyhole,
  LogOut,
  Mail,
  MonitorSmartphone,
  Pencil,
  ShieldCheck,
  ShieldOff,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useGetAccountQuery } from '@/api/accountApi';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { paths } from '@/config/paths';
import { useErrorToast } from '@/lib/toast';
import { useLogoutAllMutation } from './authApi';
import { ApiTokensCard } from './ApiTokensCard';
import { useAuthActions } from './authActions';
import { selectCurrentUser, signedOut } from './authSlice';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { TwoFactorDisableDialog, TwoFactorSetupDialog } from './TwoFactorDialogs';

/**
 * What a button whose behaviour the spec does not show says: it is there (docs/product-spec.md §2 lists it) but
 * disabled, so nothing looks like it works when it does not.
 */
const NOT_AVAILABLE = 'Not available yet';

export const SIGN_OUT_EVERYWHERE_FAILED = 'Failed to sign out everywhere';

/**
 * The Account tab of /settings. Spec §2 asks for static placeholder cards that make no calls
 * (Profile, Storage, Privacy & Security, Danger Zone, Subscription); the Profile card also shows
 * who is signed in and keeps Sign out. Privacy & Security adds what works for a local account:
 * Change password, Sign out everywhere and two-factor sign-in with an authenticator app (hidden in
 * OIDC mode, where the issuer owns passwords, sessions and second factors).
 */
export function AccountSettings() {
  return (
    <div className="account-settings">
      <ProfileCard />
      <StorageCard />
      <PrivacySecurityCard />
      <ApiTokensCard />
      <SubscriptionCard />
      <DangerZoneCard />
    </div>
  );
}

function AccountCard({
  title,
  icon: Icon,
  tone,
  children,
  footer,
}: {
  title: string;
  icon: LucideIcon;
  tone?: 'danger';
  children: ReactNode;
  footer?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section className={`card account-card-section${tone === 'danger' ? ' danger-zone' : ''}`} aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId} className="card-title">
          <Icon size={18} aria-hidden="true" /> {title}
        </h2>
      </div>
      <div className="card-body">{children}</div>
      {footer && <div className="card-footer">{footer}</div>}
    </section>
  );
}

/** A button of the placeholder cards: shown, named, and disabled with the reason as its title. */
function UnavailableButton({ icon: Icon, children, danger = false }: { icon?: LucideIcon; children: string; danger?: boolean }) {
  return (
    <button type="button" className={`btn btn-sm ${danger ? 'btn-danger-outline' : 'btn-outline'}`} disabled title={NOT_AVAILABLE}>
      {Icon && <Icon size={14} aria-hidden="true" />} {children}
    </button>
  );
}

/** One line of a card: what it is, a short explanation and its button. */
function AccountRow({ label, description, action, status }: { label: string; description: string; action: ReactNode; status?: ReactNode }) {
  return (
    <div className="account-row">
      <div>
        <p className="account-row-label">
          {status ? <span>{label}</span> : label}
          {status}
        </p>
        <p className="field-hint">{description}</p>
      </div>
      {action}
    </div>
  );
}

function ProfileCard() {
  const user = useAppSelector(selectCurrentUser);
  const { signOut } = useAuthActions();
  const email = user?.email ?? null;
  const name = user?.name && user.name !== email ? user.name : null;
  return (
    <AccountCard
      title="Profile"
      icon={UserRound}
      footer={
        <button type="button" className="btn btn-outline" onClick={() => signOut()}>
          <LogOut size={16} aria-hidden="true" /> Sign out
        </button>
      }
    >
      <div className="account-card">
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
        <UnavailableButton icon={Pencil}>Edit</UnavailableButton>
      </div>
      <AccountRow
        label="Email Preferences"
        description="Which emails Scribevault may send you."
        action={<UnavailableButton icon={Mail}>Manage</UnavailableButton>}
      />
    </AccountCard>
  );
}

function StorageCard() {
  return (
    <AccountCard title="Storage" icon={HardDrive} footer={<UnavailableButton>Manage Files</UnavailableButton>}>
      <p className="storage-usage">
        <span>Used</span>
        <span className="tabular">0 MB / 10 GB</span>
      </p>
      <div className="storage-meter" role="meter" aria-label="Storage used" aria-valuemin={0} aria-valuemax={10} aria-valuenow={0} aria-valuetext="0 MB of 10 GB">
        <span className="storage-meter-fill" style={{ width: '0%' }} />
      </div>
    </AccountCard>
  );
}

function PrivacySecurityCard() {
  const { mode } = useAuthActions();
  const [dialog, setDialog] = useState<'password' | 'sign-out-everywhere' | '2fa-setup' | '2fa-disable' | null>(null);
  const close = () => setDialog(null);
  return (
    <AccountCard title="Privacy & Security" icon={ShieldCheck}>
      {mode === 'local' && (
        <>
          <AccountRow
            label="Password"
            description="Change the password you sign in with."
            action={
              <button type="button" className="btn btn-sm btn-outline" onClick={() => setDialog('password')}>
                <LockKeyhole size={14} aria-hidden="true" /> Change password
              </button>
            }
          />
          <AccountRow
            label="Sessions"
            description="Sign out on every device and browser, this one included."
            action={
              <button type="button" className="btn btn-sm btn-outline" onClick={() => setDialog('sign-out-everywhere')}>
                <MonitorSmartphone size={14} aria-hidden="true" /> Sign out everywhere
              </button>
            }
          />
          <TwoFactorRow onSetUp={() => setDialog('2fa-setup')} onTurnOff={() => setDialog('2fa-disable')} />
          {dialog === 'password' && <ChangePasswordDialog onClose={close} />}
          {dialog === '2fa-setup' && <TwoFactorSetupDialog onClose={close} />}
          {dialog === '2fa-disable' && <TwoFactorDisableDialog onClose={close} />}
          {dialog === 'sign-out-everywhere' && <SignOutEverywhereDialog onClose={close} />}
        </>
      )}
      <AccountRow
        label="Data Export"
        description="Download a copy of everything in your account."
        action={<UnavailableButton icon={Download}>Export</UnavailableButton>}
      />
    </AccountCard>
  );
}

/**
 * Two-factor sign-in with an authenticator app (local accounts; the issuer owns it in OIDC mode).
 * Whether it is on comes from `GET /api/account`.
 */
function TwoFactorRow({ onSetUp, onTurnOff }: { onSetUp: () => void; onTurnOff: () => void }) {
  const account = useGetAccountQuery();
  const known = account.data !== undefined;
  const enabled = account.data?.twoFactorEnabled === true;
  return (
    <AccountRow
      label="Two-Factor Auth"
      status={
        known && (
          <span className={`badge ${enabled ? 'badge-success' : 'badge-neutral'} account-row-status`} data-testid="two-factor-status">
            {enabled ? 'On' : 'Off'}
          </span>
        )
      }
      description={
        enabled
          ? 'Signing in asks for a code from your authenticator app.'
          : 'Ask for a code from an authenticator app as well as your password when you sign in.'
      }
      action={
        enabled ? (
          <button type="button" className="btn btn-sm btn-outline" onClick={onTurnOff}>
            <ShieldOff size={14} aria-hidden="true" /> Turn off
          </button>
        ) : (
          <button type="button" className="btn btn-sm btn-outline" onClick={onSetUp} disabled={!known} title={known ? undefined : 'Loading...'}>
            <KeyRound size={14} aria-hidden="true" /> Set up
          </button>
        )
      }
    />
  );
}

function SubscriptionCard() {
  return (
    <AccountCard title="Subscription" icon={CreditCard} footer={<UnavailableButton>Upgrade</UnavailableButton>}>
      <p className="plan-name">Free Plan</p>
      <ul className="plan-features">
        <li>10 GB storage</li>
        <li>Basic features</li>
        <li>Community support</li>
      </ul>
    </AccountCard>
  );
}

function DangerZoneCard() {
  return (
    <AccountCard title="Danger Zone" icon={AlertTriangle} tone="danger">
      <AccountRow
        label="Delete Account"
        description="Remove your account and everything in it. This cannot be undone."
        action={<UnavailableButton danger>Delete Account</UnavailableButton>}
      />
    </AccountCard>
  );
}

/** Asks first, ends every session of the account on the server, then signs out here. */
function SignOutEverywhereDialog({ onClose }: { onClose: () => void }) {
  const dispatch = useAppDispatch();
  const showError = useErrorToast();
  const navigate = useNavigate();
  const [logoutAll, { isLoading }] = useLogoutAllMutation();

  async function confirm() {
    try {
      await logoutAll().unwrap();
    } catch (failure) {
      showError(failure, SIGN_OUT_EVERYWHERE_FAILED);
      onClose();
      return;
    }
    // This session has ended with the others: only the local state is left to clear.
    dispatch(signedOut());
    void navigate(paths.signIn, { replace: true });
  }

  return (
    <ConfirmDialog
      title="Sign out everywhere?"
      description="This ends every session of your account, on this device and on all others. You will need to sign in again everywhere."
      confirmLabel="Sign out everywhere"
      busyLabel="Signing out..."
      busy={isLoading}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
