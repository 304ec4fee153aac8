import { baseApi } from './baseApi';
import type { Schema } from './types';

/**
 * The user's settings (docs/product-spec.md §3; docs/conversion-settings-api.md). They live here and not in the
 * settings feature because three features read them: the app shell applies `theme`, the Vault
 * takes `defaultView` and `transcriptsPerPage`, and the realtime toasts follow `notifications`.
 */

export type ThemeSetting = Schema<'Theme'>;
export const THEMES = ['light', 'dark', 'system'] as const satisfies readonly ThemeSetting[];
export type VaultViewSetting = Schema<'DefaultView'>;
export const VAULT_VIEWS = ['list', 'grid'] as const satisfies readonly VaultViewSetting[];
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/**
 * downloadComplete: a download job finished; scheduledSync: a scheduled sync found videos;
 * errors: every notification of type error.
 */
export type NotificationSettings = Required<Schema<'Notifications'>>;

/**
 * The contract's settings as the app uses them (mergeUserSettings): every field filled in, and
 * the page size one of PAGE_SIZES.
 */
export type UserSettings = Required<Omit<Schema<'UserSettings'>, 'transcriptsPerPage' | 'notifications' | 'privacy' | 'storage'>> & {
  transcriptsPerPage: PageSize;
  notifications: NotificationSettings;
  privacy: Required<Schema<'Privacy'>>;
  storage: Required<Schema<'StorageSettings'>>;
};

/** The defaults of docs/product-spec.md §3, also what the app uses while the settings load or when loading fails. */
export const DEFAULT_USER_SETTINGS: UserSettings = {
  theme: 'system',
  defaultView: 'list',
  transcriptsPerPage: 20,
  autoDownload: false,
  useCaptions: false,
  notifications: { downloadComplete: true, scheduledSync: true, errors: true },
  privacy: { allowAnalytics: true, shareUsageData: false },
  storage: { maxStorageGB: 10, autoCleanup: false, cleanupAfterDays: 30 },
  transcriptionLanguage: 'auto',
};

/** Limits of docs/product-spec.md §5 (and §9). */
export const STORAGE_GB_LIMITS = { min: 1, max: 1000 } as const;
export const CLEANUP_DAYS_LIMITS = { min: 1, max: 365 } as const;

const pick = <T>(allowed: readonly T[], value: unknown, fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;
const bool = (value: unknown, fallback: boolean) => (typeof value === 'boolean' ? value : fallback);
const wholeNumberIn = (value: unknown, { min, max }: { min: number; max: number }, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
/** `auto` or a language code as Whisper spells them (`de`, `haw`); the server checks which exist. */
const languageCode = (value: unknown, fallback: string) =>
  typeof value === 'string' && /^[a-z]{2,3}$|^auto$/.test(value) ? value : fallback;
const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * Server values merged over the defaults, field by field (docs/product-spec.md §3): a missing or malformed field
 * keeps its default, so an older server or a partial answer cannot break a screen.
 */
export function mergeUserSettings(raw: unknown): UserSettings {
  const value = objectOr(raw);
  const notifications = objectOr(value.notifications);
  const privacy = objectOr(value.privacy);
  const storage = objectOr(value.storage);
  const defaults = DEFAULT_USER_SETTINGS;
  return {
    theme: pick(THEMES, value.theme, defaults.theme),
    defaultView: pick(VAULT_VIEWS, value.defaultView, defaults.defaultView),
    transcriptsPerPage: pick(PAGE_SIZES, value.transcriptsPerPage, defaults.transcriptsPerPage),
    autoDownload: bool(value.autoDownload, defaults.autoDownload),
    useCaptions: bool(value.useCaptions, defaults.useCaptions),
    notifications: {
      downloadComplete: bool(notifications.downloadComplete, defaults.notifications.downloadComplete),
      scheduledSync: bool(notifications.scheduledSync, defaults.notifications.scheduledSync),
      errors: bool(notifications.errors, defaults.notifications.errors),
    },
    privacy: {
      allowAnalytics: bool(privacy.allowAnalytics, defaults.privacy.allowAnalytics),
      shareUsageData: bool(privacy.shareUsageData, defaults.privacy.shareUsageData),
    },
    storage: {
      maxStorageGB: wholeNumberIn(storage.maxStorageGB, STORAGE_GB_LIMITS, defaults.storage.maxStorageGB),
      autoCleanup: bool(storage.autoCleanup, defaults.storage.autoCleanup),
      cleanupAfterDays: wholeNumberIn(storage.cleanupAfterDays, CLEANUP_DAYS_LIMITS, defaults.storage.cleanupAfterDays),
    },
    transcriptionLanguage: languageCode(value.transcriptionLanguage, defaults.transcriptionLanguage),
  };
}

/** Fallback texts of docs/product-spec.md §8, after the server's error.message. */
export const SETTINGS_ERRORS = {
  fetch: 'Failed to fetch settings',
  update: 'Failed to update settings',
  reset: 'Failed to reset settings',
} as const;

// Each of these changes server state: never repeated by itself.
const once = { maxRetries: 0 };
const toSettings = (response: Schema<'Envelope_UserSettings'> | null) => mergeUserSettings(response?.data);

export const userSettingsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getUserSettings: build.query<UserSettings, void>({
      query: () => '/user/settings',
      transformResponse: toSettings,
      providesTags: ['UserSettings'],
    }),
    /** PATCH with the full object (the contract's shape); the answer is what is now stored. */
    updateUserSettings: build.mutation<UserSettings, UserSettings>({
      query: (body) => ({ url: '/user/settings', method: 'PATCH', body }),
      transformResponse: toSettings,
      extraOptions: once,
      async onQueryStarted(_settings, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(userSettingsApi.util.upsertQueryData('getUserSettings', undefined, data));
      },
    }),
    resetUserSettings: build.mutation<UserSettings, void>({
      query: () => ({ url: '/user/settings/reset', method: 'POST' }),
      transformResponse: toSettings,
      extraOptions: once,
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) void dispatch(userSettingsApi.util.upsertQueryData('getUserSettings', undefined, data));
      },
    }),
  }),
});

export const { useGetUserSettingsQuery, useUpdateUserSettingsMutation, useResetUserSettingsMutation } = userSettingsApi;

/** 'loading' until the first answer; 'failed' means the defaults are in use. */
export type UserSettingsStatus = 'loading' | 'loaded' | 'failed';

type StateWithApi = Parameters<ReturnType<typeof userSettingsApi.endpoints.getUserSettings.select>>[0];

/** The settings in force: the server's once loaded, else the defaults. */
export function selectUserSettings(state: StateWithApi): UserSettings {
  return userSettingsApi.endpoints.getUserSettings.select()(state).data ?? DEFAULT_USER_SETTINGS;
}

/**
 * The settings in force and whether they came from the server. Subscribes to the query, so the
 * first screen that asks also loads them; the app shell asks as soon as the user is signed in.
 */
export function useUserSettings(): { settings: UserSettings; status: UserSettingsStatus } {
  const { data, isError, isLoading, isUninitialized } = useGetUserSettingsQuery();
  if (data) return { settings: data, status: 'loaded' };
  if (isError) return { settings: DEFAULT_USER_SETTINGS, status: 'failed' };
  return { settings: DEFAULT_USER_SETTINGS, status: isLoading || isUninitialized ? 'loading' : 'failed' };
}
