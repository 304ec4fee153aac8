import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { DEFAULT_USER_SETTINGS, type UserSettings } from '@/api/userSettingsApi';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';

const clone = (settings: UserSettings): UserSettings => JSON.parse(JSON.stringify(settings)) as UserSettings;

/** An in-memory /api/user/settings that records every PATCH and reset, and fails on demand. */
function settingsBackend(initial: Schema<'UserSettings'> = DEFAULT_USER_SETTINGS) {
  const state = {
    stored: initial,
    patches: [] as unknown[],
    resets: 0,
    fail: {} as Partial<Record<'get' | 'patch' | 'reset', { status: number; message?: string }>>,
    gate: null as Promise<void> | null,
  };
  const failure = (key: 'get' | 'patch' | 'reset') => {
    const fail = state.fail[key];
    if (!fail) return null;
    return fail.message
      ? errorResponse(fail.status, fail.message)
      : new HttpResponse(null, { status: fail.status });
  };
  server.use(
    http.get('/api/user/settings', async () => {
      if (state.gate) await state.gate;
      return failure('get') ?? HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: state.stored });
    }),
    http.patch('/api/user/settings', async ({ request }) => {
      const body = (await request.json()) as Schema<'UserSettings'>;
      state.patches.push(body);
      const failed = failure('patch');
      if (failed) return failed;
      state.stored = body;
      return HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: state.stored });
    }),
    http.post('/api/user/settings/reset', () => {
      state.resets += 1;
      const failed = failure('reset');
      if (failed) return failed;
      state.stored = clone(DEFAULT_USER_SETTINGS);
      return HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: state.stored });
    }),
  );
  return state;
}

async function renderPreferences() {
  const view = renderWithProviders({ route: '/settings' });
  await screen.findByRole('region', { name: 'Appearance' });
  return view;
}

const card = (name: string) => screen.getByRole('region', { name });
const saveButton = () => screen.queryByRole('button', { name: 'Save Changes' });
const discardButton = () => screen.queryByRole('button', { name: 'Discard' });
const toastTexts = () => screen.queryAllByRole('status').map((toast) => toast.textContent ?? '');

describe('/settings Preferences', () => {
  it("says 'Loading...' until the settings arrive, then shows the spec's cards", async () => {
    let release: () => void = () => {};
    const backend = settingsBackend();
    backend.gate = new Promise((resolve) => {
      release = resolve;
    });
    renderWithProviders({ route: '/settings' });
    const panel = await screen.findByRole('tabpanel', { name: 'Preferences' });
    expect(within(panel).getByText('Loading...')).toBeInTheDocument();
    release();
    await screen.findByRole('region', { name: 'Appearance' });
    for (const name of ['Appearance', 'Downloads', 'Notifications', 'Privacy', 'Storage', 'Reset Settings']) {
      expect(card(name)).toBeInTheDocument();
    }
    expect(within(panel).queryByText('Loading...')).not.toBeInTheDocument();
    // No unsaved changes: neither Discard nor Save Changes.
    expect(saveButton()).not.toBeInTheDocument();
    expect(discardButton()).not.toBeInTheDocument();
    expect(within(card('Privacy')).getByText(/sends nothing anywhere/)).toBeInTheDocument();
  });

  it('shows the server values merged over the defaults, every control named', async () => {
    settingsBackend();
    // Untyped: a partial body, outside the contract (which fills in every field), to check the merge over the defaults.
    server.use(http.get('/api/user/settings', () => HttpResponse.json({ data: { theme: 'dark', transcriptsPerPage: 50, storage: { autoCleanup: true } } })));
    await renderPreferences();
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'List' })).toBeChecked();
    expect(screen.getByLabelText('Items per page')).toHaveValue('50');
    expect(screen.getByRole('option', { name: '10' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: '100' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Auto-download new videos' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Download complete' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Scheduled sync' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Errors' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Allow analytics' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Share usage data' })).not.toBeChecked();
    expect(screen.getByLabelText('Maximum storage (GB)')).toHaveValue('10');
    expect(screen.getByRole('switch', { name: 'Auto cleanup' })).toBeChecked();
    expect(screen.getByLabelText('Delete MP3s after (days)')).toHaveValue('30');
  });

  it('shows Discard and Save Changes only while the form differs from what is saved; Discard restores', async () => {
    settingsBackend();
    const { user } = await renderPreferences();
    await user.selectOptions(screen.getByLabelText('Items per page'), '50');
    expect(saveButton()).toBeInTheDocument();
    expect(discardButton()).toBeInTheDocument();
    // Changing it back makes the form equal to the saved settings again: not dirty.
    await user.selectOptions(screen.getByLabelText('Items per page'), '20');
    expect(saveButton()).not.toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Errors' }));
    await user.click(screen.getByRole('radio', { name: 'Grid' }));
    await user.click(discardButton()!);
    expect(screen.getByRole('switch', { name: 'Errors' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'List' })).toBeChecked();
    expect(saveButton()).not.toBeInTheDocument();
  });
});

describe('/settings Preferences: saving and limits', () => {
  it('saves the full object, toasts it, clears dirty and applies the theme to <html>', async () => {
    const backend = settingsBackend();
    const { user } = await renderPreferences();
    expect(document.documentElement.dataset.theme).toBe('light');
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    // Nothing applies before it is saved.
    expect(document.documentElement.dataset.theme).toBe('light');
    await user.click(screen.getByRole('switch', { name: 'Scheduled sync' }));
    await user.click(saveButton()!);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Settings saved'))).toBe(true));
    expect(toastTexts().some((text) => text.includes('Your preferences have been updated.'))).toBe(true);
    expect(backend.patches).toEqual([
      { ...DEFAULT_USER_SETTINGS, theme: 'dark', notifications: { ...DEFAULT_USER_SETTINGS.notifications, scheduledSync: false } },
    ]);
    expect(saveButton()).not.toBeInTheDocument();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it("saves 'Use YouTube captions when available', the default of new download jobs and schedules", async () => {
    const backend = settingsBackend();
    const { user } = await renderPreferences();
    const captions = screen.getByRole('switch', { name: 'Use YouTube captions when available' });
    expect(captions).not.toBeChecked();
    await user.click(captions);
    await user.click(saveButton()!);
    await waitFor(() => expect(backend.patches).toHaveLength(1));
    expect(backend.patches[0]).toEqual({ ...DEFAULT_USER_SETTINGS, useCaptions: true });
    expect(saveButton()).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Use YouTube captions when available' })).toBeChecked();
  });

  it('settles a number that is not one to 1 and keeps numbers within their limits', async () => {
    settingsBackend();
    const { user } = await renderPreferences();
    const storage = screen.getByLabelText('Maximum storage (GB)');
    await user.clear(storage);
    await user.type(storage, 'abc');
    await user.tab();
    expect(storage).toHaveValue('1');
    await user.clear(storage);
    await user.type(storage, '5000');
    await user.tab();
    expect(storage).toHaveValue('1000');
    await user.clear(storage);
    await user.type(storage, '250');
    expect(storage).toHaveValue('250');
    expect(saveButton()).toBeInTheDocument();
  });

  it('shows the cleanup days only while auto cleanup is on, and settles them the same way', async () => {
    const backend = settingsBackend();
    const { user } = await renderPreferences();
    expect(screen.queryByLabelText('Delete MP3s after (days)')).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Auto cleanup' }));
    const days = screen.getByLabelText('Delete MP3s after (days)');
    expect(days).toHaveValue('30');
    await user.clear(days);
    await user.type(days, 'x');
    await user.tab();
    expect(days).toHaveValue('1');
    await user.clear(days);
    await user.type(days, '900');
    await user.tab();
    expect(days).toHaveValue('365');
    await user.click(saveButton()!);
    await waitFor(() => expect(backend.patches).toHaveLength(1));
    expect(backend.patches[0]).toMatchObject({ storage: { maxStorageGB: 10, autoCleanup: true, cleanupAfterDays: 365 } });
    await user.click(screen.getByRole('switch', { name: 'Auto cleanup' }));
    expect(screen.queryByLabelText('Delete MP3s after (days)')).not.toBeInTheDocument();
  });
});

describe('/settings Preferences: reset and errors', () => {
  it('resets after a confirmation and toasts it', async () => {
    const backend = settingsBackend({ ...DEFAULT_USER_SETTINGS, theme: 'dark', defaultView: 'grid' });
    const { user } = await renderPreferences();
    expect(screen.getByRole('radio', { name: 'Grid' })).toBeChecked();
    await user.click(within(card('Reset Settings')).getByRole('button', { name: 'Reset Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset all settings?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(backend.resets).toBe(0);
    await user.click(within(card('Reset Settings')).getByRole('button', { name: 'Reset Settings' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reset all settings?' })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Settings reset'))).toBe(true));
    expect(toastTexts().some((text) => text.includes('All settings have been reset to defaults.'))).toBe(true);
    expect(backend.resets).toBe(1);
    expect(screen.getByRole('radio', { name: 'List' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  });

  it('toasts Error with the server message, else the spec fallbacks', async () => {
    const backend = settingsBackend();
    backend.fail.patch = { status: 400, message: 'storage.maxStorageGB must be a whole number from 1 to 1000' };
    const { user } = await renderPreferences();
    await user.click(screen.getByRole('radio', { name: 'Grid' }));
    await user.click(saveButton()!);
    await waitFor(() =>
      expect(toastTexts().some((text) => text.includes('storage.maxStorageGB must be a whole number from 1 to 1000'))).toBe(true),
    );
    // The draft stays, so nothing typed is lost.
    expect(saveButton()).toBeInTheDocument();
    backend.fail.patch = { status: 500 };
    await user.click(saveButton()!);
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Failed to update settings'))).toBe(true));

    backend.fail.reset = { status: 503 };
    await user.click(within(card('Reset Settings')).getByRole('button', { name: 'Reset Settings' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Reset all settings?' })).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(toastTexts().some((text) => text.includes('Failed to reset settings'))).toBe(true));
  });

  it('goes on with the defaults when the settings cannot be fetched, after an Error toast', async () => {
    const backend = settingsBackend();
    backend.fail.get = { status: 404, message: 'Failed to fetch settings' };
    await renderPreferences();
    // A destructive toast is read out with a 'Notification' prefix.
    await waitFor(() => expect(toastTexts().some((text) => /Error\s*Failed to fetch settings/.test(text))).toBe(true), { timeout: 3000 });
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    expect(screen.getByLabelText('Items per page')).toHaveValue('20');
  });
});

describe('/settings Account', () => {
  it('shows the placeholder cards of the spec, their buttons disabled rather than dead', async () => {
    renderWithProviders({ route: '/settings?tab=account' });
    const panel = await screen.findByRole('tabpanel', { name: 'Account' });
    for (const name of ['Profile', 'Storage', 'Privacy & Security', 'Danger Zone', 'Subscription']) {
      expect(within(panel).getByRole('region', { name })).toBeInTheDocument();
    }
    expect(within(panel).getByText('0 MB / 10 GB')).toBeInTheDocument();
    expect(within(panel).getByRole('meter', { name: 'Storage used' })).toHaveAttribute('aria-valuenow', '0');
    expect(within(panel).getByText('Free Plan')).toBeInTheDocument();
    for (const text of ['10 GB storage', 'Basic features', 'Community support', 'Email Preferences', 'Data Export', 'Two-Factor Auth']) {
      expect(within(panel).getByText(text)).toBeInTheDocument();
    }
    for (const name of ['Edit', 'Manage', 'Manage Files', 'Export', 'Delete Account', 'Upgrade']) {
      const button = within(panel).getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAttribute('title', 'Not available yet');
    }
    expect(within(panel).getByRole('button', { name: 'Sign out' })).toBeEnabled();
  });
});
