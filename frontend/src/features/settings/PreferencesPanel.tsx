import { LoaderCircle, Save, Undo2 } from 'lucide-react';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import {
  AppearanceCard,
  DownloadsCard,
  NotificationsCard,
  PrivacyCard,
  ResetSettingsCard,
  StorageCard,
  TranscriptionCard,
} from './PreferenceCards';
import { usePreferencesDraft, useResetPreferences } from './usePreferencesDraft';

/**
 * The Preferences tab of /settings (docs/product-spec.md §2): the saved settings in a form. Changes stay in a
 * draft; Discard and Save Changes appear only while the draft differs from what is saved (§4).
 * Nothing applies (theme, Vault view, page size) until it is saved.
 */
export function PreferencesPanel() {
  const { status, form, dirty, change, discard, save, saving } = usePreferencesDraft();
  const { confirmingReset, setConfirmingReset, reset, resetting } = useResetPreferences(discard);

  if (status === 'loading') {
    return (
      <p className="card card-body muted" role="status">
        Loading...
      </p>
    );
  }

  return (
    <div className="preferences">
      <PreferencesBar dirty={dirty} saving={saving} onDiscard={discard} onSave={() => void save()} />

      <div className="preferences-grid">
        <AppearanceCard form={form} change={change} />
        <DownloadsCard form={form} change={change} />
        <TranscriptionCard form={form} change={change} />
        <NotificationsCard form={form} change={change} />
        <PrivacyCard form={form} change={change} />
        <StorageCard form={form} change={change} />
        <ResetSettingsCard disabled={resetting || saving} onReset={() => setConfirmingReset(true)} />
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

/** Whether there are unsaved changes and, while there are, Discard and Save Changes. */
function PreferencesBar({ dirty, saving, onDiscard, onSave }: { dirty: boolean; saving: boolean; onDiscard: () => void; onSave: () => void }) {
  return (
    <div className="preferences-bar">
      <p className="muted">{dirty ? 'You have unsaved changes.' : 'Changes apply once saved.'}</p>
      {dirty && (
        <div className="button-row">
          <button type="button" className="btn btn-outline" disabled={saving} onClick={onDiscard}>
            <Undo2 size={16} aria-hidden="true" /> Discard
          </button>
          <button type="button" className="btn btn-primary" disabled={saving} onClick={onSave}>
            {saving ? <LoaderCircle className="spin" size={16} aria-hidden="true" /> : <Save size={16} aria-hidden="true" />}
            Save Changes
          </button>
        </div>
      )}
    </div>
  );
}
