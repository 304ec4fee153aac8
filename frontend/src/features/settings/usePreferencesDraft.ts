import { useState } from 'react';
import {
  SETTINGS_ERRORS,
  useResetUserSettingsMutation,
  useUpdateUserSettingsMutation,
  useUserSettings,
  type UserSettings,
} from '@/api/userSettingsApi';
import { useAppDispatch } from '@/app/hooks';
import { showToast, useErrorToast } from '@/lib/toast';
import { sameSettings } from './preferencesForm';

/**
 * The Preferences form (PreferencesPanel.tsx): the saved settings, and the draft that changes
 * keep until they are saved or discarded; `dirty` while the draft differs from what is saved.
 */
export function usePreferencesDraft() {
  const dispatch = useAppDispatch();
  const { settings: saved, status } = useUserSettings();
  const [draft, setDraft] = useState<UserSettings | null>(null);
  const [updateSettings, { isLoading: saving }] = useUpdateUserSettingsMutation();
  const form = draft ?? saved;
  const dirty = draft !== null && !sameSettings(draft, saved);
  const failed = useErrorToast();

  const change = (next: Partial<UserSettings>) => setDraft({ ...form, ...next });
  const discard = () => setDraft(null);

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

  return { status, form, dirty, change, discard, save, saving };
}

/** Reset Settings, once confirmed: every setting back to its default; `onReset` drops the draft. */
export function useResetPreferences(onReset: () => void) {
  const dispatch = useAppDispatch();
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [resetSettings, { isLoading: resetting }] = useResetUserSettingsMutation();
  const failed = useErrorToast();

  async function reset() {
    try {
      await resetSettings().unwrap();
      onReset();
      setConfirmingReset(false);
      dispatch(showToast({ title: 'Settings reset', description: 'All settings have been reset to defaults.', variant: 'success' }));
    } catch (failure) {
      setConfirmingReset(false);
      failed(failure, SETTINGS_ERRORS.reset);
    }
  }

  return { confirmingReset, setConfirmingReset, reset, resetting };
}
