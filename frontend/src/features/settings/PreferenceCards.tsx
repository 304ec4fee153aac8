import {
  Bell,
  Download,
  HardDrive,
  Languages,
  LayoutGrid,
  List,
  Monitor,
  Moon,
  Palette,
  RotateCcw,
  Shield,
  Sun,
  type LucideIcon,
} from 'lucide-react';
import { CLEANUP_DAYS_LIMITS, STORAGE_GB_LIMITS, type ThemeSetting, type UserSettings, type VaultViewSetting } from '@/api/userSettingsApi';
import { ChoiceGroup, NumberField, PageSizeField, SettingsCard, SwitchRow } from './PreferenceControls';
import { TranscriptionLanguageField } from './TranscriptionLanguageField';

/** The cards of the Preferences tab (PreferencesPanel.tsx), each showing the form and changing the draft. */
interface PreferenceCardProps {
  form: UserSettings;
  change: (next: Partial<UserSettings>) => void;
}

const THEME_CHOICES: ReadonlyArray<{ value: ThemeSetting; label: string; icon: LucideIcon }> = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'System', icon: Monitor },
];
const VIEW_CHOICES: ReadonlyArray<{ value: VaultViewSetting; label: string; icon: LucideIcon }> = [
  { value: 'list', label: 'List', icon: List },
  { value: 'grid', label: 'Grid', icon: LayoutGrid },
];

export function AppearanceCard({ form, change }: PreferenceCardProps) {
  return (
    <SettingsCard title="Appearance" description="How Scribevault looks and how the Vault lists items." icon={Palette}>
      <ChoiceGroup legend="Theme" name="theme" value={form.theme} choices={THEME_CHOICES} onChange={(theme) => change({ theme })} />
      <ChoiceGroup
        legend="Default view"
        hint="How the Vault opens. The view you pick there is remembered until this changes."
        name="defaultView"
        value={form.defaultView}
        choices={VIEW_CHOICES}
        onChange={(defaultView) => change({ defaultView })}
      />
      <PageSizeField value={form.transcriptsPerPage} onChange={(transcriptsPerPage) => change({ transcriptsPerPage })} />
    </SettingsCard>
  );
}

export function DownloadsCard({ form, change }: PreferenceCardProps) {
  return (
    <SettingsCard title="Downloads" description="What happens when a scheduled sync finds new videos." icon={Download}>
      <SwitchRow
        label="Auto-download new videos"
        description="Start downloading the audio of new videos a scheduled sync finds."
        checked={form.autoDownload}
        onChange={(autoDownload) => change({ autoDownload })}
      />
      <SwitchRow
        label="Use YouTube captions when available"
        description="The default for new download jobs and schedules: a video with captions in its original language becomes a Vault item at once, one without goes to Whisper."
        checked={form.useCaptions}
        onChange={(useCaptions) => change({ useCaptions })}
      />
    </SettingsCard>
  );
}

export function TranscriptionCard({ form, change }: PreferenceCardProps) {
  return (
    <SettingsCard title="Transcription" description="How your recordings are transcribed." icon={Languages}>
      <TranscriptionLanguageField
        value={form.transcriptionLanguage}
        onChange={(transcriptionLanguage) => change({ transcriptionLanguage })}
      />
    </SettingsCard>
  );
}

export function NotificationsCard({ form, change }: PreferenceCardProps) {
  return (
    <SettingsCard title="Notifications" description="Which notifications reach you." icon={Bell}>
      <SwitchRow
        label="Download complete"
        description="When a download job finishes."
        checked={form.notifications.downloadComplete}
        onChange={(downloadComplete) => change({ notifications: { ...form.notifications, downloadComplete } })}
      />
      <SwitchRow
        label="Scheduled sync"
        description="When a scheduled sync finds new videos."
        checked={form.notifications.scheduledSync}
        onChange={(scheduledSync) => change({ notifications: { ...form.notifications, scheduledSync } })}
      />
      <SwitchRow
        label="Errors"
        description="When something goes wrong on the server."
        checked={form.notifications.errors}
        onChange={(errors) => change({ notifications: { ...form.notifications, errors } })}
      />
    </SettingsCard>
  );
}

export function PrivacyCard({ form, change }: PreferenceCardProps) {
  return (
    <SettingsCard title="Privacy" description="Your data choices." icon={Shield}>
      <SwitchRow
        label="Allow analytics"
        description="Permit usage analytics."
        checked={form.privacy.allowAnalytics}
        onChange={(allowAnalytics) => change({ privacy: { ...form.privacy, allowAnalytics } })}
      />
      <SwitchRow
        label="Share usage data"
        description="Permit sharing anonymous usage data."
        checked={form.privacy.shareUsageData}
        onChange={(shareUsageData) => change({ privacy: { ...form.privacy, shareUsageData } })}
      />
      <p className="field-hint privacy-note">
        Scribevault only keeps these choices: it sends nothing anywhere, whatever they say.
      </p>
    </SettingsCard>
  );
}

export function StorageCard({ form, change }: PreferenceCardProps) {
  return (
    <SettingsCard title="Storage" description="Limits for the files Scribevault keeps for you." icon={HardDrive}>
      <NumberField
        label="Maximum storage (GB)"
        hint={`${STORAGE_GB_LIMITS.min}–${STORAGE_GB_LIMITS.max} GB. Uploads and downloads past it are refused.`}
        value={form.storage.maxStorageGB}
        limits={STORAGE_GB_LIMITS}
        onChange={(maxStorageGB) => change({ storage: { ...form.storage, maxStorageGB } })}
      />
      <SwitchRow
        label="Auto cleanup"
        description="Delete old MP3s every day. Transcripts, converted files and Vault items are never deleted."
        checked={form.storage.autoCleanup}
        onChange={(autoCleanup) => change({ storage: { ...form.storage, autoCleanup } })}
      />
      {form.storage.autoCleanup && (
        <NumberField
          label="Delete MP3s after (days)"
          hint={`${CLEANUP_DAYS_LIMITS.min}–${CLEANUP_DAYS_LIMITS.max} days.`}
          value={form.storage.cleanupAfterDays}
          limits={CLEANUP_DAYS_LIMITS}
          onChange={(cleanupAfterDays) => change({ storage: { ...form.storage, cleanupAfterDays } })}
        />
      )}
    </SettingsCard>
  );
}

/** Reset Settings: asks first (the panel's ConfirmDialog); off while a save or reset is in flight. */
export function ResetSettingsCard({ disabled, onReset }: { disabled: boolean; onReset: () => void }) {
  return (
    <SettingsCard title="Reset Settings" description="Put every preference back to its default." icon={RotateCcw}>
      <div>
        <button type="button" className="btn btn-danger-outline" disabled={disabled} onClick={onReset}>
          <RotateCcw size={16} aria-hidden="true" /> Reset Settings
        </button>
      </div>
    </SettingsCard>
  );
}
