import { CalendarClock, SlidersHorizontal, UserRound, type LucideIcon } from 'lucide-react';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/PageHeader';
import { PreferencesPanel } from './PreferencesPanel';
import { ScheduledSyncs } from './ScheduledSyncs';

export type SettingsTab = 'preferences' | 'schedules' | 'account';

const TABS: ReadonlyArray<{ id: SettingsTab; label: string; icon: LucideIcon }> = [
  { id: 'preferences', label: 'Preferences', icon: SlidersHorizontal },
  { id: 'schedules', label: 'Scheduled Syncs', icon: CalendarClock },
  { id: 'account', label: 'Account', icon: UserRound },
];

/** The open tab is kept in the URL (`?tab=schedules`), so a reload or a link keeps it. */
const TAB_PARAM = 'tab';
const DEFAULT_TAB: SettingsTab = 'preferences';

function tabFrom(value: string | null): SettingsTab {
  return TABS.some((tab) => tab.id === value) ? (value as SettingsTab) : DEFAULT_TAB;
}

/**
 * /settings: three tabs, Preferences first (spec §2). `account` is the Account tab's content; the
 * route passes it in because it belongs to the auth feature.
 */
export default function SettingsPage({ account }: { account: ReactNode }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const current = tabFrom(searchParams.get(TAB_PARAM));
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
    const index = TABS.findIndex((tab) => tab.id === current);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const target = TABS[(moves[event.key] + TABS.length) % TABS.length];
    select(target.id, true);
  }

  return (
    <div className="page">
      <PageHeader title="Settings" description="Manage your account, preferences, and scheduled syncs" />
      <div className="tabs settings-tabs" role="tablist" aria-label="Settings" onKeyDown={onKeyDown}>
        {TABS.map(({ id, label, icon: Icon }) => (
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
      <div role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} className="tab-panel">
        {current === 'preferences' && <PreferencesPanel />}
        {current === 'schedules' && <ScheduledSyncs />}
        {current === 'account' && account}
      </div>
    </div>
  );
}
