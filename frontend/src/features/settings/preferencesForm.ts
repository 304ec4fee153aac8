import type { UserSettings } from '@/api/userSettingsApi';

/**
 * A number typed into a bounded settings field (docs/product-spec.md §5): anything that is not a number becomes
 * 1; numbers are rounded to whole ones and kept within [min, max].
 */
export function coerceWholeNumber(text: string, { min, max }: { min: number; max: number }): number {
  const trimmed = text.trim();
  const value = trimmed === '' ? Number.NaN : Number(trimmed);
  if (!Number.isFinite(value)) return 1;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** True when the number typed is already a valid value, so the form can take it at once. */
export function isWholeNumberWithin(text: string, { min, max }: { min: number; max: number }): boolean {
  if (!/^\s*\d+\s*$/.test(text)) return false;
  const value = Number(text);
  return value >= min && value <= max;
}

/** Whether two settings objects hold the same values (the form is dirty when they do not). */
export function sameSettings(a: UserSettings, b: UserSettings): boolean {
  return (
    a.theme === b.theme &&
    a.defaultView === b.defaultView &&
    a.transcriptsPerPage === b.transcriptsPerPage &&
    a.autoDownload === b.autoDownload &&
    a.useCaptions === b.useCaptions &&
    a.notifications.downloadComplete === b.notifications.downloadComplete &&
    a.notifications.scheduledSync === b.notifications.scheduledSync &&
    a.notifications.errors === b.notifications.errors &&
    a.privacy.allowAnalytics === b.privacy.allowAnalytics &&
    a.privacy.shareUsageData === b.privacy.shareUsageData &&
    a.storage.maxStorageGB === b.storage.maxStorageGB &&
    a.storage.autoCleanup === b.storage.autoCleanup &&
    a.storage.cleanupAfterDays === b.storage.cleanupAfterDays &&
    a.transcriptionLanguage === b.transcriptionLanguage
  );
}
