import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_SETTINGS, mergeUserSettings } from './userSettingsApi';

describe('mergeUserSettings', () => {
  it('is the defaults of docs/product-spec.md §3 for nothing at all', () => {
    expect(mergeUserSettings(undefined)).toEqual({
      theme: 'system',
      defaultView: 'list',
      transcriptsPerPage: 20,
      autoDownload: false,
      useCaptions: false,
      notifications: { downloadComplete: true, scheduledSync: true, errors: true },
      privacy: { allowAnalytics: true, shareUsageData: false },
      storage: { maxStorageGB: 10, autoCleanup: false, cleanupAfterDays: 30 },
      transcriptionLanguage: 'auto',
    });
  });

  it('takes auto or a language code as the spoken language, and the default for anything else', () => {
    expect(mergeUserSettings({ transcriptionLanguage: 'de' }).transcriptionLanguage).toBe('de');
    expect(mergeUserSettings({ transcriptionLanguage: 'haw' }).transcriptionLanguage).toBe('haw');
    for (const malformed of ['German', 'de-DE', '', 7, null]) {
      expect(mergeUserSettings({ transcriptionLanguage: malformed }).transcriptionLanguage).toBe('auto');
    }
  });

  it('takes each valid server value and keeps the default for a missing or malformed one', () => {
    const merged = mergeUserSettings({
      theme: 'dark',
      defaultView: 'table',
      transcriptsPerPage: 30,
      notifications: { errors: false, scheduledSync: 'no' },
      storage: { maxStorageGB: 250, cleanupAfterDays: 0 },
      useCaptions: 'yes',
      extra: true,
    });
    expect(merged).toEqual({
      ...DEFAULT_USER_SETTINGS,
      theme: 'dark',
      notifications: { ...DEFAULT_USER_SETTINGS.notifications, errors: false },
      storage: { ...DEFAULT_USER_SETTINGS.storage, maxStorageGB: 250 },
    });
  });
});
