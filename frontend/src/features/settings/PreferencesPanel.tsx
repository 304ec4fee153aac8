import {
  Bell,
  Download,
  HardDrive,
  Languages,
  LayoutGrid,
  List,
  LoaderCircle,
  Monitor,
  Moon,
  Palette,
  RotateCcw,
  Save,
  Shield,
  Sun,
  Undo2,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import {
  CLEANUP_DAYS_LIMITS,
  PAGE_SIZES,
  SETTINGS_ERRORS,
  STORAGE_GB_LIMITS,
  useResetUserSettingsMutation,
  useUpdateUserSettingsMutation,
  useUserSettings,
  type PageSize,
  type ThemeSetting,
  type UserSettings,
  type VaultViewSetting,
} from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { showToast, useErrorToast } from '@/lib/toast';
import { coerceWholeNumber, isWholeNumberWithin, sameSettings } from './preferencesForm';
import { TranscriptionLanguageField } from './TranscriptionLanguageField';

const THEME_CHOICES: ReadonlyArray<{ value: ThemeSetting; label: string; icon: LucideIcon }> = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'System', icon: Monitor },
];
const VIEW_CHOICES: ReadonlyArray<{ value: VaultViewSetting; label: string; icon: LucideIcon }> = [
  { value: 'list', label: 'List', icon: List },
  { value: 'grid', label: 'Grid', icon: LayoutGrid },
];

/**
 * The Preferences tab of /settings (docs/product-spec.md §2): the saved settings in a form. Changes stay in a
 * draft; Discard and Save Changes appear only while the draft differs from what is saved (§4).
 * Nothing applies (theme, Vault view, page size) until it is saved.
 */
export function PreferencesPanel() {
  const dispatch = useAppDispatch();
  const { settings: saved, status } = useUserSettings();
  const [draft, setDraft] = useState<UserSettings | null>(null);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [updateSettings, { isLoading: saving }] = useUpdateUserSettingsMutation();
  const [resetSettings, { isLoading: resetting }] = useResetUserSettingsMutation();
  const form = draft ?? saved;
  const dirty = draft !== null && !sameSettings(draft, saved);

  const change = (next: Partial<UserSettings>) => setDraft({ ...form, ...next });
  const failed = useErrorToast();

  async function save() {
    if (!draft) return;
    try {
      await updateSettings(draft).unwrap();
      setDraft(null);
      dispatch(showToast({ title: 'Settings saved', description: 'Your preferences have been updated.', variant: 'success' }));
    } catch (failure) {
      failed(failure, SETTINGS_ERRORS.update);
    }
  }

  async function reset() {
    try {
      await resetSettings().unwrap();
      setDraft(null);
      setConfirmingReset(false);
      dispatch(showToast({ title: 'Settings reset', description: 'All settings have been reset to defaults.', variant: 'success' }));
    } catch (failure) {
      setConfirmingReset(false);
      failed(failure, SETTINGS_ERRORS.reset);
    }
  }

  if (status === 'loading') {
    return (
      <p className="card card-body muted" role="status">
        Loading...
      </p>
    );
  }

  return (
    <div className="preferences">
      <div className="preferences-bar">
        <p className="muted">{dirty ? 'You have unsaved changes.' : 'Changes apply once saved.'}</p>
        {dirty && (
          <div className="button-row">
            <button type="button" className="btn btn-outline" disabled={saving} onClick={() => setDraft(null)}>
              <Undo2 size={16} aria-hidden="true" /> Discard
            </button>
            <button type="button" className="btn btn-primary" disabled={saving} onClick={() => void save()}>
              {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Save size={16} aria-hidden="true" />}
              Save Changes
            </button>
          </div>
        )}
      </div>

      <div className="preferences-grid">
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

        <SettingsCard title="Transcription" description="How your recordings are transcribed." icon={Languages}>
          <TranscriptionLanguageField
            value={form.transcriptionLanguage}
            onChange={(transcriptionLanguage) => change({ transcriptionLanguage })}
          />
        </SettingsCard>

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

        <SettingsCard title="Reset Settings" description="Put every preference back to its default." icon={RotateCcw}>
          <div>
            <button type="button" className="btn btn-danger-outline" disabled={resetting || saving} onClick={() => setConfirmingReset(true)}>
              <RotateCcw size={16} aria-hidden="true" /> Reset Settings
            </button>
          </div>
        </SettingsCard>
      </div>

      {confirmingReset && (
        <ConfirmDialog
          title="Reset all settings?"
          description="Every preference goes back to its default. Unsaved changes are lost too."
          confirmLabel="Reset"
          busyLabel="Resetting..."
          busy={resetting}
          onConfirm={() => void reset()}
          onClose={() => setConfirmingReset(false)}
        />
      )}
    </div>
  );
}

function SettingsCard({ title, description, icon: Icon, children }: { title: string; description: string; icon: LucideIcon; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="card settings-card" aria-labelledby={headingId}>
      <div className="card-header">
        <div>
          <h2 id={headingId} className="card-title">
            <Icon size={18} aria-hidden="true" /> {title}
          </h2>
          <p className="muted card-description">{description}</p>
        </div>
      </div>
      <div className="card-body settings-card-body">{children}</div>
    </section>
  );
}

/** Radio buttons drawn as a segmented control; one fieldset, its legend the accessible name. */
function ChoiceGroup<T extends string>({
  legend,
  hint,
  name,
  value,
  choices,
  onChange,
}: {
  legend: string;
  hint?: string;
  name: string;
  value: T;
  choices: ReadonlyArray<{ value: T; label: string; icon: LucideIcon }>;
  onChange: (value: T) => void;
}) {
  const baseId = useId();
  return (
    <fieldset className="choice-group" aria-describedby={hint ? `${baseId}-hint` : undefined}>
      <legend>{legend}</legend>
      <div className="segmented">
        {choices.map(({ value: choice, label, icon: Icon }) => (
          <label key={choice} className="segmented-item" data-state={value === choice ? 'on' : 'off'}>
            <input
              type="radio"
              className="visually-hidden"
              name={`${baseId}-${name}`}
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
            />
            <Icon size={16} aria-hidden="true" /> {label}
          </label>
        ))}
      </div>
      {hint && (
        <p id={`${baseId}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </fieldset>
  );
}

function PageSizeField({ value, onChange }: { value: PageSize; onChange: (value: PageSize) => void }) {
  const id = useId();
  return (
    <div className="field field-inline">
      <label htmlFor={id}>Items per page</label>
      <select id={id} value={value} onChange={(event) => onChange(Number(event.target.value) as PageSize)}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A checkbox shown as a switch (role=switch), with its label and a line saying what it does. */
function SwitchRow({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="switch-row">
      <div>
        <label htmlFor={id} className="switch-label">
          {label}
        </label>
        <p id={`${id}-description`} className="field-hint">
          {description}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        aria-describedby={`${id}-description`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}

/**
 * A bounded whole number (docs/product-spec.md §5). What is typed shows as typed; a valid number is taken at
 * once, and anything else is settled when the field is left (or Enter is pressed): not a number
 * becomes 1, and numbers are kept within the limits.
 */
function NumberField({
  label,
  hint,
  value,
  limits,
  onChange,
}: {
  label: string;
  hint: string;
  value: number;
  limits: { min: number; max: number };
  onChange: (value: number) => void;
}) {
  const id = useId();
  const [text, setText] = useState<string | null>(null);

  function commit() {
    if (text === null) return;
    const settled = coerceWholeNumber(text, limits);
    setText(null);
    if (settled !== value) onChange(settled);
  }

  return (
    <div className="field field-number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={text ?? String(value)}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          if (isWholeNumberWithin(event.target.value, limits)) onChange(Number(event.target.value));
        }}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <p id={`${id}-hint`} className="field-hint">
        {hint}
      </p>
    </div>
  );
}
