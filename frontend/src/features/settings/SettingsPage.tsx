import { CalendarClock, Rss, SlidersHorizontal, UserRound, Users, Webhook, type LucideIcon } from 'lucide-react';
import { Suspense, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useGetAccountQuery } from '@/api/accountApi';
import { PageHeader } from '@/components/PageHeader';
import { PodcastFeedsPanel } from './PodcastFeedsPanel';
import { PreferencesPanel } from './PreferencesPanel';
import { ScheduledSyncs } from './ScheduledSyncs';
import { WebhooksPanel } from './WebhooksPanel';

export type SettingsTab = 'preferences' | 'schedules' | 'webhooks' | 'feeds' | 'account' | 'users';

interface TabDefinition {
  id: SettingsTab;
  label: string;
  icon: LucideIcon;
}

const TABS: readonly TabDefinition[] = [
  { id: 'preferences', label: 'Preferences', icon: SlidersHorizontal },
  { id: 'schedules', label: 'Scheduled Syncs', icon: CalendarClock },
  { id: 'webhooks', label: 'Webhooks', icon: Webhook },
  { id: 'feeds', label: 'Podcast Feeds', icon: Rss },
  { id: 'account', label: 'Account', icon: UserRound },
];
/** Only for admins (`GET /api/account` says `isAdmin`); nobody else ever sees it. */
const USERS_TAB: TabDefinition = { id: 'users', label: 'Users', icon: Users };

/** The open tab is kept in the URL (`?tab=schedules`), so a reload or a link keeps it. */
const TAB_PARAM = 'tab';
const DEFAULT_TAB: SettingsTab = 'preferences';

function tabFrom(value: string | null, tabs: readonly TabDefinition[]): SettingsTab {
  return tabs.some((tab) => tab.id === value) ? (value as SettingsTab) : DEFAULT_TAB;
}

/**
 * /settings: three tabs, Preferences first (docs/product-spec.md §2), and Users for admins. `account` is the
 * Account tab's content and `users` the Users tab's; the route passes them in because they belong
 * to the auth and admin features.
 */
export default function SettingsPage({ account, users }: { account: ReactNode; users?: ReactNode }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const accountQuery = useGetAccountQuery();
  const isAdmin = accountQuery.data?.isAdmin === true;
  const tabs = users && isAdmin ? [...TABS, USERS_TAB] : TABS;
  const requested = searchParams.get(TAB_PARAM);
  // A link to ?tab=users waits for the answer instead of flashing Preferences first.
  const waitingForAccount = requested === USERS_TAB.id && Boolean(users) && accountQuery.isLoading;
  const current = waitingForAccount ? USERS_TAB.id : tabFrom(requested, tabs);
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<SettingsTab, HTMLButtonElement | null>>>({});
  const tabId = (tab: SettingsTab) => `${baseId}-tab-${tab}`;
  const panelId = (tab: SettingsTab) => `${baseId}-panel-${tab}`;

  function select(tab: SettingsTab, focus = false) {
    const next = new URLSearchParams(searchParams);
    if (tab === DEFAULT_TAB) next.delete(TAB_PARAM);
    else next.set(TAB_PARAM, tab);
    void setSearchParams(next, { replace: true });
    if (focus) tabRefs.current[tab]?.focus();
  }

  // Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern, automatic activation).
  function onKeyDown(event: KeyboardEvent) {
    const index = tabs.findIndex((tab) => tab.id === current);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const target = tabs[(moves[event.key] + tabs.length) % tabs.length];
    select(target.id, true);
  }

  return (
    <div className="page">
      <PageHeader title="Settings" description="Manage your account, preferences, and scheduled syncs" />
      <div className="tabs settings-tabs" role="tablist" aria-label="Settings" onKeyDown={onKeyDown}>
        {tabs.map(({ id, label, icon: Icon }) => (
          <button
            key={id}
            ref={(element) => {
              tabRefs.current[id] = element;
            }}
            type="button"
            role="tab"
            id={tabId(id)}
            className="tab"
            aria-selected={current === id}
            aria-controls={panelId(id)}
            tabIndex={current === id ? 0 : -1}
            onClick={() => select(id)}
          >
            <Icon size={16} aria-hidden="true" />
            {label}
          </button>
        ))}
      </div>
      {waitingForAccount ? (
        <p className="card card-body muted" role="status">
          Loading...
        </p>
      ) : (
        <div role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} className="tab-panel">
          {current === 'preferences' && <PreferencesPanel />}
          {current === 'schedules' && <ScheduledSyncs />}
          {current === 'webhooks' && <WebhooksPanel />}
          {current === 'feeds' && <PodcastFeedsPanel />}
          {current === 'account' && account}
          {current === 'users' && (
            <Suspense
              fallback={
                <p className="card card-body muted" role="status">
                  Loading...
                </p>
              }
            >
              {users}
            </Suspense>
          )}
        </div>
      )}
    </div>
  );
}
