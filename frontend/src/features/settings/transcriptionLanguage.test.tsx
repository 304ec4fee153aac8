import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Schema } from '@/api/types';
import { DEFAULT_USER_SETTINGS } from '@/api/userSettingsApi';
import { renderWithProviders } from '@/testing/renderWithProviders';
import { errorResponse, server } from '@/testing/server';

/** /api/user/settings holding `stored`, recording every PATCH. */
function settingsBackend(stored: Schema<'UserSettings'> = DEFAULT_USER_SETTINGS) {
  const state = { stored, patches: [] as Schema<'UserSettings'>[] };
  server.use(
    http.get('/api/user/settings', () => HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: state.stored })),
    http.patch('/api/user/settings', async ({ request }) => {
      const body = (await request.json()) as Schema<'UserSettings'>;
      state.patches.push(body);
      state.stored = body;
      return HttpResponse.json<Schema<'Envelope_UserSettings'>>({ data: state.stored });
    }),
  );
  return state;
}

async function renderLanguageSelect() {
  const { user } = renderWithProviders({ route: '/settings' });
  const card = await screen.findByRole('region', { name: 'Transcription' });
  return { user, select: within(card).getByRole('combobox', { name: 'Spoken language' }) };
}

const optionNames = (select: HTMLElement) => within(select).getAllByRole('option').map((option) => option.textContent);

describe('/settings default spoken language', () => {
  it("offers Auto-detect (the default) and the server's languages by name, and saves the code chosen", async () => {
    const backend = settingsBackend();
    const { user, select } = await renderLanguageSelect();
    expect(select).toHaveValue('auto');
    await waitFor(() => expect(optionNames(select)).toEqual(['Auto-detect', 'Chinese', 'English', 'French', 'German', 'Spanish']));

    await user.selectOptions(select, 'German');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(backend.patches).toHaveLength(1));
    expect(backend.patches[0].transcriptionLanguage).toBe('de');
    // Saved: the form is clean and shows what is stored.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument());
    expect(select).toHaveValue('de');
  });

  it('shows the saved language, and keeps it selectable when the list cannot be loaded', async () => {
    settingsBackend({ ...DEFAULT_USER_SETTINGS, transcriptionLanguage: 'es' });
    server.use(http.get('/api/transcription/languages', () => errorResponse(503, 'Transcription is unavailable')));
    const { select } = await renderLanguageSelect();
    await waitFor(() => expect(select).toHaveValue('es'));
    expect(optionNames(select)).toEqual(['Auto-detect', 'Spanish']);
    expect(await screen.findByText(/list of languages could not be loaded/)).toBeInTheDocument();
  });
});
